"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/reduce_pair/reduce_pair.asc``, line for line.

The sums of adjacent pairs of 256 floats: each repeat reduces a register with
``asc_pair_reduce_sum`` (``src[2i] + src[2i+1]`` in the lower 32 lanes, the upper 32 lanes 0)
and stores the whole register under an ``asc_update_mask_b32`` tail mask; the host picks the 32
sums of each 64-float repeat out of the copied-back floats. The input is made as the example's
``scripts/gen_data.py`` makes it (uniform in [1, 2), golden the 128 pair sums in float32); the
host compares with ``std::equal``.

Differences from the C++: ``asc_update_mask_b32(data_len)`` updates its ``uint32_t&``
argument, so the VF keeps ``data_len`` in a :class:`~ascreg.Ref`; the host takes the arrays
from ``gen_golden_data_simple`` instead of ``./input/*.bin`` files (``ReadFile``).

Examples
--------
>>> main()
[Success] C API reduce_pair (asc-devkit reduce_pair.asc, 256 float32) matches the golden.
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GmPtr, Ref, UbPtr, acl, float32_t, uint16_t
from ascreg.c_api import (
    EVENT_ID0,
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
    asc_get_vf_len,
    asc_init,
    asc_loadalign,
    asc_pair_reduce_sum,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    asc_update_mask_b32,
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
def reduce_pair_vf(
    x_local: UbPtr[float32_t],
    y_local: UbPtr[float32_t],
    data_len: int,
    one_rep_size: int,
    repeat_time: int,
) -> None:
    """``reduce_pair_vf``: reduce each repeat with ``asc_pair_reduce_sum``, store the whole register."""
    remaining = Ref(data_len)  # uint32_t& of asc_update_mask_b32
    vmask = vector_bool()
    src_reg = vector_float()
    dst_reg = vector_float()
    for i in range(repeat_time):
        vmask = asc_update_mask_b32(remaining)
        asc_loadalign(src_reg, x_local + i * one_rep_size)
        asc_pair_reduce_sum(dst_reg, src_reg, vmask)
        asc_storealign(y_local + i * one_rep_size, dst_reg, vmask)


@__global__
@__vector__
def reduce_pair_custom(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    """``reduce_pair_custom``: copy in, run ``reduce_pair_vf``, copy the block out."""
    asc_init()

    block_length = TOTAL_LENGTH // NUM_BLOCKS

    x_gm = x + block_idx * block_length
    y_gm = y + block_idx * block_length

    x_local = __ubuf__(float32_t, block_length)
    y_local = __ubuf__(float32_t, block_length)

    burst_length = block_length * 4
    src_stride = 0
    dst_stride = 0

    asc_copy_gm2ub_align(x_local, x_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)

    one_rep_size = uint16_t(asc_get_vf_len() // float32_t.size)
    repeat_time = uint16_t(ceil_division(block_length, one_rep_size))
    reduce_pair_vf(x_local, y_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        y_gm, y_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_reduce_pair(x: Arr) -> Arr:
    """Run the host side: copy in, launch ``reduce_pair_custom<<<1, 0>>>``, pick the results out."""
    num_blocks = NUM_BLOCKS
    total_length = x.size
    output_length = total_length // 2
    x_byte_size = total_length * float32_t.size
    y_byte_size = total_length * float32_t.size
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)

    y_host, _ = acl.rt.malloc_host(y_byte_size)
    x_device, _ = acl.rt.malloc(x_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(y_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(x_device, x_byte_size, x, x_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)

    reduce_pair_custom[num_blocks, 0](x_device.cast(float32_t), y_device.cast(float32_t))
    acl.rt.synchronize_device()

    acl.rt.memcpy(y_host, y_byte_size, y_device, y_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    y = np.zeros(output_length, dtype=np.float32)
    one_rep_size = 64
    half_rep_size = 32
    for i in range(output_length):
        repeat_idx = i // half_rep_size
        elem_idx = i % half_rep_size
        actual_idx = repeat_idx * one_rep_size + elem_idx
        y[i] = y_host.view(np.float32)[actual_idx]

    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.free_host(y_host)

    acl.rt.reset_device(device_id)
    acl.finalize()

    return y


def verify_result(output: Arr, golden: Arr) -> bool:
    """``verify_result``: ``std::equal`` of the golden and the output."""
    return bool(np.array_equal(golden, output[: golden.size]))


def gen_golden_data_simple(rng: np.random.Generator) -> tuple[Arr, Arr]:
    """``scripts/gen_data.py``: x uniform in [1, 2) of shape [1, 256], golden each pair's float32 sum."""
    total_length = 256
    data_type = np.float32
    x = rng.uniform(1, 2, [1, total_length]).astype(data_type)
    golden = np.zeros(total_length // 2, dtype=data_type)
    for i in range(total_length // 2):
        golden[i] = x[0, 2 * i] + x[0, 2 * i + 1]
    num_results = total_length // 2
    aligned_size = ((num_results + 7) // 8) * 8
    golden_aligned = np.zeros(aligned_size, dtype=data_type)
    golden_aligned[:num_results] = golden
    return x, golden_aligned


def main() -> bool:
    """Make the data, run the kernel, compare with the golden."""
    x, golden = gen_golden_data_simple(np.random.default_rng(0))
    output = kernel_reduce_pair(x.reshape(-1))
    ok = verify_result(output, golden)
    verdict = "[Success]" if ok else "[Failed]"
    print(
        f"{verdict} C API reduce_pair (asc-devkit reduce_pair.asc, 256 float32) matches the golden."
    )
    return ok
