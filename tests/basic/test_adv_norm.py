"""The advanced API's normalizations (ascreg.basic._adv_norm) against the scalar references of
tests/reference/advnorm.py, on LocalTensors in a running block."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import bfloat16_t, float32_t, half, int32_t, uint8_t
from ascreg._dtypes import Scalar
from ascreg.basic import *
from ascreg.errors import (
    AscregError,
    AscregTypeError,
    IllegalDtypeError,
    OutOfBoundsError,
    UndefinedBehaviourError,
    UnsupportedError,
)
from ascreg.machine.block import BlockContext, block
from reference import advnorm as ref
from reference.common import from_bits, same_lanes, to_bits

FEW = settings(max_examples=15)
F = float32_t


class Ub:
    """Consecutive LocalTensors in one block's UB (32-byte aligned, a gap between them)."""

    def __init__(self) -> None:
        self.at = 0

    def tensor(self, dtype: type[Scalar], count: int, values: Any = None) -> Any:
        t = LocalTensor[dtype](TPosition.VECCALC, self.at, count)
        self.at += -(-count * dtype.size // 32) * 32 + 64
        if values is not None:
            t.GetPhyAddr().write(np.asarray(values).astype(dtype.np_dtype))
        return t


def floats(dtype: type[Scalar], n: int, scale: float = 100.0) -> Any:
    """*n* finite values of *dtype* in [-scale, scale]."""
    return st.lists(
        st.floats(-scale, scale, width=32, allow_subnormal=False), min_size=n, max_size=n
    ).map(lambda v: np.asarray(v, np.float32).astype(dtype.np_dtype))


def bits(values: Any) -> list[int]:
    return to_bits(np.asarray(values))


def up(values: Any, dtype: type[Scalar]) -> list[int]:
    return [ref.up(b, dtype) for b in bits(values)]


# -- WelfordUpdate -----------------------------------------------------------------------------


@FEW
@given(data=st.data(), dtype=st.sampled_from([half, bfloat16_t, F]), inplace=st.booleans(),
       aliased=st.booleans(), tmp=st.booleans())  # fmt: skip
def test_welford_update_matches_the_reference(
    dtype: Any, inplace: bool, aliased: bool, tmp: bool, data: Any
) -> None:
    ab = data.draw(st.integers(1, 40)) * 8
    n = data.draw(st.integers(1, ab))
    x, mean, var = (data.draw(floats(t, ab)) for t in (dtype, F, F))
    n_rec = data.draw(st.floats(2.0**-10, 1.0, width=32))
    with block(BlockContext()) as ctx:
        ub = Ub()
        tx, tm, tv = ub.tensor(dtype, ab, x), ub.tensor(F, ab, mean), ub.tensor(F, ab, var)
        om, ov = (
            (tm, tv)
            if aliased
            else (ub.tensor(F, ab, np.zeros(ab)), ub.tensor(F, ab, np.zeros(ab)))
        )
        extra = [ub.tensor(uint8_t, 64)] if tmp else []
        ctx.tracker.barrier()
        para = WelfordUpdateParam(1, ab, n, n_rec)
        WelfordUpdate[dtype, F, False, WelfordUpdateConfig(inplace)](
            om, ov, tm, tv, tx, *extra, para
        )
        ctx.tracker.barrier()
        got_m, got_v = bits(om.GetPhyAddr().read(ab)), bits(ov.GetPhyAddr().read(ab))
    xs, ms, vs = up(x, dtype), bits(mean), bits(var)
    want_m = ms[:] if (aliased or inplace) else [0] * ab
    want_v = vs[:] if (aliased or inplace) else [0] * ab
    if inplace and not aliased:
        keep = -(-(ab - n) // 8) * 8
        want_m[: ab - keep], want_v[: ab - keep] = [0] * (ab - keep), [0] * (ab - keep)
    for i in range(n):
        want_m[i], want_v[i] = ref.welford_update(xs[i], ms[i], vs[i], float(np.float32(n_rec)))
    assert same_lanes(got_m, want_m, F) and same_lanes(got_v, want_v, F)


def test_welford_update_checks_its_operands() -> None:
    with block(BlockContext()):
        ub = Ub()
        m, v, x = ub.tensor(F, 16), ub.tensor(F, 16), ub.tensor(F, 16)
        with pytest.raises(AscregError, match="abComputeLength 20 is more than abLength 16"):
            WelfordUpdate(m, v, m, v, x, WelfordUpdateParam(1, 16, 20, 1.0))
        with pytest.raises(OutOfBoundsError, match="inputX needs 24"):
            WelfordUpdate(m, v, m, v, x, WelfordUpdateParam(1, 32, 24, 1.0))
        with pytest.raises(IllegalDtypeError, match="U = half"):
            h = ub.tensor(half, 16)
            WelfordUpdate[F, half](h, h, h, h, x, WelfordUpdateParam(1, 16, 16, 1.0))
        with pytest.raises(AscregTypeError, match="no overload"):
            WelfordUpdate(m, v, m, v, x, LayerNormPara(1, 16, 16))


# -- WelfordFinalize ---------------------------------------------------------------------------


def finalize(mean: Any, var: Any, para: Any, correction: bool, counts: Any = None,
             tmp: bool = False, offset: int = 0) -> tuple[int, int]:  # fmt: skip
    with block(BlockContext()) as ctx:
        ub = Ub()
        tm, tv = ub.tensor(F, mean.size, mean), ub.tensor(F, var.size, var)
        om, ov = ub.tensor(F, 16), ub.tensor(F, 16)
        operands = [ub.tensor(int32_t, counts.size, counts)] if counts is not None else []
        operands += [ub.tensor(uint8_t, 64)] if tmp else []
        ctx.tracker.barrier()
        WelfordFinalize[False, WelfordFinalizeConfig(correction)](
            om[offset], ov[offset], tm, tv, *operands, para
        )
        ctx.tracker.barrier()
        return bits(om.GetPhyAddr(offset).read(1))[0], bits(ov.GetPhyAddr(offset).read(1))[0]


@FEW
@given(data=st.data(), kind=st.sampled_from(["head", "tail", "counts"]), correction=st.booleans(),
       tmp=st.booleans())  # fmt: skip
def test_welford_finalize_matches_the_reference(
    kind: str, correction: bool, tmp: bool, data: Any
) -> None:
    ab = data.draw(st.integers(1, 80)) * 8
    head_len = ab if kind == "head" else data.draw(st.integers(0, ab))
    tail_len = ab - head_len
    head_count = data.draw(st.integers(1, 50))
    tail_count = 0 if kind == "head" else data.draw(st.integers(1, 50))
    r = head_count * head_len + tail_count * tail_len
    para = WelfordFinalizePara(head_count, ab, head_count, head_len, tail_count, tail_len,
                               1 / max(head_len, 1), 1 / r, 1 / max(r - 1, 1))  # fmt: skip
    mean, var = data.draw(floats(F, ab)), data.draw(floats(F, ab, 1e4).map(np.abs))
    counts = None
    if kind == "counts":
        counts = np.asarray(
            data.draw(st.lists(st.integers(0, 1 << 25), min_size=ab, max_size=ab)), np.int32
        )
    offset = data.draw(st.integers(0, 7))
    got = finalize(mean, var, para, correction, counts, tmp, offset)
    want = ref.welford_finalize(bits(mean), bits(var), para, correction,
                                None if counts is None else bits(counts))  # fmt: skip
    assert same_lanes(list(got), list(want), F)


def test_welford_finalize_folds_more_than_64_partial_sums() -> None:
    ab = 8192 + 64
    rng = np.random.default_rng(5)
    mean, var = rng.normal(size=ab).astype(np.float32), rng.random(ab).astype(np.float32)
    para = WelfordFinalizePara(3, ab, 3, ab, 0, 0, 1 / ab, 1 / (3 * ab), 1 / (3 * ab - 1))
    assert same_lanes(list(finalize(mean, var, para, False)),
                      list(ref.welford_finalize(bits(mean), bits(var), para, False, None)), F)  # fmt: skip


def test_welford_finalize_checks_the_para() -> None:
    with block(BlockContext()):
        ub = Ub()
        m, v, om, ov = (ub.tensor(F, 16) for _ in range(4))
        with pytest.raises(AscregError, match="positive multiple of 8"):
            WelfordFinalize(om, ov, m, v, WelfordFinalizePara(1, 12, 1, 12, 0, 0, 1, 1, 1))
        with pytest.raises(AscregError, match="headCountLength 8"):
            WelfordFinalize(om, ov, m, v, WelfordFinalizePara(1, 16, 1, 8, 0, 0, 1, 1, 1))
        with pytest.raises(OutOfBoundsError, match="inputMean needs 32"):
            WelfordFinalize(om, ov, m, v, WelfordFinalizePara(1, 32, 1, 32, 0, 0, 1, 1, 1))


# -- LayerNorm and Normalize -------------------------------------------------------------------

TYPES = [(half, half), (half, F), (bfloat16_t, bfloat16_t), (bfloat16_t, F), (F, F)]
CONFIGS = [(False, False), (True, False), (False, True), (True, True)]  # (isNoBeta, isNoGamma)


def _expected_rows(xs: list[list[int]], means: list[int], rstds: list[int], gamma: Any,
                   beta: Any, t: Any, u: Any, no_beta: bool, no_gamma: bool) -> list[list[int]]:  # fmt: skip
    g = None if no_gamma else up(gamma, u)
    b = None if no_beta else up(beta, u)
    return [
        [ref.down(ref.normalize(v, mean, rstd, None if g is None else g[i], None if b is None else b[i]), t)
         for i, v in enumerate(row)]
        for row, mean, rstd in zip(xs, means, rstds, strict=True)
    ]  # fmt: skip


@settings(max_examples=25)
@given(data=st.data(), types=st.sampled_from(TYPES), flags=st.sampled_from(CONFIGS),
       out_rstd=st.booleans(), tmp=st.booleans())  # fmt: skip
def test_layernorm_matches_the_reference(
    types: Any, flags: Any, out_rstd: bool, tmp: bool, data: Any
) -> None:
    t, u = types
    a = data.draw(st.integers(1, 3))
    r = data.draw(st.sampled_from([1, 7, 64, 65, 128, 129, 200, 256, 300, 600]))
    align = 32 // t.size
    pad = -(-r // align) * align
    x = data.draw(floats(t, a * pad))
    gamma, beta = data.draw(floats(u, r, 4.0)), data.draw(floats(u, r, 4.0))
    eps = data.draw(st.sampled_from([0.0, 1e-5, 1.0]))
    tiling = LayerNormSeparateTiling()
    GetLayerNormNDTilingInfo((a, r), 0, t.size, False, True, tiling)
    config = LayerNormConfig(flags[0], flags[1], False, out_rstd)
    with block(BlockContext()) as ctx:
        ub = Ub()
        tx, ty = ub.tensor(t, a * pad, x), ub.tensor(t, a * pad, np.zeros(a * pad))
        tg, tb = ub.tensor(u, r, gamma), ub.tensor(u, r, beta)
        tm, t1 = ub.tensor(F, a), ub.tensor(F, a)
        extra = [ub.tensor(uint8_t, 64)] if tmp else []
        ctx.tracker.barrier()
        LayerNorm[u, t, False, config](
            ty, tm, t1, tx, tg, tb, eps, *extra, LayerNormPara(a, r, pad), tiling
        )
        ctx.tracker.barrier()
        got_y = bits(ty.GetPhyAddr().read(a * pad))
        got_m, got_1 = bits(tm.GetPhyAddr().read(a)), bits(t1.GetPhyAddr().read(a))
    xs = [up(x[j * pad : j * pad + r], t) for j in range(a)]
    stats = [ref.layernorm_mean_variance(row, int(tiling.rHeadLength), float(tiling.k2Rec),
                                         float(tiling.k2RRec)) for row in xs]  # fmt: skip
    means = [s[0] for s in stats]
    eps_bits = float(np.float32(eps))
    rstds = [ref.rsqrt(ref.m.adds(s[1], eps_bits)) for s in stats]
    rows = _expected_rows(xs, means, rstds, gamma, beta, t, u, *flags)
    assert same_lanes(got_m, means, F)
    assert same_lanes(got_1, rstds if out_rstd else [s[1] for s in stats], F)
    for j in range(a):
        assert same_lanes(got_y[j * pad : j * pad + r], rows[j], t), f"row {j}"


def test_layernorm_folds_many_partial_sums() -> None:
    r = 4096 * 2 + 100
    x = np.random.default_rng(3).normal(size=r).astype(np.float32)
    tiling = LayerNormSeparateTiling()
    GetLayerNormNDTilingInfo((1, r), 0, 4, False, True, tiling)
    with block(BlockContext()) as ctx:
        ub = Ub()
        tx, ty, tg, tb = ub.tensor(F, r, x), ub.tensor(F, r), ub.tensor(F, r), ub.tensor(F, r)
        tm, t1 = ub.tensor(F, 1), ub.tensor(F, 1)
        ctx.tracker.barrier()
        LayerNorm[F, F, False, LayerNormConfig(True, True, False, False)](
            ty, tm, t1, tx, tg, tb, 0.0, LayerNormPara(1, r, r), tiling
        )
        ctx.tracker.barrier()
        got = (bits(tm.GetPhyAddr().read(1))[0], bits(t1.GetPhyAddr().read(1))[0])
    want = ref.layernorm_mean_variance(bits(x), int(tiling.rHeadLength), float(tiling.k2Rec),
                                       float(tiling.k2RRec))  # fmt: skip
    assert same_lanes(list(got), list(want), F)
    assert (
        abs(np.float32(np.frombuffer(np.uint32(got[0]).tobytes(), np.float32)[0]) - x.mean()) < 1e-5
    )


@FEW
@given(
    data=st.data(), types=st.sampled_from(TYPES), flags=st.sampled_from(CONFIGS), tmp=st.booleans()
)
def test_normalize_matches_the_reference(types: Any, flags: Any, tmp: bool, data: Any) -> None:
    t, u = types
    a = data.draw(st.integers(1, 5))
    r = data.draw(st.integers(1, 150))
    align = 32 // t.size
    pad = -(-r // align) * align
    x = data.draw(floats(t, a * pad))
    mean, var = data.draw(floats(F, a)), data.draw(floats(F, a, 1e3).map(np.abs))
    gamma, beta = data.draw(floats(u, r, 4.0)), data.draw(floats(u, r, 4.0))
    eps = data.draw(st.sampled_from([0.0, 1e-5]))
    with block(BlockContext()) as ctx:
        ub = Ub()
        tx, ty = ub.tensor(t, a * pad, x), ub.tensor(t, a * pad, np.zeros(a * pad))
        tg, tb = ub.tensor(u, r, gamma), ub.tensor(u, r, beta)
        tm, tv, trs = ub.tensor(F, a, mean), ub.tensor(F, a, var), ub.tensor(F, a)
        extra = [ub.tensor(uint8_t, 64)] if tmp else []
        ctx.tracker.barrier()
        config = NormalizeConfig(isNoBeta=flags[0], isNoGamma=flags[1])
        Normalize[u, t, False, config](
            ty, trs, tm, tv, tx, tg, tb, *extra, eps, NormalizePara(a, r, pad)
        )
        ctx.tracker.barrier()
        got_y, got_r = bits(ty.GetPhyAddr().read(a * pad)), bits(trs.GetPhyAddr().read(a))
    rstds = [ref.rsqrt(ref.m.adds(v, float(np.float32(eps)))) for v in bits(var)]
    xs = [up(x[j * pad : j * pad + r], t) for j in range(a)]
    rows = _expected_rows(xs, bits(mean), rstds, gamma, beta, t, u, *flags)
    assert same_lanes(got_r, rstds, F)
    for j in range(a):
        assert same_lanes(got_y[j * pad : j * pad + r], rows[j], t)


def test_rsqrt_special_values() -> None:
    values = np.float32([0.0, -0.0, np.inf, 1.0, 4.0, 2.0, 1e-30, 3e38])
    got = [ref.rsqrt(b) for b in bits(values)]
    assert [float(v) for v in from_bits(got, F)[:5]] == [np.inf, np.inf, 0.0, 1.0, 0.5]
    want = 1 / np.sqrt(values[5:].astype(np.float64))
    assert np.allclose(from_bits(got, F)[5:], want, rtol=2e-7)


def test_layernorm_and_normalize_errors() -> None:
    with block(BlockContext()):
        ub = Ub()
        x, y, g, b = (ub.tensor(F, 512) for _ in range(4))
        m, r = ub.tensor(F, 8), ub.tensor(F, 8)
        tiling = LayerNormSeparateTiling()
        GetLayerNormNDTilingInfo((1, 300), 0, 4, False, True, tiling)
        para = LayerNormPara(1, 300, 304)
        with pytest.raises(UndefinedBehaviourError, match="overlap"):
            LayerNorm[F, F](x, m, r, x, g, b, 0.0, para, tiling)
        with pytest.raises(UnsupportedError, match="isOnlyOutput"):
            LayerNorm[F, F, False, LayerNormConfig(False, False, True)](
                y, m, r, x, g, b, 0.0, para, tiling
            )
        with pytest.raises(AscregError, match="rLength is 0"):
            LayerNorm[F, F](y, m, r, x, g, b, 0.0, para, LayerNormSeparateTiling())
        with pytest.raises(IllegalDtypeError, match="U = half"):
            h = ub.tensor(half, 512)
            LayerNorm[half, F](y, m, r, x, h, h, 0.0, para, tiling)
        with pytest.raises(UnsupportedError, match="ReducePattern::AR only"):
            Normalize[F, F, False, NormalizeConfig(_RA())](
                y, r, m, m, x, g, b, 0.0, NormalizePara(1, 8, 8)
            )
        with pytest.raises(AscregError, match=r"config\.aLength 2"):
            Normalize[F, F, False, NormalizeConfig(aLength=2)](
                y, r, m, m, x, g, b, 0.0, NormalizePara(1, 8, 8)
            )
        with pytest.raises(AscregError, match="rLength 9 is more than rLengthWithPadding 8"):
            Normalize[F, F](y, r, m, m, x, g, b, 0.0, NormalizePara(1, 9, 8))
        with pytest.raises(OutOfBoundsError, match="outputRstd needs 9"):
            Normalize[F, F](y, r, m, m, x, g, b, 0.0, NormalizePara(9, 8, 8))


class _RA:
    name = "RA"


def test_statistics_need_only_element_alignment() -> None:
    with block(BlockContext()) as ctx:
        ub = Ub()
        x, y, g, b, m, v = (ub.tensor(F, 8, np.ones(8)) for _ in range(6))
        ctx.tracker.barrier()
        Normalize[F, F](y, m[3], m[1], v[2], x, g, b, 0.0, NormalizePara(1, 8, 8))
        with pytest.raises(Exception, match="32-byte aligned"):
            Normalize[F, F](y[1], m, m, v, x, g, b, 0.0, NormalizePara(1, 7, 8))


# -- RmsNorm -----------------------------------------------------------------------------------


@FEW
@given(data=st.data(), dtype=st.sampled_from([half, F]), tmp=st.booleans())
def test_rmsnorm_matches_the_reference(dtype: Any, tmp: bool, data: Any) -> None:
    b, s = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))
    align = 32 // dtype.size
    oh = data.draw(st.integers(1, 140))
    h = -(-oh // align) * align
    buffer = data.draw(
        st.integers((h * (2 if dtype is half else 1) + 8) * 4, 4 * (b * s * h * 2 + 64))
    )
    tiling = RmsNormTiling()
    assert GetRmsNormTilingInfo((b, s, h), (b, s, oh), buffer, dtype.size, tiling)
    x = data.draw(floats(dtype, b * s * h, 10.0))
    gamma = data.draw(floats(dtype, h, 4.0))
    eps = data.draw(st.sampled_from([1e-6, 0.5]))
    with block(BlockContext()) as ctx:
        ub = Ub()
        tx, ty, tg = (
            ub.tensor(dtype, b * s * h, x),
            ub.tensor(dtype, b * s * h, np.zeros(b * s * h)),
            ub.tensor(dtype, h, gamma),
        )
        extra = [ub.tensor(uint8_t, 64)] if tmp else []
        ctx.tracker.barrier()
        RmsNorm(ty, tx, tg, *extra, eps, tiling)
        ctx.tracker.barrier()
        got = bits(ty.GetPhyAddr().read(b * s * h))
    e = float(np.float32(dtype.np_dtype.type(eps)))
    g = up(gamma[:oh], dtype)
    for row in range(b * s):
        want = [ref.down(v, dtype) for v in ref.rmsnorm_row(up(x[row * h : row * h + oh], dtype), g,
                                                            float(tiling.reciprocalOfHLength), e)]  # fmt: skip
        assert same_lanes(got[row * h : row * h + oh], want, dtype), f"row {row}"


@given(b=st.integers(1, 40), s=st.integers(1, 40), h=st.sampled_from([8, 16, 64, 200, 1024]),
       buffer=st.integers(0, 1 << 18), half_type=st.booleans())  # fmt: skip
def test_rmsnorm_tiling_covers_every_row_once(
    b: int, s: int, h: int, buffer: int, half_type: bool
) -> None:
    tiling = RmsNormTiling()
    coeff = 2 if half_type else 1
    ok = GetRmsNormTilingInfo((b, s, h), (b, s, h), buffer, 4 // coeff, tiling)
    assert ok == (buffer >= (h * coeff + 8) * 4 and h * (4 // coeff) % 32 == 0)
    if ok:
        rows = int(tiling.mainBsLength)
        assert 1 <= rows <= 255
        assert int(tiling.loopRound) * rows + int(tiling.tailBsLength) == b * s
        assert (
            rows == b * s
            or (rows + 1) * h * coeff + -(-(rows + 1) // 8) * 8 > buffer // 4
            or rows == 255
        )


def test_rmsnorm_checks_its_tiling() -> None:
    with block(BlockContext()):
        ub = Ub()
        x, y, g = ub.tensor(F, 16), ub.tensor(F, 16), ub.tensor(F, 16)
        with pytest.raises(AscregError, match="mainBsLength must be nonzero"):
            RmsNorm(y, x, g, 0.0, RmsNormTiling())
        tiling = RmsNormTiling()
        GetRmsNormTilingInfo((1, 4, 8), (1, 4, 8), 4096, 4, tiling)
        with pytest.raises(OutOfBoundsError, match="srcLocal needs 32"):
            RmsNorm(y, x, g, 0.0, tiling)
        with pytest.raises(IllegalDtypeError):
            bf = ub.tensor(bfloat16_t, 16)
            RmsNorm(bf, bf, bf, 0.0, tiling)
    assert not GetRmsNormTilingInfo((1, 4, 7), (1, 4, 7), 4096, 4, RmsNormTiling())


def test_layernorm_tiling_constants() -> None:
    for r, head, k2 in [
        (1, 64, 64),
        (64, 64, 64),
        (65, 64, 128),
        (128, 128, 128),
        (200, 128, 256),
        (4096, 4096, 4096),
    ]:
        t = LayerNormSeparateTiling()
        GetLayerNormNDTilingInfo((3, r), 0, 4, False, True, t)
        assert (t.rLength, t.rHeadLength) == (r, head)
        assert float(t.k2Rec) == 1 / k2 and float(t.k2RRec) == float(np.float32(k2) / np.float32(r))
