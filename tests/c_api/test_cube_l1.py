"""The C API cube unit's L1 side: L1 -> BT / FB, asc_fill_l1, asc_copy_l12l0b_trans, the modes.

Each move is checked byte for byte against a model written from its Ascend 950 page
(cube_datamove/asc_copy_l12bt/asc_copy_l12bt_arch_3510.md, asc_copy_l12fb_arch_3510.md,
asc_fill_l1.md + struct/asc_fill_value_config.md, asc_copy_l12l0b_trans_arch_3510.md), one
burst, block or element at a time; the mode setters against the multiply-add they change.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import (
    bfloat16_t,
    float32_t,
    fp8_e4m3fn_t,
    half,
    hifloat8_t,
    int4b_t,
    int8_t,
    int16_t,
    int32_t,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg._frontend.cube import HF32_TRANS_MODE, MM_LAYOUT_MODE, cube_mode
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregTypeError,
    OutOfBoundsError,
    SyncError,
    UnsupportedError,
)
from ascreg.machine.cube import cube_buffers
from ascreg.machine.kernel import BlockContext, block
from reference import cube as ref

L1_BYTES = 8192
"""The L1 bytes the tests fill with a pattern (the copies read inside them)."""


def _l1(dtype: Any = uint8_t, nbytes: int = L1_BYTES, address: int = 0) -> Any:
    """A pointer to L1 *address* whose first *nbytes* hold a byte pattern (then a barrier)."""
    cb = cube_buffers()
    cb.pointer("l1", uint8_t, 0).write((np.arange(nbytes) * 7 + 3).astype(np.uint8))
    C.asc_sync()
    return cb.pointer("l1", dtype, address)


def _bytes(space: str, nbytes: int) -> np.ndarray:
    return cube_buffers().pointer(space, uint8_t, 0).read(nbytes)


def burst_model(
    src: np.ndarray, dst: np.ndarray, n: int, length: int, gaps: tuple[int, int], at: int = 0
) -> None:
    """The pages' burst copy on byte arrays: burst i starts at i * (length + gap) on each side."""
    for i in range(n):
        for b in range(length):
            dst[at + i * (length + gaps[1]) + b] = src[i * (length + gaps[0]) + b]


# -- asc_copy_l12bt / asc_copy_l12fb --------------------------------------------------------------


@pytest.mark.rows("asc_copy_l12bt", "asc_copy_l12bt_sync", "asc_copy_l12fb", "asc_copy_l12fb_sync")
@pytest.mark.parametrize(
    "name", ["asc_copy_l12bt", "asc_copy_l12bt_sync", "asc_copy_l12fb", "asc_copy_l12fb_sync"]
)
def test_size_forms_copy_the_first_bytes(name: str) -> None:
    with block(BlockContext()):
        src = _l1(float32_t)
        fb = "l12fb" in name
        dst = cube_buffers().pointer("fb", uint8_t, 128) if fb else 128
        getattr(C, name)(dst, src, 96)
        C.asc_sync()
        got = _bytes("fb" if fb else "bt", 256)
    expected = np.zeros(256, np.uint8)
    burst_model((np.arange(96) * 7 + 3).astype(np.uint8), expected, 1, 96, (0, 0), at=128)
    assert got.tobytes() == expected.tobytes()


@pytest.mark.rows("asc_copy_l12bt", "asc_copy_l12fb")
@pytest.mark.parametrize(
    ("name", "args", "units"),
    [
        ("asc_copy_l12bt", (0, 3, 2, 1, 2), (32, 32, 32)),  # conv, n, len, src gap, dst gap
        ("asc_copy_l12fb", (3, 2, 1, 2), (64, 32, 64)),  # n, len, src gap, dst gap
    ],
)
def test_burst_forms_count_their_units(name: str, args: tuple[int, ...], units: Any) -> None:
    n, length, src_gap, dst_gap = args[-4:]
    with block(BlockContext()):
        src = _l1(half)
        dst = 0 if name.endswith("bt") else cube_buffers().pointer("fb", uint8_t, 0)
        getattr(C, name)(dst, src, *args)
        C.asc_sync()
        got = _bytes(name[-2:], 1024)
    expected = np.zeros(1024, np.uint8)
    pattern = (np.arange(L1_BYTES) * 7 + 3).astype(np.uint8)
    gaps = (src_gap * units[1], dst_gap * units[2])
    burst_model(pattern, expected, n, length * units[0], gaps)
    assert got.tobytes() == expected.tobytes()


