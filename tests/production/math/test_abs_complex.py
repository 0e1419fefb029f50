"""Port of hicann/ops-math math/abs/op_kernel/arch35/abs_complex_dag.h (``AbscomplexCustom<T, U>``).

The kernel's own compute: ``|z|`` of complex32 / complex64 elements in a ``__VEC_SCOPE__``. It
views the ``LocalTensor<complex32>`` source as ``__ubuf__ half*`` (``(__ubuf__ T*)
src.GetPhyAddr()``); for complex32 it loads 128 interleaved halves, takes the real and
imaginary parts with the even / odd layout ``Cast`` to float, and computes
``sqrt(re * re + im * im)`` in float, cast back to half (saturating, to nearest even, packed);
for complex64 it de-interleaves on load (``DIST_DINTLV_B32``) and scales by the larger part's
exponent, bit-manipulating through register casts, to avoid overflow and handle subnormals.
The operator base library's DAG around it is not public: the test drives the struct with
:func:`production_ports.run_elementwise` (complex source, real destination).

The complex64 path repeats twice as often as its data needs and loads past it on the extra
repeats (see ``test_abs_complex64_loads_past_its_buffer``): ascreg, which takes whole-register
loads only when they start inside their allocation, runs it with tile buffers the data fills at
most half of.

The complex64 path divides both parts by the larger one's power of two with a uint32
subtraction of exponent bits: parts more than 2**127 apart wrap it (the kernel then gives
inf or garbage), so the test's parts share one scale per value.

Golden: ``hypot(re, im)`` in float64, rounded to T; within 1 ulp (complex32: one float
rounding chain, then one rounding to half) and 2 ulp (complex64: the scaled sum, sqrt and
rescale each round once).

Needs (as written): ``complex32`` / ``complex64`` element types, ``VECTOR_REG_WIDTH``,
``ONE_BLOCK_SIZE``, ``__VEC_SCOPE__``.
"""

from __future__ import annotations

import numpy as np
import pytest

import ascreg
from ascreg import CMPMODE, Ref, Reg, RoundMode, float32_t, half, int16_t, uint16_t, uint32_t
from ascreg.basic import *
from ascreg.errors import AscregWarning, OutOfBoundsError
from ascreg.machine.kernel import __aicore__
from production_ports import ClassTemplate, assert_ulp, rounded, run_elementwise


