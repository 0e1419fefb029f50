"""The ``__byte_perm`` seed example: ``KernelByte_perm`` as a ``__simt_vf__`` over 1024 threads.

A ``__global__ __vector__`` kernel starts the SIMT function on every block with
``asc_vf_call[KernelByte_perm](dim3(1024), ...)`` (hybrid programming; the kernel runtime hands
the call to :func:`ascreg.simt.run_simt_vf`). Inputs are random ``uint32`` values (selectors
included, so nibble bit 3 and the high half of ``s`` are exercised); the result is compared with a
whole-array numpy reference of the documented formula.

Examples
--------
>>> from ascreg.examples import byte_perm_simt
>>> byte_perm_simt.main()
[Success] __byte_perm SIMT VF (1024 threads, random x/y/s) matches numpy.
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GlobalMemory, GmPtr, int32_t, uint32_t
from ascreg.c_api import __global__, __vector__, asc_vf_call
from ascreg.simt import (
    __byte_perm,
    __launch_bounds__,
    __simt_vf__,
    blockDim,
    blockIdx,
    dim3,
    threadIdx,
)


@__simt_vf__
@__launch_bounds__(1024)
def KernelByte_perm(
    dst: GmPtr[uint32_t], x: GmPtr[uint32_t], y: GmPtr[uint32_t], s: GmPtr[uint32_t]
) -> None:
    """``__simt_vf__ __launch_bounds__(1024) inline void KernelByte_perm(...)`` from the seed."""
    idx = int32_t(threadIdx.x + blockIdx.x * blockDim.x)  # C++: int idx = ...
    dst[idx] = __byte_perm(x[idx], y[idx], s[idx])


@__global__
@__vector__
def byte_perm_kernel(
    dst: GmPtr[uint32_t], x: GmPtr[uint32_t], y: GmPtr[uint32_t], s: GmPtr[uint32_t]
) -> None:
    """Start one 1024-thread SIMT sub-task per block (the vector kernel)."""
    asc_vf_call[KernelByte_perm](dim3(1024), dst, x, y, s)


def reference(
    x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], s: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """Whole-array numpy version of the documented formula (3-bit selectors)."""
    v = (y.astype(np.uint64) << np.uint64(32)) | x.astype(np.uint64)
    out = np.zeros(x.shape, dtype=np.uint64)
    for n in range(4):
        selector = ((s >> np.uint32(4 * n)) & np.uint32(7)).astype(np.uint64)
        out |= ((v >> (selector * np.uint64(8))) & np.uint64(0xFF)) << np.uint64(8 * n)
    return out.astype(np.uint32)


def main(blocks: int = 1) -> bool:
    """Run the kernel on *blocks* x 1024 random inputs and compare with numpy."""
    threads = 1024
    rng = np.random.default_rng(2024)
    n = threads * blocks
    host = [rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32) for _ in range(3)]
    gm = GlobalMemory()
    dst, x, y, s = (gm.alloc(uint32_t, n) for _ in range(4))
    for ptr, values in zip((x, y, s), host, strict=True):
        ptr.write(values)
    byte_perm_kernel[blocks, 0, None](dst, x, y, s)
    ok = bool(np.array_equal(dst.read(n), reference(*host)))
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} __byte_perm SIMT VF ({n} threads, random x/y/s) matches numpy.")
    return ok
