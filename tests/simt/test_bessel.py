"""The SIMT Bessel functions ``j0f`` ... ``ynf`` against mpmath's values, correctly rounded."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.simt as simt
from ascreg.core import bessel, exact
from ascreg.errors import UnsupportedError

mpmath.mp.prec = 96
INF, NAN = math.inf, math.nan
FUNCTIONS = {"j0f": (0, False), "j1f": (1, False), "y0f": (0, True), "y1f": (1, True)}


def exact_value(n: int, x: float, second_kind: bool) -> Any:
    """The mpmath value (mpmath raises its working precision near zeros itself; a tiny x needs
    the bits of its ``x**2`` correction term, past a subnormal result's rounding midpoint)."""
    f = mpmath.bessely if second_kind else mpmath.besselj
    bits = 96 + max(0, -2 * math.frexp(x)[1]) if x else 96
    with mpmath.workprec(bits):
        return +f(n, mpmath.mpf(x))


def round_f32(value: Any) -> np.float32:
    """Round an mpmath value to the nearest float32 (ties to even), subnormals included."""
    if value == 0:
        return np.float32(0)
    if abs(value) >= mpmath.mpf(2) ** 128 * (1 - mpmath.mpf(2) ** -25):
        return np.float32(math.copysign(INF, value))
    with np.errstate(over="ignore"):
        near = np.float32(float(value))
    candidates = [near, np.nextafter(near, np.float32(INF)), np.nextafter(near, np.float32(-INF))]
    candidates = [c for c in candidates if np.isfinite(c)]
    with mpmath.workprec(1200):  # exact differences
        best = min(
            candidates,
            key=lambda c: (abs(mpmath.mpf(float(c)) - value), int(c.view(np.uint32)) & 1),
        )
    return np.float32(best)


def want(name: str, n: int, x: float) -> np.float32:
    second_kind = name.startswith("y")
    if math.isnan(x) or n < 0 or (second_kind and x < 0):
        return np.float32(NAN)
    if math.isinf(x):
        return np.float32(0)
    if second_kind and x == 0:
        return np.float32(-INF)
    result = round_f32(exact_value(n, x, second_kind))
    if result == 0 and math.copysign(1, x) < 0 and n % 2 and not second_kind:
        return np.float32(-0.0)
    return result


def call(name: str, n: int | np.ndarray[Any, Any], x: np.ndarray[Any, Any]) -> Any:
    if name in FUNCTIONS:
        return getattr(simt, name)(x)
    return getattr(simt, name)(n, x)


def assert_correctly_rounded(name: str, n: int | list[int], xs: np.ndarray[Any, Any]) -> None:
    xs = np.asarray(xs, dtype=np.float32)
    orders = np.broadcast_to(np.asarray(n, dtype=np.int32), xs.shape)
    if name in FUNCTIONS:
        orders = np.full(xs.shape, FUNCTIONS[name][0], dtype=np.int32)
    got = call(name, orders, xs)
    for order, x, g in zip(orders.tolist(), xs.tolist(), np.atleast_1d(got), strict=True):
        w = want(name, order, x)
        assert g.view(np.uint32) == w.view(np.uint32) or (np.isnan(g) and np.isnan(w)), (
            name, order, x, float(g), float(w),
        )  # fmt: skip


def around(centre: float, count: int) -> np.ndarray[Any, Any]:
    """*count* consecutive float32 values centred on *centre*."""
    start = np.float32(centre)
    below = [start]
    for _ in range(count // 2):
        below.append(np.nextafter(below[-1], np.float32(-INF)))
    above = [start]
    for _ in range(count // 2 - 1):
        above.append(np.nextafter(above[-1], np.float32(INF)))
    return np.array(sorted(below + above[1:]), dtype=np.float32)


ZEROS = [("j0f", 0, 1), ("j0f", 0, 2), ("j0f", 0, 30), ("j1f", 1, 1), ("j1f", 1, 3),
         ("y0f", 0, 1), ("y0f", 0, 2), ("y1f", 1, 1), ("y1f", 1, 20), ("jnf", 2, 1),
         ("jnf", 7, 2), ("ynf", 3, 1), ("ynf", 40, 1)]  # fmt: skip


@pytest.mark.rows("j0f", "j1f", "jnf", "y0f", "y1f", "ynf")
@pytest.mark.parametrize(("name", "n", "k"), ZEROS)
def test_dense_around_zeros(name: str, n: int, k: int) -> None:
    """48 consecutive floats around the k-th zero: relative accuracy where float64 loses it."""
    zero = mpmath.besselyzero(n, k) if name.startswith("y") else mpmath.besseljzero(n, k)
    assert_correctly_rounded(name, n, around(float(zero), 48))


@pytest.mark.rows("j0f", "j1f", "jnf", "y0f", "y1f", "ynf")
@pytest.mark.parametrize("name", ["j0f", "j1f", "y0f", "y1f", "jnf", "ynf"])
def test_small_large_and_huge_arguments(name: str) -> None:
    rng = np.random.default_rng(2026)
    xs = np.concatenate([
        rng.uniform(0, 30, 60), 10 ** rng.uniform(-40, -1, 30), 10 ** rng.uniform(1, 38.5, 40),
        -rng.uniform(0, 30, 10),
    ]).astype(np.float32)  # fmt: skip
    orders = rng.choice([0, 1, 2, 3, 9, 30, 64, 128], xs.size)
    assert_correctly_rounded(name, orders.tolist(), xs)


@pytest.mark.rows("jnf", "ynf", "j1f")
def test_subnormal_and_underflowing_results() -> None:
    tiny = np.float32([1e-45, 3e-45, 1.96225e-40, 2.5e-39, 1e-38])
    assert_correctly_rounded("j1f", 1, tiny)
    assert_correctly_rounded("j1f", 1, -tiny)
    assert_correctly_rounded("jnf", 2, np.float32([1e-22, 3.3e-22, 2e-23, 1e-19]))
    assert_correctly_rounded("jnf", 5, np.float32([1e-8, 3e-8, 1.7e-9, 1e-10]))
    assert_correctly_rounded("jnf", 128, np.float32([0.5, 1.0, 8.0, 12.0]))
    assert_correctly_rounded("ynf", 128, np.float32([8.0, 30.0, 120.0]))  # -inf, then finite


DOCUMENTED = [
    ("j0f", 0, 0.0, 1.0), ("j0f", 0, INF, 0.0), ("j0f", 0, -INF, 0.0), ("j0f", 0, NAN, NAN),
    ("j1f", 1, 0.0, 0.0), ("j1f", 1, -0.0, -0.0), ("j1f", 1, INF, 0.0), ("j1f", 1, -INF, 0.0),
    ("j1f", 1, NAN, NAN), ("jnf", -1, 1.0, NAN), ("jnf", 2, INF, 0.0), ("jnf", 2, -INF, 0.0),
    ("jnf", 3, NAN, NAN), ("jnf", 3, 0.0, 0.0), ("jnf", 0, 0.0, 1.0), ("y0f", 0, -1.0, NAN),
    ("y0f", 0, 0.0, -INF), ("y0f", 0, -0.0, -INF), ("y0f", 0, INF, 0.0), ("y0f", 0, -INF, NAN),
    ("y0f", 0, NAN, NAN), ("y1f", 1, -1.0, NAN), ("y1f", 1, 0.0, -INF), ("y1f", 1, INF, 0.0),
    ("y1f", 1, NAN, NAN), ("ynf", -2, 1.0, NAN), ("ynf", 2, 0.0, -INF), ("ynf", 2, -1.0, NAN),
    ("ynf", 2, INF, 0.0), ("ynf", 2, NAN, NAN), ("ynf", 128, 1.0, -INF),
]  # fmt: skip


@pytest.mark.parametrize(("name", "n", "x", "value"), DOCUMENTED)
def test_documented_special_values(name: str, n: int, x: float, value: float) -> None:
    got = call(name, n, np.float32(x)) if name in FUNCTIONS else getattr(simt, name)(n, x)
    assert np.ndim(got) == 0
    expected = np.float32(value)
    assert (np.isnan(got) and np.isnan(expected)) or got.view(np.uint32) == expected.view(
        np.uint32
    ), (name, n, x, got)


@pytest.mark.parametrize("name", ["jnf", "ynf"])
def test_an_order_above_the_documented_maximum_is_an_error(name: str) -> None:
    with pytest.raises(UnsupportedError, match="n = 129 is above the documented maximum"):
        getattr(simt, name)(129, 1.0)


float32s = st.floats(-1e4, 1e4, width=32) | st.floats(width=32, allow_nan=False)


@pytest.mark.rows("j0f", "j1f", "jnf", "y0f", "y1f", "ynf")
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 128), st.lists(float32s, min_size=1, max_size=6))
def test_properties_and_values(n: int, values: list[float]) -> None:
    xs = np.array(values, dtype=np.float32)
    first, second = simt.jnf(n, xs), simt.ynf(n, xs)
    reflected = simt.jnf(n, -xs)
    assert np.array_equal(reflected, first if n % 2 == 0 else -first, equal_nan=True)
    assert np.array_equal(simt.jnf(0, xs), simt.j0f(xs), equal_nan=True)
    assert np.array_equal(simt.ynf(1, xs), simt.y1f(xs), equal_nan=True)
    assert np.all(np.isnan(second[xs < 0]))
    assert_correctly_rounded("jnf", n, xs)
    assert_correctly_rounded("ynf", n, np.abs(xs))


@pytest.mark.parametrize("second_kind", [False, True])
def test_the_float64_error_bound_holds(second_kind: bool) -> None:
    """The bound that decides whether a lane needs the exact path is never below the error."""
    rng = np.random.default_rng(7)
    orders = np.array([0, 1] * 60 if second_kind else [0, 1, 2, 5, 30, 128] * 20)
    xs = np.concatenate([rng.uniform(0, 2, 60), 10 ** rng.uniform(1.4, 38, 60)])
    xs = np.maximum(xs, np.where(orders > 1, orders.astype(float) ** 2, 0) * (xs > 2))
    values, bounds = bessel.bessel_jy(orders, xs, second_kind=second_kind)
    for n, x, v, b in zip(orders.tolist(), xs.tolist(), values, bounds, strict=True):
        assert abs(mpmath.mpf(float(v)) - exact_value(n, x, second_kind)) <= b, (n, x)


def test_euler_constant() -> None:
    with mpmath.workdps(130):
        reference = Decimal(mpmath.nstr(+mpmath.euler, 125))
    assert abs(exact.euler_gamma(120) - reference) < Decimal(10) ** -115
