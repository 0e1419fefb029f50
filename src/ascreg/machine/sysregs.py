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
...     hex(regs.ctrl), regs.next_cycle() < regs.next_cycle()
('0x1001000000000008', True)
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from typing import Any

import attrs

from ascreg._dtypes import bfloat16_t, float32_t, half, int8_t, int16_t, int32_t
from ascreg.errors import SyncError, UnsupportedError
from ascreg.machine.block import BlockContext, current_block, running_block
from ascreg.machine.sync import Pipe

CTRL_DEFAULT = 0x1000000000000008
"""CTRL's documented default (what ``ResetCtrlSpr`` restores, kernel_operator_common_impl.h):
CTRL[60] = 1 (the saturation switches act globally), CTRL[48] = CTRL[59] = 0 (global
saturation), CTRL[8:6] = 0 (no store atomic), the other documented bits 0."""
CTRL_RESET = CTRL_DEFAULT | 1 << 48
"""CTRL when a block starts (ascreg's choice): the default with CTRL[48] = 1. ``InitSocState``
resets every bit but CTRL[48], which the runtime sets (its INF/NaN mode): non-saturating float
arithmetic, what ascreg computes. So a kernel starts with global non-saturating float
conversions (CTRL[48] = 1) and global saturating float-to-integer / integer-to-integer ones
(CTRL[59] = 0); ``SetCtrlSpr<60, 60>(0)`` hands saturation to each ``Cast``'s ``satMode``."""
CTRL_BITS = (48, 49, 53, 56, 59)
"""The CTRL bits ``asc_set_ctrl`` documents."""
SPR_FIELDS = ((6, 8), (9, 10), (45, 45), (48, 48), (50, 50), (53, 53), (59, 59), (60, 60))
"""The ``(startBit, endBit)`` ranges ``SetCtrlSpr`` / ``ResetCtrlSpr`` take on dav-3510 (any
range inside bits 6-10 too; the header's static_assert)."""
GLOBAL_SATURATION, FLOAT_SATURATION, INTEGER_SATURATION = 60, 48, 59
"""The saturation switches: CTRL[60] = 1 makes CTRL[48] (float results and float-to-float
conversions: 0 saturates, 1 keeps inf/NaN) and CTRL[59] (float-to-integer and
integer-to-integer conversions: 0 saturates, 1 truncates) act globally; CTRL[60] = 0 leaves
it to each conversion's own control (``Cast``'s ``satMode``, the C API ``_sat`` suffix)."""
COUNTER_MASK_MODE = 56
"""CTRL[56]: the counter mask mode of the memory-level vector instructions (``SetMaskCount`` /
``SetMaskNorm``; their repeat forms read it, see :mod:`ascreg.basic`)."""
UNMODELLED_CTRL = {
    50: "CTRL[50] = 1 (a saturated fp8 NaN stays NaN): ascreg's saturated fp8 NaN is 0",
    53: "CTRL[53] = 1 (saturating integer arithmetic): ascreg's integer arithmetic wraps",
}
"""CTRL bits whose value 1 changes results in a way ascreg does not model: writing it is an
:class:`~ascreg.errors.UnsupportedError` (never a silently different result)."""
ATOMIC_TYPE_CODES = {1: float32_t, 2: half, 3: int16_t, 4: int32_t, 5: int8_t, 6: bfloat16_t}
"""CTRL[8:6]: the store-atomic element type (0: no atomic)."""
ATOMIC_OP_CODES = {0: "add", 1: "max", 2: "min"}
"""CTRL[10:9]: the store-atomic operation."""
_ATOMIC_BITS = 0b11111 << 6
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


COPY_LOOP_SIZE_LIMIT = 1 << 21
"""Loop sizes of the GM <-> UB copy loops are below this (``loop1Size``, ``loop2Size``)."""
COPY_LOOP_GM_STRIDE_LIMIT = 1 << 40
"""The GM-side byte strides of the copy loops are below this."""
COPY_LOOP_UB_STRIDE_LIMIT = 1 << 21
"""The UB-side byte strides of the copy loops are below this (and multiples of 32)."""


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

    def reach(self) -> tuple[int, int]:
        """Return the ``(src, dst)`` byte offsets of the last repetition ((0, 0) for none).

        Examples
        --------
        >>> CopyLoops((2, 2), (96, 192), (128, 288)).reach()
        (288, 416)
        """
        if 0 in self.sizes:
            return 0, 0
        src, dst = (
            sum((n - 1) * stride for n, stride in zip(self.sizes, strides, strict=True))
            for strides in (self.src_strides, self.dst_strides)
        )
        return src, dst

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
    ctrl_bits
        The CTRL register's bits but 6-10 (read and write the whole register as ``ctrl``).
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

    ctrl_bits: int = CTRL_RESET
    atomic: tuple[str, Any] | None = None
    ffts_base: int = 0
    cycles: int = 0
    pcs: int = 0
    copy_loops: dict[str, CopyLoops] = attrs.field(
        factory=lambda: {"gm2ub": CopyLoops(), "ub2gm": CopyLoops()}
    )
    ndim: NdimConfig = attrs.field(factory=NdimConfig)
    va: list[tuple[Any, ...] | None] = attrs.field(factory=lambda: [None] * VA_REGISTERS)
    block: weakref.ref[BlockContext] | None = attrs.field(default=None, repr=False)
    """The block whose accesses :meth:`next_cycle` counts, weakly (the block's state holds
    these registers: a strong reference would keep every ended block alive until a garbage
    collection)."""

    @property
    def ctrl(self) -> int:
        """The 64-bit CTRL register (``asc_get_ctrl`` / ``asc_set_ctrl``, ``GetCtrlSpr`` / ``SetCtrlSpr``).

        Its bits 6-10 are :attr:`atomic`, the others :attr:`ctrl_bits`; writing it checks the
        value (:func:`check_ctrl`).
        """
        bits = self.ctrl_bits & ~_ATOMIC_BITS
        if self.atomic is not None:
            operation, element = self.atomic
            codes = {v: k for k, v in ATOMIC_TYPE_CODES.items()}
            ops = {v: k for k, v in ATOMIC_OP_CODES.items()}
            bits |= codes.get(element, 0) << 6 | ops[operation] << 9
        return bits

    @ctrl.setter
    def ctrl(self, value: int) -> None:
        value = check_ctrl(value)
        element, operation = value >> 6 & 0b111, value >> 9 & 0b11
        self.atomic = (
            None if element == 0 else (ATOMIC_OP_CODES[operation], ATOMIC_TYPE_CODES[element])
        )
        self.ctrl_bits = value & ~_ATOMIC_BITS

    def next_cycle(self) -> int:
        """Return the emulated system cycle count: strictly increasing and deterministic.

        It counts the block's recorded memory accesses plus the earlier reads, so work done
        between two reads makes the difference grow (it is no timing model).
        """
        self.cycles += 1
        ctx = None if self.block is None else self.block()
        accesses = ctx.tracker.count if ctx is not None else 0
        return accesses + self.cycles

    def next_pc(self) -> int:
        """Return the emulated program counter (:data:`PC_BASE`, then 4 more per read)."""
        self.pcs += 1
        return PC_BASE + 4 * (self.pcs - 1)


