"""Warp functions, lane ids and block synchronisation (``asc_shfl``, ``asc_ballot``, ``laneid`` ...).

Every warp function is written once, on a ``(warps, 32)`` array of lane values plus a
``(warps, 32)`` mask of the lanes taking part. The vectorised tier calls it on the whole block
(lanes past the end of a partial last warp are inactive); the per-thread tier collects the
threads of a warp at the call (a rendezvous) and calls it on those lanes only.

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

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._spec import SPECS
from ascreg.errors import AscregTypeError, UndefinedBehaviourError, undefined_behaviour
from ascreg.machine.simt.engine import current_group
from ascreg.machine.simt.lanes import Lanes

# The engine runs the per-thread rendezvous now; these names stay importable here (stub).
from ascreg.machine.simt.rendezvous import WARP_SIZE, WarpRequest, complete_rendezvous  # noqa: F401

Arr = np.ndarray[Any, Any]
_LANE = np.arange(WARP_SIZE, dtype=np.int64)


def _value_types(name: str) -> tuple[np.dtype[Any], ...]:
    """Return the numpy dtypes of the first parameter of the table row *name*, in table order."""
    return tuple(dict.fromkeys(combo[0].np_dtype for combo in SPECS[name].combos))


SHFL_TYPES = _value_types("asc_shfl")
"""Value types of the shuffles (the ``var`` column of the ``asc_shfl*`` rows)."""
REDUCE_TYPES = _value_types("asc_reduce_add")
"""Value types of ``asc_reduce_add/max/min`` (the ``value`` column of their rows)."""


def _lanes_of(value: Any, n: int, call: str, legal: tuple[np.dtype[Any], ...]) -> Arr:
    array = np.asarray(value)
    if array.dtype.kind == "i" and not isinstance(value, np.ndarray | np.generic):
        array = array.astype(np.int32) if -(2**31) <= int(value) < 2**31 else array.astype(np.int64)
    elif array.dtype.kind == "f" and not isinstance(value, np.ndarray | np.generic):
        array = array.astype(np.float32)
    if array.dtype not in legal:
        names = ", ".join(d.name for d in legal)
        raise AscregTypeError(
            f"a value of dtype {array.dtype} is not supported; legal: {names}", call=call
        )
    return np.broadcast_to(array, (n,)) if array.ndim == 0 else array.reshape(n)


def _warp_call(
    call: str,
    value: Any,
    params: tuple[Any, ...],
    compute: Callable[..., Arr],
    legal: tuple[np.dtype[Any], ...],
    key: tuple[Any, ...] = (),
) -> Any:
    group = current_group(call)
    vals = _lanes_of(value, group.size, call, legal)
    return group.warp_call((call, *key), compute, vals, params)


def _width(width: Any, call: str) -> int:
    w = int(width)
    if w < 2 or w > WARP_SIZE or w % 2:
        raise AscregTypeError(f"width {w} must be a multiple of 2 in [2, {WARP_SIZE}]", call=call)
    return w


def _read(vals: Arr, active: Arr, target: Arr, use: Arr, call: str) -> Arr:
    """Lane ``target`` of each warp where *use*, else the lane's own value."""
    rows = np.arange(vals.shape[0])[:, None]
    inside = use & (target >= 0) & (target < WARP_SIZE)
    safe = np.where(inside, target, _LANE)
    bad = active & inside & ~active[rows, safe]
    if bad.any():
        w, lane = (int(v[0]) for v in np.nonzero(bad))
        undefined_behaviour(
            UndefinedBehaviourError(
                f"lane {lane} of warp {w} reads lane {int(safe[w, lane])}, which is not active "
                "(an uninitialised register on the chip)",
                call=call,
            )
        )
        safe = np.where(bad, _LANE, safe)
    return vals[rows, safe]


