"""The profiler's recording hook: where the running machine reports what it does.

``import ascreg`` never loads the profiler (:mod:`ascreg.profile`). While a profile records,
:data:`RECORDING` holds its recorder, and two places report to it:

* every op forwarder (:func:`ascreg._frontend.template.define`) hands its call to
  ``RECORDING.pop().call(op, forwarder, args[, kwargs])``, which runs the same forwarder again
  (the list is empty meanwhile, so the op runs as usual and the ops it calls are part of it)
  and records the op with its source line; inside a batched VF loop one call stands for every
  iteration of the batch (:data:`~ascreg.machine.registers.BATCHING`);
* every :class:`~ascreg.machine.block.BlockContext` made while recording is handed to
  ``RECORDING[0].block(ctx)``, which swaps in a pipe tracker that reports each UB and GM access
  with its pipe, each copy, flag, barrier and VF boundary (:mod:`ascreg.machine.sync`).

When nothing records, each op call tests the list once and each block context once.

Examples
--------
>>> RECORDING
[]
"""

from __future__ import annotations

from typing import Any

RECORDING: list[Any] = []
"""The recorder of the running profile (at most one), or empty: nothing is recorded."""
