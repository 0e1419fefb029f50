"""The cube core of the basic API: ND2NZ, LoadData, Mmad and Fixpipe against scalar references.

Every property compares the vectorised implementation with the element-by-element references
of ``tests/reference/cube.py`` (written from the pages); the rules (alignment, capacity,
positions, dtype pairs, pipe order) each have a test that checks the message.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import (
    GlobalMemory,
    bfloat16_t,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    int32_t,
)
from ascreg._frontend.cube import MMAD_TYPES
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    CO2Layout,
    DataCopy,
    DataCopyParams,
    Fixpipe,
    FixpipeParamsArch3510,
    GlobalTensor,
    HardEvent,
    LoadData,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    LoadDataWithTranspose,
    LocalTensor,
    Mmad,
    MmadParams,
    Nd2NzParams,
    Nz2NdParams,
    PipeBarrier,
    QuantMode_t,
    SetFlag,
    TPosition,
    WaitFlag,
)
from ascreg.core.convert import decode
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregTypeError,
    OutOfBoundsError,
    SyncError,
    UnsupportedError,
)
from ascreg.machine.block import BlockContext, block
from ascreg.machine.cube import L0A_BYTES, L0B_BYTES, L0C_BYTES, L1_BYTES, cube_buffers
from reference import cube as ref

ROWS = 16


def gm_tensor(dtype: Any, values: np.ndarray) -> GlobalTensor[Any]:
    ptr = GlobalMemory().alloc(dtype, values.size)
    ptr.write(values.view(dtype.np_dtype) if values.dtype != dtype.np_dtype else values)
    tensor = GlobalTensor[dtype]()
    tensor.SetGlobalBuffer(ptr, values.size)
    return tensor


def raw(dtype: Any, count: int, rng: np.random.Generator) -> np.ndarray:
    """*count* random finite elements of *dtype*, as its numpy dtype."""
    if dtype is hifloat8_t:
        codes = rng.integers(0, 256, count).astype(np.uint8)
        return np.where(np.isfinite(decode(codes, hifloat8_t)), codes, 0).astype(np.uint8)
    if dtype in (int8_t, int32_t):
        return rng.integers(-128, 128, count).astype(dtype.np_dtype)
    values = rng.uniform(-4, 4, count).astype(dtype.np_dtype)
    return np.where(np.isfinite(values.astype(np.float64)), values, 0).astype(dtype.np_dtype)


@given(
    dtype=st.sampled_from([int8_t, fp8_e5m2_t, fp8_e4m3fn_t, half, bfloat16_t, float32_t]),
    n=st.integers(1, 20),
    d=st.integers(1, 40),
    extra=st.integers(0, 5),
    nd=st.integers(1, 2),
    nstride=st.integers(1, 2),
    seed=st.integers(0, 2**16),
)
def test_nd2nz_matches_the_reference(dtype, n, d, extra, nd, nstride, seed) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    c0 = 32 // dtype.size
    src_d = d + extra
    c0_stride = (n - 1) * nstride + 1 + extra
    blocks = -(-d // c0)
    nz_size = (blocks - 1) * c0_stride * c0 + ((n - 1) * nstride + 1) * c0
    p = Nd2NzParams(nd, n, d, n * src_d, src_d, c0_stride, nstride, nz_size)
    src = raw(dtype, nd * n * src_d, rng)
    expected = np.full(nd * nz_size, 77, dtype=src.dtype)
    ref.nd2nz(expected, src, p, c0)
    with block(BlockContext()):
        dst = LocalTensor[dtype](TPosition.A1, 64, nd * nz_size)
        dst.GetPhyAddr().write(np.full(nd * nz_size, 77, dtype=src.dtype))
        PipeBarrier[PIPE_ALL]()
        DataCopy(dst, gm_tensor(dtype, src), p)
        PipeBarrier[PIPE_ALL]()
        got = dst.GetPhyAddr().read(nd * nz_size)
    assert np.array_equal(got.view(np.uint8), expected.view(np.uint8))


@given(
    dtype=st.sampled_from([int8_t, half, float32_t]),
    m_start=st.integers(0, 3),
    k_start=st.integers(0, 3),
    m_step=st.integers(0, 4),
    k_step=st.integers(0, 4),
    src_stride=st.integers(0, 6),
    dst_stride=st.integers(1, 6),
    seed=st.integers(0, 2**16),
)
def test_load_v2_matches_the_reference(  # type: ignore[no-untyped-def]
    dtype, m_start, k_start, m_step, k_step, src_stride, dst_stride, seed
) -> None:
    dst_stride = max(dst_stride, m_step)  # distinct destination fractals
    p = LoadData2DParamsV2(m_start, k_start, m_step, k_step, src_stride, dst_stride, False, 0)
    src = np.random.default_rng(seed).integers(0, 256, 48 * 512).astype(np.uint8)
    expected = np.zeros(32 * 512, np.uint8)
    ref.load_v2(expected, src, p)
    with block(BlockContext()):
        a1 = LocalTensor[dtype](TPosition.A1, 0, 48 * 512 // dtype.size)
        a1.GetPhyAddr().cast(int8_t).write(src.view(np.int8))
        a2 = LocalTensor[dtype](TPosition.A2, 0, 32 * 512 // dtype.size)
        PipeBarrier[PIPE_ALL]()
        LoadData(a2, a1, p)
        PipeBarrier[PIPE_ALL]()
        got = a2.GetPhyAddr().cast(int8_t).read(32 * 512).view(np.uint8)
    assert np.array_equal(got, expected)


@given(
    start=st.integers(0, 5),
    repeats=st.integers(0, 6),
    src_stride=st.integers(0, 3),
    gap=st.integers(0, 2),
    seed=st.integers(0, 2**16),
)
def test_load_v1_matches_the_reference(start, repeats, src_stride, gap, seed) -> None:  # type: ignore[no-untyped-def]
    p = LoadData2DParams(start, repeats, src_stride, 0, gap, False, 0)
    src = np.random.default_rng(seed).integers(0, 256, 30 * 512).astype(np.uint8)
    expected = np.zeros(24 * 512, np.uint8)
    ref.load_v1(expected, src, p)
    with block(BlockContext()):
        b1 = LocalTensor[int8_t](TPosition.B1, 0, 30 * 512)
        b1.GetPhyAddr().write(src.view(np.int8))
        b2 = LocalTensor[int8_t](TPosition.B2, 0, 24 * 512)
        PipeBarrier[PIPE_ALL]()
        LoadData(b2, b1, p)
        PipeBarrier[PIPE_ALL]()
        got = b2.GetPhyAddr().read(24 * 512).view(np.uint8)
    assert np.array_equal(got, expected)


def test_transposing_loads_transpose_the_window() -> None:
    """b16: a 16 x 16 fractal transposed (both parameter structs); b32: a 16 x 16 block."""
    values = np.arange(512, dtype=np.float32)
    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, 512)
        a1.GetPhyAddr().write(values % 2048)
        f1 = LocalTensor[float32_t](TPosition.B1, 1024, 256)
        f1.GetPhyAddr().write(values[:256])
        a2, b2 = LocalTensor[half](TPosition.A2, 0, 512), LocalTensor[half](TPosition.B2, 0, 256)
        f2 = LocalTensor[float32_t](TPosition.A2, 1024, 256)
        PipeBarrier[PIPE_ALL]()
        LoadData(a2, a1, LoadData2DParamsV2(0, 0, 1, 1, 1, 1, True, 0))
        LoadData(b2, a1, LoadData2DParams(1, 1, 0, 0, 0, True, 0))
        LoadData(f2, f1, LoadData2DParamsV2(0, 0, 1, 2, 1, 1, True, 0))
        PipeBarrier[PIPE_ALL]()
        v2 = a2.GetPhyAddr().read(256).reshape(16, 16)
        v1 = b2.GetPhyAddr().read(256).reshape(16, 16)
        f = f2.GetPhyAddr().read(256)
    assert np.array_equal(v2, values[:256].reshape(16, 16).T)
    assert np.array_equal(v1, values[256:].reshape(16, 16).T)
    # source: two 16 x 8 fractals side by side = a 16 x 16 matrix S; destination: S transposed,
    # stored NZ as two 16 x 8 column blocks
    s = np.concatenate([values[:128].reshape(16, 8), values[128:256].reshape(16, 8)], axis=1)
    out = np.concatenate([f[:128].reshape(16, 8), f[128:].reshape(16, 8)], axis=1)
    assert np.array_equal(out, s.T)


@given(
    dtype=st.sampled_from([int8_t, half, float32_t]),
    start=st.integers(0, 3),
    repeats=st.integers(0, 4),
    src_stride=st.integers(0, 3),
    gap=st.integers(0, 2),
    frac_gap=st.integers(0, 1),
    seed=st.integers(0, 2**16),
)
def test_load_with_transpose_matches_the_reference(  # type: ignore[no-untyped-def]
    dtype, start, repeats, src_stride, gap, frac_gap, seed
) -> None:
    count = 512 // dtype.size
    src = raw(dtype, 64 * count, np.random.default_rng(seed))
    expected = np.zeros(32 * count, src.dtype)
    p = LoadData2dTransposeParams(start, repeats, src_stride, gap, frac_gap)
    ref.load_with_transpose(expected, src, p, dtype.size)
    with block(BlockContext()):
        b1 = LocalTensor[dtype](TPosition.B1, 0, 64 * count)
        b1.GetPhyAddr().write(src)
        b2 = LocalTensor[dtype](TPosition.B2, 0, 32 * count)
        PipeBarrier[PIPE_ALL]()
        LoadDataWithTranspose(b2, b1, p)
        PipeBarrier[PIPE_ALL]()
        got = b2.GetPhyAddr().read(32 * count)
    assert np.array_equal(got.view(np.uint8), expected.view(np.uint8))


def test_load_with_transpose_goes_to_l0b_only() -> None:
    with block(BlockContext()):
        b1 = LocalTensor[half](TPosition.B1, 0, 256)
        a2 = LocalTensor[half](TPosition.A2, 0, 256)
        with pytest.raises(AscregTypeError, match="dst is a A2 tensor but must be at TPosition B2"):
            LoadDataWithTranspose(a2, b1, LoadData2dTransposeParams(0, 1, 0, 0, 0))


def test_a_transposing_load_checks_the_step_rule() -> None:
    with block(BlockContext()):
        a1 = LocalTensor[int8_t](TPosition.A1, 0, 1024)
        a2 = LocalTensor[int8_t](TPosition.A2, 0, 1024)
        with pytest.raises(AscregError, match="8-bit elements needs mStep to be a multiple of 2"):
            LoadData(a2, a1, LoadData2DParamsV2(0, 0, 1, 1, 1, 1, True, 0))


def _mmad_case(
    fm: Any, flt: Any, m: int, n: int, k: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Logical A (rows padded to 16, K padded to c0) and Bᵀ of one Mmad, as raw elements."""
    mb, nb = -(-m // ROWS), -(-n // ROWS)
    ka, kb = (
        -(-k // (32 // fm.size)) * (32 // fm.size),
        -(-k // (32 // flt.size)) * (32 // flt.size),
    )
    return raw(fm, mb * ROWS * ka, rng).reshape(mb * ROWS, ka), raw(
        flt, nb * ROWS * kb, rng
    ).reshape(nb * ROWS, kb)


def _nz_flat(matrix: np.ndarray, c0: int) -> np.ndarray:
    rows, cols = matrix.shape
    flat = np.zeros(rows * cols, matrix.dtype)
    for r in range(rows):
        for c in range(cols):
            flat[ref.nz_index(r, c, c0, rows)] = matrix[r, c]
    return flat


def run_mmad(
    pair: tuple[Any, Any], a: np.ndarray, bt: np.ndarray, sizes: tuple[int, int, int], **kw: Any
) -> np.ndarray:
    """Run one Mmad on logical A / Bᵀ (old L0C value ``kw['c0']``); return C (rows x cols)."""
    (fm, flt), out = pair, MMAD_TYPES[pair]
    m, n, k = sizes
    rows, cols = a.shape[0], bt.shape[0]
    with block(BlockContext()):
        a2 = LocalTensor[fm](TPosition.A2, 0, a.size)
        a2.GetPhyAddr().write(_nz_flat(a, 32 // fm.size))
        b2 = LocalTensor[flt](TPosition.B2, 0, bt.size)
        b2.GetPhyAddr().write(_nz_flat(bt, 32 // flt.size))
        c1 = LocalTensor[out](TPosition.CO1, 0, rows * cols)
        c1.GetPhyAddr().write(_nz_flat(kw.get("old", np.zeros((rows, cols), out.np_dtype)), 16))
        args: list[Any] = []
        if "bias" in kw:
            bias = LocalTensor[out](TPosition.C2, 0, cols)
            bias.GetPhyAddr().write(kw["bias"])
            args.append(bias)
        p = MmadParams(m, n, k)
        p.cmatrixInitVal = kw.get("init", True)
        PipeBarrier[PIPE_ALL]()
        Mmad(c1, a2, b2, *args, p)
        PipeBarrier[PIPE_ALL]()
        flat = c1.GetPhyAddr().read(rows * cols)
    return np.array(
        [[flat[ref.nz_index(r, c, 16, rows)] for c in range(cols)] for r in range(rows)]
    )


@given(
    m=st.integers(2, 20),
    n=st.integers(1, 20),
    k=st.integers(1, 70),
    mode=st.sampled_from(["zero", "accumulate", "bias"]),
    seed=st.integers(0, 2**16),
)
def test_int8_mmad_is_exact(m, n, k, mode, seed) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    a, bt = _mmad_case(int8_t, int8_t, m, n, k, rng)
    rows, cols = a.shape[0], bt.shape[0]
    old = rng.integers(-(2**31), 2**31, (rows, cols)).astype(np.int32)
    bias = rng.integers(-(2**31), 2**31, cols).astype(np.int32)
    kw: dict[str, Any] = {"old": old, "init": mode == "zero"}
    if mode == "bias":
        kw["bias"] = bias
    start = {"zero": np.zeros_like(old), "accumulate": old, "bias": np.tile(bias, (rows, 1))}[mode]
    got = run_mmad((int8_t, int8_t), a, bt, (m, n, k), **kw)
    assert np.array_equal(got, ref.mmad_int(a[:, :k], bt[:, :k], start))


@given(
    pair=st.sampled_from([p for p in MMAD_TYPES if p != (int8_t, int8_t)]),
    m=st.integers(2, 18),
    n=st.integers(1, 18),
    k=st.integers(1, 40),
    accumulate=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_float_mmad_is_within_the_model_bound(pair, m, n, k, accumulate, seed) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    a, bt = _mmad_case(*pair, m, n, k, rng)
    old = rng.uniform(-50, 50, (a.shape[0], bt.shape[0])).astype(np.float32)
    got = run_mmad(pair, a, bt, (m, n, k), old=old, init=not accumulate)
    start = old if accumulate else np.zeros_like(old)
    exact, bound = ref.mmad_float_bound(
        decode(a[:, :k], pair[0]), decode(bt[:, :k], pair[1]), start
    )
    assert np.all(np.abs(got.astype(np.float64) - exact) <= bound)


@given(
    pair=st.sampled_from(list(MMAD_TYPES)),
    m=st.integers(2, 40),
    n=st.integers(1, 40),
    k=st.integers(1, 80),
    mode=st.sampled_from(["zero", "accumulate", "bias"]),
    seed=st.integers(0, 2**16),
)
def test_mmad_is_bit_identical_to_the_model_as_first_written(pair, m, n, k, mode, seed) -> None:  # type: ignore[no-untyped-def]
    """The fused NZ path of Mmad gives the bits of the plain float64 model (tests/reference)."""
    rng = np.random.default_rng(seed)
    a, bt = _mmad_case(*pair, m, n, k, rng)
    out = MMAD_TYPES[pair]
    shape = (a.shape[0], bt.shape[0])
    old = raw(out, shape[0] * shape[1], rng).reshape(shape) * out.np_dtype.type(1 << 20)
    bias = old[-1] - old[0]
    kw: dict[str, Any] = {"old": old, "init": mode == "zero"}
    if mode == "bias":
        kw["bias"] = bias
    start = {"zero": np.zeros_like(old), "accumulate": old, "bias": np.tile(bias, (shape[0], 1))}
    got = run_mmad(pair, a, bt, (m, n, k), **kw)
    want = ref.mmad_model(
        decode(a[:, :k], pair[0]), decode(bt[:, :k], pair[1]), start[mode], out.np_dtype
    )
    assert got.dtype == want.dtype and np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_half_mmad_matches_the_correctly_rounded_sum_on_small_integers() -> None:
    """Where the float64 sum is exact (small integers), the model is the exact value rounded."""
    rng = np.random.default_rng(5)
    a = rng.integers(-8, 8, (32, 64)).astype(np.float16)
    bt = rng.integers(-8, 8, (32, 64)).astype(np.float16)
    got = run_mmad((half, half), a, bt, (32, 32, 64))
    assert np.array_equal(got, (a.astype(np.float64) @ bt.astype(np.float64).T).astype(np.float32))


@pytest.mark.parametrize("special", [False, True])
def test_the_half_nz_read_widens_every_code_as_numpy_does(special: bool) -> None:
    """Every finite half code (in NZ order) widens to numpy's float64; an inf / NaN: numpy's cast."""
    from ascreg.core.cube import nz_read, nz_read_half

    codes = np.arange(2**16, dtype=np.uint16)
    finite = np.isfinite(codes.view(np.float16))
    flat = np.resize(codes[finite], 2**16 - 512)  # 2**16 - 512: 31 blocks of 128 x 16 rows
    flat[7] = 0x7C00 if special else flat[7]  # +inf: numpy's cast keeps it
    flat = flat.view(np.float16)
    shape = (8 * 16, 31 * 16)
    got = nz_read_half(flat, 8, 31, np.empty(shape))
    want = nz_read(flat, 8, 31, 16, 8 * 16, np.float64)
    assert np.array_equal(got.view(np.uint64), want.view(np.uint64))


@pytest.mark.parametrize("mode", ["zero", "accumulate", "bias"])
def test_a_large_half_mmad_is_bit_identical_to_the_model(mode: str) -> None:
    """Operands of 10 Ki elements and more widen by their bits: every finite code, the model's bits."""
    rng = np.random.default_rng(29)
    codes = np.arange(2**16, dtype=np.uint16)
    finite = codes[np.isfinite(codes.view(np.float16))]  # subnormals, zeros, +-65504 included
    a = rng.choice(finite, (64, 256)).view(np.float16)
    bt = rng.choice(finite, (48, 256)).view(np.float16)
    old = rng.uniform(-1e4, 1e4, (64, 48)).astype(np.float32)
    bias = old[5].copy()
    kw: dict[str, Any] = {"old": old, "init": mode == "zero"}
    if mode == "bias":
        kw["bias"] = bias
    start = {"zero": np.zeros_like(old), "accumulate": old, "bias": np.tile(bias, (64, 1))}[mode]
    with np.errstate(over="ignore", invalid="ignore"):  # +-65504 products can overflow float32
        got = run_mmad((half, half), a, bt, (64, 48, 256), **kw)
        want = ref.mmad_model(a, bt, start, np.float32)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("code", [0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE55])
def test_half_mmad_with_an_infinity_or_nan_follows_the_model(code: int) -> None:
    rng = np.random.default_rng(code)
    a = rng.uniform(-4, 4, (32, 64)).astype(np.float16)
    bt = rng.uniform(-4, 4, (16, 64)).astype(np.float16)
    a.view(np.uint16)[3, 5] = code
    with np.errstate(invalid="ignore"):  # a signalling NaN raises numpy's invalid flag
        got = run_mmad((half, half), a, bt, (32, 16, 64))
        want = ref.mmad_model(a, bt, np.zeros((32, 16), np.float32), np.float32)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_gemv_reads_a_as_one_nd_row() -> None:
    a = np.zeros((16, 32), np.float16)
    flat_row = np.arange(32, dtype=np.float16)
    bt = np.ones((16, 32), np.float16)
    with block(BlockContext()):
        a2 = LocalTensor[half](TPosition.A2, 0, 512)
        a2.GetPhyAddr().write(np.concatenate([flat_row, a.reshape(-1)[32:]]))
        b2 = LocalTensor[half](TPosition.B2, 0, 512)
        b2.GetPhyAddr().write(bt.reshape(-1))
        c1 = LocalTensor[float32_t](TPosition.CO1, 0, 256)
        PipeBarrier[PIPE_ALL]()
        Mmad(c1, a2, b2, MmadParams(1, 16, 32))
        p = MmadParams(1, 16, 32)
        p.disableGemv = True
        c2 = LocalTensor[float32_t](TPosition.CO1, 1024, 256)
        PipeBarrier[PIPE_ALL]()
        Mmad(c2, a2, b2, p)
        PipeBarrier[PIPE_ALL]()
        gemv, nz = c1.GetPhyAddr().read(16), c2.GetPhyAddr().read(16)
    assert gemv.tolist() == [float(sum(range(32)))] * 16
    # NZ: row 0 of A is elements 0..15 of block 0 and 0..15 of block 1 (elements 256..271)
    assert nz.tolist() == [float(sum(range(16)))] * 16


@given(
    m=st.integers(1, 40),
    n=st.integers(1, 40),
    relu=st.booleans(),
    quant=st.sampled_from([QuantMode_t.NoQuant, QuantMode_t.F322F16, QuantMode_t.F322BF16]),
    nd=st.integers(1, 2),
    seed=st.integers(0, 2**16),
)
def test_fixpipe_nz2nd_matches_the_reference(m, n, relu, quant, nd, seed) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    mb, nb = -(-m // ROWS), -(-n // ROWS)
    size = mb * nb * 256
    src = rng.uniform(-1000, 1000, nd * size).astype(np.float32)
    target = {QuantMode_t.NoQuant: float32_t, QuantMode_t.F322F16: half}.get(quant, bfloat16_t)
    row = n + 3
    count = (nd - 1) * m * row + (m - 1) * row + n
    out = GlobalMemory().alloc(target, count + 8)
    out_gm = GlobalTensor[target]()
    out_gm.SetGlobalBuffer(out)
    with block(BlockContext()):
        c1 = LocalTensor[float32_t](TPosition.CO1, 0, nd * size)
        c1.GetPhyAddr().write(src)
        p = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR](n, m, mb * ROWS, row)
        p.quantPre, p.reluEn = quant, relu
        p.params = Nz2NdParams(nd, size // 16, m * row)
        PipeBarrier[PIPE_ALL]()
        Fixpipe(out_gm, c1, p)
    got = out.read(count + 8)
    expected = np.zeros(count + 8, target.np_dtype)
    for i in range(nd):
        for r in range(m):
            for c in range(n):
                value = src[i * size + ref.nz_index(r, c, 16, mb * ROWS)]
                if relu:
                    value = max(value, np.float32(0))
                expected[i * m * row + r * row + c] = np.asarray(value).astype(target.np_dtype)
    assert np.array_equal(got.view(np.uint8), expected.view(np.uint8))


def test_fixpipe_nz_layout_keeps_the_fractals() -> None:
    out = GlobalMemory().alloc(int32_t, 2 * 32 * 16)
    out_gm = GlobalTensor[int32_t]()
    out_gm.SetGlobalBuffer(out)
    with block(BlockContext()):
        c1 = LocalTensor[int32_t](TPosition.CO1, 0, 512)
        c1.GetPhyAddr().write(np.arange(512, dtype=np.int32))
        p = FixpipeParamsArch3510[CO2Layout.NZ](32, 16, 16, 512)  # dst blocks 512 elements apart
        PipeBarrier[PIPE_ALL]()
        Fixpipe(out_gm, c1, p)
    got = out.read(1024)
    # block 1 of the destination starts 512 int32 later; 16-element rows
    assert got[:32].tolist() == list(range(32))
    assert got[512:528].tolist() == list(range(256, 272))
    assert not got[256:512].any()


def test_the_buffers_have_the_documented_sizes() -> None:
    with block(BlockContext()):
        bufs = cube_buffers()
        assert (
            (bufs.l1.capacity, bufs.l0a.capacity, bufs.l0b.capacity, bufs.l0c.capacity)
            == (
                L1_BYTES,
                L0A_BYTES,
                L0B_BYTES,
                L0C_BYTES,
            )
            == (512 << 10, 64 << 10, 64 << 10, 256 << 10)
        )
        assert (bufs.bt.capacity, bufs.fb.capacity) == (4096, 4096)


@pytest.mark.parametrize(
    ("position", "addr", "count", "error", "message"),
    [
        (TPosition.A2, 256, 16, AlignmentError, "addr 0x100 of a TPosition::A2 tensor"),
        (TPosition.CO1, 32, 16, AlignmentError, "is not 64-byte aligned"),
        (TPosition.A1, 16, 16, AlignmentError, "is not 32-byte aligned"),
        (TPosition.B2, 0, 32 * 1024 + 1, OutOfBoundsError, "leaves the 65536-byte __cb__"),
        (TPosition.C2, 0, 2049, OutOfBoundsError, "leaves the 4096-byte __biasbuf__"),
    ],
)
def test_cube_tensors_check_alignment_and_capacity(position, addr, count, error, message) -> None:  # type: ignore[no-untyped-def]
    with block(BlockContext()), pytest.raises(error, match=message):
        LocalTensor[half](position, addr, count)


def test_mmad_rejects_an_undocumented_dtype_pair_and_wrong_positions() -> None:
    with block(BlockContext()):
        a2 = LocalTensor[half](TPosition.A2, 0, 256)
        b2 = LocalTensor[bfloat16_t](TPosition.B2, 0, 256)
        c1 = LocalTensor[float32_t](TPosition.CO1, 0, 256)
        with pytest.raises(AscregTypeError, match="half x bfloat16_t -> float is not a Mmad"):
            Mmad(c1, a2, b2, MmadParams(16, 16, 16))
        with pytest.raises(AscregTypeError, match="fm is a B2 tensor but must be at TPosition A2"):
            Mmad(c1, b2, b2, MmadParams(16, 16, 16))
        c1x = LocalTensor[float32_t](TPosition.CO1, 64, 256)
        with pytest.raises(AlignmentError, match="dst at __cc__ 0x40 is not 1024-byte aligned"):
            Mmad(c1x, a2, LocalTensor[half](TPosition.B2, 0, 256), MmadParams(16, 16, 16))


def test_fixpipe_rejects_unmodelled_quantisation() -> None:
    out = GlobalTensor[int8_t]()
    out.SetGlobalBuffer(GlobalMemory().alloc(int8_t, 256))
    with block(BlockContext()):
        c1 = LocalTensor[int32_t](TPosition.CO1, 0, 256)
        p = FixpipeParamsArch3510(16, 16, 16, 16)
        p.quantPre = QuantMode_t.REQ8
        with pytest.raises(UnsupportedError, match="quantPre REQ8 from int32_t"):
            Fixpipe(out, c1, p)


def test_a_missing_mte1_to_m_flag_is_a_race() -> None:
    """Mmad (PIPE_M) reading L0A that a LoadData (PIPE_MTE1) wrote, with no flag between them."""
    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, 256)
        a2 = LocalTensor[half](TPosition.A2, 0, 256)
        b2 = LocalTensor[half](TPosition.B2, 0, 256)
        c1 = LocalTensor[float32_t](TPosition.CO1, 0, 256)
        PipeBarrier[PIPE_ALL]()
        LoadData(a2, a1, LoadData2DParamsV2(0, 0, 1, 1, 1, 1, False, 0))
        with pytest.raises(SyncError, match="PIPE_M reads L0A"):
            Mmad(c1, a2, b2, MmadParams(16, 16, 16))


def test_the_mte1_to_m_flag_orders_them() -> None:
    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, 256)
        a2 = LocalTensor[half](TPosition.A2, 0, 256)
        b2 = LocalTensor[half](TPosition.B2, 0, 256)
        c1 = LocalTensor[float32_t](TPosition.CO1, 0, 256)
        PipeBarrier[PIPE_ALL]()
        LoadData(a2, a1, LoadData2DParamsV2(0, 0, 1, 1, 1, 1, False, 0))
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)
        WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
        Mmad(c1, a2, b2, MmadParams(16, 16, 16))
        with pytest.raises(SyncError, match="PIPE_FIX"):  # and Fixpipe needs M_FIX
            out = GlobalTensor[float32_t]()
            out.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 256))
            Fixpipe(out, c1, FixpipeParamsArch3510(16, 16, 16, 16))


def test_an_nd2nz_copy_needs_a_global_source_and_checks_ranges() -> None:
    src = gm_tensor(half, np.zeros(64, np.float16))
    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, 256)
        with pytest.raises(AscregError, match=r"Nd2NzParams.dstNzC0Stride"):
            DataCopy(a1, src, Nd2NzParams(1, 4, 16, 0, 16, 0, 1, 0))
        with pytest.raises(AscregTypeError, match="reads a GlobalTensor"):
            DataCopy(a1, a1, Nd2NzParams(1, 4, 16, 0, 16, 4, 1, 0))


def test_fp8_inputs_decode_before_the_product() -> None:
    a = np.full((16, 32), 1.5, ml_dtypes.float8_e4m3fn)
    bt = np.full((16, 32), -2.0, ml_dtypes.float8_e5m2)
    got = run_mmad((fp8_e4m3fn_t, fp8_e5m2_t), a, bt, (16, 16, 32))
    assert np.all(got == -96.0)


def test_gm_to_l1_block_copies() -> None:
    """DataCopy GM -> L1 by count and by DataCopyParams (blocks of 32 bytes, gaps in blocks)."""
    src = gm_tensor(int32_t, np.arange(64, dtype=np.int32))
    with block(BlockContext()):
        c1 = LocalTensor[int32_t](TPosition.C1, 0, 64)
        c1.GetPhyAddr().write(np.full(64, -1, np.int32))
        PipeBarrier[PIPE_ALL]()
        DataCopy(c1, src, 16)
        DataCopy(c1[32], src[8], DataCopyParams(2, 1, 1, 0))
        PipeBarrier[PIPE_ALL]()
        got = c1.GetPhyAddr().read(64)
        with pytest.raises(AscregError, match="count 3 x 4 bytes is not a positive multiple of 32"):
            DataCopy(c1, src, 3)
    assert got[:16].tolist() == list(range(16))
    assert got[16:32].tolist() == [-1] * 16
    assert got[32:48].tolist() == list(range(8, 16)) + list(range(24, 32))


@given(
    values=st.lists(st.floats(-3e4, 3e4, width=32), min_size=1, max_size=16),
    scale=st.floats(2**-8, 8.0, width=32),
    shift=st.integers(0, 15),
    shift_on=st.booleans(),
    offset=st.integers(0, 511),
    signed=st.booleans(),
    relu=st.booleans(),
)
def test_b8_quantisation_matches_the_reference(  # type: ignore[no-untyped-def]
    values, scale, shift, shift_on, offset, signed, relu
) -> None:
    from ascreg.core.cube import quantize_b8

    word = int(np.float32(scale).view(np.uint32)) | shift << 32 | int(shift_on) << 36
    word |= offset << 37 | int(signed) << 46
    data = np.array([values], np.float32)
    got = quantize_b8(data, np.array([word], np.uint64), relu, signed)
    scale_used = np.uint32(int(np.float32(scale).view(np.uint32)) & 0xFFFFE000).view(np.float32)
    alpha = 0.0 if relu else float(scale_used)
    expected = [ref.qf322b8_pre(v, word, alpha) for v in data[0]]
    assert got[0].tolist() == expected
