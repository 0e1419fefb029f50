"""Port of hicann/ops-nn activation/log_sigmoid/op_kernel/arch35/log_sigmoid_dag.h (``LogSigmoidCustom<float>``).

The kernel's own compute: ``log_sigmoid(x) = min(x, 0) - log1p(exp(-|x|))``, with ``log1p``
done the accurate way (``u = 1 + e``; ``log(u) * e / (u - 1)`` unless ``u == 1``, then ``e``):
``Duplicate`` of 0, then per register ``Min``, ``Abs``, ``Muls``, ``Exp``, ``Adds`` twice,
``Div``, ``Log``, ``Mul``, ``Compares<NE>`` and ``Select``, ``Sub``. The DAG around it (the
operator base library's) is not public: the test drives the struct with
:func:`production_ports.run_elementwise` on float.

Golden: ``min(x, 0) - log1p(exp(-|x|))`` in float64, rounded to float, within 4 ulp.

Needs (as written): ``VECTOR_REG_WIDTH``, ``__VEC_SCOPE__`` (glue).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import CMPMODE, MicroAPI, Ref, float32_t, uint16_t, uint32_t
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__
from production_ports import ClassTemplate, assert_ulp, rounded, run_elementwise, stand_ins

CAST_MODE_NONE = 0
CAST_MODE_RINT = 1


@ClassTemplate
def LogSigmoidCustom(T):
    class LogSigmoidCustom:
        @__aicore__
        def __init__(self, dst: LocalTensor[T], src: LocalTensor[T], count: int) -> None:
            count = Ref(count)  # UpdateMask updates the by-value parameter through its reference
            dtypeSize = T.size
            VL = uint32_t(VECTOR_REG_WIDTH // dtypeSize)
            loopNum = uint16_t(CeilDivision(count.value, VL))
            vlSize = VL
            srcAddr = src.GetPhyAddr()
            dstAddr = dst.GetPhyAddr()

            valPosOne = T(1.0)
            valNegOne = T(-1.0)
            valZero = T(0.0)

            with __VEC_SCOPE__:
                x = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                zeroReg = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                xAbs = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                xAbsNeg = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                expRes = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                expResPlusOne = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                expResPlusOneSubOne = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                logExpXPlus1 = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                divRes = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                mulRes = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                minRes = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                selectRes = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                ans = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()

                mask = MicroAPI.MaskReg()
                cmpLog1pPosMaskReg = MicroAPI.MaskReg()

                MicroAPI.Duplicate(zeroReg, valZero)

                for loopIdx in range(loopNum):
                    mask = MicroAPI.UpdateMask[T, MicroAPI.RegTraitNumOne](count)
                    MicroAPI.LoadAlign(x, srcAddr + loopIdx * vlSize)
                    MicroAPI.Min(minRes, x, zeroReg, mask)
                    MicroAPI.Abs(xAbs, x, mask)
                    MicroAPI.Muls(xAbsNeg, xAbs, valNegOne, mask)
                    MicroAPI.Exp(expRes, xAbsNeg, mask)
                    MicroAPI.Adds(expResPlusOne, expRes, valPosOne, mask)
                    MicroAPI.Adds(expResPlusOneSubOne, expResPlusOne, valNegOne, mask)
                    MicroAPI.Div(divRes, expRes, expResPlusOneSubOne, mask)
                    MicroAPI.Log(logExpXPlus1, expResPlusOne, mask)
                    MicroAPI.Mul(mulRes, logExpXPlus1, divRes, mask)
                    MicroAPI.Compares[T, CMPMODE.NE](
                        cmpLog1pPosMaskReg, expResPlusOne, valPosOne, mask
                    )
                    MicroAPI.Select(selectRes, mulRes, expRes, cmpLog1pPosMaskReg)
                    MicroAPI.Sub(ans, minRes, selectRes, mask)

                    MicroAPI.StoreAlign(dstAddr + loopIdx * vlSize, ans, mask)

    return LogSigmoidCustom


def golden(x: np.ndarray) -> np.ndarray:
    x64 = x.astype(np.float64)
    return rounded(np.minimum(x64, 0) - np.log1p(np.exp(-np.abs(x64))), float32_t)


CASES = [pytest.param(2000, 1024, id="2000"), pytest.param(300, 128, id="300-small-tiles")]


def _check(n: int, tile: int) -> None:
    x = np.random.default_rng(n).uniform(-30, 30, n).astype(np.float32)
    x[:6] = [0.0, -0.0, 1e-8, -1e-8, 17.0, -104.0]
    out = run_elementwise(
        lambda dst, src, count: LogSigmoidCustom[float32_t](dst, src, count),
        x,
        float32_t,
        tile=tile,
    )
    assert_ulp(out, golden(x), 4, atol=float(np.finfo(np.float32).tiny))


@pytest.mark.parametrize(("n", "tile"), CASES)
def test_log_sigmoid_as_written(n: int, tile: int) -> None:
    _check(n, tile)


@pytest.mark.parametrize(("n", "tile"), CASES)
def test_log_sigmoid_with_stand_ins(n: int, tile: int) -> None:
    with stand_ins(globals()):
        _check(n, tile)
