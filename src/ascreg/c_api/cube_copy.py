"""The cube unit's copies in a C API kernel: GM -> L1 and L0C -> GM / UB / L1, with their registers.

``asc_copy_gm2l1_nd2nz[_sync]`` / ``asc_copy_gm2l1_dn2nz[_sync]`` move ND (row by row) or DN
(column by column) matrices from GM into L1 as NZ fractals on ``PIPE_MTE2``, laid out by the
``MTE2_NZ_PARA`` register (``asc_set_gm2l1_nz_para``); ``asc_copy_gm2l1[_sync]`` copies bursts
as they are. ``asc_copy_l0c2gm[_sync]``, ``asc_copy_l0c2ub[_sync]`` and ``asc_copy_l0c2l1``
move a matrix out of L0C on ``PIPE_FIX`` as NZ, ND (``nz2nd_en``, matrices counted by
``asc_set_l0c2gm_nz2nd``) or DN (``nz2dn_en``), converted (``quant_pre``) and with an optional
ReLU. They run the basic API's ``DataCopy(Nd2NzParams)`` and ``Fixpipe`` instructions
(:mod:`ascreg._frontend.cube`, :mod:`ascreg._frontend.fixpipe`); the ``_sync`` forms end with
a ``PIPE_ALL`` barrier. Fields whose effect the pages leave open raise
:class:`~ascreg.errors.UnsupportedError` (docs/limitations.md).

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, float32_t, half
>>> from ascreg.c_api import *
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> gm = GlobalMemory()
>>> a, c = gm.alloc(half, 16 * 16), gm.alloc(float32_t, 16 * 16)
>>> a.write(np.arange(256) % 5)
>>> with block(BlockContext()):
...     l1 = cube_buffers().pointer("l1", half, 0)
...     asc_set_gm2l1_nz_para(16 << 32 | 1 << 16 | 1)
...     asc_copy_gm2l1_nd2nz_sync(l1, a, 16 * half.size, 0, 16, 16, 0, False)
...     l1.read(3).tolist()
[0.0, 1.0, 2.0]
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import Scalar, uint64_t
from ascreg._frontend import operands
from ascreg._frontend.cube import (
    DN2NZ_LIMITS,
    ND2NZ_LIMITS,
    NzCopy,
    OnPipe,
    aligned,
    copy_to_nz,
)
from ascreg._frontend.fixpipe import (
    QUANT_B8,
    FixOut,
    b8_converter,
    cast_converter,
    check_dual,
    check_split,
    is_b8,
    run_fixpipe,
    track_gm,
)
from ascreg._frontend.template import define
from ascreg._spec.c_api import GM2L1_ALIGN_TYPES as ALIGN_TYPES
from ascreg._spec.c_api import GM2L1_NZ_TYPES, L0C_OUT_GM_TYPES, L0C_OUT_L1_TYPES
from ascreg.errors import AlignmentError, AscregTypeError, UnsupportedError
from ascreg.machine.block import current_block
from ascreg.machine.cube import C0_BYTES, CbufPtr, CcPtr, cube_buffers
from ascreg.machine.cube_regs import cube_registers, field
from ascreg.machine.memory import GmPtr, Pointer, UbPtr
from ascreg.machine.sync import PIPE_FIX, PIPE_MTE2

__all__ = [
    "asc_copy_gm2l1",
    "asc_copy_gm2l1_align",
    "asc_copy_gm2l1_align_sync",
    "asc_copy_gm2l1_dn2nz",
    "asc_copy_gm2l1_dn2nz_sync",
    "asc_copy_gm2l1_nd2nz",
    "asc_copy_gm2l1_nd2nz_sync",
    "asc_copy_gm2l1_sync",
    "asc_copy_l0c2gm",
    "asc_copy_l0c2gm_sync",
    "asc_copy_l0c2l1",
    "asc_copy_l0c2ub",
    "asc_copy_l0c2ub_sync",
    "asc_set_gm2l1_loop1_stride",
    "asc_set_gm2l1_loop2_stride",
    "asc_set_gm2l1_loop_size",
    "asc_set_gm2l1_nz_para",
    "asc_set_gm2l1_pad",
    "asc_set_l0c2gm_channel_para",
    "asc_set_l0c2gm_config",
    "asc_set_l0c2gm_lrelu_alpha",
    "asc_set_l0c2gm_nz2nd",
    "asc_set_l0c2gm_quant_post",
    "asc_set_l0c2gm_relu_alpha",
    "asc_set_l0c_copy_prequant",
]

UINT64_MAX = (1 << 64) - 1
L2_CACHE_CTL = (0, 1, 2, 4)
"""The documented ``l2_cache_ctl`` values (NORMAL, LAST, PERSISTENT, DISABLE): cache hints only."""
PAGES = {
    "nd2nz": "cube_datamove/asc_copy_gm2l1_nd2nz/asc_copy_gm2l1_nd2nz_arch_3510.md",
    "dn2nz": "cube_datamove/asc_copy_gm2l1_dn2nz.md",
    "gm2l1": "cube_datamove/asc_copy_gm2l1/asc_copy_gm2l1_arch_3510.md",
    "gm": "cube_datamove/asc_copy_l0c2gm/asc_copy_l0c2gm_arch_3510.md",
    "ub": "cube_datamove/asc_copy_l0c2ub.md",
    "l1": "cube_datamove/asc_copy_l0c2l1/asc_copy_l0c2l1_arch_3510.md",
}
"""The Ascend 950 page of each copy (named by the errors of fields it leaves open)."""


def _barrier_if(op: Any) -> None:
    if op.sync:
        current_block().tracker.barrier()


# -- the registers ----------------------------------------------------------------------------


def _set_nz_para(op: Any, config: Any) -> None:
    cube_registers().nz_para = operands.in_range(config, "config", 0, UINT64_MAX)


def _set_nz2nd(op: Any, nd_num: Any, src_nd_stride: Any, dst_nd_stride: Any) -> None:
    # the examples pass dst_nd_stride 0 with one matrix (it is then unused): 0 is accepted
    cube_registers().loop3 = (
        operands.in_range(nd_num, "nd_num", 1, 65535),
        operands.in_range(src_nd_stride, "src_nd_stride", 0, 65535),
        operands.in_range(dst_nd_stride, "dst_nd_stride", 0, 2**32 - 1),
    )


def _set_config(op: Any, relu_pre: Any, quant_pre: Any, enable_unit_flag: Any) -> None:
    if not isinstance(enable_unit_flag, bool | np.bool_):
        raise AscregTypeError(f"enable_unit_flag must be a bool, got {enable_unit_flag!r:.40}")
    cube_registers().fpc = (
        operands.in_range(relu_pre, "relu_pre", 0, 255),
        operands.in_range(quant_pre, "quant_pre", 0, 255),
        bool(enable_unit_flag),
    )


def _set_word(op: Any, config: Any) -> None:
    setattr(cube_registers(), op.register, operands.in_range(config, "config", 0, UINT64_MAX))


LOOP_SIZE_LIMIT = 1 << 21
"""``asc_set_gm2l1_loop_size``: each count is in [0, 2**21]."""
LOOP_SRC_LIMIT = 1 << 40
LOOP_DST_LIMIT = 1 << 21
"""The loops' source byte strides are in [0, 2**40], the L1 ones in [0, 2**21] (32-byte aligned)."""


