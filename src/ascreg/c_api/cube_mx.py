"""The MX (block-scaled) cube forms of a C API kernel: scale loads and the MX multiply-add.

``asc_copy_l12l0a_mx[_sync]`` / ``asc_copy_l12l0b_mx[_sync]`` move 32-byte ``fp8_e8m0_t``
scale fractals (16 x 2) from L1 to the L0A_MX / L0B_MX buffer on ``PIPE_MTE1``; ``dst`` is the
``uint64_t`` MX address, the L0A / L0B address of the scaled matrix divided by 16 (the pages'
example: ``reinterpret_cast<uintptr_t>(dst) / 16``; in ascreg ``ptr.address // 16``).
``asc_mmad_mx[_sync]`` computes ``C = (scaleA ⊗ A) x (scaleB ⊗ B) + C`` on ``PIPE_M``. They run
the basic API's ``LoadData`` MX part and ``MmadMx`` (:mod:`ascreg._frontend.cube_mx`, which
says what the pages fix about the layout); the ``_sync`` forms end with a ``PIPE_ALL`` barrier.

Examples
--------
>>> import numpy as np
>>> from ascreg import fp8_e5m2_t, fp8_e8m0_t, float32_t
>>> from ascreg.c_api import *
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()):
...     cb = cube_buffers()
...     a, b = cb.pointer("l0a", fp8_e5m2_t, 0), cb.pointer("l0b", fp8_e5m2_t, 0)
...     a.write(np.full(1024, 2.0)); b.write(np.full(1024, 3.0))
...     sa, sb = cb.pointer("l1", fp8_e8m0_t, 0), cb.pointer("l1", fp8_e8m0_t, 32)
...     sa.write(np.full(32, 0.25)); sb.write(np.full(32, 1.0)); asc_sync()
...     asc_copy_l12l0a_mx_sync(a.address // 16, sa, 0, 0, 1, 1, 1, 1)
...     asc_copy_l12l0b_mx_sync(b.address // 16, sb, 0, 0, 1, 1, 1, 1)
...     c = cb.pointer("l0c", float32_t, 0)
...     asc_mmad_mx_sync(c, a, b, 16, 64, 16, 0, True, False, True)
...     c.read(2).tolist()
[96.0, 96.0]
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import operands
from ascreg._frontend.cube_mx import load_mx, run_mmad_mx
from ascreg._frontend.template import define
from ascreg.c_api.cube import mmad_operands
from ascreg.errors import AscregTypeError
from ascreg.machine.block import current_block
from ascreg.machine.cube import MX_BYTES, CbufPtr

__all__ = [
    "asc_copy_l12l0a_mx",
    "asc_copy_l12l0a_mx_sync",
    "asc_copy_l12l0b_mx",
    "asc_copy_l12l0b_mx_sync",
    "asc_mmad_mx",
    "asc_mmad_mx_sync",
]

MX_WINDOW = (
    ("x_start_pos", 0, 65535),
    ("y_start_pos", 0, 65535),
    ("x_step", 0, 255),
    ("y_step", 0, 255),
    ("src_stride", 0, 65535),
    ("dst_stride", 0, 65535),
)
"""The scale load's integers and their ranges (``uint16_t``, ``uint8_t`` steps)."""


def _load(op: Any, *args: Any) -> None:
    """``asc_copy_l12l0{a,b}_mx[_sync](dst, src, x_start_pos, y_start_pos, x_step, ...)``."""
    current_block()
    if len(args) != 2 + len(MX_WINDOW):
        raise AscregTypeError(
            "takes (dst, src, x_start_pos, y_start_pos, x_step, y_step, src_stride, dst_stride);"
            f" got {len(args)} arguments"
        )
    dst = operands.in_range(args[0], "dst", 0, MX_BYTES - 1, "an address in the 4 KiB MX buffer")
    src = operands.instance(args[1], CbufPtr, "src")
    window = tuple(
        operands.in_range(value, role, low, high)
        for value, (role, low, high) in zip(args[2:], MX_WINDOW, strict=True)
    )
    load_mx(op.space, dst, src, window)
    if op.sync:
        current_block().tracker.barrier()


_LOAD_DOC = """``{name}(uint64_t dst, __cbuf__ fp8_e8m0_t* src, uint16_t x_start_pos,
uint16_t y_start_pos, uint8_t x_step, uint8_t y_step, uint16_t src_stride,
uint16_t dst_stride)``: scales L1 -> {buffer} on ``PIPE_MTE1``{sync}.

Window fractal ``(x, y)`` (32 bytes, 16 x 2 scales) is L1 fractal ``(x_start_pos + x) *
src_stride + y_start_pos + y`` and {buffer} fractal ``x * dst_stride + y`` from ``dst``, the
{l0} address of the matrix divided by 16. ``src`` holds ``fp8_e8m0_t``; both are 32-byte
aligned; a zero step moves nothing.

Examples
--------
>>> import numpy as np
>>> from ascreg import fp8_e8m0_t
>>> from ascreg.c_api import asc_sync
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()):
...     src = cube_buffers().pointer("l1", fp8_e8m0_t, 0)
...     src.write(2.0 ** np.arange(-32, 32)); asc_sync()
...     {name}(32, src, 1, 0, 1, 1, 1, 1)   # L1 fractal 1 to MX bytes [32, 64)
...     asc_sync()
...     cube_buffers().{attr}.pointer(fp8_e8m0_t, 32).read(3).tolist()
[1.0, 2.0, 4.0]
"""


