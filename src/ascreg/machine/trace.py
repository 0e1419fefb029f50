"""The profiler's recording hook: where the running machine reports what it does.

``import ascreg`` never loads the profiler (:mod:`ascreg.profile`). While a profile records,
:data:`RECORDING` holds its recorder, and two places report to it:

* every op forwarder (what ``ascreg._frontend.template.define`` makes) hands its call to
  ``RECORDING.pop().call(op, forwarder, args[, kwargs])``, which runs the same forwarder again
  (the list is empty meanwhile, so the op runs as usual and the ops it calls are part of it)
  and records the op with its source line; inside a batched VF loop one call stands for every
  iteration of the batch (the running batch, ``ascreg.machine.registers.BATCHING``, has its
  iteration count as ``count``);
* every :class:`~ascreg.machine.block.BlockContext` made while recording is handed to
  ``RECORDING[0].block(ctx)``, which swaps in a pipe tracker that reports each UB and GM access
  with its pipe, each copy, flag, barrier and VF boundary (:mod:`ascreg.machine.sync`).

When nothing records, each op call tests the list once and each block context once.

What the recorder relies on from the execution engine (``ascreg.machine.batch`` /
``ascreg.engine``): the running batch (``ascreg.machine.registers.BATCHING[-1]``) says how many
iterations it stands for (``count``) and whether it touched a block's UB (``watched``); a batch
that completes, batched or replayed from a recorded plan, reports its UB accesses to the block
(``BlockContext.access_rows``), one that is undone does not. A replay calls no forwarder: the
recorder counts for it the ops that the batched run of the same loop (the same VF code and the
same pattern of UB accesses) recorded, in this profile or an earlier one.

Examples
--------
>>> RECORDING
[]
"""

from __future__ import annotations

from typing import Any

__all__ = ["GENERATION", "RECORDING"]

RECORDING: list[Any] = []
"""The recorder of the running profile (at most one), or empty: nothing is recorded."""
GENERATION = [0]
"""The generation of the profiler's table of what each batched loop's ops are (emptied when it
grows too large). A recorded plan of the engine (:mod:`ascreg.engine.plans`) keeps the
generation it was recorded under while a profile recorded (-1 when none did); while a profile
records, only the plans of the running generation replay: the recorder counts a replay by the
ops it saw the loop's batched run call, in this profile or an earlier one.
"""