@given(
    fb=st.booleans(),
    n=st.integers(1, 4),
    length=st.integers(1, 3),
    src_gap=st.integers(0, 3),
    dst_gap=st.integers(0, 3),
    start=st.integers(0, 3),
)
def test_burst_copies_match_the_model(
    fb: bool, n: int, length: int, src_gap: int, dst_gap: int, start: int
) -> None:
    units = (64, 32, 64) if fb else (32, 32, 32)
    at = start * 64
    with block(BlockContext()):
        src = _l1(int32_t)
        if fb:
            dst = cube_buffers().pointer("fb", uint8_t, at)
            C.asc_copy_l12fb(dst, src, n, length, src_gap, dst_gap)
        else:
            C.asc_copy_l12bt(at, src, 0, n, length, src_gap, dst_gap)
        C.asc_sync()
        got = _bytes("fb" if fb else "bt", 4096)
    expected = np.zeros(4096, np.uint8)
    pattern = (np.arange(L1_BYTES) * 7 + 3).astype(np.uint8)
    burst_model(
        pattern, expected, n, length * units[0], (src_gap * units[1], dst_gap * units[2]), at
    )
    assert got.tobytes() == expected.tobytes()


def test_the_bias_table_feeds_mmad_and_must_be_ordered() -> None:
    with block(BlockContext()):
        cb = cube_buffers()
        bias = _l1(float32_t)
        bias.write(np.arange(16, dtype=np.float32))
        C.asc_sync()
        a, b = cb.pointer("l0a", half, 0), cb.pointer("l0b", half, 0)
        a.write(np.ones(256, np.float16))
        b.write(np.ones(256, np.float16))
        C.asc_sync()
        c = cb.pointer("l0c", float32_t, 0)
        C.asc_copy_l12bt(0, bias, 64)
        with pytest.raises(SyncError, match="PIPE_M reads BT"):
            C.asc_mmad(c, a, b, 16, 16, 16, 0, True, True, False)


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((32, "src", 64), AlignmentError, "dst at __biasbuf__ 0x20 is not 64-byte aligned"),
        ((0, "src+1", 64), AlignmentError, "src at __cbuf__ 0x1 is not 32-byte aligned"),
        ((4096, "src", 64), AscregTypeError, r"dst 4096 is outside \[0, 4095\]"),
        ((4032, "src", 128), OutOfBoundsError, "leaves the 4096-byte __biasbuf__"),
        ((0, "src", 48), AscregError, "size 48 is not a multiple of 32 bytes"),
        ((0, "src", 0), AscregTypeError, r"size 0 is outside \[1, "),
        ((0, "src", 1, 1, 1, 0, 0), UnsupportedError, "conv_control 1: .*asc_copy_l12bt_arch_3510"),
        ((0, "src", 0, 0, 1, 0, 0), AscregTypeError, r"n_burst 0 is outside \[1, 4095\]"),
        ((0, "src", 0, 4096, 1, 0, 0), AscregTypeError, r"n_burst 4096 is outside \[1, 4095\]"),
        ((0, "src", 0, 1, 0, 0, 0), AscregTypeError, r"len_burst 0 is outside \[1, 65535\]"),
        ((0, "src", 0, 1, 1, -1, 0), AscregTypeError, r"source_gap -1 is outside"),
        ((0, "gm", 64), AscregTypeError, "src must be a CbufPtr"),
        ((0, "src"), AscregTypeError, "takes \\(dst, src, size\\) or"),
    ],
)
def test_l12bt_errors_name_the_value_and_rule(
    args: tuple[Any, ...], error: type, match: str
) -> None:
    with block(BlockContext()):
        src = _l1(half)
        values = {"src": src, "src+1": cube_buffers().pointer("l1", half, 1), "gm": 0}
        call = [values.get(a, a) if isinstance(a, str) else a for a in args]
        with pytest.raises(error, match=match) as info:
            C.asc_copy_l12bt(*call)
    assert "asc_copy_l12bt" in str(info.value)