def asc_shfl(var: Any, src_lane: Any, width: int = WARP_SIZE) -> Any:
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
    _ascreg_call = "asc_shfl"
    w = _width(width, _ascreg_call)

    def compute(vals: Arr, active: Arr, src: Arr) -> Arr:
        target = (_LANE // w) * w + np.mod(src, w)
        return _read(vals, active, target, np.ones_like(active), _ascreg_call)

    return _warp_call(_ascreg_call, var, (src_lane,), compute, SHFL_TYPES, (w,))


def _delta(delta: Any, call: str) -> Any:
    if np.any(np.asarray(delta) < 0):
        raise AscregTypeError(f"delta {delta!r} must be >= 0 (uint32_t)", call=call)
    return delta


def asc_shfl_up(var: Any, delta: Any, width: int = WARP_SIZE) -> Any:
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
    _ascreg_call = "asc_shfl_up"
    w = _width(width, _ascreg_call)

    def compute(vals: Arr, active: Arr, d: Arr) -> Arr:
        target = _LANE - d
        return _read(vals, active, target, target >= (_LANE // w) * w, _ascreg_call)

    return _warp_call(_ascreg_call, var, (_delta(delta, _ascreg_call),), compute, SHFL_TYPES, (w,))


def asc_shfl_down(var: Any, delta: Any, width: int = WARP_SIZE) -> Any:
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
    _ascreg_call = "asc_shfl_down"
    w = _width(width, _ascreg_call)

    def compute(vals: Arr, active: Arr, d: Arr) -> Arr:
        target = _LANE + d
        end = np.minimum((_LANE // w) * w + w, WARP_SIZE)
        return _read(vals, active, target, target < end, _ascreg_call)

    return _warp_call(_ascreg_call, var, (_delta(delta, _ascreg_call),), compute, SHFL_TYPES, (w,))


def asc_shfl_xor(var: Any, lane_mask: Any, width: int = WARP_SIZE) -> Any:
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
    _ascreg_call = "asc_shfl_xor"
    w = _width(width, _ascreg_call)

    def compute(vals: Arr, active: Arr, m: Arr) -> Arr:
        target = _LANE ^ m
        return _read(vals, active, target, target < (_LANE // w) * w + w, _ascreg_call)

    return _warp_call(_ascreg_call, var, (lane_mask,), compute, SHFL_TYPES, (w,))


_PRED = (np.dtype(np.int32), np.dtype(np.bool_), np.dtype(np.uint32), np.dtype(np.int64))


def _bits(flags: Arr) -> Arr:
    weights = np.uint64(1) << _LANE.astype(np.uint64)
    total = (flags.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64).astype(np.uint32)
    return np.broadcast_to(total[:, None], flags.shape)


def asc_ballot(predicate: Any) -> Any:
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
    _ascreg_call = "asc_ballot"
    return _warp_call(
        _ascreg_call,
        predicate,
        (),
        lambda v, a: _bits((v != 0) & a),
        (*_PRED, np.dtype(np.uint64)),
    )


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
    _ascreg_call = "asc_activemask"
    return _warp_call(_ascreg_call, 0, (), lambda v, a: _bits(a), _PRED)


def asc_all(predicate: Any) -> Any:
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
    _ascreg_call = "asc_all"

    def compute(v: Arr, a: Arr) -> Arr:
        result = ((v != 0) | ~a).all(axis=1).astype(np.int32)
        return np.broadcast_to(result[:, None], v.shape)

    return _warp_call(_ascreg_call, predicate, (), compute, _PRED)


def asc_any(predicate: Any) -> Any:
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
    _ascreg_call = "asc_any"

    def compute(v: Arr, a: Arr) -> Arr:
        result = ((v != 0) & a).any(axis=1).astype(np.int32)
        return np.broadcast_to(result[:, None], v.shape)

    return _warp_call(_ascreg_call, predicate, (), compute, _PRED)


def _reduce(call: str, value: Any, combine: Callable[[Arr, Arr], Arr]) -> Any:
    def compute(v: Arr, a: Arr) -> Arr:
        acc, have = v.copy(), a.copy()
        for offset in (16, 8, 4, 2, 1):
            partner = _LANE ^ offset
            other, other_have = acc[:, partner], have[:, partner]
            both = have & other_have
            low = partner > _LANE  # keep the operand order (lower lane first) for floats
            combined = np.where(low, combine(acc, other), combine(other, acc))
            acc = np.where(both, combined, np.where(other_have, other, acc))
            have = have | other_have
        return np.broadcast_to(acc[:, :1], v.shape)

    return _warp_call(call, value, (), compute, REDUCE_TYPES)


def asc_reduce_add(value: Any) -> Any:
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
    _ascreg_call = "asc_reduce_add"
    return _reduce(_ascreg_call, value, np.add)


def asc_reduce_max(value: Any) -> Any:
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
    _ascreg_call = "asc_reduce_max"
    return _reduce(_ascreg_call, value, np.maximum)


def asc_reduce_min(value: Any) -> Any:
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
    _ascreg_call = "asc_reduce_min"
    return _reduce(_ascreg_call, value, np.minimum)


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
    group = current_group("laneid()")
    return (group.tids % WARP_SIZE).astype(np.int32).view(Lanes)


def _lanemask(call: str, build: Callable[[Arr], Arr]) -> Any:
    lane = current_group(call).tids % WARP_SIZE
    return (build(lane.astype(np.uint64)) & np.uint64(0xFFFFFFFF)).astype(np.uint32).view(Lanes)


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
    return _lanemask("lanemask_eq()", lambda lane: np.uint64(1) << lane)


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
    return _lanemask("lanemask_lt()", lambda lane: (np.uint64(1) << lane) - np.uint64(1))


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
    return _lanemask("lanemask_le()", lambda lane: (np.uint64(2) << lane) - np.uint64(1))


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
    return _lanemask("lanemask_gt()", lambda lane: ~((np.uint64(2) << lane) - np.uint64(1)))


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
    return _lanemask("lanemask_ge()", lambda lane: ~((np.uint64(1) << lane) - np.uint64(1)))


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
