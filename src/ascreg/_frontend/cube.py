"""The cube unit's instructions on raw buffer pointers, shared by the basic API and the C API.

``LoadData`` (basic) and ``asc_copy_l12l0a`` / ``asc_copy_l12l0b`` (C API) are one 2D load
(:func:`load_2d`); ``Mmad`` and ``asc_mmad`` are one matrix multiply-add (:func:`run_mmad`).
Each front end checks its own operands (tensors or typed pointers, parameter structs or
scalars) and calls these with the pointers and the checked integers; the instruction runs on
its pipe (``PIPE_MTE1``, ``PIPE_M``) so the pipe tracker sees its buffer accesses.

Examples
--------
>>> import numpy as np
>>> from ascreg import int8_t, int32_t
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()) as ctx:
...     a, b = cube_buffers().pointer("l0a", int8_t, 0), cube_buffers().pointer("l0b", int8_t, 0)
...     a.write(np.ones(512, np.int8)); b.write(np.full(512, 2, np.int8))
...     c = cube_buffers().pointer("l0c", int32_t, 0)
...     ctx.tracker.barrier()  # the scalar writes before the cube reads
...     run_mmad(c, a, b, None, MmadRun(16, 16, 32))
...     ctx.tracker.barrier()
...     c.read(2).tolist()
[64, 64]
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    int32_t,
)
from ascreg.core import cube as core
from ascreg.core.convert import decode
from ascreg.errors import AlignmentError, AscregError, AscregTypeError, UnsupportedError
from ascreg.machine.block import BlockContext, current_block
from ascreg.machine.cube import C0_BYTES, FRACTAL_BYTES, L0C_BYTES, cube_buffers
from ascreg.machine.memory import Pointer
from ascreg.machine.sync import COPY_PIPES, PIPE_FIX, PIPE_M, PIPE_MTE1, PIPE_MTE2, Pipe
from ascreg.machine.sysregs import system_registers

ROWS = core.FRACTAL_ROWS


class OnPipe:
    """Run the ``with`` body as one instruction of *pipe* (its accesses attributed to it)."""

    def __init__(self, ctx: BlockContext, pipe: Pipe) -> None:
        self.ctx, self.pipe = ctx, pipe
        self.inner = ctx.on_pipe(pipe)

    def __enter__(self) -> None:
        if self.pipe in COPY_PIPES:
            self.ctx.tracker.begin_copy(self.pipe)
        self.inner.__enter__()

    def __exit__(self, *exc: object) -> None:
        self.inner.__exit__(*exc)


def aligned(ptr: Pointer[Any], align: int, role: str) -> None:
    """Raise :class:`AlignmentError` unless *ptr* is *align*-byte aligned."""
    if ptr.address % align:
        raise AlignmentError(f"{role} at {ptr.space} {ptr.address:#x} is not {align}-byte aligned")


def c0(dtype: type[Scalar]) -> int:
    """Elements in one 32-byte fractal row."""
    return C0_BYTES // dtype.size


def fractals(ptr: Pointer[Any], count: int, action: str) -> Any:
    """View *count* fractals from *ptr* as ``(count, 512)`` bytes."""
    return ptr.bytes(count * FRACTAL_BYTES, action).reshape(count, FRACTAL_BYTES)


# -- the 2D load: L1 -> L0A / L0B ----------------------------------------------------------------


@attrs.frozen
class Window:
    """An ``m_step x k_step`` window of 512-byte fractals of a 2D load (checked integers).

    Fractal ``(m, k)`` is source fractal ``(k_start + k) * src_stride + m_start + m`` and
    destination fractal ``k * dst_stride + m``; *names* spell ``m_step`` / ``k_step`` in errors.
    """

    m_start: int
    k_start: int
    m_step: int
    k_step: int
    src_stride: int
    dst_stride: int
    transpose: bool = False
    names: tuple[str, str] = ("m_step", "k_step")


TRANSPOSE_STEP = {1: (0, 2), 2: (0, 1), 4: (1, 2)}
"""Per element size, the step (0: m, 1: k) a transposing load needs a multiple of (and of what)."""


def load_2d(d: Pointer[Any], s: Pointer[Any], w: Window) -> None:
    """Move the fractals of window *w* from L1 (*s*) to L0A / L0B (*d*) on ``PIPE_MTE1``.

    A transposing load transposes the whole window read as an NZ matrix (16-row by 32-byte
    fractals) and writes it NZ with ``dst_stride`` fractals between column blocks.
    """
    if d.dtype is not s.dtype:
        raise AscregTypeError(
            f"dst holds {d.dtype.cpp_name} but src holds {s.dtype.cpp_name} (one element type)"
        )
    aligned(d, FRACTAL_BYTES, "dst")
    aligned(s, C0_BYTES, "src")
    if not (w.m_step and w.k_step):
        return
    if w.transpose:
        which, multiple = TRANSPOSE_STEP[d.dtype.size]
        step = (w.m_step, w.k_step)[which]
        if step % multiple:
            raise AscregError(
                f"a transposing load of {d.dtype.size * 8}-bit elements needs {w.names[which]} "
                f"to be a multiple of {multiple}, got {step}"
            )
    src_ids, dst_ids = core.fractal_indices(
        w.m_start, w.k_start, w.m_step, w.k_step, w.src_stride,
        w.m_step if w.transpose else w.dst_stride,
    )  # fmt: skip
    with OnPipe(current_block(), PIPE_MTE1):
        data = fractals(s, int(src_ids.max()) + 1, "reads")[src_ids]
        if w.transpose:
            _write_transposed(d, data, w.m_step, w.k_step, w.dst_stride)
            return
        fractals(d, int(dst_ids.max()) + 1, "writes")[dst_ids] = data


def _write_transposed(d: Pointer[Any], data: Any, m_step: int, k_step: int, stride: int) -> None:
    """Transpose the window (fractals in k-major order) and store it NZ at *d*."""
    row = c0(d.dtype)
    flat = np.ascontiguousarray(data).view(d.dtype.np_dtype).reshape(-1)
    window = core.nz_read(flat, m_step, k_step, row, m_step * ROWS)
    out = np.ascontiguousarray(window.T)
    blocks = out.shape[1] // row
    span = ((blocks - 1) * stride * ROWS + out.shape[0]) * row
    core.nz_write(d.view(span, "writes"), out, row, stride * ROWS)


# -- Mmad ------------------------------------------------------------------------------------------

MMAD_TYPES: dict[tuple[type[Scalar], type[Scalar]], type[Scalar]] = {
    (int8_t, int8_t): int32_t,
    (half, half): float32_t,
    (float32_t, float32_t): float32_t,
    (bfloat16_t, bfloat16_t): float32_t,
    (fp8_e4m3fn_t, fp8_e4m3fn_t): float32_t,
    (fp8_e4m3fn_t, fp8_e5m2_t): float32_t,
    (fp8_e5m2_t, fp8_e4m3fn_t): float32_t,
    (fp8_e5m2_t, fp8_e5m2_t): float32_t,
    (hifloat8_t, hifloat8_t): float32_t,
}
"""The (A, B) -> C element types of a matrix multiply-add on the Ascend 950 (the ``Mmad`` page,
table 5, and the ``asc_mmad`` prototypes); a bias has the C type."""
MMAD_LIMIT = 4095
"""The largest m, n and k of one multiply-add."""


@attrs.frozen
class MmadRun:
    """The checked sizes and switches of one multiply-add.

    ``init_zero`` starts C at 0; otherwise ``bias_table`` takes the bias row from the bias table
    (address 0) and false keeps L0C's value. ``disable_gemv`` false with ``m == 1`` reads A as
    one ND row (GEMV). ``unit_flag`` (0, 2 or 3) takes part in the L0C unit flags
    (:func:`unit_acquire`).
    """

    m: int
    n: int
    k: int
    init_zero: bool = True
    bias_table: bool = False
    disable_gemv: bool = False
    unit_flag: int = 0


def mmad_types(c: Pointer[Any], a: Pointer[Any], b: Pointer[Any]) -> type[Scalar]:
    """Return C's element type, checking (A, B) -> C is a multiply-add of the Ascend 950."""
    out = MMAD_TYPES.get((a.dtype, b.dtype))
    if out is None or out is not c.dtype:
        legal = ", ".join(
            f"{x.cpp_name} x {y.cpp_name} -> {z.cpp_name}" for (x, y), z in MMAD_TYPES.items()
        )
        raise AscregTypeError(
            f"{a.dtype.cpp_name} x {b.dtype.cpp_name} -> {c.dtype.cpp_name} is not a Mmad of the "
            f"Ascend 950; the legal ones are {legal}"
        )
    return out