def test_l12fb_errors() -> None:
    with block(BlockContext()):
        src = _l1(half)
        fb = cube_buffers().pointer("fb", uint8_t, 0)
        with pytest.raises(AscregTypeError, match="dst must be a FbufPtr"):
            C.asc_copy_l12fb(0, src, 64)
        with pytest.raises(AlignmentError, match="dst at __fbuf__ 0x20 is not 64-byte aligned"):
            C.asc_copy_l12fb(cube_buffers().pointer("fb", uint8_t, 32), src, 64)
        with pytest.raises(OutOfBoundsError, match="leaves the 4096-byte __fbuf__"):
            C.asc_copy_l12fb(fb, src, 1, 65, 0, 0)  # 65 x 64 bytes
        with pytest.raises(AscregTypeError, match="takes \\(dst, src, size\\); got 7"):
            C.asc_copy_l12fb_sync(fb, src, 1, 1, 0, 0, 0)


# -- asc_fill_l1 ---------------------------------------------------------------------------------


def fill_model(nbytes: int, word: bytes, repeat: int, blocks: int, gap: int) -> np.ndarray:
    """The page's fill on a byte array: iteration i writes blocks 32-byte blocks of *word*."""
    out = np.zeros(nbytes, np.uint8)
    for i in range(repeat):
        for b in range(blocks * 32):
            out[i * (blocks + gap) * 32 + b] = word[b % len(word)]
    return out


def _config(repeat: int, blocks: int, gap: int) -> Any:
    cfg = C.asc_fill_value_config()
    cfg.repeat, cfg.blk_num, cfg.dst_gap = repeat, blocks, gap
    return cfg


FILLS = [
    (float32_t, 0x3F800000, (0x3F800000).to_bytes(4, "little")),
    (int32_t, 0xFFFFFFFE, (0xFFFFFFFE).to_bytes(4, "little")),
    (uint32_t, 7, (7).to_bytes(4, "little")),
    (half, 1.0, np.float16(1.0).tobytes()),
    (half, 0.1, np.float16(0.1).tobytes()),  # a Python float is rounded to half
    (int16_t, -2.5, np.float16(-2.5).tobytes()),  # half's bits into int16 elements
    (uint16_t, 65504.0, np.float16(65504.0).tobytes()),
    (
        bfloat16_t,
        np.asarray(1.5, ml_dtypes.bfloat16)[()],
        np.asarray(1.5, ml_dtypes.bfloat16).tobytes(),
    ),
    (bfloat16_t, 2.0, np.float16(2.0).tobytes()),  # the half overload: half's bits
    (uint16_t, 0, bytes(2)),  # another width, but all bits 0: zeros whichever bits are written
    (float32_t, 0.0, bytes(4)),
]


@pytest.mark.rows("asc_fill_l1", "asc_fill_l1_sync")
@pytest.mark.parametrize(("dtype", "value", "word"), FILLS)
@pytest.mark.parametrize("name", ["asc_fill_l1", "asc_fill_l1_sync"])
def test_fill_l1_writes_the_value_bits(name: str, dtype: Any, value: Any, word: bytes) -> None:
    with block(BlockContext()):
        dst = cube_buffers().pointer("l1", dtype, 64)
        getattr(C, name)(dst, value, _config(2, 3, 1))
        C.asc_sync()
        got = cube_buffers().pointer("l1", uint8_t, 64).read(512)
    assert got.tobytes() == fill_model(512, word, 2, 3, 1).tobytes()


@given(
    repeat=st.integers(0, 4),
    blocks=st.integers(0, 4),
    gap=st.integers(0, 3),
    word=st.integers(0, 2**32 - 1),
)
def test_fill_l1_matches_the_model(repeat: int, blocks: int, gap: int, word: int) -> None:
    with block(BlockContext()):
        dst = cube_buffers().pointer("l1", uint32_t, 0)
        C.asc_fill_l1(dst, word, _config(repeat, blocks, gap))
        C.asc_sync()
        got = cube_buffers().pointer("l1", uint8_t, 0).read(1024)
    assert (
        got.tobytes() == fill_model(1024, word.to_bytes(4, "little"), repeat, blocks, gap).tobytes()
    )


def test_fill_value_config_is_the_union() -> None:
    cfg = C.asc_fill_value_config(0x0000_0003_0002_0001)
    assert (cfg.repeat, cfg.blk_num, cfg.dst_gap) == (1, 2, 3)
    cfg.blk_num = 32767
    assert cfg.config == 0x0000_0003_7FFF_0001
    with pytest.raises(
        AscregTypeError, match=r"asc_fill_value_config.repeat 32768 is outside \[0, 32767\]"
    ):
        cfg.repeat = 32768


