"""SIMT programming: ``__byte_perm`` and the integer device functions, thread grids, warps, atomics.

Import everything a SIMT kernel uses from here::

    from ascreg.simt import __simt_vf__, __launch_bounds__, threadIdx, blockIdx, blockDim, __byte_perm

Writing and launching kernels
-----------------------------
* Pure SIMT: a ``__global__`` function (not ``__vector__``/``__aicore__``) launched
  ``kernel[grid, block, dyn_ub_bytes, stream](args)``; the kernel runtime calls
  :func:`run_simt_kernel`. Each block gets its own Unified Buffer (``__ubuf__(T, n)`` arrays and
  ``__ubuf__.extern(T)`` for the *dyn_ub_bytes* of dynamic UB).
* Hybrid: a ``__simt_vf__`` function started from a ``__vector__`` kernel with
  ``asc_vf_call[f](dim3(n), args)``; the runtime calls :func:`run_simt_vf` with ``gridDim.x`` =
  the launch's block count and ``blockIdx.x`` = the running block.
* ``__launch_bounds__(n)`` caps the threads per block at *n* (1..2048); without it the cap is
  1024 (the documented default). More than 2048 threads per block is always an error.
* Marks the runtime checks: ``f.__ascreg_kind__`` is ``"simt_vf"`` (``__simt_vf__``) or
  ``"simt_callee"`` (``__simt_callee__``); ``f.__ascreg_launch_bounds__`` holds *n*.
* ``__byte_perm`` raises :class:`~ascreg.errors.UnsupportedError` inside a pure SIMT kernel (the
  documented restriction); it works in ``__simt_vf__`` functions and on the host.

How threads execute (what is fast, what is slow)
------------------------------------------------
**Fast — vectorised.** A block's body runs *once*, with every thread as one numpy lane:
``threadIdx.x`` is a ``uint32`` :class:`~ascreg.simt.Lanes` array, loads ``p[i]`` with a
``Lanes`` index return ``Lanes``, stores ``p[i] = v`` scatter, intrinsics, warp functions and
atomics work on all lanes in one numpy call, ``asc_syncthreads`` is free. ``blockIdx``,
``blockDim`` and ``gridDim`` are plain ints. A 1024-thread block costs a few tens of
microseconds plus the numpy work.

**Divergent control flow stays vectorised.** The kernel function is rewritten once (per code
object, cached) into masked form, as the hardware runs it: a thread-dependent ``if``/``elif``/
``else`` runs each side under the mask of the lanes that take it, ``while`` and ``for`` loops
(also ``range()`` with per-thread bounds) iterate until no lane is still looping, ``return``,
``break`` and ``continue`` take the lanes that run them out of the active mask, and ``a if c
else b``, ``and``, ``or``, ``not`` and ``a < b < c`` work per lane. An assignment inside such
code merges (``x = where(active, new, x)``, pointers too), loads and stores touch only the
active lanes' addresses, atomics update for the active lanes (serialised in thread order, the
others get 0) and warp functions see the active lanes as the warp's participants. Helpers
marked ``__simt_callee__`` are rewritten the same way and may return a value per thread.
Branching costs about the work of both sides (the divergent-kernel benchmark in
``docs/performance.md``: about 2x the same kernel on data that takes one side everywhere).

**Slow — one thread at a time.** What the rewrite cannot express re-runs the block with one
Python thread per SIMT thread, scheduled one at a time in thread order: a kernel whose source
Python cannot find (a lambda, code made by ``exec``) or that uses ``yield``, ``await`` or
``match``; a plain (unmarked) helper function that branches on a thread-varying value; a value
that cannot be merged per lane (a list, an object); ``asc_syncthreads`` reached by part of the
block; and any exception raised while only part of the block is active (the per-thread run
then raises it, or not, exactly as the threads that really get there meet it). Each such case
is logged once, with the kernel's file and line, at INFO level on the ``ascreg.simt`` logger
(``logging.basicConfig(level=logging.INFO)`` shows it). Before the re-run the vectorised
attempt is undone: an internal ``DivergenceSignal`` (a ``BaseException``) stops it, every memory
write it made is undone (writes are journaled at the memory level, whatever pointer they went
through: kernel arguments, ``__ubuf__`` arrays, closures, raw addresses), what it printed is
dropped. ``asc_syncthreads`` and the warp functions are rendezvous points of that tier (exited
threads do not count; threads of a warp that reach a warp function together are its active
lanes). This is exact but costs about 1 ms per SIMT thread.

``ascreg.machine.simt.engine.divergence(mode)`` (a context manager) or the environment variable
``ASCREG_SIMT_DIVERGENCE`` choose the tier: ``"masked"`` (the default), ``"unmasked"`` (run the
kernel as written; the first thread-dependent branch re-runs the block per thread) or
``"per-thread"`` (every block one thread at a time: the reference the others are tested
against).

What a discarded attempt leaves behind: nothing in ascreg memory, and nothing on ``sys.stdout``
(it is held back while a block runs vectorised and written out when the attempt completes or
fails with a real error; dropped when the block re-runs per thread, which prints once per
thread). Other side effects (``sys.stderr``, files, Python lists a kernel appends to) happen
again on the re-run. The divergence signal derives from ``BaseException``, so a kernel's own
``try: ... except Exception:`` around a thread-dependent branch does not swallow it; outside a
kernel the same situation raises :class:`~ascreg.simt.DivergentBranchError`.

Where the tiers differ (both are orders the hardware may produce): the vectorised tier runs the
threads in lockstep (a load after a store to one address sees every thread's store), the
per-thread tier runs each thread to its next rendezvous (a thread's atomics all come before the
next thread's). In divergent code a variable assigned only on one side has, in the lanes of the
other side, the value the lanes computed there, or none: reading it is undefined in C, and
ascreg does not report it. The loop variable of a ``range()`` with per-thread bounds is an
``int64`` lane value (per thread it is a Python ``int``).

Integer semantics and argument rules: :mod:`ascreg.simt.intrinsics`. Float functions
(``__saturatef``, ``__fdividef``, ``fdividef``): :mod:`ascreg.simt.floatmath`. Cache-hinted
loads and stores (``asc_ldcg``, ``asc_ldca``, ``asc_stcg``, ``asc_stwt``): :mod:`ascreg.simt.access`.

The pair types ``half2`` and ``bfloat16x2_t`` with their arithmetic, comparisons and math
(``__haddx2``, ``__heqx2``, ``__hbltux2``, ``__hgex2_mask``, ``h2sin`` ...):
:mod:`ascreg.simt.pairs`. The vector types ``int2`` ... ``float4`` and their ``make_*``
constructors: :mod:`ascreg.simt.vectors`. Cooperative groups (``this_thread_block``,
``tiled_partition``, ``coalesced_threads``, ``binary_partition`` and their members):
:mod:`ascreg.simt.cooperative_groups`. The pair and vector types are real classes, one value per thread in a kernel,
and a pointer cast to one (``p.cast(half2)``) reads and writes whole structs. The shuffles,
atomics and cache-hinted accesses still take only their scalar element types.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, uint32_t
>>> from ascreg.simt import __simt_vf__, __byte_perm, dim3, threadIdx, blockIdx, blockDim, run_simt_vf
>>> gm = GlobalMemory()
>>> x, y, s, dst = (gm.alloc(uint32_t, 64) for _ in range(4))
>>> x.write(np.full(64, 1)); y.write(np.full(64, 1)); s.write(np.full(64, 1))
>>> @__simt_vf__
... def KernelByte_perm(dst, x, y, s):
...     idx = threadIdx.x + blockIdx.x * blockDim.x
...     dst[idx] = __byte_perm(x[idx], y[idx], s[idx])
>>> for b in range(2):
...     run_simt_vf(KernelByte_perm, dim3(32), (dst, x, y, s), grid_dim=dim3(2), block_idx=dim3(b))
>>> int(dst.read(64)[63])
16843008
"""

