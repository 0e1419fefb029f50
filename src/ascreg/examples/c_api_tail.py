"""A C API kernel with a tail: 2 blocks x 1000 ``uint32_t`` elements (not a multiple of 64 lanes).

Per block: ``y = x > 1000 ? (x & 0xFF) : (x >> 3)``, with ``asc_update_mask_b32`` masking the
last 40 lanes, the output in dynamic UB (``extern __ubuf__``), and the burst form of
``asc_copy_ub2gm_align``. The input buffer is rounded up to 1024 elements because the last
``asc_loadalign`` reads a whole register; the masked store of the tail writes only 40 lanes,
so the 4000-byte output needs no padding.

Examples
--------
>>> from ascreg.examples import c_api_tail
>>> c_api_tail.main()
[Success] C API tail kernel (2 blocks x 1000 uint32_t, tail of 40 lanes) matches numpy.
True
"""

from __future__ import annotations

import numpy as np

from ascreg import GmPtr, Ref, UbPtr, acl, uint32_t
from ascreg.c_api import (
    EVENT_ID0,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_and,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_duplicate_scalar,
    asc_get_vf_len,
    asc_gt_scalar,
    asc_init,
    asc_loadalign,
    asc_select,
    asc_shiftright_scalar,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    asc_update_mask_b32,
    asc_vf_call,
    block_idx,
    vector_bool,
    vector_uint32_t,
)

BLOCKS = 2
BLOCK_LENGTH = 1000
PADDED_LENGTH = 1024  # a load always reads a whole register: round the input buffer up to 64 lanes
THRESHOLD = 1000


@__simd_vf__
def tail_vf(dst: UbPtr[uint32_t], src: UbPtr[uint32_t], count: int) -> None:
    """``__simd_vf__ void tail_vf(__ubuf__ uint32_t* dst, __ubuf__ uint32_t* src, uint32_t count)``."""
    one_repeat = asc_get_vf_len() // uint32_t.size
    remaining = Ref(count)
    x, low_bits, ff, out = (
        vector_uint32_t(),
        vector_uint32_t(),
        vector_uint32_t(),
        vector_uint32_t(),
    )
    big = vector_bool()
    for i in range(-(-count // one_repeat)):
        mask = asc_update_mask_b32(remaining)
        asc_loadalign(x, src + i * one_repeat)
        shifted = asc_shiftright_scalar(x, 3, mask)
        asc_duplicate_scalar(ff, 0xFF, mask)
        asc_and(low_bits, x, ff, mask)
        asc_gt_scalar(big, x, THRESHOLD, mask)
        asc_select(out, low_bits, shifted, big)
        asc_storealign(dst + i * one_repeat, out, mask)


@__global__
@__vector__
def tail_kernel(y: GmPtr[uint32_t], x: GmPtr[uint32_t]) -> None:
    """``__global__ __vector__ void tail_kernel(__gm__ uint32_t* y, __gm__ uint32_t* x)``."""
    asc_init()
    x_local = __ubuf__(uint32_t, PADDED_LENGTH)
    y_local = __ubuf__.extern(uint32_t)
    offset = block_idx * BLOCK_LENGTH
    asc_copy_gm2ub_align(x_local, x + offset, BLOCK_LENGTH * uint32_t.size)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_vf_call[tail_vf](y_local, x_local, BLOCK_LENGTH)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(y + offset, y_local, 1, BLOCK_LENGTH * uint32_t.size, 0, 0, 0)
    asc_sync()


def main() -> bool:
    """Host side: launch ``tail_kernel<<<2, 4000, stream>>>`` and compare with numpy."""
    total = BLOCKS * BLOCK_LENGTH
    nbytes = total * uint32_t.size
    x = np.random.default_rng(11).integers(0, 5000, total).astype(np.uint32)
    y = np.zeros(total, dtype=np.uint32)
    acl.init(None)
    acl.rt.set_device(0)
    stream, _ = acl.rt.create_stream()
    x_device, _ = acl.rt.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(x_device, nbytes, x, nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    tail_kernel[BLOCKS, BLOCK_LENGTH * uint32_t.size, stream](
        y_device.cast(uint32_t), x_device.cast(uint32_t)
    )
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(y, nbytes, y_device, nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(0)
    acl.finalize()
    expected = np.where(x > THRESHOLD, x & 0xFF, x >> 3)
    ok = bool(np.array_equal(y, expected))
    verdict = "[Success]" if ok else "[Failed]"
    tail = BLOCK_LENGTH % (256 // uint32_t.size)
    print(
        f"{verdict} C API tail kernel ({BLOCKS} blocks x {BLOCK_LENGTH} uint32_t, "
        f"tail of {tail} lanes) matches numpy."
    )
    return ok