def run_mmad(
    c: Pointer[Any], a: Pointer[Any], b: Pointer[Any], bias: Pointer[Any] | None, run: MmadRun
) -> None:
    """``C = A x B + C0`` on ``PIPE_M``: A (L0A, NZ) m x k, B (L0B, ZN) k x n, C (L0C, NZ) m x n.

    The operands' types are checked (:func:`mmad_types`) and their alignment (C 1024 bytes, A
    and B 512); a zero size runs nothing. The arithmetic is :func:`ascreg.core.cube.mmad`.
    """
    out = mmad_types(c, a, b)
    for ptr, align, role in ((c, 1024, "dst"), (a, 512, "fm"), (b, 512, "filter")):
        aligned(ptr, align, role)
    if not (run.m and run.n and run.k):
        return
    _check_modes(a, b)
    ctx = current_block()
    span = unit_span(c, -(-run.m // ROWS) * -(-run.n // ROWS) * ROWS * ROWS * out.size)
    unit_acquire(ctx, span, run.unit_flag, write=True)
    with ctx.on_pipe(PIPE_M):  # not a copy pipe: OnPipe's begin_copy does not apply
        _mmad(c, a, b, bias, run, out)
    unit_release(ctx, span, run.unit_flag, write=True)


def _mmad(
    c: Pointer[Any],
    a: Pointer[Any],
    b: Pointer[Any],
    bias: Pointer[Any] | None,
    run: MmadRun,
    out: type[Scalar],
) -> None:
    m, n, k = run.m, run.n, run.k
    mb, nb = -(-m // ROWS), -(-n // ROWS)
    ca, cb = c0(a.dtype), c0(b.dtype)
    ka, kb = -(-k // ca), -(-k // cb)
    gemv = m == 1 and not run.disable_gemv  # GEMV: A is one ND row of k elements
    work = cube_buffers().scratch
    # the buffer accesses first, in the instruction's order (A, B, the start, C), then the numbers
    flat_a = a.view(k if gemv else mb * ka * ROWS * ca, "reads")
    flat_b = b.view(nb * kb * ROWS * cb, "reads")
    old = _initial(c, bias, run, mb, nb, out)
    into = core.nz_blocks(c.view(nb * mb * ROWS * ROWS, "writes"), mb * ROWS, nb, ROWS)
    if gemv:
        left = np.zeros((ROWS, k), np.float64)
        left[0] = _values(flat_a, a.dtype, np.float64)
    else:
        left = _nz(flat_a, a.dtype, mb, ka, scratch("a", (mb * ROWS, ka * ca), np.float64, work))
    right = _nz(flat_b, b.dtype, nb, kb, scratch("b", (nb * ROWS, kb * cb), np.float64, work))
    if left.shape[1] != k:
        left = left[:, :k]
    if right.shape[1] != k:
        right = right[:, :k]
    sums = scratch("c", (mb * ROWS, nb * ROWS), np.float64, work)
    core.mmad(left, right, old, out.np_dtype, sums, into)


def _nz(flat: Any, dtype: type[Scalar], row_blocks: int, col_blocks: int, work: Any) -> Any:
    """Return the logical matrix of the NZ elements *flat* (of *dtype*) as float64 values.

    *work* is a float64 scratch of the matrix's shape (unused by hifloat8, decoded by a table).
    """
    rows, row = row_blocks * ROWS, c0(dtype)
    if dtype is hifloat8_t:
        return decode(core.nz_read(flat, row_blocks, col_blocks, row, rows), hifloat8_t)
    if dtype is half:
        return core.nz_read_half(flat, row_blocks, col_blocks, work)
    return core.nz_read(flat, row_blocks, col_blocks, row, rows, np.float64, work)


def scratch(role: str, shape: tuple[int, int], dtype: Any, work: Any = None) -> Any:
    """Return a reused work array of the running cube (fresh large arrays cost page faults).

    *work* is the running cube's ``scratch`` dictionary when the caller has it already.
    """
    work = cube_buffers().scratch if work is None else work
    found = work.get(role)
    if found is None or found.shape != shape or found.dtype != dtype:
        found = work[role] = np.empty(shape, dtype)
    return found


def _values(lanes: Any, dtype: type[Scalar], wide: Any) -> Any:
    """Return the element values of *lanes* (hifloat8 codes decoded, the others widened)."""
    return decode(lanes, dtype) if dtype is hifloat8_t else lanes.astype(wide, copy=False)


def _initial(
    c: Pointer[Any], bias: Pointer[Any] | None, run: MmadRun, mb: int, nb: int, out: Any
) -> Any:
    """Return the C value the products are added to: zeros, a bias row, or L0C's contents."""
    if bias is None and run.init_zero:
        return np.zeros((1, 1), out.np_dtype)
    if bias is None and run.bias_table:
        bias = cube_buffers().bt.pointer(out, 0)
    if bias is not None:
        return bias.view(nb * ROWS, "reads").reshape(1, -1)
    return core.nz_read(c.view(nb * mb * ROWS * ROWS, "reads"), mb, nb, ROWS, mb * ROWS)


# -- burst copies between the cube buffers ---------------------------------------------------------


@attrs.frozen
class Bursts:
    """The checked bursts of a burst copy: ``count`` bursts of ``nbytes`` bytes.

    ``src_gap`` / ``dst_gap`` bytes lie between the tail of one burst and the head of the next.
    """

    count: int
    nbytes: int
    src_gap: int = 0
    dst_gap: int = 0


def copy_bursts(dst: Pointer[Any], src: Pointer[Any], b: Bursts, pipe: Pipe) -> None:
    """Copy the bursts *b* from *src* to *dst* as one instruction of *pipe* (bytes as they are).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint8_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     l1, bt = cube_buffers().pointer("l1", uint8_t, 0), cube_buffers().pointer("bt", uint8_t, 0)
    ...     l1.write(np.arange(96, dtype=np.uint8)); ctx.tracker.barrier()
    ...     copy_bursts(bt, l1, Bursts(2, 32, 32, 0), PIPE_MTE1); ctx.tracker.barrier()
    ...     bt.read(64)[[0, 31, 32, 63]].tolist()
    [0, 31, 64, 95]
    """
    with OnPipe(current_block(), pipe):
        for i in range(b.count):
            data = src.offset_bytes(i * (b.nbytes + b.src_gap)).bytes(b.nbytes, "reads").copy()
            dst.offset_bytes(i * (b.nbytes + b.dst_gap)).bytes(b.nbytes, "writes")[:] = data


def fill_blocks(dst: Pointer[Any], element: Any, repeat: int, blocks: int, gap: int) -> None:
    """Fill L1 at *dst* with *element*'s bits on ``PIPE_MTE2`` (``asc_fill_l1`` / ``Fill``).

    *repeat* iterations each write *blocks* 32-byte blocks of the element repeated; *gap*
    blocks lie between one iteration's end and the next one's start. A zero *repeat* or
    *blocks* writes nothing.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint16_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     l1 = cube_buffers().pointer("l1", uint16_t, 0)
    ...     fill_blocks(l1, np.uint16(7), 2, 1, 1); ctx.tracker.barrier()
    ...     l1.read(48)[[0, 15, 16, 32, 47]].tolist()
    [7, 7, 0, 7, 7]
    """
    item = np.asarray(element).reshape(1)
    pattern = np.tile(item, C0_BYTES // item.itemsize).view(np.uint8)
    nbytes, skip = blocks * C0_BYTES, gap * C0_BYTES
    if not (nbytes and repeat):
        return
    with OnPipe(current_block(), PIPE_MTE2):
        for i in range(repeat):
            target = dst.offset_bytes(i * (nbytes + skip)).bytes(nbytes, "writes")
            target.reshape(-1, C0_BYTES)[:] = pattern


# -- the transposing L1 -> L0B load ----------------------------------------------------------------

SQUARE_BLOCKS = {1: (2, 1), 2: (1, 1), 4: (1, 2)}
"""Per element size, the (row blocks, column blocks) of fractals one transposed square holds:
two 16 x 32 b8 fractals stacked, one 16 x 16 b16 fractal, two 16 x 8 b32 fractals side by side
(the ``LoadDataWithTranspose`` page's figures and its pseudo-code ``load_data_with_transpose.py``)."""


@attrs.frozen
class TransposeRun:
    """The checked integers of a transposing load, in fractal units.

    Repeat ``i`` reads the square's fractals ``start + i * src_stride + j * (1 + src_frac_gap)``
    (``src_frac_gap`` None: the square-unit form, ``(start + i * src_stride) * count + j``) and
    writes them transposed at ``i * (1 + dst_gap) + j * (1 + dst_frac_gap)``.
    """

    start: int
    repeats: int
    src_stride: int
    dst_gap: int
    dst_frac_gap: int
    src_frac_gap: int | None = None


def load_transposed(d: Pointer[Any], s: Pointer[Any], r: TransposeRun) -> None:
    """Transpose squares of fractals from L1 (*s*) into L0B (*d*) on ``PIPE_MTE1``.

    Each repeat reads one square (its fractals as an NZ window, see :data:`SQUARE_BLOCKS`),
    transposes it and writes its fractals in NZ order (:class:`TransposeRun`).
    """
    if d.dtype is not s.dtype:
        raise AscregTypeError(
            f"dst holds {d.dtype.cpp_name} but src holds {s.dtype.cpp_name} (one element type)"
        )
    aligned(d, FRACTAL_BYTES, "dst")
    aligned(s, C0_BYTES, "src")
    rows, cols = SQUARE_BLOCKS[d.dtype.size]
    count = rows * cols
    repeats = np.arange(r.repeats, dtype=np.int64)[:, None]
    j = np.arange(count, dtype=np.int64)
    if r.src_frac_gap is None:
        src_ids = (r.start + repeats * r.src_stride) * count + j
    else:
        src_ids = r.start + repeats * r.src_stride + j * (1 + r.src_frac_gap)
    dst_ids = repeats * (1 + r.dst_gap) + j * (1 + r.dst_frac_gap)
    if not r.repeats:
        return
    with OnPipe(current_block(), PIPE_MTE1):
        data = fractals(s, int(src_ids.max()) + 1, "reads")[src_ids.reshape(-1)]
        squares = _transpose_squares(data, d.dtype, rows, cols)
        fractals(d, int(dst_ids.max()) + 1, "writes")[dst_ids.reshape(-1)] = squares


def _transpose_squares(data: Any, dtype: type[Scalar], rows: int, cols: int) -> Any:
    """Transpose each square of ``rows x cols`` fractals (NZ order); return its fractals."""
    row = c0(dtype)
    count = rows * cols
    out = np.empty_like(data)
    for first in range(0, data.shape[0], count):
        flat = np.ascontiguousarray(data[first : first + count]).view(dtype.np_dtype).reshape(-1)
        square = core.nz_read(flat, rows, cols, row, rows * ROWS).T
        blocks = np.zeros(flat.size, flat.dtype)
        core.nz_write(blocks, np.ascontiguousarray(square), row, square.shape[0])
        out[first : first + count] = blocks.view(np.uint8).reshape(count, FRACTAL_BYTES)
    return out


# -- the cube's mode bits in CTRL -----------------------------------------------------------------

HIF8_MODE, HF32_MODE, HF32_TRANS_MODE, MM_LAYOUT_MODE = 45, 46, 47, 51
"""The CTRL bits of the multiply-add's modes (the 950 header's ``asc_enable_hif8``,
``asc_enable_hf32``, ``asc_enable_hf32_trans`` and ``asc_set_mmad_direction_n``): 1 converts
8-bit operands to hifloat8_t, 1 rounds float operands to HF32, 1 rounds toward zero (0: to
nearest even), 1 produces results along N first (0: M first; no value changes)."""


def cube_mode(bit: int, ctx: BlockContext | None = None) -> bool:
    """Return CTRL[*bit*] of *ctx* (default: the running block).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     cube_mode(HF32_MODE)
    False
    """
    return bool(system_registers(ctx).ctrl >> bit & 1)


def set_cube_mode(bit: int, on: bool) -> None:
    """Set CTRL[*bit*] of the running block to *on* (a mode bit: no other bit changes).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     set_cube_mode(MM_LAYOUT_MODE, True)
    ...     hex(system_registers().ctrl >> 48)
    '0x1009'
    """
    regs = system_registers()
    regs.ctrl_bits = regs.ctrl_bits & ~(1 << bit) | int(on) << bit


def _check_modes(a: Pointer[Any], b: Pointer[Any]) -> None:
    """Refuse a multiply-add whose operands a mode would convert in a way the pages leave open."""
    types = {a.dtype, b.dtype}  # the operand types first: most pairs read no mode bit
    if float32_t in types and cube_mode(HF32_MODE):
        raise UnsupportedError(
            "float32 operands with HF32 on: cube_compute/asc_enable_hf32.md gives the HF32 format "
            "by a figure only (see docs/limitations.md); asc_set_fp32_mode turns it off"
        )
    if any(t.size == 1 and t is not hifloat8_t for t in types) and cube_mode(HIF8_MODE):
        raise UnsupportedError(
            "8-bit operands with HiF8 on: cube_compute/asc_enable_hif8.md does not say how they "
            "are converted to hifloat8_t (see docs/limitations.md); asc_enable_fp8 turns it off"
        )


# -- the img2col load's registers ------------------------------------------------------------------


@attrs.frozen
class Load3dRepeat:
    """The img2col load's repeat register.

    ``time`` repeats along height (``mode`` 0) or width (1), ``stride`` apart; ``dst_stride``
    fractals between the destination's K column blocks.

    Examples
    --------
    >>> Load3dRepeat().time
    1
    """

    stride: int = 0
    time: int = 1
    mode: int = 0
    dst_stride: int = 0


@attrs.frozen
class PadBits:
    """A pad register set as a bit code (the C API's ``asc_set_l13d_padding``), not a value.

    Examples
    --------
    >>> from ascreg import half
    >>> float(PadBits(0x3C00).element(half))
    1.0
    """

    code: int

    def element(self, dtype: type[Scalar]) -> Any:
        """Return the pad element of *dtype*: the code's low byte or low 16 bits."""
        if dtype.size > 2:
            raise UnsupportedError(
                f"a {dtype.cpp_name} img2col load padding with a register set by "
                "asc_set_l13d_padding: cube_datamove/asc_set_l13d_padding.md does not say which "
                "bits a 32-bit element takes (see docs/limitations.md)"
            )
        width = np.uint8 if dtype.size == 1 else np.uint16
        return np.asarray(self.code & (0xFF if dtype.size == 1 else 0xFFFF), width).view(
            dtype.np_dtype
        )[()]


@attrs.define
class Load3dRegisters:
    """The img2col load's registers of one block (the basic API's and the C API's setters).

    ``fmatrix`` is (height, width, (left, right, top, bottom)) or None; ``pad`` a value (the
    basic API's ``SetLoadDataPaddingValue``, converted to the load's type) or a
    :class:`PadBits`; ``fmatrix_b``, ``repeat_b`` and ``padding_b`` are the right matrix's
    registers, which no modelled load reads (the img2col L1 -> L0B load is not modelled).

    Examples
    --------
    >>> Load3dRegisters().repeat
    Load3dRepeat(stride=0, time=1, mode=0, dst_stride=0)
    """

    fmatrix: tuple[int, int, tuple[int, ...]] | None = None
    pad: Any = None
    repeat: Load3dRepeat = attrs.field(factory=Load3dRepeat)
    fmatrix_b: tuple[int, int, tuple[int, ...]] | None = None
    repeat_b: int = 0
    padding_b: int = 0


LOAD3D_STATE = "load3d"
"""The key of a block's :class:`Load3dRegisters` in ``BlockContext.state``."""


def load3d_registers(ctx: BlockContext | None = None) -> Load3dRegisters:
    """Return the img2col registers of *ctx* (default: the running block), made on first use.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     load3d_registers().fmatrix is None
    True
    """
    ctx = current_block() if ctx is None else ctx
    found = ctx.state.get(LOAD3D_STATE)
    if found is None:
        found = ctx.state[LOAD3D_STATE] = Load3dRegisters()
    assert isinstance(found, Load3dRegisters)
    return found


# -- GM -> L1 with an ND -> NZ / DN -> NZ conversion ----------------------------------------------

ND2NZ_LIMITS = {
    "ndNum": (0, 4095),
    "nValue": (0, 16384),
    "dValue": (0, 65535),
    "srcNdMatrixStride": (0, 65535),
    "srcDValue": (1, 65535),
    "dstNzC0Stride": (1, 16384),
    "dstNzNStride": (1, 16384),
    "dstNzMatrixStride": (0, 16384),
}
"""The documented range of each ``Nd2NzParams`` field (DataCopy GMToL1 ND2NZ page, table 4)."""
DN2NZ_LIMITS = {
    "dnNum": (0, 4095),
    "nValue": (0, 16384),
    "dValue": (0, 2**21 - 1),
    "srcDnMatrixStride": (0, 2**40 - 1),
    "srcDValue": (1, 2**40 - 1),
    "dstNzC0Stride": (1, 16384),
    "dstNzNStride": (1, 16384),
    "dstNzMatrixStride": (0, 16384),
}
"""The documented range of each ``Dn2NzParams`` field (DataCopy GMToL1 DN2NZ page, table 4)."""
SMALL_C0 = 4
"""The elements of a C0 row with SmallC0 (``dValue <= 4``; 4 * sizeof(T) bytes)."""


@attrs.frozen
class NzCopy:
    """The checked fields of one GM -> L1 NZ copy (``Nd2NzParams`` / ``asc_copy_gm2l1_nd2nz``).

    ``count`` matrices of ``n`` rows by ``d`` columns, ``src_matrix`` elements apart in GM,
    each stored as ``n`` lines of ``d`` elements ``src_line`` elements apart (ND), or, with
    ``column_major``, as ``d`` lines of ``n`` elements (DN). Each lands in L1 as NZ: C0 column
    blocks ``c0_stride`` 32-byte rows apart, rows ``n_stride`` rows apart, matrices
    ``dst_matrix`` elements apart; ``small_c0`` packs rows of ``d <= 4`` into 4 elements.
    """

    count: int
    n: int
    d: int
    src_matrix: int
    src_line: int
    c0_stride: int
    n_stride: int
    dst_matrix: int
    column_major: bool = False
    small_c0: bool = False


def copy_to_nz(dst: Pointer[Any], src: Pointer[Any], c: NzCopy, name: str) -> None:
    """Run an ND2NZ or DN2NZ copy on ``PIPE_MTE2`` (*name* spells the matrix stride in errors)."""
    if dst.dtype is not src.dtype:
        raise AscregTypeError(
            f"dst holds {dst.dtype.cpp_name} but src holds {src.dtype.cpp_name} (one template T)"
        )
    aligned(dst, C0_BYTES, "dst")
    size = dst.dtype.size
    if c.dst_matrix * size % C0_BYTES:
        raise AlignmentError(
            f"{name} {c.dst_matrix} x {size} bytes is not a multiple of 32 bytes (the copy "
            "counts it in 32-byte blocks)"
        )
    if c.small_c0 and c.d > SMALL_C0:
        raise AscregError(f"SmallC0 takes a dValue <= {SMALL_C0}, got {c.d}")
    if not (c.count and c.n and c.d):
        return
    row, offsets, span = _nz_destination(c, size)
    lines, width = (c.d, c.n) if c.column_major else (c.n, c.d)  # GM: `lines` rows of `width`
    extent = (lines - 1) * c.src_line + width
    ctx = current_block()
    with OnPipe(ctx, PIPE_MTE2):
        for i in range(c.count):
            source = src + i * c.src_matrix
            start = source.address
            ctx.tracker.access(
                ctx.pipe, start, start + extent * size, write=False, space=id(source.memory)
            )
            flat = source.view(extent, "reads")
            bits = flat.view(f"u{flat.itemsize}")  # as_strided refuses some ml_dtypes (fp8)
            rows = np.lib.stride_tricks.as_strided(
                bits,
                shape=(lines, width),
                strides=(c.src_line * flat.itemsize, flat.itemsize),
                writeable=False,
            ).view(flat.dtype)
            out = (dst + i * c.dst_matrix).view(span, "writes")
            if c.small_c0:
                out[:] = 0
            out[offsets] = core.nd_to_nz(rows.T if c.column_major else rows, row)


def _nz_destination(c: NzCopy, size: int) -> tuple[int, Any, int]:
    """Return (C0 in elements, the ``(n, ceil(d / C0) * C0)`` offsets, the span) in L1.

    SmallC0 packs each row's ``d <= 4`` elements into 4 and zero-pads the matrix to 32 bytes.
    """
    if c.small_c0:
        offsets = np.arange(c.n * SMALL_C0, dtype=np.int64).reshape(c.n, SMALL_C0)
        span = -(-c.n * SMALL_C0 * size // C0_BYTES) * C0_BYTES // size
        return SMALL_C0, offsets, span
    row = C0_BYTES // size
    offsets = core.nz_offsets(c.n, c.d, row, c.c0_stride, c.n_stride)
    return row, offsets, int(offsets[-1, -1]) + 1


# -- unitFlag: the L0C unit flags of Mmad and Fixpipe ------------------------------------------

UNIT_BYTES = 512
"""One L0C memory block with its own unit flag (``UnitFlag.md``)."""
UNIT_FLAG_VALUES = (0, 2, 3)
"""The ``unitFlag`` values of ``Mmad`` and ``Fixpipe``: 0 off, 2 on (the flag kept), 3 on and
the flag flipped after the instruction."""
L0C_UNITS = L0C_BYTES // UNIT_BYTES
"""The unit-flag blocks of L0C."""
UNIT_STATE = "cube.unit_flags"
"""The key of a block's :class:`UnitFlags` in ``BlockContext.state``."""
UNIT_PAGE = "矩阵计算（ISASI）/Mmad计算关键特性说明/UnitFlag.md"


@attrs.define
class UnitFlags:
    """The unit flag of each 512-byte L0C block and the work that last released it.

    A flag of 1 says the block holds a result a unit-flag ``Fixpipe`` may read; 0 that a
    unit-flag ``Mmad`` may write it. *released* maps a block to the pipe token of the
    instruction that last flipped its flag, which the waiting side acquires: the flag orders
    the two pipes on those blocks as a ``M_FIX`` / ``FIX_M`` flag would.
    """

    ready: Any = attrs.field(factory=lambda: np.zeros(L0C_UNITS, bool))
    released: dict[int, dict[Pipe, int]] = attrs.field(factory=dict)


def unit_flags(ctx: BlockContext) -> UnitFlags:
    """Return the running block's :class:`UnitFlags` (all 0 at first)."""
    found = ctx.state.get(UNIT_STATE)
    if found is None:
        found = ctx.state[UNIT_STATE] = UnitFlags()
    return found


def unit_flag(value: Any, role: str) -> int:
    """Check a ``unitFlag`` value (0, 2 or 3) and return it."""
    if value not in UNIT_FLAG_VALUES or isinstance(value, bool):
        raise AscregError(f"{role} must be 0, 2 or 3 (UnitFlag.md), got {value!r}")
    return int(value)


def unit_span(ptr: Pointer[Any], nbytes: int) -> slice:
    """Return the unit-flag blocks of the L0C bytes ``[ptr, ptr + nbytes)``."""
    first = ptr.address // UNIT_BYTES
    return slice(first, -(-(ptr.address + nbytes) // UNIT_BYTES))


def unit_acquire(ctx: BlockContext, span: slice, flag: int, write: bool) -> None:
    """Before a unit-flag ``Mmad`` (*write*) or ``Fixpipe``: check the flags, take their order.

    A ``Mmad`` waits until its blocks' flags are 0 and a ``Fixpipe`` until they are 1; in
    program order that means a later instruction of the other pipe would release them, a
    reordering ascreg does not emulate (:class:`~ascreg.errors.UnsupportedError`).
    """
    if not flag:
        return
    flags = unit_flags(ctx)
    blocked = flags.ready[span] if write else ~flags.ready[span]
    if blocked.any():
        first = span.start + int(np.argmax(blocked))
        who, state, other = ("Mmad", 1, "Fixpipe") if write else ("Fixpipe", 0, "Mmad")
        raise UnsupportedError(
            f"{who} with unitFlag {flag}: the unit flag of L0C block {first} (bytes "
            f"{first * UNIT_BYTES:#x}..) is {state}, so it waits for a later unit-flag {other}; "
            f"ascreg runs the cube in program order and does not emulate that ({UNIT_PAGE}, "
            "docs/limitations.md)"
        )
    pipe = PIPE_M if write else PIPE_FIX
    found = (flags.released.get(block) for block in range(span.start, span.stop))
    tokens = {id(token): token for token in found if token is not None}
    for token in tokens.values():  # one release flips many blocks: acquire each once
        ctx.tracker.acquire(pipe, token)


def unit_release(ctx: BlockContext, span: slice, flag: int, write: bool) -> None:
    """After a unit-flag instruction: flag 3 flips its blocks' flags (to 1 after a write)."""
    if flag != 3:
        return
    flags = unit_flags(ctx)
    flags.ready[span] = write
    token = ctx.tracker.token(PIPE_M if write else PIPE_FIX)
    for block in range(span.start, span.stop):
        flags.released[block] = token


def unit_reset(ctx: BlockContext) -> None:
    """``SetFixPipeConfig(..., isUnitFlag = true)``: every L0C unit flag back to 0."""
    flags = unit_flags(ctx)
    flags.ready[:] = False
