"""Python numbers becoming lanes (ascreg.machine.convert.to_dtype): one correct rounding to every
float lane type, checked against the fractions-based reference; no silent wrap; no non-numbers;
pointer offsets are integers; RegTensor.set counts; MaskReg.from_bits copies."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ascreg import (
    MaskReg,
    Reg,
    UnifiedBuffer,
    bfloat16_t,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    int8_t,
    uint8_t,
    uint64_t,
)
from ascreg.errors import AscregError, AscregTypeError, PolicyError
from ascreg.machine.convert import to_dtype
from helpers import raises_naming
from reference.common import FLOAT_FORMATS, encode_float, to_bits

FLOATS = list(FLOAT_FORMATS)


def _near_boundaries(dtype: Any) -> list[float]:
    """Ties and near-ties around 1, the largest finite value and the overflow threshold."""
    ebits, mbits = FLOAT_FORMATS[dtype]
    bias = (1 << (ebits - 1)) - 1
    top = math.ldexp(2 - 2.0**-mbits, bias)  # largest finite
    half_ulp_top = math.ldexp(1.0, bias - mbits - 1)
    tie = 1 + 2.0 ** -(mbits + 1)
    return [
        tie, tie + 2.0**-40, tie - 2.0**-40, 1 + 3 * 2.0**-(mbits + 1),
        top, top + half_ulp_top, top + half_ulp_top * (1 - 2.0**-20), -(top + half_ulp_top),
        math.ldexp(1.0, 1 - bias - mbits - 1),  # half the smallest subnormal: a tie to 0
        math.ldexp(3.0, 1 - bias - mbits - 1),  # 1.5 subnormals: a tie to 2
    ]  # fmt: skip


def _numbers(dtype: Any) -> Any:
    return st.one_of(
        st.sampled_from(_near_boundaries(dtype)),
        st.floats(allow_nan=False, width=64),
        st.integers(-(2**140), 2**140),
    )


@pytest.mark.parametrize("dtype", FLOATS, ids=[d.cpp_name for d in FLOATS])
@given(data=st.data())
@example(data=None)  # the issue's case, below
def test_python_numbers_round_once(dtype: Any, data: Any) -> None:
    value: Any = 1 + 2**-8 + 2**-30 if data is None else data.draw(_numbers(dtype))
    want = (
        encode_float(Fraction(value), dtype)
        if isinstance(value, int)
        else encode_float(value, dtype)
    )
    reg = Reg.RegTensor[dtype]()
    Reg.Duplicate(reg, value)
    assert to_bits(np.asarray(reg))[0] == want
    reg.set(value)
    assert to_bits(np.asarray(reg))[0] == want
    p = UnifiedBuffer().alloc(dtype, 2)
    p.write([value, value])
    p[1] = value
    assert to_bits(p.read(2)) == [want, want]


def test_the_issue_example() -> None:
    reg = Reg.RegTensor[bfloat16_t]()
    Reg.Duplicate(reg, 1 + 2**-8 + 2**-30)
    assert to_bits(np.asarray(reg))[0] == 0x3F81


@given(st.lists(st.floats(allow_nan=False, width=64), min_size=1, max_size=20))
def test_float64_arrays_round_once_too(values: list[float]) -> None:
    got = to_bits(to_dtype(np.array(values), bfloat16_t))
    assert got == [encode_float(v, bfloat16_t) for v in values]


@given(st.integers(-(2**63), 2**64 - 1))
def test_int64_arrays_round_once(n: int) -> None:
    source = np.array([n], dtype=np.int64 if n < 2**63 else np.uint64)
    for dtype in FLOATS:
        assert to_bits(to_dtype(source, dtype)) == [encode_float(Fraction(n), dtype)]


def _nearest_fp8(value: float, dtype: Any) -> int | None:
    """Round to nearest even by search over every finite code (None past the finite range)."""
    codes = np.arange(256, dtype=np.uint8).view(dtype.np_dtype).astype(np.float64)
    finite = [(Fraction(float(v)), c) for c, v in enumerate(codes) if math.isfinite(v)]
    top = max(f for f, _ in finite)
    exact = Fraction(value)
    below = max((f for f, _ in finite if f <= exact), default=None)
    above = min((f for f, _ in finite if f >= exact), default=None)
    if below is None or above is None or abs(exact) > top:
        return None
    if below == above:
        pick = below
    else:
        pick = below if exact - below < above - exact else above
        if exact - below == above - exact:  # a tie: the even code (last bit 0)
            codes_of = {f: c for f, c in finite if f in (below, above) and c < 128}
            pick = below if codes_of.get(below, 1) % 2 == 0 else above
    return next(c for f, c in finite if f == pick and (c < 128 or exact < 0 or f != 0))


@pytest.mark.parametrize("dtype", [fp8_e4m3fn_t, fp8_e5m2_t], ids=lambda d: d.cpp_name)
@given(st.floats(0.0, 400.0))
def test_fp8_rounds_once(dtype: Any, value: float) -> None:
    want = _nearest_fp8(value, dtype)
    if want is not None:
        assert to_bits(to_dtype(value, dtype)) == [want]


# -- not a number, too large, not a scalar ----------------------------------------------------


@pytest.mark.parametrize("bad", [None, "1.5", b"x", object()], ids=["None", "str", "bytes", "obj"])
def test_non_numbers_are_refused_by_every_front_end(bad: Any) -> None:
    from ascreg.c_api import asc_duplicate_scalar, asc_gt_scalar, vector_float

    reg = Reg.RegTensor[float32_t]()
    reg.set(1.0)
    full = Reg.CreateMask[float32_t]()
    raises_naming(AscregTypeError, "Reg.Duplicate", "cannot convert", "a lane takes a number")(
        lambda: Reg.Duplicate(reg, bad)
    )
    raises_naming(AscregTypeError, "Reg.Adds", "cannot convert")(
        lambda: Reg.Adds(Reg.RegTensor[float32_t](), reg, bad, full)
    )
    raises_naming(AscregTypeError, "Reg.Maxs", "cannot convert")(
        lambda: Reg.Maxs(Reg.RegTensor[float32_t](), reg, bad, full)
    )
    raises_naming(AscregTypeError, "asc_duplicate_scalar", "cannot convert")(
        lambda: asc_duplicate_scalar(vector_float(), bad)
    )
    v = vector_float()
    v.set(1.0)
    raises_naming(AscregTypeError, "asc_gt_scalar", "cannot convert")(
        lambda: asc_gt_scalar(Reg.MaskReg(), v, bad, full)
    )


def test_an_array_is_not_a_scalar() -> None:
    reg = Reg.RegTensor[int8_t]()
    raises_naming(AscregTypeError, "Reg.Duplicate", "must be a scalar", r"list of 2 values")(
        lambda: Reg.Duplicate(reg, [1, 2])
    )
    raises_naming(AscregTypeError, "Reg.Duplicate", "must be a scalar", "ndarray")(
        lambda: Reg.Duplicate(reg, np.zeros(3, np.int8))
    )


@pytest.mark.parametrize("value", [2**64, -(2**70), 2**63])
def test_an_int_too_large_is_not_wrapped(value: int) -> None:
    target = uint8_t if value != 2**63 else uint64_t
    if value == 2**63:  # fits uint64_t: stored exactly
        reg = Reg.RegTensor[uint64_t]()
        Reg.Duplicate(reg, value)
        assert int(np.asarray(reg)[0]) == value
        return
    raises_naming(AscregError, "Reg.Duplicate", str(value), r"outside \[0, 255\]", "wrap")(
        lambda: Reg.Duplicate(Reg.RegTensor[target](), value)
    )


def test_write_and_set_errors_name_the_call() -> None:
    p = UnifiedBuffer().alloc(uint8_t, 4)
    raises_naming(AscregError, "Pointer.write", "300", "wrap")(lambda: p.write([300]))
    raises_naming(AscregError, "p[i] = v", "300")(lambda: p.__setitem__(1, 300))
    raises_naming(AscregTypeError, "RegTensor.set", "'x'", "a lane takes a number")(
        lambda: Reg.RegTensor[half]().set("x")
    )


def test_set_with_the_wrong_number_of_values() -> None:
    raises_naming(AscregTypeError, "RegTensor.set", "holds 128 lanes", "got 3")(
        lambda: Reg.RegTensor[half]().set([1, 2, 3])
    )
    reg = Reg.RegTensor[half]()
    reg.set([2.0])  # one value: every lane
    assert set(np.asarray(reg).tolist()) == {2.0}


# -- pointers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("thunk", "call", "value"),
    [
        (lambda p: p + 3 / 2, "p + n", "1.5"),
        (lambda p: p - 0.5, "p - n", "0.5"),
        (lambda p: p + True, "p + n", "True"),
        (lambda p: p[1.7], "p[i]", "1.7"),
        (lambda p: p.__setitem__(2.0, 1), "p[i] = v", "2.0"),
        (lambda p: p[np.array([0.5, 1.0])], "p[i]", "float64"),
    ],
    ids=["add-half", "sub-float", "add-bool", "index-float", "setitem-float", "index-array"],
)
def test_pointer_offsets_are_integers(thunk: Any, call: str, value: str) -> None:
    p = UnifiedBuffer().alloc(uint8_t, 8)
    raises_naming(AscregTypeError, call, value, "integer")(lambda: thunk(p))


def test_pointer_offsets_accept_numpy_integers() -> None:
    p = UnifiedBuffer().alloc(uint8_t, 8)
    assert (p + np.int64(2)).address == 2 and int(p[np.uint8(0)]) == 0


# -- masks and the policy ---------------------------------------------------------------------


def test_mask_from_bits_copies_the_array() -> None:
    bits = np.zeros(256, dtype=bool)
    mask = MaskReg.from_bits(bits)
    bits[:] = True
    assert mask.count() == 0


def test_mask_from_bits_needs_256_bits() -> None:
    raises_naming(AscregTypeError, "MaskReg.from_bits", "256 bits", "got 8")(
        lambda: MaskReg.from_bits(np.ones(8, bool))
    )


def test_unknown_policy_value() -> None:
    import ascreg

    err = raises_naming(PolicyError, "set_policy", "'ignore'", "'error'", "'warn'")
    err(lambda: ascreg.set_policy(undefined="ignore"))  # type: ignore[arg-type]
    assert ascreg.get_policy().undefined == "error"
    assert isinstance(PolicyError("x"), ValueError)


def test_a_signalling_nan_scalar_converts_quietly() -> None:
    """float64 -> float32 of a signalling NaN raises FE_INVALID (a numpy RuntimeWarning, an
    error in the test run); IEEE 754 gives a quiet NaN, and so does the conversion."""
    import struct

    from ascreg import half
    from ascreg.machine.convert import to_dtype

    signalling = struct.unpack("<d", struct.pack("<Q", 0x7FF4000000000000))[0]
    value = to_dtype(signalling, half)
    assert np.isnan(value.astype(np.float32))