def _set_loop_size(op: Any, loop1_size: Any, loop2_size: Any) -> None:
    loops = cube_registers().gm2l1_loops
    loops.sizes = (
        operands.in_range(loop1_size, "loop1_size", 0, LOOP_SIZE_LIMIT),
        operands.in_range(loop2_size, "loop2_size", 0, LOOP_SIZE_LIMIT),
    )


def _set_loop_stride(op: Any, *strides: Any) -> None:
    """Check and store loop ``op.loop``'s ``(loop<n>_src_stride, loop<n>_dst_stride)``."""
    n = op.loop
    if len(strides) != 2:
        raise AscregTypeError(f"takes (loop{n}_src_stride, loop{n}_dst_stride)")
    src_stride, dst_stride = strides
    src = operands.in_range(src_stride, f"loop{n}_src_stride", 0, LOOP_SRC_LIMIT)
    dst = operands.in_range(dst_stride, f"loop{n}_dst_stride", 0, LOOP_DST_LIMIT)
    if dst % C0_BYTES:
        raise AlignmentError(f"loop{n}_dst_stride {dst} is not a multiple of 32 bytes")
    loops = cube_registers().gm2l1_loops
    index = n - 1
    loops.src_strides = tuple(src if i == index else v for i, v in enumerate(loops.src_strides))  # type: ignore[assignment]
    loops.dst_strides = tuple(dst if i == index else v for i, v in enumerate(loops.dst_strides))  # type: ignore[assignment]


def _set_pad(op: Any, pad_val: Any) -> None:
    cube_registers().gm2l1_pad = operands.in_range(pad_val, "pad_val", 0, 2**32 - 1)


def _set_lrelu_alpha(op: Any, config: Any) -> None:
    if not isinstance(config, float | int | np.floating | np.integer) or isinstance(config, bool):
        raise AscregTypeError(f"config must be a half or float value, got {config!r:.40}")
    cube_registers().lrelu_alpha = config


_REG_EXAMPLE = """
Examples
--------
>>> from ascreg.c_api import *
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube_regs import cube_registers
>>> with block(BlockContext()):
...     {call}
...     cube_registers().{register}
{value}
"""

_LOOP_DOC = (
    "the ``asc_copy_gm2l1_align`` copy repeats ``loop2_size`` x ``loop1_size`` times, each "
    "repetition offset by the loops' byte strides; set the sizes back to ``(1, 1)`` after use, "
    "as the page asks (``PIPE_S``)."
)
_REGISTERS: dict[str, tuple[Callable[..., None], str, str, str, str]] = {
    "asc_set_gm2l1_loop_size": (
        _set_loop_size,
        "gm2l1_loops.sizes",
        "asc_set_gm2l1_loop_size(2, 3)",
        "(2, 3)",
        "``(uint64_t loop1_size, uint64_t loop2_size)``: set the loop counts in [0, 2**21]: "
        + _LOOP_DOC,
    ),
    "asc_set_gm2l1_loop1_stride": (
        _set_loop_stride,
        "gm2l1_loops.src_strides",
        "asc_set_gm2l1_loop1_stride(96, 128)",
        "(96, 0)",
        "``(uint64_t loop1_src_stride, uint64_t loop1_dst_stride)``: set the inner loop's byte "
        "strides (GM in [0, 2**40], L1 in [0, 2**21] and 32-byte aligned): " + _LOOP_DOC,
    ),
    "asc_set_gm2l1_loop2_stride": (
        _set_loop_stride,
        "gm2l1_loops.dst_strides",
        "asc_set_gm2l1_loop2_stride(192, 288)",
        "(0, 288)",
        "``(uint64_t loop2_src_stride, uint64_t loop2_dst_stride)``: set the outer loop's byte "
        "strides (GM in [0, 2**40], L1 in [0, 2**21] and 32-byte aligned): " + _LOOP_DOC,
    ),
    "asc_set_gm2l1_pad": (
        _set_pad,
        "gm2l1_pad",
        "asc_set_gm2l1_pad(7)",
        "7",
        "``(uint32_t pad_val)``: set the padding value of the unaligned GM -> L1 copy (kept: "
        "``asc_copy_gm2l1_align`` pads with the burst's first element, the only "
        "``data_select_bit`` its page supports; ``PIPE_S``).",
    ),
    "asc_set_gm2l1_nz_para": (
        _set_nz_para,
        "nz_para",
        "asc_set_gm2l1_nz_para(0x0000_0020_0001_0002)",
        "137439019010",
        "``(uint64_t config)``: set ``MTE2_NZ_PARA``, the layout of the next "
        "``asc_copy_gm2l1_nd2nz`` / ``_dn2nz``: [15:0] the matrix count, [31:16] the L1 row "
        "stride of a fractal and [47:32] the stride of its C0 column blocks (both in 32-byte "
        "rows), [63:48] the L1 matrix stride in 32-byte blocks (``PIPE_S``).",
    ),
    "asc_set_l0c2gm_nz2nd": (
        _set_nz2nd,
        "loop3",
        "asc_set_l0c2gm_nz2nd(2, 2, 256)",
        "(2, 2, 256)",
        "``(uint64_t nd_num, uint64_t src_nd_stride, uint64_t dst_nd_stride)``: set "
        "``LOOP3_PARA``, the matrices of the next NZ2ND / NZ2DN ``asc_copy_l0c2*``: ``nd_num`` "
        "in [1, 65535] matrices, ``src_nd_stride`` 16-element L0C rows apart (the basic API's "
        "``Nz2NdParams.srcNdStride``) and ``dst_nd_stride`` elements apart (``PIPE_S``).",
    ),
    "asc_set_l0c2gm_config": (
        _set_config,
        "fpc",
        "asc_set_l0c2gm_config(0, 2, False)",
        "(0, 2, False)",
        "``(uint64_t relu_pre, uint64_t quant_pre, bool enable_unit_flag)``: set ``FPC``: "
        "the fixpipe-buffer addresses of the ReLU and quantisation vectors in 128-byte units "
        "(``VQF322B8_PRE`` reads ``n_size`` words at ``quant_pre * 128``) and the unit flag, "
        "which changes no result (``PIPE_S``).",
    ),
    "asc_set_l0c2gm_channel_para": (
        _set_word,
        "channel_para",
        "asc_set_l0c2gm_channel_para(1 << 48)",
        "281474976710656",
        "``(uint64_t config)``: set ``CHANNEL_PARA``; bits [63:48] are the L0C row stride of "
        "an NZ2DN move's fractal in 16-element rows, not 0 (``PIPE_S``).",
    ),
    "asc_set_l0c2gm_quant_post": (
        _set_word,
        "quant_post",
        "asc_set_l0c2gm_quant_post(0x2AB)",
        "683",
        "``(uint64_t config)``: set ``QUANT_POST``, the word of the post-quantisation modes "
        "(which ascreg does not model: it is kept, ``PIPE_S``).",
    ),
    "asc_set_l0c2gm_relu_alpha": (
        _set_word,
        "relu_alpha",
        "asc_set_l0c2gm_relu_alpha(1 << 13)",
        "8192",
        "``(uint64_t config)``: set ``RELU_ALPHA``, the scalar ReLU slopes (kept: the scalar "
        "ReLU modes are not modelled, ``PIPE_S``).",
    ),
    "asc_set_l0c2gm_lrelu_alpha": (
        _set_lrelu_alpha,
        "lrelu_alpha",
        "asc_set_l0c2gm_lrelu_alpha(0.5)",
        "0.5",
        "``(half& config | float& config)``: set the Leaky ReLU alpha (kept: the Leaky ReLU "
        "modes are not modelled, ``PIPE_S``).",
    ),
    "asc_set_l0c_copy_prequant": (
        _set_word,
        "quant_pre",
        "asc_set_l0c_copy_prequant(2)",
        "2",
        "``(uint64_t config)``: set ``QUANT_PRE``, the word of the scalar quantisation "
        "(``QF322B8_PRE``: :func:`ascreg.core.cube.quantize_b8`, ``PIPE_S``).",
    ),
}


