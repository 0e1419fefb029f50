"""Warp functions, lane ids and block synchronisation (``asc_shfl``, ``asc_ballot``, ``laneid`` ...).

Each warp function checks its arguments against its row, then hands its lane formula from
:mod:`ascreg.core.warp` (written once, on ``(warps, 32)`` arrays of lane values and of the lanes
taking part) to the SIMT engine. The vectorised tier calls it on the whole block (lanes past the
end of a partial last warp are inactive, and so are the lanes outside the active mask in
divergent code); the per-thread tier collects the threads of a warp at the call (a rendezvous)
and calls it on those lanes only. ``asc_syncthreads`` reached by part of the block (in divergent
code, or after some threads returned) hands the block to the per-thread tier, which reports the
hang as before.

Decisions: ``asc_shfl_xor`` follows the documented CUDA rule (a target lane in the caller's own or
a *lower* group is read; one in a higher group returns the caller's value), not the CPU-debug
model; reading an inactive lane is undefined (an error by default, the caller's own value under
``set_policy(undefined="warn")``); ``asc_reduce_*`` combine with a butterfly (xor 16, 8, 4, 2, 1)
over the active lanes and broadcast lane 0's result.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, int32_t
>>> from ascreg.simt import dim3, threadIdx, run_simt_kernel, asc_shfl_down, asc_reduce_add
>>> out = GlobalMemory().alloc(int32_t, 64)
>>> def k(out):
...     v = threadIdx.x.astype(np.int32)
...     out[threadIdx.x] = asc_shfl_down(v, 1) + 100 * asc_reduce_add(v)
>>> run_simt_kernel(k, dim3(1), dim3(64), 0, (out,))
>>> out.read(64)[[0, 31, 32, 63]]
array([ 49601,  49631, 152033, 152063], dtype=int32)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._frontend import operands
from ascreg._frontend.template import define
from ascreg._spec import SPECS
from ascreg.core import warp
from ascreg.machine.simt.engine import current_group
from ascreg.machine.simt.lanes import Lanes

# The engine runs the per-thread rendezvous now; these names stay importable here (stub).
from ascreg.machine.simt.rendezvous import WARP_SIZE, WarpRequest, complete_rendezvous  # noqa: F401

Arr = np.ndarray[Any, Any]


def _value_types(name: str) -> tuple[np.dtype[Any], ...]:
    """Return the numpy dtypes of the first parameter of the table row *name*, in table order."""
    return tuple(dict.fromkeys(combo[0].np_dtype for combo in SPECS[name].combos))


SHFL_TYPES = _value_types("asc_shfl")
"""Value types of the shuffles (the ``var`` column of the ``asc_shfl*`` rows)."""
REDUCE_TYPES = _value_types("asc_reduce_add")
"""Value types of ``asc_reduce_add/max/min`` (the ``value`` column of their rows)."""
_PREDICATE_TYPES = tuple(map(np.dtype, (np.int32, np.bool_, np.uint32, np.int64)))
"""What the votes accept for their ``int32_t`` predicate (``asc_ballot`` also takes uint64)."""
_BALLOT_TYPES = (*_PREDICATE_TYPES, np.dtype(np.uint64))


def _on_warps(
    op: Any,
    value: Any,
    compute: Callable[..., Arr],
    legal: tuple[np.dtype[Any], ...],
    *params: Any,
    key: tuple[Any, ...] = (),
) -> Any:
    """Check the ``T`` argument of *op*, then run *compute* on the warps of the running group."""
    group = current_group(op.name)
    array = operands.c_template_value(op.name, op.spec.roles[0], value, legal)
    lanes = np.broadcast_to(array, (group.size,)) if array.ndim == 0 else array.reshape(group.size)
    return group.warp_call((op.name, *key), compute, lanes, params)


def _shuffle(op: Any, formula: Callable[..., Arr], var: Any, lane: Any, width: Any) -> Any:
    """Check a shuffle's lane parameter and width against its row, then shuffle *var*."""
    checked_width = operands.integer_in(width, "width", 2, WARP_SIZE, multiple=2)
    role, lane_type = op.spec.roles[1], op.spec.combos[0][1]
    lane = operands.c_integer(op.name, role, lane)
    if lane_type.np_dtype.kind == "u":
        operands.non_negative(lane, role, lane_type.cpp_name)
    compute = functools.partial(formula, width=checked_width, call=op.name)
    return _on_warps(op, var, compute, SHFL_TYPES, lane, key=(checked_width,))


