"""Mixed cube + vector launches and the cross-core flags that order their cores (dav-3510).

A ``__global__ __mix__(1, 2)`` kernel launched on *n* blocks runs *n* logical AI Cores, each
with one cube core (AIC) and two vector cores (AIV sub-blocks 0 and 1); ``__mix__(1, 1)`` gives
each AI Core one AIV, ``__mix__(1, 0)`` / ``__mix__(0, 1)`` one core of one kind. Every core runs
the kernel function with its own :class:`~ascreg.machine.block.BlockContext`; ``ASCEND_IS_AIC`` /
``ASCEND_IS_AIV`` tell the code which core it is. As the GetBlockIdx page says, an AIC's
``GetBlockIdx()`` is its AI Core (``[0, n)``) and an AIV's is ``block * GetSubBlockNum() +
GetSubBlockIdx()`` (``[0, 2n)`` at 1:2); ``GetBlockNum()`` is *n* on both.

The cores run as the cooperative blocks of :mod:`ascreg.machine.coop`: one at a time, in the
order of :func:`topology` (each AI Core's AIC, then its AIVs), each until it ends or waits on a
flag whose counter is 0; then the lowest core that can run goes on. The result is the same on
every run. When every core left waits, the launch would hang on the chip: a
:class:`~ascreg.errors.SyncError` names each waiting core and its flag.

**Flags** (CrossCoreSetFlag / CrossCoreWaitFlag, 核间同步 and its 关键特性说明 page). Every core has
a 4-bit counter per flag: 16 for modes 0, 1 and 2 (shared by the three modes), and separately
for mode 4, 16 on an AIV and 32 on an AIC. A wait blocks while its counter is 0, then takes one;
a counter past 15 is an error. A set raises counters as its mode says:

- mode 0: once *every* core of the setter's kind in the launch has set the flag, each of them
  gets one (all AICs, or all AIVs);
- mode 1: once both AIVs of the AI Core have set it, each gets one;
- mode 2: an AIC's set gives each AIV of its AI Core one; once all AIVs of the AI Core have set
  it, the AIC gets one;
- mode 4: AIV0's flag *f* raises the AIC's *f*, AIV1's raises the AIC's *f* + 16; the AIC's *f*
  (< 16) raises AIV0's *f* and its *f* (>= 16) AIV1's *f* - 16 (the ``asc_sync_intra_*`` map).

Examples
--------
>>> cores = topology(2, 1, 2)
>>> [c.name for c in cores]
['AIC 0', 'AIV 0', 'AIV 1', 'AIC 1', 'AIV 2', 'AIV 3']
>>> cores[4].block, cores[4].sub, cores[4].logical
(1, 0, 2)
"""

from __future__ import annotations

from typing import Any

import attrs

from ascreg.errors import AscregError, AscregTypeError, SyncError, UnsupportedError
from ascreg.machine.block import BlockContext, current_block, running_block
from ascreg.machine.sync import Pipe

AIC, AIV = "AIC", "AIV"
COUNTER_MAX = 15
"""A flag counter is 4 bits (the chip raises an exception past 15)."""
FFTS_FLAGS = 16
"""Flags of modes 0, 1 and 2 per core (a larger id keeps its low 4 bits)."""
MODE4_FLAGS = {AIC: 32, AIV: 16}
"""Mode-4 flags of each core kind (AIC 0..15 face AIV0, 16..31 AIV1)."""
MODES = (0, 1, 2, 4)
"""The ``modeId`` values the 950 supports."""
CORES_STATE = "crosscore.cores"
"""Launch-shared-state key of the :class:`CrossCoreFlags` of a mixed launch."""
RUNNER_STATE = "coop.runner"
"""Launch-shared-state key of the launch's :class:`~ascreg.machine.coop.BlockRunner`."""
KIND_STATE = "crosscore.kind"
"""Launch-shared-state key set to ``"AIC"`` in a ``__cube__`` launch (its blocks are AICs)."""


