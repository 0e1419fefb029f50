"""byte_perm: the ``__byte_perm`` seed example (``ascreg.examples.byte_perm_simt``).

``byte_perm_kernel<<<n / 1024, 0, stream>>>(dst, x, y, s)``: a ``__global__ __vector__``
kernel starts ``asc_vf_call<KernelByte_perm>(dim3(1024), ...)`` on every block; each SIMT thread
computes ``dst[i] = __byte_perm(x[i], y[i], s[i])``. The kernel lives in the package's examples
(the shared place of the seed examples); golden: the documented formula on whole numpy arrays
(``reference``), checked bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GlobalMemory, uint32_t
from ascreg.examples.byte_perm_simt import KernelByte_perm, byte_perm_kernel, reference
from benchmarks.kernels import RealKernel, exact_check

THREADS = 1024


def inputs(size: int, seed: int) -> tuple[Any, Any, Any]:
    """Random ``uint32`` x, y and selectors s (nibble bit 3 and the high half exercised)."""
    rng = np.random.default_rng(seed)
    return tuple(rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32) for _ in range(3))  # type: ignore[return-value]


def launcher(size: int) -> Any:
    """Allocate GM once; return ``run(x, y, s) -> dst``."""
    gm = GlobalMemory()
    dst, x_gm, y_gm, s_gm = (gm.alloc(uint32_t, size) for _ in range(4))

    def run(x: Any, y: Any, s: Any) -> Any:
        for ptr, values in ((x_gm, x), (y_gm, y), (s_gm, s)):
            ptr.write(values)
        byte_perm_kernel[size // THREADS, 0, None](dst, x_gm, y_gm, s_gm)
        return dst.read(size)

    return run


KERNEL = RealKernel(
    name="byte_perm",
    origin="seed example __byte_perm (ascreg.examples.byte_perm_simt)",
    size=1 << 20,
    small=4 * THREADS,
    inputs=inputs,
    launcher=launcher,
    golden=reference,
    check=exact_check,
    vfs=(KernelByte_perm,),
)
