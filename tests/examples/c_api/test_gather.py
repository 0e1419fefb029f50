"""Port of asc-devkit examples/02_simd_c_api/03_c_api/02_reg_vector_compute/gather/gather.asc.

Line for line: ``gather_vf`` loads 128 halves and 128 uint16 indices into registers and gathers
``dst[i] = src[index[i]]`` between registers with ``asc_gather`` (the register-source form),
one repeat. The input is made as scripts/gen_data.py makes it (``uniform(0, 1)`` halves,
``uniform(0, 128)`` indices truncated to uint16, golden ``x[y]``) and checked as
``verify_result`` does (``std::equal``, here on the bits).

A finding: ``burst_length = block_length * 4`` is written for float, but the elements are half,
so both copies move 512 bytes where the arrays hold 256: ``asc_copy_gm2ub_align`` reads 256
bytes past ``src`` in GM and writes them past the 128-half ``src_local``, and
``asc_copy_ub2gm_align`` reads past ``dst_local`` and writes 256 bytes past ``dst`` in GM. (On
the chip the UB overrun lands in ``index_local``, which its own copy then overwrites, and the GM
buffers sit on large pages, so the result is still right.) ascreg rejects each access
(``OutOfBoundsError``); the port gives the two UB arrays and the two GM buffers
:data:`BURST_SLACK` more halves, and ``test_the_example_copies_twice_its_arrays`` pins the
finding with the slack removed. The padded ``dst_local`` half that the store copy reads was never
written (on the chip: whatever UB held), so the kernel runs under ``policy(undefined="warn")``
and the test expects exactly that one warning.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, UbPtr, acl, half, policy, uint16_t
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
    asc_create_mask_b16,
    asc_gather,
    asc_get_vf_len,
    asc_init,
    asc_loadalign,
    asc_store_l2_cache_mode,
    asc_storealign,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
    block_idx,
    vector_half,
    vector_uint16_t,
)
from ascreg.errors import OutOfBoundsError

TOTAL_LENGTH = 128
NUM_BLOCKS = 1
BLK_NUM = 1
BURST_SLACK = TOTAL_LENGTH
"""Halves allocated past ``src_local``, ``dst_local`` and the two half GM buffers (not in the
C++): the copies move ``block_length * 4`` bytes, twice the arrays."""


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def gather_vf(src_local: UbPtr[half], index_local: UbPtr[uint16_t], dst_local: UbPtr[half], data_len: int, one_rep_size: int, repeat_time: int) -> None:  # fmt: skip
    vmask = asc_create_mask_b16(PAT_ALL)
    src_reg = vector_half()
    dst_reg = vector_half()
    idx_reg = vector_uint16_t()
    for i in range(repeat_time):
        asc_loadalign(src_reg, src_local + i * one_rep_size)
        asc_loadalign(idx_reg, index_local + i * one_rep_size)
        asc_gather(dst_reg, src_reg, idx_reg)
        asc_storealign(dst_local + i * one_rep_size, dst_reg, vmask)


@__global__
@__vector__
def gather_custom(src: GmPtr[half], index: GmPtr[uint16_t], dst: GmPtr[half], slack: int) -> None:
    asc_init()
    block_length = TOTAL_LENGTH // NUM_BLOCKS
    src_gm = src + block_idx * block_length
    index_gm = index + block_idx * block_length
    dst_gm = dst + block_idx * block_length
    src_local = __ubuf__(half, block_length + slack)  # C++: src_local[block_length]
    index_local = __ubuf__(uint16_t, block_length)
    dst_local = __ubuf__(half, block_length + slack)  # C++: dst_local[block_length]
    burst_length = block_length * 4
    index_burst_length = block_length * 2
    src_stride = 0
    dst_stride = 0
    asc_copy_gm2ub_align(src_local, src_gm, burst_length)
    asc_copy_gm2ub_align(index_local, index_gm, index_burst_length)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    one_rep_size = asc_get_vf_len() // half.size
    repeat_time = ceil_division(block_length, one_rep_size)
    gather_vf(src_local, index_local, dst_local, block_length, one_rep_size, repeat_time)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(
        dst_gm, dst_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_sync()


def kernel_gather(src: np.ndarray, index: np.ndarray, slack: int = BURST_SLACK) -> np.ndarray:
    num_blocks = NUM_BLOCKS
    src_byte_size = src.size * half.size
    index_byte_size = index.size * uint16_t.size
    padded_byte_size = src_byte_size + slack * half.size  # C++: src_byte_size
    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    dst_host, _ = acl.rt.malloc_host(src_byte_size)
    src_device, _ = acl.rt.malloc(padded_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    index_device, _ = acl.rt.malloc(index_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    dst_device, _ = acl.rt.malloc(padded_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(src_device, src_byte_size, src, src_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(index_device, index_byte_size, index, index_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)  # fmt: skip
    gather_custom[num_blocks, 0](
        src_device.cast(half), index_device.cast(uint16_t), dst_device.cast(half), slack
    )
    acl.rt.synchronize_device()
    acl.rt.memcpy(dst_host, src_byte_size, dst_device, src_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    dst: np.ndarray = dst_host.view(np.float16).copy()
    acl.rt.free(src_device)
    acl.rt.free(index_device)
    acl.rt.free(dst_device)
    acl.rt.free_host(dst_host)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return dst


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """``verify_result``: ``std::equal`` of the golden and the output (compared bit for bit)."""
    return bool(np.array_equal(output.view(np.uint16), golden.view(np.uint16)))


def gen_golden_data_gather(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py: halves in [0, 1), indices in [0, 128), golden ``x[y]``."""
    total_length = 128
    x = rng.uniform(0, 1, [1, total_length]).astype(np.float16)
    y = rng.uniform(0, total_length, [1, total_length]).astype(np.uint16)
    x_flat, y_flat = x.flatten(), y.flatten()
    return x_flat, y_flat, x_flat[y_flat]


def run_padded(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Run the padded port; its only complaint is the copy-out reading the unwritten padding."""
    with policy(undefined="warn"), pytest.warns(UserWarning, match="was not written") as caught:
        output = kernel_gather(x, y)
    assert len(caught) == 1
    return output


@pytest.mark.parametrize("seed", [0, 1])
def test_gather_matches_the_golden(seed: int) -> None:
    x, y, golden = gen_golden_data_gather(np.random.default_rng(seed))
    assert verify_result(run_padded(x, y), golden)


def test_gather_check_rejects_an_index_off_by_one() -> None:
    """Gathering through ``index + 1`` (mod 128) must fail the check."""
    x, y, golden = gen_golden_data_gather(np.random.default_rng(2))
    shifted = ((y + 1) % TOTAL_LENGTH).astype(np.uint16)
    assert not verify_result(run_padded(x, shifted), golden)


def test_the_example_copies_twice_its_arrays() -> None:
    """A finding: ``block_length * 4`` bytes of half leave the 128-half arrays."""
    x, y, _golden = gen_golden_data_gather(np.random.default_rng(3))
    with pytest.raises(OutOfBoundsError, match=r"reads 512 bytes .*'aclrtMalloc\(256\)'"):
        kernel_gather(x, y, slack=0)
    acl.rt.reset_device(0)
    acl.finalize()
