"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/select/select.asc``, line for line.

``z[i] = x[i] if bit i of the b32 mask is set else y[i]`` over 256 floats: the mask bytes are
loaded into a ``vector_bool`` with ``asc_loadalign_postupdate`` (one 32-byte MaskReg per
repeat). The inputs and the golden are made as the example's ``scripts/gen_data.py`` makes them.

Differences from the C++ (Python has no pointer variables): the VF's ``mask_local`` parameter,
which ``asc_loadalign_postupdate`` advances (``T*&``), is held in a :class:`~ascreg.Ref`; C casts
of pointers (``(__ubuf__ uint32_t*)mask_local``) are ``.cast(uint32_t)``.

Examples
--------
>>> main()
[Success] C API select (asc-devkit select.asc, 256 float32) matches the golden.
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GmPtr, Ref, UbPtr, acl, float32_t, uint8_t, uint16_t, uint32_t
from ascreg.c_api import (
    EVENT_ID0,
    PAT_ALL,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __aicore__,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_create_mask_b32,
    asc_get_vf_len,
    asc_init,
    asc_loadalign,
    asc_loadalign_postupdate,
    asc_select,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    block_idx,
    vector_bool,
    vector_float,
)

Arr = np.ndarray[Any, Any]

TOTAL_LENGTH = 256
NUM_BLOCKS = 1
BLK_NUM = 1


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    """``ceil_division``: the number of repeats that cover *numerator* elements."""
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def select_vf(
    x_local: UbPtr[float32_t],
    y_local: UbPtr[float32_t],
    mask_local: UbPtr[uint32_t],
    z_local: UbPtr[float32_t],
    data_len: int,
    one_rep_size: int,
    mask_rep_size: int,
    repeat_time: int,
) -> None:
    """``select_vf``: ``repeat_time`` repeats of load, mask load, select, store."""
    mask_at = Ref(mask_local)  # the parameter asc_loadalign_postupdate advances
    vmask = vector_bool()
    src0_reg = vector_float()
    src1_reg = vector_float()
    dst_reg = vector_float()
    store_mask = asc_create_mask_b32(PAT_ALL)
    for i in range(repeat_time):
        asc_loadalign(src0_reg, x_local + i * one_rep_size)
        asc_loadalign(src1_reg, y_local + i * one_rep_size)
        asc_loadalign_postupdate(vmask, mask_at, mask_rep_size)
        asc_select(dst_reg, src0_reg, src1_reg, vmask)
        asc_storealign(z_local + i * one_rep_size, dst_reg, store_mask)


@__global__
@__vector__
def select_custom(
    x: GmPtr[float32_t], y: GmPtr[float32_t], mask: GmPtr[uint8_t], z: GmPtr[float32_t]
) -> None:
    """``select_custom``: copy in, run ``select_vf``, copy out."""
    asc_init()

    block_length = TOTAL_LENGTH // NUM_BLOCKS

    x_gm = x + block_idx * block_length
    y_gm = y + block_idx * block_length
    mask_gm = mask + block_idx * block_length // 2
    z_gm = z + block_idx * block_length

    x_local = __ubuf__(float32_t, block_length)
    y_local = __ubuf__(float32_t, block_length)
    mask_local = __ubuf__(uint8_t, block_length // 2)
    z_local = __ubuf__(float32_t, block_length)

    burst_length = block_length * 4
    mask_burst_length = (block_length // 2) * 1
    src_stride = 0
    dst_stride = 0

    asc_copy_gm2ub_align(x_local, x_gm, burst_length)
    asc_copy_gm2ub_align(y_local, y_gm, burst_length)
    asc_copy_gm2ub_align(mask_local, mask_gm, mask_burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)

    one_rep_size = uint16_t(asc_get_vf_len() // float32_t.size)
    mask_rep_size = uint16_t(asc_get_vf_len() // 8)
    repeat_time = uint16_t(ceil_division(block_length, one_rep_size))
    select_vf(
        x_local, y_local, mask_local.cast(uint32_t), z_local,
        block_length, one_rep_size, mask_rep_size, repeat_time,
    )  # fmt: skip
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        z_gm, z_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_select(x: Arr, y: Arr, mask: Arr) -> Arr:
    """Run the host side: copy in, launch ``select_custom<<<1, 0>>>``, copy out."""
    num_blocks = NUM_BLOCKS
    total_length = x.size
    x_byte_size = total_length * float32_t.size
    mask_byte_size = total_length * float32_t.size // 8
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)

    z_host, _ = acl.rt.malloc_host(x_byte_size)
    x_device, _ = acl.rt.malloc(x_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(x_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    mask_device, _ = acl.rt.malloc(mask_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    z_device, _ = acl.rt.malloc(x_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(x_device, x_byte_size, x, x_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(y_device, x_byte_size, y, x_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(mask_device, mask_byte_size, mask, mask_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)

    select_custom[num_blocks, 0](
        x_device.cast(float32_t), y_device.cast(float32_t), mask_device, z_device.cast(float32_t)
    )
    acl.rt.synchronize_device()

    acl.rt.memcpy(z_host, x_byte_size, z_device, x_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    z: Arr = z_host.view(np.float32).copy()

    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.free(mask_device)
    acl.rt.free(z_device)
    acl.rt.free_host(z_host)

    acl.rt.reset_device(device_id)
    acl.finalize()

    return z


def gen_golden_data_simple(rng: np.random.Generator) -> tuple[Arr, ...]:
    """``scripts/gen_data.py``: random x, y in [0, 2), random mask bytes, the golden by a loop."""
    total_length = 256
    data_type = np.float32
    dtype_size = np.dtype(data_type).itemsize
    repeat = total_length // (256 // dtype_size)  # b32: 64 lanes a repeat, 4 repeats
    mask_length = repeat * 32  # one 32-byte MaskReg a repeat
    x = rng.uniform(0, 2, [1, total_length]).astype(data_type)
    y = rng.uniform(0, 2, [1, total_length]).astype(data_type)
    mask = rng.integers(0, 255, [1, mask_length]).astype(np.uint8)
    golden = np.zeros([1, total_length]).astype(data_type)
    mask_num = 8 // dtype_size  # b32: a mask bit every 4 bits, 2 lanes a byte
    for i in range(total_length):
        mask_i = mask[0, i // mask_num] >> (i % mask_num * dtype_size) & 1
        golden[0, i] = x[0, i] if mask_i == 1 else y[0, i]
    return x, y, mask, golden


def main() -> bool:
    """Make the data, run the kernel, compare with the golden (``std::equal``)."""
    x, y, mask, golden = gen_golden_data_simple(np.random.default_rng(0))
    output = kernel_select(x, y, mask)
    ok = bool(np.array_equal(output, golden.reshape(-1)))
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} C API select (asc-devkit select.asc, 256 float32) matches the golden.")
    return ok