def _define_registers() -> dict[str, Any]:
    made = {}
    for name, (impl, register, call, value, summary) in _REGISTERS.items():
        doc = f"``{name}{summary[2:]}" + _REG_EXAMPLE.format(
            call=call, register=register, value=value
        )
        loop = int(name[-8]) if name.endswith("_stride") else 0
        made[name] = define(name, doc=doc, register=register, loop=loop)(impl)
    return made


_REGS = _define_registers()
asc_set_gm2l1_loop_size = _REGS["asc_set_gm2l1_loop_size"]
asc_set_gm2l1_loop1_stride = _REGS["asc_set_gm2l1_loop1_stride"]
asc_set_gm2l1_loop2_stride = _REGS["asc_set_gm2l1_loop2_stride"]
asc_set_gm2l1_pad = _REGS["asc_set_gm2l1_pad"]
asc_set_gm2l1_nz_para = _REGS["asc_set_gm2l1_nz_para"]
asc_set_l0c2gm_nz2nd = _REGS["asc_set_l0c2gm_nz2nd"]
asc_set_l0c2gm_config = _REGS["asc_set_l0c2gm_config"]
asc_set_l0c2gm_channel_para = _REGS["asc_set_l0c2gm_channel_para"]
asc_set_l0c2gm_quant_post = _REGS["asc_set_l0c2gm_quant_post"]
asc_set_l0c2gm_relu_alpha = _REGS["asc_set_l0c2gm_relu_alpha"]
asc_set_l0c2gm_lrelu_alpha = _REGS["asc_set_l0c2gm_lrelu_alpha"]
asc_set_l0c_copy_prequant = _REGS["asc_set_l0c_copy_prequant"]


# -- GM -> L1 ---------------------------------------------------------------------------------

NZ_ARGS = ("dst", "src", "loop1_src_stride", "l2_cache_ctl", "n_value", "d_value",
           "loop4_src_stride", "smallc0_en")  # fmt: skip
NZ_PARA_FIELDS = (("matrix count", 15, 0), ("N stride", 31, 16), ("C0 stride", 47, 32),
                  ("matrix stride", 63, 48))  # fmt: skip
"""The fields of ``MTE2_NZ_PARA`` (``asc_set_gm2l1_nz_para``), lowest first."""


def _l2_cache(value: Any) -> None:
    ctl = operands.in_range(value, "l2_cache_ctl", 0, 255)
    if ctl not in L2_CACHE_CTL:
        raise AscregTypeError(f"l2_cache_ctl {ctl} is not one of {L2_CACHE_CTL}")