@ClassTemplate
def AbscomplexCustom(T, U):
    class AbscomplexCustom:
        @__aicore__
        def __init__(self, dst: LocalTensor[T], src: LocalTensor[U], count: int) -> None:
            # constants, float precision
            MIN_NORMAL_FLOAT = uint32_t(0x00800000)
            SCALE_UP = float32_t(16777216.0)
            SCALE_DOWN = float32_t(5.9604644775390625e-8)
            SHR_NUM_FOR_FP32 = int16_t(23)
            EXP_BIAS = uint32_t(0x3F800000)  # 1.0 (exponent 127, mantissa 0)

            vSrcReg0 = Reg.RegTensor[T]()
            vSrcReg1 = Reg.RegTensor[T]()
            vA = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vB = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vA0 = Reg.RegTensor[uint32_t, Reg.RegTraitNumOne]()
            vA1 = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vB1 = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vAS = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vBS = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vA1Sq = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vB1Sq = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vSumSq = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vS = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vResult = Reg.RegTensor[T, Reg.RegTraitNumOne]()
            vResultS = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()

            vAbsSrcReg0 = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vAbsSrcReg1 = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()

            vMinNormalFloat = Reg.RegTensor[uint32_t, Reg.RegTraitNumOne]()
            vExpBias = Reg.RegTensor[uint32_t, Reg.RegTraitNumOne]()
            vZero = Reg.RegTensor[uint32_t, Reg.RegTraitNumOne]()
            vSCALE_UP = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()
            vSCALE_DOWN = Reg.RegTensor[float32_t, Reg.RegTraitNumOne]()

            sreg = Ref(uint32_t(count))
            preg = Reg.MaskReg()
            preg2 = Reg.MaskReg()
            preg3 = Reg.MaskReg()
            preg4 = Reg.MaskReg()
            vflen = uint32_t(VECTOR_REG_WIDTH // float32_t.size)

            repeatStride = uint32_t(VECTOR_REG_WIDTH // U.size)
            repeatTime = uint16_t(CeilDivision(count, repeatStride))
            srcAddr = src.GetPhyAddr().cast(T)
            dstAddr = dst.GetPhyAddr().cast(T)
            with __VEC_SCOPE__:
                # load the constants
                Reg.Duplicate(vMinNormalFloat, MIN_NORMAL_FLOAT)
                Reg.Duplicate(vExpBias, EXP_BIAS)
                Reg.Duplicate(vSCALE_UP, SCALE_UP)
                Reg.Duplicate(vSCALE_DOWN, SCALE_DOWN)
                Reg.Duplicate(vZero, uint32_t(0))

                castTraitZero = Reg.CastTrait(
                    Reg.RegLayout.ZERO, Reg.SatMode.UNKNOWN, Reg.MaskMergeMode.ZEROING,
                    RoundMode.UNKNOWN,
                )  # fmt: skip
                castTraitOne = Reg.CastTrait(
                    Reg.RegLayout.ONE, Reg.SatMode.UNKNOWN, Reg.MaskMergeMode.ZEROING,
                    RoundMode.UNKNOWN,
                )  # fmt: skip
                castTrait32to16 = Reg.CastTrait(
                    Reg.RegLayout.ZERO, Reg.SatMode.SAT, Reg.MaskMergeMode.ZEROING,
                    RoundMode.CAST_RINT,
                )  # fmt: skip

                for i in range(repeatTime):
                    preg = Reg.UpdateMask[float32_t, Reg.RegTraitNumOne](sreg)
                    if U is complex32:
                        preg2 = Reg.CreateMask[uint16_t, Reg.MaskPattern.ALL]()
                        Reg.LoadAlign(vSrcReg0, srcAddr + i * vflen * 2)
                        Reg.Cast[float32_t, T, castTraitZero](vA, vSrcReg0, preg2)
                        Reg.Cast[float32_t, T, castTraitOne](vB, vSrcReg0, preg2)
                        Reg.Mul(vA1Sq, vA, vA, preg)
                        Reg.Mul(vB1Sq, vB, vB, preg)
                        Reg.Add(vSumSq, vA1Sq, vB1Sq, preg)
                        Reg.Sqrt(vS, vSumSq, preg)
                        Reg.Cast[T, float32_t, castTrait32to16](vResult, vS, preg)
                        Reg.StoreAlign[T, Reg.StoreDist.DIST_PACK_B32](
                            dstAddr + i * vflen, vResult, preg
                        )
                    else:
                        Reg.LoadAlign[T, Reg.LoadDist.DIST_DINTLV_B32](
                            vSrcReg0, vSrcReg1, srcAddr + i * vflen * 2
                        )
                        Reg.Abs(vAbsSrcReg0, vSrcReg0, preg)
                        Reg.Abs(vAbsSrcReg1, vSrcReg1, preg)
                        Reg.Compare[float32_t, CMPMODE.GT](preg2, vAbsSrcReg1, vAbsSrcReg0, preg)
                        Reg.Select[float32_t](vA, vAbsSrcReg1, vAbsSrcReg0, preg2)
                        Reg.Select[float32_t](vB, vAbsSrcReg0, vAbsSrcReg1, preg2)

                        # zero
                        Reg.Compare[uint32_t, CMPMODE.EQ](
                            preg4, Reg.RegTensor[uint32_t](vB), vZero, preg
                        )

                        # subnormals
                        Reg.Compare[uint32_t, CMPMODE.LT](
                            preg3, Reg.RegTensor[uint32_t](vA), vMinNormalFloat, preg
                        )
                        Reg.Mul(vAS, vA, vSCALE_UP, preg)
                        Reg.Mul(vBS, vB, vSCALE_UP, preg)
                        Reg.Select(vA, vAS, vA, preg3)
                        Reg.Select(vB, vBS, vB, preg3)
                        # the exponent factor of A
                        Reg.ShiftRights(vA0, Reg.RegTensor[uint32_t](vA), SHR_NUM_FOR_FP32, preg)
                        Reg.ShiftLefts(vA0, vA0, SHR_NUM_FOR_FP32, preg)
                        Reg.Sub(
                            Reg.RegTensor[uint32_t](vA1), Reg.RegTensor[uint32_t](vA), vA0, preg
                        )
                        Reg.Sub(
                            Reg.RegTensor[uint32_t](vB1), Reg.RegTensor[uint32_t](vB), vA0, preg
                        )

                        Reg.Add(
                            Reg.RegTensor[uint32_t](vA1), Reg.RegTensor[uint32_t](vA1), vExpBias,
                            preg,
                        )  # fmt: skip
                        Reg.Add(
                            Reg.RegTensor[uint32_t](vB1), Reg.RegTensor[uint32_t](vB1), vExpBias,
                            preg,
                        )  # fmt: skip

                        # the normalised values
                        Reg.Mul(vA1Sq, vA1, vA1, preg)
                        Reg.Mul(vB1Sq, vB1, vB1, preg)
                        Reg.Add(vSumSq, vA1Sq, vB1Sq, preg)
                        Reg.Sqrt(vS, vSumSq, preg)

                        Reg.Mul(vResult, vS, Reg.RegTensor[float32_t](vA0), preg)
                        Reg.Mul(vResultS, vResult, vSCALE_DOWN, preg)
                        Reg.Select(vResult, vResultS, vResult, preg3)

                        # zero
                        Reg.Select(vResult, vA, vResult, preg4)

                        Reg.StoreAlign(dstAddr + i * vflen, vResult, preg)

    return AbscomplexCustom


def _values(n: int, part: type, scales: list[float]) -> np.ndarray:
    rng = np.random.default_rng(n)
    parts = rng.uniform(-1, 1, (n, 2)) * rng.choice(scales, (n, 1))  # one scale per value
    parts[:4] = [[0, 0], [-0.0, 3], [3, -4], [-5, 0]]
    return parts.astype(part.np_dtype)


@pytest.mark.parametrize(("n", "tile"), [(300, 128), (1000, 512)])
def test_abs_complex32_as_written(n: int, tile: int) -> None:
    parts = _values(n, half, [1.0, 300.0, 1e-3])
    out = run_elementwise(
        lambda dst, src, count: AbscomplexCustom[half, complex32](dst, src, count),
        parts.view(complex32.np_dtype).reshape(-1),
        complex32,
        tile=tile,
        out_dtype=half,
    )
    golden = rounded(np.hypot(parts[:, 0].astype(np.float64), parts[:, 1]), half)
    assert_ulp(out, golden, 1)


@pytest.mark.parametrize(("n", "tile"), [(200, 256), (1000, 1024)])
def test_abs_complex64_as_written(n: int, tile: int) -> None:
    """Each block's share (128 / 512 values) fills at most half of its tile buffer, and the
    extra repeats read its unwritten rest: a warning under ``undefined="warn"`` (see below)."""
    parts = _values(n, float32_t, [1.0, 1e30, 1e-30, 1e-40])
    with (
        ascreg.policy(undefined="warn"),
        pytest.warns(AscregWarning, match="none of those bytes was written before"),
    ):
        out = run_elementwise(
            lambda dst, src, count: AbscomplexCustom[float32_t, complex64](dst, src, count),
            parts.view(complex64.np_dtype).reshape(-1),
            complex64,
            tile=tile,
            out_dtype=float32_t,
        )
    golden = rounded(np.hypot(parts[:, 0].astype(np.float64), parts[:, 1]), float32_t)
    assert_ulp(out, golden, 2)


def test_abs_complex64_loads_past_its_buffer() -> None:
    """The complex64 path counts its repeats in 32-value strides (``VECTOR_REG_WIDTH /
    sizeof(complex64)``) but each repeat takes 64 values (a de-interleaving load of two
    registers): the second half of its repeats load whole registers that start past the data
    with an all-off store mask. On the chip that reads whatever UB holds there, harmlessly;
    ascreg's tail over-read rule takes loads that start inside their allocation only, so a
    buffer the data fills is an OutOfBoundsError naming the load."""
    parts = _values(128, float32_t, [1.0])
    with pytest.raises(OutOfBoundsError, match=r"Reg\.LoadAlign: reads 512 bytes .* leaves the"):
        run_elementwise(
            lambda dst, src, count: AbscomplexCustom[float32_t, complex64](dst, src, count),
            parts.view(complex64.np_dtype).reshape(-1),
            complex64,
            tile=64,
            out_dtype=float32_t,
        )