from typing import TYPE_CHECKING

from ascreg._frontend.missing import module_getattr
from ascreg.machine.simt.engine import (
    LanePointer,
    __launch_bounds__,
    __simt_callee__,
    __simt_vf__,
    blockDim,
    blockIdx,
    dim3,
    gridDim,
    run_simt_kernel,
    run_simt_vf,
    threadIdx,
    warpSize,
)
from ascreg.machine.simt.lanes import DivergentBranchError, Lanes
from ascreg.simt.access import asc_ldca, asc_ldcg, asc_stcg, asc_stwt
from ascreg.simt.atomics import (
    asc_atomic_add,
    asc_atomic_and,
    asc_atomic_cas,
    asc_atomic_dec,
    asc_atomic_exch,
    asc_atomic_inc,
    asc_atomic_max,
    asc_atomic_min,
    asc_atomic_or,
    asc_atomic_sub,
    asc_atomic_xor,
)
from ascreg.simt.cooperative_groups import (
    ballot,
    binary_partition,
    coalesced_group,
    coalesced_threads,
    dim_threads,
    group_dim,
    group_index,
    meta_group_rank,
    meta_group_size,
    num_threads,
    shfl,
    shfl_down,
    shfl_up,
    shfl_xor,
    size,
    sync,
    this_thread_block,
    thread_block,
    thread_block_tile,
    thread_index,
    thread_rank,
    tiled_partition,
)
from ascreg.simt.floatmath import __fdividef, __saturatef, fdividef
from ascreg.simt.intrinsics import (
    __brev,
    __byte_perm,
    __clz,
    __ffs,
    __hadd,
    __mul24,
    __mul64hi,
    __mul_i32toi64,
    __mulhi,
    __popc,
    __rhadd,
    __sad,
    __uhadd,
    __umul24,
    __umul64hi,
    __umulhi,
    __urhadd,
    __usad,
    labs,
    llabs,
    llmax,
    llmin,
    max,
    min,
    ullmax,
    ullmin,
    umax,
    umin,
)
from ascreg.simt.pairs import (
    __habsx2,
    __haddx2,
    __hbequx2,
    __hbeqx2,
    __hbgeux2,
    __hbgex2,
    __hbgtux2,
    __hbgtx2,
    __hbleux2,
    __hblex2,
    __hbltux2,
    __hbltx2,
    __hbneux2,
    __hbnex2,
    __hcmadd,
    __hdivx2,
    __hequx2,
    __hequx2_mask,
    __heqx2,
    __heqx2_mask,
    __hfmax2,
    __hfmax2_relu,
    __hgeux2,
    __hgeux2_mask,
    __hgex2,
    __hgex2_mask,
    __hgtux2,
    __hgtux2_mask,
    __hgtx2,
    __hgtx2_mask,
    __hleux2,
    __hleux2_mask,
    __hlex2,
    __hlex2_mask,
    __hltux2,
    __hltux2_mask,
    __hltx2,
    __hltx2_mask,
    __hmaxx2,
    __hmaxx2_nan,
    __hminx2,
    __hminx2_nan,
    __hmulx2,
    __hnegx2,
    __hneux2,
    __hneux2_mask,
    __hnex2,
    __hnex2_mask,
    __hsubx2,
    __isnanx2,
    h2ceil,
    h2cos,
    h2exp,
    h2exp2,
    h2exp10,
    h2floor,
    h2log,
    h2log2,
    h2log10,
    h2rcp,
    h2rint,
    h2rsqrt,
    h2sin,
    h2sqrt,
    h2tanh,
    h2trunc,
)
from ascreg.simt.vectors import (
    PairValue,
    Vector2,
    Vector3,
    Vector4,
    VectorValue,
    bfloat16x2_t,
    char2,
    char3,
    char4,
    float2,
    float3,
    float4,
    half2,
    int2,
    int3,
    int4,
    long2,
    long3,
    long4,
    longlong2,
    longlong3,
    longlong4,
    make_char2,
    make_char3,
    make_char4,
    make_float2,
    make_float3,
    make_float4,
    make_int2,
    make_int3,
    make_int4,
    make_long2,
    make_long3,
    make_long4,
    make_longlong2,
    make_longlong3,
    make_longlong4,
    make_short2,
    make_short3,
    make_short4,
    make_uchar2,
    make_uchar3,
    make_uchar4,
    make_uint2,
    make_uint3,
    make_uint4,
    make_ulong2,
    make_ulong3,
    make_ulong4,
    make_ulonglong2,
    make_ulonglong3,
    make_ulonglong4,
    make_ushort2,
    make_ushort3,
    make_ushort4,
    short2,
    short3,
    short4,
    uchar2,
    uchar3,
    uchar4,
    uint2,
    uint3,
    uint4,
    ulong2,
    ulong3,
    ulong4,
    ulonglong2,
    ulonglong3,
    ulonglong4,
    ushort2,
    ushort3,
    ushort4,
)
from ascreg.simt.warp import (
    asc_activemask,
    asc_all,
    asc_any,
    asc_ballot,
    asc_reduce_add,
    asc_reduce_max,
    asc_reduce_min,
    asc_shfl,
    asc_shfl_down,
    asc_shfl_up,
    asc_shfl_xor,
    asc_syncthreads,
    asc_threadfence,
    asc_threadfence_block,
    laneid,
    lanemask_eq,
    lanemask_ge,
    lanemask_gt,
    lanemask_le,
    lanemask_lt,
)

