"""Recorded runs: the type of every parameter, local, member and result a kernel held.

:func:`record` traces the Python frames of the functions defined in the given files while a
run executes (under ``policy(execution="eager")``, so every loop iteration runs as written) and
keeps, per function and per binding of its template parameters, the :class:`~ascreg.emit._ctype.CType`
of each value each variable held and the range of its integer values.

Examples
--------
>>> import ascreg
>>> from ascreg.examples import select_vf
>>> with record(select_vf) as seen:
...     _ = select_vf.main(200)
[Success] Reg.Select VF (Compare EQ + Select, 200 half elements) matches numpy.
>>> rec = seen.merged(select_vf.__file__, "SelectVF")
>>> sorted(t.describe() for t in rec.locals["mask"].types)
['AscendC::Reg::MaskReg']
>>> rec.params["count"].low, rec.params["count"].high
(200, 200)
"""

from __future__ import annotations

import contextlib
import re
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import Scalar
from ascreg.emit._ctype import CType, ctype_of, int_range

FACTORY = re.compile(r"^.*<locals>\.")
"""The qualname prefix dropped from a function's name: the function it is nested in (ascreg
recompiles a batched VF or a masked SIMT body inside a factory function, a port may make its VF
in one)."""
INTERNAL = ("_ascreg", "__ascreg")
"""Prefixes of the locals ascreg's rewritten functions add; they are not the kernel's."""


@attrs.define
class Seen:
    """Every type one variable held, and the range of its integer values."""

    types: set[CType] = attrs.field(factory=set)
    low: int | None = None
    high: int | None = None

    def add(self, value: Any) -> None:
        """Record one value (of thread lanes, only the minimum: their type is their dtype's)."""
        self.types.add(ctype_of(value))
        if isinstance(value, np.ndarray):  # a host array has no C++ type: its values do not matter
            lanes = type(value).__name__ == "Lanes"
            if (
                lanes
                and value.dtype.kind in "iu"
                and value.size
                and (self.low is None or self.low >= 0)
            ):
                low = int(value.view(np.ndarray).min())  # not the subclass: no per-lane machinery
                self.low = low if self.low is None else min(self.low, low)
                self.high = max(self.high or 0, low)
            return
        found = int_range(value)
        if found is None and type(value).__name__ == "Ref":
            found = int_range(value.value)
        if found is not None:
            low, high = found
            self.low = low if self.low is None else min(self.low, low)
            self.high = high if self.high is None else max(self.high, high)

    def merge(self, other: Seen) -> None:
        """Add what *other* saw."""
        self.types |= other.types
        for value in (other.low, other.high):
            if value is not None:
                self.low = value if self.low is None else min(self.low, value)
                self.high = value if self.high is None else max(self.high, value)

    @property
    def nonnegative(self) -> bool:
        """Every integer value seen was >= 0 (and one was seen)."""
        return self.low is not None and self.low >= 0


Binding = tuple[tuple[str, Any], ...]
"""The scalar types a function's names stood for in one call (template arguments)."""


@attrs.define
class FunctionRecord:
    """What one function's frames held, over every call with one template binding."""

    calls: int = 0
    params: dict[str, Seen] = attrs.field(factory=dict)
    locals: dict[str, Seen] = attrs.field(factory=dict)
    members: dict[str, Seen] = attrs.field(factory=dict)
    returns: Seen = attrs.field(factory=Seen)
    last: dict[str, Any] = attrs.field(factory=dict, repr=False, eq=False)
    """The object each local held at the last line seen (unchanged ones are skipped)."""

    def merge(self, other: FunctionRecord) -> None:
        """Add what *other* saw."""
        self.calls += other.calls
        self.returns.merge(other.returns)
        for mine, theirs in (
            (self.params, other.params),
            (self.locals, other.locals),
            (self.members, other.members),
        ):
            for name, seen in theirs.items():
                mine.setdefault(name, Seen()).merge(seen)


def _key(code: types.CodeType) -> tuple[str, str]:
    return code.co_filename, FACTORY.sub("", code.co_qualname)


