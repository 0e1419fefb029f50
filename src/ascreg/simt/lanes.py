"""The old path of the thread-varying ``Lanes`` values: :mod:`ascreg.machine.simt.lanes`.

The engine, its lanes and the warp rendezvous are part of the machine model; :mod:`ascreg.simt`
re-exports the public names, and this module keeps the old import path working.

Examples
--------
>>> from ascreg.machine.simt import lanes
>>> Lanes is lanes.Lanes
True
"""

from ascreg.machine.simt.lanes import (
    STATE,
    DivergenceSignal,
    DivergentBranchError,
    Lanes,
    apply_lanewise,
    as_lanes,
    is_lanes,
)

__all__ = [
    "STATE",
    "DivergenceSignal",
    "DivergentBranchError",
    "Lanes",
    "apply_lanewise",
    "as_lanes",
    "is_lanes",
]
