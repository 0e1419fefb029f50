"""The cube unit of a C API kernel: L1 -> L0A / L0B loads and the matrix multiply-add.

``asc_copy_l12l0a[_transpose][_sync]`` and ``asc_copy_l12l0b[_transpose][_sync]`` move
512-byte fractals from L1 (``__cbuf__ T*``) to L0A (``__ca__ T*``) or L0B (``__cb__ T*``) on
``PIPE_MTE1`` (the 2D form of ``asc_copy_l12l0a_arch_3510.md``); ``asc_mmad[_sync]`` computes
``C = A x B + C`` into L0C (``__cc__ T*``) on ``PIPE_M`` (``asc_mmad.md``). They run the same
instructions as the basic API's ``LoadData`` and ``Mmad`` (:mod:`ascreg._frontend.cube`); the
``_sync`` forms end with a ``PIPE_ALL`` barrier. The pointers come from the running block's
cube buffers (:func:`ascreg.machine.cube.cube_buffers`).

Examples
--------
>>> import numpy as np
>>> from ascreg import int8_t, int32_t
>>> from ascreg.c_api import *
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()):
...     cb = cube_buffers()
...     l1a, l1b = cb.pointer("l1", int8_t, 0), cb.pointer("l1", int8_t, 512)
...     l1a.write(np.ones(512, np.int8)); l1b.write(np.full(512, 3, np.int8)); asc_sync()
...     a, b = cb.pointer("l0a", int8_t, 0), cb.pointer("l0b", int8_t, 0)
...     asc_copy_l12l0a_sync(a, l1a, 0, 0, 1, 1, 1, 1)
...     asc_copy_l12l0b_sync(b, l1b, 0, 0, 1, 1, 1, 1)
...     c = cb.pointer("l0c", int32_t, 0)
...     asc_mmad_sync(c, a, b, 16, 32, 16, 0, False, False, True)
...     c.read(2).tolist()
[96, 96]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import fp4x2_e1m2_t, fp4x2_e2m1_t, int4b_t, int4x2_t
from ascreg._frontend import operands
from ascreg._frontend.cube import MMAD_LIMIT, MmadRun, Window, load_2d, run_mmad
from ascreg._frontend.template import define
from ascreg.errors import AscregTypeError, UnsupportedError
from ascreg.machine.block import current_block
from ascreg.machine.cube import CaPtr, CbPtr, CbufPtr, CcPtr
from ascreg.machine.memory import Pointer

__all__ = [
    "asc_copy_l12l0a",
    "asc_copy_l12l0a_sync",
    "asc_copy_l12l0a_transpose",
    "asc_copy_l12l0a_transpose_sync",
    "asc_copy_l12l0b",
    "asc_copy_l12l0b_sync",
    "asc_copy_l12l0b_transpose",
    "asc_copy_l12l0b_transpose_sync",
    "asc_mmad",
    "asc_mmad_sync",
]

LOAD_PAGE = "cube_datamove/{name}/{name}_arch_3510.md"
"""The doc page of ``asc_copy_l12l0a`` / ``asc_copy_l12l0b`` on the Ascend 950."""
WINDOW_RANGES = (
    ("m_start_position", 0, 65535),
    ("k_start_position", 0, 65535),
    ("m_step", 0, 255),
    ("k_step", 0, 255),
    ("src_stride", -32768, 32767),
    ("dst_stride", 0, 65535),
)
"""The 2D form's integer parameters and their ranges (``uint16_t``, ``uint8_t`` steps of
[0, 255], ``int16_t src_stride``, ``uint16_t dst_stride``)."""
THREE_D_ARGS = 17
"""Arguments of the 3D (img2col) form, which the C API names like the 2D form."""
FOUR_BIT = frozenset({int4b_t, int4x2_t, fp4x2_e1m2_t, fp4x2_e2m1_t})
"""The 4-bit element types (a transposing load of them moves nibbles)."""
DESTINATIONS: dict[str, type[Pointer[Any]]] = {"l0a": CaPtr, "l0b": CbPtr}


def _window(name: str, args: tuple[Any, ...], transpose: bool) -> Window:
    """Check the six integers of the 2D form; return its window."""
    m_start, k_start, m_step, k_step, src_stride, dst_stride = (
        operands.in_range(value, role, low, high)
        for value, (role, low, high) in zip(args, WINDOW_RANGES, strict=True)
    )
    if src_stride < 0:
        raise UnsupportedError(
            f"src_stride {src_stride} is negative: {LOAD_PAGE.format(name=name.split('_t')[0])} "
            "types it int16_t but defines only a gap between fractals (see docs/limitations.md)"
        )
    return Window(m_start, k_start, m_step, k_step, src_stride, dst_stride, transpose)


def _load(op: Any, *args: Any) -> None:
    """``asc_copy_l12l0{a,b}[_transpose][_sync](dst, src, m_start_position, ...)``."""
    current_block()
    base = "asc_copy_l12l0a" if op.target == "l0a" else "asc_copy_l12l0b"
    if len(args) == THREE_D_ARGS:
        raise UnsupportedError(
            f"the 3D (img2col) form of {LOAD_PAGE.format(name=base)} is not modelled yet; the "
            "basic API's LoadData(LoadData3DParamsV2) is (see docs/limitations.md)"
        )
    if len(args) != 2 + len(WINDOW_RANGES):
        raise AscregTypeError(
            "takes (dst, src, m_start_position, k_start_position, m_step, k_step, src_stride, "
            f"dst_stride); got {len(args)} arguments"
        )
    dst = operands.instance(args[0], DESTINATIONS[op.target], "dst")
    src = operands.instance(args[1], CbufPtr, "src")
    if op.transpose and src.dtype in FOUR_BIT:
        raise UnsupportedError(
            f"a transposing load of 4-bit elements ({src.dtype.cpp_name}) swaps nibbles, which "
            "ascreg does not model (see docs/limitations.md)"
        )
    load_2d(dst, src, _window(base, args[2:], op.transpose))
    if op.sync:
        current_block().tracker.barrier()


_LOAD_DOC = """``{name}(__{space}__ T* dst, __cbuf__ T* src, uint16_t m_start_position,
uint16_t k_start_position, uint8_t m_step, uint8_t k_step, int16_t src_stride,
uint16_t dst_stride)``: L1 -> {buffer} on ``PIPE_MTE1``{sync}.

