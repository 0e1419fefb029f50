"""Random straight-line ``__simd_vf__`` loops, and the calls that run them, as data.

The batched-vs-eager differential tests (``tests/machine/test_batch_equivalence.py``) need VFs
whose loops the batching machinery accepts, and some it must refuse. The loop analysis reads a
function's source (``inspect.getsourcelines``), so a :class:`Program` is Python source text: a
prelude (registers, masks, ``Ref`` boxes), one ``for i in range(n)`` loop whose body is drawn
from :data:`OPS` (the row-wise ops of ``ascreg.engine.batching`` on the Reg or the C API
surface, with dtypes legal by ``ascreg._spec.SPECS``), and a ``finally`` that hands every local
(registers, masks, ``Ref`` values, the loop variable) to ``RECORD``, also when the VF raises.
:func:`compile_vf` registers the text in :mod:`linecache` under a unique fake file name,
executes it and decorates the function with ``ascreg.__simd_vf__``.

A :class:`Call` says how one call runs: iteration count, the mask count (tails and full
tiles), data, scalar arguments, and where the buffers live (the same ones again, new
allocations, a reset or a new UB, an offset or misaligned pointer).

Every random decision goes through a :class:`Chooser`, so the same generator serves hypothesis
(:class:`DrawChooser`, which shrinks towards the first option and towards "nothing unusual")
and a plain seeded ``random.Random`` (:class:`SeededChooser`, for deterministic statistics).
The unusual cases (a register read before it is written, a negative shift count, a misaligned
or out-of-bounds address, a store into another iteration's loads) come from
:meth:`Chooser.rarely`.
"""

from __future__ import annotations

import itertools
import linecache
import random
import string
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np
from hypothesis import strategies as st

import ascreg
import ascreg.c_api as C  # noqa: N812 (the C namespace)
from ascreg import Reg, bool_, int16_t, uint8_t
from ascreg._dtypes import Kind, Scalar
from ascreg._spec import SPECS
from ascreg.machine.memory import Pointer
from reference.common import boundary_bits

X = TypeVar("X")
VL = 256
SHIFT_SCALAR = int16_t
"""The count type of ``ShiftRights`` / ``asc_shiftright_scalar``."""

# -- choosing ------------------------------------------------------------------------------------


class Chooser(Protocol):
    """Where the generator's decisions come from."""

    def pick(self, options: Sequence[X]) -> X:
        """Return one of *options* (the first is the simplest)."""
        ...

    def number(self, low: int, high: int) -> int:
        """Return an integer in ``[low, high]``."""
        ...

    def rarely(self, percent: int) -> bool:
        """Return True in about *percent* % of the draws (an unusual case)."""
        ...


class DrawChooser:
    """Decisions drawn by hypothesis (``st.data()``): they shrink to the first option, the low
    number, and False."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def pick(self, options: Sequence[X]) -> X:
        return options[self.data.draw(st.integers(0, len(options) - 1))]

    def number(self, low: int, high: int) -> int:
        return int(self.data.draw(st.integers(low, high)))

    def rarely(self, percent: int) -> bool:
        return bool(self.data.draw(st.integers(0, 99)) >= 100 - percent)


class SeededChooser:
    """Decisions from ``random.Random(seed)``: the same seed gives the same programs."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def pick(self, options: Sequence[X]) -> X:
        return options[self.random.randrange(len(options))]

    def number(self, low: int, high: int) -> int:
        return self.random.randint(low, high)

    def rarely(self, percent: int) -> bool:
        return self.random.randrange(100) < percent


# -- the op table --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Form:
    """One spelling of an op: its ``SPECS`` row and a ``string.Template`` of the statement.

    Placeholders: ``$d`` destination register, ``$a`` ``$b`` source registers, ``$s`` the
    shift-count register, ``$g`` a destination mask, ``$m`` ``$sel`` a mask operand, ``$k`` a
    scalar of the element type, ``$h`` a shift count scalar, ``$t`` a new register the call
    returns, ``$T`` the element type.
    """

    row: str
    text: str

    def fields(self) -> list[str]:
        return string.Template(self.text).get_identifiers()


