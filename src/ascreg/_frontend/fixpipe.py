"""The fixpipe (``PIPE_FIX``): L0C -> GM / UB / L1 with a layout change, a conversion and ReLU.

The basic API's ``Fixpipe`` and the C API's ``asc_copy_l0c2gm`` / ``asc_copy_l0c2ub`` /
``asc_copy_l0c2l1`` are one instruction: each front end checks its own operands (a params
struct, or scalars and the fixpipe registers), describes the move as a :class:`FixOut` and a
conversion (:func:`cast_converter`, :func:`b8_converter`) and calls :func:`run_fixpipe`.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, float32_t, half
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> out = GlobalMemory().alloc(half, 32)
>>> with block(BlockContext()) as ctx:
...     c = cube_buffers().pointer("l0c", float32_t, 0); c.write(np.arange(256) - 8.0)
...     ctx.tracker.barrier()
...     run_fixpipe(out, c, FixOut(16, 2, 16, 16), cast_converter(float32_t, half, "F322F16", True))
>>> out.read(32).reshape(2, 16)[:, 8:11].tolist()
[[0.0, 1.0, 2.0], [16.0, 17.0, 18.0]]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import Scalar, bfloat16_t, float32_t, half, int8_t, int32_t, uint8_t
from ascreg._frontend.cube import ROWS, OnPipe
from ascreg.core import cube as core
from ascreg.errors import AscregError, AscregTypeError, UnsupportedError, current_call
from ascreg.machine.block import BlockContext, current_block
from ascreg.machine.cube import C0_BYTES, CbufPtr
from ascreg.machine.cubeub import remote_pointer, ub_target, writing_into
from ascreg.machine.memory import GmPtr, Pointer
from ascreg.machine.races import atomic_access
from ascreg.machine.store_atomic import combine
from ascreg.machine.sync import PIPE_FIX
from ascreg.machine.sysregs import SYSREGS_STATE

Convert = Callable[[Any, Any], Any]
"""``convert(values, cols)``: the L0C values of one matrix converted to the destination type."""

LAYOUTS = ("nz", "nd", "dn")
"""The layouts a fixpipe writes: NZ fractals, ND rows (NZ2ND), DN columns (NZ2DN)."""


@attrs.frozen
class FixOut:
    """The checked shape of one fixpipe move of ``count`` ``m x n`` matrices.

    L0C column blocks (16 columns) lie ``src_stride`` 16-element rows apart; matrices
    ``src_matrix`` 16-element rows apart (NZ2DN: the rows of a column block ``src_c0`` rows
    apart). The destination gets ND rows of ``dst_stride`` elements (``nd``), DN columns of
    ``dst_stride`` elements (``dn``) or NZ column blocks ``dst_stride`` elements apart (``nz``,
    16-element rows, 32 for a 1-byte type, 8 with ``channel_split``); matrices
    ``dst_matrix`` elements apart. A UB destination is the UB of vector core ``sub`` (0 or 1)
    of the AI Core, or with ``dual`` 1 / 2 (split M / N) the first half of the matrix goes to
    sub-block 0 and the second to sub-block 1, each at the same address
    (:func:`ub_parts`).
    """

    n: int
    m: int
    src_stride: int
    dst_stride: int
    layout: str = "nd"
    count: int = 1
    src_matrix: int = 0
    dst_matrix: int = 0
    src_c0: int = 1
    channel_split: bool = False
    sub: int = 0
    dual: int = 0


CASTS: dict[tuple[type[Scalar], str], type[Scalar]] = {
    (float32_t, "NoQuant"): float32_t,
    (int32_t, "NoQuant"): int32_t,
    (float32_t, "F322F16"): half,
    (float32_t, "F322BF16"): bfloat16_t,
}
"""(L0C type, quantisation mode) -> the destination type of the conversions ascreg models."""
QUANT_B8 = {"QF322B8_PRE": False, "VQF322B8_PRE": True}
"""The float -> 8-bit quantising modes ascreg models, and whether each takes a vector of words."""


def is_b8(src: type[Scalar], dst: type[Scalar], mode: str) -> bool:
    """Return True when *mode* quantises float L0C values to 8-bit *dst*."""
    return mode in QUANT_B8 and src is float32_t and dst in (int8_t, uint8_t)


def b8_converter(words: Any, relu: bool, dst: type[Scalar]) -> Convert:
    """Return the conversion quantising to *dst* with one word, or one word per column."""
    signed = core.deq_fields(words)[4]
    if not (signed == (dst is int8_t)).all():
        raise AscregError(f"bit 46 of the quantisation words must say {dst.cpp_name}")
    per_column = words.size > 1
    return lambda values, cols: core.quantize_b8(
        values, words[cols] if per_column else words, relu, dst is int8_t
    )


def cast_converter(src: type[Scalar], dst: type[Scalar], mode: str, relu: bool) -> Convert:
    """Return the conversion of *mode* (``NoQuant``, ``F322F16``, ``F322BF16``), checked."""
    target = CASTS.get((src, mode))
    if target is None:
        raise UnsupportedError(
            f"quantPre {mode} from {src.cpp_name} to {dst.cpp_name}: ascreg models "
            "NoQuant, F322F16, F322BF16, QF322B8_PRE and VQF322B8_PRE (docs/limitations.md)"
        )
    if target is not dst:
        raise AscregTypeError(
            f"quantPre {mode} from {src.cpp_name} writes {target.cpp_name}, "
            f"but dst holds {dst.cpp_name}"
        )
    cast_to = dst.np_dtype if dst is not src else None
    return lambda values, cols: core.fixpipe_convert(values, cast_to, relu)


def check_split(src: type[Scalar], dst: type[Scalar], out: FixOut) -> None:
    """Raise unless a channel split moves float -> float NZ with ``n`` a multiple of 8."""
    if out.channel_split and not (
        out.layout == "nz" and src is dst is float32_t and out.n % 8 == 0
    ):
        raise AscregError(
            "channel split takes a float -> float NZ move with nSize a multiple of 8; got "
            f"{src.cpp_name} -> {dst.cpp_name}, {out.layout.upper()}, nSize {out.n}"
        )


def run_fixpipe(d: Pointer[Any], s: Pointer[Any], out: FixOut, convert: Convert) -> None:
    """Move ``out.count`` matrices from L0C (*s*) to *d* on ``PIPE_FIX``, converted.

    A GM destination combines under the block's store-atomic mode (``SetAtomicAdd<T>`` /
    ``asc_set_atomic_add``; T the GM type), exempt from the cross-block race check. A UB
    destination is the UB of the vector core(s) ``out.sub`` / ``out.dual`` name
    (:mod:`ascreg.machine.cubeub`; on an AIV of a mixed launch the move does nothing).
    """
    if not (out.m and out.n and out.count):
        return
    ctx = current_block()
    if isinstance(d, GmPtr | CbufPtr):
        _move(ctx, d, s, out, convert, (0, 0))
        return
    for sub, origin in ub_parts(out):
        target = ub_target(ctx, sub, current_call() or "Fixpipe")
        if target is None:
            return
        with writing_into(ctx, target):
            _move(ctx, remote_pointer(target, d), s, out, convert, origin)


def ub_parts(out: FixOut) -> list[tuple[int, tuple[int, int]]]:
    """Return the (sub-block, (first row, first column)) of each part of an L0C -> UB move.

    Examples
    --------
    >>> ub_parts(FixOut(32, 4, 16, 32, dual=1)), ub_parts(FixOut(32, 4, 16, 32, sub=1))
    ([(0, (0, 0)), (1, (2, 0))], [(1, (0, 0))])
    """
    if out.dual == 1:
        return [(0, (0, 0)), (1, (out.m // 2, 0))]
    if out.dual == 2:
        return [(0, (0, 0)), (1, (0, out.n // 2))]
    return [(out.sub, (0, 0))]


def check_dual(out: FixOut, quantising: bool, relu: bool) -> None:
    """Check a dual-destination L0C -> UB move (``dualDstCtl`` / ``dual_dst_ctl`` 1 or 2).

    The L0C -> UB page: 1 splits M (even), 2 splits N (a multiple of 32); only the plain (NZ)
    or NZ2ND move, with no conversion or ReLU; 3 is reserved. The NZ move split in N is an
    :class:`~ascreg.errors.UnsupportedError`: the page's figure text puts ``dstStride``
    between the two UBs' fractals, which leaves where sub-block 1's half lands open.

    Examples
    --------
    >>> check_dual(FixOut(32, 3, 16, 32, dual=1), False, False)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregError: a dual-destination move split in M (dualDstCtl 1) needs an even mSize (each vector core gets M / 2 rows); got 3
    """
    if out.dual == 0:
        return
    if out.dual not in (1, 2):
        raise AscregError(f"dualDstCtl {out.dual} is reserved (the L0C -> UB page: 0, 1 or 2)")
    if out.layout == "dn" or quantising or relu:
        raise AscregError(
            "a dual-destination move is the plain NZ or the NZ2ND move with every other fixpipe "
            f"function off (the L0C -> UB page); got layout {out.layout.upper()}, "
            f"quantising {quantising}, ReLU {relu}"
        )
    if out.dual == 1 and out.m % 2:
        raise AscregError(
            "a dual-destination move split in M (dualDstCtl 1) needs an even mSize (each "
            f"vector core gets M / 2 rows); got {out.m}"
        )
    if out.dual == 2 and out.n % 32:
        raise AscregError(
            "a dual-destination move split in N (dualDstCtl 2) needs nSize a multiple of 32 "
            f"(each vector core gets N / 2 columns); got {out.n}"
        )
    if out.dual == 2 and out.layout == "nz":
        raise UnsupportedError(
            "the NZ move split in N (dualDstCtl 2): the L0C -> UB page (Fixpipe（L0C到UB数据搬运）"
            ".md, 双目标控制模式) gives dstStride as the distance between the two UBs' "
            "fractals, which leaves where sub-block 1's half lands open (docs/limitations.md)"
        )


def _move(
    ctx: BlockContext,
    d: Pointer[Any],
    s: Pointer[Any],
    out: FixOut,
    convert: Convert,
    origin: tuple[int, int],
) -> None:
    """Write the part of the move from L0C row / column *origin* on (all of it at (0, 0))."""
    m = out.m // 2 if out.dual == 1 else out.m
    n = out.n // 2 if out.dual == 2 else out.n
    rows, cols = np.arange(m, dtype=np.int64)[:, None], np.arange(n, dtype=np.int64)
    at_rows, at_cols = rows + origin[0], cols + origin[1]
    gm = isinstance(d, GmPtr)
    atomic = _atomic_op(ctx, d.dtype) if gm else None
    with OnPipe(ctx, PIPE_FIX):
        for i in range(out.count):
            src_at = offsets(out, at_rows, at_cols, i, d.dtype.size)[0]
            dst_at = offsets(out, rows, cols, i, d.dtype.size)[1]
            values = s.view(int(src_at.max()) + 1, "reads")[src_at]
            converted = convert(values, at_cols)
            span = int(dst_at.max()) + 1
            if gm:
                track_gm(ctx, d, span * d.dtype.size, write=True)
            if atomic is None:  # the elements written, not their span (ND rows, strided)
                d[dst_at] = converted
                continue
            with atomic_access():  # combining results in place is what the atomic is for
                target = d.view(span, "writes")
                old = target[dst_at]
                new = np.ascontiguousarray(converted, dtype=old.dtype)
                merged = combine(atomic, d.dtype, old.view(np.uint8), new.view(np.uint8))
                target[dst_at] = merged.view(old.dtype).reshape(old.shape)


def track_gm(ctx: BlockContext, ptr: Pointer[Any], nbytes: int, *, write: bool) -> None:
    """Report a GM span to the pipe tracker (GM accesses are checked between pipes)."""
    start = ptr.address
    ctx.tracker.access(ctx.pipe, start, start + nbytes, write=write, space=id(ptr.memory))


def _atomic_op(ctx: BlockContext, dtype: type[Scalar]) -> str | None:
    """Return the store-atomic operation a fixpipe to GM applies, or None.

    The mode's element type must be the GM type the fixpipe writes.
    """
    regs = ctx.state.get(SYSREGS_STATE)
    mode = None if regs is None else regs.atomic
    if mode is None:
        return None
    op, element = mode
    if element is not dtype:
        raise AscregError(
            f"the store-atomic mode is {op} on {element.cpp_name} but the Fixpipe writes "
            f"{dtype.cpp_name} to GM: set the atomic of the destination type "
            f"(SetAtomicAdd<{dtype.cpp_name}>)"
        )
    return str(op)


def offsets(out: FixOut, rows: Any, cols: Any, i: int, size: int) -> tuple[Any, Any]:
    """Return the L0C and destination element offsets of matrix *i*'s ``(row, column)``."""
    row_step, base = ROWS, i * out.src_matrix * ROWS
    if out.layout == "nd":
        dst = i * out.dst_matrix + rows * out.dst_stride + cols
    elif out.layout == "dn":
        if not out.src_c0:
            raise AscregError("the source C0 stride of an NZ2DN move must not be 0")
        row_step = out.src_c0 * ROWS
        dst = i * out.dst_matrix + cols * out.dst_stride + rows
    else:  # NZ: 16-element fractal rows (8 split, 32 for a merged 8-bit result)
        c0 = 8 if out.channel_split else max(ROWS, C0_BYTES // size)
        dst = (cols // c0) * out.dst_stride + rows * c0 + cols % c0
    src = base + (cols // ROWS) * out.src_stride * ROWS + rows * row_step + cols % ROWS
    return src, dst
