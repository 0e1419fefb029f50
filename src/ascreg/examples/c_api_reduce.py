"""asc-devkit ``examples/02_simd_c_api/03_c_api/02_reg_vector_compute/reduce/reduce.asc``, line for line.

The sum of 256 floats: each repeat reduces a register with ``asc_reduce_sum`` (a pairwise tree;
the sum lands in lane 0, the other lanes are 0) and adds it into an accumulator with
``asc_add``; the accumulator's first 8 floats are copied out. The input is made as the example's
``scripts/gen_data.py`` makes it (uniform in [1, 2), golden ``[sum(x), 0, ..., 0]``); the host
sums the 8 outputs and passes when the absolute or the relative error is at most 1e-4.

Differences from the C++: ``asc_update_mask_b32(data_len)`` updates its ``uint32_t&``
argument, so the VF keeps ``data_len`` in a :class:`~ascreg.Ref`; ``y_local`` gets
:data:`STORE_SLACK` more floats than the C++ array (see there); the host takes the arrays from
``gen_golden_data_simple`` instead of ``./input/*.bin`` files (``ReadFile``).

Examples
--------
>>> main()
[Success] C API reduce (asc-devkit reduce.asc, 256 float32) matches the golden sum.
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
    asc_add,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_duplicate_scalar,
    asc_get_vf_len,
    asc_init,
    asc_loadalign,
    asc_reduce_sum,
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
OUT_ALIGN_SIZE = 8
STORE_SLACK = 56
"""Floats allocated past ``y_local`` (not in the C++): the VF stores the whole accumulator (64
floats, 256 bytes) into the 8-float array, 224 bytes past its end. The chip writes whatever UB
lies there; ascreg rejects the write (``OutOfBoundsError``), so the port allocates the slack.
With ``STORE_SLACK = 0`` the port is the C++ verbatim and fails on that store."""


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    """``ceil_division``: the number of repeats that cover *numerator* elements."""
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def reduce_sum_vf(
    x_local: UbPtr[float32_t],
    y_local: UbPtr[float32_t],
    data_len: int,
    one_rep_size: int,
    repeat_time: int,
) -> None:
    """``reduce_sum_vf``: reduce each repeat, accumulate, store the accumulator."""
    remaining = Ref(data_len)  # uint32_t& of asc_update_mask_b32
    vmask = vector_bool()
    src_reg = vector_float()
    dst_reg = vector_float()
    acc_reg = vector_float()
    zero_value = float32_t(0.0)
    asc_duplicate_scalar(acc_reg, zero_value)
    for i in range(repeat_time):
        vmask = asc_update_mask_b32(remaining)
        asc_loadalign(src_reg, x_local + i * one_rep_size)
        asc_reduce_sum(dst_reg, src_reg, vmask)
        asc_add(acc_reg, acc_reg, dst_reg, vmask)
    asc_storealign(y_local, acc_reg, vmask)


@__global__
@__vector__
def reduce_custom(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    """``reduce_custom``: copy in, run ``reduce_sum_vf``, copy 8 floats out."""
    asc_init()

    block_length = TOTAL_LENGTH // NUM_BLOCKS

    x_gm = x + block_idx * block_length
    y_gm = y + block_idx * OUT_ALIGN_SIZE

    x_local = __ubuf__(float32_t, block_length)
    y_local = __ubuf__(float32_t, OUT_ALIGN_SIZE + STORE_SLACK)  # C++: y_local[OUT_ALIGN_SIZE]

    burst_length = block_length * 4
    src_stride = 0
    dst_stride = 0

    asc_copy_gm2ub_align(x_local, x_gm, burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)

    one_rep_size = uint16_t(asc_get_vf_len() // float32_t.size)
    repeat_time = uint16_t(ceil_division(block_length, one_rep_size))
    reduce_sum_vf(x_local, y_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)

    asc_copy_ub2gm_align(
        y_gm, y_local, BLK_NUM, OUT_ALIGN_SIZE * 4, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_reduce(x: Arr) -> Arr:
    """Run the host side: copy in, launch ``reduce_custom<<<1, 0>>>``, copy 8 floats out."""
    num_blocks = NUM_BLOCKS
    total_length = x.size
    input_byte_size = total_length * float32_t.size
    output_byte_size = num_blocks * OUT_ALIGN_SIZE * float32_t.size
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)

    y_host, _ = acl.rt.malloc_host(output_byte_size)
    x_device, _ = acl.rt.malloc(input_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(output_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(x_device, input_byte_size, x, input_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)

    reduce_custom[num_blocks, 0](x_device.cast(float32_t), y_device.cast(float32_t))
    acl.rt.synchronize_device()

    acl.rt.memcpy(
        y_host, output_byte_size, y_device, output_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST
    )
    y: Arr = y_host.view(np.float32).copy()

    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.free_host(y_host)

    acl.rt.reset_device(device_id)
    acl.finalize()

    return y


def verify_result(output: Arr, golden_sum: Any) -> bool:
    """``verify_result``: the float sum of the outputs within 1e-4 (absolute or relative)."""
    result = np.float32(0.0)
    for i in range(output.size):
        result += output[i]
    eps = np.float32(1e-4)
    abs_error = np.abs(result - golden_sum)
    rel_error = abs_error / np.abs(golden_sum)
    return bool(abs_error <= eps or rel_error <= eps)


def gen_golden_data_simple(rng: np.random.Generator) -> tuple[Arr, Arr]:
    """``scripts/gen_data.py``: x uniform in [1, 2) of shape [1, 256], golden ``[sum(x), 0 * 7]``."""
    total_length = 256
    data_type = np.float32
    x = rng.uniform(1, 2, [1, total_length]).astype(data_type)
    golden = np.zeros(8, dtype=data_type)
    golden[0] = np.sum(x)
    return x, golden


def main() -> bool:
    """Make the data, run the kernel, compare the output's sum with the golden sum."""
    x, golden = gen_golden_data_simple(np.random.default_rng(0))
    output = kernel_reduce(x.reshape(-1))
    ok = verify_result(output, golden[0])
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} C API reduce (asc-devkit reduce.asc, 256 float32) matches the golden sum.")
    return ok