def _flag(value: Any, role: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise AscregTypeError(f"{role} must be a bool, got {type(value).__name__} {value!r:.40}")
    return bool(value)


def _byte_stride(value: Any, role: str, size: int, limit: tuple[int, int]) -> int:
    """Return a byte stride as elements (a multiple of the element size, in *limit*)."""
    low, high = limit
    nbytes = operands.in_range(value, role, low * size, high * size)
    if nbytes % size:
        raise AlignmentError(f"{role} {nbytes} bytes is not a multiple of the {size}-byte element")
    return nbytes // size


def _to_nz(op: Any, *args: Any) -> None:
    """``asc_copy_gm2l1_{nd2nz,dn2nz}[_sync](dst, src, loop1_src_stride, ...)``."""
    current_block()
    if len(args) != len(NZ_ARGS):
        raise AscregTypeError(f"takes ({', '.join(NZ_ARGS)}); got {len(args)} arguments")
    dst = operands.instance(args[0], CbufPtr, "dst")
    src = operands.instance(args[1], GmPtr, "src")
    if src.dtype is not dst.dtype or dst.dtype not in GM2L1_NZ_TYPES:
        legal = ", ".join(t.cpp_name for t in GM2L1_NZ_TYPES)
        raise AscregTypeError(
            f"dst holds {dst.dtype.cpp_name} and src {src.dtype.cpp_name}: one element type of "
            f"{legal}"
        )
    dn = op.kind == "dn2nz"
    limits = DN2NZ_LIMITS if dn else ND2NZ_LIMITS
    size = dst.dtype.size
    line = _byte_stride(args[2], "loop1_src_stride", size, limits["srcDValue"])
    _l2_cache(args[3])
    n = operands.in_range(args[4], "n_value", *limits["nValue"])
    d = operands.in_range(args[5], "d_value", *limits["dValue"])
    matrix = _byte_stride(args[6], "loop4_src_stride", size, limits[stride_field(dn)])
    if _flag(args[7], "smallc0_en") and d <= 4:  # with d_value > 4 the page says it is ignored
        raise UnsupportedError(
            f"smallc0_en: {PAGES[op.kind]} says both that it pads C0 to 32 bytes and to 4 "
            "channels (see docs/limitations.md)"
        )
    count, n_stride, c0_stride, blocks = _nz_para(dn)
    copy = NzCopy(count, n, d, matrix, line, c0_stride, n_stride,
                  blocks * C0_BYTES // size, column_major=dn)  # fmt: skip
    copy_to_nz(dst, src, copy, "the matrix stride of MTE2_NZ_PARA")
    _barrier_if(op)


def stride_field(dn: bool) -> str:
    """Return the source matrix stride's field in the ND2NZ / DN2NZ limits."""
    return "srcDnMatrixStride" if dn else "srcNdMatrixStride"


def _nz_para(dn: bool) -> tuple[int, int, int, int]:
    """Return (matrix count, N stride, C0 stride, matrix stride in 32-byte blocks), checked."""
    value = cube_registers().nz_para
    limits = DN2NZ_LIMITS if dn else ND2NZ_LIMITS
    ranges = (limits["dnNum" if dn else "ndNum"], limits["dstNzNStride"],
              limits["dstNzC0Stride"], (0, 65535))  # fmt: skip
    return tuple(  # type: ignore[return-value]
        operands.in_range(
            field(value, high, low), f"the {what} of MTE2_NZ_PARA", *bounds,
            "set it with asc_set_gm2l1_nz_para",
        )
        for (what, high, low), bounds in zip(NZ_PARA_FIELDS, ranges, strict=True)
    )  # fmt: skip


GM2L1_ARGS = ("dst", "src", "n_burst", "len_burst", "pad_func_mode", "src_stride", "dst_stride")
GM2L1_2D_ARGS = 9
"""Arguments of ``asc_copy_gm2l1``'s 2D form (``m_start_position`` ... ``l2_cache_ctl``)."""


def _gm2l1(op: Any, *args: Any) -> None:
    """``asc_copy_gm2l1[_sync](dst, src, n_burst, len_burst, pad_func_mode, src_stride, dst_stride)``."""
    current_block()
    if len(args) == GM2L1_2D_ARGS:
        raise UnsupportedError(
            f"the 2D form of {PAGES['gm2l1']} (decomp_mode, the meaning of m_start_position / "
            "k_start_position in GM) is not fixed by the page (see docs/limitations.md)"
        )
    if len(args) != len(GM2L1_ARGS):
        raise AscregTypeError(f"takes ({', '.join(GM2L1_ARGS)}); got {len(args)} arguments")
    dst = operands.instance(args[0], CbufPtr, "dst")
    src = operands.instance(args[1], GmPtr, "src")
    n_burst = operands.in_range(args[2], "n_burst", 1, 2**32 - 1)
    len_burst = operands.in_range(args[3], "len_burst", 1, 2**32 - 1)
    mode = operands.in_range(args[4], "pad_func_mode", 0, 8)
    operands.in_range(args[5], "src_stride", 0, UINT64_MAX)
    operands.in_range(args[6], "dst_stride", 0, 2**32 - 1)
    if mode or n_burst > 1:
        raise UnsupportedError(
            f"{PAGES['gm2l1']} fixes one burst without padding (pad_func_mode 0, n_burst 1); "
            f"got pad_func_mode {mode}, n_burst {n_burst} (the stride units and padded layout "
            "are not given for the Ascend 950; see docs/limitations.md)"
        )
    aligned(dst, C0_BYTES, "dst")
    nbytes = len_burst * C0_BYTES
    ctx = current_block()
    with OnPipe(ctx, PIPE_MTE2):
        track_gm(ctx, src, nbytes, write=False)
        data = src.bytes(nbytes, "reads").copy()
        dst.bytes(nbytes, "writes")[:] = data
    _barrier_if(op)


ALIGN_ARGS = ("dst", "src", "n_burst", "len_burst", "left_padding_count", "right_padding_count",
              "data_select_bit", "l2_cache_ctl", "burst_src_stride", "burst_dst_stride")  # fmt: skip
PAD_BYTES = 32
"""The most padding on either side of a burst: 32 bytes (32, 16 or 8 elements)."""


def _align(op: Any, *args: Any) -> None:
    """``asc_copy_gm2l1_align[_sync](dst, src, n_burst, len_burst, ...)``."""
    current_block()
    if len(args) != len(ALIGN_ARGS):
        raise AscregTypeError(f"takes ({', '.join(ALIGN_ARGS)}); got {len(args)} arguments")
    dst = operands.instance(args[0], CbufPtr, "dst")
    src = operands.instance(args[1], GmPtr, "src")
    if src.dtype is not dst.dtype or dst.dtype not in ALIGN_TYPES:
        legal = ", ".join(t.cpp_name for t in ALIGN_TYPES)
        raise AscregTypeError(
            f"dst holds {dst.dtype.cpp_name} and src {src.dtype.cpp_name}: one element type of "
            f"{legal}"
        )
    size = dst.dtype.size
    n_burst = operands.in_range(args[2], "n_burst", 1, 2**32 - 1)
    len_burst = operands.in_range(args[3], "len_burst", 1, 2**32 - 1)
    if len_burst % size:
        raise AlignmentError(
            f"len_burst {len_burst} bytes is not a multiple of the {size}-byte element"
        )
    left, right = (
        operands.in_range(args[i], ALIGN_ARGS[i], 0, PAD_BYTES // size, "32 bytes of padding")
        for i in (4, 5)
    )
    if _flag(args[6], "data_select_bit"):
        raise UnsupportedError(
            "data_select_bit true: cube_datamove/asc_copy_gm2l1_align.md supports only false "
            "(pad with the burst's first element; see docs/limitations.md)"
        )
    _l2_cache(args[7])
    src_stride = operands.in_range(args[8], "burst_src_stride", 0, UINT64_MAX)
    dst_stride = operands.in_range(args[9], "burst_dst_stride", 0, 2**32 - 1)
    aligned(dst, C0_BYTES, "dst")
    ctx = current_block()
    padded = (left + right) * size + len_burst
    with OnPipe(ctx, PIPE_MTE2):
        for src_at, dst_at in cube_registers().gm2l1_loops.offsets():
            for i in range(n_burst):
                start = src.offset_bytes(src_at + i * src_stride)
                track_gm(ctx, start, len_burst, write=False)
                data = start.bytes(len_burst, "reads").copy()
                first = np.resize(data[:size], max(left, right) * size)
                out = dst.offset_bytes(dst_at + i * dst_stride).bytes(padded, "writes")
                out[: left * size] = first[: left * size]
                out[left * size : left * size + len_burst] = data
                out[left * size + len_burst :] = first[: right * size]
    _barrier_if(op)


# -- L0C -> GM / UB / L1 ------------------------------------------------------------------------

_OUT_TAIL = ("clip_relu_pre", "unit_flag_ctl", "quant_pre", "relu_pre", "split_en", "nz2nd_en",
             "quant_post", "relu_post", "clip_relu_post", "eltwise_op", "eltwise_antq_en",
             "c0_pad_en", "broadcast_en", "nz2dn_en")  # fmt: skip
_OUT_HEAD = ("dst_addr", "src_addr", "n_size", "m_size", "loop_dst_stride", "loop_src_stride")
OUT_FORMS: dict[str, tuple[tuple[str, ...], ...]] = {
    "gm": ((*_OUT_HEAD, "l2_cache_ctl", *_OUT_TAIL),),
    "ub": ((*_OUT_HEAD, "dual_dst_ctl", "sub_blockid", *_OUT_TAIL),),
    "l1": (
        ("dst", "src", "n_size", "m_size", "dst_stride", "src_stride", "clip_relu_pre",
         "unit_flag_mode", "quant_pre", "relu_pre", "channel_split", "nz2nd_en", "quant_post",
         "relu_post", "clip_relu_post", "eltwise_op", "eltwise_antq_en", "c0_pad_en"),
        ("dst", "src", "n_size", "m_size", "dst_stride", "src_stride", "l2_cache_ctl",
         "clip_relu_pre", "unit_flag_mode", "quant_pre", "relu_pre", "channel_split",
         "nz2nd_en", "quant_post", "relu_post", "clip_relu_post", "eltwise_op",
         "eltwise_antq_en", "c0_pad_en", "broadcast_en", "nz2dn_en"),
    ),
}  # fmt: skip
"""The argument names of each L0C copy's forms (``asc_copy_l0c2l1``: typed, then void)."""
CANONICAL = {"dst_addr": "dst", "src_addr": "src", "loop_dst_stride": "dst_stride",
             "loop_src_stride": "src_stride", "unit_flag_ctl": "unit_flag",
             "unit_flag_mode": "unit_flag", "channel_split": "split_en"}  # fmt: skip
"""The common key of arguments the three pages name differently."""
UNMODELLED = ("clip_relu_pre", "relu_post", "clip_relu_post", "eltwise_op", "eltwise_antq_en",
              "c0_pad_en", "broadcast_en")  # fmt: skip
"""Arguments whose documented effect is not fixed: any value but 0 / false is unsupported."""
DESTINATIONS: dict[str, tuple[type[Pointer[Any]], int, tuple[tuple[type[Scalar], ...], ...]]] = {
    "gm": (GmPtr, 1, L0C_OUT_GM_TYPES),
    "ub": (UbPtr, C0_BYTES, L0C_OUT_GM_TYPES),
    "l1": (CbufPtr, C0_BYTES, L0C_OUT_L1_TYPES),
}
"""Per target: the destination pointer type, its alignment and the (dst, src) types."""
MODELLED_MODES = ("NoQuant", "F322F16", "F322BF16", *QUANT_B8)


def _named(op: Any, args: tuple[Any, ...]) -> dict[str, tuple[str, Any]]:
    """Map each argument's common key to (its C name, its value)."""
    for names in OUT_FORMS[op.target]:
        if len(names) == len(args):
            return {CANONICAL.get(n, n): (n, v) for n, v in zip(names, args, strict=True)}
    arities = " or ".join(str(len(names)) for names in OUT_FORMS[op.target])
    raise AscregTypeError(
        f"takes {arities} arguments ({', '.join(OUT_FORMS[op.target][0])}); got {len(args)}"
    )


def _off(name: str, value: Any, page: str) -> None:
    """Raise unless *value* (a ``uint8_t`` or a ``bool``) is 0 / false."""
    number = int(value) if isinstance(value, bool | np.bool_) else value
    if operands.in_range(number, name, 0, 255):
        raise UnsupportedError(
            f"{name} {value!r}: its effect is not fixed by {page} (see docs/limitations.md)"
        )


def _quant_mode(value: Any, role: str, page: str, off: str) -> str:
    """Return the mode name of *value*: a ``QuantMode_t`` / ``QuantMode_post`` member, or 0."""
    if isinstance(value, enum.Enum):
        return value.name
    number = operands.in_range(value, role, 0, UINT64_MAX)
    if number:
        raise UnsupportedError(
            f"{role} {number}: the numbering of the modes is the compiler's; pass the member "
            f"(QuantMode_t.<name> of ascreg.basic) or 0 for {off} ({page})"
        )
    return off


def _l0c_out(op: Any, *args: Any) -> None:
    """``asc_copy_l0c2{gm,ub,l1}[_sync](dst, src, n_size, m_size, ...)``."""
    current_block()
    v = _named(op, args)
    page = PAGES[op.target]
    kind, align, pairs = DESTINATIONS[op.target]
    dst = operands.instance(v["dst"][1], kind, v["dst"][0])
    src = operands.instance(v["src"][1], CcPtr, v["src"][0])
    if (dst.dtype, src.dtype) not in pairs:
        legal = ", ".join(f"{d.cpp_name} <- {s.cpp_name}" for d, s in pairs)
        raise AscregTypeError(
            f"{dst.dtype.cpp_name} <- {src.dtype.cpp_name} is not an L0C copy of {page}; the "
            f"legal ones are {legal}"
        )
    aligned(src, 64, v["src"][0])
    aligned(dst, align, v["dst"][0])
    for key in UNMODELLED:
        if key in v:
            _off(*v[key], page)
    if "l2_cache_ctl" in v:
        _l2_cache(v["l2_cache_ctl"][1])
    unit = operands.in_range(v["unit_flag"][1], v["unit_flag"][0], 0, 3)
    if unit == 1:
        raise AscregTypeError(f"{v['unit_flag'][0]} 1 is reserved ({page}: 0, 2 or 3)")
    if _quant_mode(v["quant_post"][1], "quant_post", page, "NoConv") != "NoConv":
        raise UnsupportedError(f"quant_post modes are not modelled ({page}; docs/limitations.md)")
    relu = operands.in_range(v["relu_pre"][1], "relu_pre", 0, 255)
    if relu > 1:
        raise UnsupportedError(
            f"relu_pre {relu}: 1 is the normal ReLU (the basic API's reluEn); the scalar and "
            f"vector ReLU codes are not fixed by {page} (see docs/limitations.md)"
        )
    out = _fix_out(v, page)
    check_split(src.dtype, dst.dtype, out)
    mode = _quant_mode(v["quant_pre"][1], "quant_pre", page, "NoQuant")
    if mode not in MODELLED_MODES:
        raise UnsupportedError(
            f"quant_pre {mode}: ascreg models {', '.join(MODELLED_MODES)} (docs/limitations.md)"
        )
    if "sub_blockid" in v:
        out = attrs.evolve(
            out,
            sub=int(_flag(v["sub_blockid"][1], "sub_blockid")),
            dual=operands.in_range(v["dual_dst_ctl"][1], "dual_dst_ctl", 0, 3),
        )
        check_dual(out, mode != "NoQuant", bool(relu))
    ctx = current_block()
    with OnPipe(ctx, PIPE_FIX):  # a vector quantisation reads its words on PIPE_FIX
        if is_b8(src.dtype, dst.dtype, mode):
            convert = b8_converter(_quant_words(mode, out.n), bool(relu), dst.dtype)
        else:
            convert = cast_converter(src.dtype, dst.dtype, mode, bool(relu))
    run_fixpipe(dst, src, out, convert)
    _barrier_if(op)


def _fix_out(v: dict[str, tuple[str, Any]], page: str) -> FixOut:
    """Check the sizes, strides and layout switches; return the move (with LOOP3_PARA)."""
    nz2nd = _flag(v["nz2nd_en"][1], "nz2nd_en")
    nz2dn = _flag(v.get("nz2dn_en", ("nz2dn_en", False))[1], "nz2dn_en")
    split = _flag(v["split_en"][1], v["split_en"][0])
    if nz2nd and nz2dn:
        raise AscregTypeError("nz2nd_en and nz2dn_en are both set (one output layout)")
    if split and (nz2nd or nz2dn):
        raise AscregTypeError(f"{v['split_en'][0]} cannot be combined with NZ2ND / NZ2DN ({page})")
    n = operands.in_range(v["n_size"][1], "n_size", 1, 4095)
    m = operands.in_range(v["m_size"][1], "m_size", 1, 8192 if nz2nd else 65535)
    dst_stride = operands.in_range(v["dst_stride"][1], v["dst_stride"][0], 1, 2**32 - 1)
    src_stride = operands.in_range(v["src_stride"][1], v["src_stride"][0], 0, 65535)
    if not (nz2nd or nz2dn):
        return FixOut(n, m, src_stride, dst_stride, "nz", channel_split=split)
    count, src_matrix, dst_matrix = cube_registers().loop3
    if count > 1 and not dst_matrix:
        raise AscregTypeError(
            "the destination matrix stride of asc_set_l0c2gm_nz2nd is 0 with more than one "
            "matrix (its range is [1, 2**32 - 1])"
        )
    if nz2nd:
        return FixOut(n, m, src_stride, dst_stride, "nd", count, src_matrix, dst_matrix)
    c0 = field(cube_registers().channel_para, 63, 48)
    if not c0:
        raise AscregTypeError(
            "an NZ2DN move needs CHANNEL_PARA[63:48], the source C0 stride, not 0 (set it with "
            "asc_set_l0c2gm_channel_para)"
        )
    return FixOut(n, m, src_stride, dst_stride, "dn", count, src_matrix, dst_matrix, c0)


def _quant_words(mode: str, n: int) -> Any:
    """Return the quantisation word(s): ``QUANT_PRE``, or ``n`` fixpipe-buffer words."""
    regs = cube_registers()
    if not QUANT_B8[mode]:
        return np.array([regs.quant_pre], np.uint64)
    words = cube_buffers().fb.pointer(uint64_t, regs.fpc[1] * 128)
    return words.view(n, "reads").copy()


# -- the definitions ----------------------------------------------------------------------------

_NZ_DOC = """``{name}(__cbuf__ T* dst, __gm__ T* src, uint64_t loop1_src_stride,
uint8_t l2_cache_ctl, uint16_t n_value, uint32_t d_value, uint64_t loop4_src_stride,
bool smallc0_en)``: GM -> L1 with {what} -> NZ on ``PIPE_MTE2``{sync}.

Each of the ``MTE2_NZ_PARA`` matrix count matrices (``loop4_src_stride`` bytes apart in GM) is
an ``n_value x d_value`` matrix stored {stored}, lines ``loop1_src_stride`` bytes apart; it
lands in L1 as NZ, its last C0 block zero-padded, laid out by ``asc_set_gm2l1_nz_para``. This
is the basic API's ``DataCopy(dst, src, {params})``. ``l2_cache_ctl`` is a cache hint;
``smallc0_en`` with ``d_value <= 4`` raises :class:`~ascreg.errors.UnsupportedError` (the page
describes it both ways) and is ignored otherwise, as the page says.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, half
>>> from ascreg.c_api import asc_set_gm2l1_nz_para
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> src = GlobalMemory().alloc(half, 4 * 16); src.write(np.arange(64))
>>> with block(BlockContext()) as ctx:
...     dst = cube_buffers().pointer("l1", half, 0)
...     asc_set_gm2l1_nz_para(16 << 32 | 1 << 16 | 1)
...     {name}(dst, src, {line}, 0, {n}, {d}, 0, False)
...     ctx.tracker.barrier()
...     dst.read(256).reshape(16, 16)[:2, :5].tolist()
{expected}
"""


def _define_copies() -> dict[str, Any]:
    made = {}
    forms = {
        "nd2nz": ("ND", "row by row", "Nd2NzParams", "16 * 2", 4, 16,
                  "[[0.0, 1.0, 2.0, 3.0, 4.0], [16.0, 17.0, 18.0, 19.0, 20.0]]"),
        "dn2nz": ("DN", "column by column", "Dn2NzParams", "4 * 2", 4, 16,
                  "[[0.0, 4.0, 8.0, 12.0, 16.0], [1.0, 5.0, 9.0, 13.0, 17.0]]"),
    }  # fmt: skip
    for kind, (what, stored, params, line, n, d, expected) in forms.items():
        for sync in (False, True):
            name = f"asc_copy_gm2l1_{kind}{'_sync' if sync else ''}"
            doc = _NZ_DOC.format(
                name=name,
                what=what,
                stored=stored,
                params=params,
                line=line,
                n=n,
                d=d,
                expected=expected,
                sync=", then a ``PIPE_ALL`` barrier" if sync else "",
            )
            made[name] = define(name, doc=doc, kind=kind, sync=sync)(_to_nz)
    for sync in (False, True):
        name = f"asc_copy_gm2l1_align{'_sync' if sync else ''}"
        made[name] = define(name, doc=_ALIGN_DOC.format(name=name), sync=sync)(_align)
    for sync in (False, True):
        name = f"asc_copy_gm2l1{'_sync' if sync else ''}"
        made[name] = define(name, doc=_GM2L1_DOC.format(name=name), sync=sync)(_gm2l1)
    for target, syncs in (("gm", (False, True)), ("ub", (False, True)), ("l1", (False,))):
        for sync in syncs:
            name = f"asc_copy_l0c2{target}{'_sync' if sync else ''}"
            setup, middle, tail = OUT_EXAMPLES[target]
            doc = _OUT_DOCS[target].format(
                name=name, sync=", then a ``PIPE_ALL`` barrier" if sync else ""
            ) + _OUT_DOC.format(name=name, setup=setup, middle=middle, tail=tail)
            made[name] = define(name, doc=doc, target=target, sync=sync)(_l0c_out)
    return made


_GM2L1_DOC = """``{name}(__cbuf__ void* dst, __gm__ void* src, uint32_t n_burst, uint32_t len_burst,
uint8_t pad_func_mode, uint64_t src_stride, uint32_t dst_stride)``: GM -> L1 on ``PIPE_MTE2``.

Copies ``len_burst`` 32-byte blocks as they are (``dst`` 32-byte aligned). The page fixes one
burst without padding; other ``pad_func_mode`` values, ``n_burst > 1`` and the 2D form raise
:class:`~ascreg.errors.UnsupportedError` (docs/limitations.md). ``_sync`` ends with a
``PIPE_ALL`` barrier.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, int32_t
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> src = GlobalMemory().alloc(int32_t, 16); src.write(np.arange(16))
>>> with block(BlockContext()) as ctx:
...     dst = cube_buffers().pointer("l1", int32_t, 64)
...     {name}(dst, src, 1, 2, 0, 0, 0)
...     ctx.tracker.barrier()
...     dst.read(16)[[0, 15]].tolist()
[0, 15]
"""

_ALIGN_DOC = """``{name}(__cbuf__ T* dst, __gm__ T* src, uint32_t n_burst, uint32_t len_burst,
uint8_t left_padding_count, uint8_t right_padding_count, bool data_select_bit,
uint8_t l2_cache_ctl, uint64_t burst_src_stride, uint32_t burst_dst_stride)``: GM -> L1 with
padding on ``PIPE_MTE2``.

``n_burst`` bursts of ``len_burst`` bytes (whole elements), ``burst_src_stride`` bytes apart in
GM (head to head), land ``burst_dst_stride`` bytes apart in L1 (``dst`` 32-byte aligned), each
with ``left_padding_count`` / ``right_padding_count`` elements of the burst's first element
around it (at most 32 bytes a side). The whole copy repeats as the ``asc_set_gm2l1_loop*``
registers say. ``data_select_bit`` true raises :class:`~ascreg.errors.UnsupportedError` (the
page supports only false); ``l2_cache_ctl`` is a cache hint; ``_sync`` ends with a
``PIPE_ALL`` barrier. ``len_burst`` counts bytes as the basic API's ``DataCopyPad`` passes it
(the page's "32 bytes" unit contradicts its own multiple-of-2 / -4 rule).

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, half
>>> from ascreg.c_api import *
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> src = GlobalMemory().alloc(half, 64); src.write(np.arange(1, 65))
>>> with block(BlockContext()) as ctx:
...     dst = cube_buffers().pointer("l1", half, 0)
...     dst.write(np.zeros(64, np.float16)); ctx.tracker.barrier()
...     asc_set_gm2l1_loop_size(2, 1)
...     asc_set_gm2l1_loop1_stride(32, 64)
...     {name}(dst, src, 2, 6, 1, 0, False, 0, 8, 16)
...     asc_set_gm2l1_loop_size(1, 1)
...     ctx.tracker.barrier()
...     dst.read(40).reshape(-1, 8)[:, :4].tolist()
[[1.0, 1.0, 2.0, 3.0], [5.0, 5.0, 6.0, 7.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [17.0, 17.0, 18.0, 19.0]]
"""

_OUT_DOCS = {
    "gm": """``{name}(__gm__ T* dst_addr, __cc__ U* src_addr, uint16_t n_size, uint16_t m_size,
uint32_t loop_dst_stride, uint16_t loop_src_stride, uint8_t l2_cache_ctl, uint8_t clip_relu_pre,
uint8_t unit_flag_ctl, uint64_t quant_pre, uint8_t relu_pre, bool split_en, bool nz2nd_en,
uint64_t quant_post, uint8_t relu_post, bool clip_relu_post, uint8_t eltwise_op,
bool eltwise_antq_en, bool c0_pad_en, bool broadcast_en, bool nz2dn_en)``: L0C -> GM on
``PIPE_FIX``{sync}; under a store-atomic mode the elements combine into GM.
""",
    "ub": """``{name}(__ubuf__ T* dst_addr, __cc__ U* src_addr, uint16_t n_size, uint16_t m_size,
uint32_t loop_dst_stride, uint16_t loop_src_stride, uint8_t dual_dst_ctl, bool sub_blockid,
uint8_t clip_relu_pre, uint8_t unit_flag_ctl, uint64_t quant_pre, uint8_t relu_pre,
bool split_en, bool nz2nd_en, uint64_t quant_post, uint8_t relu_post, bool clip_relu_post,
uint8_t eltwise_op, bool eltwise_antq_en, bool c0_pad_en, bool broadcast_en, bool nz2dn_en)``:
L0C -> UB on ``PIPE_FIX``{sync} (``dst_addr`` 32-byte aligned). On the AIC of a
``__mix__`` launch it writes the UB of vector core ``sub_blockid`` of its AI Core, or with
``dual_dst_ctl`` 1 / 2 the first M / N half to sub-block 0 and the second to sub-block 1
(:mod:`ascreg.machine.cubeub`); on an AIV it does nothing; in a block run alone it writes the
block's own UB.
""",
    "l1": """``{name}(__cbuf__ T* dst, __cc__ U* src, uint16_t n_size, uint16_t m_size,
uint32_t dst_stride, uint16_t src_stride, uint8_t clip_relu_pre, uint8_t unit_flag_mode,
uint64_t quant_pre, uint8_t relu_pre, bool channel_split, bool nz2nd_en, uint64_t quant_post,
uint8_t relu_post, bool clip_relu_post, uint8_t eltwise_op, uint8_t eltwise_antq_en,
bool c0_pad_en)`` (or the ``void*`` form with ``l2_cache_ctl``, ``broadcast_en`` and
``nz2dn_en``): L0C -> L1 on ``PIPE_FIX`` (``dst`` 32-byte aligned).
""",
}

_OUT_DOC = """
Reads ``m_size x n_size`` of the NZ matrix at ``src`` (64-byte aligned; column blocks
``loop_src_stride`` 16-element rows apart) and writes it NZ (column blocks ``loop_dst_stride``
elements apart), ND (``nz2nd_en``: rows of ``loop_dst_stride`` elements) or DN (``nz2dn_en``:
columns of ``loop_dst_stride`` elements; the fractal rows ``CHANNEL_PARA[63:48]`` apart), with
``asc_set_l0c2gm_nz2nd``'s matrix count and strides. ``quant_pre`` is a ``QuantMode_t`` member
(or 0, ``NoQuant``): ``NoQuant``, ``F322F16``, ``F322BF16`` (round to nearest even),
``QF322B8_PRE`` (the word of ``asc_set_l0c_copy_prequant``) and ``VQF322B8_PRE`` (``n_size``
words from the fixpipe buffer at ``asc_set_l0c2gm_config``'s ``quant_pre`` x 128 bytes);
``relu_pre`` 1 is ``max(x, 0)``; ``split_en`` writes a float NZ result in 8-column blocks.
``unit_flag`` (0, 2 or 3) and ``l2_cache_ctl`` change no result. The fields whose effect the
page leaves open (``clip_relu_pre``, ``relu_post``, ``eltwise_op``, ``c0_pad_en``,
``broadcast_en``, a ``quant_post`` mode, the other ``quant_pre`` / ``relu_pre`` modes ...)
raise :class:`~ascreg.errors.UnsupportedError` (docs/limitations.md).

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, float32_t, half
>>> from ascreg.basic import QuantMode_t
>>> from ascreg.c_api import *
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()) as ctx:
...     src = cube_buffers().pointer("l0c", float32_t, 0); src.write(np.arange(256) - 4.0)
...     {setup}
...     ctx.tracker.barrier()
...     asc_set_l0c2gm_nz2nd(1, 0, 0)
...     {name}(out, src, 16, 2, 16, 16, {middle}0, 0, QuantMode_t.F322F16, 1, False, True, 0, 0,
...         False, 0, False, False{tail})
...     ctx.tracker.barrier()
...     out.read(32).reshape(2, 16)[:, 3:7].tolist()
[[0.0, 0.0, 1.0, 2.0], [15.0, 16.0, 17.0, 18.0]]
"""
OUT_EXAMPLES = {
    "gm": ("out = GlobalMemory().alloc(half, 2 * 16)", "0, ", ", False, False"),
    "ub": ("out = __ubuf__(half, 2 * 16)", "0, False, ", ", False, False"),
    "l1": ('out = cube_buffers().pointer("l1", half, 0)', "", ""),
}
"""Per target: the destination, the arguments after ``loop_src_stride`` and the last ones."""

_COPIES = _define_copies()
asc_copy_gm2l1_align = _COPIES["asc_copy_gm2l1_align"]
asc_copy_gm2l1_align_sync = _COPIES["asc_copy_gm2l1_align_sync"]
asc_copy_gm2l1_nd2nz = _COPIES["asc_copy_gm2l1_nd2nz"]
asc_copy_gm2l1_nd2nz_sync = _COPIES["asc_copy_gm2l1_nd2nz_sync"]
asc_copy_gm2l1_dn2nz = _COPIES["asc_copy_gm2l1_dn2nz"]
asc_copy_gm2l1_dn2nz_sync = _COPIES["asc_copy_gm2l1_dn2nz_sync"]
asc_copy_gm2l1 = _COPIES["asc_copy_gm2l1"]
asc_copy_gm2l1_sync = _COPIES["asc_copy_gm2l1_sync"]
asc_copy_l0c2gm = _COPIES["asc_copy_l0c2gm"]
asc_copy_l0c2gm_sync = _COPIES["asc_copy_l0c2gm_sync"]
asc_copy_l0c2ub = _COPIES["asc_copy_l0c2ub"]
asc_copy_l0c2ub_sync = _COPIES["asc_copy_l0c2ub_sync"]
asc_copy_l0c2l1 = _COPIES["asc_copy_l0c2l1"]
