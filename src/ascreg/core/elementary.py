"""Division, square root, exp and the logarithms on lanes: correctly rounded, optionally FTZ.

Every float result is the correctly rounded (round to nearest even) value of the exact result
of the (possibly flushed) inputs. The hardware promises 1 ulp for its intrinsics, so a chip may
differ from ascreg by one ulp there; :func:`ascreg.testing.assert_ulp_close` compares with that
tolerance. With *ftz* (the default mode of every op here), a subnormal input is read as a zero
of its sign and a subnormal result becomes a zero of its sign.

Integer division truncates toward zero. Decision ([IMPL], the pages are silent): ``x / 0`` is
all ones (``-1`` signed, the maximum unsigned) and ``MIN / -1`` wraps to ``MIN``, as the dav-3510
software division of 64-bit lanes computes (``DivS64Impl`` / ``DivU64Impl``); the 16- and
32-bit instruction is given the same results.

Why the results are correctly rounded, and fast
-----------------------------------------------
* ``Div`` and ``Sqrt``: numpy's float32 division and square root are the IEEE operations
  (correctly rounded, subnormals kept); its half ones compute in float32 and round once more,
  which is the correctly rounded result since ``24 >= 2 * 11 + 2`` (double rounding is
  innocuous: :mod:`ascreg.core.rounding`); the FTZ path divides in float64 (``53 >= 2p + 2``).
* ``exp``, ``ln``, ``log2``, ``log10`` of float32 lanes: numpy's float64 value, rounded with
  the interval test of :func:`ascreg.core.rounding.round_decided`, which proves each lane;
  an undecided lane (about one in 2**18) is recomputed exactly (:func:`exact_lane`). From
  :data:`BULK_FROM` lanes on, by chunks of :data:`CHUNK` that stay in the cache, each proven
  with the integer test of :func:`ascreg.core.rounding.float32_undecided` (the low 29 bits of
  the float64 pattern against float32's midpoint, in place: one lane in 2**19 is undecided)
  when no lane of the chunk needs a flush or has a subnormal result, else as above. Both rest
  on one assumption, numpy's float64 ``exp``/``log``/``log2``/``log10`` being within
  :data:`ascreg.core.rounding.RELATIVE_BOUND` ``= 2**-44`` (relative) of the exact value:
  128 times the few ulps (``2**-51``) of their implementations.
* Half lanes of the unary functions: a table of the results of all 65536 inputs per function
  and mode, built once by the same proven path; a call is one table lookup.
* FTZ, per function (a flush costs a few numpy calls, so it is done only where it can matter):
  ``exp`` of a subnormal ``x`` equals ``exp(±0) = 1`` in both formats (``|x| < 2**-14`` keeps
  ``e**x`` within ``2**-13`` of 1, closer than the rounding midpoints ``1 - 2**-12`` and
  ``1 + 2**-11`` of half, let alone float32's), so its input is not flushed; its results can be
  subnormal and are. The logarithms' results never are (``|log_b x| >= |log_b(1 - 2**-11)| >
  2**-13`` for every ``x != 1``), and neither are square roots (``sqrt(2**-149) > 2**-75``,
  ``sqrt(2**-24) = 2**-12``): only their inputs are flushed. ``Div`` flushes both. One
  comparison per call finds whether a flush has work: an input below the smallest normal
  (negatives and zeros included: they take the flushing path, whose result is the same), an
  exp input below -87 (-9.5 for half), an operand or quotient of ``Div`` with a zero exponent
  field. Otherwise the flush is skipped.

Examples
--------
>>> import numpy as np
>>> divide(np.array([7, -7, 5, -128], np.int8), np.array([2, 2, 0, -1], np.int8))
array([   3,   -3,   -1, -128], dtype=int8)
>>> elementary("exp", np.array([0.0, 1.0, -100.0], np.float32))
array([1.       , 2.7182817, 0.       ], dtype=float32)
"""

from __future__ import annotations

import decimal
import functools
import math
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from ascreg.core import rounding
from ascreg.core.fpenv import IGNORE, STATE

Lanes = np.ndarray[Any, Any]

