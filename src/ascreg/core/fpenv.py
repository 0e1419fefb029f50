"""A cheap ``np.errstate(all="ignore")``: floating-point exceptions are data in the lane formulas.

Overflow to inf, ``0/0``, ``log(0)`` and NaN operands are IEEE results of the ops ascreg
emulates, not reasons for numpy to warn. ``np.errstate(all="ignore")`` builds a new error-state
object on every entry (about 1.5 us, several times the cost of a numpy function on one
register); :func:`quiet` and :func:`quietly` install one prebuilt object (0.2 to 0.4 us). It is
numpy's own context variable (:data:`STATE`), so a section nests and is thread-safe like
``np.errstate``.

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

import functools
from collections.abc import Callable
from types import TracebackType
from typing import Any, ParamSpec, TypeVar

import numpy as np

P = ParamSpec("P")
R = TypeVar("R")


class _Global:
    """Numpy's error state as ``np.seterr`` (process-wide) where numpy hides its variable."""

    def set(self, _value: Any) -> Any:
        return np.seterr(all="ignore")

    def reset(self, token: Any) -> None:
        np.seterr(**token)


try:  # numpy >= 2.0 keeps the error state in this context variable
    from numpy._core import _ufunc_config

    _VARIABLE = _ufunc_config._extobj_contextvar  # type: ignore[attr-defined]

    with np.errstate(all="ignore"):
        IGNORE: Any = _VARIABLE.get()
    STATE: Any = _VARIABLE
except (
    ImportError,
    AttributeError,
):  # pragma: no cover - another numpy layout: process-wide np.seterr
    IGNORE, STATE = None, _Global()
"""``token = STATE.set(IGNORE)`` ... ``STATE.reset(token)``: the section, written out in the
hottest lane functions (where even the call of :func:`quietly`'s wrapper counts)."""


class _Quiet:
    """The context of :func:`quiet`: sets numpy's error state to "ignore", then restores it."""

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        self._token = STATE.set(IGNORE)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        STATE.reset(self._token)


def quiet() -> _Quiet:
    """Return a context in which numpy ignores every floating-point exception.

    Examples
    --------
    >>> import numpy as np
    >>> with quiet():
    ...     np.log(np.float32([0.0, -1.0])).tolist()
    [-inf, nan]
    """
    return _Quiet()


def quietly(function: Callable[P, R]) -> Callable[P, R]:
    """Decorate *function* to run in a :func:`quiet` section.

    Examples
    --------
    >>> import numpy as np
    >>> quietly(np.divide)(np.float32([1.0, 0.0]), np.float32(0.0)).tolist()
    [inf, nan]
    """

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        token = STATE.set(IGNORE)
        try:
            return function(*args, **kwargs)
        finally:
            STATE.reset(token)

    return run
