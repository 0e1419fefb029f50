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

from typing import Any

import numpy as np

from ascreg._frontend import operands
from ascreg._frontend.template import define
from ascreg.core import intrinsics
from ascreg.machine.simt.lanes import apply_lanewise

Arr = np.ndarray[Any, Any]


def _lanewise(op: Any, *values: Any) -> Any:
    """Convert the ``float`` arguments of *op*'s row and apply its formula."""
    names = op.spec.roles
    converted = [operands.c_float(op.name, n, v) for n, v in zip(names, values, strict=True)]
    return apply_lanewise(values, converted, op.formula)


@define("__saturatef", formula=staticmethod(intrinsics.saturatef))
def __saturatef(op: Any, x: Any) -> Any:
    """``float __saturatef(float x)``: clamp to [0, 1]; NaN gives 0.

    ``x <= 0`` (including ``-0.0``) gives ``+0.0``, ``x >= 1`` gives 1, ``0 < x < 1`` gives x.

    Examples
    --------
    >>> import numpy as np
    >>> __saturatef(np.array([-3, 0.5, 7, np.nan], np.float32))
    array([0. , 0.5, 1. , 0. ], dtype=float32)
    """
    return _lanewise(op, x)


@define("__fdividef", formula=staticmethod(intrinsics.fdividef))
def __fdividef(op: Any, x: Any, y: Any) -> Any:
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
    return _lanewise(op, x, y)


@define("fdividef", formula=staticmethod(intrinsics.fdividef))
def fdividef(op: Any, x: Any, y: Any) -> Any:
    """``float fdividef(float x, float y)`` (``math_functions.h``): the same as :func:`__fdividef`.

    Examples
    --------
    >>> import numpy as np
    >>> fdividef(np.float32(3), np.float32(-0.0))
    np.float32(-inf)
    """
    return _lanewise(op, x, y)