_FORMATS = {np.dtype(np.float16): (11, -14, 15), np.dtype(np.float32): (24, -126, 127)}
"""Precision p (bits, with the hidden one), minimum and maximum normal exponent per format."""
_SMALLEST_NORMAL: dict[np.dtype[Any], Lanes] = {np.dtype(np.float16): np.array(2.0**-14, np.float16), np.dtype(np.float32): np.array(2.0**-126, np.float32)}  # fmt: skip
"""Per format, as 0-d arrays (a numpy scalar operand costs a conversion on every call)."""
_HALF = np.dtype(np.float16)


def flush_subnormals(values: Lanes) -> Lanes:
    """Replace every subnormal lane by the zero of its sign (zeros, normals, inf, NaN stay).

    A NaN stays a NaN of the same payload (a signalling one becomes quiet, as any arithmetic
    on it would make it).

    Examples
    --------
    >>> flush_subnormals(np.array([1e-45, -1e-45, 1.0], np.float32))
    array([ 0., -0.,  1.], dtype=float32)
    """
    kept: Lanes = values * (np.abs(values) >= _SMALLEST_NORMAL[values.dtype])  # x * 0 is ±0
    return kept


def _integer_divide(a: Lanes, b: Lanes) -> Lanes:
    """Divide truncating toward zero; ``x / 0`` is all ones, ``MIN / -1`` is ``MIN``."""
    unsigned = np.dtype(f"u{a.dtype.itemsize}")
    ua, ub = a.view(unsigned), b.view(unsigned)
    zero = unsigned.type(0)
    if a.dtype.kind == "i":  # magnitudes as unsigned: |MIN| = 2**(bits-1) fits
        ua = np.where(a < 0, zero - ua, ua).astype(unsigned)
        ub = np.where(b < 0, zero - ub, ub).astype(unsigned)
    safe = np.where(ub == 0, unsigned.type(1), ub).astype(unsigned)
    quotient = ua // safe
    if a.dtype.kind == "i":
        quotient = np.where((a < 0) != (b < 0), zero - quotient, quotient).astype(unsigned)
    result: Lanes = np.where(ub == 0, ~zero, quotient).astype(unsigned).view(a.dtype)
    return result


def divide(a: Lanes, b: Lanes, *, ftz: bool = True) -> Lanes:
    """Return ``a / b`` per lane: integers truncate, floats are correctly rounded.

    With *ftz*, subnormal inputs and results are flushed to signed zeros.

    Float lanes are divided in float64 and rounded once more to half/float: a float64 quotient
    has 53 >= 2p + 2 bits for p = 11 and 24, so this double rounding is innocuous (Figueroa,
    "When is double rounding innocuous?", 1995) and the result is the correctly rounded one.

    Examples
    --------
    >>> divide(np.array([1.0, 1.0], np.float32), np.array([3.0, -1e-39], np.float32))
    array([0.33333334,       -inf], dtype=float32)
    >>> divide(np.array([2.0**-10], np.float32), np.array([-(2.0**-130)], np.float32), ftz=False)
    array([-1.329228e+36], dtype=float32)
    """
    if a.dtype.kind in "iu":
        return _integer_divide(a, b)
    return _float_divide(a, b, ftz)


_FLUSH_BELOW = {
    np.dtype(np.float16): (np.array(2.0**-14), np.array(2.0**-14 - 2.0**-25)),
    np.dtype(np.float32): (np.array(2.0**-126), np.array(2.0**-126 - 2.0**-150)),
}
"""Float64 thresholds of FTZ per format: an input below the first is subnormal; a value below
the second rounds to a subnormal (the midpoint under the smallest normal ties to it, even)."""


def _float_divide(a: Lanes, b: Lanes, ftz: bool) -> Lanes:
    """Return numpy's quotient, or :func:`_flushed_divide`'s when a lane may need a flush.

    numpy divides float32 lanes with the IEEE division (correctly rounded, subnormals kept)
    and half lanes in float32, rounded once more to half (innocuous: ``24 >= 2 * 11 + 2``).
    With *ftz* that quotient stands when no operand and no quotient lies below the smallest
    normal in magnitude (zeros included, so a zero lane takes the flushing path too).
    """
    token = STATE.set(IGNORE)  # 0/0, x/0 and overflow are IEEE results, not warnings
    try:
        quotient: Lanes = a / b
        if ftz and _zero_or_subnormal(a, b, quotient):
            return _flushed_divide(a, b)
        return quotient
    finally:
        STATE.reset(token)