@attrs.frozen
class Core:
    """One core of a mixed launch.

    Attributes
    ----------
    member
        Its position in the launch's run order (:func:`topology`).
    kind
        ``"AIC"`` or ``"AIV"``.
    block
        Its logical AI Core (``[0, numBlocks)``).
    sub, subs
        ``GetSubBlockIdx()`` and ``GetSubBlockNum()``.
    """

    member: int
    kind: str
    block: int
    sub: int
    subs: int

    @property
    def logical(self) -> int:
        """``GetBlockIdx()``: the AI Core on an AIC, ``block * subs + sub`` on an AIV."""
        return self.block * self.subs + self.sub

    @property
    def name(self) -> str:
        """``"AIC 3"`` / ``"AIV 6"`` (by ``GetBlockIdx()``)."""
        return f"{self.kind} {self.logical}"


def topology(blocks: int, aic: int, aiv: int) -> list[Core]:
    """Return the cores of a ``__mix__(aic, aiv)`` launch of *blocks* AI Cores, in run order."""
    cores: list[Core] = []
    for block in range(blocks):
        for kind, count in ((AIC, aic), (AIV, aiv)):
            for sub in range(count):
                cores.append(Core(len(cores), kind, block, sub, count))
    return cores


def core_of(ctx: BlockContext) -> Core | None:
    """Return the :class:`Core` *ctx* runs, or None outside a mixed launch.

    Examples
    --------
    >>> ctx = BlockContext(); core_of(ctx) is None
    True
    >>> ctx.core = topology(1, 1, 2)[2]; core_of(ctx).name
    'AIV 1'
    """
    found = ctx.core
    return found if isinstance(found, Core) else None


def running_kind(ctx: BlockContext | None = None) -> str:
    """Return ``"AIC"`` or ``"AIV"``: the kind of the running core (AIV outside a mixed launch).

    A ``__cube__`` kernel's blocks are AICs.

    Examples
    --------
    >>> running_kind()
    'AIV'
    >>> ctx = BlockContext(shared={KIND_STATE: AIC}); running_kind(ctx)
    'AIC'
    """
    if ctx is None:
        ctx = running_block()
        if ctx is None:
            return AIV
    core = core_of(ctx)
    if core is not None:
        return core.kind
    return AIC if ctx.shared.get(KIND_STATE) == AIC else AIV


def check_flags_clean(shared: dict[str, Any]) -> None:
    """Raise when a mixed launch ended with flags set that no wait consumed.

    The pages call an unpaired set undefined behaviour: a leftover count would release a wait
    of the next kernel early.

    Examples
    --------
    >>> flags = CrossCoreFlags(topology(1, 1, 2))
    >>> flags.set(flags.cores[0], 4, 17)   # the AIC's mode-4 flag 17 reaches AIV1's flag 1
    >>> check_flags_clean({CORES_STATE: flags})
    Traceback (most recent call last):
    ...
    ascreg.errors.SyncError: the launch ended with cross-core flags set but never waited for: AIV 1 flag 1 (mode 4) x1 (every CrossCoreSetFlag needs its CrossCoreWaitFlag on the cores it reaches)
    """
    flags = shared.get(CORES_STATE)
    if isinstance(flags, CrossCoreFlags):
        left = flags.leftovers()
        if left:
            raise SyncError(
                "the launch ended with cross-core flags set but never waited for: "
                + "; ".join(left[:6])
                + (" ..." if len(left) > 6 else "")
                + " (every CrossCoreSetFlag needs its CrossCoreWaitFlag on the cores it reaches)"
            )


Clock = list[int]
"""A vector clock: per core of the launch, how many of its sets are known (its epochs)."""


def _merge(one: Clock, other: Clock) -> Clock:
    return [max(a, b) for a, b in zip(one, other, strict=True)]


@attrs.define
class Unit:
    """One count of a flag counter: what the set(s) that raised it had done.

    Attributes
    ----------
    clock
        The merged vector clocks of the setters (for the GM race check).
    tokens
        Per setting core, its pipe tracker's token of the set's pipe: a wait on the same core
        orders its later work after that pipe's earlier work (the set goes once it is done).
    """

    clock: Clock
    tokens: dict[int, dict[Pipe, int]]

    def merged(self, other: Unit) -> Unit:
        """Return the unit of a round: both clocks merged, both tokens kept."""
        return Unit(_merge(self.clock, other.clock), {**self.tokens, **other.tokens})


