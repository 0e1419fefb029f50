"""The MX cube forms: the scale load, the MX multiply-add, their C API and basic API spellings.

The operands are laid out here by independent packers written from the pages (A NZ, B ZN, the
scale fractals ``[大Z小z]`` / ``[大N小n]`` of ``MmadMx.md`` table 1, 16 x 2 each); the results
are checked against scalar models: the scale load's window copy written from
``LoadData_2D_MX.md`` (start ``(xStart * srcStride + yStart) * 32B``, X fractals ``srcStride`` /
``dstStride`` apart) and ``C = (scaleA ⊗ A) x (scaleB ⊗ B) + C0`` element by element. fp4 codes
are decoded with the OCP MX tables below, fp8 with ``ml_dtypes``.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    fp8_e8m0_t,
    half,
    int8_t,
    int32_t,
)
from ascreg.basic import (
    PIPE_ALL,
    LoadData,
    LoadData2DMxParams,
    LoadData2DParams,
    LoadData2DParamsV2,
    LocalTensor,
    Mmad,
    MmadMx,
    MmadParams,
    PipeBarrier,
    TPosition,
)
from ascreg.c_api import (
    asc_copy_l12l0a_mx,
    asc_copy_l12l0a_mx_sync,
    asc_copy_l12l0b_mx,
    asc_copy_l12l0b_mx_sync,
    asc_mmad_mx,
    asc_mmad_mx_sync,
    asc_sync,
)
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregTypeError,
    SyncError,
    UnsupportedError,
)
from ascreg.machine.block import BlockContext, block
from ascreg.machine.cube import cube_buffers

FP4 = (fp4x2_e1m2_t, fp4x2_e2m1_t)
FP8 = (fp8_e4m3fn_t, fp8_e5m2_t)
TABLES = {
    fp4x2_e2m1_t: [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0],
    fp4x2_e1m2_t: [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75],
}
"""The OCP MX 4-bit magnitudes of codes 0..7 (code + 8 is the negative)."""
NP8 = {fp8_e4m3fn_t: ml_dtypes.float8_e4m3fn, fp8_e5m2_t: ml_dtypes.float8_e5m2}


# -- independent packers and models ------------------------------------------------------------------


def decode(codes: np.ndarray, dtype: Any) -> np.ndarray:
    """The values of element codes (one per element: a 4-bit code or an fp8 byte)."""
    if dtype in FP4:
        magnitude = np.asarray(TABLES[dtype])[codes & 7]
        return np.where(codes & 8, -magnitude, magnitude)
    return codes.view(NP8[dtype]).astype(np.float64)


def codes_for(rng: np.random.Generator, dtype: Any, shape: tuple[int, int]) -> np.ndarray:
    """Random finite element codes of *dtype*."""
    if dtype in FP4:
        return rng.integers(0, 16, shape, dtype=np.uint8)
    values = rng.integers(-8, 9, shape) * 0.25
    return values.astype(NP8[dtype]).view(np.uint8)


def nz(codes: np.ndarray, dtype: Any) -> np.ndarray:
    """The NZ bytes of a rows x K code matrix (rows padded to 16; 32-byte fractal rows)."""
    rows = -(-codes.shape[0] // 16) * 16
    full = np.zeros((rows, codes.shape[1]), np.uint8)
    full[: codes.shape[0]] = codes
    if dtype in FP4:
        full = (full[:, 0::2] | (full[:, 1::2] << 4)).astype(np.uint8)
    cols = full.shape[1] // 32
    return full.reshape(rows, cols, 32).transpose(1, 0, 2).reshape(-1)


def scale_fractals(scales: np.ndarray) -> np.ndarray:
    """The MX bytes of a rows x K/32 scale matrix: fractal (row // 16, K slice) row-major."""
    rows = -(-scales.shape[0] // 16) * 16
    full = np.full((rows, scales.shape[1]), 127, np.uint8)
    full[: scales.shape[0]] = scales
    return full.reshape(rows // 16, 16, -1, 2).transpose(0, 2, 1, 3).reshape(-1)


def mmad_model(
    a: np.ndarray, sa: np.ndarray, b: np.ndarray, sb: np.ndarray, c0: np.ndarray
) -> np.ndarray:
    """C[i, j] = C0[i, j] + sum_k A[i, k] 2^(sa[i, k/32] - 127) B[k, j] 2^(sb[k/32, j] - 127)."""
    m, k = a.shape
    n = b.shape[1]
    out = np.empty((m, n), np.float32)
    for i in range(m):
        for j in range(n):
            total = float(c0[i, j])
            for kk in range(k):
                scale = 2.0 ** (int(sa[i, kk // 32]) - 127 + int(sb[kk // 32, j]) - 127)
                total += float(a[i, kk]) * float(b[kk, j]) * scale
            out[i, j] = total
    return out


def read_c(m: int, n: int) -> np.ndarray:
    """L0C's NZ float C read back as the m x n matrix."""
    rows, blocks = -(-m // 16) * 16, -(-n // 16)
    flat = np.asarray(cube_buffers().pointer("l0c", float32_t, 0).read(rows * blocks * 16))
    return flat.reshape(blocks, rows, 16).transpose(1, 0, 2).reshape(rows, -1)[:m, :n]


def place(
    types: tuple[Any, Any], m: int, n: int, k: int, rng: np.random.Generator
) -> tuple[np.ndarray, ...]:
    """Write random A, B and their scales straight into L0A / L0B / L0A_MX / L0B_MX."""
    cb = cube_buffers()
    a, b = codes_for(rng, types[0], (m, k)), codes_for(rng, types[1], (k, n))
    sa = rng.integers(124, 131, (m, k // 32), dtype=np.uint8)
    sb = rng.integers(124, 131, (k // 32, n), dtype=np.uint8)
    cb.l0a.pointer(types[0], 0).bytes(nz(a, types[0]).size, "writes")[:] = nz(a, types[0])
    b_nz = nz(np.ascontiguousarray(b.T), types[1])
    cb.l0b.pointer(types[1], 0).bytes(b_nz.size, "writes")[:] = b_nz
    for buffer, scales in ((cb.l0a_mx, sa), (cb.l0b_mx, np.ascontiguousarray(sb.T))):
        packed = scale_fractals(scales)
        buffer.pointer(fp8_e8m0_t, 0).bytes(packed.size, "writes")[:] = packed
    return decode(a, types[0]), sa, decode(b, types[1]), sb


TYPE_PAIRS = [(x, y) for group in (FP4, FP8) for x in group for y in group]


# -- the multiply-add ----------------------------------------------------------------------------------


@pytest.mark.rows("asc_mmad_mx", "asc_mmad_mx_sync")
@pytest.mark.parametrize("types", TYPE_PAIRS, ids=lambda t: f"{t[0].cpp_name}x{t[1].cpp_name}")
def test_every_type_pair_matches_the_model(types: tuple[Any, Any]) -> None:
    rng = np.random.default_rng(3)
    m, n, k = 20, 24, 128
    with block(BlockContext()):
        a, sa, b, sb = place(types, m, n, k, rng)
        c = cube_buffers().pointer("l0c", float32_t, 0)
        asc_sync()
        asc_mmad_mx_sync(c, cube_buffers().pointer("l0a", types[0], 0),
                         cube_buffers().pointer("l0b", types[1], 0), m, k, n, 0, True, False,
                         True)  # fmt: skip
        got = read_c(m, n)
    np.testing.assert_array_equal(got, mmad_model(a, sa, b, sb, np.zeros((m, n))))


@settings(max_examples=12, deadline=None, derandomize=True)
@given(
    st.sampled_from(TYPE_PAIRS), st.integers(1, 33), st.integers(1, 33), st.integers(1, 2),
    st.booleans(), st.integers(0, 2**32 - 1),
)  # fmt: skip
def test_the_multiply_add_against_the_scalar_model(
    types: tuple[Any, Any], m: int, n: int, slices: int, accumulate: bool, seed: int
) -> None:
    """Random sizes; C from 0, or accumulated onto L0C's previous result."""
    rng = np.random.default_rng(seed)
    k = 64 * slices
    m = max(m, 2)  # m == 1 is the GEMV form
    with block(BlockContext()):
        a, sa, b, sb = place(types, m, n, k, rng)
        cb = cube_buffers()
        pa, pb = cb.pointer("l0a", types[0], 0), cb.pointer("l0b", types[1], 0)
        c = cb.pointer("l0c", float32_t, 0)
        asc_sync()
        asc_mmad_mx_sync(c, pa, pb, m, k, n, 0, True, False, True)
        first = read_c(m, n).copy()
        asc_sync()  # the scalar read before the next multiply-add writes L0C
        if accumulate:
            asc_mmad_mx_sync(c, pa, pb, m, k, n, 0, True, False, False)
        got = read_c(m, n)
    want = mmad_model(a, sa, b, sb, np.zeros((m, n)))
    np.testing.assert_array_equal(first, want)
    np.testing.assert_array_equal(got, mmad_model(a, sa, b, sb, want) if accumulate else want)


def test_a_nan_scale_makes_its_rows_nan() -> None:
    rng = np.random.default_rng(5)
    with block(BlockContext()):
        place((fp8_e4m3fn_t, fp8_e4m3fn_t), 16, 16, 64, rng)
        cube_buffers().l0a_mx.pointer(fp8_e8m0_t, 0).bytes(2, "writes")[:] = 0xFF  # row 0
        asc_sync()
        cb = cube_buffers()
        asc_mmad_mx_sync(cb.pointer("l0c", float32_t, 0), cb.pointer("l0a", fp8_e4m3fn_t, 0),
                         cb.pointer("l0b", fp8_e4m3fn_t, 0), 16, 64, 16, 0, True, False, True)  # fmt: skip
        got = read_c(16, 16)
    assert np.isnan(got[0]).all() and not np.isnan(got[1:]).any()


def test_the_basic_forms_start_c_from_a_bias_tensor_or_the_table() -> None:
    rng = np.random.default_rng(7)
    bias = rng.integers(-5, 5, 16).astype(np.float32)
    with block(BlockContext()):
        a, sa, b, sb = place((fp8_e5m2_t, fp8_e4m3fn_t), 16, 16, 64, rng)
        fm = LocalTensor[fp8_e5m2_t](TPosition.A2, 0, 1024)
        filt = LocalTensor[fp8_e4m3fn_t](TPosition.B2, 0, 1024)
        c2 = LocalTensor[float32_t](TPosition.C2, 0, 16)
        c2.GetPhyAddr().write(bias)
        co1 = LocalTensor[float32_t](TPosition.CO1, 0, 256)
        PipeBarrier[PIPE_ALL]()
        MmadMx(co1, fm, filt, c2, MmadParams(16, 16, 64))
        PipeBarrier[PIPE_ALL]()
        with_tensor = read_c(16, 16).copy()
        PipeBarrier[PIPE_ALL]()
        params = MmadParams(16, 16, 64)
        params.cmatrixInitVal, params.cmatrixSource = False, True
        MmadMx(co1, fm, filt, params)
        PipeBarrier[PIPE_ALL]()
        from_table = read_c(16, 16).copy()
        PipeBarrier[PIPE_ALL]()
        params = MmadParams(16, 16, 64)
        params.isBias = True  # the header: isBias turns cmatrixInitVal off
        MmadMx(co1, fm, filt, params)
        PipeBarrier[PIPE_ALL]()
        accumulated = read_c(16, 16)
    want = mmad_model(a, sa, b, sb, np.broadcast_to(bias, (16, 16)))
    np.testing.assert_array_equal(with_tensor, want)
    np.testing.assert_array_equal(from_table, want)
    np.testing.assert_array_equal(accumulated, mmad_model(a, sa, b, sb, want))


def test_zero_sizes_compute_nothing() -> None:
    with block(BlockContext()):
        cb = cube_buffers()
        c = cb.pointer("l0c", float32_t, 0)
        c.write(np.full(256, 3.0, np.float32))
        asc_sync()
        asc_mmad_mx_sync(c, cb.pointer("l0a", fp4x2_e2m1_t, 0),
                         cb.pointer("l0b", fp4x2_e2m1_t, 0), 16, 0, 16, 0, True, False, True)  # fmt: skip
        assert c.read(256).tolist() == [3.0] * 256


# -- the scale load ------------------------------------------------------------------------------


def load_model(src: np.ndarray, window: tuple[int, ...], dst: int) -> dict[int, np.ndarray]:
    """The page's window copy: MX byte -> value, for each 32-byte fractal it writes."""
    x_start, y_start, x_step, y_step, src_stride, dst_stride = window
    out = {}
    for x in range(x_step):
        for y in range(y_step):
            start = ((x_start + x) * src_stride + y_start + y) * 32
            out[dst + (x * dst_stride + y) * 32] = src[start : start + 32]
    return out


WINDOW = st.tuples(
    st.integers(0, 3), st.integers(0, 3), st.integers(0, 4), st.integers(0, 4),
    st.integers(0, 8), st.integers(0, 8),
)  # fmt: skip


LOADS = {
    "asc_copy_l12l0a_mx": (asc_copy_l12l0a_mx, False),
    "asc_copy_l12l0a_mx_sync": (asc_copy_l12l0a_mx_sync, False),
    "asc_copy_l12l0b_mx": (asc_copy_l12l0b_mx, True),
    "asc_copy_l12l0b_mx_sync": (asc_copy_l12l0b_mx_sync, True),
}


@pytest.mark.rows(*LOADS)
@settings(max_examples=24, deadline=None, derandomize=True)
@given(WINDOW, st.integers(0, 8), st.sampled_from(sorted(LOADS)))
def test_the_scale_load_against_the_window_model(
    window: tuple[int, ...], dst_block: int, name: str
) -> None:
    load, to_b = LOADS[name]
    rng = np.random.default_rng(sum(window))
    src_bytes = rng.integers(0, 255, 4096, dtype=np.uint8)
    dst = dst_block * 32
    with block(BlockContext()):
        cb = cube_buffers()
        src = cb.pointer("l1", fp8_e8m0_t, 0)
        src.bytes(4096, "writes")[:] = src_bytes
        mx = cb.l0b_mx if to_b else cb.l0a_mx
        mx.pointer(fp8_e8m0_t, 0).bytes(4096, "writes")[:] = 0
        asc_sync()
        load(dst, src, *window)
        asc_sync()
        got = np.asarray(mx.pointer(fp8_e8m0_t, 0).bytes(4096, "reads")).copy()
    want = np.zeros(4096, np.uint8)
    for start, data in load_model(src_bytes, window, dst).items():
        want[start : start + 32] = data
    np.testing.assert_array_equal(got, want)


def test_the_mx_load_of_the_basic_api_moves_matrix_and_scales() -> None:
    """One LoadData fills L0B and L0B_MX at L0B's address / 16 (here 1024 -> 64)."""
    rng = np.random.default_rng(11)
    data = rng.integers(0, 255, 2048, dtype=np.uint8)
    scales = rng.integers(0, 255, 128, dtype=np.uint8)
    with block(BlockContext()):
        b1 = LocalTensor[fp8_e4m3fn_t](TPosition.B1, 0, 2048)
        s1 = LocalTensor[fp8_e8m0_t](TPosition.B1, 2048, 128)
        b1.GetPhyAddr().bytes(2048, "writes")[:] = data
        s1.GetPhyAddr().bytes(128, "writes")[:] = scales
        b2 = LocalTensor[fp8_e4m3fn_t](TPosition.B2, 1024, 2048)
        PipeBarrier[PIPE_ALL]()
        LoadData(b2, b1, s1, LoadData2DParamsV2(0, 0, 2, 2, 2, 2, False, 0),
                 LoadData2DMxParams(1, 0, 1, 2, 2, 2))  # fmt: skip
        PipeBarrier[PIPE_ALL]()
        moved = np.asarray(b2.GetPhyAddr().bytes(2048, "reads")).copy()
        mx = np.asarray(cube_buffers().l0b_mx.pointer(fp8_e8m0_t, 64).bytes(64, "reads")).copy()
    np.testing.assert_array_equal(moved, data)
    np.testing.assert_array_equal(mx, scales[64:128])  # X fractal 1: 2 * 32 bytes on


# -- misuse ------------------------------------------------------------------------------------------


def _mmad_call(c_type: Any, a_type: Any, b_type: Any, *sizes: Any, **where: Any) -> Any:
    def call() -> None:
        cb = cube_buffers()
        c = cb.pointer("l0c", c_type, where.get("c", 0))
        a = cb.pointer("l0a", a_type, where.get("a", 0))
        b = cb.pointer("l0b", b_type, 0)
        asc_mmad_mx(c, a, b, *sizes)

    return call


def _load_call(*args: Any, dtype: Any = fp8_e8m0_t) -> Any:
    def call() -> None:
        asc_copy_l12l0a_mx(args[0], cube_buffers().pointer("l1", dtype, 0), *args[1:])

    return call


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (_mmad_call(float32_t, fp4x2_e2m1_t, fp8_e5m2_t, 16, 64, 16, 0, True, False, True),
         AscregTypeError, r"asc_mmad_mx: fp4x2_e2m1_t x fp8_e5m2_t -> float is not an MX"),
        (_mmad_call(half, fp8_e5m2_t, fp8_e5m2_t, 16, 64, 16, 0, True, False, True),
         AscregTypeError, r"-> half is not an MX multiply-add"),
        (_mmad_call(float32_t, int8_t, int8_t, 16, 64, 16, 0, True, False, True),
         AscregTypeError, r"int8_t x int8_t -> float is not an MX"),
        (_mmad_call(float32_t, fp8_e5m2_t, fp8_e5m2_t, 16, 96, 16, 0, True, False, True),
         AscregError, r"asc_mmad_mx: k 96 is not a multiple of 64 \(MmadMx.md\)"),
        (_mmad_call(float32_t, fp8_e5m2_t, fp8_e5m2_t, 1, 64, 16, 0, False, False, True),
         UnsupportedError, r"the MX GEMV .* does not say where that row's scales are"),
        (_mmad_call(float32_t, fp8_e5m2_t, fp8_e5m2_t, 16, 64, 16, 0, True, False, True, a=512),
         AlignmentError, r"fm at __ca__ 0x200 is not 1024-byte aligned"),
        (_mmad_call(float32_t, fp8_e5m2_t, fp8_e5m2_t, 16, 64, 16, 1, True, False, True),
         AscregTypeError, r"unit_flag 1 is reserved \(asc_mmad_mx.md"),
        (_mmad_call(float32_t, fp8_e5m2_t, fp8_e5m2_t, 4096, 64, 16, 0, True, False, True),
         AscregError, r"left_height .*4096"),
        (_load_call(0, 0, 0, 1, 1, 1, 1, dtype=half),
         AscregTypeError, r"asc_copy_l12l0a_mx: the scales must be fp8_e8m0_t, got half"),
        (_load_call(16, 0, 0, 1, 1, 1, 1),
         AlignmentError, r"the MX destination 0x10 is not 32-byte aligned"),
        (_load_call(4096, 0, 0, 1, 1, 1, 1), AscregError, r"dst .*4096"),
        (_load_call(0, 0, 0, 256, 1, 1, 1), AscregError, r"x_step .*256"),
        (_load_call(0, 0, 0, 1, 1, 1), AscregTypeError, r"takes \(dst, src, x_start_pos"),
    ],
)  # fmt: skip
def test_c_api_rules(call: Any, error: type[Exception], message: str) -> None:
    with block(BlockContext()), pytest.raises(error, match=message):
        call()


def test_basic_api_rules() -> None:
    with block(BlockContext()):
        a1 = LocalTensor[fp8_e4m3fn_t](TPosition.A1, 0, 1024)
        s1 = LocalTensor[fp8_e8m0_t](TPosition.A1, 1024, 32)
        a2 = LocalTensor[fp8_e4m3fn_t](TPosition.A2, 0, 1024)
        b2 = LocalTensor[fp8_e4m3fn_t](TPosition.B2, 0, 1024)
        co1 = LocalTensor[float32_t](TPosition.CO1, 0, 256)
        mx = LoadData2DMxParams(0, 0, 1, 1, 1, 1)
        with pytest.raises(AscregTypeError, match=r"LoadData2DParamsV2 for the matrix, got Load"):
            LoadData(a2, a1, s1, LoadData2DParams(), mx)
        with pytest.raises(AscregError, match=r"LoadData2DMxParams.yStep 300 is outside"):
            LoadData(a2, a1, s1, LoadData2DParamsV2(), LoadData2DMxParams(0, 0, 1, 300, 1, 1))
        f4 = LocalTensor[fp4x2_e2m1_t](TPosition.A1, 0, 512)
        with pytest.raises(UnsupportedError, match=r"a transposing MX LoadData of 4-bit elem"):
            LoadData(LocalTensor[fp4x2_e2m1_t](TPosition.A2, 0, 512), f4, s1,
                     LoadData2DParamsV2(0, 0, 1, 1, 1, 1, True, 0), mx)  # fmt: skip
        with pytest.raises(AscregTypeError, match=r"srcMx is a A2 tensor but must be at"):
            LoadData(a2, a1, a2, LoadData2DParamsV2(), mx)
        with pytest.raises(AscregTypeError, match=r"MmadMx takes \(dst, fm, filter, mmadParams\)"):
            MmadMx(co1, a2, b2)
        with pytest.raises(
            AscregError, match=r"MmadParams.unitFlag must be 0, 2 or 3 \(UnitFlag.md\), got 1"
        ):
            MmadMx(co1, a2, b2, MmadParams(16, 16, 64, unitFlag=1))
        with pytest.raises(UnsupportedError, match=r"unitFlag 2 of an MX multiply-add"):
            MmadMx(co1, a2, b2, MmadParams(16, 16, 64, unitFlag=2))
        with pytest.raises(AscregTypeError, match=r"the bias holds half but dst holds float"):
            MmadMx(co1, a2, b2, LocalTensor[half](TPosition.C2, 0, 16), MmadParams(16, 16, 64))


def test_a_multiply_add_before_the_scale_load_is_ordered_is_a_race() -> None:
    with block(BlockContext()):
        cb = cube_buffers()
        src = cb.pointer("l1", fp8_e8m0_t, 0)
        src.write(np.ones(64, np.float32))
        a, b = cb.pointer("l0a", fp8_e5m2_t, 0), cb.pointer("l0b", fp8_e5m2_t, 0)
        a.write(np.ones(1024, np.float32))
        b.write(np.ones(1024, np.float32))
        cb.l0b_mx.pointer(fp8_e8m0_t, 0).write(np.ones(32, np.float32))
        asc_sync()
        asc_copy_l12l0a_mx(0, src, 0, 0, 1, 1, 1, 1)  # MTE1 writes L0A_MX, no sync after
        with pytest.raises(SyncError, match=r"L0A_MX"):
            asc_mmad_mx(cb.pointer("l0c", float32_t, 0), a, b, 16, 64, 16, 0, True, False, True)


def test_is_bias_turns_the_zero_start_off_for_mmad_too() -> None:
    """Both multiply-adds follow the header: ``cmatrixInitVal && !isBias``."""
    with block(BlockContext()):
        a = LocalTensor[int8_t](TPosition.A2, 0, 512)
        b = LocalTensor[int8_t](TPosition.B2, 0, 512)
        c = LocalTensor[int32_t](TPosition.CO1, 0, 256)
        a.GetPhyAddr().write(np.ones(512, np.int8))
        b.GetPhyAddr().write(np.full(512, 2, np.int8))
        c.GetPhyAddr().write(np.full(256, 5, np.int32))
        PipeBarrier[PIPE_ALL]()
        params = MmadParams(16, 16, 32)
        params.isBias = True  # no bias tensor, cmatrixSource false: L0C's value stays
        Mmad(c, a, b, params)
        PipeBarrier[PIPE_ALL]()
        assert c.GetPhyAddr().read(256).tolist() == [5 + 64] * 256