_EXPONENT_BITS: dict[np.dtype[Any], tuple[np.dtype[Any], Lanes, Any]] = {
    np.dtype(np.float16): (np.dtype(np.uint16), np.array(0x7C00, np.uint16), np.uint16(0x0800)),
    np.dtype(np.float32): (
        np.dtype(np.uint32),
        np.array(0x7F800000, np.uint32),
        np.uint32(0x01000000),
    ),
}
"""Per format: its bits as unsigned, the exponent field, and the smallest normal magnitude's
bits shifted left by one (the sign shifted out: a smaller shifted pattern is a zero or a
subnormal)."""


def _zero_or_subnormal(*arrays: Lanes) -> bool:
    """Return whether a lane of *arrays* (one float format) is a zero or a subnormal.

    Their exponent fields are tested with integer operations (numpy's half comparisons are
    slow): a zero field is a zero or a subnormal.
    """
    unsigned, exponent, smallest = _EXPONENT_BITS[arrays[0].dtype]
    if arrays[0].size <= _JOINED_UP_TO:  # small: one joined test costs fewer calls
        fields = np.concatenate(arrays, axis=None).view(unsigned) & exponent
        return bool(np.count_nonzero(fields) != fields.size)
    for lanes in arrays:  # large: a joined copy would be a fresh, page-faulting array
        if (np.ascontiguousarray(lanes).view(unsigned) << 1).min() < smallest:
            return True
    return False


_JOINED_UP_TO = 1 << 12
"""Up to this many lanes per array, :func:`_zero_or_subnormal` tests the arrays joined."""


def _flushed_divide(a: Lanes, b: Lanes) -> Lanes:
    """FTZ division in float64: flush there (fast for half too), one rounding at the end."""
    wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
    subnormal, rounds_subnormal = _FLUSH_BELOW[a.dtype]
    wide_a = wide_a * (np.abs(wide_a) >= subnormal)  # x * 0 keeps the sign of zero and NaN
    wide_b = wide_b * (np.abs(wide_b) >= subnormal)
    quotient = wide_a / wide_b
    kept: Lanes = (quotient * (np.abs(quotient) >= rounds_subnormal)).astype(a.dtype)
    return kept


