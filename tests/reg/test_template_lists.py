"""Every Reg op accepts exactly the template argument lists its C++ declaration has.

``CPP_LISTS`` restates, op by op, the template parameter lists of the ``AscendC::Reg`` functions
as the asc-devkit headers declare them (``include/basic_api/reg_compute/*_intf.h``), in a short
notation of this file:

* ``T``: a dtype of the op's row (a defaulted ``typename T = DefaultType`` or a deduced one);
  ``U``: the type of a scalar operand (``Muls<T, U, mode>``); ``X``: a dtype the op checks
  itself (``Gather<T0, T1, T2>``, the UB form);
* ``reg``: a register type (``S``, ``V``: deduced from the operands, never written; a list
  stops there);
* any other word: a non-type parameter of that kind (an enum, ``CastTrait``, ``TRAIT`` for
  ``const RegTrait&``, ``OFFSET`` for ``int16_t offset``); ``PostLiteral`` is either member
  (``POST`` / ``NORMAL``); ``A|B`` either kind (``auto mode``: a MaskMergeMode or a
  ``*SpecificMode``);
* a trailing ``!``: no default and not deducible, so the list must be written up to it;
* ``lead:K``: the op's first parameter is the enum ``K`` (``Reduce<ReduceType type, ...>``).

From each list the test derives the subscripts C++ accepts (every prefix from the last
required parameter to the first register type) and checks that the row's
``RegShape.subscripts`` has exactly those, and that the runtime accepts each of them and
refuses lists in another order. Forms ascreg deliberately leaves out are in ``NOT_MODELLED``.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import Reg, RegTraitNumOne, bfloat16_t, enums, float32_t, half, int16_t, uint32_t
from ascreg._spec import SPECS, RegShape
from ascreg.errors import AscregTypeError, UnsupportedError
from reference.common import decode_float, encode_float
from strategies import reg_bits

_BINARY = "T MaskMergeMode reg"
_SCALAR = "T U MaskMergeMode reg"
_TWO = "T T MaskMergeMode reg reg"
CPP_LISTS: dict[str, tuple[str, ...]] = {
    **{op: (_BINARY,) for op in ("Mul", "Max", "Min", "And", "Or", "Xor", "Prelu", "Not",
                                  "Abs", "Neg", "Relu", "AbsSub", "MulAddDst", "MulDstAdd")},
    "Add": (_BINARY, "T reg"),  # the carry overload Add<T, U>(carry, dst, src0, src1, mask)
    "Sub": (_BINARY, "T reg"),
    "Move": ("T MaskMergeMode reg", "T reg"),
    "Select": ("T reg",),
    **{op: (_SCALAR,) for op in ("Adds", "Muls", "Maxs", "Mins", "LeakyRelu", "Axpy")},
    "ShiftLefts": ("T T MaskMergeMode reg",),  # U: the row's int16_t count type
    "ShiftRights": ("T T MaskMergeMode reg",),
    "ShiftLeft": (_TWO,),
    "ShiftRight": (_TWO,),
    "Compare": ("T CMPMODE reg",),
    "Compares": ("T CMPMODE reg reg",),
    "Duplicate": ("T U reg", "T MaskMergeMode U reg", "T HighLowPart MaskMergeMode reg"),
    **{op: (f"T MaskMergeMode|{op}SpecificMode reg",)
       for op in ("Div", "Sqrt", "Exp", "Ln", "Log", "Log2", "Log10")},
    "Interleave": ("T reg", "T!"),  # the MaskReg form Interleave<T>: T is not deducible
    "DeInterleave": ("T reg", "T!"),
    "Gather": ("T T reg reg", "X X X reg reg"),
    "GatherB": ("T reg reg",),
    "Scatter": ("T T reg reg",),
    "Squeeze": ("T GatherMaskMode reg",),
    "Unsqueeze": ("T reg",),
    "Arange": ("T IndexOrder U reg",),
    "Reduce": ("lead:ReduceType T T MaskMergeMode reg reg",),
    "ReduceDataBlock": ("lead:ReduceType T MaskMergeMode reg",
                        "lead:ReduceType T T MaskMergeMode reg reg"),
    "PairReduceElem": ("lead:PairReduce T MaskMergeMode reg",),
    "Pack": ("T T HighLowPart reg reg", "HighLowPart"),
    "UnPack": ("T T HighLowPart reg reg", "HighLowPart"),
    "Histograms": ("T T HistogramsBinType! HistogramsType! reg reg",),
    "MaskGenWithRegTensor": ("T OFFSET! reg",),
    "CreateMask": ("T! MaskPattern TRAIT",),
    "UpdateMask": ("T! TRAIT",),
    "MoveMask": ("T!",),
    **{op: (f"T {dist} reg", f"T {dist}! reg", f"T PostLiteral! {dist} reg",
            f"T PostLiteral! {dist}! reg", "T MaskDist", "T PostLiteral! MaskDist",
            "T DataCopyMode! reg", "T DataCopyMode! PostLiteral! reg")
       for op, dist in (("LoadAlign", "LoadDist"), ("StoreAlign", "StoreDist"))},
    "LoadUnAlignPre": ("T",),
    "LoadUnAlign": ("T PostLiteral reg", "T reg"),
    "StoreUnAlign": ("T PostLiteral reg", "T!"),
    "StoreUnAlignPost": ("T PostLiteral", "T"),
    "Load": ("T reg",),
    "Store": ("T reg",),
    "Truncate": ("T RoundMode MaskMergeMode reg",),
    "Cast": ("T T CastTrait reg reg",),
    "MulsCast": ("T T T RegLayout reg reg",),
    "ExpSub": ("T T RegLayout MaskMergeMode reg reg",),
    "Mull": ("T reg",),
    "AddC": ("T reg",),
    "SubC": ("T reg",),
}  # fmt: skip
NOT_MODELLED = {
    "Abs": "Abs<T, U, mode, S, V>(dst, src, mask) of complex types (complex32/complex64)",
}
"""Declared forms ascreg leaves out on purpose (no complex types), with the reason."""

_POST = {"PostLiteral": ("POST", "NORMAL")}


def accepted(lists: tuple[str, ...]) -> tuple[str | None, set[tuple[str, ...]]]:
    """Return the lead enum (or None) and the subscripts C++ accepts after it."""
    lead = None
    out: set[tuple[str, ...]] = set()
    for text in lists:
        words = text.split()
        if words[0].startswith("lead:"):
            lead, words = words[0].removeprefix("lead:"), words[1:]
        writable = list(itertools.takewhile(lambda w: w != "reg", words))
        required = max((i + 1 for i, w in enumerate(writable) if w.endswith("!")), default=0)
        if lead is None:
            required = max(required, 1)  # no subscript at all is the bare call
        for n in range(required, len(writable) + 1):
            kinds = [
                _POST.get(w.rstrip("!"), tuple(w.rstrip("!").split("|"))) for w in writable[:n]
            ]
            out.update(itertools.product(*kinds))
    return lead, out


def _rows() -> list[str]:
    return [name for name, row in SPECS.items() if isinstance(row.shape, RegShape)]


def test_every_reg_row_is_in_the_table() -> None:
    names = {name.removeprefix("Reg.") for name in _rows()}
    assert names == set(CPP_LISTS), (names - set(CPP_LISTS), set(CPP_LISTS) - names)


@pytest.mark.parametrize("op", sorted(CPP_LISTS))
def test_rows_declare_exactly_the_cpp_lists(op: str) -> None:
    shape = SPECS[f"Reg.{op}"].shape
    assert isinstance(shape, RegShape)
    lead, want = accepted(CPP_LISTS[op])
    got = set(shape.all_patterns())
    assert got == want, f"missing {sorted(want - got)}, extra {sorted(got - want)}"
    if lead is not None:
        assert {token.split(".")[0] for token, _ in shape.lead} == {lead}
    else:
        assert not shape.lead


# -- the runtime accepts each list, in its order, and nothing else -------------------------------

_MEMBERS: dict[str, Any] = {
    "POST": enums.PostLiteral.POST_MODE_UPDATE,
    "NORMAL": enums.PostLiteral.POST_MODE_NORMAL,
    "TRAIT": RegTraitNumOne,
    "OFFSET": 1,
    "CastTrait": enums.castTrait,
}


def _argument(op: str, token: str, combo: tuple[Any, ...], k: int) -> Any:
    """An argument of kind *token*; the *k*-th dtype of the lists is *combo*[k]."""
    if token == "T":
        return combo[k]
    if token == "U":
        return combo[0]
    if token == "X":  # Gather<T0, T1, T2>: an entry of its UB table
        return (uint32_t, uint32_t, uint32_t)[k]
    if token in _MEMBERS:
        return _MEMBERS[token]
    kind = getattr(enums, token)
    return kind() if token.endswith("SpecificMode") else next(iter(kind))


def _spell(op: str, pattern: tuple[str, ...], lead: Any) -> list[Any]:
    combo = SPECS[f"Reg.{op}"].combos[0]
    if lead is not None:
        combo = dict(SPECS[f"Reg.{op}"].shape.lead)[f"{lead.__class__.__name__}.{lead.name}"][0]
    items = [lead] if lead is not None else []
    dtypes = 0
    for token in pattern:
        items.append(_argument(op, token, combo, dtypes))
        dtypes += token in ("T", "X")
    return items


def _lead_member(op: str) -> Any:
    shape = SPECS[f"Reg.{op}"].shape
    if not shape.lead:
        return None
    kind, member = shape.lead[0][0].split(".")
    return getattr(getattr(enums, kind), member)


@pytest.mark.parametrize("op", sorted(CPP_LISTS))
def test_runtime_accepts_each_list_and_refuses_reordered_ones(op: str) -> None:
    _, want = accepted(CPP_LISTS[op])
    member = _lead_member(op)
    for pattern in sorted(want):
        items = _spell(op, pattern, member)
        getattr(Reg, op)[tuple(items)]  # a list C++ declares
        for i in range(len(pattern) - 1):
            swapped = list(pattern)
            swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
            if tuple(swapped) in want or {swapped[i], swapped[i + 1]} <= {"T", "U", "X"}:
                continue
            reordered = _spell(op, tuple(swapped), member)
            with pytest.raises(AscregTypeError, match="not a template argument list"):
                getattr(Reg, op)[tuple(reordered)]


def test_production_spellings() -> None:
    """The forms ops-nn's arch35 kernels write (issue 25), as their C++ spells them."""
    MaskMergeMode = enums.MaskMergeMode
    x, y = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    mask = Reg.CreateMask[float32_t]()
    # MicroAPI::Duplicate<float, MaskMergeMode::ZEROING, float>(x, 3.0f, mask);
    Reg.Duplicate[float32_t, MaskMergeMode.ZEROING, float32_t](x, 3.0, mask)
    # MicroAPI::Muls<float, float, MaskMergeMode::ZEROING>(y, x, 2.0f, mask);
    Reg.Muls[float32_t, float32_t, MaskMergeMode.ZEROING](y, x, 2.0, mask)
    # Reg::Adds<float, float>(y, y, 1.0f, mask); Reg::Maxs<float, float, MaskMergeMode::ZEROING>
    Reg.Adds[float32_t, float32_t](y, y, 1.0, mask)
    Reg.Maxs[float32_t, float32_t, MaskMergeMode.ZEROING](y, y, 0.0, mask)
    # Reg::ShiftRights<uint32_t, int16_t>(bits, bits, 23, mask) on the float's bits
    bits = Reg.RegTensor[uint32_t](y)
    Reg.ShiftRights[uint32_t, int16_t](bits, bits, 23, mask)
    assert int(bits.get()[0]) == 0x81  # 7.0 = 1.75 * 2**2: biased exponent 129