@pytest.mark.parametrize(
    ("dtype", "value", "error", "match"),
    [
        (
            float32_t,
            1.0,
            UnsupportedError,
            "a half value into float elements: cube_datamove/asc_fill_l1.md",
        ),
        (half, 1, UnsupportedError, "a uint32_t value into half elements"),
        (float32_t, -0.0, UnsupportedError, "a half value into float elements"),
        (
            half,
            np.asarray(1, ml_dtypes.bfloat16)[()],
            AscregTypeError,
            "a bfloat16_t value into half is not an overload",
        ),
        (
            int8_t,
            1,
            AscregTypeError,
            "dst holds int8_t; cube_datamove/asc_fill_l1.md fills int16_t",
        ),
        (uint32_t, -1, AscregTypeError, r"value -1 is outside \[0, 4294967295\]"),
        (uint32_t, "1", AscregTypeError, "value must be a half"),
    ],
)
def test_fill_l1_refuses_pairs_the_page_does_not_define(
    dtype: Any, value: Any, error: type, match: str
) -> None:
    with block(BlockContext()):
        dst = cube_buffers().pointer("l1", dtype, 0)
        with pytest.raises(error, match=match) as info:
            C.asc_fill_l1(dst, value, _config(1, 1, 0))
    assert "asc_fill_l1" in str(info.value)


def test_fill_l1_checks_alignment_bounds_and_config() -> None:
    with block(BlockContext()):
        with pytest.raises(AlignmentError, match="dst at __cbuf__ 0x10 is not 32-byte aligned"):
            C.asc_fill_l1(cube_buffers().pointer("l1", half, 16), 1.0, _config(1, 1, 0))
        with pytest.raises(OutOfBoundsError, match="__cbuf__"):
            C.asc_fill_l1(
                cube_buffers().pointer("l1", half, 512 * 1024 - 32), 1.0, _config(1, 2, 0)
            )
        with pytest.raises(
            AscregTypeError, match="config must be a asc_fill_value_config, got int 0"
        ):
            C.asc_fill_l1(cube_buffers().pointer("l1", half, 0), 1.0, 0)


# -- asc_copy_l12l0b_trans -----------------------------------------------------------------------

TRANS_TYPES = [
    int8_t,
    uint8_t,
    fp8_e4m3fn_t,
    hifloat8_t,
    half,
    bfloat16_t,
    float32_t,
    int32_t,
    uint32_t,
]


class _Params:
    """The basic API's field names for the reference (``LoadData2dTransposeParams``)."""

    def __init__(
        self, start: int, repeat: int, stride: int, dst_gap: int, dst_frac_gap: int
    ) -> None:
        self.startIndex, self.repeatTimes, self.srcStride = start, repeat, stride
        self.dstGap, self.dstFracGap = dst_gap, dst_frac_gap


