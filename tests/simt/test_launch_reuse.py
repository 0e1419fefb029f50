"""What the SIMT engine reuses between blocks (masked function, wrapped arguments) stays exact."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, int32_t
from ascreg.c_api import __global__, __vector__, asc_get_block_idx, asc_vf_call
from ascreg.core.intrinsics import byte_perm
from ascreg.errors import LaunchError
from ascreg.simt import __launch_bounds__, __simt_vf__, blockIdx, dim3, run_simt_kernel, threadIdx
from reference.intrinsics import ref_byte_perm


def test_masked_kernel_follows_a_rebound_closure_pointer() -> None:
    gm = GlobalMemory()
    first, second = gm.alloc(int32_t, 4), gm.alloc(int32_t, 4)
    target = first

    def k() -> None:
        if threadIdx.x % 2 == 0:  # thread-dependent: runs in masked form
            target[threadIdx.x] = 1

    run_simt_kernel(k, dim3(1), dim3(4), 0, ())
    target = second
    run_simt_kernel(k, dim3(1), dim3(4), 0, ())
    assert first.read(4).tolist() == [1, 0, 1, 0]
    assert second.read(4).tolist() == [1, 0, 1, 0]


def test_each_block_starts_from_the_captured_pointer() -> None:
    out = GlobalMemory().alloc(int32_t, 8)
    p = out

    def k() -> None:
        nonlocal p
        if threadIdx.x < 4:
            p[threadIdx.x] += blockIdx.x + 1
        p = p + 4  # rebinds this block's copy only

    run_simt_kernel(k, dim3(3), dim3(4), 0, ())
    assert out.read(8).tolist() == [6, 6, 6, 6, 0, 0, 0, 0]


@__simt_vf__
@__launch_bounds__(64)
def _copy_block(dst: Any, src: Any) -> None:
    dst[threadIdx.x] = src[threadIdx.x] + blockIdx.x


@__global__
@__vector__
def _per_block_pointers(dst: GmPtr[int32_t], src: GmPtr[int32_t]) -> None:
    b = int(asc_get_block_idx())
    asc_vf_call[_copy_block](dim3(32), dst + 32 * b, src + 32 * b)


@__global__
@__vector__
def _growing_blocks(dst: GmPtr[int32_t], src: GmPtr[int32_t]) -> None:
    b = int(asc_get_block_idx())
    asc_vf_call[_copy_block](dim3(32 * (b + 1)), dst + 64 * b, src)


def test_vf_call_with_new_pointers_per_block() -> None:
    gm = GlobalMemory()
    dst, src = gm.alloc(int32_t, 96), gm.alloc(int32_t, 96)
    src.write(np.arange(96, dtype=np.int32))
    _per_block_pointers[3, 0, None](dst, src)
    assert dst.read(96).tolist() == [i + i // 32 for i in range(96)]


def test_thread_count_is_checked_in_every_block() -> None:
    gm = GlobalMemory()
    dst, src = gm.alloc(int32_t, 256), gm.alloc(int32_t, 96)
    with pytest.raises(
        LaunchError, match=r"96 threads per block .* exceeds __launch_bounds__\(64\)"
    ):
        _growing_blocks[3, 0, None](dst, src)


@pytest.mark.parametrize("shape", [(), (1,), (7,), (3, 5)])
def test_core_byte_perm_matches_the_reference(shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(len(shape))
    x, y, s = (rng.integers(0, 2**32, shape, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    got = byte_perm(x, y, s)
    want = [
        ref_byte_perm(int(a), int(b), int(c))
        for a, b, c in zip(x.flat, y.flat, s.flat, strict=True)
    ]
    assert np.asarray(got).dtype == np.uint32 and np.shape(got) == shape
    assert np.asarray(got).ravel().tolist() == want
    if shape:  # broadcasting a scalar selector
        scalar = byte_perm(x, y, np.uint32(0x3210))
        assert np.array_equal(scalar, x)


def test_core_byte_perm_of_scalars_is_a_scalar() -> None:
    assert isinstance(byte_perm(np.uint32(1), np.uint32(1), np.uint32(1)), np.uint32)
