"""SIMD block groups: the blocks of a vector launch run as one group where that is exact.

A ``__global__`` ``__vector__`` kernel launched on many blocks runs its body once per block,
and a block's copies, flags, allocations and queue calls cost far more than the arithmetic
of its VFs (``docs/performance.md``, "A design for SIMD block batches"). A *group* runs the
body once for a run of consecutive blocks instead:

* ``GetBlockIdx()`` is a :class:`BlockLanes`, one index per block; arithmetic keeps the lanes,
  and a GM pointer plus lanes is a :class:`BlockGmPtr` (one address per block). Where Python
  needs one value (``int()``, ``if``, ``range()``, an index) the blocks must agree; when they
  do not, the group stops (:class:`Divergent`) and runs again as the leading run of blocks that
  agree, the rest after it. A branch that only sets values (a tail block's sizes) does not
  stop it: the group runs twins of the kernel's functions that give each block the values
  of its branch (:mod:`ascreg.engine.groups.branches`);
* the group's UB (:class:`StackedUb`) has one row of bytes per block at the same addresses, so
  allocators, queues and tensors keep their ordinary ``UbPtr`` values. Its ordinary byte
  access refuses: only the copies and VF calls below read and write the rows;
* a GM <-> UB copy moves every block's bursts at once (:meth:`Group.copy`), checking each
  block's GM bounds and alignment, and records its pipe accesses once for the UB side (the
  same bytes in every block) and for the GM side the first block's (each block reaches each
  GM buffer at one offset from the first's, so its hazards are the first's; a kernel where
  that fails records every block's); a ``__simd_vf__`` runs once
  for the whole group where it can, its batched loops on every block's row at once (the block
  a leading axis), else once per block on that block's row (:meth:`Group.vf`), every block
  then leaving the same byte marks as the first; so does a ``with __VEC_SCOPE__:`` block the
  engine made a function (:meth:`Group.scope`, :mod:`ascreg.engine.scopes`);
* Global Memory is reached through the group's copies only: any other access, a block reading
  or writing bytes another block of the group writes, output on ``stdout``, a warning (but a
  ``SlowPathWarning``, said after the group, once, as it always is), and any
  error stop the group.

A group that stops leaves nothing behind: its GM writes are undone and its blocks run one at
a time, which raise the error, print or warn exactly as they always did. Which kernels may run
in groups is decided from their code (:func:`why_not_grouped`): the body, and the functions and
methods of user classes it names (through templates, static methods and the objects the blocks
share too), make no ``global`` or ``nonlocal`` statements and write no attribute or item of
anything but what they made, their own object (``self``, unless the blocks share it) and
memory through a pointer parameter. The first group of each
kernel is checked against its first and last blocks run one at a time (their GM writes must
be equal byte for byte); a difference turns groups off for that kernel with a warning.
``ASCREG_SIMD_GROUPS=0`` turns groups off. Whether (and why not) a launch ran in groups is
logged at DEBUG level on the ``ascreg.groups`` logger.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, GmPtr, float32_t
>>> from ascreg.basic import DataCopy, GetBlockIdx, GlobalTensor, LocalMemAllocator, Hardware
>>> from ascreg.basic import PipeBarrier, PIPE_ALL, Adds
>>> from ascreg.machine.kernel import __global__, __vector__
>>> @__global__
... @__vector__
... def shift(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
...     xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
...     xGm.SetGlobalBuffer(x + GetBlockIdx() * 64)
...     yGm.SetGlobalBuffer(y + GetBlockIdx() * 64)
...     buf = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
...     DataCopy(buf, xGm, 64)
...     PipeBarrier[PIPE_ALL]()
...     DataCopy(yGm, buf, 64)
>>> gm = GlobalMemory(); x, y = gm.alloc(float32_t, 256), gm.alloc(float32_t, 256)
>>> x.write(np.arange(256)); shift[4, 0, None](x, y); y.read(256)[[0, 100, 255]].tolist()
[0.0, 100.0, 255.0]
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ascreg._dtypes import uint8_t
from ascreg.engine.groups.admission import kernel_functions, why_not_grouped
from ascreg.engine.groups.branches import MERGED, split_at_merge, twins
from ascreg.engine.groups.group import _DEFECTS, LOG, Group, _tell_once, checked_blocks
from ascreg.engine.groups.memory import StackedUb
from ascreg.engine.groups.values import (
    BlockGmPtr,
    BlockLanes,
    Divergent,
    GroupRefused,
    UnevenOffsets,
)
from ascreg.errors import SlowPathWarning
from ascreg.machine.block import BlockContext
from ascreg.machine.block import block as running_as
from ascreg.machine.coop import check_sync_clean
from ascreg.machine.crosscore import RUNNER_STATE
from ascreg.machine.memory import live_memories, untrack
from ascreg.machine.races import GmRaceCheck
from ascreg.machine.simt.engine import Journal
from ascreg.machine.trace import RECORDING

__all__ = [
    "GROUPS",
    "GROUP_BLOCKS",
    "BlockGmPtr",
    "BlockLanes",
    "Divergent",
    "Group",
    "GroupRefused",
    "StackedUb",
    "run_groups",
    "why_not_grouped",
]

GROUPS = [os.environ.get("ASCREG_SIMD_GROUPS", "1") != "0"]
"""``GROUPS[0]``: whether vector launches may run in block groups (``ASCREG_SIMD_GROUPS``)."""
GROUP_BLOCKS = 64
"""The most blocks one group runs (a group's UB holds this many rows)."""

_SPLITS: dict[Any, dict[int, int]] = {}
"""Per kernel and block count: the group size found to work from each first block."""
_EVERY_BLOCK_GM: set[Any] = set()
"""The kernels (their code) whose groups record every block's GM accesses (``UnevenOffsets``)."""
_CHECKED: dict[Any, bool] = {}
"""Per kernel: its first group was checked against its blocks run one at a time (True: equal)."""


def run_groups(runner: Any, races: GmRaceCheck) -> int:
    """Run the leading blocks of a vector launch in groups; return the first block still to run.

    *runner* is the launch's ``BlockRunner`` (:mod:`ascreg.machine.coop`): its kernel, arguments
    and block count, and ``run_block(k)``, which the first-launch check runs blocks alone with.
    """
    kernel, blocks = runner.func, runner.blocks
    name = getattr(kernel, "__name__", "kernel")
    code = getattr(kernel, "__code__", None)
    if not GROUPS[0] or blocks < 2 or _CHECKED.get(code) is False or _watched():
        return 0
    why = why_not_grouped(kernel)
    if why is not None:
        _tell_once(("admission", code), f"{name}: its blocks run one at a time: {why}")
        return 0
    splits = _SPLITS.setdefault((code, blocks), {})
    first = 0
    while blocks - first >= 2:
        count = splits.get(first, min(GROUP_BLOCKS, blocks - first))
        if count < 2:  # (a split: block `first` disagrees with the next one)
            _tell_once(
                ("alone", code, first),
                f"{name}: block {first} runs alone: it takes another branch than block {first + 1}",
            )
            return first
        _ascreg_blocks = (first, count)  # the launch's BlockProgress reads it
        outcome = _attempt(runner, races, first, count)
        for defect in _DEFECTS:
            warnings.warn(defect, RuntimeWarning, stacklevel=4)
        _DEFECTS.clear()
        if isinstance(outcome, Divergent):
            splits[first] = int(np.argmin(outcome.agree))
            continue
        if isinstance(outcome, UnevenOffsets) and code not in _EVERY_BLOCK_GM:
            _EVERY_BLOCK_GM.add(code)
            continue
        if isinstance(outcome, BaseException):
            _tell_once(
                ("stopped", code, type(outcome).__name__),
                f"{name}: blocks {first}-{first + count - 1} ran one at a time: {outcome}",
            )
            return first
        if code not in _CHECKED and not _check_once(code, name, outcome, runner.run_block):
            return int(first + count)
        LOG.debug("%s: blocks %d-%d ran as one group", name, first, first + count - 1)
        first += count
    return first


def _watched() -> bool:
    """Return True while a debugger, a tracer (pdb, ``ascreg.emit``) or a profile watches.

    They see each block run on its own, as written.
    """
    return sys.gettrace() is not None or bool(RECORDING)


def _attempt(runner: Any, races: GmRaceCheck, first: int, count: int) -> Group | BaseException:
    """Run one group; return it, or the exception that stopped it (everything undone)."""
    shared = {k: v for k, v in runner.shared.items() if k != RUNNER_STATE}  # no SyncAll
    ctx = BlockContext(first, runner.blocks, 0, runner.name, shared=shared)
    code = getattr(runner.func, "__code__", None)
    group = Group(ctx, first, count, races, every_block_gm=code in _EVERY_BLOCK_GM)
    ctx.group = group
    ctx.ub = group.ub
    ctx.ub.on_access = ctx.hook
    untrack(ctx.ub)
    dyn = runner.dyn_bytes
    ctx.dynamic = ctx.ub.alloc_bytes(uint8_t, dyn, label=f"extern __ubuf__ (dynamic, {dyn} bytes)")
    ctx.block_idx = BlockLanes(np.arange(first, first + count, dtype=np.int64))  # type: ignore[assignment]
    output = io.StringIO()
    try:
        with (
            _gm_refused(group),
            contextlib.redirect_stdout(output),
            warnings.catch_warnings(record=True) as said,
        ):
            warnings.simplefilter("always")
            with running_as(ctx), twins(kernel_functions(runner.func)):
                runner.func(*runner.args, **runner.kwargs)
            check_sync_clean(ctx)  # the launch's own end-of-block check
        if output.getvalue():
            raise GroupRefused("a block printed")
        slow = _slow_paths(said)
        group.claim()
    except Exception as error:
        group.journal.rollback()
        return split_at_merge(error)
    finally:
        ctx.release()
        MERGED.clear()
    for warning in slow:  # said once, as a block alone says it (after the group, for its filters)
        warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return group


def _slow_paths(said: list[warnings.WarningMessage]) -> list[warnings.WarningMessage]:
    """Return the slow-path warnings of a group (a VF loop that runs eagerly in its blocks).

    They are said once whoever says them; any other warning (a numpy one, undefined
    behaviour under ``policy(undefined="warn")``) is said per block: it stops the group.
    """
    for warning in said:
        if not issubclass(warning.category, SlowPathWarning):
            raise GroupRefused(f"a block warned: {warning.message}")
    return said


@contextlib.contextmanager
def _gm_refused(group: Group) -> Iterator[None]:
    """Make every access to another memory than the group's own UB stop the group.

    But a plain read (a scalar read, ``GET_TILING_DATA``) through a pointer every block holds:
    it reads the same bytes for every block, so the group reads them once and notes the read
    for each block (:meth:`Group.read`), whose sharing check refuses bytes another block
    writes.
    """
    watched = [m for m in live_memories() if not isinstance(m, StackedUb)]
    previous = [m.on_access for m in watched]

    def refusing(memory: Any) -> Callable[[int, int, str], None]:
        def refuse(start: int, end: int, action: str) -> None:
            if action != "reads":
                raise GroupRefused(f"{action} memory outside the group's copies")
            group.read(memory, start, end)

        return refuse

    for memory in watched:
        memory.on_access = refusing(memory)
    try:
        yield
    finally:
        for memory, hook in zip(watched, previous, strict=True):
            memory.on_access = hook


def _check_once(code: Any, name: str, group: Group, run_block: Callable[[int], None]) -> bool:
    """Check a kernel's first group against some of its blocks run alone; True when they agree.

    The group's GM writes are undone and its first and last blocks (:func:`checked_blocks`)
    run one at a time; the bytes each of them writes must be the group's. Then the group's
    writes are put back (the other blocks' results). On a difference the other blocks run
    alone too: what the blocks alone write stays.
    """
    grouped = group.written()
    group.journal.rollback()
    checked = [group.first + k for k in checked_blocks(group.count)]
    for k in checked:
        run_block(k)
    same = all(
        np.array_equal(Journal.now(memory, start, now)[mine], now[mine])
        for memory, start, now, mine in _entries_of(group, grouped, checked)
    )
    _CHECKED[code] = same
    if same:
        for memory, start, now in grouped:
            Journal.put(memory, start, now)
        return True
    for k in range(group.first, group.first + group.count):
        if k not in checked:
            run_block(k)
    warnings.warn(
        f"{name}: a group of its blocks wrote other bytes than the blocks one at a time "
        "(an ascreg defect: please report it); its blocks now run one at a time",
        RuntimeWarning,
        stacklevel=2,
    )
    return False


def _entries_of(
    group: Group, grouped: list[tuple[Any, Any, np.ndarray[Any, Any]]], blocks: list[int]
) -> Iterator[tuple[Any, Any, np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
    """Yield each written entry ``(memory, start, bytes)`` and which of its bytes *blocks* write."""
    spans: dict[int, list[tuple[int, int]]] = {}  # per memory (entries share a few memories)
    for memory, start, now in grouped:
        known = spans.get(id(memory))
        if known is None:
            known = spans[id(memory)] = group.writes_of(memory, [k - group.first for k in blocks])
        positions = Journal.positions(start, now.shape)
        mine = np.zeros(now.shape, dtype=np.bool_)
        for low, high in known:
            mine |= (positions >= low) & (positions < high)
        yield memory, start, now, mine