def _trans_expected(dtype: Any, src: np.ndarray, args: tuple[int, ...], nbytes: int) -> np.ndarray:
    """The page's load with src_frac_gap 0 and src_stride a whole number of squares."""
    start, repeat, stride, dst_gap, dst_frac_gap, _ = args
    count = ref.SQUARE[dtype.size][0]
    lanes = src.view(np.dtype(f"u{dtype.size}"))
    out = np.zeros(nbytes // dtype.size, lanes.dtype)
    params = _Params(start // count, repeat, stride // count, dst_gap, dst_frac_gap)
    ref.load_with_transpose(out, lanes, params, dtype.size)
    return out.view(np.uint8)


@pytest.mark.rows("asc_copy_l12l0b_trans", "asc_copy_l12l0b_trans_sync")
@pytest.mark.parametrize("dtype", TRANS_TYPES)
@pytest.mark.parametrize("name", ["asc_copy_l12l0b_trans", "asc_copy_l12l0b_trans_sync"])
def test_trans_transposes_each_square(name: str, dtype: Any) -> None:
    count = ref.SQUARE[dtype.size][0]
    args = (2 * count, 3, count, 1, 2, 0)  # from square 2, squares in a row
    with block(BlockContext()):
        src = _l1(dtype)
        dst = cube_buffers().pointer("l0b", dtype, 0)
        getattr(C, name)(dst, src, *args)
        C.asc_sync()
        got = _bytes("l0b", 8192)
    pattern = (np.arange(L1_BYTES) * 7 + 3).astype(np.uint8)
    assert got.tobytes() == _trans_expected(dtype, pattern, args, 8192).tobytes()


@given(
    dtype=st.sampled_from([int8_t, half, float32_t]),
    start=st.integers(0, 2),
    repeat=st.integers(0, 3),
    stride=st.integers(0, 2),
    dst_gap=st.integers(0, 2),
    dst_frac_gap=st.integers(0, 2),
)
def test_trans_matches_the_model(
    dtype: Any, start: int, repeat: int, stride: int, dst_gap: int, dst_frac_gap: int
) -> None:
    count = ref.SQUARE[dtype.size][0]
    args = (start * count, repeat, stride * count, dst_gap, dst_frac_gap, 0)
    with block(BlockContext()):
        src = _l1(dtype)
        C.asc_copy_l12l0b_trans(cube_buffers().pointer("l0b", dtype, 0), src, *args)
        C.asc_sync()
        got = _bytes("l0b", 16384)
    pattern = (np.arange(L1_BYTES) * 7 + 3).astype(np.uint8)
    assert got.tobytes() == _trans_expected(dtype, pattern, args, 16384).tobytes()


def test_trans_src_frac_gap_spaces_the_square_fractals() -> None:
    with block(BlockContext()):
        src = _l1(int8_t)
        C.asc_copy_l12l0b_trans_sync(
            cube_buffers().pointer("l0b", int8_t, 0), src, 0, 1, 0, 0, 0, 2
        )
        got = _bytes("l0b", 1024).view(np.int8).reshape(32, 32)  # the two fractals, rows 0-31
    pattern = (np.arange(L1_BYTES) * 7 + 3).astype(np.uint8).view(np.int8)
    square = np.concatenate([pattern[:512], pattern[3 * 512 : 4 * 512]]).reshape(32, 32)
    assert (got == square.T).all()


@pytest.mark.parametrize(
    ("case", "error", "match"),
    [
        (
            "int4",
            UnsupportedError,
            "int4b_t: .*asc_copy_l12l0b_trans_arch_3510.md gives the 4-bit square",
        ),
        ("types", AscregTypeError, "dst holds half but src holds float"),
        ("dst", AlignmentError, "dst at __cb__ 0x100 is not 512-byte aligned"),
        ("repeat", AscregTypeError, r"repeat 256 is outside \[0, 255\]"),
        ("gap", AscregTypeError, r"dst_frac_gap 65536 is outside \[0, 65535\]"),
        ("bounds", OutOfBoundsError, "__cb__"),
        ("args", AscregTypeError, "takes \\(dst, src, index_id, repeat"),
    ],
)
def test_trans_errors(case: str, error: type, match: str) -> None:
    cases: dict[str, Any] = {
        "int4": ((int4b_t, 0), (int4b_t, 0), (0, 1, 0, 0, 0, 0)),
        "types": ((half, 0), (float32_t, 0), (0, 1, 0, 0, 0, 0)),
        "dst": ((half, 256), (half, 0), (0, 1, 0, 0, 0, 0)),
        "repeat": ((half, 0), (half, 0), (0, 256, 0, 0, 0, 0)),
        "gap": ((half, 0), (half, 0), (0, 1, 0, 0, 65536, 0)),
        "bounds": ((half, 0), (half, 0), (0, 255, 0, 1, 0, 0)),
        "args": ((half, 0), (half, 0), (0, 1, 0, 0, 0)),
    }
    (dt, da), (st_, sa), args = cases[case]
    with block(BlockContext()):
        C.asc_sync()
        dst, src = cube_buffers().pointer("l0b", dt, da), cube_buffers().pointer("l1", st_, sa)
        with pytest.raises(error, match=match) as info:
            C.asc_copy_l12l0b_trans(dst, src, *args)
    assert "asc_copy_l12l0b_trans" in str(info.value)


# -- the mode registers --------------------------------------------------------------------------


def _mmad(a_type: Any, values: tuple[float, float]) -> np.ndarray:
    """One 16 x k x 16 multiply-add of constant operands; return C's first row."""
    cb = cube_buffers()
    a, b = cb.pointer("l0a", a_type, 0), cb.pointer("l0b", a_type, 0)
    n = 512 // a_type.size
    a.write(np.full(n, values[0], a_type.np_dtype))
    b.write(np.full(n, values[1], a_type.np_dtype))
    C.asc_sync()
    c = cb.pointer("l0c", float32_t, 0)
    C.asc_mmad_sync(c, a, b, 16, 32 // a_type.size, 16, 0, True, False, True)
    return np.asarray(c.read(16))


@pytest.mark.rows("asc_set_mmad_direction_m", "asc_set_mmad_direction_n")
def test_direction_changes_no_result() -> None:
    with block(BlockContext()):
        first = _mmad(half, (1.5, 2.0))
        C.asc_set_mmad_direction_n()
        assert cube_mode(MM_LAYOUT_MODE) and C.asc_get_ctrl() >> 51 & 1
        assert (_mmad(half, (1.5, 2.0)) == first).all()
        C.asc_set_mmad_direction_m()
        assert not cube_mode(MM_LAYOUT_MODE)


@pytest.mark.rows("asc_enable_hf32", "asc_enable_hf32_trans", "asc_set_fp32_mode")
def test_hf32_refuses_a_float_mmad_until_fp32_mode() -> None:
    with block(BlockContext()):
        C.asc_enable_hf32()
        C.asc_enable_hf32_trans(1)
        assert cube_mode(HF32_TRANS_MODE)
        assert _mmad(half, (1.0, 1.0))[0] == 16.0  # half operands: HF32 does not apply
        with pytest.raises(UnsupportedError, match="asc_mmad_sync: float32 operands with HF32 on"):
            _mmad(float32_t, (1.0, 1.0))
        C.asc_set_fp32_mode()
        assert _mmad(float32_t, (1.5, 2.0))[0] == 8 * 3.0


@pytest.mark.rows("asc_enable_hif8", "asc_enable_fp8")
def test_hif8_refuses_other_8_bit_operands_until_fp8_mode() -> None:
    with block(BlockContext()):
        C.asc_enable_hif8()
        with pytest.raises(UnsupportedError, match="8-bit operands with HiF8 on"):
            _mmad(fp8_e4m3fn_t, (1.0, 1.0))
        C.asc_enable_fp8()
        assert _mmad(fp8_e4m3fn_t, (1.0, 2.0))[0] == 64.0


def test_the_modes_are_ctrl_bits() -> None:
    with block(BlockContext()):
        C.asc_set_ctrl(C.asc_get_ctrl() | 1 << 46)  # HF32 on through CTRL itself
        with pytest.raises(UnsupportedError, match="float32 operands with HF32 on"):
            _mmad(float32_t, (1.0, 1.0))
        C.asc_set_fp32_mode()
        C.asc_enable_hif8()
        assert C.asc_get_ctrl() >> 45 & 1 and not C.asc_get_ctrl() >> 46 & 1


def test_hf32_trans_takes_0_or_1() -> None:
    with (
        block(BlockContext()),
        pytest.raises(AscregTypeError, match=r"asc_enable_hf32_trans: mode 2 is outside \[0, 1\]"),
    ):
        C.asc_enable_hf32_trans(2)


@pytest.mark.rows("asc_mmad_s4", "asc_mmad_s4_sync")
@pytest.mark.parametrize("name", ["asc_mmad_s4", "asc_mmad_s4_sync"])
def test_mmad_s4_is_not_a_950_form(name: str) -> None:
    with block(BlockContext()), pytest.raises(UnsupportedError, match=f"{name}: int4b_t x int4b_t"):
        getattr(C, name)(None, None, None, 16, 64, 16, 0, False, False, True)


def test_names_are_exported_with_their_rows() -> None:
    from ascreg._spec import SPECS

    for name in C.cube_l1.__all__:
        assert getattr(C, name) is getattr(C.cube_l1, name)
        if not isinstance(getattr(C, name), type):  # the unions have no row
            assert SPECS[name].core == f"ascreg.c_api.cube_l1:{name}"


# -- the img2col registers: the C API sets what the basic API's LoadData reads -------------------


def _img2col(setters: Any) -> tuple[np.ndarray, np.ndarray]:
    """Run a 3 x 3 img2col of a 4 x 4 half feature map whose registers *setters* set."""
    from ascreg.basic import (
        PIPE_ALL,
        IsResetLoad3dConfig,
        LoadData,
        LoadData3DParamsV2,
        LocalTensor,
        PipeBarrier,
        TPosition,
    )

    fmap = np.random.default_rng(5).integers(-50, 50, 256).astype(np.float16)
    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, 256)
        a1.GetPhyAddr().write(fmap)
        a2 = LocalTensor[half](TPosition.A2, 0, 9 * 256)
        a2.GetPhyAddr().write(np.full(9 * 256, 7, np.float16))
        setters()
        keep = LoadData3DParamsV2[half](l1H=1, l1W=1, channelSize=16, kExtension=144, mExtension=16, filterW=3, filterH=3, padValue=99)  # fmt: skip
        PipeBarrier[PIPE_ALL]()
        LoadData[half, IsResetLoad3dConfig(False, False)](a2, a1, keep)
        PipeBarrier[PIPE_ALL]()
        return np.asarray(a2.GetPhyAddr().read(9 * 256)), fmap


def _c_api_registers(pad: Any) -> Any:
    def run() -> None:
        cfg = C.asc_l13d_fmatrix_config()
        cfg.l1_height, cfg.l1_width = 4, 4
        cfg.padding_left_size = cfg.padding_right_size = 1
        cfg.padding_top_size = cfg.padding_bottom_size = 1
        C.asc_set_l13d_fmatrix(cfg)
        C.asc_set_l13d_padding(pad)
        from ascreg.basic import LoadDataRepeatParam, SetLoadDataRepeat

        SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 0, 1))  # the destination stride
        C.asc_set_l13d_rpt(C.asc_load3d_v2_config())  # stride 0, time 1, mode 0

    return run


