"""``SyncAll`` and the C API's FFTS flags inside a mixed cube + vector launch (dav-3510).

Both are spelled in the dav-3510 headers as sequences of the cross-core flags of
:mod:`ascreg.machine.crosscore`, so ascreg runs exactly those sequences: the cores park and
resume as the flags say, a ``SyncAll`` that some core never reaches is the hang report naming
the waiting cores, and the GM race check learns the ordering from the flags' vector clocks.

**Hard SyncAll** (``SyncAll<isAIVOnly, config>()``, ``kernel_operator_sync_impl.h`` of dav-3510;
flag ids 11 ``AIC``, 12 ``AIV``, 13 ``AIC -> AIV``, 14 ``AIV only``):

- ``isAIVOnly`` true: the AIVs barrier ``config.triggerPipe``, set mode-0 flag 14 on it (on
  ``PIPE_MTE3`` for ``PIPE_ALL``) and wait flag 14 on ``config.waitPipe`` (``PIPE_S`` for
  ``PIPE_ALL``): every AIV of the launch meets; the AICs do nothing (the page: in a Mix kernel
  this syncs the vector cores only).
- ``isAIVOnly`` false, ``__mix__(1, 1)``: every core barriers ``PIPE_ALL``; the AIV sets mode-2
  flag 12 and waits flag 13; the AIC waits 12, sets mode-0 flag 11 (every AIC meets), waits 11
  and sets mode-2 flag 13 for its AIV.
- ``isAIVOnly`` false, ``__mix__(1, 2)``: the same through the mode-4 (intra-block) flags: each
  AIV sets its flag 12 and waits 13; the AIC waits 12 and 28 (both AIVs), meets the other AICs
  on mode-0 flag 11, then sets 13 and 29.
- ``isAIVOnly`` false in a ``__mix__(1, 0)`` / ``(0, 1)`` kernel waits for cores the launch
  does not have (the page: a pure Vector kernel must pass true): a
  :class:`~ascreg.errors.SyncError`.

**C API** (``asc_sync_*_arrive`` are ``ffts_cross_core_sync`` with the mode the headers set,
the waits all ``wait_flag_dev``): ``inter`` is mode 0, ``subblock`` mode 1, ``block`` mode 2.

Examples
--------
>>> [(s.op, s.mode, s.pipe.name, s.flag) for s in HARD_STEPS["1:1", "AIV"]]
[('set', 2, 'PIPE_MTE3', 12), ('wait', 0, 'PIPE_S', 13)]
>>> C_API_MODES["block"], C_API_MODES["subblock"], C_API_MODES["inter"]
(2, 1, 0)
"""

from __future__ import annotations

from typing import Any

import attrs

from ascreg.errors import SyncError
from ascreg.machine.block import BlockContext
from ascreg.machine.crosscore import AIC, AIV, Core, cross_set, cross_wait, flags_of, ratio_of
from ascreg.machine.sync import Pipe

SYNC_AIC_FLAG, SYNC_AIV_FLAG, SYNC_AIC_AIV_FLAG, SYNC_AIV_ONLY_ALL = 11, 12, 13, 14
"""The flag ids the hard ``SyncAll`` uses (the page: it occupies 11 to 14)."""
INTRA_SECOND = 16
"""An AIC's mode-4 flag *f* + 16 faces AIV1."""
AI_CORES = 32
"""AI Cores of the Ascend 950 (``ACL_DEV_ATTR_AICORE_CORE_NUM``): a mixed launch using SyncAll
must fit (every core of it waits for all the others)."""


@attrs.frozen
class Step:
    """One flag instruction of a ``SyncAll`` sequence: ``op`` is ``"set"`` or ``"wait"``."""

    op: str
    mode: int
    pipe: Pipe
    flag: int


