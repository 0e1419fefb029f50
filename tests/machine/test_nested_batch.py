"""Nested VF loops flattened into one batch of outer x inner rows (``ascreg.engine.nested``).

Each scenario runs batched and eagerly (``tests/machine/test_batch.py``'s ``differential``):
the same UB bytes, results and first error; the ``explain`` lines say which inner loops ran
flattened and which in order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from tests.machine.test_batch import differential

import ascreg
from ascreg import LoadDist, Ref, Reg, StoreDist, UbPtr, UnifiedBuffer, float32_t

L32 = 64


@ascreg.__simd_vf__
def scaled_rows(
    dst: UbPtr[float32_t], src: UbPtr[float32_t], scale: UbPtr[float32_t], rows: int,
    cols: int, loops: int,
) -> None:  # fmt: skip
    """rms_norm's ComputeY: a per-row count taken down by the inner loop's tail masks."""
    s, x, y = (Reg.RegTensor[float32_t]() for _ in range(3))
    for i in range(rows):
        count = Ref(cols)
        Reg.LoadAlign[float32_t, LoadDist.DIST_BRC_B32](s, scale + i)
        for j in range(loops):
            mask = Reg.UpdateMask[float32_t](count)
            Reg.LoadAlign(x, src + i * loops * L32 + j * L32)
            Reg.Mul(y, x, s, mask)
            Reg.Adds(y, y, np.float32(0.25), mask)
            Reg.StoreAlign(dst + i * loops * L32 + j * L32, y, mask)


def _floats(n: int, seed: int = 0) -> Any:
    return np.random.default_rng(seed).standard_normal(n).astype(np.float32)


def test_an_inner_loop_runs_flattened(caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(float32_t, 24 * L32), ub.alloc(float32_t, 24 * L32)
        scale = ub.alloc(float32_t, L32)
        src.write(_floats(24 * L32))
        scale.write(_floats(L32, 1))
        dst.write(np.full(24 * L32, 7, np.float32))
        for _ in range(3):  # recorded, then replayed
            scaled_rows(dst, src, scale, 6, 3 * L32 - 10, 4)  # a tail in the last column
        return dst.read(24 * L32)

    result, error, lines = differential(scenario, caplog)
    assert not error
    assert not any("eager" in line for line in lines)
    outer, inner = ascreg.explain(scaled_rows)
    assert "replayed a recorded plan" in outer
    assert "ran flattened into a batched outer loop" in inner
    assert result.reshape(6, 4, L32)[:, 3].tolist() == [[7.0] * L32] * 6  # past the count


@ascreg.__simd_vf__
def row_sums(dst: UbPtr[float32_t], src: UbPtr[float32_t], rows: int, loops: int) -> None:
    """softmax's sum: an accumulator carried by the inner loop (scanned over it)."""
    x, total = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    full, one = Reg.CreateMask[float32_t](), Reg.CreateMask[float32_t, Reg.MaskPattern.VL1]()
    for i in range(rows):
        Reg.Duplicate(total, 0.0, full)
        for j in range(loops):
            Reg.LoadAlign(x, src + (i * loops + j) * L32)
            Reg.Add(total, total, x, full)
        Reg.ReduceSum(total, total, full)
        Reg.StoreAlign[float32_t, StoreDist.DIST_FIRST_ELEMENT_B32](dst + i, total, one)


