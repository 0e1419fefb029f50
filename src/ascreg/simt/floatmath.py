"""The SIMT float device functions ``__saturatef``, ``__fdividef`` and ``fdividef``.

Arguments are C ``float`` parameters. Accepted: Python ints and floats (converted as C converts a
``double`` to ``float``: rounded to nearest; a finite value beyond the float range is an error,
never a silent inf), and numpy float32 values or arrays (including per-thread
:class:`~ascreg.simt.Lanes`); ``half`` and ``bfloat16`` arrays are widened exactly, as C++
promotes them. A float64 or integer numpy array is an
:class:`~ascreg.errors.AscregTypeError`: cast it explicitly (ascreg never narrows silently).
Results are float32 (``Lanes`` if an argument was, a numpy scalar if every argument was a scalar).

Precision: ``__fdividef`` is implemented as the correctly rounded IEEE float32 quotient of the
subnormal-flushed inputs, with a subnormal quotient flushed to ±0 (the documented dav-3510
behaviour). The documentation promises no particular accuracy for the "fast" divide; hardware
results may differ from this in the last bit — ascreg has no hardware data to say.

Examples
--------
>>> import numpy as np
>>> from ascreg.simt import __saturatef, __fdividef
>>> float(__saturatef(1.5)), float(__fdividef(1, 2)), float(__fdividef(-1.0, 0.0))
(1.0, 0.5, -inf)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ml_dtypes
import numpy as np

from ascreg.errors import AscregTypeError
from ascreg.machine.simt.lanes import apply_lanewise
from ascreg.simt import _core

Arr = np.ndarray[Any, Any]
_F32 = np.dtype(np.float32)
_WIDENED = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))
_FLOAT_MAX = float(np.finfo(np.float32).max)


def _as_float(call: str, name: str, value: Any) -> Arr:
    """Convert one argument to a float32 array (0-d for scalars) or raise naming the rule."""
    if isinstance(value, bool | int | float) and not isinstance(value, np.generic):
        try:
            as_double = float(value)
        except OverflowError:  # a Python int beyond even double
            as_double = float("inf")
            value_is_finite = True
        else:
            value_is_finite = np.isfinite(as_double)
        with np.errstate(over="ignore"):
            converted = np.asarray(as_double, dtype=np.float64).astype(_F32)
        if value_is_finite and not np.isfinite(converted):
            raise AscregTypeError(
                f"argument '{name}' is {value!r}, outside the float range (±{_FLOAT_MAX:.6g}); "
                "converting it to float is undefined in C",
                call=call,
            )
        return converted
    array = np.asarray(value) if isinstance(value, np.ndarray | np.generic) else None
    if array is not None and array.dtype == _F32:
        return array
    if array is not None and array.dtype in _WIDENED:
        return array.astype(_F32)
    kind = array.dtype if array is not None else type(value).__name__
    raise AscregTypeError(
        f"argument '{name}' is {value!r:.60} ({kind}); the C parameter is a float: pass a Python "
        "number or float32 values (half/bfloat16 widen exactly; cast float64 or integer arrays "
        "explicitly, ascreg never narrows silently)",
        call=call,
    )


def _apply(call: str, names: Sequence[str], values: Sequence[Any], impl: Callable[..., Arr]) -> Any:
    converted = [_as_float(call, n, v) for n, v in zip(names, values, strict=True)]
    return apply_lanewise(values, converted, impl)


def __saturatef(x: Any) -> Any:
    """``float __saturatef(float x)``: clamp to [0, 1]; NaN gives 0.

    ``x <= 0`` (including ``-0.0``) gives ``+0.0``, ``x >= 1`` gives 1, ``0 < x < 1`` gives x.

    Examples
    --------
    >>> import numpy as np
    >>> __saturatef(np.array([-3, 0.5, 7, np.nan], np.float32))
    array([0. , 0.5, 1. , 0. ], dtype=float32)
    """
    _ascreg_call = "__saturatef"
    return _apply(_ascreg_call, ("x",), (x,), _core.saturatef)


def __fdividef(x: Any, y: Any) -> Any:
    """``float __fdividef(float x, float y)``: fast division (``device_functions.h``).

    Subnormal inputs and outputs are flushed to a zero of the same sign (dav-3510); otherwise
    the correctly rounded float32 quotient. ``x / 0`` is ±inf (sign of x times sign of 0),
    ``0 / 0`` and NaN operands give NaN.

    Examples
    --------
    >>> float(__fdividef(1, 2)), float(__fdividef(1, 0)), float(__fdividef(0, 0))
    (0.5, inf, nan)
    >>> float(__fdividef(1e-39, 1))  # a subnormal input is flushed
    0.0
    """
    _ascreg_call = "__fdividef"
    return _apply(_ascreg_call, ("x", "y"), (x, y), _core.fdividef)


def fdividef(x: Any, y: Any) -> Any:
    """``float fdividef(float x, float y)`` (``math_functions.h``): the same as :func:`__fdividef`.

    Examples
    --------
    >>> import numpy as np
    >>> fdividef(np.float32(3), np.float32(-0.0))
    np.float32(-inf)
    """
    _ascreg_call = "fdividef"
    return _apply(_ascreg_call, ("x", "y"), (x, y), _core.fdividef)