__all__ = [
    "DivergentBranchError",
    "LanePointer",
    "Lanes",
    "PairValue",
    "Vector2",
    "Vector3",
    "Vector4",
    "VectorValue",
    "__brev",
    "__byte_perm",
    "__clz",
    "__fdividef",
    "__ffs",
    "__habsx2",
    "__hadd",
    "__haddx2",
    "__hbequx2",
    "__hbeqx2",
    "__hbgeux2",
    "__hbgex2",
    "__hbgtux2",
    "__hbgtx2",
    "__hbleux2",
    "__hblex2",
    "__hbltux2",
    "__hbltx2",
    "__hbneux2",
    "__hbnex2",
    "__hcmadd",
    "__hdivx2",
    "__hequx2",
    "__hequx2_mask",
    "__heqx2",
    "__heqx2_mask",
    "__hfmax2",
    "__hfmax2_relu",
    "__hgeux2",
    "__hgeux2_mask",
    "__hgex2",
    "__hgex2_mask",
    "__hgtux2",
    "__hgtux2_mask",
    "__hgtx2",
    "__hgtx2_mask",
    "__hleux2",
    "__hleux2_mask",
    "__hlex2",
    "__hlex2_mask",
    "__hltux2",
    "__hltux2_mask",
    "__hltx2",
    "__hltx2_mask",
    "__hmaxx2",
    "__hmaxx2_nan",
    "__hminx2",
    "__hminx2_nan",
    "__hmulx2",
    "__hnegx2",
    "__hneux2",
    "__hneux2_mask",
    "__hnex2",
    "__hnex2_mask",
    "__hsubx2",
    "__isnanx2",
    "__launch_bounds__",
    "__mul24",
    "__mul64hi",
    "__mul_i32toi64",
    "__mulhi",
    "__popc",
    "__rhadd",
    "__sad",
    "__saturatef",
    "__simt_callee__",
    "__simt_vf__",
    "__uhadd",
    "__umul24",
    "__umul64hi",
    "__umulhi",
    "__urhadd",
    "__usad",
    "asc_activemask",
    "asc_all",
    "asc_any",
    "asc_atomic_add",
    "asc_atomic_and",
    "asc_atomic_cas",
    "asc_atomic_dec",
    "asc_atomic_exch",
    "asc_atomic_inc",
    "asc_atomic_max",
    "asc_atomic_min",
    "asc_atomic_or",
    "asc_atomic_sub",
    "asc_atomic_xor",
    "asc_ballot",
    "asc_ldca",
    "asc_ldcg",
    "asc_reduce_add",
    "asc_reduce_max",
    "asc_reduce_min",
    "asc_shfl",
    "asc_shfl_down",
    "asc_shfl_up",
    "asc_shfl_xor",
    "asc_stcg",
    "asc_stwt",
    "asc_syncthreads",
    "asc_threadfence",
    "asc_threadfence_block",
    "ballot",
    "bfloat16x2_t",
    "binary_partition",
    "blockDim",
    "blockIdx",
    "char2",
    "char3",
    "char4",
    "coalesced_group",
    "coalesced_threads",
    "dim3",
    "dim_threads",
    "fdividef",
    "float2",
    "float3",
    "float4",
    "gridDim",
    "group_dim",
    "group_index",
    "h2ceil",
    "h2cos",
    "h2exp",
    "h2exp2",
    "h2exp10",
    "h2floor",
    "h2log",
    "h2log2",
    "h2log10",
    "h2rcp",
    "h2rint",
    "h2rsqrt",
    "h2sin",
    "h2sqrt",
    "h2tanh",
    "h2trunc",
    "half2",
    "int2",
    "int3",
    "int4",
    "labs",
    "laneid",
    "lanemask_eq",
    "lanemask_ge",
    "lanemask_gt",
    "lanemask_le",
    "lanemask_lt",
    "llabs",
    "llmax",
    "llmin",
    "long2",
    "long3",
    "long4",
    "longlong2",
    "longlong3",
    "longlong4",
    "make_char2",
    "make_char3",
    "make_char4",
    "make_float2",
    "make_float3",
    "make_float4",
    "make_int2",
    "make_int3",
    "make_int4",
    "make_long2",
    "make_long3",
    "make_long4",
    "make_longlong2",
    "make_longlong3",
    "make_longlong4",
    "make_short2",
    "make_short3",
    "make_short4",
    "make_uchar2",
    "make_uchar3",
    "make_uchar4",
    "make_uint2",
    "make_uint3",
    "make_uint4",
    "make_ulong2",
    "make_ulong3",
    "make_ulong4",
    "make_ulonglong2",
    "make_ulonglong3",
    "make_ulonglong4",
    "make_ushort2",
    "make_ushort3",
    "make_ushort4",
    "max",
    "meta_group_rank",
    "meta_group_size",
    "min",
    "num_threads",
    "run_simt_kernel",
    "run_simt_vf",
    "shfl",
    "shfl_down",
    "shfl_up",
    "shfl_xor",
    "short2",
    "short3",
    "short4",
    "size",
    "sync",
    "this_thread_block",
    "threadIdx",
    "thread_block",
    "thread_block_tile",
    "thread_index",
    "thread_rank",
    "tiled_partition",
    "uchar2",
    "uchar3",
    "uchar4",
    "uint2",
    "uint3",
    "uint4",
    "ullmax",
    "ullmin",
    "ulong2",
    "ulong3",
    "ulong4",
    "ulonglong2",
    "ulonglong3",
    "ulonglong4",
    "umax",
    "umin",
    "ushort2",
    "ushort3",
    "ushort4",
    "warpSize",
]

if not TYPE_CHECKING:  # a type checker keeps rejecting names that do not exist
    __getattr__ = module_getattr("ascreg.simt", "simt")
    """A documented asc-devkit name ascreg lacks raises :class:`~ascreg.errors.MissingApiError`."""