@pytest.mark.rows("asc_set_l13d_fmatrix", "asc_set_l13d_padding", "asc_set_l13d_rpt")
@pytest.mark.parametrize("pad", [-4.0, np.float16(-4.0), np.int16(np.float16(-4.0).view(np.int16))])
def test_the_c_api_img2col_registers_drive_the_basic_load(pad: Any) -> None:
    from ascreg.basic import LoadData3DParamsV2

    got, fmap = _img2col(_c_api_registers(pad))
    p = LoadData3DParamsV2[half]([1, 1, 1, 1], 4, 4, 16, 144, 16, 0, 0, 1, 1, 3, 3, 1, 1, False, False, -4)  # fmt: skip
    expected = np.full(9 * 256, 7, np.float16)
    ref.img2col_nz(expected, fmap, p, np.float16(-4.0), 1)
    assert got.tobytes() == expected.tobytes()


def test_a_uint64_padding_packs_the_byte_twice() -> None:
    from ascreg._frontend.cube import PadBits, load3d_registers

    with block(BlockContext()):
        C.asc_set_l13d_padding(0x1234)
        assert load3d_registers().pad == PadBits(0x1234 << 8 | 0x34)
        C.asc_set_l13d_padding(np.uint16(0xBEEF))
        assert load3d_registers().pad == PadBits(0xBEEF)
        with pytest.raises(UnsupportedError, match="a float img2col load padding"):
            PadBits(1).element(float32_t)