@attrs.define
class _Round:
    """Sets of a flag that wait for the rest of their group (modes 0, 1, 2 from AIVs)."""

    arrived: list[tuple[set[int], Unit]] = attrs.field(factory=list)

    def add(self, member: int, group: frozenset[int], unit: Unit) -> Unit | None:
        """Count *member*'s set; return the round's unit when it completes the oldest round."""
        for index, (pending, known) in enumerate(self.arrived):
            if member not in pending:
                pending.add(member)
                self.arrived[index] = (pending, known.merged(unit))
                break
        else:
            self.arrived.append(({member}, unit))
        if self.arrived[0][0] >= group:
            return self.arrived.pop(0)[1]
        return None


class CrossCoreFlags:
    """The flag counters of one mixed launch (see the module docstring for the modes).

    Each unit of a counter carries the vector clock of the set(s) that raised it; the wait that
    takes it learns that clock. A core's GM write is stamped with its epoch (how many sets it
    has made); another core's access is ordered after it only when it has learned that epoch
    through a chain of sets and waits (:meth:`knows`): the GM race check of a mixed launch
    reports the others (:mod:`ascreg.machine.races`).

    Parameters
    ----------
    cores
        The launch's cores (:func:`topology`).

    Examples
    --------
    >>> flags = CrossCoreFlags(topology(1, 1, 2))
    >>> aic, aiv0, aiv1 = flags.cores
    >>> stamp = flags.epoch(aiv0.member)               # AIV0 writes GM in this epoch
    >>> flags.set(aiv0, 2, 3); flags.count(aic, "ffts", 3)
    0
    >>> flags.set(aiv1, 2, 3); flags.count(aic, "ffts", 3)
    1
    >>> flags.knows(aic.member, aiv0.member, stamp)    # the AIC has not waited yet
    False
    >>> flags.take(aic, "ffts", 3) is not None, flags.knows(aic.member, aiv0.member, stamp)
    (True, True)
    """

    def __init__(self, cores: list[Core]) -> None:
        self.cores = cores
        self.counters: dict[tuple[int, str, int], list[Unit]] = {}
        self.rounds: dict[tuple[str, frozenset[int], int], _Round] = {}
        self.clock: list[Clock] = [[0] * len(cores) for _ in cores]

    def count(self, core: Core, space: str, flag: int) -> int:
        """Return *core*'s counter of *flag* in *space* (``"ffts"`` or ``"mode4"``)."""
        return len(self.counters.get((core.member, space, flag), ()))

    def epoch(self, member: int) -> int:
        """Return the epoch of core *member* (the stamp of a GM write it makes now)."""
        return self.clock[member][member]

    def knows(self, reader: int, writer: int, stamp: int) -> bool:
        """Return True when core *reader* is ordered after *writer*'s write of epoch *stamp*."""
        return reader == writer or self.clock[reader][writer] > stamp

    def _raise(self, core: Core, space: str, flag: int, unit: Unit) -> None:
        queue = self.counters.setdefault((core.member, space, flag), [])
        if len(queue) >= COUNTER_MAX:
            raise SyncError(
                f"the 4-bit counter of flag {flag} of {core.name} would exceed {COUNTER_MAX}: "
                f"at most {COUNTER_MAX} sets may wait unconsumed (the chip raises an exception)"
            )
        queue.append(unit)

    def _group(self, core: Core, kind: str, same_block: bool) -> list[Core]:
        return [
            c for c in self.cores if c.kind == kind and (not same_block or c.block == core.block)
        ]

    def set(self, core: Core, mode: int, flag: int, token: dict[Pipe, int] | None = None) -> None:
        """Record *core*'s ``CrossCoreSetFlag<mode>(flag)`` (*flag* already in range).

        *token*: the setter's pipe-tracker token of the set's pipe (None: none to pass on).
        """
        mine = self.clock[core.member]
        mine[core.member] += 1  # what it did before the set is epoch - 1: visible to waiters
        unit = Unit(list(mine), {} if token is None else {core.member: token})
        if mode == 4:
            target, space, number = _mode4_target(self.cores, core, flag)
            self._raise(target, space, number, unit)
            return
        if mode == 2 and core.kind == AIC:
            for aiv in self._group(core, AIV, True):
                self._raise(aiv, "ffts", flag, unit)
            return
        kind = AIV if mode in (1, 2) else core.kind
        group = self._group(core, kind, mode != 0)
        members = frozenset(c.member for c in group)
        pending = self.rounds.setdefault((f"mode {mode}", members, flag), _Round())
        done = pending.add(core.member, members, unit)
        if done is None:
            return
        for target in self._group(core, AIC, True) if mode == 2 else group:
            self._raise(target, "ffts", flag, done)

    def meet(self, members: list[int]) -> None:
        """Order the cores *members* after each other's work so far (a barrier they all reached).

        Examples
        --------
        >>> flags = CrossCoreFlags(topology(1, 0, 2))
        >>> stamp = flags.epoch(0); flags.meet([0, 1]); flags.knows(1, 0, stamp)
        True
        """
        for member in members:
            self.clock[member][member] += 1
        joined = [max(column) for column in zip(*(self.clock[m] for m in members), strict=True)]
        for member in members:
            self.clock[member] = _merge(self.clock[member], joined)

    def take(self, core: Core, space: str, flag: int) -> Unit | None:
        """Take one from *core*'s counter of *flag* and learn its clock; None when it is 0."""
        queue = self.counters.get((core.member, space, flag))
        if not queue:
            return None
        unit = queue.pop(0)
        self.clock[core.member] = _merge(self.clock[core.member], unit.clock)
        return unit

    def leftovers(self) -> list[str]:
        """Describe the counters no wait consumed and the rounds no core completed."""
        found = [
            f"{self.cores[m].name} flag {flag}{' (mode 4)' if space == 'mode4' else ''} "
            f"x{len(queue)}"
            for (m, space, flag), queue in self.counters.items()
            if queue
        ]
        for (mode, members, flag), pending in self.rounds.items():
            for arrived, _ in pending.arrived:
                missing = ", ".join(sorted(self.cores[m].name for m in members - arrived))
                found.append(
                    f"{mode} flag {flag} set by {len(arrived)} core(s) but not by {missing}"
                )
        return found


