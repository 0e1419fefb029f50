"""The old path of the SIMT execution engine: :mod:`ascreg.machine.simt.engine`.

The engine, its lanes and the warp rendezvous are part of the machine model; :mod:`ascreg.simt`
re-exports the public names, and this module keeps the old import path working.

Examples
--------
>>> from ascreg.machine.simt import engine
>>> dim3 is engine.dim3 and Journal is engine.Journal
True
"""

from ascreg.machine.simt.engine import (
    BOUNDS_ATTR,
    DEFAULT_LAUNCH_BOUNDS,
    KIND_ATTR,
    MAX_BLOCKS,
    MAX_THREADS_PER_BLOCK,
    BlockRun,
    Fiber,
    Group,
    Journal,
    LanePointer,
    Scheduler,
    SimtGmPtr,
    SimtUbPtr,
    __launch_bounds__,
    __simt_callee__,
    __simt_vf__,
    as_dim3,
    blockDim,
    blockIdx,
    convert_value,
    current_group,
    dim3,
    gridDim,
    run_block,
    run_simt_kernel,
    run_simt_vf,
    shared_alloc,
    sync_error,
    threadIdx,
    warpSize,
    wrap_pointer,
)
from ascreg.machine.simt.lanes import Lanes
from ascreg.machine.simt.rendezvous import WARP_SIZE

__all__ = [
    "BOUNDS_ATTR",
    "DEFAULT_LAUNCH_BOUNDS",
    "KIND_ATTR",
    "MAX_BLOCKS",
    "MAX_THREADS_PER_BLOCK",
    "WARP_SIZE",
    "BlockRun",
    "Fiber",
    "Group",
    "Journal",
    "LanePointer",
    "Lanes",
    "Scheduler",
    "SimtGmPtr",
    "SimtUbPtr",
    "__launch_bounds__",
    "__simt_callee__",
    "__simt_vf__",
    "as_dim3",
    "blockDim",
    "blockIdx",
    "convert_value",
    "current_group",
    "dim3",
    "gridDim",
    "run_block",
    "run_simt_kernel",
    "run_simt_vf",
    "shared_alloc",
    "sync_error",
    "threadIdx",
    "warpSize",
    "wrap_pointer",
]
