"""The cost model: how many cycles each recorded instruction takes on dav-3510.

A :class:`CostTable` maps a key to a :class:`Cost`, ``issue + per_unit * units`` cycles, and
says where each figure comes from. The keys:

``"<op>:<dtype>"``, ``"<op>:b<bits>"``, ``"<op>"``
    A vector instruction inside a ``__simd_vf__`` (Reg and C API register ops); the unit is one
    repeat (one 256-byte vector register, ``VL``). ``<op>`` is the C++ name (``Add``,
    ``LoadAlign``) or, where the C API has figures of its own, its spelling (``asc_add_scalar``);
    ``<dtype>`` the C++ spelling of the register's element type (``float``, ``half``). A
    lookup tries the exact dtype, then the element width, then the op alone, then ``"vector"``.
``"vector"``
    Any other vector instruction (one repeat).
``"MTE2"``, ``"MTE3"``, ``"MTE1"``
    A copy on that pipe (GM -> UB, UB -> GM, ...): ``issue`` is its fixed latency, the unit a
    byte of its destination.
``"memory"``, ``"<op>"``
    A vector instruction issued from the kernel body on whole UB tensors (``asc_transpose``, a
    UB -> UB ``DataCopy``); the unit is a byte.
``"scalar"``, ``"issue"``, ``"vf_call"``, ``"simt"``
    One scalar instruction; the scalar unit dispatching one instruction to another pipe; starting
    a VF (its launch and the pipeline's drain); one SIMT device-function call (a unit: a warp).
``"set_flag"``, ``"wait_flag"``, ``"pipe_barrier"``, ``"barrier"``
    A flag set; a flag wait (its own cost, not the stall); an in-pipe barrier; a ``PIPE_ALL``
    barrier (its own cost, after every pipe drains).

:data:`DAV_3510` is the default. Its vector figures are the theoretical parallelism the
asc-devkit documentation publishes for the 950 (elements per cycle, turned into cycles per
repeat); its copy figures are PyPTO's cost-model fit for the 950 (``PostSimulatorA5``); its
flag figures PyPTO's ``SYNC_OP_CYCLES``; the rest are marked ``"estimate"``. Override any
entry with :meth:`CostTable.override`, or fit entries to a real profiler trace with
:func:`ascreg.profile.fit_costs`.

Examples
--------
>>> DAV_3510.vector_cost("Add", "Add", "float")
Cost(issue=0.0, per_unit=1.0, source='asc-devkit ...: 64 elements/cycle (float -> float)')
>>> DAV_3510.vector_cost("Exp", "Exp", "float").per_unit
4.0
>>> faster = DAV_3510.override({"MTE2": Cost(100, 1 / 128, "measured")})
>>> faster["MTE2"].cycles(4096), DAV_3510["MTE2"].issue
(132.0, 1406.0)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from ascreg.errors import AscregError
from ascreg.profile import _dav3510

VL = 256
"""Bytes in one vector register: one repeat of a vector instruction."""

ESTIMATE = "estimate"
"""The provenance of a figure nobody published: a round number of the right order."""


@attrs.frozen
class Cost:
    """The time of one instruction: ``issue + per_unit * units`` cycles, and where it comes from.

    Attributes
    ----------
    issue
        Fixed cycles per instruction (its issue latency; a copy's fixed latency).
    per_unit
        Cycles per unit of work: one 256-byte repeat of a vector instruction, one byte of a copy.
    source
        The provenance: a published figure (with its document), a cost model's constant, or
        ``"estimate"``.

    Examples
    --------
    >>> Cost(2, 0.5, "estimate").cycles(8)
    6.0
    """

    issue: float = attrs.field(default=0.0, converter=float)
    per_unit: float = attrs.field(default=0.0, converter=float)
    source: str = ESTIMATE

    @issue.validator
    @per_unit.validator
    def _not_negative(self, attribute: Any, value: float) -> None:
        if not value >= 0:
            raise AscregError(
                f"Cost.{attribute.name} is {value!r}: a time is a non-negative number of cycles",
                call="Cost",
            )

    def cycles(self, units: float = 1.0) -> float:
        """Return the cycles of one instruction doing *units* units of work.

        Examples
        --------
        >>> Cost(1406, 0.0105).cycles(0)
        1406.0
        """
        return self.issue + self.per_unit * units


def _entries(found: Mapping[str, Cost]) -> dict[str, Cost]:
    """Return a private copy of *found* (a table's entries never change)."""
    return dict(found)


@attrs.frozen(repr=False)
class CostTable(Mapping[str, Cost]):
    """A named, read-only mapping of cost keys to :class:`Cost` (see the module docstring).

    Attributes
    ----------
    name
        What the table describes (``"dav-3510"``).
    clock_ghz
        The core clock the summary converts cycles to microseconds with.
    clock_source
        Where that clock comes from.
    entries
        The costs by key.

    Examples
    --------
    >>> DAV_3510.name, DAV_3510.clock_ghz, len(DAV_3510) > 300
    ('dav-3510', 1.6, True)
    """

    name: str
    clock_ghz: float
    clock_source: str
    entries: Mapping[str, Cost] = attrs.field(converter=_entries)

    def __getitem__(self, key: str) -> Cost:
        try:
            return self.entries[key]
        except KeyError:
            raise AscregError(
                f"the cost table {self.name!r} has no entry {key!r} (see "
                "ascreg.profile.costs for the keys)",
                call="CostTable",
            ) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        # the entries' full repr is ~100 KB: too long to read in a REPL, pdb or a signature
        return f"<CostTable {self.name!r}: {len(self)} entries, {self.clock_ghz} GHz>"

    def override(
        self,
        entries: Mapping[str, Cost] | None = None,
        *,
        name: str | None = None,
        clock_ghz: float | None = None,
        clock_source: str | None = None,
    ) -> CostTable:
        """Return a copy with *entries* added or replaced (and a new name or clock).

        Examples
        --------
        >>> t = DAV_3510.override({"Add:float": Cost(0, 2, "measured")}, clock_ghz=1.0)
        >>> t.vector_cost("Add", "Add", "float").per_unit, t.clock_ghz, t.name
        (2.0, 1.0, 'dav-3510 (overridden)')
        """
        for key, value in (entries or {}).items():
            if not isinstance(key, str) or not isinstance(value, Cost):
                raise AscregError(
                    f"an override maps a str key to a Cost, got {key!r}: {value!r}",
                    call="CostTable.override",
                )
        return CostTable(
            name=name
            or (self.name if self.name.endswith("(overridden)") else f"{self.name} (overridden)"),
            clock_ghz=self.clock_ghz if clock_ghz is None else float(clock_ghz),
            clock_source=clock_source or (self.clock_source if clock_ghz is None else "given"),
            entries={**self.entries, **(entries or {})},
        )

    def vector_cost(self, name: str, family: str, dtype: str) -> Cost:
        """Return the cost of one repeat of vector instruction *name* on elements of *dtype*.

        *name* is the spelling called (``"Add"``, ``"asc_add_scalar"``), *family* the C++ op it
        belongs to (``"Adds"``), *dtype* the C++ element type (``"float"``), ``"mask"`` for a
        mask register, or ``""`` when unknown.

        Examples
        --------
        >>> DAV_3510.vector_cost("asc_add_scalar", "Adds", "half").per_unit
        2.0
        >>> DAV_3510.vector_cost("Adds", "Adds", "half").per_unit
        1.0
        >>> DAV_3510.vector_cost("NoSuchOp", "NoSuchOp", "float").source
        'estimate: one cycle per repeat, the common figure of the published table'
        """
        return self[self.vector_key(name, family, dtype)]

    def vector_key(self, name: str, family: str, dtype: str) -> str:
        """Return the key :meth:`vector_cost` charges a vector instruction under.

        Examples
        --------
        >>> DAV_3510.vector_key("Reg.LoadAlign".removeprefix("Reg."), "LoadAlign", "float")
        'LoadAlign:b32'
        """
        entries = self.entries
        bits = _BITS.get(dtype)
        for op in dict.fromkeys((name, family)):
            for key in (f"{op}:{dtype}", f"{op}:b{bits}" if bits else None, op):
                if key is not None and key in entries:
                    return key
        return "vector"


_BITS = {
    "bool": 8, "int8_t": 8, "uint8_t": 8, "hifloat8_t": 8, "fp8_e4m3fn_t": 8, "fp8_e5m2_t": 8,
    "fp8_e8m0_t": 8, "int4x2_t": 8, "fp4x2_e1m2_t": 8, "fp4x2_e2m1_t": 8,
    "int16_t": 16, "uint16_t": 16, "half": 16, "bfloat16_t": 16,
    "int32_t": 32, "uint32_t": 32, "float": 32, "int64_t": 64, "uint64_t": 64, "double": 64,
    "b8": 8, "b16": 16, "b32": 32, "b64": 64,
}  # fmt: skip
"""Element width of each dtype spelling of the tables."""
_MASKS = ("MaskReg", "bool")
"""Dtype spellings of a mask operand (an op on masks is keyed by its other operand)."""


def _vector_entries(
    rows: tuple[tuple[str, str, str, str, float], ...], source: str
) -> dict[str, Cost]:
    """Turn published (op, variant, src, dst, elements/cycle) rows into cost entries.

    A repeat is one source register: ``VL / size(src)`` elements, so ``lanes / parallelism``
    cycles. A row keys its op under its source dtype (its destination's when the source is a
    mask) and, when the two differ, under its destination dtype too; where several rows meet
    on one key (variants of ``Reduce``, casts from several types), the slowest wins, and a
    strided form is kept as ``<op>.strided``. The op alone takes its slowest row.
    """
    found: dict[str, Cost] = {}

    def keep(key: str, cost: Cost) -> None:
        if key not in found or found[key].cycles() < cost.cycles():
            found[key] = cost

    for name, variant, src, dst, value in rows:
        op = f"{name}.{variant}" if variant == "strided" else name
        if value < 0:  # a fixed time per instruction (the MaskReg tables)
            keep(f"{op}:mask", Cost(-value, 0, f"{source}: {-value:g} cycle(s) per instruction"))
            continue
        width = _BITS[dst if src in _MASKS else src]
        per_repeat = VL * 8 / width / value
        text = f"{source}: {value:g} elements/cycle ({src} -> {dst})"
        cost = Cost(0, per_repeat, text)
        for dtype in dict.fromkeys((src, dst)):
            keep(f"{op}:{'mask' if dtype in _MASKS else dtype}", cost)
        keep(op, cost)
    return found


PYPTO_A5 = "PyPTO cost model, framework/src/cost_model/simulation/arch/A5/PostSimulatorA5.h"
"""PyPTO's fitted copy times for the 950 (``opLatencyA5_``; applied in
``PipeSimulatorFast::PostSimulate``: ``(r0 * bytes * 2 * 1e-6 + r1) * 2000 + 1`` cycles, plus
1400 cycles GM read latency for a copy in, 300 GM write latency for a copy out)."""
PYPTO_CYCLES = "PyPTO cost model, framework/src/interface/operation/cycles.h"
"""PyPTO's instruction constants (``SYNC_OP_CYCLES``, ``DEFAULT_LATENCY``)."""
DEVKIT_VECTOR = "asc-devkit docs/zh/api/附录/Vector指令理论性能汇总.md"
"""The asc-devkit appendix of kernel-level vector, copy and scalar instruction figures."""


def _copy(latency_cycles: float, us_per_byte: float, extra: float, what: str) -> Cost:
    """Return a copy's cost from PyPTO's A5 fit (microseconds at 2000 cycles per us)."""
    return Cost(
        round(latency_cycles * 2000 + 1 + extra),
        us_per_byte * 2 * 2000,
        f"{PYPTO_A5}: {what}",
    )


def _dav3510_entries() -> dict[str, Cost]:
    entries = _vector_entries(_dav3510.REG_ROWS, _dav3510.REG_SOURCE)
    entries.update(_vector_entries(_dav3510.C_API_ROWS, _dav3510.C_API_SOURCE))
    one_vl = Cost(
        0, 1, f"{ESTIMATE}: one cycle per repeat, the common figure of the published table"
    )
    per_vl = 1 / VL  # a kernel-level vector instruction at one VL per cycle, per byte
    entries.update(
        {
            "vector": one_vl,
            "MTE2": _copy(0.00240884, 2.613e-6, 1400, "UB_COPY_IN {2.613, 0.00240884} + 1400"),
            "MTE3": _copy(0.00195, 3.2883e-6, 300, "UB_COPY_OUT {3.2883, 0.00195} + 300"),
            "MTE1": _copy(0.0, 2.613e-6, 0, "L1_COPY_IN bandwidth, no GM latency"),
            "memory": Cost(10, per_vl, f"{PYPTO_CYCLES}: DEFAULT_LATENCY 10, one VL per cycle"),
            "DataCopy": Cost(10, per_vl, f"{DEVKIT_VECTOR}: DataCopy(UB->UB) 256 bytes/cycle"),
            "asc_transpose": Cost(10, per_vl, f"{DEVKIT_VECTOR}: Transpose 256 bytes/cycle"),
            "asc_transpose_sync": Cost(10, per_vl, f"{DEVKIT_VECTOR}: Transpose 256 bytes/cycle"),
            "asc_bitsort": Cost(10, 1 / 16, f"{DEVKIT_VECTOR}: Sort32 2 elements (8 bytes)/cycle"),
            "asc_mrgsort4": Cost(
                10, 1 / 16, f"{DEVKIT_VECTOR}: MrgSort 2 elements (8 bytes)/cycle"
            ),
            "scalar": Cost(1, 0, f"{DEVKIT_VECTOR}: scalar instructions 1 cycle/instruction"),
            "issue": Cost(1, 0, f"{ESTIMATE}: the scalar unit dispatches one instruction a cycle"),
            "vf_call": Cost(20, 0, f"{ESTIMATE}: starting a VF and draining its pipeline"),
            "set_flag": Cost(1, 0, f"{PYPTO_CYCLES}: SYNC_SRC 1"),
            "wait_flag": Cost(1, 0, f"{PYPTO_CYCLES}: SYNC_DST 1"),
            "pipe_barrier": Cost(18, 0, f"{PYPTO_CYCLES}: BAR.V 18"),
            "barrier": Cost(18, 0, f"{PYPTO_CYCLES}: BAR.V 18, taken for PIPE_ALL too"),
            "simt": Cost(0, 1, f"{ESTIMATE}: one cycle per SIMT device-function call"),
        }
    )
    return entries


DAV_3510 = CostTable(
    name="dav-3510",
    clock_ghz=1.6,
    clock_source="PyPTO cost model PostSimulatorA5::GetFreqTrans() = 1600 MHz",
    entries=_dav3510_entries(),
)
"""The default cost table: Ascend 950 (dav-3510); see the module docstring for its sources."""