def _define_loads() -> dict[str, Any]:
    made = {}
    for target, space, buffer, l0 in (
        ("l0a", "__ca__", "L0A_MX", "L0A"),
        ("l0b", "__cb__", "L0B_MX", "L0B"),
    ):
        for sync in (False, True):
            name = f"asc_copy_l12{target}_mx{'_sync' if sync else ''}"
            doc = _LOAD_DOC.format(
                name=name, buffer=buffer, l0=l0, attr=f"{target}_mx",
                sync=", then a ``PIPE_ALL`` barrier" if sync else "",
            )  # fmt: skip
            made[name] = define(name, doc=doc, space=space, sync=sync)(_load)
    return made


_LOADS = _define_loads()
asc_copy_l12l0a_mx = _LOADS["asc_copy_l12l0a_mx"]
asc_copy_l12l0a_mx_sync = _LOADS["asc_copy_l12l0a_mx_sync"]
asc_copy_l12l0b_mx = _LOADS["asc_copy_l12l0b_mx"]
asc_copy_l12l0b_mx_sync = _LOADS["asc_copy_l12l0b_mx_sync"]


# -- asc_mmad_mx -----------------------------------------------------------------------------------


def _mmad(op: Any, *args: Any) -> None:
    """``asc_mmad_mx[_sync](c_matrix, a_matrix, b_matrix, left_height, n_dim, ...)``."""
    current_block()
    c, a, b, run = mmad_operands(args, "asc_mmad_mx.md")
    run_mmad_mx(c, a, b, None, run)
    if op.sync:
        current_block().tracker.barrier()


_MMAD_DOC = """``{name}(__cc__ float* c_matrix, __ca__ T* a_matrix, __cb__ U* b_matrix,
uint16_t left_height, uint16_t n_dim, uint16_t right_width, uint8_t unit_flag,
bool disable_gemv, bool c_matrix_source, bool c_matrix_init_val)``:
``C = (scaleA ⊗ A) x (scaleB ⊗ B) + C`` on ``PIPE_M``{sync}.

A (L0A, NZ) ``left_height x n_dim`` and B (L0B, ZN) ``n_dim x right_width`` are both fp4
(``fp4x2_e1m2_t`` / ``fp4x2_e2m1_t``) or both fp8 (``fp8_e4m3fn_t`` / ``fp8_e5m2_t``), each
with one ``fp8_e8m0_t`` scale per 32 elements along K at its address / 16 in L0A_MX / L0B_MX
(``asc_copy_l12l0a_mx`` / ``asc_copy_l12l0b_mx``); C (L0C, NZ) is float. ``n_dim`` is a
multiple of 64; a zero size computes nothing. C starts at 0 (``c_matrix_init_val``), at the
bias table's row (``c_matrix_source``) or at L0C's value. The MX GEMV (``left_height == 1``,
``disable_gemv`` false) raises :class:`~ascreg.errors.UnsupportedError`.

Examples
--------
>>> import numpy as np
>>> from ascreg import fp4x2_e1m2_t, fp8_e8m0_t, float32_t
>>> from ascreg.c_api import asc_sync
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()):
...     cb = cube_buffers()
...     a, b = cb.pointer("l0a", fp4x2_e1m2_t, 0), cb.pointer("l0b", fp4x2_e1m2_t, 512)
...     a.write(np.full(512, 0x44, np.uint8)); b.write(np.full(512, 0x44, np.uint8))  # 1.0
...     cb.l0a_mx.pointer(fp8_e8m0_t, 0).write(np.full(32, 0.5))
...     cb.l0b_mx.pointer(fp8_e8m0_t, 32).write(np.full(32, 1.0))
...     c = cb.pointer("l0c", float32_t, 0); asc_sync()
...     {name}(c, a, b, 16, 64, 16, 0, True, False, True)
...     asc_sync()
...     c.read(2).tolist()
[32.0, 32.0]
"""

asc_mmad_mx = define("asc_mmad_mx", doc=_MMAD_DOC.format(name="asc_mmad_mx", sync=""), sync=False)(
    _mmad
)
asc_mmad_mx_sync = define(
    "asc_mmad_mx_sync",
    doc=_MMAD_DOC.format(name="asc_mmad_mx_sync", sync=", then a ``PIPE_ALL`` barrier"),
    sync=True,
)(_mmad)