@define("asc_shfl")
def asc_shfl(op: Any, var: Any, src_lane: Any, width: int = WARP_SIZE) -> Any:
    """``T asc_shfl(T var, int32_t src_lane, int32_t width = warpSize)``.

    Each lane reads ``var`` of lane ``group_start + src_lane % width`` of its own group of
    ``width`` consecutive lanes.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 8)
    >>> def k(out):
    ...     out[threadIdx.x] = asc_shfl(threadIdx.x * 10, 1, 4)
    >>> run_simt_kernel(k, dim3(1), dim3(8), 0, (out,))
    >>> out.read(8)
    array([10, 10, 10, 10, 50, 50, 50, 50], dtype=uint32)
    """
    return _shuffle(op, warp.shfl, var, src_lane, width)


@define("asc_shfl_up")
def asc_shfl_up(op: Any, var: Any, delta: Any, width: int = WARP_SIZE) -> Any:
    """``T asc_shfl_up(T var, uint32_t delta, int32_t width = 32)``: lane ``i - delta`` of the group.

    Lanes whose source would leave their group keep their own value.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 4)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x, asc_shfl_up(threadIdx.x, 1)), dim3(1), dim3(4), 0, (out,))
    >>> out.read(4)
    array([0, 0, 1, 2], dtype=uint32)
    """
    return _shuffle(op, warp.shfl_up, var, delta, width)


@define("asc_shfl_down")
def asc_shfl_down(op: Any, var: Any, delta: Any, width: int = WARP_SIZE) -> Any:
    """``T asc_shfl_down(T var, uint32_t delta, int32_t width = 32)``: lane ``i + delta`` of the group.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 4)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x, asc_shfl_down(threadIdx.x, 1, 2)), dim3(1), dim3(4), 0, (out,))
    >>> out.read(4)
    array([1, 1, 3, 3], dtype=uint32)
    """
    return _shuffle(op, warp.shfl_down, var, delta, width)


@define("asc_shfl_xor")
def asc_shfl_xor(op: Any, var: Any, lane_mask: Any, width: int = WARP_SIZE) -> Any:
    """``T asc_shfl_xor(T var, int32_t lane_mask, int32_t width = 32)``: lane ``i ^ lane_mask``.

    A target in a higher group than the caller's returns the caller's own value.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 4)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x, asc_shfl_xor(threadIdx.x, 1)), dim3(1), dim3(4), 0, (out,))
    >>> out.read(4)
    array([1, 0, 3, 2], dtype=uint32)
    """
    return _shuffle(op, warp.shfl_xor, var, lane_mask, width)


@define("asc_ballot")
def asc_ballot(op: Any, predicate: Any) -> Any:
    """``uint32_t asc_ballot(int32_t p)``: bit *i* set when active lane *i* has ``p != 0``.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 1)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x * 0, asc_ballot(threadIdx.x % 2)), dim3(1), dim3(32), 0, (out,))
    >>> hex(int(out.read(1)[0]))
    '0xaaaaaaaa'
    """
    return _on_warps(op, predicate, warp.ballot, _BALLOT_TYPES)


def asc_activemask() -> Any:
    """``uint32_t asc_activemask()``: one bit per active lane of the warp.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 1)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x * 0, asc_activemask()), dim3(1), dim3(5), 0, (out,))
    >>> int(out.read(1)[0])
    31
    """
    group = current_group("asc_activemask")
    no_value = np.zeros(group.size, dtype=np.int32)
    return group.warp_call(("asc_activemask",), warp.activemask, no_value, ())


@define("asc_all")
def asc_all(op: Any, predicate: Any) -> Any:
    """``int32_t asc_all(int32_t p)``: 1 when every active lane has ``p != 0``.

    Examples
    --------
    >>> from ascreg import GlobalMemory, int32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(int32_t, 2)
    >>> def k(out):
    ...     out[threadIdx.x * 0] = asc_all(threadIdx.x < 40)
    ...     out[threadIdx.x * 0 + 1] = asc_all(threadIdx.x < 3)
    >>> run_simt_kernel(k, dim3(1), dim3(32), 0, (out,))
    >>> out.read(2)
    array([1, 0], dtype=int32)
    """
    return _on_warps(op, predicate, warp.vote_all, _PREDICATE_TYPES)


@define("asc_any")
def asc_any(op: Any, predicate: Any) -> Any:
    """``int32_t asc_any(int32_t p)``: 1 when some active lane has ``p != 0``.

    Examples
    --------
    >>> from ascreg import GlobalMemory, int32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(int32_t, 1)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x * 0, asc_any(threadIdx.x == 7)), dim3(1), dim3(32), 0, (out,))
    >>> out.read(1)
    array([1], dtype=int32)
    """
    return _on_warps(op, predicate, warp.vote_any, _PREDICATE_TYPES)