@dataclass(frozen=True)
class Op:
    """An op family with its forms on each surface (``reg``, ``c_api``)."""

    name: str
    reg: tuple[Form, ...]
    c_api: tuple[Form, ...]

    def forms(self, surface: str) -> tuple[Form, ...]:
        return self.reg if surface == "reg" else self.c_api


MODES = ("EQ", "NE", "LT", "GT", "GE", "LE")
"""Every ``CMPMODE``; the C API spells them ``asc_eq`` ... ``asc_le``."""


def _table() -> list[Op]:
    ops = []
    for name in ("Add", "Sub", "Mul", "Max", "Min", "And", "Or", "Xor"):
        low = name.lower()
        ops.append(
            Op(
                name,
                (Form(f"Reg.{name}", f"Reg.{name}($d, $a, $b, $m)"),),
                (Form(f"asc_{low}", f"asc_{low}($d, $a, $b, $m)"),),
            )
        )
    for name in ("Not", "Abs", "Neg", "Relu"):
        low = name.lower()
        ops.append(
            Op(
                name,
                (Form(f"Reg.{name}", f"Reg.{name}($d, $a, $m)"),),
                (Form(f"asc_{low}", f"asc_{low}($d, $a, $m)"),),
            )
        )
    for name in ("Add", "Mul", "Max", "Min"):
        low = name.lower()
        ops.append(
            Op(
                f"{name}s",
                (Form(f"Reg.{name}s", f"Reg.{name}s($d, $a, $k, $m)"),),
                (Form(f"asc_{low}_scalar", f"asc_{low}_scalar($d, $a, $k, $m)"),),
            )
        )
    compare, compares = [], []
    for mode in MODES:
        low = mode.lower()
        compare.append(
            (
                Form("Reg.Compare", f"Reg.Compare[$T, CMPMODE.{mode}]($g, $a, $b, $m)"),
                Form(f"asc_{low}", f"asc_{low}($g, $a, $b, $m)"),
            )
        )
        compares.append(
            (
                Form("Reg.Compares", f"Reg.Compares[$T, CMPMODE.{mode}]($g, $a, $k, $m)"),
                Form(f"asc_{low}_scalar", f"asc_{low}_scalar($g, $a, $k, $m)"),
            )
        )
    for name, pairs in (("Compare", compare), ("Compares", compares)):
        ops.append(Op(name, tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)))
    for direction in ("Right", "Left"):
        low = direction.lower()
        reg = f"Reg.Shift{direction}"
        c_row = f"asc_shift{low}"
        ops.append(
            Op(
                f"Shift{direction}",
                (Form(reg, f"{reg}($d, $a, $s, $m)"),),
                (
                    Form(c_row, f"{c_row}($d, $a, $s, $m)"),
                    Form(c_row, f"$t = {c_row}($a, $s, $m)"),
                ),
            )
        )
        ops.append(
            Op(
                f"Shift{direction}s",
                (Form(f"{reg}s", f"{reg}s($d, $a, $h, $m)"),),
                (
                    Form(f"{c_row}_scalar", f"{c_row}_scalar($d, $a, $h, $m)"),
                    Form(f"{c_row}_scalar", f"$t = {c_row}_scalar($a, $h, $m)"),
                ),
            )
        )
    ops += [
        Op(
            "Select",
            (Form("Reg.Select", "Reg.Select($d, $a, $b, $sel)"),),
            (Form("asc_select", "asc_select($d, $a, $b, $sel)"),),
        ),
        Op(
            "Duplicate",
            (
                Form("Reg.Duplicate", "Reg.Duplicate($d, $k, $m)"),
                Form("Reg.Duplicate", "Reg.Duplicate($d, $k)"),
            ),
            (
                Form("asc_duplicate_scalar", "asc_duplicate_scalar($d, $k, $m)"),
                Form("asc_duplicate_scalar", "asc_duplicate_scalar($d, $k)"),
            ),
        ),
        Op(
            "Move",
            (Form("Reg.Move", "Reg.Move($d, $a, $m)"),),
            (Form("asc_copy", "asc_copy($d, $a, $m)"),),
        ),
    ]
    return ops


OPS: list[Op] = _table()
"""The row-wise compute ops (loads, stores and ``UpdateMask`` are generated separately)."""

