"""Port of hicann/ops-math math/rsqrt/op_kernel/arch35/rsqrt.h (``RsqrtDag::RsqrtCustom<float>``).

The kernel's own compute: ``1 / sqrt(x)`` in a ``__VEC_SCOPE__`` with ``Reg::`` ops: per
register ``Duplicate`` of 1, ``Sqrt``, then a high-precision ``Div`` (a ``DivSpecificMode``
template argument ``{ZEROING, true}``), under an ``UpdateMask`` tail mask. The DAG around it
(the operator base library's: copy-in, cast, copy-out) is not public: the test drives the
struct with :func:`production_ports.run_elementwise` on float.

Golden: ``1 / sqrt(x)`` in float64, rounded to float, within 2 ulp (a correctly rounded
``sqrt`` and ``div``); ``x = 0`` gives inf, ``x < 0`` NaN.

Needs (as written): ``VECTOR_REG_WIDTH``, ``__VEC_SCOPE__`` (glue).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import Ref, Reg, float32_t, uint16_t, uint32_t
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__
from production_ports import ClassTemplate, assert_ulp, rounded, run_elementwise, stand_ins

CastModeBf16ToFp32 = 0
CastModeFp32ToBf16 = 1


@ClassTemplate
def RsqrtCustom(T):
    class RsqrtCustom:
        @__aicore__
        def __init__(self, dst: LocalTensor[T], src: LocalTensor[T], count: int) -> None:
            count = Ref(count)  # UpdateMask updates the by-value parameter through its reference
            dtypeSize = T.size
            VL = uint32_t(VECTOR_REG_WIDTH // dtypeSize)
            loopNum = uint16_t((count.value + VL - 1) // VL)
            vlSize = VL
            with __VEC_SCOPE__:
                srcAddr = src.GetPhyAddr()
                dstAddr = dst.GetPhyAddr()

                mode = Reg.DivSpecificMode(Reg.MaskMergeMode.ZEROING, True)

                vregInput = Reg.RegTensor[T, Reg.RegTraitNumOne]()
                ones = Reg.RegTensor[T, Reg.RegTraitNumOne]()
                vregSqrt = Reg.RegTensor[T, Reg.RegTraitNumOne]()
                vregOutput = Reg.RegTensor[T, Reg.RegTraitNumOne]()
                mask = Reg.MaskReg()

                for loopIdx in range(loopNum):
                    mask = Reg.UpdateMask[T, Reg.RegTraitNumOne](count)
                    Reg.LoadAlign(vregInput, srcAddr + loopIdx * vlSize)
                    Reg.Duplicate(ones, T(1.0), mask)
                    Reg.Sqrt(vregSqrt, vregInput, mask)
                    Reg.Div[T, mode](vregOutput, ones, vregSqrt, mask)
                    Reg.StoreAlign(dstAddr + loopIdx * vlSize, vregOutput, mask)

    return RsqrtCustom


def golden(x: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return rounded(1 / np.sqrt(x.astype(np.float64)), float32_t)


CASES = [pytest.param(2500, 1024, id="2500"), pytest.param(64, 64, id="one-register")]


def _check(n: int, tile: int) -> None:
    rng = np.random.default_rng(n)
    x = (10.0 ** rng.uniform(-30, 30, n)).astype(np.float32)
    x[:4] = [0.0, 1.0, 4.0, -1.0]
    out = run_elementwise(
        lambda dst, src, count: RsqrtCustom[float32_t](dst, src, count), x, float32_t, tile=tile
    )
    assert_ulp(out, golden(x), 2)


@pytest.mark.parametrize(("n", "tile"), CASES)
def test_rsqrt_as_written(n: int, tile: int) -> None:
    _check(n, tile)


@pytest.mark.parametrize(("n", "tile"), CASES)
def test_rsqrt_with_stand_ins(n: int, tile: int) -> None:
    with stand_ins(globals()):
        _check(n, tile)
