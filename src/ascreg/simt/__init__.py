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

Integer semantics and argument rules: :mod:`ascreg.simt.intrinsics`. The half and bfloat16
scalar functions (``__hmul``, ``hsin``, ``__float2half_rn``, ``__half2int_rz`` ...):
:mod:`ascreg.simt.halfmath`. Float functions
(``__saturatef``, ``__fdividef``, ``fdividef`` and the math library ``sinf`` ... ``sincospif``,
correctly rounded): :mod:`ascreg.simt.floatmath`. Conversions and bit casts (``__float2int_rn``
... ``__uint_as_float``): :mod:`ascreg.simt.conversions`. Cache-hinted
loads and stores (``asc_ldcg``, ``asc_ldca``, ``asc_stcg``, ``asc_stwt``): :mod:`ascreg.simt.access`.

Not available: the packed pair types ``half2`` and ``bfloat16x2_t`` (and the other CUDA-style
vector types ``int2``, ``float4`` ...) do not exist in ascreg, so the shuffles, atomics and
cache-hinted accesses take only their scalar element types.

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
from ascreg.simt import halfmath as _halfmath
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
from ascreg.simt.conversions import (
    __float2float_rd,
    __float2float_rn,
    __float2float_rna,
    __float2float_ru,
    __float2float_rz,
    __float2int_rd,
    __float2int_rn,
    __float2int_rna,
    __float2int_ru,
    __float2int_rz,
    __float2ll_rd,
    __float2ll_rn,
    __float2ll_rna,
    __float2ll_ru,
    __float2ll_rz,
    __float2uint_rd,
    __float2uint_rn,
    __float2uint_rna,
    __float2uint_ru,
    __float2uint_rz,
    __float2ull_rd,
    __float2ull_rn,
    __float2ull_rna,
    __float2ull_ru,
    __float2ull_rz,
    __float_as_int,
    __float_as_uint,
    __int2float_rd,
    __int2float_rn,
    __int2float_rna,
    __int2float_ru,
    __int2float_rz,
    __int_as_float,
    __ll2float_rd,
    __ll2float_rn,
    __ll2float_rna,
    __ll2float_ru,
    __ll2float_rz,
    __uint2float_rd,
    __uint2float_rn,
    __uint2float_rna,
    __uint2float_ru,
    __uint2float_rz,
    __uint_as_float,
    __ull2float_rd,
    __ull2float_rn,
    __ull2float_rna,
    __ull2float_ru,
    __ull2float_rz,
)
from ascreg.simt.floatmath import (
    __fdividef,
    __saturatef,
    acosf,
    acoshf,
    asinf,
    asinhf,
    atan2f,
    atanf,
    atanhf,
    cbrtf,
    ceilf,
    copysignf,
    cosf,
    coshf,
    cospif,
    cyl_bessel_i0f,
    cyl_bessel_i1f,
    erfcf,
    erfcinvf,
    erfcxf,
    erff,
    erfinvf,
    exp2f,
    exp10f,
    expf,
    expm1f,
    fabsf,
    fdimf,
    fdividef,
    floorf,
    fmaf,
    fmaxf,
    fminf,
    fmodf,
    frexpf,
    hypotf,
    ilogbf,
    isfinite,
    isinf,
    isnan,
    ldexpf,
    lgammaf,
    llrintf,
    llroundf,
    log1pf,
    log2f,
    log10f,
    logbf,
    logf,
    lrintf,
    lroundf,
    modff,
    nearbyintf,
    nextafterf,
    norm3df,
    norm4df,
    normcdff,
    normcdfinvf,
    normf,
    powf,
    rcbrtf,
    remainderf,
    remquof,
    rhypotf,
    rintf,
    rnorm3df,
    rnorm4df,
    rnormf,
    roundf,
    rsqrtf,
    scalblnf,
    scalbnf,
    signbit,
    sincosf,
    sincospif,
    sinf,
    sinhf,
    sinpif,
    sqrtf,
    tanf,
    tanhf,
    tanpif,
    tgammaf,
    truncf,
)
from ascreg.simt.halfmath import *  # noqa: F403  (the ~180 half / bfloat16 rows, by table)
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
    "__brev",
    "__byte_perm",
    "__clz",
    "__fdividef",
    "__ffs",
    "__float2float_rd",
    "__float2float_rn",
    "__float2float_rna",
    "__float2float_ru",
    "__float2float_rz",
    "__float2int_rd",
    "__float2int_rn",
    "__float2int_rna",
    "__float2int_ru",
    "__float2int_rz",
    "__float2ll_rd",
    "__float2ll_rn",
    "__float2ll_rna",
    "__float2ll_ru",
    "__float2ll_rz",
    "__float2uint_rd",
    "__float2uint_rn",
    "__float2uint_rna",
    "__float2uint_ru",
    "__float2uint_rz",
    "__float2ull_rd",
    "__float2ull_rn",
    "__float2ull_rna",
    "__float2ull_ru",
    "__float2ull_rz",
    "__float_as_int",
    "__float_as_uint",
    "__hadd",
    "__int2float_rd",
    "__int2float_rn",
    "__int2float_rna",
    "__int2float_ru",
    "__int2float_rz",
    "__int_as_float",
    "__launch_bounds__",
    "__ll2float_rd",
    "__ll2float_rn",
    "__ll2float_rna",
    "__ll2float_ru",
    "__ll2float_rz",
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
    "__uint2float_rd",
    "__uint2float_rn",
    "__uint2float_rna",
    "__uint2float_ru",
    "__uint2float_rz",
    "__uint_as_float",
    "__ull2float_rd",
    "__ull2float_rn",
    "__ull2float_rna",
    "__ull2float_ru",
    "__ull2float_rz",
    "__umul24",
    "__umul64hi",
    "__umulhi",
    "__urhadd",
    "__usad",
    "acosf",
    "acoshf",
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
    "asinf",
    "asinhf",
    "atan2f",
    "atanf",
    "atanhf",
    "blockDim",
    "blockIdx",
    "cbrtf",
    "ceilf",
    "copysignf",
    "cosf",
    "coshf",
    "cospif",
    "cyl_bessel_i0f",
    "cyl_bessel_i1f",
    "dim3",
    "erfcf",
    "erfcinvf",
    "erfcxf",
    "erff",
    "erfinvf",
    "exp2f",
    "exp10f",
    "expf",
    "expm1f",
    "fabsf",
    "fdimf",
    "fdividef",
    "floorf",
    "fmaf",
    "fmaxf",
    "fminf",
    "fmodf",
    "frexpf",
    "gridDim",
    "hypotf",
    "ilogbf",
    "isfinite",
    "isinf",
    "isnan",
    "labs",
    "laneid",
    "lanemask_eq",
    "lanemask_ge",
    "lanemask_gt",
    "lanemask_le",
    "lanemask_lt",
    "ldexpf",
    "lgammaf",
    "llabs",
    "llmax",
    "llmin",
    "llrintf",
    "llroundf",
    "log1pf",
    "log2f",
    "log10f",
    "logbf",
    "logf",
    "lrintf",
    "lroundf",
    "max",
    "min",
    "modff",
    "nearbyintf",
    "nextafterf",
    "norm3df",
    "norm4df",
    "normcdff",
    "normcdfinvf",
    "normf",
    "powf",
    "rcbrtf",
    "remainderf",
    "remquof",
    "rhypotf",
    "rintf",
    "rnorm3df",
    "rnorm4df",
    "rnormf",
    "roundf",
    "rsqrtf",
    "run_simt_kernel",
    "run_simt_vf",
    "scalblnf",
    "scalbnf",
    "signbit",
    "sincosf",
    "sincospif",
    "sinf",
    "sinhf",
    "sinpif",
    "sqrtf",
    "tanf",
    "tanhf",
    "tanpif",
    "tgammaf",
    "threadIdx",
    "truncf",
    "ullmax",
    "ullmin",
    "umax",
    "umin",
    "warpSize",
]
__all__ += _halfmath.__all__  # the half / bfloat16 functions (type checkers read this form)

if not TYPE_CHECKING:  # a type checker keeps rejecting names that do not exist
    __getattr__ = module_getattr("ascreg.simt", "simt")
    """A documented asc-devkit name ascreg lacks raises :class:`~ascreg.errors.MissingApiError`."""
