"""The C API cube copies: asc_copy_gm2l1[_nd2nz/_dn2nz][_sync], asc_copy_l0c2gm/ub/l1 and their
registers (ascreg.c_api.cube_copy).

The GM -> L1 copies are checked against the element-by-element ND2NZ / DN2NZ models of
``tests/reference/cube.py`` (the MTE2_NZ_PARA fields read as the page's table says), the L0C
copies against a per-element model written from the asc_copy_l0c2gm page (NZ / ND / DN
placement, ReLU then a round-to-nearest-even cast, the 8-bit quantisation of the fixpipe
example's golden script), and every call's errors name the call, the value and the rule.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import (
    GlobalMemory,
    bfloat16_t,
    float32_t,
    half,
    int8_t,
    int32_t,
    uint8_t,
    uint64_t,
)
from ascreg.basic import QuantMode_t
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregTypeError,
    OutOfBoundsError,
    SyncError,
    UnsupportedError,
)
from ascreg.machine.cube import cube_buffers
from ascreg.machine.cube_regs import cube_registers
from ascreg.machine.kernel import BlockContext, block
from reference import cube as ref

SMALL = settings(max_examples=12, derandomize=True, deadline=None)
NZ_TYPES = [int8_t, half, bfloat16_t, float32_t, int32_t]


def nz_para(count: int, n_stride: int, c0_stride: int, matrix_blocks: int) -> int:
    """The MTE2_NZ_PARA word of the page's table ([15:0], [31:16], [47:32], [63:48])."""
    return matrix_blocks << 48 | c0_stride << 32 | n_stride << 16 | count


# -- GM -> L1 -------------------------------------------------------------------------------


@pytest.mark.rows("asc_copy_gm2l1_nd2nz", "asc_copy_gm2l1_dn2nz", "asc_copy_gm2l1_nd2nz_sync",
                  "asc_copy_gm2l1_dn2nz_sync", "asc_set_gm2l1_nz_para")  # fmt: skip