# -- the scalar's template type U: the value goes through U, then to T -----------------------------


@pytest.mark.rows("Reg.Muls")
def test_a_repeated_call_rounds_its_scalar_through_u_too() -> None:
    """The second call of a form (its checks skipped) converts as the first: to U, then T.

    ``13700.000313...`` is just above the half tie ``13700``; rounded to float first it is the
    tie, which half then rounds to even (``13696``, bits 29360), not up (``13704``).
    """
    mask = Reg.CreateMask[half]()
    one, dst = Reg.RegTensor[half](), Reg.RegTensor[half]()
    Reg.Duplicate(one, 1.0, mask)
    for x in (0.0, 13700.000313177748):  # the first call takes every check, the second not
        Reg.Muls[half, float32_t](dst, one, x, mask)
    assert set(reg_bits(dst)) == {29360}


@pytest.mark.rows("Reg.Duplicate", "Reg.Muls")
@pytest.mark.parametrize("dtype", [half, bfloat16_t], ids=["half", "bfloat16_t"])
@given(x=st.floats(allow_nan=False, width=64, min_value=-1e5, max_value=1e5))
def test_scalar_type_u_rounds_twice_as_cpp_does(dtype: Any, x: float) -> None:
    """``Duplicate<T, mode, float>(dst, x, mask)``: ``x`` rounds to float, then to ``T``."""
    via_u = decode_float(encode_float(x, float32_t), float32_t)
    want = encode_float(via_u, dtype)
    dst = Reg.RegTensor[dtype]()
    mask = Reg.CreateMask[dtype]()
    Reg.Duplicate[dtype, enums.MaskMergeMode.ZEROING, float32_t](dst, x, mask)
    assert set(reg_bits(dst)) == {want}
    if SPECS["Reg.Muls"].is_legal(dtype):
        one = Reg.RegTensor[dtype]()
        Reg.Duplicate(one, 1.0, mask)
        Reg.Muls[dtype, float32_t](dst, one, x, mask)  # 1 * round(round(x))
        assert set(reg_bits(dst)) == {want}
    Reg.Duplicate[dtype](dst, x, mask)  # no U: one rounding
    assert set(reg_bits(dst)) == {encode_float(x, dtype)}


