"""Forms real kernels write that batch: dual (DINTLV) loads, a template's type branch.

``LoadAlign[T, DIST_DINTLV_B32](even, odd, src + i * 2 * VL)`` (the complex64 ``abs`` kernel
of ops-math) loads two registers per iteration; ``if U is complex32:`` in a loop body of a
class template's method is decided once (only its branch's names count), so a mask one
branch assigns and the other only passes to ``Compare`` as its output is not carried.
Each runs batched and gives the eager result bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from tests.machine.test_batch import differential, ran_batched

import ascreg
from ascreg import LoadDist, PostLiteral, Ref, Reg, UbPtr, UnifiedBuffer, float32_t, half, uint16_t


def _dual_vf(dtype: Any) -> Any:
    lanes = 256 // dtype.size
    dist = LoadDist.DIST_DINTLV_B32 if dtype.size == 4 else LoadDist.DIST_DINTLV_B16

    @ascreg.__simd_vf__
    def dual(dst: UbPtr[Any], src: UbPtr[Any], n: int) -> None:
        even, odd, out = Reg.RegTensor[dtype](), Reg.RegTensor[dtype](), Reg.RegTensor[dtype]()
        full = Reg.CreateMask[dtype]()
        at = Ref(src)
        for i in range(n):
            Reg.LoadAlign[dtype, dist](even, odd, src + i * 2 * lanes)
            Reg.Sub(out, even, odd, full)
            Reg.StoreAlign(dst + i * lanes, out, full)
            Reg.LoadAlign[dtype, PostLiteral.POST_MODE_UPDATE, dist](even, odd, at, 2 * lanes)
            Reg.Add(out, even, odd, full)
            Reg.StoreAlign(dst + (n + i) * lanes, out, full)

    return dual


@pytest.mark.parametrize("dtype", [float32_t, half, uint16_t], ids=["float", "half", "uint16"])
def test_a_deinterleaving_load_runs_batched(dtype: Any, caplog: pytest.LogCaptureFixture) -> None:
    lanes, dual = 256 // dtype.size, _dual_vf(dtype)

    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(dtype, 10 * lanes), ub.alloc(dtype, 10 * lanes)
        src.write((np.arange(10 * lanes) * 37 % 1000).astype(dtype.np_dtype))
        dual(dst, src, 5)
        dual(dst, src, 5)  # (a recorded plan)
        return dst.read(10 * lanes).view(f"u{dtype.size}")

    result, error, lines = differential(scenario, caplog)
    assert not error and ran_batched(lines)
    values = (np.arange(10 * lanes) * 37 % 1000).astype(dtype.np_dtype)
    with np.errstate(over="ignore"):
        want = np.concatenate([values[0::2] - values[1::2], values[0::2] + values[1::2]])
    np.testing.assert_array_equal(result, want.view(f"u{dtype.size}"))


def _branching(u: Any) -> Any:
    """A template's VF: ``U`` picks a branch; only the other branch assigns ``picked``."""

    @ascreg.__simd_vf__
    def branching(dst: UbPtr[float32_t], src: UbPtr[float32_t], n: int) -> None:
        x, y, full = (
            Reg.RegTensor[float32_t](),
            Reg.RegTensor[float32_t](),
            Reg.CreateMask[float32_t](),
        )
        picked, zero = Reg.MaskReg(), Reg.RegTensor[float32_t]()
        Reg.Duplicate(zero, 0.0, full)
        for i in range(n):
            Reg.LoadAlign(x, src + i * 64)
            if u is half:
                picked = Reg.CreateMask[float32_t, Reg.MaskPattern.VL8]()
                Reg.Select(y, x, x, picked)
            else:
                Reg.CompareScalar[float32_t, ascreg.CMPMODE.GT](picked, x, float32_t(3.0), full)
                Reg.Select(y, x, zero, picked)
            Reg.StoreAlign(dst + i * 64, y, full)

    return branching


def test_a_template_type_branch_is_decided_once(caplog: pytest.LogCaptureFixture) -> None:
    branching = _branching(float32_t)

    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(float32_t, 4 * 64), ub.alloc(float32_t, 4 * 64)
        src.write(np.arange(4 * 64, dtype=np.float32) % 7)
        dst.write(np.zeros(4 * 64, np.float32))
        branching(dst, src, 4)
        return dst.read(4 * 64)

    result, error, lines = differential(scenario, caplog)
    assert not error and ran_batched(lines), lines
    values = np.arange(4 * 64, dtype=np.float32) % 7
    np.testing.assert_array_equal(result, np.where(values > 3, values, 0))
    assert ascreg.explain(branching)[0].startswith("branching line ")
    assert "read before the body assigns" not in " ".join(ascreg.explain(branching))
