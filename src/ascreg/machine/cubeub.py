"""The cube core's moves into a vector core's Unified Buffer in a mixed launch (dav-3510).

On the Ascend 950 an AI Core of a ``__mix__(1, 2)`` launch has one cube core (AIC) and two
vector cores (AIV sub-blocks 0 and 1), each AIV with its own UB. The AIC's L1 -> UB copy
(``asc_copy_l12ub``, ``DataCopyL1ToUB``) and its L0C -> UB fixpipe (``asc_copy_l0c2ub``,
``Fixpipe`` with ``isToUB``) write the UB of the AIV their ``sub_blockid`` / ``subBlockId``
names (or both halves of a dual-destination fixpipe), at the ``__ubuf__`` address the AIC
passes. :func:`ub_target` finds that AIV's context; :func:`remote_pointer` is the AIC's dst
pointer moved into its UB; inside :func:`writing_into`, the AIC's writes there

- mark the bytes written (an AIV read of them is defined; a read of bytes nobody wrote is still
  an :class:`~ascreg.errors.UninitializedMemoryError`) and kept (an AIV allocation over them
  does not zero them: UB is not cleared on the chip);
- are ordered against the AIV's own accesses by the cross-core flags, as GM accesses between
  cores are (:meth:`~ascreg.machine.races.GmRaceCheck.watch_ub`): an AIV read of them with no
  ``CrossCoreSetFlag`` (AIC, after the move) / ``CrossCoreWaitFlag`` (AIV, before the read)
  chain between is a :class:`~ascreg.errors.SyncError`, and so is an AIC write over bytes the
  AIV accessed without such a chain in the other direction;
- stay out of the AIV's pipe tracker (they are the AIC's pipe's work, not the AIV's).

The cores of a mixed launch keep their contexts, and their UB, until the launch ends
(:meth:`~ascreg.machine.coop.BlockRunner.context_of`). In a mixed launch an AIV's call of
these moves does nothing (the 950 headers guard them with ``ASCEND_IS_AIC``); in a block run
alone (outside a launch) they write the block's own UB, as sub-block 0.

Examples
--------
>>> ctx = BlockContext(); ub_target(ctx, 0, "asc_copy_l12ub") is ctx
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ascreg.errors import AscregError
from ascreg.machine.block import BlockContext
from ascreg.machine.crosscore import AIC, AIV, RUNNER_STATE, core_of, running_kind
from ascreg.machine.memory import Pointer

__all__ = ["remote_pointer", "ub_target", "writing_into"]


def ub_target(
    ctx: BlockContext, sub: int, call: str, *, pairs_only: bool = False
) -> BlockContext | None:
    """Return the context whose UB an AIC's move to AIV *sub* writes; None: the move is a no-op.

    *ctx* is the running core: an AIC of a mixed launch gets its AI Core's AIV *sub*; an AIV
    of a mixed launch None (the headers' ``ASCEND_IS_AIC`` guard); a block run alone itself
    (*sub* must be 0). A ``__cube__`` launch has no AIV, and a ``__mix__(1, 1)`` one no AIV 1:
    an :class:`~ascreg.errors.AscregError` names *call*. *pairs_only*: the move needs two AIVs
    per AI Core (``DataCopyL1ToUB``: the 950 header refuses a 1:1 launch).

    Examples
    --------
    >>> ub_target(BlockContext(), 1, "asc_copy_l12ub")
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregError: asc_copy_l12ub: sub-block 1 outside a mixed launch: a block run alone is one vector core (sub-block 0)
    """
    core = core_of(ctx)
    if core is None:
        if running_kind(ctx) == AIC:
            raise AscregError(
                "a __cube__ kernel has no vector core whose UB the move could write: a kernel "
                "that moves cube data to UB is __mix__(1, 2) (the asc_copy_l12ub / "
                "DataCopyL1ToUB / L0C -> UB pages)",
                call=call,
            )
        if sub:
            raise AscregError(
                f"sub-block {sub} outside a mixed launch: a block run alone is one vector core "
                "(sub-block 0)",
                call=call,
            )
        return ctx
    if core.kind == AIV:
        return None
    if pairs_only and core_count(ctx, core.block) != 2:
        raise AscregError(
            "the launch has one vector core per AI Core: the move needs __mix__(1, 2) (its page "
            "supports only the 1:2 ratio of cube to vector cores)",
            call=call,
        )
    if sub >= core_count(ctx, core.block):
        raise AscregError(
            f"sub-block {sub}: AI Core {core.block} of this launch has "
            f"{core_count(ctx, core.block)} vector core(s) (the kernel's __mix__ ratio); the "
            "AIC writes the UB of AIV 0 or, at __mix__(1, 2), AIV 1",
            call=call,
        )
    runner = ctx.shared[RUNNER_STATE]
    member = next(
        c.member for c in runner.cores if c.kind == AIV and c.block == core.block and c.sub == sub
    )
    target: BlockContext = runner.context_of(member)
    return target


def core_count(ctx: BlockContext, block: int) -> int:
    """Return how many AIVs AI Core *block* of *ctx*'s mixed launch has.

    Examples
    --------
    >>> from ascreg.machine.coop import BlockRunner
    >>> from ascreg.machine.crosscore import topology
    >>> shared = {}; _ = BlockRunner(print, (), {}, 2, 0, "k", None, shared, topology(2, 1, 2))
    >>> core_count(BlockContext(shared=shared), 1)
    2
    """
    runner = ctx.shared[RUNNER_STATE]
    return sum(1 for c in runner.cores if c.kind == AIV and c.block == block)


def remote_pointer(target: BlockContext, dst: Pointer[Any]) -> Pointer[Any]:
    """Return *dst* (the AIC's ``__ubuf__`` pointer) as a pointer into *target*'s UB.

    The address is the same; an access is bounds-checked against *dst*'s allocation when it
    has one (an AIC's ``__ubuf__`` array, a ``TBuf``), else against the 248 KiB UB.

    Examples
    --------
    >>> from ascreg import half
    >>> aic, aiv = BlockContext(), BlockContext()
    >>> p = remote_pointer(aiv, aic.ub.alloc(half, 16) + 4); p.memory is aiv.ub, p.address
    (True, 8)
    """
    if target.ub is dst.memory:
        return dst
    return target.ub.pointer_class(target.ub, dst.dtype, dst.address, dst.block)


@contextlib.contextmanager
def writing_into(ctx: BlockContext, target: BlockContext) -> Iterator[None]:
    """Make the accesses to *target*'s UB inside the ``with`` the running core *ctx*'s writes.

    Nothing changes when *target* is *ctx* (a block run alone writes its own UB).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint8_t
    >>> aic, aiv = BlockContext(), BlockContext()
    >>> with writing_into(aic, aiv):
    ...     aiv.ub.pointer(uint8_t, 0).write(np.ones(32, np.uint8))
    >>> aiv.all_written(0, 32), aiv.tracker.records
    (True, [])
    """
    if target is ctx:
        yield
        return
    ub = target.ub
    runner = ctx.shared.get(RUNNER_STATE)
    races = None if runner is None else runner.races
    if races is None:  # (no launch: a test driving two contexts by hand)
        saved = ub.on_access
        ub.on_access = target.remote_write
        try:
            yield
        finally:
            ub.on_access = saved
        return
    core = core_of(target)
    hook = races.watch_ub(ub, f"the UB of {core.name if core else 'the vector core'}")
    own = hook.previous
    hook.previous = target.remote_write
    try:
        yield
    finally:
        hook.previous = own
