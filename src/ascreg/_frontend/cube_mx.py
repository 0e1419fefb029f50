"""The cube unit's MX (block-scaled) instructions on raw pointers, shared by both front ends.

MX data (``fp4x2_e2m1_t``, ``fp4x2_e1m2_t``, ``fp8_e4m3fn_t``, ``fp8_e5m2_t``) carries one
``fp8_e8m0_t`` scale per 32 elements along K: ``C = (scaleA ⊗ A) x (scaleB ⊗ B) + C0``
(``MmadMx.md``). The scales sit in the L0A_MX / L0B_MX buffers (4 KiB each) at the address of
their matrix in L0A / L0B divided by 16 (``LoadData_2D_MX.md``). What fixes their layout:

- a scale fractal is a 16 x 2 ``fp8_e8m0_t`` matrix of 32 bytes (``LoadData_2D_MX.md``): 16
  rows of A (columns of B), the two scales of a 64-element slice of K, row by row;
- the MX load (:func:`load_mx`) moves ``x_step x y_step`` of them: window fractal ``(x, y)``
  is source fractal ``(x_start + x) * src_stride + y_start + y`` and destination fractal
  ``x * dst_stride + y`` (its page: the start address ``src + (xStart * srcStride + yStart) *
  32B``, each step one 32-byte fractal, the strides between consecutive X fractals);
- the multiply-add (:func:`run_mmad_mx`) reads scaleA as ``[大Z小z]`` and scaleB (K/32 x N) as
  ``[大N小n]`` (``MmadMx.md`` table 1): the scales of rows ``16 i ..`` and K slice ``64 j ..`` are
  the fractal ``i * K / 64 + j`` from the MX address, as the asc-devkit ``mmad_mx`` example
  packs them (``dstStride = K / 64``).

The element values are the formats' (``ascreg.core.convert.FP4_VALUES``, ``ml_dtypes`` for
fp8), a scale ``s`` is ``2 ** (s - 127)`` (``0xFF``: NaN); the products are summed as
``Mmad``'s float path is (:func:`ascreg.core.cube.mmad`: float64, then float32 once).

Examples
--------
>>> import numpy as np
>>> from ascreg import fp8_e4m3fn_t, fp8_e8m0_t, float32_t
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()) as ctx:
...     cb = cube_buffers()
...     a, b = cb.pointer("l0a", fp8_e4m3fn_t, 0), cb.pointer("l0b", fp8_e4m3fn_t, 0)
...     a.write(np.ones(1024)); b.write(np.ones(1024))
...     cb.l0a_mx.pointer(fp8_e8m0_t, 0).write(np.full(32, 2.0))   # every A scale 2
...     cb.l0b_mx.pointer(fp8_e8m0_t, 0).write(np.full(32, 0.5))   # every B scale 1/2
...     c = cb.pointer("l0c", float32_t, 0)
...     ctx.tracker.barrier()
...     run_mmad_mx(c, a, b, None, MmadRun(16, 16, 64))
...     ctx.tracker.barrier()
...     c.read(2).tolist()
[64.0, 64.0]
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ascreg._dtypes import (
    Scalar,
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    fp8_e8m0_t,
)
from ascreg._frontend.cube import ROWS, MmadRun, OnPipe, _initial, aligned, scratch
from ascreg.core import cube as core
from ascreg.core.convert import FP4_VALUES
from ascreg.errors import AlignmentError, AscregError, AscregTypeError, UnsupportedError
from ascreg.machine.block import current_block
from ascreg.machine.cube import C0_BYTES, CubeBuffer, cube_buffers
from ascreg.machine.memory import Pointer
from ascreg.machine.sync import PIPE_M, PIPE_MTE1

MX_PAGE = "LoadData_2D_MX.md"
MMAD_MX_PAGE = "MmadMx.md"
FP4 = (fp4x2_e1m2_t, fp4x2_e2m1_t)
FP8 = (fp8_e4m3fn_t, fp8_e5m2_t)
MX_TYPES: dict[tuple[type[Scalar], type[Scalar]], type[Scalar]] = {
    **{(x, y): float32_t for x in FP4 for y in FP4},
    **{(x, y): float32_t for x in FP8 for y in FP8},
}
"""The (A, B) -> C types of an MX multiply-add (``MmadMx.md`` table 3, the header's list)."""
SCALE_BLOCK = 32
"""Elements of K sharing one scale."""
K_ALIGN = 64
"""``MmadMx.md``: K is a multiple of 64 (one 16 x 2 scale fractal per 16 rows)."""
MX_RATIO = 16
"""An L0A / L0B byte address divided by this is its scales' L0A_MX / L0B_MX address."""
MX_BUFFER = {"__ca__": "l0a_mx", "__cb__": "l0b_mx"}
"""The scale buffer of each L0 buffer (by its pointers' space)."""


def mx_buffer(space: str) -> CubeBuffer:
    """Return the L0A_MX / L0B_MX buffer of the running cube for an L0A / L0B *space*."""
    buffer: CubeBuffer = getattr(cube_buffers(), MX_BUFFER[space])
    return buffer


def mx_address(ptr: Pointer[Any]) -> int:
    """Return the L0A_MX / L0B_MX address of the scales of the matrix at *ptr* (L0A / L0B).

    Examples
    --------
    >>> from ascreg import fp8_e5m2_t
    >>> from ascreg.machine.cube import CaPtr, CubeBuffer
    >>> mx_address(CubeBuffer("__ca__", 65536, 512, CaPtr).pointer(fp8_e5m2_t, 2048))
    128
    """
    return ptr.address // MX_RATIO


# -- the scale load: L1 -> L0A_MX / L0B_MX ------------------------------------------------------


def load_mx(target: str, dst: int, src: Pointer[Any], window: tuple[int, ...]) -> None:
    """Move scale fractals from L1 (*src*) to byte *dst* of the *target* MX buffer (MTE1).

    *target* is ``"__ca__"`` (L0A_MX) or ``"__cb__"`` (L0B_MX); *window* the checked
    ``(x_start, y_start, x_step, y_step, src_stride, dst_stride)`` (see the module docstring).
    """
    if src.dtype is not fp8_e8m0_t:
        raise AscregTypeError(f"the scales must be fp8_e8m0_t, got {src.dtype.cpp_name}")
    aligned(src, C0_BYTES, "the scale source")
    if dst % C0_BYTES:
        raise AlignmentError(f"the MX destination {dst:#x} is not {C0_BYTES}-byte aligned")
    x_start, y_start, x_step, y_step, src_stride, dst_stride = window
    if not (x_step and y_step):
        return
    x, y = np.arange(x_step)[:, None], np.arange(y_step)[None, :]
    src_ids = ((x_start + x) * src_stride + y_start + y).ravel()
    dst_ids = (x * dst_stride + y).ravel()
    with OnPipe(current_block(), PIPE_MTE1):
        data = _blocks(src, int(src_ids.max()) + 1, "reads")[src_ids]
        out = mx_buffer(target).pointer(fp8_e8m0_t, dst)
        _blocks(out, int(dst_ids.max()) + 1, "writes")[dst_ids] = data


def _blocks(ptr: Pointer[Any], count: int, action: str) -> Any:
    return ptr.bytes(count * C0_BYTES, action).reshape(count, C0_BYTES)


# -- the MX multiply-add ---------------------------------------------------------------------------


def mx_types(c: Pointer[Any], a: Pointer[Any], b: Pointer[Any]) -> type[Scalar]:
    """Return C's type, checking (A, B) -> C is an MX multiply-add of the Ascend 950."""
    out = MX_TYPES.get((a.dtype, b.dtype))
    if out is None or out is not c.dtype:
        legal = ", ".join(f"{x.cpp_name} x {y.cpp_name}" for x, y in MX_TYPES)
        raise AscregTypeError(
            f"{a.dtype.cpp_name} x {b.dtype.cpp_name} -> {c.dtype.cpp_name} is not an MX "
            f"multiply-add ({MMAD_MX_PAGE}: {legal}, each -> float)"
        )
    return out


def run_mmad_mx(
    c: Pointer[Any], a: Pointer[Any], b: Pointer[Any], bias: Pointer[Any] | None, run: MmadRun
) -> None:
    """``C = (scaleA ⊗ A) x (scaleB ⊗ B) + C0`` on ``PIPE_M`` (see the module docstring).

    A (L0A, NZ) is ``m x k``, B (L0B, ZN) ``k x n``, their scales at their addresses / 16 in
    L0A_MX / L0B_MX; C (L0C, NZ, float) ``m x n``. C is 1024-byte aligned, A and B 512 bytes
    (fp4) or 1024 (fp8); k is a multiple of 64; a zero size runs nothing.
    """
    out = mx_types(c, a, b)
    operand = 512 if a.dtype in FP4 else 1024
    for ptr, align, role in ((c, 1024, "dst"), (a, operand, "fm"), (b, operand, "filter")):
        aligned(ptr, align, role)
    if not (run.m and run.n and run.k):
        return
    if run.unit_flag:
        raise UnsupportedError(
            f"unitFlag {run.unit_flag} of an MX multiply-add: the UnitFlag page describes the "
            "plain Mmad only (see docs/limitations.md)"
        )
    if run.k % K_ALIGN:
        raise AscregError(f"k {run.k} is not a multiple of {K_ALIGN} ({MMAD_MX_PAGE})")
    if run.m == 1 and not run.disable_gemv:
        raise UnsupportedError(
            f"the MX GEMV (m 1, disableGemv false) reads A as one ND row, and {MMAD_MX_PAGE} "
            "does not say where that row's scales are (docs/limitations.md)"
        )
    with OnPipe(current_block(), PIPE_M):
        mb, nb = -(-run.m // ROWS), -(-run.n // ROWS)
        left = _scaled(a, mb, run.k)
        right = _scaled(b, nb, run.k)
        old = _initial(c, bias, run, mb, nb, out)
        into = core.nz_blocks(c.view(nb * mb * ROWS * ROWS, "writes"), mb * ROWS, nb, ROWS)
        work = scratch("c", (mb * ROWS, nb * ROWS), np.float64)
        core.mmad(left, right, old, out.np_dtype, work, into)


def _scaled(ptr: Pointer[Any], blocks: int, k: int) -> Any:
    """Return the ``(blocks * 16, k)`` values of an NZ operand times its scales (float64)."""
    values = mx_values(ptr, blocks, k)
    slices = k // K_ALIGN
    flat = mx_buffer(ptr.space).pointer(fp8_e8m0_t, mx_address(ptr))
    raw = flat.bytes(blocks * slices * C0_BYTES, "reads").reshape(blocks, slices, ROWS, 2)
    scales = np.ascontiguousarray(raw.transpose(0, 2, 1, 3)).reshape(blocks * ROWS, -1)
    factor = scales.view(ml_dtypes.float8_e8m0fnu).astype(np.float64)
    scaled: Any = values * np.repeat(factor, SCALE_BLOCK, axis=1)
    return scaled


def mx_values(ptr: Pointer[Any], blocks: int, k: int) -> Any:
    """Return the ``(blocks * 16, k)`` element values of an NZ MX operand (float64).

    A fractal row is 32 bytes: 32 fp8 elements or 64 fp4 ones (two per byte, the low nibble
    first).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import fp4x2_e2m1_t
    >>> from ascreg.machine.cube import CaPtr, CubeBuffer
    >>> p = CubeBuffer("__ca__", 2048, 512, CaPtr).pointer(fp4x2_e2m1_t, 0)
    >>> p.write(np.full(512, 0x21, np.uint8))   # codes 1 (0.5) and 2 (1.0)
    >>> mx_values(p, 1, 64)[0, :4].tolist()
    [0.5, 1.0, 0.5, 1.0]
    """
    per_row = C0_BYTES * (2 if ptr.dtype in FP4 else 1)
    cols = k // per_row
    flat = ptr.bytes(blocks * cols * ROWS * C0_BYTES, "reads")
    raw = core.nz_read(flat, blocks, cols, C0_BYTES, blocks * ROWS)
    if ptr.dtype in FP4:
        codes = np.stack([raw & 15, raw >> 4], axis=-1).reshape(raw.shape[0], -1)
        return FP4_VALUES[ptr.dtype][codes]
    return raw.view(ptr.dtype.np_dtype).astype(np.float64)