@attrs.frozen
class _Function:
    """One unary function: how it is evaluated (the module docstring has the FTZ facts).

    Calling it, ``f(lanes, *, ftz=True)``, gives the correctly rounded lanes.
    """

    name: str
    fast: Callable[..., Lanes]
    """The float64 numpy evaluation (a ufunc: the bulk path gives it ``out`` and ``dtype``)."""
    exact: Callable[[decimal.Context, decimal.Decimal], decimal.Decimal]
    """``exact(ctx, x)``: the value at the context's precision (a few units of its last digit)."""
    rounded_in_float64: bool = False
    """The float64 value is correctly rounded (sqrt): one more rounding is exact."""
    flush_input: bool = True
    """A subnormal input can give another result than its zero (all but exp)."""
    subnormal_results: bool = False
    """A result can be subnormal (exp only, whose results are never negative)."""

    tables: dict[bool, Lanes] = attrs.field(factory=dict, eq=False, repr=False)
    """The half table of each FTZ mode in use (:meth:`table`)."""

    def __call__(self, values: Lanes, *, ftz: bool = True) -> Lanes:
        """Return the correctly rounded lanes (half: one lookup in the function's table)."""
        if values.dtype.char == "e":  # half
            found = self.tables.get(ftz)
            return rounding.lookup(self.table(ftz) if found is None else found, values)
        return self.evaluate(values, ftz)

    def lanes_function(self, dtype: np.dtype[Any], ftz: bool) -> Callable[[Lanes], Lanes]:
        """Return ``values -> self(values, ftz=ftz)`` for lanes of *dtype* (no dispatch left).

        An op's validated form keeps it: a half form holds its table (built here, on the first
        call), a float form the evaluation.
        """
        if dtype.char != "e":
            if self.rounded_in_float64 and dtype is _FLOAT:
                return lambda values: _float_root(values, ftz)
            if dtype is _FLOAT:
                proven, bulk = self._proven, self._bulk
                return lambda values: proven(values, ftz) if values.size < BULK_FROM else bulk(values, ftz)  # fmt: skip
            evaluate = self.evaluate
            return lambda values: evaluate(values, ftz)
        found, lookup = self.table(ftz), rounding.lookup
        return lambda values: lookup(found, values)

    def table(self, ftz: bool) -> Lanes:
        """Return the results of all 65536 half inputs (built on the first use)."""
        found = self.tables.get(ftz)
        if found is None:
            found = rounding.table((self.name, ftz), _HALF, lambda every: self.evaluate(every, ftz))  # fmt: skip
            self.tables[ftz] = found
        return found

    def evaluate(self, values: Lanes, ftz: bool) -> Lanes:
        """Return the lanes by the float64 value, proven or settled exactly (float32 or half).

        From :data:`BULK_FROM` float32 lanes on, by chunks (:meth:`_bulk`); fewer lanes and
        half lanes (the tables) by :meth:`_proven`.
        """
        if values.dtype is _FLOAT:
            if self.rounded_in_float64:
                return _float_root(values, ftz)
            if values.size >= BULK_FROM:
                return self._bulk(values, ftz)
        return self._proven(values, ftz)

    def _bulk(self, values: Lanes, ftz: bool) -> Lanes:
        """Float32 lanes (any shape) by chunks of :data:`CHUNK`, with one float64 buffer."""
        token = STATE.set(IGNORE)  # log(0), log(<0), overflow: IEEE data
        try:
            flat = values.reshape(-1)
            result = np.empty(flat.shape, _FLOAT)
            wide = np.empty(min(flat.size, CHUNK), np.float64)
            for start in range(0, flat.size, CHUNK):
                lanes = flat[start : start + CHUNK]
                self._float_chunk(lanes, result[start : start + CHUNK], wide[: lanes.size], ftz)
            return result.reshape(values.shape)
        finally:
            STATE.reset(token)

    def _float_chunk(self, lanes: Lanes, result: Lanes, wide: Lanes, ftz: bool) -> None:
        """Write the float32 *lanes*' results into *result*; *wide*: float64 scratch of their size.

        The bulk path: for the inputs in :attr:`_fast_from` (no flush has work, every result
        is normal, zero, inf or NaN), numpy's float64 value is rounded and proven by the
        integer test of :func:`ascreg.core.rounding.float32_undecided` (two in-place passes
        and one reduction); the rare undecided lanes are settled exactly. The other inputs go
        by :meth:`_proven` (the same results by the interval test): on their own when they are
        few (one lane in :data:`SLOW_SHARE` or fewer), else with the whole chunk.
        """
        outside = lanes < self._fast_from  # a NaN compares False: it is fast
        few = None
        if any_set(outside):
            few = np.flatnonzero(outside)
            if few.size * SLOW_SHARE > lanes.size:
                result[...] = self._proven(lanes, ftz)
                return
        self.fast(lanes, out=wide, dtype=np.float64)
        if few is not None:
            wide[few] = 1.0  # a decided value in their place: their results come below
        result[...] = wide  # one rounding to float32 (overflow: inf)
        undecided = rounding.float32_undecided(wide)
        if undecided is not None:
            _settle(self.name, lanes, result, undecided)
        if few is not None:
            result[few] = self._proven(lanes[few], ftz)

    @property
    def _fast_from(self) -> Lanes:
        """The float32 inputs from which the bulk path holds.

        exp from -87 (``e**-87 > 2**-126``: normal results), the logarithms from the smallest
        normal (no flush, no negative).
        """
        return _NORMAL_EXP_FROM[_FLOAT] if self.subnormal_results else _FLOAT_SMALLEST_NORMAL

    def _proven(self, values: Lanes, ftz: bool) -> Lanes:
        """Return the lanes by the float64 value and the interval test (any shape, float or half).

        The FTZ flushes run only when a lane may need one (one comparison decides it): an
        input below the smallest normal (a function that flushes inputs), an input of exp
        below -87 (``e**-87 > 2**-126``: every other result is normal).
        """
        token = STATE.set(IGNORE)  # signalling NaNs, log(0), log(<0), overflow: IEEE data
        try:
            if ftz and self.flush_input and any_set(values < _SMALLEST_NORMAL[values.dtype]):
                values = flush_subnormals(values)  # below: negatives and zeros too (kept)
            wide = values.astype(np.float64)
            approx = self.fast(wide)
            if self.rounded_in_float64:
                return approx.astype(values.dtype)
            result, undecided = rounding.round_decided(approx, values.dtype)
            if undecided is not None:
                _settle(self.name, wide, result, undecided)
            flush = ftz and self.subnormal_results and any_set(values < _NORMAL_EXP_FROM[values.dtype])  # fmt: skip
            return _flushed(result, flush)
        finally:
            STATE.reset(token)