@define("asc_reduce_add")
def asc_reduce_add(op: Any, value: Any) -> Any:
    """``T asc_reduce_add(T val)``: the warp's sum over active lanes, broadcast (wraps for ints).

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 1)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x * 0, asc_reduce_add(threadIdx.x)), dim3(1), dim3(32), 0, (out,))
    >>> out.read(1)
    array([496], dtype=uint32)
    """
    return _on_warps(op, value, warp.REDUCTIONS["add"], REDUCE_TYPES)


@define("asc_reduce_max")
def asc_reduce_max(op: Any, value: Any) -> Any:
    """``T asc_reduce_max(T val)``: the warp's maximum over active lanes, broadcast.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 1)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x * 0, asc_reduce_max(threadIdx.x)), dim3(1), dim3(20), 0, (out,))
    >>> out.read(1)
    array([19], dtype=uint32)
    """
    return _on_warps(op, value, warp.REDUCTIONS["max"], REDUCE_TYPES)


@define("asc_reduce_min")
def asc_reduce_min(op: Any, value: Any) -> Any:
    """``T asc_reduce_min(T val)``: the warp's minimum over active lanes, broadcast.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 1)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x * 0, asc_reduce_min(threadIdx.x + 3)), dim3(1), dim3(20), 0, (out,))
    >>> out.read(1)
    array([3], dtype=uint32)
    """
    return _on_warps(op, value, warp.REDUCTIONS["min"], REDUCE_TYPES)


def laneid() -> Any:
    """``int32_t laneid()``: the thread's lane in its warp, 0..31.

    Examples
    --------
    >>> from ascreg import GlobalMemory, int32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(int32_t, 40)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x, laneid()), dim3(1), dim3(40), 0, (out,))
    >>> out.read(40)[30:34]
    array([30, 31,  0,  1], dtype=int32)
    """
    return warp.lane_ids(current_group("laneid()").tids).view(Lanes)


def _lanemask(kind: str) -> Any:
    call = f"lanemask_{kind}()"
    return warp.lane_mask(kind, current_group(call).tids).view(Lanes)


def lanemask_eq() -> Any:
    """``uint32_t lanemask_eq()``: only the caller's lane bit.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 32)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x, lanemask_eq()), dim3(1), dim3(32), 0, (out,))
    >>> hex(int(out.read(32)[31]))
    '0x80000000'
    """
    return _lanemask("eq")


def lanemask_lt() -> Any:
    """``uint32_t lanemask_lt()``: bits of the lanes below the caller's.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 32)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x, lanemask_lt()), dim3(1), dim3(32), 0, (out,))
    >>> hex(int(out.read(32)[31]))
    '0x7fffffff'
    """
    return _lanemask("lt")


def lanemask_le() -> Any:
    """``uint32_t lanemask_le()``: bits of the lanes up to and including the caller's.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 32)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x, lanemask_le()), dim3(1), dim3(32), 0, (out,))
    >>> hex(int(out.read(32)[31])), hex(int(out.read(32)[0]))
    ('0xffffffff', '0x1')
    """
    return _lanemask("le")


def lanemask_gt() -> Any:
    """``uint32_t lanemask_gt()``: bits of the lanes above the caller's.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 32)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x, lanemask_gt()), dim3(1), dim3(32), 0, (out,))
    >>> hex(int(out.read(32)[0])), int(out.read(32)[31])
    ('0xfffffffe', 0)
    """
    return _lanemask("gt")


def lanemask_ge() -> Any:
    """``uint32_t lanemask_ge()``: bits of the caller's lane and above.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 32)
    >>> run_simt_kernel(lambda out: out.__setitem__(threadIdx.x, lanemask_ge()), dim3(1), dim3(32), 0, (out,))
    >>> hex(int(out.read(32)[31]))
    '0x80000000'
    """
    return _lanemask("ge")


def asc_syncthreads() -> None:
    """``void asc_syncthreads()``: wait until every (non-exited) thread of the block arrives.

    In the vectorised tier all threads already run in lockstep, so this costs nothing.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.simt import dim3, threadIdx, run_simt_kernel
    >>> out = GlobalMemory().alloc(uint32_t, 4)
    >>> def k(out):
    ...     out[threadIdx.x] = threadIdx.x
    ...     asc_syncthreads()
    ...     out[threadIdx.x] = out[3 - threadIdx.x] * 2
    >>> run_simt_kernel(k, dim3(1), dim3(4), 0, (out,))
    >>> out.read(4)
    array([6, 4, 2, 0], dtype=uint32)
    """
    current_group("asc_syncthreads()").sync_threads()


def asc_threadfence() -> None:
    """``void asc_threadfence()``: order memory accesses (a no-op: emulated memory is coherent).

    Examples
    --------
    >>> asc_threadfence()
    """


def asc_threadfence_block() -> None:
    """``void asc_threadfence_block()``: block-scope fence (a no-op, as :func:`asc_threadfence`).

    Examples
    --------
    >>> asc_threadfence_block()
    """
