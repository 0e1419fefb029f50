"""The cube core's L1 -> UB copy (``asc_copy_l12ub``, ``DataCopyL1ToUB``) on ``PIPE_MTE1``.

Both front ends check their own operands, describe the copy as
:class:`~ascreg._frontend.cube.Bursts` and call :func:`l1_to_ub`, which writes the UB of the
vector core the sub-block names (:mod:`ascreg.machine.cubeub`).

Examples
--------
>>> import numpy as np
>>> from ascreg import half
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()) as ctx:
...     l1 = cube_buffers().pointer("l1", half, 0); l1.write(np.arange(64)); ctx.tracker.barrier()
...     ub = ctx.ub.alloc(half, 32)
...     l1_to_ub(ub, l1, 0, Bursts(2, 32, 32, 0), "asc_copy_l12ub"); ctx.tracker.barrier()
...     ub.read(32)[[0, 15, 16, 31]].tolist()
[0.0, 15.0, 32.0, 47.0]
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend.cube import Bursts, aligned, copy_bursts
from ascreg.machine.block import current_block
from ascreg.machine.cube import C0_BYTES
from ascreg.machine.cubeub import remote_pointer, ub_target, writing_into
from ascreg.machine.memory import Pointer
from ascreg.machine.sync import PIPE_MTE1

BURST_COUNT_MAX = 4095
"""The largest burst count of the L1 -> UB copy (``DataCopyL1ToUB``: blockCount in [1, 4095])."""


def l1_to_ub(
    dst: Pointer[Any], src: Pointer[Any], sub: int, bursts: Bursts, call: str, *,
    pairs_only: bool = False,
) -> None:  # fmt: skip
    """Copy *bursts* from L1 (*src*) to the UB of vector core *sub* at *dst*'s address.

    Both pointers must be 32-byte aligned. In a block run alone *dst* is the block's own UB;
    on an AIV of a mixed launch nothing happens (:func:`~ascreg.machine.cubeub.ub_target`).
    """
    aligned(dst, C0_BYTES, "dst")
    aligned(src, C0_BYTES, "src")
    ctx = current_block()
    target = ub_target(ctx, sub, call, pairs_only=pairs_only)
    if target is None or not bursts.count or not bursts.nbytes:
        return
    with writing_into(ctx, target):
        copy_bursts(remote_pointer(target, dst), src, bursts, PIPE_MTE1)
