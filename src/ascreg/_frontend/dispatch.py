"""Older names that stand for more than one op, resolved by the kinds of the operands.

``AscendC::Reg::DataCopy`` is the older name of both ``LoadAlign`` and ``StoreAlign`` (C++
overload resolution picks one from the argument types); ``DataCopyUnAlign`` of both
``LoadUnAlign`` and ``StoreUnAlign``. A :class:`KindDispatch` keeps that choice explicit: an
ordered list of routes, each a description of the form it accepts, a test of the operand kinds
and the op it forwards to (with the subscript, if one was written). No route matching is an
error that lists the accepted forms.

Examples
--------
>>> from ascreg import Reg, UnifiedBuffer, half
>>> p = UnifiedBuffer().alloc(half, 128); r = Reg.RegTensor[half](); r.set(1.5)
>>> Reg.DataCopy(p, r, Reg.CreateMask[half]())  # a pointer first: StoreAlign
>>> Reg.DataCopy[half](r, p); float(r.get()[0])  # a register first: LoadAlign
1.5
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ascreg.errors import AscregTypeError

Route = tuple[str, Callable[[tuple[Any, ...]], bool], Any]
"""``(accepted form, test of the positional operands, target op)``."""


class KindDispatch:
    """An older op name forwarding each call to the op its operand kinds select.

    Parameters
    ----------
    name
        The older spelling (``"Reg.DataCopy"``), named by errors.
    routes
        The accepted forms, tried in order.
    items
        The template arguments written as a subscript (``None``: none), passed on to the target.

    Examples
    --------
    >>> d = KindDispatch("Reg.Twice", (("Twice(int x)", lambda a: isinstance(a[0], int), abs),))
    >>> d(-3)
    3
    >>> d("x")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: Reg.Twice: no form takes (str); the forms are: Twice(int x)
    """

    _ascreg_call = "dispatch"
    """(``errors.CALL_MARKER``) An ascreg call: a batched VF loop may make it; it forwards to
    an op, whose own entry point a plan records."""
    _ascreg_forwarder = True  # (errors.FORWARDER_MARKER: nothing but the forwarded op happens)

    def __init__(self, name: str, routes: tuple[Route, ...], items: Any = None) -> None:
        self.name = name
        self.routes = routes
        self.items = items

    def __repr__(self) -> str:
        return f"<{self.name} (older name of {', '.join(r[2].name for r in self.routes)})>"

    def __getitem__(self, items: Any) -> KindDispatch:
        return KindDispatch(self.name, self.routes, items)

    def __call__(self, *args: Any) -> Any:
        """Forward to the first route whose test accepts *args*; none accepting is an error."""
        for _form, accepts, target in self.routes:
            if accepts(args):
                return (target if self.items is None else target[self.items])(*args)
        kinds = ", ".join(type(a).__name__ for a in args)
        forms = "; ".join(form for form, _accepts, _target in self.routes)
        raise AscregTypeError(f"no form takes ({kinds}); the forms are: {forms}", call=self.name)
