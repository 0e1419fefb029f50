"""Port of hicann/ops-nn activation/gelu/op_kernel/arch35/gelu_dag.h (``GeluDag1::GeluCustom<float>``).

The kernel's own compute: the tanh-approximation GELU rewritten as
``x / (1 + exp(-sqrt(8/pi) * 0.044715 * (x / 0.044715 + x^3)))``, in a ``__VEC_SCOPE__``: per
register ``Mul``, ``Mul`` (x^3), ``Axpy`` (adds ``x / 0.044715``), ``Muls``, ``Exp``, ``Adds``
1, ``Div``, under an ``UpdateMask`` tail mask. ``GeluDAG`` around it (the operator base
library's DAG: copy-in, casts, copy-out) is not public: the test drives the struct with
:func:`production_ports.run_elementwise` on float, where the DAG's casts are identities.

Golden: ``0.5 x (1 + tanh(u))``, ``u = sqrt(2/pi) (x + 0.044715 x^3)``, in float64 (written
``x / (1 + exp(-2u))`` so it keeps its digits where ``tanh(u)`` is near -1), rounded to float.
Tolerance: 4 ulp plus the float rounding of the exponent ``z`` (which ``exp`` turns into a
relative error of a few ``|z| * 2^-24``: ``4 |z|`` ulp, the constants' float rounding included).

Needs (as written): ``VECTOR_REG_WIDTH``, ``__VEC_SCOPE__`` (glue).
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import pytest

from ascreg import MicroAPI, Ref, Scalar, float32_t, uint16_t, uint32_t
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__
from production_ports import ClassTemplate, assert_ulp, rounded, run_elementwise, stand_ins

NEG_SQRT_EIGHT_OVER_PI = float32_t(-1.595769121 * 0.044715)
TANH_APPROX_FACTOR = float32_t(1 / 0.044715)
CAST_MODE_NONE = 0
CAST_MODE_RINT = 1


@ClassTemplate
def GeluCustom(T):
    class GeluCustom:
        @__aicore__
        def __init__(self, dst: LocalTensor[T], src: LocalTensor[T], count: int) -> None:
            count = Ref(count)  # UpdateMask updates the by-value parameter through its reference
            dtypeSize = T.size
            vl = uint32_t(VECTOR_REG_WIDTH // dtypeSize)
            loopNum = uint16_t(CeilDivision(count.value, vl))
            vlSize = vl
            srcAddr = src.GetPhyAddr()
            dstAddr = dst.GetPhyAddr()

            vregInput = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
            vregInputSqr = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
            vregInputCub = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
            vregOutput = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
            mask = MicroAPI.MaskReg()
            if T is float32_t:
                with __VEC_SCOPE__:
                    for loopIdx in range(loopNum):
                        mask = MicroAPI.UpdateMask[T, MicroAPI.RegTraitNumOne](count)
                        MicroAPI.LoadAlign(vregInput, srcAddr + loopIdx * vlSize)
                        MicroAPI.Mul(vregInputSqr, vregInput, vregInput, mask)
                        MicroAPI.Mul(vregInputCub, vregInputSqr, vregInput, mask)
                        MicroAPI.Axpy(vregInputCub, vregInput, TANH_APPROX_FACTOR, mask)
                        MicroAPI.Muls(vregInputCub, vregInputCub, NEG_SQRT_EIGHT_OVER_PI, mask)
                        MicroAPI.Exp(vregInputCub, vregInputCub, mask)
                        MicroAPI.Adds(vregInputCub, vregInputCub, float32_t(1.0), mask)
                        MicroAPI.Div(vregOutput, vregInput, vregInputCub, mask)

                        MicroAPI.StoreAlign(dstAddr + loopIdx * vlSize, vregOutput, mask)

    return GeluCustom


def golden(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """GELU (tanh approximation) in float64, and its exponent ``z``."""
    x64 = x.astype(np.float64)
    inner = np.sqrt(2 / np.pi) * (x64 + 0.044715 * x64**3)
    # 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)): the second form keeps its digits for u << 0
    return rounded(x64 / (1 + np.exp(-2 * inner)), float32_t), -2 * inner


CASES = [pytest.param(1000, 512, id="1000-tiles-of-512"), pytest.param(4096 + 37, 2048, id="4133")]


def _check(n: int, tile: int) -> None:
    x = np.random.default_rng(n).uniform(-9, 9, n).astype(np.float32)
    x[:3] = [0.0, -0.0, 3.0]
    expected, z = golden(x)
    out = run_elementwise(
        lambda dst, src, count: GeluCustom[float32_t](dst, src, count), x, float32_t, tile=tile
    )
    assert_ulp(out, expected, 4 + 4 * np.abs(z), atol=float(np.finfo(np.float32).tiny))


@pytest.mark.parametrize(("n", "tile"), CASES)
def test_gelu_as_written(n: int, tile: int) -> None:
    _check(n, tile)


@pytest.mark.parametrize(("n", "tile"), CASES)
def test_gelu_with_stand_ins(n: int, tile: int) -> None:
    with stand_ins(globals()):
        _check(n, tile)


_ = (Scalar, TypeVar, CAST_MODE_NONE, CAST_MODE_RINT)