CHUNK = 1 << 15
"""Float32 lanes per chunk of the bulk path: the chunk's float64 values (256 KiB) stay in the
cache between the passes over them, and no temporary is large enough for the allocator to map
and unmap it on every call (what made 2**20 unchunked lanes cost 8 ms instead of 1.2 ms)."""
SLOW_SHARE = 8
"""A bulk chunk whose inputs outside the fast range are at most one in this many takes them
aside (:meth:`_Function._float_chunk`); more, and the whole chunk goes by the interval test."""
BULK_FROM = 1 << 13
"""Float32 lanes from which the bulk path (:meth:`_Function._float_chunk`) is taken: below,
the interval test's fewer numpy calls win (one register: 2.4 us against 4 us); above, the
integer test's fewer passes (16384 lanes: 21 us against 23 us)."""
_FLOAT = np.dtype(np.float32)
_FLOAT_SMALLEST_NORMAL: Lanes = _SMALLEST_NORMAL[_FLOAT]
_NORMAL_EXP_FROM: dict[np.dtype[Any], Lanes] = {np.dtype(np.float16): np.array(-9.5, np.float16), np.dtype(np.float32): np.array(-87.0, np.float32)}  # fmt: skip
"""Per format, an input from which exp is normal (``e**-9.5 > 2**-14``, ``e**-87 > 2**-126``):
below it a result may be subnormal and FTZ has work to do."""


def any_set(flags: Lanes) -> bool:
    """Return whether any lane of a boolean array is set (cheaper than ``.any()`` on a register).

    Examples
    --------
    >>> any_set(np.array([False, True])), any_set(np.zeros(64, bool))
    (True, False)
    """
    return flags.tobytes().find(1) >= 0


def _float_root(values: Lanes, flush: bool) -> Lanes:
    """Float32 ``sqrt``: numpy's IEEE root of the (with *flush*, flushed) lanes."""
    token = STATE.set(IGNORE)  # negative lanes and signalling NaNs: NaN, not warnings
    try:
        if flush and any_set(values < _FLOAT_SMALLEST_NORMAL):
            values = flush_subnormals(values)
        root: Lanes = np.sqrt(values)
        return root
    finally:
        STATE.reset(token)


def _flushed(result: Lanes, flush: bool) -> Lanes:
    """FTZ of the results of exp (never negative: no sign to keep; a NaN stays, NaN * 0)."""
    kept: Lanes = result * (result >= _SMALLEST_NORMAL[result.dtype]) if flush else result
    return kept


def _log2(ctx: decimal.Context, x: decimal.Decimal) -> decimal.Decimal:
    return ctx.divide(ctx.ln(x), _ln2(ctx.prec))


@functools.cache
def _ln2(digits: int) -> decimal.Decimal:
    """``ln 2`` to *digits* significant digits (the few precisions of the exact path)."""
    return decimal.Context(prec=digits).ln(decimal.Decimal(2))


_FUNCTIONS = {
    f.name: f
    for f in (
        _Function("exp", np.exp, decimal.Context.exp, flush_input=False, subnormal_results=True),
        _Function("ln", np.log, decimal.Context.ln),
        _Function("log2", np.log2, _log2),
        _Function("log10", np.log10, decimal.Context.log10),
        _Function("sqrt", np.sqrt, decimal.Context.sqrt, rounded_in_float64=True),
    )
}


