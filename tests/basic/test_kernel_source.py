"""The kernel-source names of production kernels (ascreg.basic._kernel_source, ascreg.machine.tiling):
struct layout against a C++ compiler, the tiling macros in launched kernels, the kernel types,
the scalar bit utilities against the scalar references, NumericLimits against the pages' bit
tables, assertions and logs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import (
    GlobalMemory,
    GmPtr,
    bfloat16_t,
    float32_t,
    half,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg.basic import *
from ascreg.basic._kernel_source import KernelAssertion
from ascreg.errors import (
    AscregError,
    AscregTypeError,
    LaunchError,
    OutOfBoundsError,
    UnsupportedError,
)
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __aicore__, __global__
from ascreg.machine.tiling import _KEY, _REGISTERED
from conftest import compile_cpp
from reference.scalar_bits import REFERENCES

# ---- struct layout -----------------------------------------------------------------------------


class Plain(Struct):
    totalLength: uint32_t
    tileNum: uint32_t


class Mixed(Struct):
    flag: uint8_t
    rows: uint64_t
    eps: float32_t
    mode: uint16_t
    cols: int64_t
    tail: uint8_t


class Inner(Struct):
    a: int32_t
    b: uint8_t


class Nested(Struct):
    head: uint8_t
    inner: Inner
    scale: uint64_t
    pair: CArray[Inner, 2]


class Arrays(Struct):
    shapeLen: int32_t
    outputDims: CArray[int64_t, 8]
    inputDims: CArray[int64_t, 3, 2]
    scalarData: CArray[int8_t, 5]
    last: uint16_t


class RMSNormArch35TilingData(Struct):
    num_row: uint64_t
    num_col: uint64_t
    num_col_align: uint64_t
    block_factor: uint64_t
    col_flod_factor: uint64_t
    ub_factor: uint64_t
    epsilon: float32_t
    avg_factor: float32_t
    last_block_factor: uint64_t


STRUCTS = [Plain, Mixed, Nested, Arrays, RMSNormArch35TilingData]


@pytest.fixture(scope="module")
def cpp_layout(tmp_path_factory: pytest.TempPathFactory) -> Callable[[list[str]], list[str]]:
    return compile_cpp(tmp_path_factory, "struct_layout.cpp")


@pytest.mark.parametrize("struct", STRUCTS, ids=lambda s: s.__name__)
def test_struct_layout_matches_the_cpp_compiler(
    struct: type[Struct], cpp_layout: Callable[[list[str]], list[str]]
) -> None:
    (line,) = cpp_layout([struct.__name__])
    size, *offsets = map(int, line.split())
    assert struct.size == size
    assert [f.offset for f in struct.fields] == offsets


@given(
    st.integers(0, 255),
    st.integers(0, 2**64 - 1),
    st.floats(width=32, allow_nan=False),
    st.integers(-(2**63), 2**63 - 1),
)
def test_struct_bytes_round_trip(flag: int, rows: int, eps: float, cols: int) -> None:
    value = Mixed(flag, rows, eps, 0, cols)
    data = value.tobytes()
    assert len(data) == Mixed.size
    assert int.from_bytes(data[8:16], "little") == rows  # the C layout, byte for byte
    back = Mixed.frombytes(data)
    assert back == value
    assert (int(back.flag), int(back.rows), float(back.eps), int(back.cols)) == (
        flag, rows, float(np.float32(eps)), cols
    )  # fmt: skip


def test_nested_structs_and_arrays_write_through() -> None:
    n = Nested()
    n.inner.a = -5
    n.pair[1]["a"] = 7
    a = Arrays()
    a.inputDims[2, 1] = 9
    assert Nested.frombytes(n.tobytes()).inner.a == -5
    assert int(Nested.frombytes(n.tobytes()).pair[1]["a"]) == 7
    assert Arrays.frombytes(a.tobytes()).inputDims.tolist() == [[0, 0], [0, 0], [0, 9]]


def test_struct_fields_convert_as_c_assignments() -> None:
    p = Plain(-1, 2**32 + 3)
    assert (int(p.totalLength), int(p.tileNum)) == (2**32 - 1, 3)
    with pytest.raises(AttributeError, match="no field 'tile'"):
        p.tile = 1
    with pytest.raises(AscregTypeError, match="has no field 'x'"):
        Plain(x=1)
    with pytest.raises(AscregTypeError, match="3 values for 2 fields"):
        Plain(1, 2, 3)
    with pytest.raises(AscregTypeError, match="needs 8 bytes"):
        Plain.frombytes(b"1234")


def test_struct_field_types_are_checked() -> None:
    with pytest.raises(AscregTypeError, match="is not an ascreg dtype"):

        class Bad(Struct):
            n: int

    with pytest.raises(AscregTypeError, match="positive integer extent"):
        CArray[int32_t, 0]


# ---- tiling macros in a kernel -----------------------------------------------------------------


@pytest.fixture(autouse=True)
def _fresh_tiling_state() -> Any:
    saved_key, saved_registered = list(_KEY), dict(_REGISTERED)
    yield
    _KEY[:] = saved_key
    _REGISTERED.clear()
    _REGISTERED.update(saved_registered)


def _device(data: Struct, extra: int = 0) -> GmPtr[Any]:
    ptr = GlobalMemory().alloc(uint8_t, data.size + extra)
    ptr.write(np.frombuffer(data.tobytes() + bytes(extra), np.uint8))
    return ptr


class TilingA(Struct):
    totalLength: uint32_t
    tileNum: uint32_t


class TilingB(Struct):
    rows: uint64_t
    eps: float32_t


SEEN: list[Any] = []


@__global__
@__aicore__
def tiled(x: GM_ADDR, tiling: GM_ADDR) -> None:
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
    REGISTER_TILING_DEFAULT(TilingA)
    REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR >= 10 && TILING_KEY_VAR <= 15", TilingB)
    tilingData = GET_TILING_DATA(tiling)
    if TILING_KEY_IS(1):
        SEEN.append(("key 1", GetBlockIdx(), int(tilingData.totalLength), int(tilingData.tileNum)))
    elif TILING_KEY_LIST(11, 12):
        SEEN.append(("key 11/12", GetBlockIdx(), int(tilingData.rows), float(tilingData.eps)))


def test_get_tiling_data_reads_the_registered_struct_per_key() -> None:
    x = GlobalMemory().alloc(uint8_t, 32)
    SEEN.clear()
    ICPU_SET_TILING_KEY(1)
    tiled[2, 0, None](x, _device(TilingA(96, 4)))
    ICPU_SET_TILING_KEY(12)
    tiled[1, 0, None](x, _device(TilingB(5, 0.5)))
    assert SEEN == [("key 1", 0, 96, 4), ("key 1", 1, 96, 4), ("key 11/12", 0, 5, 0.5)]


def test_tiling_key_must_be_set() -> None:
    _KEY.clear()
    with pytest.raises(LaunchError, match=r"no tiling key is set: call ICPU_SET_TILING_KEY"):
        tiled[1, 0, None](GlobalMemory().alloc(uint8_t, 32), _device(TilingA(1, 1)))


def test_tiling_key_rules() -> None:
    with pytest.raises(LaunchError, match="negative"):
        ICPU_SET_TILING_KEY(-3)
    with pytest.raises(LaunchError, match="not an integer"):
        ICPU_SET_TILING_KEY(1.0)  # type: ignore[arg-type]
    ICPU_SET_TILING_KEY(0)
    with block(BlockContext()):
        assert TILING_KEY_IS(0)
        with pytest.raises(AscregTypeError, match="non-negative integer tiling key"):
            TILING_KEY_IS(-1)


@__global__
@__aicore__
def host_registered(x: GM_ADDR, tiling: GM_ADDR) -> None:
    tilingData = GET_TILING_DATA(tiling)
    SEEN.append(type(tilingData).__name__)


def test_get_tiling_data_falls_back_to_the_host_registration() -> None:
    SEEN.clear()
    x = GlobalMemory().alloc(uint8_t, 32)
    ICPU_SET_TILING_KEY(7)
    with pytest.raises(AscregError, match="'host_registered' has no default tiling struct"):
        host_registered[1, 0, None](x, _device(TilingB(1, 1.0)))
    REGISTER_TILING_DATA_CLASS("HostRegistered", TilingA)
    REGISTER_TILING_DATA_CLASS("HostRegistered_7", TilingB)
    host_registered[1, 0, None](x, _device(TilingB(1, 1.0)))
    ICPU_SET_TILING_KEY(8)
    host_registered[1, 0, None](x, _device(TilingA(1, 1)))
    assert SEEN == ["TilingB", "TilingA"]


@__global__
@__aicore__
def with_structs(x: GM_ADDR, tiling: GM_ADDR) -> None:
    REGISTER_NONE_TILING()
    data = GET_TILING_DATA_WITH_STRUCT(Arrays, tiling)
    ptr = GET_TILING_DATA_PTR_WITH_STRUCT(Arrays, tiling)
    length = GET_TILING_DATA_MEMBER(Arrays, "shapeLen", tiling)
    dims = COPY_TILING_WITH_ARRAY(int64_t, 2, ptr.outputDims)
    SEEN.append((int(data.last), int(length), dims.tolist()))


def test_get_tiling_data_with_struct_ptr_member_and_copies() -> None:
    SEEN.clear()
    a = Arrays(shapeLen=3, last=65535)
    a.outputDims[:2] = [4, 5]
    with_structs[1, 0, None](GlobalMemory().alloc(uint8_t, 32), _device(a))
    assert SEEN == [(65535, 3, [4, 5])]


def test_tiling_misuse_is_reported() -> None:
    short = GlobalMemory().alloc(uint8_t, 4)
    with block(BlockContext()):
        with pytest.raises(AscregTypeError, match="pass the GM_ADDR the host wrote its bytes to"):
            GET_TILING_DATA_WITH_STRUCT(TilingA, TilingA(1, 2))
        with pytest.raises(OutOfBoundsError):
            GET_TILING_DATA_WITH_STRUCT(TilingA, short)
        with pytest.raises(AscregTypeError, match="is not a tiling struct"):
            GET_TILING_DATA_WITH_STRUCT(int, short)  # type: ignore[arg-type]
        with pytest.raises(AscregTypeError, match="has no member 'rows'"):
            GET_TILING_DATA_MEMBER(TilingA, "rows", short)
        REGISTER_NONE_TILING()
        with pytest.raises(AscregError, match="REGISTER_NONE_TILING"):
            REGISTER_TILING_DEFAULT(TilingA)
    with block(BlockContext()), pytest.raises(AscregError, match="not a C condition"):
        REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == open('x')", TilingA)


def test_kernel_types() -> None:
    with block(BlockContext()):
        KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0)
        for kind in (KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIC_1_1, KERNEL_TYPE_MIX_AIC_1_2):
            with pytest.raises(UnsupportedError, match="does not match the kernel's __vector__"):
                KERNEL_TASK_TYPE_DEFAULT(kind)
        with pytest.raises(AscregTypeError, match="not a KernelMetaType"):
            KERNEL_TASK_TYPE_DEFAULT(0)  # type: ignore[arg-type]
    assert (g_coreType, AIV, AIC, MIX) == (2, 2, 1, 0)
    assert ASCEND_IS_AIV and not ASCEND_IS_AIC and ASCEND_IS_NOT_AIC and not ASCEND_IS_NOT_AIV


def test_gm_addr_parameters_are_checked_at_launch() -> None:
    with pytest.raises(
        AscregTypeError, match=r"argument 'x' is .* but the parameter is __gm__ uint8_t"
    ):
        tiled[1, 0, None](GlobalMemory().alloc(half, 4), _device(TilingA(1, 1)))


# ---- scalar bit utilities ----------------------------------------------------------------------

any64 = st.integers(min_value=0, max_value=(1 << 64) - 1)
BITS: dict[str, tuple[Callable[[int], Any], Callable[[int], int]]] = {
    "CountLeadingZero": (CountLeadingZero, REFERENCES["clz"]),
    "ScalarCountLeadingZero": (ScalarCountLeadingZero, REFERENCES["clz"]),
    "CountBitsCntSameAsSignBit": (CountBitsCntSameAsSignBit, REFERENCES["sflbits"]),
    "GetBitCount<1>": (GetBitCount[1], REFERENCES["popc"]),
    "GetBitCount<0>": (GetBitCount[0], REFERENCES["zero_bits_cnt"]),
    "ScalarGetCountOfValue<1>": (ScalarGetCountOfValue[1], REFERENCES["popc"]),
    "GetSFFValue<1>": (GetSFFValue[1], REFERENCES["ffs"]),
    "GetSFFValue<0>": (GetSFFValue[0], REFERENCES["ffz"]),
    "ScalarGetSFFValue<1>": (ScalarGetSFFValue[1], REFERENCES["ffs"]),
}


@pytest.mark.parametrize("name", list(BITS))
@given(value=any64)
def test_scalar_bit_utilities_match_the_references(name: str, value: int) -> None:
    function, reference = BITS[name]
    result = function(value)
    assert result.dtype == np.int64 and int(result) == reference(value)


def test_scalar_bit_utilities_documented_examples_and_errors() -> None:
    assert int(CountLeadingZero(0x0100000000000020)) == 7
    assert int(CountBitsCntSameAsSignBit(0x0100000000000020)) == 6
    assert int(GetSFFValue[1](0x1000000000000100)) == 8
    with pytest.raises(AscregTypeError, match="countValue 2 must be 0 or 1"):
        GetBitCount[2]
    with pytest.raises(AscregTypeError, match=r"needs its countValue: GetBitCount\[1\]"):
        GetBitCount(3)
    with pytest.raises(AscregTypeError, match="is not an integer"):
        CountLeadingZero(1.5)  # type: ignore[arg-type]


# ---- NumericLimits -----------------------------------------------------------------------------

# The pages' bit tables (工具接口/NumericLimits工具类/*.md), as raw bit patterns.
LIMIT_BITS = {
    "Max": {uint8_t: 0xFF, int8_t: 0x7F, uint16_t: 0xFFFF, int16_t: 0x7FFF, half: 0x7BFF,
            bfloat16_t: 0x7F7F, uint32_t: 0xFFFFFFFF, int32_t: 0x7FFFFFFF, float32_t: 0x7F7FFFFF},
    "Min": {uint8_t: 0, int8_t: 0x80, uint16_t: 0, int16_t: 0x8000, half: 0x0400,
            bfloat16_t: 0x0080, uint32_t: 0, int32_t: 0x80000000, float32_t: 0x00800000},
    "Lowest": {uint8_t: 0, int8_t: 0x80, uint16_t: 0, int16_t: 0x8000, half: 0xFBFF,
               bfloat16_t: 0xFF7F, uint32_t: 0, int32_t: 0x80000000, float32_t: 0xFF7FFFFF},
    "DeNormMin": {half: 0x0001, bfloat16_t: 0x0001, float32_t: 0x00000001},
    "Infinity": {half: 0x7C00, bfloat16_t: 0x7F80, float32_t: 0x7F800000},
    "NegativeInfinity": {half: 0xFC00, bfloat16_t: 0xFF80, float32_t: 0xFF800000},
    "QuietNaN": {half: 0x7E00, bfloat16_t: 0x7FC0, float32_t: 0x7FC00000},
    "SignalingNaN": {half: 0x7D00, bfloat16_t: 0x7FA0, float32_t: 0x7FA00000},
}  # fmt: skip
LIMIT_CASES = [(m, t) for m, table in LIMIT_BITS.items() for t in table]


@pytest.mark.parametrize(("member", "dtype"), LIMIT_CASES, ids=lambda v: getattr(v, "cpp_name", v))
def test_numeric_limits_match_the_pages(member: str, dtype: Any) -> None:
    value = getattr(NumericLimits[dtype], member)()
    assert value.dtype == dtype.np_dtype
    unsigned = {1: np.uint8, 2: np.uint16, 4: np.uint32}[dtype.size]
    assert int(np.array(value).view(unsigned)) == LIMIT_BITS[member][dtype]
    with block(BlockContext()) as ctx:
        dst = LocalTensor[dtype](TPosition.VECCALC, 0, 64)
        getattr(NumericLimits[dtype], member)(dst, 40)
        ctx.tracker.barrier()
        got = dst.GetPhyAddr().read(40).view(unsigned)
    assert (got == LIMIT_BITS[member][dtype]).all()


def test_numeric_limits_reject_other_types() -> None:
    with pytest.raises(AscregTypeError, match="T must be one of"):
        NumericLimits[uint64_t]
    with pytest.raises(AscregTypeError, match="T must be half, bfloat16_t or float"):
        NumericLimits[int32_t].Infinity()


@pytest.mark.parametrize("member", list(LIMIT_BITS))
def test_numeric_limits_members_without_t_name_the_fix(member: str) -> None:
    """The documented members (NumericLimits工具类/<member>.md) exist on NumericLimits itself."""
    with pytest.raises(
        AscregTypeError,
        match=rf"NumericLimits::{member}: .* write NumericLimits\[T\]\.{member}\(\)",
    ):
        getattr(NumericLimits, member)()


# ---- branch hints, assertions, logs ------------------------------------------------------------


def test_branch_hints_and_launch_bound() -> None:
    assert likely(True) is True and unlikely(0) == 0

    @LAUNCH_BOUND(128)
    def vf() -> None: ...

    assert vf.__ascreg_launch_bounds__ == 128  # type: ignore[attr-defined]
    with pytest.raises(LaunchError, match="outside"):
        LAUNCH_BOUND(4096)


@__global__
@__aicore__
def asserting(x: GM_ADDR) -> None:
    n = 9
    ascendc_assert(GetBlockIdx() == 0, "block %u of %d, n=%x", GetBlockIdx(), GetBlockNum(), n)


def test_assertions_name_the_block_the_line_and_the_message(capsys: Any) -> None:
    with pytest.raises(KernelAssertion) as info:
        asserting[2, 0, None](GlobalMemory().alloc(uint8_t, 32))
    text = str(info.value)
    assert "asserting block 1: [ASSERT] test_kernel_source.py:" in text
    assert "`ascendc_assert(GetBlockIdx() == 0," in text and text.endswith("block 1 of 2, n=9")
    ASSERT(True)
    with pytest.raises(KernelAssertion, match=r"`ASSERT\(1 > 2\)'"):
        ASSERT(1 > 2)
    with pytest.raises(KernelAssertion):
        ASCENDC_ASSERT(False, lambda: KERNEL_LOG(KERNEL_ERROR, "len %u > %u", 9, 8))
    assert capsys.readouterr().out == "[ERROR] len 9 > 8\n"
    with pytest.raises(AscregError, match="takes 1 arguments, got 2"):
        KERNEL_LOG(KERNEL_INFO, "%d", 1, 2)
    with pytest.raises(AscregTypeError, match="is not KERNEL_DEBUG"):
        KERNEL_LOG("LOUD", "x")
