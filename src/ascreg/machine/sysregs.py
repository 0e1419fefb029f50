"""The scalar unit's system registers and the cross-core sync counters of a launch.

One :class:`SystemRegisters` per running block (an AI Core's vector core) holds what the C API's
``asc_get_*`` / ``asc_set_*`` system-variable functions read and write: CTRL, the store-atomic
mode of the copy engine, the FFTS base address, and the deterministic stand-ins for values only
hardware knows (the cycle counter, the program counter). :class:`CoreSyncCounters` holds the 4-bit
flag counters of ``asc_sync_block_*``, ``asc_sync_subblock_*``, ``asc_sync_inter_*`` and
``asc_sync_intra_*``; it is shared by every block of one launch.

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()) as ctx:
...     regs = system_registers()
...     regs.ctrl, regs.next_cycle() < regs.next_cycle()
(0, True)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from ascreg.errors import SyncError
from ascreg.machine.block import BlockContext, current_block
from ascreg.machine.sync import Pipe

CTRL_RESET = 0
"""CTRL after reset (ascreg's choice; the value is not published): every documented bit 0 --
saturating float results (CTRL[48]), scalar reads straight from UB (CTRL[49]), truncating
integer results (CTRL[53]), normal mask mode (CTRL[56]), CTRL[59] saturating conversions."""
CTRL_BITS = (48, 49, 53, 56, 59)
"""The CTRL bits ``asc_set_ctrl`` documents."""
ARCH_VERSION = 0x3510
"""What ``asc_get_arch_ver`` reports: ascreg's stand-in for the dav-3510 core version (the
documented advice is to print it in hex)."""
PC_BASE = 0x1000
"""First value ``asc_get_program_counter`` returns in a block (then +4 per call: ascreg has no
instruction addresses, so each call reads the address of the next 4-byte instruction)."""
CONSTANT_REGISTERS = {"phy_stack_base": 0, "sys_virtual_base": 0, "smmu_tag_version": 0}
"""Registers that ascreg reports as 0 (no MMU, no stack in the emulator)."""
VA_REGISTERS = 8
"""The VA address registers (``VA0`` .. ``VA7``), eight UB addresses each."""
FLAG_IDS = 16
"""Flag ids of the cross-core sync instructions (0..15)."""
COUNTER_MAX = 15
"""The largest value of one 4-bit cross-core flag counter."""


@attrs.define
class CopyLoops:
    """The two loop registers around one direction's GM <-> UB copy (``asc_set_gm2ub_loop*``).

    A copy repeats ``sizes[1]`` times (outer, loop 2) ``sizes[0]`` times (inner, loop 1), each
    repetition offset by the loops' byte strides. The reset state (sizes 1, strides 0) is one
    copy. A size of 0 runs no copy at all (ascreg's reading of the documented range [0, 2**21)).

    Examples
    --------
    >>> list(CopyLoops((2, 2), (96, 192), (128, 288)).offsets())
    [(0, 0), (96, 128), (192, 288), (288, 416)]
    """

    sizes: tuple[int, int] = (1, 1)
    src_strides: tuple[int, int] = (0, 0)
    dst_strides: tuple[int, int] = (0, 0)

    def offsets(self) -> Iterator[tuple[int, int]]:
        """Yield ``(src, dst)`` byte offsets of every repetition, inner loop fastest."""
        if self.sizes == (1, 1):  # the reset state: one copy (the common case, kept cheap)
            return iter(_ONE_COPY)
        return self._repetitions()

    def _repetitions(self) -> Iterator[tuple[int, int]]:
        for outer in range(self.sizes[1]):
            for inner in range(self.sizes[0]):
                yield (
                    inner * self.src_strides[0] + outer * self.src_strides[1],
                    inner * self.dst_strides[0] + outer * self.dst_strides[1],
                )


_ONE_COPY = ((0, 0),)

NDIM = 5
"""Dimensions of ``asc_ndim_copy_gm2ub`` (loop 0 innermost)."""


@attrs.define
class NdimConfig:
    """The configuration registers of ``asc_ndim_copy_gm2ub``.

    ``strides[i]`` is loop *i*'s ``(dst, src)`` element stride (``asc_set_ndim_loop<i>_stride``),
    ``pad_counts`` the packed ``asc_ndim_pad_count_config`` of loops 1-4 (``(left, right)``
    bytes, loop 1 lowest) and ``pad_value`` the constant of ``asc_set_ndim_pad_value``.

    Examples
    --------
    >>> NdimConfig(pad_counts=0x0302).pads(1)
    (2, 3)
    """

    strides: list[tuple[int, int]] = attrs.field(factory=lambda: [(0, 0)] * NDIM)
    pad_counts: int = 0
    pad_value: Any = 0

    def pads(self, loop: int) -> tuple[int, int]:
        """Return loop *loop*'s (1..4) ``(left, right)`` pad counts."""
        shift = 16 * (loop - 1)
        return self.pad_counts >> shift & 0xFF, self.pad_counts >> (shift + 8) & 0xFF


@attrs.define
class SystemRegisters:
    """The system registers of one block (an AIV core).

    Attributes
    ----------
    ctrl
        The CTRL register (``asc_get_ctrl`` / ``asc_set_ctrl``).
    atomic
        The store-atomic mode of the copy engine: ``None`` (plain writes) or ``(op, dtype)``
        with *op* ``"add"``, ``"max"`` or ``"min"``.
    ffts_base
        The FFTS (cross-core sync) base address (``asc_set_ffts_base_addr``).
    cycles, pcs
        How many times ``asc_get_system_cycle`` / ``asc_get_program_counter`` were read.
    copy_loops
        The loop registers of the GM -> UB (``"gm2ub"``) and UB -> GM (``"ub2gm"``) copies.
    ndim
        The configuration of ``asc_ndim_copy_gm2ub``.
    va
        The eight VA address registers (``asc_set_va_reg``, read by ``asc_transto5hd_*``):
        eight UB addresses each, kept as the pointers they came from (so accesses through them
        stay bounds-checked), or ``None`` until set.
    """

    ctrl: int = CTRL_RESET
    atomic: tuple[str, Any] | None = None
    ffts_base: int = 0
    cycles: int = 0
    pcs: int = 0
    copy_loops: dict[str, CopyLoops] = attrs.field(
        factory=lambda: {"gm2ub": CopyLoops(), "ub2gm": CopyLoops()}
    )
    ndim: NdimConfig = attrs.field(factory=NdimConfig)
    va: list[tuple[Any, ...] | None] = attrs.field(factory=lambda: [None] * VA_REGISTERS)
    ctx: BlockContext | None = attrs.field(default=None, repr=False)

    def next_cycle(self) -> int:
        """Return the emulated system cycle count: strictly increasing and deterministic.

        It counts the block's recorded memory accesses plus the earlier reads, so work done
        between two reads makes the difference grow (it is no timing model).
        """
        self.cycles += 1
        accesses = self.ctx.tracker.count if self.ctx is not None else 0
        return accesses + self.cycles

    def next_pc(self) -> int:
        """Return the emulated program counter (:data:`PC_BASE`, then 4 more per read)."""
        self.pcs += 1
        return PC_BASE + 4 * (self.pcs - 1)


SYSREGS_STATE = "sysregs"
"""Block-state key of the block's :class:`SystemRegisters`."""


def system_registers(ctx: BlockContext | None = None) -> SystemRegisters:
    """Return the system registers of *ctx* (default: the running block), creating them.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext
    >>> ctx = BlockContext()
    >>> system_registers(ctx) is system_registers(ctx)
    True
    """
    ctx = ctx if ctx is not None else current_block()
    found = ctx.state.get(SYSREGS_STATE)
    if found is None:
        found = ctx.state[SYSREGS_STATE] = SystemRegisters(ctx=ctx)
    assert isinstance(found, SystemRegisters)
    return found


@attrs.define
class _Arrival:
    """One arrive not yet consumed: the block that sent it and what its pipe had done."""

    block: int
    pipe: Pipe
    done: dict[Pipe, int]


@attrs.define
class CoreSyncCounters:
    """The cross-core flag counters of one launch: ``(core, kind, flag id)`` -> arrivals.

    A vector-only launch runs one AIV core per block; the intra-block counters of the cube core
    (``core`` -1) receive the vector cores' ``asc_sync_intra_arrive`` and nothing consumes them.
    """

    pending: dict[tuple[int, str, int], list[_Arrival]] = attrs.field(factory=dict)

    def arrive(
        self, ctx: BlockContext, targets: list[int], kind: str, flag: int, pipe: Pipe
    ) -> None:
        """Add one arrival from *ctx*'s *pipe* to flag *flag* of every core in *targets*."""
        done = ctx.tracker.token(pipe)
        for core in targets:
            queue = self.pending.setdefault((core, kind, flag), [])
            if len(queue) >= COUNTER_MAX:
                raise SyncError(
                    f"the 4-bit counter of flag {flag} would exceed {COUNTER_MAX} (at most "
                    f"{COUNTER_MAX} arrivals may wait unconsumed; the chip raises an exception)"
                )
            queue.append(_Arrival(ctx.block_idx, pipe, done))

    def wait(self, ctx: BlockContext, kind: str, flag: int, pipe: Pipe) -> None:
        """Consume one arrival at *ctx*'s flag *flag*, ordering *pipe* after the sender's work.

        Raises
        ------
        SyncError
            When no arrival is pending: the core would block for good. ascreg runs the blocks
            of a launch one after another, so an arrival must come from this block or an
            earlier one.
        """
        queue = self.pending.get((ctx.block_idx, kind, flag))
        if not queue:
            raise SyncError(
                f"wait on flag {flag} with its counter at 0: no earlier arrive reached this core, "
                "so it would block for good (ascreg runs the blocks of a launch in order: an "
                "arrive must come from this block or an earlier one)"
            )
        arrival = queue.pop(0)
        if arrival.block == ctx.block_idx:
            ctx.tracker.acquire(pipe, arrival.done)

    def unconsumed(self) -> list[str]:
        """Describe the arrivals no wait consumed (the cube core's are not listed)."""
        return [
            f"core {core}, flag {flag} x{len(queue)}"
            for (core, _, flag), queue in self.pending.items()
            if queue and core >= 0
        ]


CORE_SYNC_STATE = "core_sync"
"""Launch-shared-state key of the :class:`CoreSyncCounters`."""


def core_sync_counters(ctx: BlockContext) -> CoreSyncCounters:
    """Return the cross-core counters of *ctx*'s launch (shared by its blocks).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext
    >>> shared = {}
    >>> a, b = BlockContext(0, 2, shared=shared), BlockContext(1, 2, shared=shared)
    >>> core_sync_counters(a) is core_sync_counters(b)
    True
    """
    found = ctx.shared.get(CORE_SYNC_STATE)
    if found is None:
        found = ctx.shared[CORE_SYNC_STATE] = CoreSyncCounters()
    assert isinstance(found, CoreSyncCounters)
    return found