def _round_ratio(numerator: int, denominator: int, p: int, emin: int, emax: int) -> float:
    """Round ``numerator / denominator`` to the format (p, emin, emax), to nearest even.

    ``denominator > 0``; overflow gives inf. Integer arithmetic only (``Fraction``: 10x more).
    """
    if numerator == 0:
        return 0.0
    n = abs(numerator)
    exponent = n.bit_length() - denominator.bit_length()  # 2**(e-1) < n / d < 2**(e+1)
    below = denominator << exponent > n if exponent >= 0 else denominator > n << -exponent
    exponent -= below  # now 2**exponent <= n / d < 2**(exponent + 1)
    shift = max(exponent, emin) - p + 1  # the quantum is 2**shift
    a, b = (n, denominator << shift) if shift >= 0 else (n << -shift, denominator)
    quotient, remainder = divmod(a, b)
    quotient += 2 * remainder > b or (2 * remainder == b and quotient & 1)
    top = emax + 1 - shift  # overflow: quotient 2**shift >= 2**(emax + 1)
    result = math.inf if top <= 0 or quotient >= 1 << top else math.ldexp(quotient, shift)
    return result if numerator > 0 else -result


def _correctly_rounded(name: str, x: float, dtype: np.dtype[Any]) -> float:
    """*name* of the finite, in-domain *x* rounded once to *dtype*: Ziv's strategy.

    The function is evaluated in decimal at growing precision until both ends of the error
    interval round to the same value. It terminates: exp, ln, log2, log10 and sqrt of a dyadic
    rational are either exact (``exp(0)``, ``ln(1)``, ``log2(2**k)``, ``log10(10**k)``, a
    square root of a square) or irrational, hence never a rounding midpoint; an exact decimal
    value makes the interval a point.
    """
    p, emin, emax = _FORMATS[dtype]
    digits = 20
    while True:
        ctx = decimal.Context(prec=digits + 10)
        value = _FUNCTIONS[name].exact(ctx, decimal.Decimal(x))
        if value == 0:
            return 0.0
        numerator, denominator = value.as_integer_ratio()
        scale = 10**digits  # the ends value (1 -+ 10**-digits): the last 10 digits may be off
        low = _round_ratio(numerator * (scale - 1), denominator * scale, p, emin, emax)
        if low == _round_ratio(numerator * (scale + 1), denominator * scale, p, emin, emax):
            return low
        digits *= 2


def _special(name: str, x: float) -> float | None:
    """Return *name* at NaN, ±inf, ±0, outside the domain or far out of range (IEEE 754)."""
    if math.isnan(x):
        return math.nan
    if name == "exp":  # e**200 > 2**128 overflows, e**-200 < 2**-150 rounds to +0 (half, float)
        return math.inf if x >= 200 else 0.0 if x <= -200 else None
    if x == 0:
        return x if name == "sqrt" else -math.inf
    return math.nan if x < 0 else math.inf if math.isinf(x) else None


def exact_lane(name: str, x: float, dtype: np.dtype[Any], *, ftz: bool = True) -> float:
    """One lane of *name* (``exp``, ``ln``, ``log2``, ``log10``, ``sqrt``) by the exact path.

    Flush (with *ftz*), the IEEE special values, else the decimal evaluation rounded once
    (:func:`_correctly_rounded`), then the FTZ flush of the result. The fast paths must agree
    with it on every lane (NaN payloads aside); it is what an undecided lane gets.

    Examples
    --------
    >>> exact_lane("log2", 2.0**-140, np.dtype(np.float32)), exact_lane("log2", 2.0**-140, np.dtype(np.float32), ftz=False)
    (-inf, -140.0)
    """
    tiny = 2.0 ** _FORMATS[dtype][1]
    if ftz and abs(x) < tiny:
        x = math.copysign(0.0, x)
    special = _special(name, x)
    result = special if special is not None else _correctly_rounded(name, x, dtype)
    if ftz and abs(result) < tiny:
        result = math.copysign(0.0, result)
    return result


