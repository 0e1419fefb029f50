"""Port of hicann/ops-nn activation/fast_gelu/op_kernel/arch35/fast_gelu_dag.h (``FastGeluCustom<float, hp>``).

The kernel's own compute: ``x / (exp(-1.702 x) + 1)`` in a ``__VEC_SCOPE__`` (``Muls``,
``Exp``, ``Adds``, then ``Div`` with a ``DivSpecificMode`` template argument whose precision
flag is the struct's ``highPrecisionDiv``: true on the no-cast path, false after a cast). The
operator base library's DAG around it is not public: the test drives the struct with
:func:`production_ports.run_elementwise` on float (both ``highPrecisionDiv`` instantiations).

Golden: ``x / (1 + exp(-1.702 x))`` in float64 with the kernel's float constant ``-1.702``,
rounded to float. Tolerance: 4 ulp plus ``2 |z|`` for the exponent's float rounding; below
-52 the kernel's float ``exp`` overflows and it gives -0 for a result smaller than 1e-36.

Needs (as written): ``VECTOR_REG_WIDTH``, ``__VEC_SCOPE__`` (glue).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import MicroAPI, Ref, float32_t, uint16_t, uint32_t
from ascreg.basic import *
from ascreg.machine.kernel import __aicore__
from production_ports import ClassTemplate, assert_ulp, rounded, run_elementwise, stand_ins


@ClassTemplate
def FastGeluCustom(T, highPrecisionDiv):
    class FastGeluCustom:
        @__aicore__
        def __init__(self, dst: LocalTensor[T], src: LocalTensor[T], count: int) -> None:
            count = Ref(count)  # UpdateMask updates the by-value parameter through its reference
            dtypeSize = T.size
            VL = uint32_t(VECTOR_REG_WIDTH // dtypeSize)
            loopNum = uint16_t(CeilDivision(count.value, VL))
            vlSize = VL
            value1 = T(-1.702)
            value2 = T(1.0)

            with __VEC_SCOPE__:
                srcAddr = src.GetPhyAddr()
                dstAddr = dst.GetPhyAddr()

                x = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                denominator = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                result = MicroAPI.RegTensor[T, MicroAPI.RegTraitNumOne]()
                mode = MicroAPI.DivSpecificMode(MicroAPI.MaskMergeMode.ZEROING, highPrecisionDiv)
                mask = MicroAPI.MaskReg()

                for loopIdx in range(loopNum):
                    mask = MicroAPI.UpdateMask[T, MicroAPI.RegTraitNumOne](count)
                    MicroAPI.LoadAlign(x, srcAddr + loopIdx * vlSize)
                    MicroAPI.Muls(denominator, x, value1, mask)
                    MicroAPI.Exp(denominator, denominator, mask)
                    MicroAPI.Adds(denominator, denominator, value2, mask)
                    MicroAPI.Div[T, mode](result, x, denominator, mask)
                    MicroAPI.StoreAlign(dstAddr + loopIdx * vlSize, result, mask)

    return FastGeluCustom


def golden(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    z = float(np.float32(-1.702)) * x.astype(np.float64)
    return rounded(x.astype(np.float64) / (1 + np.exp(z)), float32_t), z


OVERFLOWED = 60 * float(np.exp(-88.72))
"""Below x = -52 the float ``exp(-1.702 x)`` overflows and the kernel gives -0 where the
result is ``x exp(1.702 x)``, less than ``60 e^-88.72`` in size for these inputs."""

CASES = [
    pytest.param(3000, 1024, True, id="no-cast-path"),
    pytest.param(777, 256, False, id="cast-path"),
]


def _check(n: int, tile: int, highPrecisionDiv: bool) -> None:
    x = np.random.default_rng(n).uniform(-60, 30, n).astype(np.float32)
    x[:3] = [0.0, -0.0, 1.0]
    expected, z = golden(x)
    out = run_elementwise(
        lambda dst, src, count: FastGeluCustom[float32_t, highPrecisionDiv](dst, src, count),
        x,
        float32_t,
        tile=tile,
    )
    assert_ulp(out, expected, 4 + 2 * np.abs(z), atol=OVERFLOWED)


@pytest.mark.parametrize(("n", "tile", "hp"), CASES)
def test_fast_gelu_as_written(n: int, tile: int, hp: bool) -> None:
    _check(n, tile, hp)


@pytest.mark.parametrize(("n", "tile", "hp"), CASES)
def test_fast_gelu_with_stand_ins(n: int, tile: int, hp: bool) -> None:
    with stand_ins(globals()):
        _check(n, tile, hp)