@pytest.mark.parametrize("count", [0, 1, 2])
@SMALL
@given(
    kind=st.sampled_from(["nd2nz", "dn2nz"]),
    sync=st.booleans(),
    dtype=st.sampled_from(NZ_TYPES),
    n=st.integers(1, 20),
    d=st.integers(5, 40),
    pad=st.integers(0, 3),
    n_stride=st.integers(1, 2),
    seed=st.integers(0, 2**16),
)
def test_nz_copies_match_the_model(count, kind, sync, dtype, n, d, pad, n_stride, seed) -> None:  # type: ignore[no-untyped-def]
    c0 = 32 // dtype.size
    dn = kind == "dn2nz"
    line = (n if dn else d) + pad  # elements between GM lines
    lines = d if dn else n
    matrix = lines * line + 3  # elements between GM matrices
    c0_stride = n * n_stride + 1  # 32-byte rows between C0 column blocks
    blocks = -(-d // c0)
    l1_matrix = blocks * c0_stride * 32 + 64  # bytes between L1 matrices, 32-byte multiple
    gm_data = np.random.default_rng(seed).integers(-100, 100, max(count, 1) * matrix)
    src = GlobalMemory().alloc(dtype, gm_data.size)
    src.write(gm_data)
    span = (max(count, 1) * l1_matrix) // dtype.size
    expected = np.full(span, 7, dtype.np_dtype)
    p = SimpleNamespace(ndNum=count, dnNum=count, nValue=n, dValue=d, srcDValue=line,
                        srcNdMatrixStride=matrix, srcDnMatrixStride=matrix,
                        dstNzC0Stride=c0_stride, dstNzNStride=n_stride,
                        dstNzMatrixStride=l1_matrix // dtype.size)  # fmt: skip
    (ref.dn2nz if dn else ref.nd2nz)(expected, src.read(gm_data.size), p, c0)
    with block(BlockContext()) as ctx:
        dst = cube_buffers().pointer("l1", dtype, 1024)
        dst.write(np.full(span, 7, dtype.np_dtype))
        ctx.tracker.barrier()
        C.asc_set_gm2l1_nz_para(nz_para(count, n_stride, c0_stride, l1_matrix // 32))
        copy = getattr(C, f"asc_copy_gm2l1_{kind}{'_sync' if sync else ''}")
        copy(dst, src, line * dtype.size, 0, n, d, matrix * dtype.size, False)
        ctx.tracker.barrier()
        got = dst.read(span)
    assert np.array_equal(got, expected)


@pytest.mark.rows("asc_copy_gm2l1", "asc_copy_gm2l1_sync")
@pytest.mark.parametrize("name", ["asc_copy_gm2l1", "asc_copy_gm2l1_sync"])
def test_gm2l1_copies_one_burst_byte_for_byte(name: str) -> None:
    data = np.arange(48, dtype=np.int32) * 3 - 40
    src = GlobalMemory().alloc(int32_t, 48)
    src.write(data)
    with block(BlockContext()) as ctx:
        dst = cube_buffers().pointer("l1", int32_t, 96)
        dst.write(np.zeros(48, np.int32))
        ctx.tracker.barrier()
        getattr(C, name)(dst, src + 8, 1, 4, 0, 0, 0)  # 4 blocks: 32 elements from element 8
        ctx.tracker.barrier()
        got = dst.read(48)
    assert got[:32].tolist() == data[8:40].tolist() and not got[32:].any()


def test_gm2l1_copies_check_their_operands() -> None:
    src = GlobalMemory().alloc(half, 64)
    with block(BlockContext()):
        l1 = cube_buffers().pointer("l1", half, 0)
        with pytest.raises(UnsupportedError, match=r"asc_copy_gm2l1: .*pad_func_mode 1"):
            C.asc_copy_gm2l1(l1, src, 1, 1, 1, 0, 0)
        with pytest.raises(UnsupportedError, match="n_burst 2"):
            C.asc_copy_gm2l1(l1, src, 2, 1, 0, 1, 1)
        with pytest.raises(UnsupportedError, match="2D form"):
            C.asc_copy_gm2l1(l1, src, 0, 0, 1, 1, 1, 0, 0)
        with pytest.raises(AscregTypeError, match=r"pad_func_mode 9 is outside \[0, 8\]"):
            C.asc_copy_gm2l1(l1, src, 1, 1, 9, 0, 0)
        with pytest.raises(AlignmentError, match="dst at __cbuf__ 0x10 is not 32-byte aligned"):
            C.asc_copy_gm2l1(cube_buffers().pointer("l1", half, 16), src, 1, 1, 0, 0, 0)
        with pytest.raises(OutOfBoundsError):
            C.asc_copy_gm2l1(l1, src, 1, 5, 0, 0, 0)  # 160 bytes from a 128-byte allocation
        with pytest.raises(AscregTypeError, match="dst must be a CbufPtr"):
            C.asc_copy_gm2l1(src, src, 1, 1, 0, 0, 0)


def test_nz_copies_check_their_operands() -> None:
    src, wide = GlobalMemory().alloc(half, 256), GlobalMemory().alloc(float32_t, 256)
    with block(BlockContext()):
        l1 = cube_buffers().pointer("l1", half, 0)
        nd = C.asc_copy_gm2l1_nd2nz
        with pytest.raises(AscregTypeError, match="asc_copy_gm2l1_nd2nz: the N stride of "
                           r"MTE2_NZ_PARA 0 is outside \[1, 16384\] \(set it with"):  # fmt: skip
            nd(l1, src, 32, 0, 16, 16, 0, False)  # the register was never set
        C.asc_set_gm2l1_nz_para(nz_para(1, 1, 16, 0))
        with pytest.raises(AscregTypeError, match="dst holds half and src float"):
            nd(l1, wide, 32, 0, 16, 16, 0, False)
        with pytest.raises(AlignmentError, match="loop1_src_stride 33 bytes"):
            nd(l1, src, 33, 0, 16, 16, 0, False)
        with pytest.raises(AscregTypeError, match=r"l2_cache_ctl 3 is not one of \(0, 1, 2, 4\)"):
            nd(l1, src, 32, 3, 16, 16, 0, False)
        with pytest.raises(AscregTypeError, match=r"n_value 16385 is outside \[0, 16384\]"):
            nd(l1, src, 32, 0, 16385, 16, 0, False)
        with pytest.raises(UnsupportedError, match=r"smallc0_en: .*asc_copy_gm2l1_nd2nz_arch_3510"):
            nd(l1, src, 8, 0, 16, 4, 0, True)
        with pytest.raises(AlignmentError, match="dst at __cbuf__ 0x2 is not 32-byte aligned"):
            nd(cube_buffers().pointer("l1", half, 2), src, 32, 0, 16, 16, 0, False)
        with pytest.raises(OutOfBoundsError):
            nd(l1, src, 32, 0, 17, 16, 0, False)  # 17 rows of a 16-row allocation
        C.asc_set_gm2l1_nz_para(nz_para(1, 1, 16, 1))  # one 32-byte block = 16 half
        nd(l1, src, 32, 0, 16, 16, 0, True)  # smallc0_en with d_value > 4: ignored
        C.asc_set_gm2l1_nz_para(1 << 48 | 16 << 32 | 1 << 16 | 2)
        with pytest.raises(AscregTypeError, match="loop4_src_stride"):
            C.asc_copy_gm2l1_dn2nz(l1, src, 32, 0, 16, 16, -2, False)


def test_an_unflagged_mte2_to_mte1_read_is_a_race() -> None:
    src = GlobalMemory().alloc(half, 256)
    with block(BlockContext()):
        l1 = cube_buffers().pointer("l1", half, 0)
        C.asc_set_gm2l1_nz_para(nz_para(1, 1, 16, 0))
        C.asc_copy_gm2l1_nd2nz(l1, src, 32, 0, 16, 16, 0, False)
        with pytest.raises(SyncError):
            C.asc_copy_l12l0a(cube_buffers().pointer("l0a", half, 0), l1, 0, 0, 1, 1, 1, 1)


# -- L0C -> GM / UB / L1 ---------------------------------------------------------------------

OUT_PAIRS = [(float32_t, float32_t, "NoQuant"), (half, float32_t, "F322F16"),
             (bfloat16_t, float32_t, "F322BF16"), (int32_t, int32_t, "NoQuant")]  # fmt: skip


def out_model(values: np.ndarray, dst: np.ndarray, f: SimpleNamespace) -> None:
    """One element at a time: L0C (NZ, 16-element rows) to NZ / ND / DN, ReLU then the cast."""
    for i in range(f.count):
        for r in range(f.m):
            for c in range(f.n):
                row_step = f.src_c0 * 16 if f.layout == "dn" else 16
                s = i * f.src_matrix * 16 + (c // 16) * f.src_stride * 16 + r * row_step + c % 16
                x = float(values[s])
                if f.relu:
                    x = max(x, 0.0)
                if f.layout == "nd":
                    at = i * f.dst_matrix + r * f.dst_stride + c
                elif f.layout == "dn":
                    at = i * f.dst_matrix + c * f.dst_stride + r
                else:
                    at = (c // 16) * f.dst_stride + r * 16 + c % 16
                dst[at] = np.asarray(x).astype(np.float32).astype(dst.dtype)


def destination(target: str, dtype: Any, count: int) -> Any:
    if target == "gm":
        return GlobalMemory().alloc(dtype, count)
    if target == "ub":
        return C.__ubuf__(dtype, count)
    return cube_buffers().pointer("l1", dtype, 0)


def out_args(target: str, dst: Any, src: Any, f: SimpleNamespace, mode: Any, nd: bool,
             dn: bool) -> tuple[Any, ...]:  # fmt: skip
    head = (dst, src, f.n, f.m, f.dst_stride, f.src_stride)
    if target == "gm":
        return (*head, 0, 0, 0, mode, f.relu, False, nd, 0, 0, False, 0, False, False, False, dn)
    if target == "ub":
        return (*head, 0, False, 0, 2, mode, f.relu, False, nd, 0, 0, False, 0, False, False,
                False, dn)  # fmt: skip
    return (*head, 0, 3, mode, f.relu, False, nd, 0, 0, False, 0, 0, False)


@pytest.mark.rows("asc_copy_l0c2gm", "asc_copy_l0c2gm_sync", "asc_copy_l0c2ub",
                  "asc_copy_l0c2ub_sync", "asc_copy_l0c2l1", "asc_set_l0c2gm_nz2nd",
                  "asc_set_l0c2gm_channel_para")  # fmt: skip
@pytest.mark.parametrize("layout", ["nz", "nd", "dn"])
@pytest.mark.parametrize("count", [1, 2])
@settings(max_examples=12, derandomize=True, deadline=None)
@given(
    target=st.sampled_from(["gm", "ub", "l1"]),
    sync=st.booleans(),
    pair=st.sampled_from(OUT_PAIRS),
    m=st.integers(1, 20),
    n=st.integers(1, 40),
    relu=st.integers(0, 1),
    seed=st.integers(0, 2**16),
)
def test_l0c_copies_match_the_model(layout, count, target, sync, pair, m, n, relu, seed) -> None:  # type: ignore[no-untyped-def]
    dtype, src_type, mode = pair
    if target == "l1":
        sync = False
        if layout == "dn":
            layout = "nd"  # the typed asc_copy_l0c2l1 has no nz2dn_en
    if dtype is bfloat16_t and target == "l1":
        dtype, mode = half, "F322F16"
    mb, nb = -(-m // 16), -(-n // 16)
    f = SimpleNamespace(m=m, n=n, relu=relu, layout=layout, count=count if layout != "nz" else 1,
                        src_stride=mb * 16 + 1, src_matrix=(nb * (mb * 16 + 1)) + 2,
                        src_c0=1 if layout != "dn" else 2, dst_stride=0, dst_matrix=0)  # fmt: skip
    if layout == "dn":
        f.src_stride = mb * 32 + 1
        f.src_matrix = nb * f.src_stride + 2
    f.dst_stride = {"nd": n + 3, "dn": m + 5, "nz": mb * 16 * 16 + 16}[layout]
    extent = {"nd": m * f.dst_stride, "dn": n * f.dst_stride, "nz": nb * f.dst_stride}[layout]
    f.dst_matrix = extent + 8
    total = f.count * f.dst_matrix
    rng = np.random.default_rng(seed)
    values = (rng.standard_normal(f.count * f.src_matrix * 16 + 64 * 16) * 100).astype(
        src_type.np_dtype
    )
    expected = np.zeros(total, dtype.np_dtype)
    out_model(values, expected, f)
    qmode = getattr(QuantMode_t, mode) if mode != "NoQuant" or seed % 2 else 0
    with block(BlockContext()) as ctx:
        src = cube_buffers().pointer("l0c", src_type, 0)
        src.write(values[: src.memory.capacity // 4])
        dst = destination(target, dtype, total)
        dst.write(np.zeros(total, dtype.np_dtype))
        ctx.tracker.barrier()
        C.asc_set_l0c2gm_nz2nd(f.count, f.src_matrix, f.dst_matrix)
        C.asc_set_l0c2gm_channel_para(f.src_c0 << 48)
        name = f"asc_copy_l0c2{target}{'_sync' if sync else ''}"
        getattr(C, name)(*out_args(target, dst, src, f, qmode, layout == "nd", layout == "dn"))
        ctx.tracker.barrier()
        got = dst.read(total)
    assert np.array_equal(got.view(np.uint8), expected.view(np.uint8)), name


@pytest.mark.rows("asc_copy_l0c2gm", "asc_set_l0c_copy_prequant", "asc_set_l0c2gm_config")
@pytest.mark.parametrize("vector", [False, True])
def test_the_8bit_quantisation_matches_the_example_golden(vector: bool) -> None:
    scale = np.float32(0.5).view(np.uint32).item()
    words = [(scale >> 13 << 13) | (1 << 46) | (j % 3) << 37 for j in range(16)]
    values = np.random.default_rng(3).uniform(-300, 300, 256).astype(np.float32)
    out = GlobalMemory().alloc(int8_t, 2 * 16)
    mode = QuantMode_t.VQF322B8_PRE if vector else QuantMode_t.QF322B8_PRE
    with block(BlockContext()) as ctx:
        src = cube_buffers().pointer("l0c", float32_t, 0)
        src.write(values)
        cube_buffers().pointer("fb", uint64_t, 256).write(np.array(words, np.uint64))
        ctx.tracker.barrier()
        C.asc_set_l0c_copy_prequant(words[0])
        C.asc_set_l0c2gm_config(0, 2, False)  # the vector at 2 x 128 bytes of the fixpipe buffer
        C.asc_set_l0c2gm_nz2nd(1, 0, 0)
        C.asc_copy_l0c2gm_sync(out, src, 16, 2, 16, 16, 0, 0, 0, mode, 0, False, True, 0, 0,
                               False, 0, False, False, False, False)  # fmt: skip
    got = out.read(32).reshape(2, 16)
    for r in range(2):
        for c in range(16):
            word = words[c] if vector else words[0]
            assert got[r, c] == ref.qf322b8_pre(float(values[r * 16 + c]), word, 0.5)


def test_the_l0c_copies_check_their_operands() -> None:
    gm, gm8 = GlobalMemory().alloc(half, 256), GlobalMemory().alloc(uint8_t, 256)
    rest = (0, 0, 0, QuantMode_t.F322F16, 0, False, True, 0, 0, False, 0, False, False, False,
            False)  # fmt: skip

    def call(dst: Any, src: Any, n: int = 16, m: int = 16, *changes: tuple[int, Any]) -> None:
        args = list(rest)
        for at, value in changes:
            args[at] = value
        C.asc_copy_l0c2gm(dst, src, n, m, 16, 16, *args)

    with block(BlockContext()) as ctx:
        c = cube_buffers().pointer("l0c", float32_t, 0)
        c.write(np.zeros(256, np.float32))
        ctx.tracker.barrier()
        C.asc_set_l0c2gm_nz2nd(1, 0, 0)
        with pytest.raises(AscregTypeError, match="asc_copy_l0c2gm: half <- half is not an L0C"):
            call(gm, cube_buffers().pointer("l0c", half, 0))
        with pytest.raises(AscregTypeError, match="quantPre F322F16 from float writes half, "
                           "but dst holds uint8_t"):  # fmt: skip
            call(gm8, c)
        with pytest.raises(AlignmentError, match="src_addr at __cc__ 0x20 is not 64-byte"):
            call(gm, cube_buffers().pointer("l0c", float32_t, 32))
        with pytest.raises(AscregTypeError, match=r"n_size 0 is outside \[1, 4095\]"):
            call(gm, c, 0)
        with pytest.raises(AscregTypeError, match=r"m_size 8193 is outside \[1, 8192\]"):
            call(gm, c, 16, 8193)
        with pytest.raises(AscregTypeError, match="unit_flag_ctl 1 is reserved"):
            call(gm, c, 16, 16, (2, 1))
        with pytest.raises(UnsupportedError, match="clip_relu_pre 1: its effect is not fixed"):
            call(gm, c, 16, 16, (1, 1))
        with pytest.raises(UnsupportedError, match="relu_pre 2"):
            call(gm, c, 16, 16, (4, 2))
        with pytest.raises(UnsupportedError, match="quant_pre 5: the numbering"):
            call(gm, c, 16, 16, (3, 5))
        with pytest.raises(UnsupportedError, match="quant_pre DEQF16"):
            call(gm, c, 16, 16, (3, QuantMode_t.DEQF16))
        with pytest.raises(UnsupportedError, match="quant_post 7: the numbering"):
            call(gm, c, 16, 16, (7, 7))
        with pytest.raises(UnsupportedError, match="c0_pad_en True"):
            call(gm, c, 16, 16, (12, True))
        with pytest.raises(AscregTypeError, match="nz2nd_en and nz2dn_en are both set"):
            call(gm, c, 16, 16, (14, True))
        with pytest.raises(AscregTypeError, match="split_en cannot be combined"):
            call(gm, c, 16, 16, (5, True))
        with pytest.raises(AscregTypeError, match="needs CHANNEL_PARA"):
            call(gm, c, 16, 16, (6, False), (14, True))
        with pytest.raises(OutOfBoundsError):
            call(gm, c, 16, 17)  # 17 rows of 16 into a 256-element allocation
        with pytest.raises(AscregTypeError, match="takes 21 arguments"):
            C.asc_copy_l0c2gm(gm, c, 16)
        with pytest.raises(AscregError, match="a dual-destination move is the plain NZ or"):
            C.asc_copy_l0c2ub(C.__ubuf__(half, 256), c, 16, 16, 16, 16, 1, False, *rest[1:])
        with pytest.raises(AscregError, match="sub-block 1 outside a mixed launch"):
            C.asc_copy_l0c2ub(C.__ubuf__(half, 256), c, 16, 16, 16, 16, 0, True, *rest[1:])
        with pytest.raises(AscregTypeError, match=r"dual_dst_ctl 4 is outside \[0, 3\]"):
            C.asc_copy_l0c2ub(C.__ubuf__(half, 256), c, 16, 16, 16, 16, 4, False, *rest[1:])
        with pytest.raises(AlignmentError, match="dst at __cbuf__ 0x10 is not 32-byte"):
            C.asc_copy_l0c2l1(cube_buffers().pointer("l1", half, 16), c, 16, 16, 16, 16, 0, 0,
                              QuantMode_t.F322F16, 0, False, True, 0, 0, False, 0, 0, False)  # fmt: skip
        C.asc_set_l0c2gm_nz2nd(2, 0, 0)
        with pytest.raises(AscregTypeError, match=r"destination matrix stride .* is 0"):
            call(gm, c)
        with pytest.raises(AscregTypeError, match=r"nd_num 0 is outside \[1, 65535\]"):
            C.asc_set_l0c2gm_nz2nd(0, 0, 0)


@pytest.mark.rows("asc_set_l0c2gm_quant_post", "asc_set_l0c2gm_relu_alpha",
                  "asc_set_l0c2gm_lrelu_alpha")  # fmt: skip
def test_the_kept_registers_hold_their_values_and_check_them() -> None:
    with block(BlockContext()):
        C.asc_set_l0c2gm_quant_post(0x2AB)
        C.asc_set_l0c2gm_relu_alpha(1 << 45)
        C.asc_set_l0c2gm_lrelu_alpha(np.float16(0.25))
        regs = cube_registers()
        assert (regs.quant_post, regs.relu_alpha, float(regs.lrelu_alpha)) == (0x2AB, 1 << 45, 0.25)
        with pytest.raises(
            AscregTypeError, match=r"asc_set_l0c2gm_quant_post: config -1 is outside"
        ):
            C.asc_set_l0c2gm_quant_post(-1)
        with pytest.raises(AscregTypeError, match="config must be a half or float value"):
            C.asc_set_l0c2gm_lrelu_alpha("0.5")
        with pytest.raises(AscregTypeError, match="enable_unit_flag must be a bool"):
            C.asc_set_l0c2gm_config(0, 0, 1)


def test_an_unflagged_m_to_fix_read_is_a_race() -> None:
    a = np.ones(256, np.float16)
    out = GlobalMemory().alloc(float32_t, 256)
    with block(BlockContext()) as ctx:
        l0a, l0b = cube_buffers().pointer("l0a", half, 0), cube_buffers().pointer("l0b", half, 0)
        l0a.write(a)
        l0b.write(a)
        ctx.tracker.barrier()
        c = cube_buffers().pointer("l0c", float32_t, 0)
        C.asc_mmad(c, l0a, l0b, 16, 16, 16, 0, True, False, True)
        with pytest.raises(SyncError):
            C.asc_copy_l0c2gm(out, c, 16, 16, 16, 16, 0, 0, 0, 0, 0, False, True, 0, 0, False,
                              0, False, False, False, False)  # fmt: skip


def test_bfloat16_casts_round_to_nearest_even() -> None:
    values = np.array([1.00390625, 1.01171875, -2.0] + [0.0] * 253, np.float32)
    out = GlobalMemory().alloc(bfloat16_t, 16)
    with block(BlockContext()) as ctx:
        src = cube_buffers().pointer("l0c", float32_t, 0)
        src.write(values)
        ctx.tracker.barrier()
        C.asc_set_l0c2gm_nz2nd(1, 0, 0)
        C.asc_copy_l0c2gm_sync(out, src, 16, 1, 16, 16, 0, 0, 0, QuantMode_t.F322BF16, 0, False,
                               True, 0, 0, False, 0, False, False, False, False)  # fmt: skip
    got = out.read(3).astype(np.float32).tolist()
    assert got == values[:3].astype(ml_dtypes.bfloat16).astype(np.float32).tolist()


# -- GM -> L1 with padding and copy loops ------------------------------------------------------

ALIGN_TYPES = [int8_t, half, float32_t, int32_t]


def align_model(dst: np.ndarray, src: np.ndarray, c: SimpleNamespace) -> None:
    """Byte by byte: each repetition's bursts, the first element repeated as the padding."""
    for outer in range(c.loops[1]):
        for inner in range(c.loops[0]):
            s0 = inner * c.src_loop[0] + outer * c.src_loop[1]
            d0 = inner * c.dst_loop[0] + outer * c.dst_loop[1]
            for i in range(c.n_burst):
                s, d = s0 + i * c.src_stride, d0 + i * c.dst_stride
                first = src[s : s + c.size]
                for p in range(c.left):
                    dst[d + p * c.size : d + (p + 1) * c.size] = first
                body = d + c.left * c.size
                dst[body : body + c.len_burst] = src[s : s + c.len_burst]
                for p in range(c.right):
                    at = body + c.len_burst + p * c.size
                    dst[at : at + c.size] = first


@pytest.mark.rows("asc_copy_gm2l1_align", "asc_copy_gm2l1_align_sync", "asc_set_gm2l1_loop_size",
                  "asc_set_gm2l1_loop1_stride", "asc_set_gm2l1_loop2_stride")  # fmt: skip
@SMALL
@given(
    sync=st.booleans(),
    dtype=st.sampled_from(ALIGN_TYPES),
    n_burst=st.integers(1, 3),
    elements=st.integers(1, 12),
    left=st.integers(0, 8),
    right=st.integers(0, 8),
    loops=st.tuples(st.integers(0, 2), st.integers(0, 2)),
    seed=st.integers(0, 2**16),
)
def test_align_copies_match_the_model(
    sync, dtype, n_burst, elements, left, right, loops, seed
) -> None:  # type: ignore[no-untyped-def]
    size = dtype.size
    len_burst = elements * size
    padded = (left + right) * size + len_burst
    c = SimpleNamespace(size=size, len_burst=len_burst, left=left, right=right, n_burst=n_burst,
                        src_stride=len_burst + size, dst_stride=-(-padded // 32) * 32,
                        loops=loops, src_loop=(n_burst * (len_burst + size) + 4 * size, 0),
                        dst_loop=(n_burst * -(-padded // 32) * 32, 0))  # fmt: skip
    c.src_loop = (c.src_loop[0], c.src_loop[0] * max(loops[0], 1) + 8 * size)
    c.dst_loop = (c.dst_loop[0], c.dst_loop[0] * max(loops[0], 1) + 64)
    gm_bytes = c.src_loop[1] * 3 + 64 * size
    data = np.random.default_rng(seed).integers(0, 256, gm_bytes).astype(np.uint8)
    src = GlobalMemory().alloc(uint8_t, gm_bytes)
    src.write(data)
    l1_bytes = c.dst_loop[1] * 3 + 64
    expected = np.full(l1_bytes, 0xEE, np.uint8)
    align_model(expected, data, c)
    with block(BlockContext()) as ctx:
        dst = cube_buffers().pointer("l1", uint8_t, 0)
        dst.write(np.full(l1_bytes, 0xEE, np.uint8))
        ctx.tracker.barrier()
        C.asc_set_gm2l1_loop_size(*loops)
        C.asc_set_gm2l1_loop1_stride(c.src_loop[0], c.dst_loop[0])
        C.asc_set_gm2l1_loop2_stride(c.src_loop[1], c.dst_loop[1])
        copy = C.asc_copy_gm2l1_align_sync if sync else C.asc_copy_gm2l1_align
        copy(dst.cast(dtype), src.cast(dtype), n_burst, len_burst, left, right, False, 0,
             c.src_stride, c.dst_stride)  # fmt: skip
        C.asc_set_gm2l1_loop_size(1, 1)
        ctx.tracker.barrier()
        got = dst.read(l1_bytes)
    assert np.array_equal(got, expected)


@pytest.mark.rows("asc_set_gm2l1_pad")
def test_align_copies_check_their_operands() -> None:
    src = GlobalMemory().alloc(half, 64)
    with block(BlockContext()):
        l1 = cube_buffers().pointer("l1", half, 0)
        align = C.asc_copy_gm2l1_align
        C.asc_set_gm2l1_pad(3)
        assert cube_registers().gm2l1_pad == 3
        with pytest.raises(UnsupportedError, match=r"data_select_bit true: .*supports only false"):
            align(l1, src, 1, 8, 1, 0, True, 0, 0, 0)
        with pytest.raises(AlignmentError, match="len_burst 7 bytes is not a multiple"):
            align(l1, src, 1, 7, 0, 0, False, 0, 0, 0)
        with pytest.raises(AscregTypeError, match=r"left_padding_count 17 is outside \[0, 16\]"):
            align(l1, src, 1, 8, 17, 0, False, 0, 0, 0)
        with pytest.raises(AscregTypeError, match="dst holds half and src float"):
            align(l1, GlobalMemory().alloc(float32_t, 8), 1, 8, 0, 0, False, 0, 0, 0)
        with pytest.raises(AlignmentError, match="dst at __cbuf__ 0x8 is not 32-byte aligned"):
            align(cube_buffers().pointer("l1", half, 8), src, 1, 8, 0, 0, False, 0, 0, 0)
        with pytest.raises(OutOfBoundsError):
            align(l1, src, 2, 128, 0, 0, False, 0, 64, 128)  # 192 bytes of a 128-byte source
        with pytest.raises(AlignmentError, match="loop1_dst_stride 48 is not a multiple of 32"):
            C.asc_set_gm2l1_loop1_stride(0, 48)
        with pytest.raises(AscregTypeError, match=r"loop2_size 2097153 is outside"):
            C.asc_set_gm2l1_loop_size(1, 2**21 + 1)
        with pytest.raises(AscregTypeError, match=r"pad_val 4294967296 is outside"):
            C.asc_set_gm2l1_pad(2**32)


@pytest.mark.rows("asc_copy_l0c2l1")
def test_the_void_l0c2l1_form_writes_what_the_gm_copy_writes() -> None:
    """The 21-argument ``__cbuf__ void*`` form (``l2_cache_ctl``, ``broadcast_en``, ``nz2dn_en``)."""
    values = np.random.default_rng(4).standard_normal(64 * 16).astype(np.float32)
    gm = GlobalMemory().alloc(half, 32 * 20)
    with block(BlockContext()) as ctx:
        src = cube_buffers().pointer("l0c", float32_t, 0)
        src.write(values)
        l1 = cube_buffers().pointer("l1", half, 0)
        l1.write(np.zeros(32 * 20, np.float16))
        ctx.tracker.barrier()
        C.asc_set_l0c2gm_nz2nd(1, 0, 0)
        C.asc_set_l0c2gm_channel_para(1 << 48)
        tail = (0, 0, QuantMode_t.F322F16, 0, False, False, 0, 0, False, 0, False, False, False)
        C.asc_copy_l0c2l1(l1, src, 20, 32, 32, 32, 0, *tail, True)  # NZ2DN: 20 columns of 32
        C.asc_copy_l0c2gm(gm, src, 20, 32, 32, 32, 0, *tail, True)
        ctx.tracker.barrier()
        got = l1.read(32 * 20)
    expected = np.zeros(32 * 20, np.float16)
    f = SimpleNamespace(count=1, m=32, n=20, relu=0, layout="dn", src_stride=32, src_matrix=0,
                        src_c0=1, dst_stride=32, dst_matrix=0)  # fmt: skip
    out_model(values, expected, f)
    assert np.array_equal(got, expected) and np.array_equal(gm.read(32 * 20), expected)
