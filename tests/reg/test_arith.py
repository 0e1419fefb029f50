"""Add, Sub, Mul, Max, Min, And, Or, Xor, Not, Duplicate and Move on registers.

Integers wrap; floats are IEEE 754 round-to-nearest-even (half exact, bfloat16 computed in
float32 and rounded); Max/Min propagate NaN and order -0 below +0. Masked-off lanes are 0
(ZEROING) unless MERGING is asked for (Add, Max, Min, Duplicate) or implied (Move).

Decision (spec silent): the NaN *payload* an arithmetic op produces is not documented, so a NaN
result matches any NaN; every other result is compared bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import MaskMergeMode, Reg, bfloat16_t, float32_t, half, int16_t
from ascreg._dtypes import Kind
from ascreg._spec import SPECS
from reference.arith import binary, bit_not, duplicate_register
from reference.common import (
    FLOAT_FORMATS,
    boundary_bits,
    from_bits,
    is_nan_bits,
    lane_count,
    merging,
    same_lanes,
    width,
    zeroing,
)
from reference.masks import mask_to_lanes
from strategies import (
    assert_same_lanes,
    dtype_params,
    geometry,
    lane_bits,
    make_mask,
    make_reg,
    mask_bits,
    new_reg,
    reg_bits,
)

OPS = ("Add", "Sub", "Mul", "Max", "Min", "And", "Or", "Xor", "Prelu")
BINARY_DTYPES: dict[Any, list[str]] = {}
for _op in OPS:
    for (_dtype,) in SPECS[f"Reg.{_op}"].combos:  # a new row in the table is covered here
        BINARY_DTYPES.setdefault(_dtype, []).append(_op)
BINARY = dtype_params([(d,) for d in BINARY_DTYPES])


@pytest.mark.rows(*(f"Reg.{op}" for op in OPS))
@pytest.mark.parametrize(("dtype", "two"), BINARY)
@given(st.data())
def test_binary(dtype: Any, two: bool, data: Any) -> None:
    """Every binary op legal for *dtype*, on the same operands."""
    lanes, stride = geometry(dtype, two)
    a = data.draw(lane_bits(dtype, lanes))
    b = data.draw(lane_bits(dtype, lanes))
    mbits = data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride)
    ra, rb, mask = make_reg(dtype, a, two), make_reg(dtype, b, two), make_mask(mbits)
    for op in BINARY_DTYPES[dtype]:
        dst = new_reg(dtype, two)
        getattr(Reg, op)(dst, ra, rb, mask)
        want = zeroing([binary(op, dtype, x, y) for x, y in zip(a, b, strict=True)], active)
        assert_same_lanes(reg_bits(dst), want, dtype)


@pytest.mark.parametrize(("dtype", "two"), BINARY)
@given(st.data())
def test_binary_merging(dtype: Any, two: bool, data: Any) -> None:
    """Add, Max and Min also accept MERGING: masked-off lanes keep the old dst."""
    lanes, stride = geometry(dtype, two)
    a, b, old = (data.draw(lane_bits(dtype, lanes)) for _ in range(3))
    mbits = data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride)
    for op in ("Add", "Max", "Min"):
        if op not in BINARY_DTYPES[dtype]:
            continue
        dst = make_reg(dtype, old, two)
        getattr(Reg, op)[dtype, MaskMergeMode.MERGING](
            dst, make_reg(dtype, a, two), make_reg(dtype, b, two), make_mask(mbits)
        )
        results = [binary(op, dtype, x, y) for x, y in zip(a, b, strict=True)]
        assert_same_lanes(reg_bits(dst), merging(results, old, active), dtype)


@pytest.mark.rows("Reg.Not")
@pytest.mark.parametrize(("dtype", "two"), dtype_params(SPECS["Reg.Not"].combos))
@given(st.data())
def test_not(dtype: Any, two: bool, data: Any) -> None:
    lanes, stride = geometry(dtype, two)
    a = data.draw(lane_bits(dtype, lanes))
    mbits = data.draw(mask_bits())
    dst = new_reg(dtype, two)
    Reg.Not(dst, make_reg(dtype, a, two), make_mask(mbits))
    want = zeroing([bit_not(x, dtype) for x in a], mask_to_lanes(mbits, lanes, stride))
    assert reg_bits(dst) == want


@pytest.mark.rows("Reg.Move")
@pytest.mark.parametrize(("dtype", "two"), dtype_params(SPECS["Reg.Move"].combos))
@given(st.data())
def test_move(dtype: Any, two: bool, data: Any) -> None:
    lanes, stride = geometry(dtype, two)
    src, old = data.draw(lane_bits(dtype, lanes)), data.draw(lane_bits(dtype, lanes))
    mbits = data.draw(mask_bits())
    dst = make_reg(dtype, old, two)
    Reg.Move(dst, make_reg(dtype, src, two), make_mask(mbits))  # MERGING: old lanes kept
    assert reg_bits(dst) == merging(src, old, mask_to_lanes(mbits, lanes, stride))
    full = new_reg(dtype, two)
    source = make_reg(dtype, src, two)
    Reg.Move(full, source)
    assert reg_bits(full) == src
    Reg.Move(source, make_reg(dtype, old, two))  # overwriting the source leaves the copy alone
    assert reg_bits(full) == src


DUP = [
    p
    for p in dtype_params(SPECS["Reg.Duplicate"].combos)
    if p.values[0].kind is not Kind.RAW  # raw-bit types: Duplicate is not emulated (see report)
]


@pytest.mark.rows("Reg.Duplicate")
@pytest.mark.parametrize(("dtype", "two"), DUP)
@given(st.data())
def test_duplicate(dtype: Any, two: bool, data: Any) -> None:
    lanes, stride = geometry(dtype, two)
    if dtype.np_dtype.kind == "V" or dtype in FLOAT_FORMATS or width(dtype) == 8:
        pool = list(range(256)) if dtype.size == 1 else boundary_bits(dtype)
    else:
        pool = boundary_bits(dtype)
    value = data.draw(st.sampled_from(pool))
    if dtype.__name__ == "bool_":
        value &= 1
    scalar = from_bits([value], dtype)[0]
    old = data.draw(lane_bits(dtype, lanes))
    mbits = data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride)
    dst = new_reg(dtype, two)
    Reg.Duplicate(dst, scalar)
    assert same_lanes(reg_bits(dst), [value] * lanes, dtype)
    Reg.Duplicate(dst, scalar, make_mask(mbits))
    assert same_lanes(reg_bits(dst), zeroing([value] * lanes, active), dtype)
    dst = make_reg(dtype, old, two)
    Reg.Duplicate[dtype, MaskMergeMode.MERGING](dst, scalar, make_mask(mbits))
    assert same_lanes(reg_bits(dst), merging([value] * lanes, old, active), dtype)


@pytest.mark.rows("Reg.Duplicate")
@pytest.mark.parametrize(("dtype", "two"), dtype_params(SPECS["Reg.Duplicate"].combos))
@given(st.data())
def test_duplicate_register(dtype: Any, two: bool, data: Any) -> None:
    """``Duplicate(dst, srcReg, mask)`` broadcasts lane 0 bit for bit (raw-bit types too)."""
    lanes, stride = geometry(dtype, two)
    src = data.draw(lane_bits(dtype, lanes))
    old = data.draw(lane_bits(dtype, lanes))
    mbits = data.draw(mask_bits())
    active = mask_to_lanes(mbits, lanes, stride)
    want = duplicate_register(src)
    dst = make_reg(dtype, old, two)
    Reg.Duplicate(dst, make_reg(dtype, src, two), make_mask(mbits))
    assert reg_bits(dst) == zeroing(want, active)
    dst = make_reg(dtype, old, two)
    Reg.Duplicate[dtype, MaskMergeMode.MERGING](dst, make_reg(dtype, src, two), make_mask(mbits))
    assert reg_bits(dst) == merging(want, old, active)


@pytest.mark.parametrize(
    ("dtype", "x", "y", "op", "want"),
    [
        (int16_t, 0x7FFF, 0x7FFF, "Add", 0xFFFE),  # MAX + MAX = -2
        (int16_t, 0x8000, 0x7FFF, "Sub", 1),  # MIN - MAX = 1
        (int16_t, 0x8000, 0x8000, "Mul", 0),  # MIN * MIN = 0
        (half, 0x3C00, 0x1400, "Add", 0x3C01),  # 1 + 2**-10 is exact in half
        (half, 0x3C00, 0x0C00, "Add", 0x3C00),  # 1 + 2**-12: tie... rounds to even (1.0)
        (half, 0x7BFF, 0x7BFF, "Add", 0x7C00),  # max + max overflows to +inf
        (half, 0x0001, 0x3800, "Mul", 0x0000),  # smallest subnormal * 0.5: tie to even 0
        (half, 0x0003, 0x3800, "Mul", 0x0002),  # 3 * 2**-25: tie to even 2 * 2**-24
        (bfloat16_t, 0x3F80, 0x3B80, "Add", 0x3F80),  # 1 + 2**-8 ties to even 1.0
        (bfloat16_t, 0x3F81, 0x3B80, "Add", 0x3F82),  # odd + half ulp rounds up to even
        (float32_t, 0x80000000, 0x00000000, "Max", 0x00000000),  # max(-0, +0) = +0
        (float32_t, 0x80000000, 0x00000000, "Min", 0x80000000),  # min(-0, +0) = -0
        (float32_t, 0x00000000, 0x80000000, "Add", 0x00000000),  # +0 + -0 = +0
        (float32_t, 0x80000000, 0x80000000, "Add", 0x80000000),  # -0 + -0 = -0
        (float32_t, 0x7F800000, 0xFF800000, "Add", None),  # inf - inf = NaN
    ],
)
def test_documented_boundaries(dtype: Any, x: int, y: int, op: str, want: int | None) -> None:
    """Hand-picked values from the boundary-value appendix and IEEE 754 (independent of the
    reference module)."""
    lanes = lane_count(dtype)
    dst = new_reg(dtype)
    getattr(Reg, op)(
        dst, make_reg(dtype, [x] * lanes), make_reg(dtype, [y] * lanes), Reg.CreateMask[dtype]()
    )
    got = reg_bits(dst)[0]
    if want is None:
        assert is_nan_bits(got, dtype)
    else:
        assert got == want, hex(got)
    if want is not None:
        assert binary(op, dtype, x, y) == want  # the reference agrees with the appendix


@pytest.mark.parametrize("dtype", ["half", "bfloat16_t", "float32_t"])
def test_arithmetic_nan_results_are_quiet_nans(dtype: str) -> None:
    """Where the documents disagree (docs/semantics.md): no page fixes the payload of a NaN an
    arithmetic op produces; ascreg promises a quiet NaN (payload unspecified: the references
    compare any NaN with any NaN, reference.common.same_lanes) and copies keep every bit."""
    import ascreg

    t = getattr(ascreg, dtype)
    unsigned = np.dtype(f"u{t.size}")
    quiet = {"half": 1 << 9, "bfloat16_t": 1 << 6, "float32_t": 1 << 22}[dtype]
    signalling = {2: 0x7D01 if t is ascreg.half else 0x7F81, 4: 0x7F800001}[t.size]
    a, b, d = Reg.RegTensor[t](), Reg.RegTensor[t](), Reg.RegTensor[t]()
    a.set(np.full(a.lanes, signalling, unsigned).view(t.np_dtype))
    b.set(1)
    Reg.Add(d, a, b, Reg.CreateMask[t]())
    out = np.asarray(d).view(unsigned)
    assert np.isnan(np.asarray(d).astype(np.float32)).all()
    assert (out & quiet).all()
    Reg.Select(d, a, b, Reg.CreateMask[t]())
    assert (np.asarray(d).view(unsigned) == signalling).all()