def _mode4_target(cores: list[Core], core: Core, flag: int) -> tuple[Core, str, int]:
    """Return (core, "mode4", flag) that *core*'s mode-4 set of *flag* raises."""
    if core.kind == AIV:
        aic = next((c for c in cores if c.block == core.block and c.kind == AIC), None)
        if aic is None:
            raise SyncError(
                f"{core.name} sets mode-4 flag {flag}, which goes to the AIC of its AI Core, and "
                "the kernel's __mix__ ratio starts none (nothing could consume it)"
            )
        return aic, "mode4", flag + FFTS_FLAGS * core.sub
    aiv = next(
        (c for c in cores if c.block == core.block and c.kind == AIV and c.sub == flag // 16),
        None,
    )
    if aiv is None:
        raise SyncError(
            f"{core.name} sets mode-4 flag {flag}, which goes to AIV sub-block {flag // 16} of "
            "its AI Core, and the kernel's __mix__ ratio starts no such core (nothing could "
            "consume it)"
        )
    return aiv, "mode4", flag % FFTS_FLAGS


def flags_of(ctx: BlockContext, call: str) -> tuple[Core, CrossCoreFlags]:
    """Return the running core and its launch's flags; raise outside a mixed launch."""
    core = core_of(ctx)
    flags = ctx.shared.get(CORES_STATE)
    if core is None or not isinstance(flags, CrossCoreFlags):
        raise SyncError(
            f"{call} needs the scheduler of a mixed launch: on the chip a __vector__ / __cube__ "
            "kernel (KERNEL_TYPE_AIV_ONLY / AIC_ONLY) starts none, so the flag never reaches "
            "another core; declare the kernel __mix__(1, 2) (or __mix__(1, 0), __mix__(0, 1) "
            "for one kind of core)",
            call=call,
        )
    return core, flags


MODE_RATIOS = {1: ((1, 1), (1, 2)), 2: ((1, 1), (1, 2)), 4: ((1, 2),)}
"""The ``__mix__`` ratios each mode needs (table 3 of the CrossCoreSetFlag page); mode 0 any."""


def ratio_of(flags: CrossCoreFlags) -> tuple[int, int]:
    """Return the ``__mix__(aic, aiv)`` ratio of the launch of *flags*."""
    first = [c.kind for c in flags.cores if c.block == 0]
    return first.count(AIC), first.count(AIV)


def _checked(
    ctx: BlockContext, mode: Any, flag: Any, call: str
) -> tuple[Core, CrossCoreFlags, int]:
    """Check *mode* and *flag* for the running core; return it, the flags and the flag number."""
    if isinstance(mode, bool) or not isinstance(mode, int) or mode not in MODES:
        raise UnsupportedError(
            f"modeId {mode!r} is not a mode the 950 supports (0, 1, 2, 4)", call=call
        )
    if isinstance(flag, bool) or not isinstance(flag, int) or not 0 <= flag <= 0xFFFF:
        raise AscregTypeError(f"flagId must be a uint16_t, got {flag!r:.40}", call=call)
    core, flags = flags_of(ctx, call)
    ratio = ratio_of(flags)
    if mode in MODE_RATIOS and ratio not in MODE_RATIOS[mode]:
        kernels = " or ".join(f"__mix__{r}" for r in MODE_RATIOS[mode])
        raise SyncError(
            f"mode {mode} synchronises the cores inside an AI Core, which needs a {kernels} "
            f"kernel; this one is __mix__{ratio}",
            call=call,
        )
    if mode != 4:
        return core, flags, flag % FFTS_FLAGS  # the page: a larger id keeps its low 4 bits
    limit = MODE4_FLAGS[core.kind]
    if flag >= limit:
        raise AscregError(
            f"mode-4 flagId {flag} is outside [0, {limit - 1}] of an {core.kind} (an AIC has "
            "32 mode-4 flags, 16 facing each AIV; an AIV has 16)",
            call=call,
        )
    return core, flags, flag


def cross_set(mode: Any, pipe: Any, flag: Any, call: str, *, allow_s: bool = False) -> None:
    """``CrossCoreSetFlag<mode, pipe>(flag)`` on the running core (see the module docstring).

    The set goes once *pipe*'s earlier work is done; ascreg completes every instruction as it
    issues it, so the core's GM writes before the set are all visible to the cores it reaches.
    *allow_s*: ``PIPE_S`` may carry a set of modes 0..2 (the C API's ``asc_sync_*_arrive``
    pages use it; CrossCoreSetFlag's forbids it).
    """
    banned = (Pipe.PIPE_ALL,) if mode == 4 or allow_s else (Pipe.PIPE_ALL, Pipe.PIPE_S)
    if not isinstance(pipe, Pipe) or pipe in banned:
        names = " and ".join(p.name for p in banned)
        raise AscregTypeError(
            f"pipe {getattr(pipe, 'name', pipe)!r} cannot carry a mode-{mode} set ({names} "
            "are not supported; PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX are)",
            call=call,
        )
    ctx = current_block()
    core, flags, number = _checked(ctx, mode, flag, call)
    flags.set(core, mode, number, ctx.tracker.token(pipe))


def cross_wait(mode: Any, pipe: Any, flag: Any, call: str) -> None:
    """``CrossCoreWaitFlag<mode, pipe>(flag)``: block until the counter is positive, take one.

    ascreg blocks the whole core (every later instruction of *pipe* and the others waits);
    the cores that can run meanwhile do (:meth:`ascreg.machine.coop.BlockRunner.block_on`).
    """
    if not isinstance(pipe, Pipe) or pipe is Pipe.PIPE_ALL:
        raise AscregTypeError(
            f"pipe {getattr(pipe, 'name', pipe)!r} is not a single pipe_t (PIPE_ALL is not "
            "supported)",
            call=call,
        )
    ctx = current_block()
    core, flags, number = _checked(ctx, mode, flag, call)
    space = "mode4" if mode == 4 else "ffts"
    unit = flags.take(core, space, number)
    if unit is None:
        runner = ctx.shared[RUNNER_STATE]
        what = f"{call}({number})" + (" (mode 4)" if mode == 4 else "")
        runner.block_on(ctx, lambda: flags.count(core, space, number) > 0, what)
        unit = flags.take(core, space, number)
        assert unit is not None
    own = unit.tokens.get(core.member)
    if own is not None:  # the core's own set is in it: its pipe's earlier work is done
        ctx.tracker.acquire(pipe, own)