def test_duplicate_overloads_take_their_own_lists() -> None:
    d, s = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    s.set(2.0)
    mask = Reg.CreateMask[float32_t]()
    MaskMergeMode, HighLowPart = enums.MaskMergeMode, enums.HighLowPart
    Reg.Duplicate[float32_t, float32_t](d, 1.0)  # Duplicate<T, U>(dst, scalar)
    Reg.Duplicate[float32_t, HighLowPart.LOWEST, MaskMergeMode.ZEROING](d, s, mask)
    assert float(d.get()[0]) == 2.0
    with pytest.raises(AscregTypeError, match="takes no MaskMergeMode"):
        Reg.Duplicate[float32_t, MaskMergeMode.ZEROING](d, 1.0)
    with pytest.raises(AscregTypeError, match="MaskMergeMode before U"):
        Reg.Duplicate[float32_t, float32_t](d, 1.0, mask)
    with pytest.raises(AscregTypeError, match="srcReg, mask\\) only"):
        Reg.Duplicate[float32_t, HighLowPart.LOWEST](d, 1.0, mask)
    with pytest.raises(AscregTypeError, match="takes no scalar type U"):
        Reg.Duplicate[float32_t, float32_t](d, s, mask)
    with pytest.raises(UnsupportedError, match="LOWEST only"):
        Reg.Duplicate[float32_t, HighLowPart.HIGHEST](d, s, mask)
