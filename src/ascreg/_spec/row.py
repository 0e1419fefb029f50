"""One row of the op table (:class:`OpSpec`) and the mask rules a row names."""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable, Mapping
from typing import Any, Literal

import attrs

from ascreg._dtypes import Scalar
from ascreg._spec.shapes import REGISTER_FILE_KINDS, CShape, RegShape, Shape
from ascreg.errors import IllegalDtypeError
from ascreg.machine.complex import refuse_complex

Combo = tuple[type[Scalar], ...]
"""One legal dtype combination: one dtype per role."""

Surface = Literal["reg", "c_api", "simt", "basic"]
"""The programming surface a row belongs to."""

SURFACES: tuple[Surface, ...] = ("reg", "c_api", "simt", "basic")
"""Every surface, in table order."""
C_API_QUALIFIER = "c_api."
"""Prefix of the key of a C API row whose spelling a SIMT row also has (see ``OpSpec.spelling``)."""
BASIC_QUALIFIER = "basic."
"""Prefix of the key of every memory-level basic-API row (``basic.Adds`` is ``ascreg.basic.Adds``:
the bare name would not say which surface's ``Adds`` it is)."""


class MaskRule(enum.Enum):
    """How an op treats lanes its mask does not select."""

    ZEROING = "masked-off destination lanes become 0"
    MERGING = "masked-off destination lanes keep their old value"
    SELECTOR = "the mask chooses between the two sources; nothing is zeroed"
    STORE = "masked-off lanes are not written to memory"
    PREDICATE = "the predicate mask's unselected bits become 0"
    NONE = "the op takes no mask"
    REDUCE = "masked-off source lanes count as the reduction's identity (0, type-min, type-max)"
    SQUEEZE = "the mask picks the source lanes packed from lane 0 up; the remaining lanes become 0"


LANE_RULES = frozenset({MaskRule.ZEROING, MaskRule.MERGING, MaskRule.SELECTOR, MaskRule.PREDICATE})
"""The mask rules of lane-wise ops: each destination lane (or mask bit) comes from the same lane
of the sources and the mask."""