DTYPES = {
    "reg": ["uint16_t", "int32_t", "float", "half", "int8_t", "uint8_t", "int16_t", "uint32_t",
            "bfloat16_t", "int64_t", "uint64_t", "bool", "fp8_e4m3fn_t"],
    "c_api": ["uint16_t", "int32_t", "float", "half", "int8_t", "uint8_t", "int16_t", "uint32_t",
              "bfloat16_t", "fp8_e4m3fn_t"],
}  # fmt: skip
"""The element types a program may use, by C++ name, the most common first (the C API has no
64-bit ``UpdateMask``, so its programs stay at 32 bits, and no register of ``bool`` lanes:
``vector_bool`` is its mask)."""


def scalar_type(cpp_name: str) -> type[Scalar]:
    return next(t for t in _SCALARS if t.cpp_name == cpp_name)


_SCALARS: list[type[Scalar]] = [
    v
    for v in vars(ascreg).values()
    if isinstance(v, type) and issubclass(v, Scalar) and v is not Scalar
]


def legal(row: str, *dtypes: type[Scalar]) -> bool:
    """Return True if *row* accepts *dtypes* as its leading dtype roles."""
    return any(combo[: len(dtypes)] == dtypes for combo in SPECS[row].combos)


def shift_type(dtype: type[Scalar]) -> type[Scalar] | None:
    """Return the count type of ``ShiftRight`` on *dtype* registers, or None."""
    return next((c[1] for c in SPECS["Reg.ShiftRight"].combos if c[0] is dtype), None)


def legal_forms(
    op: Op, surface: str, dtype: type[Scalar], shift: type[Scalar] | None
) -> list[Form]:
    """Return *op*'s forms on *surface* that take *dtype* registers (and *shift* counts)."""
    return [
        form
        for form in op.forms(surface)
        if (legal(form.row, dtype, shift) if "s" in form.fields() else legal(form.row, dtype))
    ]


# -- programs --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Access:
    """One load or store per iteration: the parameter it goes through and its element index.

    *index* is a Python expression of ``i`` (the loop index), ``k`` (the iteration's ordinal,
    for post-update addresses) and ``n``.
    """

    param: str
    index: str
    store: bool

    def bounds(self, iterations: range, lanes: int) -> tuple[int, int]:
        """Return the lowest element and one past the highest element the access touches."""
        n = len(iterations)
        ends = [(iterations[0], 0), (iterations[-1], n - 1)]
        values = [eval(self.index, {"i": i, "k": k, "n": n}) for i, k in ends]
        return min(values), max(values) + lanes


@dataclass
class Program:
    """One generated VF: its source and what a call must provide."""

    name: str
    surface: str
    dtype: type[Scalar]
    shift: type[Scalar] | None
    params: list[str]
    """Pointer parameters, ``p0`` ... (element type *dtype*) and ``q0`` (shift counts)."""
    accesses: list[Access]
    step: int
    """The loop's range step (``range(0, step * n, step)``)."""
    source: str
    uses: set[str] = field(default_factory=set)
    """The op names and forms used (for hypothesis events)."""

    @property
    def lanes(self) -> int:
        return VL // self.dtype.size

    def iterations(self, n: int) -> range:
        return range(0, self.step * n, self.step)

    def param_type(self, param: str) -> type[Scalar]:
        if param.startswith("q"):
            assert self.shift is not None
            return self.shift
        return self.dtype

    def extent(self, param: str, n: int) -> tuple[int, int]:
        """Return the lowest and one past the highest element *param*'s accesses touch."""
        spans = [
            a.bounds(self.iterations(n), self.lanes) for a in self.accesses if a.param == param
        ]
        if not spans:
            return 0, self.lanes
        return min(s[0] for s in spans), max(s[1] for s in spans)


_NAMES = itertools.count()


