"""A cheap ``np.errstate(all="ignore")``: floating-point exceptions are data in the lane formulas.

Overflow to inf, ``0/0``, ``log(0)`` and NaN operands are IEEE results of the ops ascreg
emulates, not reasons for numpy to warn. ``np.errstate(all="ignore")`` builds a new error-state
object on every entry (about 1.5 us, several times the cost of a numpy function on one register);
:func:`quiet` installs one prebuilt object (about 0.2 us). It is numpy's own context variable,
so the section nests and is thread-safe like ``np.errstate``; where numpy does not expose it,
:func:`quiet` is ``np.errstate(all="ignore")`` itself.

Examples
--------
>>> import numpy as np
>>> before = np.geterr()
>>> with quiet():
...     float(np.float32(3e38) * np.float32(10))
inf
>>> np.geterr() == before  # restored afterwards
True
"""

from __future__ import annotations

import contextvars
from types import TracebackType
from typing import Any

import numpy as np

try:  # numpy >= 2.0 keeps the error state in this context variable
    from numpy._core._ufunc_config import (
        _extobj_contextvar as _STATE,  # type: ignore[attr-defined,unused-ignore]
    )
except ImportError:  # pragma: no cover - another numpy layout: the public (slower) context
    _STATE = None

_IGNORE: Any = None
if _STATE is not None:
    with np.errstate(all="ignore"):
        _IGNORE = _STATE.get()


class _Quiet:
    """The context of :func:`quiet`: sets numpy's error state to "ignore", then restores it."""

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        self._token: contextvars.Token[Any] = _STATE.set(_IGNORE)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        _STATE.reset(self._token)


def quiet() -> Any:
    """Return a context in which numpy ignores every floating-point exception.

    Examples
    --------
    >>> import numpy as np
    >>> with quiet():
    ...     np.log(np.float32([0.0, -1.0])).tolist()
    [-inf, nan]
    """
    return _Quiet() if _STATE is not None else np.errstate(all="ignore")
