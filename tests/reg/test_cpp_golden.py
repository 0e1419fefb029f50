"""Shift, compare, CreateMask and UpdateMask against an independent C++ program (tests/cpp/golden.cpp).

The C++ program implements the documented formulas on its own (64-bit shifts and compares the
way the TraitTwo software emulation does, on two 32-bit words) and prints golden values for a
fixed set of inputs: every boundary value against every boundary count or operand, plus a
seeded random sample. The test feeds the same inputs through the Reg API and compares bit for
bit.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from ascreg import CMPMODE, MaskPattern, Ref, Reg, RegTraitNumOne, RegTraitNumTwo
from ascreg._spec import SPECS
from reference.common import SIGNED, boundary_bits, lane_count, mask_stride, width
from strategies import dtype_params, make_reg, mask_list, new_reg, reg_bits, trait_id, traits_for

Golden = Callable[[list[str]], list[str]]
CPP_TYPE = {
    "int8_t": "i8", "uint8_t": "u8", "int16_t": "i16", "uint16_t": "u16", "int32_t": "i32",
    "uint32_t": "u32", "int64_t": "i64", "uint64_t": "u64", "half": "f16",
    "bfloat16_t": "bf16", "float": "f32",
}  # fmt: skip


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _pad(chunk: list[int], lanes: int) -> list[int]:
    return chunk + [chunk[0]] * (lanes - len(chunk))


def _samples(dtype: Any, rng: random.Random, extra: int) -> list[int]:
    w = width(dtype)
    return boundary_bits(dtype) + [rng.getrandbits(w) for _ in range(extra)]


SHIFT_PAIRS = SPECS["Reg.ShiftLeft"].combos


@pytest.mark.rows("Reg.ShiftLeft", "Reg.ShiftLefts", "Reg.ShiftRight", "Reg.ShiftRights")
@pytest.mark.parametrize(
    ("data", "count_type", "trait_two"),
    [
        pytest.param(d, c, two, id=f"{d.cpp_name}-{trait_id(two)}")
        for d, c in SHIFT_PAIRS
        for two in traits_for(d)
    ],
)
def test_shifts_match_cpp(cpp_golden: Golden, data: Any, count_type: Any, trait_two: bool) -> None:
    w = width(data)
    rng = random.Random(w)
    counts = sorted({0, 1, w - 1, w, w + 1, 2 * w, 32767} | {rng.randrange(w) for _ in range(6)})
    values = _samples(data, rng, 12)
    cases = [(x, n) for x in values for n in counts]
    sign = "s" if data in SIGNED else "u"
    ops = {"shl": (Reg.ShiftLeft, Reg.ShiftLefts), "shr": (Reg.ShiftRight, Reg.ShiftRights)}
    lines = [f"{op} {w} {sign} {x} {n}" for op in ops for x, n in cases]
    golden = dict(
        zip([(op, x, n) for op in ops for x, n in cases], map(int, cpp_golden(lines)), strict=True)
    )
    lanes = lane_count(data, trait_two)
    trait = RegTraitNumTwo if trait_two else RegTraitNumOne
    mask = Reg.CreateMask[data, MaskPattern.ALL, trait]()
    count_max = (1 << (min(width(count_type), 32) - 1)) - 1
    for op, (vector_op, scalar_op) in ops.items():
        # vector counts: the count register lanes (a count above the type's max is clamped to
        # it, which is still >= width and so gives the same golden answer)
        for chunk in _chunks(cases, lanes):
            xs = _pad([x for x, _ in chunk], lanes)
            ns = _pad([min(n, count_max) for _, n in chunk], lanes)
            dst = new_reg(data, trait_two)
            vector_op(dst, make_reg(data, xs, trait_two), make_reg(count_type, ns, trait_two), mask)
            assert reg_bits(dst)[: len(chunk)] == [golden[(op, x, n)] for x, n in chunk], op
        # scalar int16_t count
        for n in counts:
            for chunk in _chunks(values, lanes):
                dst = new_reg(data, trait_two)
                scalar_op(dst, make_reg(data, _pad(chunk, lanes), trait_two), n, mask)
                assert reg_bits(dst)[: len(chunk)] == [golden[(op, x, n)] for x in chunk], (op, n)


@pytest.mark.rows("Reg.Compare")
@pytest.mark.parametrize(("dtype", "trait_two"), dtype_params(SPECS["Reg.Compare"].combos))
def test_compare_matches_cpp(cpp_golden: Golden, dtype: Any, trait_two: bool) -> None:
    rng = random.Random(dtype.size * 7)
    values = _samples(dtype, rng, 6)
    pairs = [(a, b) for a in values for b in values]
    name = CPP_TYPE[dtype.cpp_name]
    lines = [f"cmp {m.name} {name} {a} {b}" for m in CMPMODE for a, b in pairs]
    golden = [int(v) for v in cpp_golden(lines)]
    lanes, stride = lane_count(dtype, trait_two), mask_stride(dtype, trait_two)
    trait = RegTraitNumTwo if trait_two else RegTraitNumOne
    mask = Reg.CreateMask[dtype, MaskPattern.ALL, trait]()
    got = []
    for mode in CMPMODE:
        for chunk in _chunks(pairs, lanes):
            a = make_reg(dtype, _pad([p[0] for p in chunk], lanes), trait_two)
            b = make_reg(dtype, _pad([p[1] for p in chunk], lanes), trait_two)
            dst = Reg.MaskReg()
            Reg.Compare[dtype, mode](dst, a, b, mask)
            bits = mask_list(dst)
            got += [bits[i * stride] for i in range(len(chunk))]
    assert got == golden


CREATE_TYPES = [c[0] for c in SPECS["Reg.CreateMask"].combos]


@pytest.mark.rows("Reg.CreateMask")
@pytest.mark.parametrize("dtype", CREATE_TYPES, ids=str)
def test_mask_patterns_match_cpp(cpp_golden: Golden, dtype: Any) -> None:
    traits = [1, 2] if dtype.size == 8 else [1]
    lines = [f"pat {dtype.size} {t} {p.value}" for t in traits for p in MaskPattern]
    golden = cpp_golden(lines)
    got = []
    for t in traits:
        trait = RegTraitNumTwo if t == 2 else RegTraitNumOne
        for p in MaskPattern:
            got.append("".join(map(str, mask_list(Reg.CreateMask[dtype, p, trait]()))))
    assert got == golden


@pytest.mark.rows("Reg.UpdateMask")
@pytest.mark.parametrize("dtype", CREATE_TYPES, ids=str)
def test_update_mask_matches_cpp(cpp_golden: Golden, dtype: Any) -> None:
    traits = [1, 2] if dtype.size == 8 else [1]
    starts = [0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 320, 1000, 2**32 - 1]
    lines, got = [], []
    for t in traits:
        trait = RegTraitNumTwo if t == 2 else RegTraitNumOne
        for start in starts:
            box = Ref(start)
            for _ in range(3):  # a short count sequence: each call feeds the next
                lines.append(f"upd {dtype.size} {t} {box.value}")
                bits = mask_list(Reg.UpdateMask[dtype, trait](box))
                got.append("".join(map(str, bits)) + f" {box.value}")
    assert got == cpp_golden(lines)