class _Builder:
    """The state of one program being drawn: which registers and masks hold values."""

    INPUTS = ("p0", "p1")
    OUTPUTS = ("p2", "p3")

    def __init__(self, choose: Chooser, surface: str | None, focus: str | None) -> None:
        self.choose = choose
        self.surface = choose.pick(["reg", "c_api"]) if surface is None else surface
        self.focus = None if focus is None else next(op for op in OPS if op.name == focus)
        dtypes = [scalar_type(name) for name in DTYPES[self.surface]]
        if self.focus is not None:
            dtypes = [t for t in dtypes if legal_forms(self.focus, self.surface, t, shift_type(t))]
        self.T = choose.pick(dtypes)
        self.S = shift_type(self.T)
        self.lanes = VL // self.T.size
        masks = self.T if legal("Reg.CreateMask", self.T) else scalar_type(f"uint{self.T.bits}_t")
        self.mask_type = masks.__name__
        """The type of the Reg API masks (the unsigned type of the width for fp8 lanes)."""
        self.regs = ["r0", "r1", "r2", "r3"]
        self.masks = ["full", "g0", "g1"]
        self.written = {"full"}
        """Registers and masks the body has written so far (``full`` is set before the loop)."""
        self.prewritten: set[str] = set()
        """Registers given a value before the loop (read before the body writes them: a
        loop-carried register)."""
        if choose.rarely(15):
            self.prewritten.add(choose.pick(self.regs))
        self.refs: dict[str, tuple[str, list[int]]] = {}
        """Post-update address Refs: name -> (parameter, strides of its updates)."""
        self.accesses: list[Access] = []
        self.stored: set[str] = set()
        self.body: list[str] = []
        self.uses: set[str] = set()
        self.fresh = itertools.count()
        self.step = 2 if choose.rarely(10) else 1

    # -- operands --

    def source(self, pool: list[str]) -> str:
        """A register to read: one written earlier in the body, rarely any (unwritten or
        holding a pre-loop value: an error or a loop-carried register)."""
        ready = [r for r in pool if r in self.written or r in self.prewritten]
        if not ready or self.choose.rarely(2):
            return self.choose.pick(pool)
        return self.choose.pick(ready)

    def register(self) -> str:
        if not any(r in self.written for r in self.regs):
            self.load(self.choose.pick(self.regs))
        return self.source(self.regs)

    def scalar(self) -> str:
        if self.T.kind in (Kind.INT, Kind.UINT) and self.choose.rarely(5):
            self.uses.add("scalar from the loop index")
            return "i"
        return self.choose.pick(["k0", "k1"])

    def count(self) -> str:
        if self.choose.rarely(10):
            self.uses.add("shift count from the loop index")
            return self.choose.pick(["i % 5", "3 - i", "i - 1"])
        return self.choose.pick(["h0", str(self.choose.number(0, self.T.bits + 1))])

    def shift_register(self) -> str:
        if "s0" not in self.written and not self.choose.rarely(2):
            self.load("s0")
        return "s0"

    # -- addresses --

    def index(self, store: bool) -> str:
        """Return an element offset for one access: a Python expression of ``i`` and ``n``.

        Rows that overlap between iterations (the same address every time, half a register
        apart) are common for loads and rare for stores (they make the loop run eagerly).
        """
        L = self.lanes
        if self.choose.rarely(2):
            self.uses.add("bad address")
            return self.choose.pick([f"i * {L} + 1", f"i * {L + 1}", f"(i - 1) * {L}"])
        options = [
            f"i * {L}",
            f"i * {2 * L}",
            f"i * {L} + {32 // self.T.size * self.choose.number(1, 3)}",
        ]
        options.append(f"(n - 1 - i) * {L}")  # descending rows
        if not store or self.choose.rarely(5):  # stores of overlapping rows run eagerly
            options += [f"i * {L // 2}", "0"]
        return self.choose.pick(options)

    def address(self, param: str, store: bool) -> tuple[str, list[str]]:
        """Return (form, address operands) of one access through *param*.

        ``plain``: ``[p + offset]``; ``dist``: the same with an explicit distribution (Reg);
        ``offset``: ``[p, offset]`` (C API); ``post``: ``[ref, stride]``.
        """
        form = self.choose.pick(["plain", "plain", "other", "post"])
        if form == "post":
            return form, self.post_address(param, store)
        offset = self.index(store)
        self.accesses.append(Access(param, offset, store))
        if form == "other" and self.surface == "c_api":
            return "offset", [param, offset]
        pointer = param if offset == "0" else f"{param} + {offset}"
        return ("dist" if form == "other" else "plain"), [pointer]

    def post_address(self, param: str, store: bool) -> list[str]:
        L = self.lanes
        stride = self.choose.pick(
            [L, 2 * L, L // 2] if not store or self.choose.rarely(5) else [L, 2 * L]
        )
        mine = [name for name, (p, _) in self.refs.items() if p == param]
        if mine and self.choose.rarely(10):
            self.uses.add("a Ref updated twice")
            ref = mine[0]
        else:
            ref = f"a{len(self.refs)}"
            self.refs[ref] = (param, [])
        strides = self.refs[ref][1]
        # iteration k's access: k times the Ref's whole advance per iteration (known once the
        # body is complete: build() substitutes it) plus the updates before this one
        self.accesses.append(Access(param, f"k * ${ref} + {sum(strides)}", store))
        strides.append(stride)
        return [ref, str(stride)]

    # -- statements --

    def emit(self, line: str) -> None:
        self.body.append(line)

    def load(self, reg: str) -> None:
        if reg == "s0":
            param, T = "q0", self.S
        else:
            T = self.T
            param = self.choose.pick(self.OUTPUTS if self.choose.rarely(4) else self.INPUTS)
        assert T is not None
        form, where = self.address(param, store=False)
        function = {
            ("reg", "plain"): "Reg.LoadAlign",
            ("reg", "dist"): f"Reg.LoadAlign[{T.__name__}, LoadDist.DIST_NORM]",
            ("reg", "post"): f"Reg.LoadAlign[{T.__name__}, PostLiteral.POST_MODE_UPDATE]",
            ("c_api", "plain"): "asc_loadalign",
            ("c_api", "offset"): "asc_loadalign",
            ("c_api", "post"): "asc_loadalign_postupdate",
        }[self.surface, form]
        self.uses.add(f"load {form}")
        self.emit(f"{function}({reg}, {', '.join(where)})")
        self.written.add(reg)

    def store(self) -> None:
        outputs = [p for p in self.OUTPUTS if p not in self.stored] or list(self.OUTPUTS)
        param = self.choose.pick(list(self.INPUTS) if self.choose.rarely(4) else outputs)
        self.stored.add(param)
        reg = self.register()
        mask = self.mask()
        form, where = self.address(param, store=True)
        T = self.T.__name__
        dist = {1: "DIST_NORM_B8", 2: "DIST_NORM_B16", 4: "DIST_NORM_B32"}.get(self.T.size)
        function = {
            ("reg", "plain"): "Reg.StoreAlign",
            ("reg", "dist"): f"Reg.StoreAlign[{T}, StoreDist.{dist}]" if dist else "Reg.StoreAlign",
            ("reg", "post"): f"Reg.StoreAlign[{T}, PostLiteral.POST_MODE_UPDATE]",
            ("c_api", "plain"): "asc_storealign",
            ("c_api", "offset"): "asc_storealign",
            ("c_api", "post"): "asc_storealign_postupdate",
        }[self.surface, form]
        operands = [where[0], reg, *where[1:], mask]  # (address, src, [offset | stride], mask)
        self.uses.add(f"store {form}")
        self.emit(f"{function}({', '.join(operands)})")

    def mask(self) -> str:
        return self.source(self.masks)

    def update_mask(self) -> None:
        count = "remaining"
        if self.choose.rarely(5):
            self.uses.add("a count made in the body")
            count = self.choose.pick(
                ["Ref(count)", "Ref(count + i)", f"Ref(count - i * {self.lanes})"]
            )
        if self.surface == "reg":
            self.emit(f"m = Reg.UpdateMask[{self.mask_type}]({count})")
        else:
            self.emit(f"m = asc_update_mask_b{8 * self.T.size}({count})")
        self.masks.append("m")
        self.written.add("m")
        self.uses.add("UpdateMask")

    def operation(self, op: Op | None = None) -> None:
        if op is None:
            op = self.choose.pick([o for o in OPS if legal_forms(o, self.surface, self.T, self.S)])
        form = self.choose.pick(legal_forms(op, self.surface, self.T, self.S))
        values: dict[str, str] = {"T": self.T.__name__}
        for name in form.fields():  # sources before the destination: reads come first
            if name in ("a", "b"):
                values[name] = self.register()
            elif name == "s":
                values[name] = self.shift_register()
            elif name in ("m", "sel"):
                values[name] = self.mask()
            elif name == "k":
                values[name] = self.scalar()
            elif name == "h":
                values[name] = self.count()
        if "d" in form.fields():
            values["d"] = self.choose.pick(self.regs)
            self.written.add(values["d"])
        if "g" in form.fields():
            values["g"] = self.choose.pick(["g0", "g1"])
            self.written.add(values["g"])
        if "t" in form.fields():
            values["t"] = f"t{next(self.fresh)}"
            self.regs.append(values["t"])
            self.written.add(values["t"])
        self.uses.add(op.name)
        self.emit(string.Template(form.text).substitute(values))

    # -- the program --

    def statement(self) -> None:
        """Emit an op, a load or a store."""
        choose = self.choose
        kind = choose.pick(["op", "op", "load", "store", "op"])
        if kind == "store" and len(self.stored) == len(self.OUTPUTS) and not choose.rarely(20):
            kind = "op"  # another store into an output would overlap another iteration's
        if kind == "op":
            self.operation()
        elif kind == "load":
            self.load(choose.pick(self.regs))
        else:
            self.store()

    def draw_body(self) -> None:
        choose = self.choose
        if not choose.rarely(15):
            self.update_mask()
        for _ in range(choose.number(1, 2)):
            self.load(choose.pick(self.regs))
        statements = choose.number(0, 6)
        focus_at = choose.number(0, statements) if self.focus is not None else -1
        for position in range(statements + 1):
            if position == focus_at:
                self.operation(self.focus)
            if position < statements:
                self.statement()
        if not choose.rarely(10):
            self.store()

    def new_register(self, dtype: type[Scalar] | None) -> str:
        if dtype is None:
            return "vector_bool()" if self.surface == "c_api" else "Reg.MaskReg()"
        if self.surface == "c_api":
            return f"{C.vector_of(dtype).__name__}()"
        return f"Reg.RegTensor[{dtype.__name__}]()"

    def prelude(self) -> list[str]:
        T = self.T
        lines = [f"{reg} = {self.new_register(T)}" for reg in ("r0", "r1", "r2", "r3")]
        if self.S is not None:
            lines.append(f"s0 = {self.new_register(self.S)}")
        lines += [f"{mask} = {self.new_register(None)}" for mask in ("g0", "g1")]
        if self.surface == "c_api":
            lines.append(f"full = asc_create_mask_b{8 * T.size}(PAT_ALL)")
            dup = "asc_duplicate_scalar"
        else:
            lines.append(f"full = Reg.CreateMask[{self.mask_type}]()")
            dup = "Reg.Duplicate"
        lines.append("remaining = Ref(count)")
        lines += [f"{ref} = Ref({param})" for ref, (param, _) in self.refs.items()]
        lines += [f"{dup}({reg}, k1, full)" for reg in sorted(self.prewritten)]
        return lines

    def build(self) -> Program:
        self.draw_body()
        prelude = self.prelude()
        loop = "range(n)" if self.step == 1 else f"range(0, {self.step} * n, {self.step})"
        totals = {ref: sum(strides) for ref, (_, strides) in self.refs.items()}
        accesses = [
            Access(a.param, string.Template(a.index).substitute(totals), a.store)
            for a in self.accesses
        ]
        program = make_program(
            f"generated_vf_{next(_NAMES)}", self.surface, self.T, prelude, self.body, accesses, loop
        )
        program.step, program.uses = self.step, self.uses
        return program


def make_program(
    name: str,
    surface: str,
    dtype: type[Scalar],
    prelude: list[str],
    body: list[str],
    accesses: list[Access],
    loop: str = "range(n)",
) -> Program:
    """Return the program ``def name(p0, ..., count, n, k0, k1, h0)``: *prelude*, then *body*
    in ``for i in <loop>``, then ``RECORD(locals())`` in a ``finally``.

    Its parameters: ``p0`` ... ``p3`` point to *dtype* elements (loads mostly through ``p0``
    and ``p1``, stores through ``p2`` and ``p3``), ``q0`` (if *dtype* has a ``ShiftRight``)
    to shift counts; ``count`` is the tail count, ``n`` the iteration count, ``k0`` and ``k1``
    scalars of *dtype*, ``h0`` a shift count.
    """
    shift = shift_type(dtype)
    params = ["p0", "p1", "p2", "p3"] + (["q0"] if shift is not None else [])
    signature = ", ".join([*params, "count", "n", "k0", "k1", "h0"])
    source = (
        f"def {name}({signature}):\n"
        + textwrap.indent("\n".join(prelude), " " * 4)
        + f"\n    try:\n        for i in {loop}:\n"
        + textwrap.indent("\n".join(body), " " * 12)
        + "\n    finally:\n        RECORD(locals())\n"
    )
    return Program(name, surface, dtype, shift, params, accesses, 1, source)


def draw_program(choose: Chooser, surface: str | None = None, focus: str | None = None) -> Program:
    """Return a random program (see the module docstring) on *surface* (None: either), whose
    body calls the op named *focus* (an ``OPS`` name) at least once."""
    return _Builder(choose, surface, focus).build()


# -- compiling -------------------------------------------------------------------------------------


def namespace() -> dict[str, Any]:
    """The globals of a generated VF: the Reg and C API names, the dtypes, the enums."""
    names: dict[str, Any] = {k: v for k, v in vars(C).items() if not k.startswith("_")}
    names.update({k: v for k, v in vars(ascreg).items() if not k.startswith("_")})
    names["Reg"] = Reg
    return names


def compile_vf(program: Program, record: Callable[[dict[str, Any]], None]) -> Any:
    """Return the ``__simd_vf__`` function of *program*; its locals go to *record* at the end."""
    filename = f"<{program.name}>"
    lines = program.source.splitlines(keepends=True)
    linecache.cache[filename] = (len(program.source), None, lines, filename)
    scope = namespace()
    scope["RECORD"] = record
    exec(compile(program.source, filename, "exec"), scope)
    return ascreg.__simd_vf__(scope[program.name])


# -- calls -------------------------------------------------------------------------------------------

PLACES = ("same", "new allocations", "new UB", "reset UB")
"""Where a call's buffers live: the previous call's buffers, new allocations in the same UB, a
new UB, or the same UB reset (the same addresses, new allocations)."""


@dataclass
class Call:
    """One call of a program."""

    n: int
    count: int
    seed: int
    data: str
    """``"bits"`` (any bit patterns), ``"bounds"`` (boundary values), ``"small"``."""
    k: tuple[int, int]
    """The element-type scalars' bit patterns."""
    h: int
    slack: dict[str, int]
    """Elements allocated past (negative: short of) what each parameter's accesses touch."""
    offset: int
    """Elements the pointer arguments are moved by (a multiple of 32 bytes)."""
    misaligned: str | None = None
    """A parameter passed one element past its buffer's start (a misaligned address)."""
    negative_shift: bool = False
    """One lane of the shift counts is negative (its iteration raises)."""
    place: str = "same"


def draw_count(choose: Chooser, n: int, lanes: int) -> int:
    kind = choose.pick(["tail", "full", "short", "any"])
    if kind == "tail":
        return n * lanes - choose.number(1, lanes - 1)
    if kind == "full":
        return n * lanes
    if kind == "short":
        return max(0, (n - 1) * lanes - choose.number(0, lanes - 1))
    return choose.number(0, (n + 2) * lanes)


def draw_call(
    choose: Chooser, program: Program, *, n: int | None = None, count: int | None = None
) -> Call:
    """Return a random call of *program* (*n*, *count*: fixed instead of drawn)."""
    if n is None:  # one iteration (never batched) only rarely: hypothesis favours the bounds
        n = 1 if choose.rarely(5) else choose.number(2, 40)
    lanes = program.lanes
    bits = program.dtype.bits
    slack = {}
    for param in program.params:
        slack[param] = 0
        if choose.rarely(30):
            slack[param] = choose.pick([lanes, 32 // program.dtype.size, 1])
        elif choose.rarely(2):
            slack[param] = -choose.number(1, lanes)  # the last access runs past the buffer
    return Call(
        n=n,
        count=draw_count(choose, n, lanes) if count is None else count,
        seed=choose.number(0, 2**32 - 1),
        data=choose.pick(["bits", "bounds", "small"]),
        k=(choose.number(0, (1 << bits) - 1), choose.number(0, (1 << bits) - 1)),
        h=choose.number(0, SHIFT_SCALAR.bits) if not choose.rarely(5) else -choose.number(1, 3),
        slack=slack,
        offset=choose.pick([0, 32 // program.dtype.size, lanes]),
        misaligned=choose.pick(program.params) if choose.rarely(3) else None,
        negative_shift=choose.rarely(20),
        place=choose.pick(PLACES),
    )


def draw_calls(choose: Chooser, program: Program, calls: int) -> list[Call]:
    """Return *calls* calls; some alternate a full tile and the tail of a host loop."""
    if choose.rarely(50):  # a host loop over tiles: full, full, ..., tail, and again
        n = choose.number(2, 16)
        tail = n * program.lanes - choose.number(1, program.lanes - 1)
        return [
            draw_call(choose, program, n=n, count=tail if k % 2 else n * program.lanes)
            for k in range(calls)
        ]
    return [draw_call(choose, program) for _ in range(calls)]


# -- data ----------------------------------------------------------------------------------------------


def element_bits(dtype: type[Scalar], values: Any) -> Any:
    """Return *values* (unsigned bit patterns) as an array of *dtype*."""
    return np.asarray(values, dtype=f"<u{dtype.size}").view(dtype.np_dtype)


def scalar_value(dtype: type[Scalar], bits: int) -> Any:
    """Return the numpy scalar of *dtype* whose bit pattern is *bits*."""
    if dtype is bool_:
        return np.bool_(bits & 1)
    return element_bits(dtype, [bits & ((1 << dtype.bits) - 1)])[0]


def fill(dtype: type[Scalar], size: int, call: Call, rng: np.random.Generator) -> Any:
    """Return *size* elements of *dtype* as raw bytes, in the call's kind of data."""
    if dtype is bool_:
        return rng.integers(0, 2, size).astype(np.uint8)
    if call.data == "bounds":
        try:
            bounds = boundary_bits(dtype)
        except (KeyError, ValueError):
            bounds = [0, 1, (1 << dtype.bits) - 1]
        values = np.asarray(bounds, dtype=np.uint64)[rng.integers(0, len(bounds), size)]
        return values.astype(f"<u{dtype.size}").view(np.uint8)
    if call.data == "small":
        small = rng.integers(0, 8, size)
        if dtype.kind is Kind.FLOAT and dtype.np_dtype.itemsize > 1:
            return small.astype(dtype.np_dtype).view(np.uint8)
        return small.astype(f"<u{dtype.size}").view(np.uint8)
    return rng.integers(0, 256, size * dtype.size, dtype=np.uint8)


def shift_counts(dtype: type[Scalar], size: int, bits: int, call: Call, rng: Any) -> Any:
    """Return *size* shift counts (mostly 0 .. bits + 1; one negative if the call says so)."""
    counts = rng.integers(0, bits + 2, size)
    if call.negative_shift:
        counts[rng.integers(0, size)] = -rng.integers(1, 4)
    return counts.astype(dtype.np_dtype).view(np.uint8)


def buffer_sizes(program: Program, call: Call) -> dict[str, int]:
    """Return each parameter's buffer size in elements (its accesses' extent, the slack and
    the argument offset)."""
    sizes = {}
    for param in program.params:
        _, high = program.extent(param, call.n)
        sizes[param] = max(1, high + call.slack[param] + call.offset + 1)
    return sizes


def write_data(
    pointers: dict[str, Pointer[Any]], program: Program, call: Call, sizes: dict[str, int]
) -> None:
    """Write the call's data into each parameter's buffer (through a byte view)."""
    rng = np.random.default_rng(call.seed)
    for param, pointer in pointers.items():
        dtype = program.param_type(param)
        size = sizes[param]
        if param.startswith("q"):
            raw = shift_counts(dtype, size, program.dtype.bits, call, rng)
        else:
            raw = fill(dtype, size, call, rng)
        pointer.cast(uint8_t).write(raw)


def arguments(program: Program, call: Call, pointers: dict[str, Pointer[Any]]) -> list[Any]:
    """Return the VF's arguments: pointers (moved by the call's offset), counts, scalars."""
    moved = []
    for param in program.params:
        pointer = pointers[param] + call.offset
        if param == call.misaligned:
            pointer = pointer + 1
        moved.append(pointer)
    k0, k1 = (scalar_value(program.dtype, bits) for bits in call.k)
    return [*moved, call.count, call.n, k0, k1, call.h]


def describe(program: Program, calls: Sequence[Call]) -> str:
    """The program's source and its calls, for a failure report."""
    return program.source + "\n" + "\n".join(f"call {j}: {c}" for j, c in enumerate(calls))