def check_ctrl(value: int) -> int:
    """Return *value* as a 64-bit CTRL word, or raise for a setting ascreg does not model.

    Modelled: the store-atomic mode (bits 6-10), the saturation switches of the conversions
    (CTRL[48], [59], [60]), the cube's modes (CTRL[45] HiF8, [46] HF32, [47] its rounding, [51]
    the result order: a multiply-add one of them would convert raises, see
    ``ascreg._frontend.cube``), the bits that change no result here (CTRL[49], scalar reads
    through the data cache) and the counter mask mode CTRL[56] of the memory-level vector
    instructions. Not modelled, an
    :class:`~ascreg.errors.UnsupportedError`: CTRL[50], [53] set (``UNMODELLED_CTRL``),
    saturating float arithmetic (CTRL[60] = 1 with CTRL[48] = 0: ascreg's float results keep
    inf and NaN), and the undocumented atomic codes (CTRL[8:6] = 7, CTRL[10:9] = 3).

    Examples
    --------
    >>> hex(check_ctrl(CTRL_RESET | 1 << 59))
    '0x1801000000000008'
    >>> check_ctrl(CTRL_RESET | 1 << 53)
    Traceback (most recent call last):
    ...
    ascreg.errors.UnsupportedError: CTRL[53] = 1 (saturating integer arithmetic): ascreg's integer arithmetic wraps; ascreg models CTRL[48], [59], [60] (saturation), CTRL[10:6] (store atomics), CTRL[56] (the counter mask mode), CTRL[45] and CTRL[49]
    """
    value = int(value) & (1 << 64) - 1
    models = (
        "ascreg models CTRL[48], [59], [60] (saturation), CTRL[10:6] (store atomics), "
        "CTRL[56] (the counter mask mode), CTRL[45] and CTRL[49]"
    )
    for bit, what in UNMODELLED_CTRL.items():
        if value >> bit & 1:
            raise UnsupportedError(f"{what}; {models}")
    if value >> GLOBAL_SATURATION & 1 and not value >> FLOAT_SATURATION & 1:
        raise UnsupportedError(
            "CTRL[60] = 1 with CTRL[48] = 0 selects saturating float arithmetic (inf to the "
            "largest finite value, NaN to 0), which ascreg does not model (its float results "
            "keep inf and NaN, the CTRL[48] = 1 mode a block starts in); set CTRL[60] = 0 or "
            "keep CTRL[48] = 1"
        )
    if value >> 6 & 0b111 == 7 or value >> 9 & 0b11 == 3:
        raise UnsupportedError(
            f"CTRL[10:6] = {value >> 6 & 0b11111:#07b} is not a documented store-atomic mode "
            "(CTRL[8:6] 1-6 name the type, CTRL[10:9] 0-2 the operation)"
        )
    return value


def conversion_saturates(integer: bool, requested: bool) -> bool:
    """Return whether a conversion with a saturation control saturates in the running block.

    *integer*: float-to-integer or integer-to-integer (else float-to-float); *requested*: the
    conversion's own control (``satMode::SAT``, the ``_sat`` suffix). Outside a kernel there is
    no CTRL register: the control decides, as under CTRL[60] = 0.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> conversion_saturates(True, False)
    False
    >>> with block(BlockContext()):  # a block starts with CTRL[60] = 1, CTRL[59] = 0
    ...     conversion_saturates(True, False), conversion_saturates(False, True)
    (True, False)
    """
    ctx = running_block()
    if ctx is None:
        return requested
    ctrl = system_registers(ctx).ctrl_bits
    if not ctrl >> GLOBAL_SATURATION & 1:
        return requested
    return not ctrl >> (INTEGER_SATURATION if integer else FLOAT_SATURATION) & 1


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
        found = ctx.state[SYSREGS_STATE] = SystemRegisters(block=weakref.ref(ctx))
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