Moves an ``m_step x k_step`` window of 512-byte fractals (16 rows of 32 bytes): fractal
``(m, k)`` of the window is L1 fractal ``(k_start_position + k) * src_stride +
m_start_position + m`` and {buffer} fractal ``k * dst_stride + m``{transpose}. ``dst`` is
512-byte aligned, ``src`` 32-byte aligned; a zero step moves nothing. The 3D (img2col) form
raises :class:`~ascreg.errors.UnsupportedError`.

Examples
--------
>>> import numpy as np
>>> from ascreg import half
>>> from ascreg.c_api import asc_sync
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()):
...     cb = cube_buffers()
...     src = cb.pointer("l1", half, 0); src.write(np.arange(512, dtype=np.float16)); asc_sync()
...     dst = cb.pointer("{target}", half, 0)
...     {name}(dst, src, 1, 0, 1, 1, 2, 1)
...     asc_sync()
...     dst.read(256).reshape(16, 16)[0, :3].tolist()
{expected}
"""

_FORMS = {
    "": "",
    "_transpose": (
        "; the window, read as an NZ matrix, is transposed and written NZ with ``dst_stride`` "
        "fractals between column blocks"
    ),
}


def _define_loads() -> dict[str, Any]:
    made = {}
    for target, space, buffer in (("l0a", "ca", "L0A"), ("l0b", "cb", "L0B")):
        for tag, transpose_doc in _FORMS.items():
            for sync in (False, True):
                name = f"asc_copy_l12{target}{tag}{'_sync' if sync else ''}"
                expected = "[256.0, 272.0, 288.0]" if tag else "[256.0, 257.0, 258.0]"
                doc = _LOAD_DOC.format(
                    name=name, space=space, buffer=buffer, target=target,
                    sync=", then a ``PIPE_ALL`` barrier" if sync else "",
                    transpose=transpose_doc, expected=expected,
                )  # fmt: skip
                made[name] = define(name, doc=doc, target=target, transpose=bool(tag), sync=sync)(
                    _load
                )
    return made


_LOADS = _define_loads()
asc_copy_l12l0a = _LOADS["asc_copy_l12l0a"]
asc_copy_l12l0a_sync = _LOADS["asc_copy_l12l0a_sync"]
asc_copy_l12l0a_transpose = _LOADS["asc_copy_l12l0a_transpose"]
asc_copy_l12l0a_transpose_sync = _LOADS["asc_copy_l12l0a_transpose_sync"]
asc_copy_l12l0b = _LOADS["asc_copy_l12l0b"]
asc_copy_l12l0b_sync = _LOADS["asc_copy_l12l0b_sync"]
asc_copy_l12l0b_transpose = _LOADS["asc_copy_l12l0b_transpose"]
asc_copy_l12l0b_transpose_sync = _LOADS["asc_copy_l12l0b_transpose_sync"]


# -- asc_mmad ------------------------------------------------------------------------------------

MMAD_ARGS = 10
"""Arguments of the Ascend 950 form (``..., unit_flag, disable_gemv, c_matrix_source,
c_matrix_init_val``)."""
MMAD_OFFSET_ARGS = 13
"""Arguments of the weight-offset form (``feat_offset``, ``smask_offset``, ``is_weight_offset``)."""


def _mmad(op: Any, *args: Any) -> None:
    """``asc_mmad[_sync](c_matrix, a_matrix, b_matrix, left_height, n_dim, right_width, ...)``."""
    current_block()
    if len(args) == MMAD_OFFSET_ARGS:
        raise UnsupportedError(
            "the weight-offset form (feat_offset, smask_offset, is_weight_offset) of "
            "cube_compute/asc_mmad.md leaves the offset's effect undefined (see "
            "docs/limitations.md)"
        )
    c, a, b, run = mmad_operands(args, "asc_mmad.md")
    run_mmad(c, a, b, None, run)
    if op.sync:
        current_block().tracker.barrier()


def mmad_operands(args: tuple[Any, ...], page: str) -> tuple[Any, Any, Any, MmadRun]:
    """Check the ten arguments of ``asc_mmad`` / ``asc_mmad_mx``; return C, A, B and the run."""
    if len(args) != MMAD_ARGS:
        raise AscregTypeError(
            "takes (c_matrix, a_matrix, b_matrix, left_height, n_dim, right_width, unit_flag, "
            f"disable_gemv, c_matrix_source, c_matrix_init_val); got {len(args)} arguments"
        )
    c = operands.instance(args[0], CcPtr, "c_matrix")
    a = operands.instance(args[1], CaPtr, "a_matrix")
    b = operands.instance(args[2], CbPtr, "b_matrix")
    m, k, n = (
        operands.in_range(value, role, 0, MMAD_LIMIT)
        for value, role in zip(args[3:6], ("left_height", "n_dim", "right_width"), strict=True)
    )
    unit_flag = operands.in_range(args[6], "unit_flag", 0, 3)
    if unit_flag == 1:
        raise AscregTypeError(f"unit_flag 1 is reserved ({page}: 0, 2 or 3)")
    disable_gemv, bias_table, init_zero = (
        _flag(value, role)
        for value, role in zip(
            args[7:], ("disable_gemv", "c_matrix_source", "c_matrix_init_val"), strict=True
        )
    )
    return c, a, b, MmadRun(m, n, k, init_zero, bias_table, disable_gemv)


def _flag(value: Any, role: str) -> bool:
    """Return the C ``bool`` *value* (a Python or numpy bool)."""
    if not isinstance(value, bool | np.bool_):
        raise AscregTypeError(f"{role} must be a bool, got {type(value).__name__} {value!r:.40}")
    return bool(value)


_MMAD_DOC = """``{name}(__cc__ T* c_matrix, __ca__ U* a_matrix, __cb__ U* b_matrix,
uint16_t left_height, uint16_t n_dim, uint16_t right_width, uint8_t unit_flag,
bool disable_gemv, bool c_matrix_source, bool c_matrix_init_val)``: ``C = A x B + C`` on
``PIPE_M``{sync}.