class Recording:
    """What a traced run saw, per function (file and qualified name) and template binding.

    Made by :func:`record`; :func:`ascreg.emit.emit` takes one as its ``run``.

    Examples
    --------
    >>> from ascreg.examples import shiftright_vf
    >>> with record(shiftright_vf) as seen:
    ...     _ = shiftright_vf.main()  # doctest: +ELLIPSIS
    [Success] ...
    >>> rec = seen.merged(shiftright_vf.__file__, "ShiftRightVF")
    >>> rec.calls, sorted(t.describe() for t in rec.locals["src"].types)
    (1, ['AscendC::Reg::RegTensor<int16_t>'])
    """

    def __init__(self, files: set[str]) -> None:
        self.files = files
        self.functions: dict[tuple[str, str], dict[Binding, FunctionRecord]] = {}
        self.instances: dict[type, dict[str, Seen]] = {}
        """The members of the instances of each user class the traced frames held (a dataclass
        the kernel only passes on has no traced method: its members are seen here)."""
        self.instantiations: dict[tuple[str, str], dict[Binding, dict[str, Seen]]] = {}
        """The same per binding of the members holding scalar types (a class template's
        instantiation: ``Kernel(half, int32_t, n)`` stores ``half`` and ``int32_t``), by the file
        and qualified name of the class (a test port is imported twice: two class objects)."""

    def bindings(self, filename: str, qualname: str) -> dict[Binding, FunctionRecord]:
        """Return the records of one function, by template binding (empty: it never ran)."""
        return self.functions.get((filename, FACTORY.sub("", qualname)), {})

    def merged(self, filename: str, qualname: str) -> FunctionRecord:
        """Every call of one function, whatever its binding."""
        total = FunctionRecord()
        for rec in self.bindings(filename, qualname).values():
            total.merge(rec)
        return total

    # -- tracing ---------------------------------------------------------------------------

    def _call(self, frame: types.FrameType) -> FunctionRecord:
        code = frame.f_code
        local = frame.f_locals
        binding = tuple(
            sorted(
                (name, value)
                for name, value in (
                    *((n, frame.f_globals.get(n)) for n in code.co_names),
                    *((n, local.get(n)) for n in code.co_varnames[: code.co_argcount]),
                )
                if _is_type(value)
            )
        )
        if code.co_argcount and code.co_varnames[0] == "self":
            binding = tuple(
                sorted({*binding, *type_members(local.get("self"))}, key=lambda b: b[0])
            )
        rec = self.functions.setdefault(_key(code), {}).setdefault(binding, FunctionRecord())
        rec.calls += 1
        for name in code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]:
            if name in local:
                rec.params.setdefault(name, Seen()).add(local[name])
        return rec

    def _line(self, frame: types.FrameType, rec: FunctionRecord) -> None:
        last = rec.last
        for name, value in frame.f_locals.items():
            user = _is_user_instance(value)
            if user:  # its members change while the object stays: look at them every line
                self._instance(value, rec.members if name == "self" else None)
            if last.get(name) is value and type(value).__name__ != "Ref":
                continue  # the same object as at the last line: nothing new to see
            last[name] = value
            if name.startswith(INTERNAL) or type(value).__name__ == "Unbound":
                continue
            rec.locals.setdefault(name, Seen()).add(value)

    def _instance(self, value: Any, members: dict[str, Seen] | None) -> None:
        """Record the members of a user class instance (per class, and as *members* of ``self``)."""
        by_class = self.instances.setdefault(type(value), {})
        instantiations = self.instantiations.setdefault(class_key(type(value)), {})
        by_binding = instantiations.setdefault(type_members(value), {})
        for member, held in vars(value).items():
            by_class.setdefault(member, Seen()).add(held)
            by_binding.setdefault(member, Seen()).add(held)
            if members is not None:
                members.setdefault(member, Seen()).add(held)

    def tracer(self) -> Callable[[types.FrameType, str, Any], Any]:
        """Return the global trace function (``sys.settrace``) of this recording."""
        files = self.files

        def trace(frame: types.FrameType, event: str, arg: Any) -> Any:
            code = frame.f_code
            if event != "call" or code.co_filename not in files or code.co_name == "<module>":
                return None
            rec = self._call(frame)

            def local(frame: types.FrameType, event: str, arg: Any) -> Any:
                if event == "line":
                    self._line(frame, rec)
                elif event == "return":
                    self._line(frame, rec)
                    rec.returns.add(arg)
                return local

            return local

        return trace


def class_key(cls: type) -> tuple[str, str]:
    """Return a class by its source file and qualified name."""
    module = sys.modules.get(cls.__module__)
    return str(getattr(module, "__file__", "")), cls.__qualname__


def _is_type(value: Any) -> bool:
    """Return whether *value* is a scalar or SIMT vector type (``half``, ``half2``)."""
    return isinstance(value, type) and (issubclass(value, Scalar) or hasattr(value, "cpp_name"))


def type_members(value: Any) -> Binding:
    """Return the members of a user class instance that hold scalar types, sorted by name."""
    if not _is_user_instance(value):
        return ()
    return tuple(sorted((m, v) for m, v in vars(value).items() if _is_type(v)))


def _is_user_instance(value: Any) -> bool:
    """Return whether *value* is an instance of a user class (a port's, a bundled example's)."""
    kind = type(value)
    module = kind.__module__
    if module.startswith("ascreg.") and not module.startswith("ascreg.examples"):
        return False
    if module in ("builtins", "numpy") or isinstance(value, type) or callable(value):
        return False
    return hasattr(value, "__dict__") and not isinstance(value, types.ModuleType)


def _file_of(target: Any) -> str:
    if isinstance(target, str):
        return target
    if isinstance(target, types.ModuleType):
        return str(target.__file__)
    code = getattr(_unwrap(target), "__code__", None)
    if code is None:
        raise TypeError(f"record() takes modules, functions or file names, not {target!r}")
    return str(code.co_filename)


def _unwrap(target: Any) -> Any:
    """Return the Python function under ascreg's wrappers (qualifiers, kernels, templates)."""
    seen = set()
    while id(target) not in seen:
        seen.add(id(target))
        inner = getattr(target, "__wrapped__", None) or getattr(target, "func", None)
        if inner is None:
            break
        target = inner
    return target


@contextlib.contextmanager
def record(*targets: Any) -> Iterator[Recording]:
    """Trace what the functions of *targets* (modules, functions or file names) hold.

    The ``with`` body runs under ``ascreg.policy(execution="eager")`` (a batched loop does not
    run its body line by line) with a trace function on the frames of those files only.

    Examples
    --------
    >>> from ascreg.examples import tail_vf
    >>> with record(tail_vf) as seen:
    ...     _ = tail_vf.main()  # doctest: +ELLIPSIS
    [Success] tail VF ...
    >>> seen.merged(tail_vf.__file__, "TailVF").calls
    1
    """
    from ascreg.errors import policy

    recording = Recording({_file_of(t) for t in targets})
    previous = sys.gettrace()
    sys.settrace(recording.tracer())
    try:
        with policy(execution="eager"):
            yield recording
    finally:
        sys.settrace(previous)
