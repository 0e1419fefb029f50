"""``Ref``: the mutable box that stands for a C++ reference parameter.

C++ signatures such as ``UpdateMask<T>(uint32_t& count)`` or
``LoadAlign<T, POST_MODE_UPDATE>(dst, T*& src, stride)`` update the caller's variable. Python
has no references to locals, so the caller passes a ``Ref`` and reads ``.value`` afterwards.

Examples
--------
>>> from ascreg import Ref, Reg, uint16_t
>>> count = Ref(300)
>>> _ = Reg.UpdateMask[uint16_t](count)
>>> count.value
172
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from ascreg.errors import RefRequiredError

V = TypeVar("V")

EPOCH = [0]
"""Changes when a batched VF loop starts (:mod:`ascreg.engine.batch`): a ``Ref`` made during
the batched run of a loop body is that iteration's own variable, one made before it is carried
from iteration to iteration."""


class Ref(Generic[V]):
    """A mutable box holding one value (C++ ``T&``).

    Examples
    --------
    >>> r = Ref(5); r.value += 1; r
    Ref(6)
    """

    __slots__ = ("born", "value")

    def __init__(self, value: V) -> None:
        self.value = value
        self.born = EPOCH[0]

    def __repr__(self) -> str:
        return f"Ref({self.value!r})"


def require_ref(obj: Any, parameter: str) -> Ref[Any]:
    """Return *obj* if it is a :class:`Ref`, else raise :class:`RefRequiredError`.

    Examples
    --------
    >>> require_ref(3, "uint32_t& count")
    Traceback (most recent call last):
    ...
    ascreg.errors.RefRequiredError: the parameter 'uint32_t& count' is a C++ reference: pass ascreg.Ref(3), not the plain value 3
    """
    if not isinstance(obj, Ref):
        raise RefRequiredError(
            f"the parameter '{parameter}' is a C++ reference: pass ascreg.Ref({obj!r}), "
            f"not the plain value {obj!r}"
        )
    return obj