A (L0A, NZ) is ``left_height x n_dim``, B (L0B, ZN) ``n_dim x right_width`` and C (L0C, NZ)
``left_height x right_width`` (each in [0, 4095]; a zero size computes nothing). C starts at 0
(``c_matrix_init_val``), else at the bias table's row (``c_matrix_source``) or at L0C's value.
With ``left_height == 1`` and ``disable_gemv`` false, A is one ND row (GEMV). ``unit_flag`` (0,
2 or 3) changes no result. The types and the arithmetic are the basic API's ``Mmad``
(``int8_t`` -> ``int32_t`` exact; the floating types accumulate in ``float``, see
docs/semantics.md). The weight-offset form raises :class:`~ascreg.errors.UnsupportedError`.

Examples
--------
>>> import numpy as np
>>> from ascreg import half, float32_t
>>> from ascreg.c_api import asc_sync
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()):
...     cb = cube_buffers()
...     a, b = cb.pointer("l0a", half, 0), cb.pointer("l0b", half, 0)
...     a.write(np.full(256, 0.5, np.float16)); b.write(np.full(256, 2, np.float16)); asc_sync()
...     c = cb.pointer("l0c", float32_t, 0)
...     {name}(c, a, b, 16, 16, 16, 0, True, False, True)
...     asc_sync()
...     c.read(2).tolist()
[16.0, 16.0]
"""

asc_mmad = define("asc_mmad", doc=_MMAD_DOC.format(name="asc_mmad", sync=""), sync=False)(_mmad)
asc_mmad_sync = define(
    "asc_mmad_sync",
    doc=_MMAD_DOC.format(name="asc_mmad_sync", sync=", then a ``PIPE_ALL`` barrier"),
    sync=True,
)(_mmad)