def test_a_carried_register_is_scanned_over_the_inner_iterations(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(float32_t, 20 * L32), ub.alloc(float32_t, L32)
        src.write(_floats(20 * L32) * np.float32(1e4))  # sums that depend on their order
        dst.write(np.zeros(L32, np.float32))
        row_sums(dst, src, 5, 4)
        row_sums(dst, src, 5, 4)
        return dst.read(5)

    _, error, lines = differential(scenario, caplog)
    assert not error
    assert not any("eager" in line or "in order" in line for line in lines)
    _, inner = ascreg.explain(row_sums)
    assert "ran flattened into a batched outer loop" in inner


@ascreg.__simd_vf__
def twice_carried(dst: UbPtr[float32_t], src: UbPtr[float32_t], rows: int, loops: int) -> None:
    """A register carried by two ops of the inner loop (no scan): it runs in order."""
    x, total = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    full = Reg.CreateMask[float32_t]()
    for i in range(rows):
        Reg.Duplicate(total, 1.0, full)
        for j in range(loops):
            Reg.LoadAlign(x, src + (i * loops + j) * L32)
            Reg.Add(total, total, x, full)
            Reg.Muls(total, total, np.float32(0.5), full)
        Reg.StoreAlign(dst + i * L32, total, full)


def test_a_register_carried_by_two_ops_runs_the_inner_loop_in_order(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(float32_t, 20 * L32), ub.alloc(float32_t, 5 * L32)
        src.write(_floats(20 * L32))
        twice_carried(dst, src, 5, 4)
        twice_carried(dst, src, 5, 4)
        return dst.read(5 * L32)

    _, error, lines = differential(scenario, caplog)
    assert not error
    assert not any("eager" in line for line in lines)
    assert any("its inner loops in order" in line for line in lines)
    _, inner = ascreg.explain(twice_carried)
    assert "ran inside a batched outer loop" in inner


@ascreg.__simd_vf__
def shifted_rows(dst: UbPtr[float32_t], src: UbPtr[float32_t], rows: int, loops: int) -> None:
    """An inner iteration loads what the one before it stored (memory carried by the loop)."""
    x = Reg.RegTensor[float32_t]()
    full = Reg.CreateMask[float32_t]()
    for i in range(rows):
        for j in range(loops):
            Reg.LoadAlign(x, dst + (i * (loops + 1) + j) * L32)
            Reg.Add(x, x, x, full)
            Reg.StoreAlign(dst + (i * (loops + 1) + j + 1) * L32, x, full)
        Reg.LoadAlign(x, src + i * L32)
        Reg.StoreAlign(dst + i * (loops + 1) * L32, x, full)


def test_memory_carried_by_the_inner_loop_is_eager_order(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(float32_t, 4 * L32), ub.alloc(float32_t, 16 * L32)
        src.write(_floats(4 * L32))
        dst.write(_floats(16 * L32, 2))
        shifted_rows(dst, src, 4, 3)
        return dst.read(16 * L32)

    _, error, _ = differential(scenario, caplog)
    assert not error


@ascreg.__simd_vf__
def counted_down(dst: UbPtr[float32_t], src: UbPtr[float32_t], rows: int, loops: int,
                 count: int) -> None:  # fmt: skip
    """A count of the caller's taken down by every inner iteration of every row, in order."""
    x = Reg.RegTensor[float32_t]()
    left = Ref(count)
    for i in range(rows):
        for j in range(loops):
            mask = Reg.UpdateMask[float32_t](left)
            Reg.LoadAlign(x, src + (i * loops + j) * L32)
            Reg.Muls(x, x, np.float32(3.0), mask)
            Reg.StoreAlign(dst + (i * loops + j) * L32, x, mask)


@pytest.mark.parametrize("count", [0, 5 * L32 + 3, 12 * L32])
def test_a_caller_count_runs_on_over_the_flattened_rows(
    count: int, caplog: pytest.LogCaptureFixture
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(float32_t, 12 * L32), ub.alloc(float32_t, 12 * L32)
        src.write(_floats(12 * L32))
        dst.write(np.full(12 * L32, -1, np.float32))
        counted_down(dst, src, 3, 4, count)
        return dst.read(12 * L32)

    _, error, lines = differential(scenario, caplog)
    assert not error
    assert not any("eager" in line for line in lines)


def test_the_first_error_of_a_flattened_loop_is_the_eager_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(float32_t, 23 * L32), ub.alloc(float32_t, 24 * L32)
        scale = ub.alloc(float32_t, L32)
        src.write(_floats(23 * L32))  # the last row's last column reads past it
        scale.write(_floats(L32, 1))
        scaled_rows(dst, src, scale, 6, 4 * L32, 4)
        return dst.read(24 * L32)

    _, error, _ = differential(scenario, caplog)
    assert error  # (the eager one: differential compares them)


@ascreg.__simd_vf__
def running_total(dst: UbPtr[float32_t], src: UbPtr[float32_t], rows: int, loops: int) -> None:
    """An accumulator carried by the inner loop *and* the outer one (never set again)."""
    x, total = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    full = Reg.CreateMask[float32_t]()
    Reg.Duplicate(total, 0.0, full)
    for i in range(rows):
        for j in range(loops):
            Reg.LoadAlign(x, src + (i * loops + j) * L32)
            Reg.Add(total, total, x, full)
        Reg.StoreAlign(dst + i * L32, total, full)


def test_a_register_carried_across_the_outer_loop_too_is_summed_in_order(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(float32_t, 20 * L32), ub.alloc(float32_t, 5 * L32)
        src.write(_floats(20 * L32) * np.float32(1e4))  # sums that depend on their order
        running_total(dst, src, 5, 4)
        return dst.read(5 * L32)

    result, error, lines = differential(scenario, caplog)
    assert not error
    assert any("across the outer loop too" in line for line in lines), lines
    x = _floats(20 * L32) * np.float32(1e4)
    total, want = np.zeros(L32, np.float32), []
    for row in x.reshape(20, L32):
        total = total + row  # float32, in eager order
        want.append(total.copy())
    np.testing.assert_array_equal(result.reshape(5, L32), np.array(want)[3::4])


@ascreg.__simd_vf__
def padded_rows_times_a_row(
    dst: UbPtr[float32_t], src: UbPtr[float32_t], gamma: UbPtr[float32_t], rows: int,
    loops: int, stride: int,
) -> None:  # fmt: skip
    """Padded rows (a grid of addresses) times one row read again for each (its step 0)."""
    x, g, y = (Reg.RegTensor[float32_t]() for _ in range(3))
    full = Reg.CreateMask[float32_t]()
    for i in range(rows):
        for j in range(loops):
            Reg.LoadAlign(x, src + i * stride + j * L32)
            Reg.LoadAlign(g, gamma + j * L32)
            Reg.Mul(y, x, g, full)
            Reg.StoreAlign(dst + i * loops * L32 + j * L32, y, full)


def test_loads_through_a_grid_of_addresses(caplog: pytest.LogCaptureFixture) -> None:
    rows, loops, stride = 5, 3, 5 * L32  # two registers of padding after each row
    x, gamma = _floats(rows * stride).reshape(rows, stride), _floats(loops * L32, 1)

    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(float32_t, rows * stride), ub.alloc(float32_t, rows * loops * L32)
        row = ub.alloc(float32_t, loops * L32)
        src.write(x.reshape(-1))
        row.write(gamma)
        for _ in range(2):  # recorded, then replayed
            padded_rows_times_a_row(dst, src, row, rows, loops, stride)
        return dst.read(rows * loops * L32)

    result, error, lines = differential(scenario, caplog)
    assert not error
    assert not any("eager" in line for line in lines)
    want = x[:, : loops * L32] * gamma
    np.testing.assert_array_equal(np.asarray(result).reshape(rows, -1), want)