@pytest.mark.rows("asc_set_l13d_fmatrix_b", "asc_set_l3d_rpt_b", "asc_set_l12l0_padding_val")
def test_the_register_setters_check_their_fields() -> None:
    from ascreg._frontend.cube import load3d_registers

    with block(BlockContext()):
        cfg = C.asc_l13d_fmatrix_config()
        with pytest.raises(
            AscregTypeError,
            match=r"asc_set_l13d_fmatrix: config.l1_height 0 is outside \[1, 32767\]",
        ):
            C.asc_set_l13d_fmatrix(cfg)
        cfg.l1_height = cfg.l1_width = 2
        C.asc_set_l13d_fmatrix_b(cfg)
        assert load3d_registers().fmatrix_b == (2, 2, (0, 0, 0, 0))
        with pytest.raises(AscregTypeError, match="config must be a asc_l13d_fmatrix_config"):
            C.asc_set_l13d_fmatrix(0)
        with pytest.raises(
            AscregTypeError, match=r"asc_load3d_v2_config.rpt_mode 2 is outside \[0, 1\]"
        ):
            C.asc_load3d_v2_config().rpt_mode = 2
        with pytest.raises(
            AscregError, match="asc_set_l3d_rpt_b: config 0x2000000 sets bits 31:25"
        ):
            C.asc_set_l3d_rpt_b(1 << 25)
        C.asc_set_l3d_rpt_b(5 << 48 | 2 << 32 | 1 << 24 | 3 << 16 | 7)
        assert load3d_registers().repeat_b >> 48 == 5
        with pytest.raises(AscregError, match="selects padding mode 2, which is reserved"):
            C.asc_set_l12l0_padding_val(2 << 32)
        with pytest.raises(
            AscregTypeError, match=r"config -1 is outside \[0, 18446744073709551615\]"
        ):
            C.asc_set_l13d_padding(-1)