@attrs.frozen
class OpSpec:
    """One row of the table: everything about one spelling of one op.

    Attributes
    ----------
    name
        The spelling users call, e.g. ``"Reg.ShiftRight"`` or ``"asc_shiftright"``; the key of
        ``SPECS`` (a memory-level basic-API row is keyed ``"basic.<name>"``).
    cpp
        The C++ / C name (``"AscendC::Reg::ShiftRight"``).
    roles
        What each dtype position is (``("src", "shift")``).
    combos
        Every legal dtype tuple, in the documentation's order.
    mask
        The mask rule.
    source
        Where the facts come from (a path in the asc-devkit repository): the doc source.
    surface
        ``"reg"``, ``"c_api"``, ``"simt"`` or ``"basic"`` (the memory-level basic API).
    family
        The underlying op this spelling belongs to, shared by its twins on other surfaces
        (``Reg.ShiftRight`` and ``asc_shiftright`` are both ``"ShiftRight"``); see
        :func:`~ascreg._spec.family_rows`.
    shape
        How the op is called: its module, overload forms and subscripts
        (``ascreg._spec.shapes``).
    core
        The function that does the op's work, as ``"<module>:<attribute path>"``
        (``"ascreg.core.shifts:zeroing_shift"``); a path step into a dict is its key
        (``"ascreg.core.arith:BINARY_OPS.Add"``). :meth:`core_function` resolves it.
    aliases
        Older spellings of the same op on the same surface, still written by operator code
        (``("Reg.MaskAnd",)`` on ``Reg.And``): the surface module binds each to the op itself
        (or, for a ``RegShape.fixed`` alias, to the op with its lead template argument fixed).

    Examples
    --------
    >>> from ascreg._spec import SPECS
    >>> row = SPECS["Reg.ShiftRight"]
    >>> row.surface, row.family, row.core
    ('reg', 'ShiftRight', 'ascreg.core.shifts:zeroing_shift')
    >>> row.core_function().__name__
    'zeroing_shift'
    """

    name: str
    cpp: str
    roles: tuple[str, ...]
    combos: tuple[Combo, ...]
    mask: MaskRule
    source: str
    surface: Surface = attrs.field(kw_only=True, validator=attrs.validators.in_(SURFACES))
    family: str = attrs.field(kw_only=True)
    shape: Shape = attrs.field(kw_only=True, repr=False)
    core: str = attrs.field(kw_only=True)
    aliases: tuple[str, ...] = attrs.field(default=(), kw_only=True)
    _legal: frozenset[Combo] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_legal", frozenset(self.combos))

    @property
    def spelling(self) -> str:
        """Return the name users call, the row's key without the ``c_api.`` or ``basic.`` qualifier.

        A C API function whose C++ overload set shares its name with a SIMT function (the
        register reduce ``asc_reduce_max`` and the warp reduce ``asc_reduce_max``) has its row
        keyed ``c_api.<name>``, so both rows fit in ``SPECS``; a memory-level basic-API op is
        keyed ``basic.<name>``; every other key is the spelling.

        Examples
        --------
        >>> from ascreg._spec import SPECS
        >>> SPECS["c_api.asc_reduce_max"].spelling, SPECS["asc_reduce_max"].surface
        ('asc_reduce_max', 'simt')
        >>> SPECS["basic.Adds"].spelling
        'Adds'
        """
        return self.name.removeprefix(C_API_QUALIFIER).removeprefix(BASIC_QUALIFIER)

    @property
    def lanewise(self) -> bool:
        """Return True when the row is a lane-wise op of the register file.

        Derived from the row's data, never from its name: a lane mask rule
        (``LANE_RULES``), every parameter of every form a register, a mask, a scalar or a
        plain integer (``REGISTER_FILE_KINDS``), and a vector op of the Reg or C API surface
        (not a kernel-level function, not SIMT). Such an op runs on a batch of loop iterations
        by construction: its core function and mask rule compute each iteration's lanes from
        that iteration's operands alone (``ascreg.engine``).

        Examples
        --------
        >>> from ascreg._spec import SPECS
        >>> SPECS["Reg.Exp"].lanewise, SPECS["asc_gt"].lanewise, SPECS["Reg.Reduce"].lanewise
        (True, True, False)
        >>> SPECS["Reg.LoadAlign"].lanewise
        False
        """
        shape = self.shape
        if not isinstance(shape, RegShape | CShape) or getattr(shape, "kernel", False):
            return False
        return self.mask in LANE_RULES and all(
            param.kind in REGISTER_FILE_KINDS for form in shape.forms for param in form.params
        )

    def is_legal(self, *dtypes: type[Scalar]) -> bool:
        """Return True when *dtypes* is one of the legal combinations."""
        return dtypes in self._legal

    def check(self, *dtypes: type[Scalar]) -> None:
        """Raise :class:`~ascreg.errors.IllegalDtypeError` unless *dtypes* is legal.

        A complex operand (``complex32`` / ``complex64``) raises
        :class:`~ascreg.errors.UnsupportedError` instead: see :mod:`ascreg.machine.complex`.
        """
        if dtypes not in self._legal:
            refuse_complex(self.spelling, *dtypes)
            raise IllegalDtypeError(
                f"illegal dtypes ({self.describe(dtypes)}); legal: {self.legal_text()}",
                call=self.spelling,
            )

    def check_prefix(self, *dtypes: type[Scalar]) -> None:
        """Like :meth:`check` for the leading positions only (template arguments may stop early)."""
        n = len(dtypes)
        if not any(combo[:n] == dtypes for combo in self.combos):
            raise IllegalDtypeError(
                f"illegal template dtypes ({self.describe(dtypes)}); legal: {self.legal_text()}",
                call=self.spelling,
            )

    def describe(self, dtypes: tuple[Any, ...]) -> str:
        """Render a dtype tuple with its roles: ``src=uint16_t, shift=int16_t``."""
        names = [getattr(d, "cpp_name", repr(d)) for d in dtypes]
        return ", ".join(f"{r}={n}" for r, n in zip(self.roles, names, strict=False))

    def legal_text(self) -> str:
        """Render the legal combinations compactly."""
        if len(self.roles) == 1:
            return ", ".join(c[0].cpp_name for c in self.combos)
        return "; ".join("(" + ", ".join(d.cpp_name for d in c) + ")" for c in self.combos)

    def core_function(self) -> Callable[..., Any]:
        """Import and return the function :attr:`core` names.

        Raises
        ------
        TypeError
            When the path names something that is not callable.
        """
        module_name, _, path = self.core.partition(":")
        target: Any = importlib.import_module(module_name)
        for step in path.split("."):
            target = target[step] if isinstance(target, Mapping) else getattr(target, step)
        if not callable(target):
            raise TypeError(f"{self.name}: core {self.core!r} is not callable")
        return target  # type: ignore[no-any-return]