_S, _MTE3, _FIX = Pipe.PIPE_S, Pipe.PIPE_MTE3, Pipe.PIPE_FIX
HARD_STEPS: dict[tuple[str, str], tuple[Step, ...]] = {
    ("1:1", AIC): (
        Step("wait", 0, _S, SYNC_AIV_FLAG),
        Step("set", 0, _FIX, SYNC_AIC_FLAG),
        Step("wait", 0, _S, SYNC_AIC_FLAG),
        Step("set", 2, _MTE3, SYNC_AIC_AIV_FLAG),
    ),
    ("1:1", AIV): (Step("set", 2, _MTE3, SYNC_AIV_FLAG), Step("wait", 0, _S, SYNC_AIC_AIV_FLAG)),
    ("1:2", AIC): (
        Step("wait", 4, _S, SYNC_AIV_FLAG),
        Step("wait", 4, _S, SYNC_AIV_FLAG + INTRA_SECOND),
        Step("set", 0, _FIX, SYNC_AIC_FLAG),
        Step("wait", 0, _S, SYNC_AIC_FLAG),
        Step("set", 4, _S, SYNC_AIC_AIV_FLAG),
        Step("set", 4, _S, SYNC_AIC_AIV_FLAG + INTRA_SECOND),
    ),
    ("1:2", AIV): (Step("set", 4, _MTE3, SYNC_AIV_FLAG), Step("wait", 4, _S, SYNC_AIC_AIV_FLAG)),
}
"""The ``SyncAll<false>`` flag sequence of each (ratio, core kind), from the dav-3510 header."""

C_API_MODES = {"inter": 0, "subblock": 1, "block": 2}
"""The ``ffts_cross_core_sync`` mode of each ``asc_sync_<kind>_arrive`` (the dav-3510 headers)."""


def aiv_only_steps(trigger: Pipe, wait: Pipe) -> tuple[Step, ...]:
    """Return an AIV's ``SyncAll<true, {trigger, wait}>`` flag steps (after its pipe barrier).

    Examples
    --------
    >>> [(s.op, s.pipe.name) for s in aiv_only_steps(Pipe.PIPE_ALL, Pipe.PIPE_MTE2)]
    [('set', 'PIPE_MTE3'), ('wait', 'PIPE_MTE2')]
    """
    return (
        Step("set", 0, _MTE3 if trigger is Pipe.PIPE_ALL else trigger, SYNC_AIV_ONLY_ALL),
        Step("wait", 0, _S if wait is Pipe.PIPE_ALL else wait, SYNC_AIV_ONLY_ALL),
    )


def hard_sync_all(ctx: BlockContext, aiv_only: bool, trigger: Pipe, wait: Pipe, call: str) -> None:
    """Run the hard ``SyncAll`` of the running core of a mixed launch (module docstring).

    The caller has checked the config's pipes and barriered *trigger* (``PIPE_ALL`` for
    ``isAIVOnly`` false).
    """
    core, flags = flags_of(ctx, call)
    if ctx.block_num > AI_CORES:
        raise SyncError(
            f"{call} in a launch of {ctx.block_num} AI Cores: every core must run at once and "
            f"the Ascend 950 has {AI_CORES} AI Cores (more blocks hang the chip)",
            call=call,
        )
    if aiv_only:
        steps = aiv_only_steps(trigger, wait) if core.kind == AIV else ()
    else:
        steps = HARD_STEPS.get((_scheme(ratio_of(flags), call), core.kind), ())
    run_steps(core, steps, call)


def _scheme(ratio: tuple[int, int], call: str) -> str:
    if ratio not in ((1, 1), (1, 2)):
        raise SyncError(
            f"{call} with isAIVOnly false synchronises the AIC with its AIVs, which a "
            f"__mix__{ratio} kernel does not both have: the cores hang (the SyncAll page: a Mix "
            "kernel is __mix__(1, 1) or __mix__(1, 2); a pure Vector one must pass isAIVOnly "
            "true)",
            call=call,
        )
    return f"{ratio[0]}:{ratio[1]}"


def run_steps(core: Core, steps: tuple[Step, ...], call: str) -> None:
    """Issue *steps* on *core* (the running core) as ``CrossCoreSetFlag`` / ``WaitFlag`` would."""
    for step in steps:
        if step.op == "set":
            cross_set(step.mode, step.pipe, step.flag, call, allow_s=True)
        else:
            cross_wait(step.mode, step.pipe, step.flag, call)


def c_api_signal(kind: str, step: str, pipe: Any, flag: int, call: str) -> None:
    """``asc_sync_<kind>_<step>(pipe, flag)`` in a mixed launch (*flag* already in [0, 15]).

    An arrive is the header's ``ffts_cross_core_sync`` of mode ``C_API_MODES[kind]``
    (any single pipe, ``PIPE_S`` included as the pages' examples use); every wait is the same
    ``wait_flag_dev`` on the core's mode 0..2 counter.
    """
    if step == "arrive":
        cross_set(C_API_MODES[kind], pipe, flag, call, allow_s=True)
    else:
        cross_wait(0, pipe, flag, call)