def test_the_structs_are_the_unions() -> None:
    cfg = C.asc_l13d_fmatrix_config(0x0403_0201_0008_0004)
    assert (cfg.l1_height, cfg.l1_width, cfg.padding_left_size, cfg.padding_right_size) == (
        4,
        8,
        1,
        2,
    )
    assert (cfg.padding_top_size, cfg.padding_bottom_size) == (3, 4)
    rpt = C.asc_load3d_v2_config()
    assert rpt.config == 0x10000 and rpt.rpt_time == 1
    rpt.rpt_mode = 1
    assert rpt.config == 0x1010000


# -- asc_copy_l12ub (the basic API's DataCopyL1ToUB; the mixed-launch side: test_cube_to_ub.py) --


@pytest.mark.rows("asc_copy_l12ub", "asc_copy_l12ub_sync")
@given(
    api=st.sampled_from(["asc_copy_l12ub", "asc_copy_l12ub_sync", "DataCopyL1ToUB"]),
    n=st.integers(1, 4),
    length=st.integers(1, 3),
    src_gap=st.integers(0, 3),
    dst_gap=st.integers(0, 3),
    at=st.sampled_from([0, 64, 1024]),
)
def test_l12ub_copies_bursts_of_32_byte_blocks(
    api: str, n: int, length: int, src_gap: int, dst_gap: int, at: int
) -> None:
    """A block run alone writes its own UB (sub-block 0), the bursts in DataBlocks."""
    from ascreg.basic import DataCopyL1ToUB, DataCopyParams, LocalTensor, TPosition

    with block(BlockContext()) as ctx:
        src = _l1(uint8_t)
        ub = ctx.alloc_array(uint8_t, 2048)
        ub.write(np.zeros(2048, np.uint8))
        C.asc_sync()
        if api == "DataCopyL1ToUB":
            dst = LocalTensor[uint8_t](TPosition.VECOUT, at, 2048 - at)
            l1 = LocalTensor[uint8_t](TPosition.A1, 0, L1_BYTES)
            DataCopyL1ToUB(dst, l1, DataCopyParams(n, length, src_gap, dst_gap))
        else:
            getattr(C, api)(ub + at, src, False, n, length, src_gap, dst_gap)
        C.asc_sync()
        got = ub.read(2048)
    expected = np.zeros(2048, np.uint8)
    pattern = (np.arange(L1_BYTES) * 7 + 3).astype(np.uint8)
    burst_model(pattern, expected, n, length * 32, (src_gap * 32, dst_gap * 32), at=at)
    assert got.tobytes() == expected.tobytes()


def test_l12ub_on_a_vector_core_of_a_mixed_launch_does_nothing() -> None:
    """The 950 header runs the copy only ``if ASC_IS_AIC``."""
    from ascreg import GmPtr
    from ascreg.basic import ASCEND_IS_AIV, __mix__
    from ascreg.machine.kernel import __global__

    @__global__
    @__mix__(1, 2)
    def kernel(y: GmPtr[uint8_t]) -> None:
        if ASCEND_IS_AIV and C.asc_get_sub_block_id() == 0:
            ub = C.__ubuf__(uint8_t, 64)
            ub.write(np.full(64, 5, np.uint8))
            C.asc_sync()
            C.asc_copy_l12ub_sync(ub, _l1(uint8_t), False, 1, 2, 0, 0)
            C.asc_copy_ub2gm(y, ub, 64)

    from ascreg import GlobalMemory

    y = GlobalMemory().alloc(uint8_t, 64)
    kernel[1, 0, None](y)
    assert (y.read(64) == 5).all()
