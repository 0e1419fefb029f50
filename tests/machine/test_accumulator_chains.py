"""Accumulator chains (``ascreg.engine.chains``): ``Op(acc, acc, x, mask)`` carried by a loop.

A carried call whose row declares the chain of its formula runs as that chain, one call of
the formula per step on every row at once, instead of the op call by call; the result is the
eager one bit for bit (float rounding order, NaN, signed zeros, integer wrap-around), and a
call the chain cannot take (a zero Max, bfloat16, a partial mask, the accumulator second)
runs call by call as before.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from tests.machine.test_batch import differential

import ascreg
from ascreg import Reg, UbPtr, UnifiedBuffer, bfloat16_t, float32_t, half, int16_t, uint32_t
from ascreg.engine import chains

ROWS, STEPS = 5, 6


def _vfs(op: Any) -> tuple[Any, Any]:
    """The two accumulator VFs of *op* (a loop's calls must name their op)."""

    @ascreg.__simd_vf__
    def nested_chain(dst: UbPtr[Any], src: UbPtr[Any], dtype: Any, part: int) -> None:
        """Per row, ``acc = op(acc, x_j)`` over the inner loop, from the row's first element."""
        lanes = 256 // dtype.size
        x, acc = Reg.RegTensor[dtype](), Reg.RegTensor[dtype]()
        mask = (
            Reg.CreateMask[dtype]() if part == 0 else Reg.CreateMask[dtype, Reg.MaskPattern.VL16]()
        )
        for i in range(ROWS):
            Reg.LoadAlign(acc, src + i * (STEPS + 1) * lanes)
            for j in range(STEPS):
                Reg.LoadAlign(x, src + (i * (STEPS + 1) + j + 1) * lanes)
                op(acc, acc, x, mask)
            Reg.StoreAlign(dst + i * lanes, acc, mask)

    @ascreg.__simd_vf__
    def flat_chain(dst: UbPtr[Any], src: UbPtr[Any], dtype: Any, second: bool) -> None:
        """``acc = op(acc, x_i)`` over one loop (``op(acc, x, acc)`` when *second*), then stored."""
        lanes = 256 // dtype.size
        x, acc, full = Reg.RegTensor[dtype](), Reg.RegTensor[dtype](), Reg.CreateMask[dtype]()
        Reg.LoadAlign(acc, src)
        if second:
            for i in range(STEPS):
                Reg.LoadAlign(x, src + (i + 1) * lanes)
                op(acc, x, acc, full)
        else:
            for i in range(STEPS):
                Reg.LoadAlign(x, src + (i + 1) * lanes)
                op(acc, acc, x, full)
        Reg.StoreAlign(dst, acc, full)

    return nested_chain, flat_chain


OPS = {"Add": Reg.Add, "Mul": Reg.Mul, "Max": Reg.Max, "Min": Reg.Min}
VFS = {name: _vfs(op) for name, op in OPS.items()}
NESTED, FLAT = 0, 1


def _values(dtype: Any, count: int, seed: int, zeros: bool) -> np.ndarray[Any, Any]:
    """Order-sensitive values of *dtype*: wide magnitudes, NaN, inf, and (if *zeros*) +-0."""
    rng = np.random.default_rng(seed)
    if dtype is int16_t:
        return rng.integers(-(2**15), 2**15, count).astype(np.int16)  # sums and products wrap
    wide = rng.standard_normal(count) * 10.0 ** rng.integers(-3, 4, count)
    values = wide.astype(dtype.np_dtype)
    special = [np.nan, np.inf, -np.inf] + ([0.0, -0.0] * 8 if zeros else [])
    at = rng.choice(count, len(special), replace=False)
    values[at] = np.array(special).astype(dtype.np_dtype)
    return values


def _run(vf: Any, dtype: Any, flag: Any, zeros: bool) -> Any:
    lanes = 256 // dtype.size

    def scenario(ub: UnifiedBuffer) -> Any:
        src = ub.alloc(dtype, ROWS * (STEPS + 1) * lanes)
        dst = ub.alloc(dtype, ROWS * lanes)
        src.write(_values(dtype, ROWS * (STEPS + 1) * lanes, 7, zeros))
        dst.write(np.zeros(ROWS * lanes, dtype.np_dtype))
        vf(dst, src, dtype, flag)
        vf(dst, src, dtype, flag)  # (the second call replays the recorded plan)
        return dst.read(ROWS * lanes).view(f"u{dtype.size}")

    return scenario


@pytest.fixture
def chained(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each chain the scans asked for: True where it ran, False where it had none."""
    asked: list[bool] = []
    chain = chains.chain

    def counted(op: Any, initial: Any, steps: Any) -> Any:
        result = chain(op, initial, steps)
        asked.append(result is not None)
        return result

    monkeypatch.setattr(chains, "chain", counted)
    return asked


DTYPES = {"float": float32_t, "half": half, "int16": int16_t}


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("form", [NESTED, FLAT], ids=["nested", "flat"])
def test_an_accumulator_runs_as_its_chain_bit_for_bit(
    form: int, op: str, dtype: str, chained: list[bool], caplog: pytest.LogCaptureFixture
) -> None:
    _, error, _ = differential(_run(VFS[op][form], DTYPES[dtype], 0, False), caplog)
    assert not error
    assert chained and all(chained)


def test_a_float_sum_is_the_sum_in_eager_order(chained: list[bool]) -> None:
    ub = UnifiedBuffer()
    src, dst = ub.alloc(float32_t, (STEPS + 1) * 64), ub.alloc(float32_t, 64)
    values = _values(float32_t, (STEPS + 1) * 64, 3, False)
    src.write(values)
    VFS["Add"][FLAT](dst, src, float32_t, False)
    with np.errstate(invalid="ignore", over="ignore"):
        want = values[:64].copy()
        for row in values[64:].reshape(STEPS, 64):
            want = want + row  # float32, one rounding per step, in order
    assert chained == [True]
    np.testing.assert_array_equal(dst.read(64).view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("op", ["Max", "Min"])
def test_a_zero_max_or_min_runs_call_by_call(
    op: str, chained: list[bool], caplog: pytest.LogCaptureFixture
) -> None:
    """max(-0, +0) is +0 and min(-0, +0) is -0: the formula's rule, not the ufunc's."""
    _, error, _ = differential(_run(VFS[op][NESTED], float32_t, 0, True), caplog)
    assert not error
    assert chained and not any(chained)


@pytest.mark.parametrize(
    ("form", "dtype", "flag"),
    [(FLAT, bfloat16_t, False), (NESTED, float32_t, 1), (FLAT, half, True)],
    ids=["bfloat16", "partial mask", "accumulator second"],
)
def test_other_accumulators_run_call_by_call(
    form: int, dtype: Any, flag: Any, chained: list[bool], caplog: pytest.LogCaptureFixture
) -> None:
    _, error, _ = differential(_run(VFS["Add"][form], dtype, flag, False), caplog)
    assert not error
    assert not any(chained)


@ascreg.__simd_vf__
def view_sum(dst: UbPtr[Any], src: UbPtr[Any]) -> None:
    """An accumulator that is a view of another register (its storage's bytes)."""
    acc, x, full = Reg.RegTensor[float32_t](), Reg.RegTensor[uint32_t](), Reg.CreateMask[uint32_t]()
    Reg.LoadAlign(acc, src)
    bits = Reg.RegTensor[uint32_t](acc)
    for i in range(STEPS):
        Reg.LoadAlign(x, src.cast(uint32_t) + (i + 1) * 64)
        Reg.Add(bits, bits, x, full)
    Reg.StoreAlign(dst, acc, Reg.CreateMask[float32_t]())


def test_a_view_accumulator_runs_call_by_call(
    chained: list[bool], caplog: pytest.LogCaptureFixture
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(float32_t, (STEPS + 1) * 64), ub.alloc(float32_t, 64)
        src.write(_values(float32_t, (STEPS + 1) * 64, 5, False))
        view_sum(dst, src)
        view_sum(dst, src)
        return dst.read(64).view(np.uint32)

    _, error, _ = differential(scenario, caplog)
    assert not error
    assert not any(chained)
