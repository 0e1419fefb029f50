"""The C API cube unit: asc_copy_l12l0a/l0b[_transpose][_sync] and asc_mmad[_sync].

The loads are checked against element-by-element models written from the page
(cube_datamove/asc_copy_l12l0a/asc_copy_l12l0a_arch_3510.md), the multiply-add against the exact
products (int8 -> int32 bit-exact, the floating types within the accumulation model's bound),
and a C API matmul kernel (L1 -> L0A / L0B -> asc_mmad -> L0C) against numpy.matmul.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import bfloat16_t, float32_t, half, int4b_t, int8_t, int32_t, uint8_t
from ascreg._frontend.cube import MMAD_TYPES
from ascreg.core.convert import decode
from ascreg.errors import AlignmentError, AscregError, AscregTypeError, SyncError, UnsupportedError
from ascreg.machine.cube import cube_buffers
from ascreg.machine.kernel import BlockContext, block
from reference import cube as ref

LOADS = [
    f"asc_copy_l12{t}{tag}{s}"
    for t in ("l0a", "l0b")
    for tag in ("", "_transpose")
    for s in ("", "_sync")
]
MMADS = ["asc_mmad", "asc_mmad_sync"]
FRACTAL = 512
ROWS = 16


def window_model(
    src: np.ndarray, dst: np.ndarray, w: tuple[int, ...], transpose: bool, c0: int
) -> None:
    """The page's 2D load on flat element arrays, one element at a time.

    Window fractal (m, k) is source fractal ``(k_start + k) * src_stride + m_start + m``
    it is
    the 16 x c0 block (rows m*16.., columns k*c0..) of the window read as a matrix. Without
    transposing, it lands on destination fractal ``k * dst_stride + m``
    transposing, the whole
    window matrix is transposed and stored NZ (c0-column blocks ``dst_stride`` fractals apart).
    """
    m_start, k_start, m_step, k_step, src_stride, dst_stride = w
    per = FRACTAL // (32 // c0)  # elements per fractal
    for k in range(k_step):
        for m in range(m_step):
            s = ((k_start + k) * src_stride + m_start + m) * per
            for r in range(ROWS):
                for c in range(c0):
                    value = src[s + r * c0 + c]
                    if not transpose:
                        dst[(k * dst_stride + m) * per + r * c0 + c] = value
                        continue
                    row, col = k * c0 + c, m * ROWS + r  # the element's place in the transpose
                    dst[((col // c0) * dst_stride * ROWS + row) * c0 + col % c0] = value


def read_back(ptr: Any, count: int) -> np.ndarray:
    C.asc_sync()
    return ptr.read(count)


@pytest.mark.rows(*LOADS)
@given(
    name=st.sampled_from(LOADS),
    dtype=st.sampled_from([int8_t, half, float32_t, bfloat16_t]),
    w=st.tuples(
        st.integers(0, 3),
        st.integers(0, 3),
        st.integers(0, 4),
        st.integers(0, 4),
        st.integers(0, 6),
        st.integers(1, 6),
    ),
    seed=st.integers(0, 2**16),
)
def test_loads_match_the_model(name, dtype, w, seed) -> None:  # type: ignore[no-untyped-def]
    transpose = "_transpose" in name
    m_start, k_start, m_step, k_step, src_stride, dst_stride = w
    if transpose:  # the page's step rules for a transposing load
        m_step += m_step % (2 if dtype.size == 1 else 1)
        k_step += k_step % (2 if dtype.size == 4 else 1)
        m_step, k_step = min(m_step, 4), min(k_step, 4)
        dst_stride = max(dst_stride, k_step * (32 // dtype.size) // ROWS)
    else:
        dst_stride = max(dst_stride, m_step)
    w = (m_start, k_start, m_step, k_step, src_stride, dst_stride)
    c0 = 32 // dtype.size
    per = FRACTAL // dtype.size
    codes = np.random.default_rng(seed).integers(0, 256, 48 * FRACTAL).astype(np.uint8)
    src = codes.view(dtype.np_dtype)
    expected = np.zeros(64 * per, dtype.np_dtype)
    window_model(src, expected, w, transpose, c0)
    target = "l0a" if "l0a" in name else "l0b"
    with block(BlockContext()):
        cb = cube_buffers()
        l1, l0 = cb.pointer("l1", dtype, 0), cb.pointer(target, dtype, 0)
        l1.write(src)
        l0.write(np.zeros(64 * per, dtype.np_dtype))
        C.asc_sync()
        getattr(C, name)(l0, l1, *w)
        got = read_back(l0, 64 * per)
    assert np.array_equal(got.view(np.uint8), expected.view(np.uint8))


def nz(matrix: np.ndarray, c0: int) -> np.ndarray:
    """*matrix* (rows a multiple of 16, columns of c0) stored NZ, element by element."""
    rows, cols = matrix.shape
    flat = np.zeros(rows * cols, matrix.dtype)
    for r in range(rows):
        for c in range(cols):
            flat[((c // c0) * rows + r) * c0 + c % c0] = matrix[r, c]
    return flat


def un_nz(flat: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The rows x cols matrix of an NZ array of 16 x 16 fractals (L0C's layout)."""
    return np.array(
        [
            [flat[((c // ROWS) * rows + r) * ROWS + c % ROWS] for c in range(cols)]
            for r in range(rows)
        ]
    )


def padded(values: np.ndarray, rows: int, cols: int) -> np.ndarray:
    out = np.zeros((rows, cols), values.dtype)
    out[: values.shape[0], : values.shape[1]] = values
    return out


def run_mmad(
    name: str,
    pair: tuple[Any, Any],
    a: np.ndarray,
    bt: np.ndarray,
    sizes: tuple[int, int, int],
    old: np.ndarray,
    flags: tuple[bool, bool, bool],
    bias: np.ndarray | None = None,
) -> np.ndarray:
    """asc_mmad on logical A (rows x Kpad) and Bᵀ (cols x Kpad), L0C holding *old*."""
    (fa, fb), out = pair, MMAD_TYPES[pair]
    m, n, k = sizes
    rows, cols = a.shape[0], bt.shape[0]
    with block(BlockContext()):
        cb = cube_buffers()
        pa, pb, pc = cb.pointer("l0a", fa, 0), cb.pointer("l0b", fb, 0), cb.pointer("l0c", out, 0)
        pa.write(nz(a, 32 // fa.size))
        pb.write(nz(bt, 32 // fb.size))
        pc.write(nz(old, ROWS))
        if bias is not None:
            cb.bt.pointer(out, 0).write(bias)
        C.asc_sync()
        getattr(C, name)(pc, pa, pb, m, k, n, 0, *flags)
        got = read_back(pc, rows * cols)
    return un_nz(got, rows, cols)


def mmad_case(
    fa: Any, fb: Any, m: int, n: int, k: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = -(-m // ROWS) * ROWS, -(-n // ROWS) * ROWS
    kpad = -(-k // (32 // fa.size)) * (32 // fa.size)
    kpad = max(kpad, -(-k // (32 // fb.size)) * (32 // fb.size))

    def values(dtype: Any, shape: tuple[int, int]) -> np.ndarray:
        if dtype is int8_t:
            return rng.integers(-128, 128, shape).astype(np.int8)
        v = rng.uniform(-4, 4, shape).astype(dtype.np_dtype)
        return np.where(np.isfinite(v.astype(np.float64)), v, 0).astype(dtype.np_dtype)

    return values(fa, (rows, kpad)), values(fb, (cols, kpad))


@pytest.mark.rows(*MMADS)
@given(
    name=st.sampled_from(MMADS),
    m=st.integers(2, 20),
    n=st.integers(1, 20),
    k=st.integers(1, 70),
    mode=st.sampled_from(["zero", "accumulate", "bias_table"]),
    seed=st.integers(0, 2**16),
)
def test_int8_mmad_is_exact(name, m, n, k, mode, seed) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    a, bt = mmad_case(int8_t, int8_t, m, n, k, rng)
    rows, cols = a.shape[0], bt.shape[0]
    old = rng.integers(-(2**31), 2**31, (rows, cols)).astype(np.int32)
    bias = rng.integers(-(2**31), 2**31, cols).astype(np.int32)
    flags = (True, mode == "bias_table", mode == "zero")
    start = {"zero": np.zeros_like(old), "accumulate": old, "bias_table": np.tile(bias, (rows, 1))}[
        mode
    ]
    got = run_mmad(name, (int8_t, int8_t), a, bt, (m, n, k), old, flags, bias)
    assert np.array_equal(got, ref.mmad_int(a[:, :k], bt[:, :k], start))


@pytest.mark.rows(*MMADS)
@given(
    pair=st.sampled_from([(half, half), (float32_t, float32_t), (bfloat16_t, bfloat16_t)]),
    m=st.integers(2, 18),
    n=st.integers(1, 18),
    k=st.integers(1, 40),
    accumulate=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_float_mmad_is_within_the_model_bound(pair, m, n, k, accumulate, seed) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    a, bt = mmad_case(*pair, m, n, k, rng)
    old = rng.uniform(-50, 50, (a.shape[0], bt.shape[0])).astype(np.float32)
    got = run_mmad("asc_mmad", pair, a, bt, (m, n, k), old, (True, False, not accumulate))
    start = old if accumulate else np.zeros_like(old)
    exact, bound = ref.mmad_float_bound(
        decode(a[:, :k], pair[0]), decode(bt[:, :k], pair[1]), start
    )
    assert np.all(np.abs(got.astype(np.float64) - exact) <= bound)


@pytest.mark.rows("asc_mmad")
def test_gemv_reads_a_as_one_nd_row() -> None:
    """left_height 1 with disable_gemv false: A is k contiguous elements, not an NZ fractal."""
    a = np.zeros((16, 32), np.int8)
    a[0, :32] = np.arange(32) - 16
    flat = a.reshape(-1)  # ND: the first 32 elements are row 0
    bt = np.ones((16, 32), np.int8)
    with block(BlockContext()):
        cb = cube_buffers()
        pa, pb = cb.pointer("l0a", int8_t, 0), cb.pointer("l0b", int8_t, 0)
        pc = cb.pointer("l0c", int32_t, 0)
        pa.write(flat)
        pb.write(nz(bt, 32))
        C.asc_sync()
        C.asc_mmad(pc, pa, pb, 1, 32, 16, 0, False, False, True)
        got = read_back(pc, 256)
    assert got[:16].tolist() == [int((np.arange(32) - 16).sum())] * 16


def test_matmul_kernel_matches_numpy() -> None:
    """A C API matmul: L1 (NZ, as a GM -> L1 copy leaves it) -> L0A / L0B -> asc_mmad -> L0C.

    int8 -> int32 is bit-exact
    half -> float is within the accumulation model's bound. The half
    kernel loads B (K x N in L1) with asc_copy_l12l0b_transpose, as Bᵀ is L0B's layout.
    """
    rng = np.random.default_rng(7)
    m, k, n = 30, 64, 40
    mp, np_ = 32, 48
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    with block(BlockContext()):
        cb = cube_buffers()
        a_l1, b_l1 = cb.pointer("l1", int8_t, 0), cb.pointer("l1", int8_t, 8192)
        a_l1.write(nz(padded(a, mp, k), 32))
        b_l1.write(nz(padded(b.T, np_, k), 32))
        C.asc_sync_notify(C.PIPE_S, C.PIPE_MTE1, C.EVENT_ID0)
        C.asc_sync_wait(C.PIPE_S, C.PIPE_MTE1, C.EVENT_ID0)
        a_l0, b_l0 = cb.pointer("l0a", int8_t, 0), cb.pointer("l0b", int8_t, 0)
        C.asc_copy_l12l0a(a_l0, a_l1, 0, 0, mp // 16, k // 32, mp // 16, mp // 16)
        C.asc_copy_l12l0b(b_l0, b_l1, 0, 0, np_ // 16, k // 32, np_ // 16, np_ // 16)
        C.asc_sync_notify(C.PIPE_MTE1, C.PIPE_M, C.EVENT_ID0)
        C.asc_sync_wait(C.PIPE_MTE1, C.PIPE_M, C.EVENT_ID0)
        c_l0 = cb.pointer("l0c", int32_t, 0)
        C.asc_mmad(c_l0, a_l0, b_l0, m, k, n, 0, True, False, True)
        got = un_nz(read_back(c_l0, mp * np_), mp, np_)[:m, :n]
    assert np.array_equal(got, np.matmul(a.astype(np.int64), b.astype(np.int64)).astype(np.int32))

    ah = rng.uniform(-2, 2, (m, k)).astype(np.float16)
    bh = rng.uniform(-2, 2, (k, n)).astype(np.float16)
    with block(BlockContext()):
        cb = cube_buffers()
        a_l1, b_l1 = cb.pointer("l1", half, 0), cb.pointer("l1", half, 8192)
        a_l1.write(nz(padded(ah, mp, k), 16))
        b_l1.write(nz(padded(bh, k, np_), 16))
        C.asc_sync()
        a_l0, b_l0 = cb.pointer("l0a", half, 0), cb.pointer("l0b", half, 0)
        C.asc_copy_l12l0a_sync(a_l0, a_l1, 0, 0, mp // 16, k // 16, mp // 16, mp // 16)
        for j in range(np_ // 16):  # one K x 16 column block of B per load, transposed
            C.asc_copy_l12l0b_transpose_sync(
                b_l0 + j * 256, b_l1, 0, j, k // 16, 1, k // 16, np_ // 16
            )
        c_l0 = cb.pointer("l0c", float32_t, 0)
        C.asc_mmad_sync(c_l0, a_l0, b_l0, m, k, n, 0, True, False, True)
        got_h = un_nz(c_l0.read(mp * np_), mp, np_)[:m, :n]
    exact, bound = ref.mmad_float_bound(
        ah.astype(np.float64), bh.T.astype(np.float64), np.zeros((m, n))
    )
    assert np.all(np.abs(got_h - exact) <= bound)
    assert np.allclose(got_h, np.matmul(ah.astype(np.float32), bh.astype(np.float32)), atol=1e-3)


@pytest.mark.rows("asc_copy_l12l0a", "asc_mmad")
def test_a_missing_mte1_to_m_flag_is_a_race() -> None:
    with block(BlockContext()):
        cb = cube_buffers()
        l1, a = cb.pointer("l1", half, 0), cb.pointer("l0a", half, 0)
        l1.write(np.ones(256, np.float16))
        C.asc_sync()
        b, c = cb.pointer("l0b", half, 0), cb.pointer("l0c", float32_t, 0)
        b.write(np.ones(256, np.float16))
        C.asc_sync()
        C.asc_copy_l12l0a(a, l1, 0, 0, 1, 1, 1, 1)
        with pytest.raises(SyncError, match=r"PIPE_M reads L0A .* PIPE_MTE1 wrote"):
            C.asc_mmad(c, a, b, 16, 16, 16, 0, True, False, True)


def test_the_cube_calls_check_their_operands() -> None:
    with block(BlockContext()):
        cb = cube_buffers()
        l1, a, b = cb.pointer("l1", half, 0), cb.pointer("l0a", half, 0), cb.pointer("l0b", half, 0)
        c = cb.pointer("l0c", float32_t, 0)
        cases: list[tuple[Any, tuple[Any, ...], type[Exception], str]] = [
            (C.asc_copy_l12l0a, (b, l1, 0, 0, 1, 1, 1, 1), AscregTypeError, "dst must be a CaPtr"),
            (C.asc_copy_l12l0b, (b, a, 0, 0, 1, 1, 1, 1), AscregTypeError, "src must be a CbufPtr"),
            (C.asc_copy_l12l0a, (a, l1, 0, 0, 256, 1, 1, 1), AscregTypeError, r"m_step 256 is outside \[0, 255\]"),
            (C.asc_copy_l12l0a, (a, l1, 0, 0, 1, 1, -1, 1), UnsupportedError, "src_stride -1 is negative"),
            (C.asc_copy_l12l0a, (a, l1, *range(15)), UnsupportedError, "3D"),
            (C.asc_copy_l12l0a, (a, l1, 0, 0), AscregTypeError, "got 4 arguments"),
            (C.asc_copy_l12l0a, (a + 16, l1, 0, 0, 1, 1, 1, 1), AlignmentError, "512-byte aligned"),
            (C.asc_copy_l12l0a, (cb.pointer("l0a", float32_t, 0), l1, 0, 0, 1, 1, 1, 1), AscregTypeError, "one element type"),
            (C.asc_copy_l12l0a_transpose, (cb.pointer("l0a", uint8_t, 0), cb.pointer("l1", uint8_t, 0), 0, 0, 1, 1, 1, 1), AscregError, "multiple of 2"),
            (C.asc_copy_l12l0b_transpose, (cb.pointer("l0b", int4b_t, 0), cb.pointer("l1", int4b_t, 0), 0, 0, 4, 1, 1, 1), UnsupportedError, "4-bit"),
            (C.asc_mmad, (c, a, b, 16, 16, 16, 1, True, False, True), AscregTypeError, "unit_flag 1 is reserved"),
            (C.asc_mmad, (c, a, b, 4096, 16, 16, 0, True, False, True), AscregTypeError, "left_height 4096"),
            (C.asc_mmad, (c, a, b, 16, 16, 16, 0, 1, False, True), AscregTypeError, "disable_gemv must be a bool"),
            (C.asc_mmad, (cb.pointer("l0c", int32_t, 0), a, b, 16, 16, 16, 0, True, False, True), AscregTypeError, "is not a Mmad"),
            (C.asc_mmad, (c, a, b, 16, 16, 16, 0, 0, 0, True, False, False, True), UnsupportedError, "weight-offset"),
            (C.asc_mmad_sync, (a, a, b, 16, 16, 16, 0, True, False, True), AscregTypeError, "c_matrix must be a CcPtr"),
        ]  # fmt: skip
        for call, args, error, message in cases:
            with pytest.raises(error, match=message):
                call(*args)
