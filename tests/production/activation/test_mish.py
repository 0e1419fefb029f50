"""Port of hicann/ops-nn activation/mish/op_kernel/arch35/mish_dag.h (``MishDag1::MishCustom<T>``).

The kernel's own compute: ``mish(x) = x tanh(softplus(x))`` as two rational forms of
``exp``, picked by the sign of ``x`` (``Compares<LT>`` and ``Select``): for ``x < 0``
``(e^{2x} + 2e^x) / (e^{2x} + 2e^x + 2)``, else ``(2e^{-x} + 1) / (2e^{-x} + 1 + 2e^{-2x})``,
times ``x``. For ``T = half`` the struct loads with ``DIST_UNPACK_B16`` and ``Cast``s to
float (``castTrait0``), and casts back with ``CAST_RINT`` before a ``DIST_PACK_B32`` store
(``castTrait1``). The DAG around it (the operator base library's) is not public: the test
drives the struct with :func:`production_ports.run_elementwise`, on float and on half.

Golden: ``x tanh(log1p(e^x))`` in float64, rounded to the output type; within 8 ulp for float
(two float ``exp`` of ``2x``), 1 ulp for half.

Needs (as written): ``VECTOR_REG_WIDTH``, ``__VEC_SCOPE__`` (glue).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import CMPMODE, MicroAPI, Ref, RoundMode, Scalar, float32_t, half, uint16_t, uint32_t
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__
from production_ports import ClassTemplate, assert_ulp, rounded, run_elementwise, stand_ins

CAST_MODE_NONE = 0
CAST_MODE_RINT = 1

FP32_ZERO = float32_t(0.0)
FP32_ONE = float32_t(1.0)
FP32_TWO = float32_t(2.0)
FP32_NEG_ONE = float32_t(-1.0)
FP32_NEG_TWO = float32_t(-2.0)

castTrait0 = MicroAPI.CastTrait(
    MicroAPI.RegLayout.ZERO,
    MicroAPI.SatMode.UNKNOWN,
    MicroAPI.MaskMergeMode.ZEROING,
    RoundMode.UNKNOWN,
)
castTrait1 = MicroAPI.CastTrait(
    MicroAPI.RegLayout.ZERO,
    MicroAPI.SatMode.NO_SAT,
    MicroAPI.MaskMergeMode.ZEROING,
    RoundMode.CAST_RINT,
)


@ClassTemplate
def MishCustom(T):
    class MishCustom:
        @__aicore__
        def __init__(self, dst: LocalTensor[T], src: LocalTensor[T], count: int) -> None:
            count = Ref(count)  # UpdateMask updates the by-value parameter through its reference
            dtypeSize = float32_t.size
            vl = uint32_t(VECTOR_REG_WIDTH // dtypeSize)
            loopNum = uint16_t(CeilDivision(count.value, vl))
            vlSize = vl
            srcAddr = src.GetPhyAddr()
            dstAddr = dst.GetPhyAddr()

            vregInput = MicroAPI.RegTensor[float32_t, MicroAPI.RegTraitNumOne]()
            vregInputNegNumerator = MicroAPI.RegTensor[float32_t, MicroAPI.RegTraitNumOne]()
            vregInputNegDenominator = MicroAPI.RegTensor[float32_t, MicroAPI.RegTraitNumOne]()
            vregInputNumerator = MicroAPI.RegTensor[float32_t, MicroAPI.RegTraitNumOne]()
            vregInputDenominator = MicroAPI.RegTensor[float32_t, MicroAPI.RegTraitNumOne]()

            vregOutput = MicroAPI.RegTensor[float32_t, MicroAPI.RegTraitNumOne]()
            mask = MicroAPI.MaskReg()
            cmpMaskReg = MicroAPI.MaskReg()

            vregInput16 = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
            vregOutput16 = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
            with __VEC_SCOPE__:
                for loopIdx in range(loopNum):
                    mask = MicroAPI.UpdateMask[float32_t, MicroAPI.RegTraitNumOne](count)
                    if T is float32_t:
                        MicroAPI.LoadAlign[T, MicroAPI.LoadDist.DIST_NORM](
                            vregInput, srcAddr + loopIdx * vlSize
                        )
                    else:
                        MicroAPI.LoadAlign[T, MicroAPI.LoadDist.DIST_UNPACK_B16](
                            vregInput16, srcAddr + loopIdx * vlSize
                        )
                        MicroAPI.Cast[float32_t, T, castTrait0](vregInput, vregInput16, mask)
                    MicroAPI.Muls(vregInputNegNumerator, vregInput, FP32_NEG_ONE, mask)
                    MicroAPI.Muls(vregInputNegDenominator, vregInput, FP32_NEG_TWO, mask)
                    MicroAPI.Exp(vregInputNegNumerator, vregInputNegNumerator, mask)
                    MicroAPI.Exp(vregInputNegDenominator, vregInputNegDenominator, mask)
                    MicroAPI.Muls(vregInputNegNumerator, vregInputNegNumerator, FP32_TWO, mask)
                    MicroAPI.Adds(vregInputNegNumerator, vregInputNegNumerator, FP32_ONE, mask)
                    MicroAPI.Muls(vregInputNegDenominator, vregInputNegDenominator, FP32_TWO, mask)
                    MicroAPI.Add(
                        vregInputNegDenominator,
                        vregInputNegNumerator,
                        vregInputNegDenominator,
                        mask,
                    )
                    MicroAPI.Div(vregOutput, vregInputNegNumerator, vregInputNegDenominator, mask)

                    MicroAPI.Muls(vregInputNumerator, vregInput, FP32_TWO, mask)
                    MicroAPI.Exp(vregInputNumerator, vregInputNumerator, mask)
                    MicroAPI.Exp(vregInputDenominator, vregInput, mask)
                    MicroAPI.Axpy(vregInputNumerator, vregInputDenominator, FP32_TWO, mask)
                    MicroAPI.Adds(vregInputDenominator, vregInputNumerator, FP32_TWO, mask)
                    MicroAPI.Div(vregInputNumerator, vregInputNumerator, vregInputDenominator, mask)

                    MicroAPI.Compares[float32_t, CMPMODE.LT](cmpMaskReg, vregInput, FP32_ZERO, mask)
                    MicroAPI.Select(vregOutput, vregInputNumerator, vregOutput, cmpMaskReg)
                    MicroAPI.Mul(vregOutput, vregOutput, vregInput, mask)

                    if T is float32_t:
                        MicroAPI.StoreAlign[T, MicroAPI.StoreDist.DIST_NORM_B32](
                            dstAddr + loopIdx * vlSize, vregOutput, mask
                        )
                    else:
                        MicroAPI.Cast[T, float32_t, castTrait1](vregOutput16, vregOutput, mask)
                        MicroAPI.StoreAlign[T, MicroAPI.StoreDist.DIST_PACK_B32](
                            dstAddr + loopIdx * vlSize, vregOutput16, mask
                        )

    return MishCustom


def golden(x: np.ndarray, dtype: type[Scalar]) -> np.ndarray:
    x64 = x.astype(np.float64)
    return rounded(x64 * np.tanh(np.logaddexp(0, x64)), dtype)


CASES = [
    pytest.param(float32_t, 1500, 512, 8, id="float"),
    pytest.param(half, 1000, 1024, 1, id="half"),
]


def _check(dtype: type[Scalar], n: int, tile: int, ulps: int) -> None:
    x = np.random.default_rng(n).uniform(-20, 20, n).astype(dtype.np_dtype)
    x[:4] = [0.0, -0.0, 1.0, -1.0]
    out = run_elementwise(
        lambda dst, src, count: MishCustom[dtype](dst, src, count), x, dtype, tile=tile
    )
    assert_ulp(out, golden(x, dtype), ulps, atol=float(np.finfo(dtype.np_dtype).tiny))


@pytest.mark.parametrize(("dtype", "n", "tile", "ulps"), CASES)
def test_mish_as_written(dtype: type[Scalar], n: int, tile: int, ulps: int) -> None:
    _check(dtype, n, tile, ulps)


@pytest.mark.parametrize(("dtype", "n", "tile", "ulps"), CASES)
def test_mish_with_stand_ins(dtype: type[Scalar], n: int, tile: int, ulps: int) -> None:
    with stand_ins(globals()):
        _check(dtype, n, tile, ulps)
