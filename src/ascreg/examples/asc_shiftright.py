"""The ``asc_shiftright`` seed program (C API docs, dav-3510), ported line for line.

Host code included: ACL init, device buffers, ``asc_shiftright_kernel<<<1, 0>>>``, copy back,
compare with ``input >> shift``.

Examples
--------
>>> from ascreg.examples import asc_shiftright
>>> asc_shiftright.main()
[Success] asc_shiftright completed.
True
"""

from __future__ import annotations

import numpy as np

from ascreg import GmPtr, UbPtr, acl, int16_t, uint16_t
from ascreg.c_api import (
    EVENT_ID0,
    PAT_ALL,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_create_mask_b16,
    asc_init,
    asc_loadalign,
    asc_shiftright,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    vector_int16_t,
    vector_uint16_t,
)

ELEMENT_COUNT = 128
BUFFER_BYTES = ELEMENT_COUNT * uint16_t.size


@__simd_vf__
def shiftright_vf(output: UbPtr[uint16_t], input: UbPtr[uint16_t], shift: UbPtr[int16_t]) -> None:
    """``__simd_vf__ inline void shiftright_vf(__ubuf__ uint16_t* output, ...)``."""
    src = vector_uint16_t()
    shift_reg = vector_int16_t()
    mask = asc_create_mask_b16(PAT_ALL)
    asc_loadalign(src, input)
    asc_loadalign(shift_reg, shift)
    dst = asc_shiftright(src, shift_reg, mask)
    asc_storealign(output, dst, mask)


@__global__
@__vector__
def asc_shiftright_kernel(
    output: GmPtr[uint16_t], input: GmPtr[uint16_t], shift: GmPtr[int16_t]
) -> None:
    """``__global__ __vector__ void asc_shiftright_kernel(__gm__ uint16_t* output, ...)``."""
    asc_init()
    output_local = __ubuf__(uint16_t, ELEMENT_COUNT)
    input_local = __ubuf__(uint16_t, ELEMENT_COUNT)
    shift_local = __ubuf__(int16_t, ELEMENT_COUNT)
    asc_copy_gm2ub_align(input_local, input, BUFFER_BYTES)
    asc_copy_gm2ub_align(shift_local, shift, BUFFER_BYTES)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    shiftright_vf(output_local, input_local, shift_local)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(output, output_local, BUFFER_BYTES)
    asc_sync()


def main() -> bool:
    """``int main()`` of the seed: returns True when every element matches."""
    input = np.zeros(ELEMENT_COUNT, dtype=np.uint16)
    shift = np.full(ELEMENT_COUNT, 1, dtype=np.int16)
    output = np.zeros(ELEMENT_COUNT, dtype=np.uint16)
    for i in range(ELEMENT_COUNT):
        input[i] = i

    acl.init(None)
    acl.rt.set_device(0)
    input_device, _ = acl.rt.malloc(BUFFER_BYTES, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    shift_device, _ = acl.rt.malloc(BUFFER_BYTES, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    output_device, _ = acl.rt.malloc(BUFFER_BYTES, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(input_device, BUFFER_BYTES, input, BUFFER_BYTES, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(shift_device, BUFFER_BYTES, shift, BUFFER_BYTES, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    asc_shiftright_kernel[1, 0](
        output_device.cast(uint16_t), input_device.cast(uint16_t), shift_device.cast(int16_t)
    )
    acl.rt.synchronize_device()
    acl.rt.memcpy(output, BUFFER_BYTES, output_device, BUFFER_BYTES, acl.ACL_MEMCPY_DEVICE_TO_HOST)

    passed = True
    for i in range(ELEMENT_COUNT):
        expected = np.uint16(input[i] >> shift[i])
        if output[i] != expected:
            passed = False
            break
    print(
        "[Success] asc_shiftright completed."
        if passed
        else "[Failed] asc_shiftright output mismatch."
    )
    acl.rt.free(input_device)
    acl.rt.free(shift_device)
    acl.rt.free(output_device)
    acl.rt.reset_device(0)
    acl.finalize()
    return passed