def exact_lanes(name: str, values: Lanes, *, ftz: bool = True) -> Lanes:
    """Every lane of *values* by :func:`exact_lane` (slow: the reference of the fast paths).

    Examples
    --------
    >>> exact_lanes("exp", np.float16([0.0, -20.0, 12.0]))
    array([ 1.,  0., inf], dtype=float16)
    """
    results = [exact_lane(name, float(x), values.dtype, ftz=ftz) for x in values.reshape(-1)]
    return np.array(results, dtype=np.float64).astype(values.dtype).reshape(values.shape)


def _settle(name: str, inputs: Lanes, result: Lanes, undecided: Lanes) -> None:
    """Replace the undecided lanes of *result* by their exact rounding (in place).

    *inputs* are the lanes' (flushed) inputs, float32 or float64. A lane with an IEEE special
    value (NaN, an input outside the domain or far out of range) keeps its result: its
    rounding is never undecided, and a decimal evaluation there would fail.
    """
    flat_in, flat_out = inputs.reshape(-1), result.reshape(-1)
    for lane in undecided:
        x = float(flat_in[lane])
        if _special(name, x) is None:
            flat_out[lane] = _correctly_rounded(name, x, result.dtype)


def elementary(name: str, values: Lanes, *, ftz: bool = True) -> Lanes:
    """``exp``, ``ln``, ``log2``, ``log10`` or ``sqrt`` per half/float lane, correctly rounded.

    IEEE 754 special values: ``exp(-inf) = +0``, ``exp(+inf) = +inf``; the logarithms give
    ``-inf`` at ``±0``, NaN below zero and ``+inf`` at ``+inf``; ``sqrt(-0) = -0``, a negative
    lane gives NaN; NaN stays NaN. How each lane is proven: the module docstring.

    Examples
    --------
    >>> elementary("log2", np.array([8.0, 0.0, -1.0, 1e-45], np.float32))
    array([  3., -inf,  nan, -inf], dtype=float32)
    >>> elementary("log2", np.array([1e-45], np.float32), ftz=False)
    array([-149.], dtype=float32)
    """
    return _FUNCTIONS[name](values, ftz=ftz)


def lanes_function(formula: Callable[..., Lanes], dtype: np.dtype[Any], ftz: bool) -> Callable[..., Lanes]:  # fmt: skip
    """Return *formula* (:data:`UNARY_OPS` or :func:`divide`) on lanes of *dtype* in one mode.

    The front end keeps it for an op's validated form: a call skips the dispatch on the dtype
    and the mode (the half functions become one table lookup).

    Examples
    --------
    >>> exp = lanes_function(UNARY_OPS["Exp"], np.dtype(np.float16), ftz=True)
    >>> exp(np.float16([0.0, 1.0]))
    array([1.   , 2.719], dtype=float16)
    >>> lanes_function(divide, np.dtype(np.int16), ftz=True)(np.int16([7]), np.int16([2]))
    array([3], dtype=int16)
    """
    if isinstance(formula, _Function):
        return formula.lanes_function(dtype, ftz)
    if formula is divide and dtype.kind == "f":
        return lambda a, b: _float_divide(a, b, ftz)
    return lambda *lanes: formula(*lanes, ftz=ftz)


def square_root(values: Lanes, *, ftz: bool = True) -> Lanes:
    """``sqrt(x)`` per lane, correctly rounded: negative -> NaN, ``-0`` -> ``-0``.

    Computed in float64 and rounded to the lane format: innocuous double rounding, as in
    :func:`divide`. No square root of a half/float is subnormal.

    Examples
    --------
    >>> square_root(np.array([2.0, -0.0, -1.0], np.float16))
    array([ 1.414, -0.   ,    nan], dtype=float16)
    """
    return elementary("sqrt", values, ftz=ftz)


UNARY_OPS: dict[str, Callable[..., Lanes]] = {
    "Sqrt": _FUNCTIONS["sqrt"],
    "Exp": _FUNCTIONS["exp"],
    "Ln": _FUNCTIONS["ln"],
    "Log": _FUNCTIONS["ln"],
    "Log2": _FUNCTIONS["log2"],
    "Log10": _FUNCTIONS["log10"],
}
"""The lane function of each correctly rounded unary op: ``f(lanes, *, ftz=True)``.

Examples
--------
>>> UNARY_OPS["Log10"](np.array([1000.0, 1e-45], np.float32), ftz=False)
array([  3.     , -44.85347], dtype=float32)
"""
