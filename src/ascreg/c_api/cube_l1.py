"""The cube unit's L1 side in the C API: bias table, fixpipe buffer, L1 fill, L1 -> L0B transposed.

``asc_copy_l12bt[_sync]`` copies the bias of a multiply-add from L1 to the BiasTable buffer
(``PIPE_MTE1``), ``asc_copy_l12fb[_sync]`` quantisation parameters from L1 to the Fixpipe
buffer (``PIPE_FIX``), ``asc_fill_l1[_sync]`` writes a value's bits over L1 (``PIPE_MTE2``,
configured by :class:`asc_fill_value_config`), ``asc_copy_l12l0b_trans[_sync]`` transposes
squares of fractals from L1 into L0B (``PIPE_MTE1``; the basic API's
``LoadDataWithTranspose``). ``asc_set_mmad_direction_m/n``, ``asc_enable_hf32``,
``asc_enable_hf32_trans``, ``asc_set_fp32_mode``, ``asc_enable_fp8`` and ``asc_enable_hif8``
set the multiply-add's mode bits of CTRL (:data:`ascreg._frontend.cube.HF32_MODE` ...). The
``_sync`` forms end with a ``PIPE_ALL`` barrier. The pages are the Ascend 950 ones under
``docs/zh/api/SIMD-API/C-API/cube_datamove/`` and ``cube_compute/``.

Examples
--------
>>> import numpy as np
>>> from ascreg import float32_t, half
>>> from ascreg.c_api import *
>>> from ascreg.c_api import asc_sync
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()):
...     cb = cube_buffers()
...     bias = cb.pointer("l1", float32_t, 0)
...     cfg = asc_fill_value_config(); cfg.repeat = 1; cfg.blk_num = 2
...     asc_fill_l1_sync(bias, 0x3F800000, cfg)  # sixteen float 1.0
...     asc_copy_l12bt_sync(0, bias, 64)
...     a, b = cb.pointer("l0a", half, 0), cb.pointer("l0b", half, 0)
...     a.write(np.full(256, 2, np.float16)); b.write(np.full(256, 3, np.float16)); asc_sync()
...     c = cb.pointer("l0c", float32_t, 0)
...     asc_mmad_sync(c, a, b, 16, 16, 16, 0, True, True, False)  # C starts at the bias row
...     c.read(2).tolist()
[97.0, 97.0]
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    float32_t,
    half,
    int16_t,
    int32_t,
    uint16_t,
    uint32_t,
)
from ascreg._frontend import operands
from ascreg._frontend.cube import (
    HF32_MODE,
    HF32_TRANS_MODE,
    HIF8_MODE,
    MM_LAYOUT_MODE,
    Bursts,
    PadBits,
    TransposeRun,
    aligned,
    copy_bursts,
    fill_blocks,
    load3d_registers,
    load_transposed,
    set_cube_mode,
)
from ascreg._frontend.cube_ub import l1_to_ub
from ascreg._frontend.template import define
from ascreg.c_api.cube import FOUR_BIT
from ascreg.errors import AscregError, AscregTypeError, UnsupportedError
from ascreg.machine.block import current_block
from ascreg.machine.cube import (
    C0_BYTES,
    CbPtr,
    CbufPtr,
    CubeBuffer,
    FbufPtr,
    cube_buffers,
)
from ascreg.machine.memory import Pointer, UbPtr
from ascreg.machine.sync import PIPE_FIX, PIPE_MTE1, Pipe

__all__ = [
    "asc_copy_l12bt",
    "asc_copy_l12bt_sync",
    "asc_copy_l12fb",
    "asc_copy_l12fb_sync",
    "asc_copy_l12l0b_trans",
    "asc_copy_l12l0b_trans_sync",
    "asc_copy_l12ub",
    "asc_copy_l12ub_sync",
    "asc_enable_fp8",
    "asc_enable_hf32",
    "asc_enable_hf32_trans",
    "asc_enable_hif8",
    "asc_fill_l1",
    "asc_fill_l1_sync",
    "asc_fill_value_config",
    "asc_l13d_fmatrix_config",
    "asc_load3d_v2_config",
    "asc_mmad_s4",
    "asc_mmad_s4_sync",
    "asc_set_fp32_mode",
    "asc_set_l3d_rpt_b",
    "asc_set_l12l0_padding_val",
    "asc_set_l13d_fmatrix",
    "asc_set_l13d_fmatrix_b",
    "asc_set_l13d_padding",
    "asc_set_l13d_rpt",
    "asc_set_mmad_direction_m",
    "asc_set_mmad_direction_n",
]

UINT16_MAX = 65535
N_BURST_MAX = 4095
"""The largest ``n_burst`` of the L1 -> BT / FB copies (their pages: [1, 4095])."""


def _finish(op: Any) -> None:
    """End a ``_sync`` form with its ``PIPE_ALL`` barrier."""
    if op.sync:
        current_block().tracker.barrier()


# -- L1 -> BiasTable / Fixpipe buffer ------------------------------------------------------------


@attrs.frozen
class BurstCopy:
    """One L1 -> cube-buffer copy: its page, buffer, pipe, burst-form names and units (bytes)."""

    page: str
    buffer: str
    pipe: Pipe
    names: tuple[str, ...]
    len_unit: int
    src_gap_unit: int
    dst_gap_unit: int


COPIES = {
    "bt": BurstCopy(
        "cube_datamove/asc_copy_l12bt/asc_copy_l12bt_arch_3510.md", "bt", PIPE_MTE1,
        ("conv_control", "n_burst", "len_burst", "source_gap", "dst_gap"), 32, 32, 32,
    ),
    "fb": BurstCopy(
        "cube_datamove/asc_copy_l12fb/asc_copy_l12fb_arch_3510.md", "fb", PIPE_FIX,
        ("n_burst", "len_burst", "src_gap_size", "dst_gap_size"), 64, 32, 64,
    ),
}  # fmt: skip
"""``asc_copy_l12bt`` and ``asc_copy_l12fb``: ``len_burst`` and the destination gap count 32
bytes into the bias table and 64 bytes into the fixpipe buffer; the source gap 32 bytes."""


def _destination(copy: BurstCopy, dst: Any, src: Pointer[Any]) -> Pointer[Any]:
    """Return the checked destination pointer (the bias table's ``uint64_t`` is a byte address)."""
    buffer: CubeBuffer = getattr(cube_buffers(), copy.buffer)
    if copy.buffer == "bt":
        address = operands.in_range(dst, "dst", 0, buffer.capacity - 1, "a BiasTable byte address")
        ptr: Pointer[Any] = buffer.pointer(src.dtype, address)
    else:
        ptr = operands.instance(dst, FbufPtr, "dst")
    aligned(ptr, buffer.align, "dst")
    return ptr


def _bursts(copy: BurstCopy, args: tuple[Any, ...]) -> Bursts:
    """Check a burst form's integers (after ``dst, src``); return its bursts in bytes."""
    values = dict(zip(copy.names, args, strict=True))
    if "conv_control" in values:
        conv = operands.in_range(values.pop("conv_control"), "conv_control", 0, UINT16_MAX)
        if conv:
            raise UnsupportedError(
                f"conv_control {conv}: {copy.page} does not say what the conversion does (see "
                "docs/limitations.md)"
            )
    n_name, len_name, src_gap_name, dst_gap_name = values
    count = operands.in_range(values[n_name], n_name, 1, N_BURST_MAX)
    length = operands.in_range(values[len_name], len_name, 1, UINT16_MAX)
    src_gap, dst_gap = (
        operands.in_range(values[name], name, 0, UINT16_MAX)
        for name in (src_gap_name, dst_gap_name)
    )
    return Bursts(
        count,
        length * copy.len_unit,
        src_gap * copy.src_gap_unit,
        dst_gap * copy.dst_gap_unit,
    )


def _size(value: Any) -> Bursts:
    """Check the size form's ``size`` (a positive multiple of 32 bytes); return its one burst."""
    size = operands.in_range(value, "size", 1, UINT16_MAX * C0_BYTES)
    if size % C0_BYTES:
        raise AscregError(f"size {size} is not a multiple of 32 bytes (the page requires it)")
    return Bursts(1, size)


def _copy_l1(op: Any, *args: Any) -> None:
    """``asc_copy_l12bt`` / ``asc_copy_l12fb`` (``[_sync]``): L1 -> the bias table / FB."""
    copy: BurstCopy = COPIES[op.target]
    current_block()
    forms = (3,) if op.sync else (3, 2 + len(copy.names))
    if len(args) not in forms:
        burst = ", ".join(copy.names)
        usage = "(dst, src, size)" + ("" if op.sync else f" or (dst, src, {burst})")
        raise AscregTypeError(f"takes {usage}; got {len(args)} arguments")
    src = operands.instance(args[1], CbufPtr, "src")
    aligned(src, C0_BYTES, "src")
    dst = _destination(copy, args[0], src)
    bursts = _size(args[2]) if len(args) == 3 else _bursts(copy, args[2:])
    copy_bursts(dst, src, bursts, copy.pipe)
    _finish(op)


_BT_DOC = """``{name}(uint64_t dst, __cbuf__ T* src, uint32_t size)``{burst}: L1 -> the BiasTable
buffer on ``PIPE_MTE1``{sync}.

``dst`` is a byte address in the 4 KiB bias table (64-byte aligned), ``src`` a 32-byte aligned L1
pointer (``T``: ``bfloat16_t``, ``half``, ``float``, ``int32_t``, or any for ``void*``). The size
form copies ``size`` bytes (a multiple of 32).{burst_doc} A multiply-add with
``c_matrix_source`` reads its bias row from address 0.

Examples
--------
>>> import numpy as np
>>> from ascreg import float32_t
>>> from ascreg.c_api import asc_sync
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()):
...     src = cube_buffers().pointer("l1", float32_t, 0); src.write(np.arange(32.0)); asc_sync()
...     {call}
...     cube_buffers().pointer("bt", float32_t, 0).read(10)[[0, 7, 8, 9]].tolist()
{expected}
"""
_FB_DOC = """``{name}(__fbuf__ void* dst, __cbuf__ void* src, uint32_t size)``{burst}: L1 -> the
Fixpipe buffer (quantisation parameters) on ``PIPE_FIX``{sync}.

``dst`` is a 64-byte aligned ``__fbuf__`` pointer, ``src`` a 32-byte aligned L1 pointer. The
size form copies ``size`` bytes (a multiple of 32).{burst_doc}

Examples
--------
>>> import numpy as np
>>> from ascreg import uint64_t
>>> from ascreg.c_api import asc_sync
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()):
...     src = cube_buffers().pointer("l1", uint64_t, 0); src.write(np.arange(32)); asc_sync()
...     fb = cube_buffers().pointer("fb", uint64_t, 0)
...     {call}
...     fb.read(12)[[0, 3, 4, 8, 11]].tolist()
{expected}
"""
_BURST_DOCS = {
    "bt": (
        ", uint16_t conv_control, uint16_t n_burst, uint16_t len_burst, uint16_t source_gap, "
        "uint16_t dst_gap",
        " The burst form copies ``n_burst`` ([1, 4095]) bursts of ``len_burst`` ([1, 65535]) "
        "32-byte blocks, ``source_gap`` / ``dst_gap`` blocks from the tail of one burst to the "
        "head of the next; a nonzero ``conv_control`` (an on-the-fly conversion the page does "
        "not define) raises :class:`~ascreg.errors.UnsupportedError`.",
    ),
    "fb": (
        ", uint16_t n_burst, uint16_t len_burst, uint16_t src_gap_size, uint16_t dst_gap_size",
        " The burst form copies ``n_burst`` ([1, 4095]) bursts of ``len_burst`` ([1, 65535]) "
        "64-byte units; ``src_gap_size`` counts 32-byte blocks and ``dst_gap_size`` 64-byte "
        "units from the tail of one burst to the head of the next.",
    ),
}
_EXAMPLES = {
    ("bt", False): ("asc_copy_l12bt(0, src, 0, 2, 1, 1, 0); asc_sync()", "[0.0, 7.0, 16.0, 17.0]"),
    ("bt", True): ("asc_copy_l12bt_sync(0, src, 64)", "[0.0, 7.0, 8.0, 9.0]"),
    ("fb", False): ("asc_copy_l12fb(fb, src, 2, 1, 2, 0); asc_sync()", "[0, 3, 4, 16, 19]"),
    ("fb", True): ("asc_copy_l12fb_sync(fb, src, 96)", "[0, 3, 4, 8, 11]"),
}


def _define_copies() -> dict[str, Any]:
    made = {}
    for target, template in (("bt", _BT_DOC), ("fb", _FB_DOC)):
        for sync in (False, True):
            name = f"asc_copy_l12{target}{'_sync' if sync else ''}"
            burst, burst_doc = _BURST_DOCS[target]
            call, expected = _EXAMPLES[target, sync]
            doc = template.format(
                name=name, burst="" if sync else f" or ``{name}(dst, src{burst})``",
                burst_doc="" if sync else burst_doc,
                sync=", then a ``PIPE_ALL`` barrier" if sync else "",
                call=call, expected=expected,
            )  # fmt: skip
            made[name] = define(name, doc=doc, target=target, sync=sync)(_copy_l1)
    return made


_COPIES = _define_copies()
asc_copy_l12bt = _COPIES["asc_copy_l12bt"]
asc_copy_l12bt_sync = _COPIES["asc_copy_l12bt_sync"]
asc_copy_l12fb = _COPIES["asc_copy_l12fb"]
asc_copy_l12fb_sync = _COPIES["asc_copy_l12fb_sync"]


# -- asc_fill_l1 ---------------------------------------------------------------------------------


def _bit_field(union: str, name: str, shift: int, width: int = 15) -> property:
    """Return the property of the *width*-bit field *name* of ``config`` at *shift*."""
    mask = (1 << width) - 1

    def get(self: Any) -> int:
        return int(self.config) >> shift & mask

    def put(self: Any, value: int) -> None:
        field = operands.in_range(value, f"{union}.{name}", 0, mask)
        self.config = self.config & ~(mask << shift) | field << shift

    return property(get, put, doc=f"Bits {shift}..{shift + width - 1} of ``config``: ``{name}``.")


class _Union:
    """A C ``union { uint64_t config; struct { ... }; }`` of bit fields (``_FIELDS``)."""

    _FIELDS: tuple[str, ...] = ()
    _DEFAULT = 0

    def __init__(self, config: int | None = None) -> None:
        value = self._DEFAULT if config is None else config
        self.config = operands.in_range(value, "config", 0, (1 << 64) - 1)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)}" for name in self._FIELDS)
        return f"{type(self).__name__}({fields})"


class asc_fill_value_config(_Union):
    """``union asc_fill_value_config``: ``config``, or ``repeat`` / ``blk_num`` / ``dst_gap``.

    ``repeat`` (bits 0-14) iterations each fill ``blk_num`` (bits 16-30) 32-byte blocks of L1;
    ``dst_gap`` (bits 32-46) blocks lie between one iteration's end and the next one's start.
    Each field is in [0, 32767]; the default ``config`` is 0.

    Examples
    --------
    >>> cfg = asc_fill_value_config()
    >>> cfg.repeat = 2; cfg.blk_num = 4; cfg.dst_gap = 1
    >>> hex(cfg.config), cfg.blk_num
    ('0x100040002', 4)
    """

    _FIELDS = ("repeat", "blk_num", "dst_gap")
    repeat = _bit_field("asc_fill_value_config", "repeat", 0)
    blk_num = _bit_field("asc_fill_value_config", "blk_num", 16)
    dst_gap = _bit_field("asc_fill_value_config", "dst_gap", 32)


FILL_PAGE = "cube_datamove/asc_fill_l1.md"
FILL_TYPES: dict[type[Scalar], tuple[str, ...]] = {
    int16_t: ("half", "uint32_t"),
    uint16_t: ("half", "uint32_t"),
    half: ("half", "uint32_t"),
    bfloat16_t: ("bfloat16_t", "half", "uint32_t"),
    int32_t: ("half", "uint32_t"),
    uint32_t: ("half", "uint32_t"),
    float32_t: ("half", "uint32_t"),
}
"""Per ``dst`` element type, the ``value`` types of its ``asc_fill_l1`` overloads."""


def _value_type(value: Any) -> str:
    """Return a fill value's C type: ``bfloat16_t``, ``half`` (a float), ``uint32_t`` (an int)."""
    if isinstance(value, np.generic) and value.dtype == bfloat16_t.np_dtype:
        return "bfloat16_t"
    if isinstance(value, float | np.floating):
        return "half"
    if operands.is_integer(value):
        return "uint32_t"
    raise AscregTypeError(
        f"value must be a half (a float), a bfloat16_t or a uint32_t (an int), got "
        f"{type(value).__name__} {value!r:.40}"
    )


def _fill_bits(value: Any, kind: str, dtype: type[Scalar]) -> Any:
    """Return the element whose bits are *value*'s (the page: value's binary is assigned).

    A value of another width than the elements is refused unless its bits are all 0 (the
    examples' ``0U`` into 16-bit elements): the page does not say which bits are written.
    """
    if kind == "uint32_t":
        bits = np.asarray(operands.in_range(value, "value", 0, (1 << 32) - 1), np.uint32)
    elif kind == "half":
        bits = np.asarray(value, np.float16)
    else:
        bits = np.asarray(value)
    if bits.dtype.itemsize != dtype.size:
        if not bits.reshape(1).view(np.uint8).any():  # all bits 0: every choice of bits writes 0
            return np.zeros(1, dtype.np_dtype)
        raise UnsupportedError(
            f"a {kind} value into {dtype.cpp_name} elements: {FILL_PAGE} does not say which "
            f"{8 * dtype.size} bits of the {8 * bits.dtype.itemsize}-bit value are written (see "
            "docs/limitations.md)"
        )
    return bits.reshape(1).view(dtype.np_dtype)


def _fill(op: Any, dst: Any, value: Any, config: Any) -> None:
    """``asc_fill_l1[_sync](dst, value, config)``."""
    current_block()
    d = operands.instance(dst, CbufPtr, "dst")
    kinds = FILL_TYPES.get(d.dtype)
    if kinds is None:
        legal = ", ".join(t.cpp_name for t in FILL_TYPES)
        raise AscregTypeError(f"dst holds {d.dtype.cpp_name}; {FILL_PAGE} fills {legal}")
    kind = _value_type(value)
    if kind not in kinds:
        raise AscregTypeError(
            f"a {kind} value into {d.dtype.cpp_name} is not an overload of {FILL_PAGE} (the "
            f"value types for {d.dtype.cpp_name}: {', '.join(kinds)})"
        )
    cfg = operands.instance(config, asc_fill_value_config, "config")
    aligned(d, C0_BYTES, "dst")
    fill_blocks(d, _fill_bits(value, kind, d.dtype), cfg.repeat, cfg.blk_num, cfg.dst_gap)
    _finish(op)


_FILL_DOC = """``{name}(__cbuf__ T* dst, U value, const asc_fill_value_config& config)``: fill L1
with ``value``'s bits on ``PIPE_MTE2``{sync}.

``config.repeat`` iterations each write ``config.blk_num`` 32-byte blocks, ``config.dst_gap``
blocks apart (end to start); ``dst`` is 32-byte aligned. ``T`` is ``int16_t``, ``uint16_t``,
``half``, ``bfloat16_t``, ``int32_t``, ``uint32_t`` or ``float``; ``U`` is ``half`` (a Python
float, rounded to half), ``uint32_t`` (a Python int) or, for ``bfloat16_t``, a bfloat16
value. The bits are written as they are (``0x3F800000`` into ``float`` is 1.0); a value of
another width than ``T`` raises :class:`~ascreg.errors.UnsupportedError` (the page does not
say which bits are written).

Examples
--------
>>> from ascreg import float32_t
>>> from ascreg.c_api import asc_sync
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()):
...     dst = cube_buffers().pointer("l1", float32_t, 0)
...     cfg = asc_fill_value_config(); cfg.repeat = 2; cfg.blk_num = 1; cfg.dst_gap = 1
...     {name}(dst, 0x3F800000, cfg){wait}
...     dst.read(24)[[0, 7, 16, 23]].tolist()
[1.0, 1.0, 1.0, 1.0]
"""

asc_fill_l1 = define(
    "asc_fill_l1",
    doc=_FILL_DOC.format(name="asc_fill_l1", sync="", wait="; asc_sync()"),
    sync=False,
)(_fill)
asc_fill_l1_sync = define(
    "asc_fill_l1_sync",
    doc=_FILL_DOC.format(name="asc_fill_l1_sync", sync=", then a ``PIPE_ALL`` barrier", wait=""),
    sync=True,
)(_fill)


# -- asc_copy_l12l0b_trans -----------------------------------------------------------------------

TRANS_PAGE = "cube_datamove/asc_copy_l12l0b_trans/asc_copy_l12l0b_trans_arch_3510.md"
TRANS_ARGS = (
    ("index_id", 0, UINT16_MAX),
    ("repeat", 0, 255),
    ("src_stride", 0, UINT16_MAX),
    ("dst_gap", 0, UINT16_MAX),
    ("dst_frac_gap", 0, UINT16_MAX),
    ("src_frac_gap", 0, UINT16_MAX),
)
"""The integers of ``asc_copy_l12l0b_trans`` and their ranges (``uint8_t repeat``; 0 moves
nothing)."""


def _trans(op: Any, dst: Any, src: Any, *args: Any) -> None:
    """``asc_copy_l12l0b_trans[_sync](dst, src, index_id, repeat, ...)``."""
    current_block()
    if len(args) != len(TRANS_ARGS):
        names = ", ".join(name for name, _, _ in TRANS_ARGS)
        raise AscregTypeError(f"takes (dst, src, {names}); got {len(args) + 2} arguments")
    d = operands.instance(dst, CbPtr, "dst")
    s = operands.instance(src, CbufPtr, "src")
    if s.dtype in FOUR_BIT:
        raise UnsupportedError(
            f"{s.dtype.cpp_name}: {TRANS_PAGE} gives the 4-bit square and its nibble order by "
            "figures only (see docs/limitations.md)"
        )
    start, repeat, src_stride, dst_gap, dst_frac_gap, src_frac_gap = (
        operands.in_range(value, name, low, high)
        for value, (name, low, high) in zip(args, TRANS_ARGS, strict=True)
    )
    load_transposed(
        d, s, TransposeRun(start, repeat, src_stride, dst_gap, dst_frac_gap, src_frac_gap)
    )
    _finish(op)


_TRANS_DOC = """``{name}(__cb__ T* dst, __cbuf__ T* src, uint16_t index_id, uint8_t repeat,
uint16_t src_stride, uint16_t dst_gap, uint16_t dst_frac_gap, uint16_t src_frac_gap)``: L1 ->
L0B, each square of fractals transposed, on ``PIPE_MTE1``{sync}.

Repeat ``i`` reads one square: for 8-bit ``T`` two stacked 16 x 32 fractals (32 x 32), for
16-bit one 16 x 16 fractal, for 32-bit two 16 x 8 fractals side by side (16 x 16). Its
fractals are L1 fractals ``index_id + i * src_stride + j * (1 + src_frac_gap)`` (512-byte
units); the transposed square's fractal ``j`` goes to L0B fractal ``i * (1 + dst_gap) +
j * (1 + dst_frac_gap)``. ``repeat`` 0 moves nothing; ``dst`` is 512-byte and ``src`` 32-byte
aligned. The 4-bit types raise :class:`~ascreg.errors.UnsupportedError` (figures only). The
basic API's ``LoadDataWithTranspose`` with ``LoadData2dTransposeParamsV2`` is the same load.

Examples
--------
>>> import numpy as np
>>> from ascreg import int8_t
>>> from ascreg.c_api import asc_sync
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()):
...     src = cube_buffers().pointer("l1", int8_t, 0)
...     src.write((np.arange(1024) % 100).astype(np.int8)); asc_sync()
...     dst = cube_buffers().pointer("l0b", int8_t, 0)
...     {name}(dst, src, 0, 1, 0, 0, 0, 0){wait}
...     dst.read(3).tolist()  # column 0 of the 32 x 32 square
[0, 32, 64]
"""

asc_copy_l12l0b_trans = define(
    "asc_copy_l12l0b_trans",
    doc=_TRANS_DOC.format(name="asc_copy_l12l0b_trans", sync="", wait="; asc_sync()"),
    sync=False,
)(_trans)
asc_copy_l12l0b_trans_sync = define(
    "asc_copy_l12l0b_trans_sync",
    doc=_TRANS_DOC.format(
        name="asc_copy_l12l0b_trans_sync", sync=", then a ``PIPE_ALL`` barrier", wait=""
    ),
    sync=True,
)(_trans)


# -- L1 -> UB (an AIC writing an AIV's UB) ---------------------------------------------------------


def _copy_l12ub(op: Any, dst_addr: Any, src_addr: Any, sub_blockid: Any, *bursts: Any) -> None:
    """``asc_copy_l12ub[_sync](dst_addr, src_addr, sub_blockid, n_burst, len_burst, ...)``."""
    current_block()
    if len(bursts) != 4:
        raise AscregTypeError(
            "takes (dst_addr, src_addr, sub_blockid, n_burst, len_burst, src_gap, dst_gap); got "
            f"{3 + len(bursts)} arguments"
        )
    ub = operands.instance(dst_addr, UbPtr, "dst_addr")
    l1 = operands.instance(src_addr, CbufPtr, "src_addr")
    if not isinstance(sub_blockid, bool | np.bool_):
        raise AscregTypeError(f"sub_blockid must be a bool, got {sub_blockid!r:.40}")
    names = ("n_burst", "len_burst", "src_gap", "dst_gap")
    count, length, src_gap, dst_gap = (
        operands.in_range(value, name, low, high)
        for value, name, low, high in zip(
            bursts, names, (1, 1, 0, 0), (N_BURST_MAX, UINT16_MAX, UINT16_MAX, UINT16_MAX),
            strict=True,
        )
    )  # fmt: skip
    steps = Bursts(count, length * C0_BYTES, src_gap * C0_BYTES, dst_gap * C0_BYTES)
    l1_to_ub(ub, l1, int(sub_blockid), steps, op.name)
    _finish(op)


_L12UB_DOC = """``{name}(__ubuf__ void* dst_addr, __cbuf__ void* src_addr, bool sub_blockid,
uint16_t n_burst, uint16_t len_burst, uint16_t src_gap, uint16_t dst_gap)``: L1 -> UB on
``PIPE_MTE1``{sync}.

Copies ``n_burst`` ([1, 4095]) bursts of ``len_burst`` ([1, 65535]) 32-byte blocks, ``src_gap``
/ ``dst_gap`` blocks from the tail of one burst to the head of the next; both addresses 32-byte
aligned. On the AIC of a ``__mix__(1, 2)`` launch it writes the UB of vector core
``sub_blockid`` (false: AIV 0, true: AIV 1) of its AI Core, at ``dst_addr``'s address; the AIV
reads it after a ``CrossCoreWaitFlag`` on a flag the AIC set after the copy (an unordered read
is a :class:`~ascreg.errors.SyncError`; see :mod:`ascreg.machine.cubeub`). On an AIV it does
nothing (the 950 header's ``ASC_IS_AIC`` guard); in a block run alone it writes the block's
own UB (``sub_blockid`` false). The basic API's ``DataCopyL1ToUB`` is the same copy.

Examples
--------
>>> import numpy as np
>>> from ascreg import half
>>> from ascreg.c_api import asc_sync
>>> from ascreg.machine.block import BlockContext, block
>>> from ascreg.machine.cube import cube_buffers
>>> with block(BlockContext()) as ctx:
...     l1 = cube_buffers().pointer("l1", half, 0); l1.write(np.arange(64)); asc_sync()
...     ub = ctx.alloc_array(half, 32)
...     {call}
...     ub.read(32)[[0, 15, 16, 31]].tolist()
{expected}
"""


def _define_l12ub() -> dict[str, Any]:
    made = {}
    for sync, call, expected in (
        ("", "asc_copy_l12ub(ub, l1, False, 2, 1, 1, 0); asc_sync()", "[0.0, 15.0, 32.0, 47.0]"),
        ("_sync", "asc_copy_l12ub_sync(ub, l1, False, 1, 2, 0, 0)", "[0.0, 15.0, 16.0, 31.0]"),
    ):
        name = f"asc_copy_l12ub{sync}"
        doc = _L12UB_DOC.format(
            name=name, call=call, expected=expected,
            sync=", then a ``PIPE_ALL`` barrier" if sync else "",
        )  # fmt: skip
        made[name] = define(name, doc=doc, sync=bool(sync))(_copy_l12ub)
    return made


_L12UB = _define_l12ub()
asc_copy_l12ub = _L12UB["asc_copy_l12ub"]
asc_copy_l12ub_sync = _L12UB["asc_copy_l12ub_sync"]


# -- the multiply-add's mode registers -------------------------------------------------------------

MODE_SETTERS: dict[str, tuple[int, bool, str]] = {
    "asc_set_mmad_direction_m": (
        MM_LAYOUT_MODE, False,
        "produce result fractals along M first, then N (CTRL[51] = 0; no value changes)",
    ),
    "asc_set_mmad_direction_n": (
        MM_LAYOUT_MODE, True,
        "produce result fractals along N first, then M (CTRL[51] = 1; no value changes)",
    ),
    "asc_enable_hf32": (
        HF32_MODE, True,
        "round float operands to HF32 before a multiply-add (CTRL[46] = 1; a float "
        "multiply-add then raises :class:`~ascreg.errors.UnsupportedError`: the page gives "
        "HF32 by a figure only)",
    ),
    "asc_set_fp32_mode": (
        HF32_MODE, False,
        "multiply float operands as they are (CTRL[46] = 0, HF32 off: a block's start)",
    ),
    "asc_enable_fp8": (
        HIF8_MODE, False,
        "multiply fp8 operands as they are (CTRL[45] = 0, HiF8 off: a block's start)",
    ),
    "asc_enable_hif8": (
        HIF8_MODE, True,
        "convert 8-bit operands to hifloat8_t before a multiply-add (CTRL[45] = 1; a "
        "multiply-add of fp8 or int8 operands then raises "
        ":class:`~ascreg.errors.UnsupportedError`: the page does not say how)",
    ),
}  # fmt: skip
"""Per mode setter (``void name()``, ``PIPE_S``): its CTRL bit, the value it writes and what
the page says it does (the bits are the 950 header's; ``asc_get_ctrl`` reads them)."""


def _set_mode(op: Any) -> None:
    set_cube_mode(op.bit, op.value)


_MODE_DOC = """``{name}()``: {effect}; ``PIPE_S``.

Examples
--------
>>> from ascreg.c_api import asc_get_ctrl
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     {name}()
...     asc_get_ctrl() >> {bit} & 1
{value:d}
"""


def _define_modes() -> dict[str, Any]:
    return {
        name: define(
            name,
            doc=_MODE_DOC.format(name=name, effect=effect, bit=bit, value=value),
            bit=bit,
            value=value,
        )(_set_mode)
        for name, (bit, value, effect) in MODE_SETTERS.items()
    }


_MODES = _define_modes()
asc_set_mmad_direction_m = _MODES["asc_set_mmad_direction_m"]
asc_set_mmad_direction_n = _MODES["asc_set_mmad_direction_n"]
asc_enable_hf32 = _MODES["asc_enable_hf32"]
asc_set_fp32_mode = _MODES["asc_set_fp32_mode"]
asc_enable_fp8 = _MODES["asc_enable_fp8"]
asc_enable_hif8 = _MODES["asc_enable_hif8"]


@define("asc_enable_hf32_trans")
def asc_enable_hf32_trans(op: Any, mode: Any) -> None:
    """``asc_enable_hf32_trans(uint32_t mode)``: how HF32 rounds float; ``PIPE_S``.

    ``mode`` 0 rounds to nearest even, 1 toward zero (CTRL[47]); only 0 and 1 are legal (the
    page's constraint). The rounding takes effect with ``asc_enable_hf32``, whose float
    multiply-adds ascreg refuses (HF32 is given by a figure only).

    Examples
    --------
    >>> from ascreg.c_api import asc_get_ctrl
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_enable_hf32_trans(1)
    ...     asc_get_ctrl() >> 47 & 1
    1
    """
    rounding = operands.in_range(mode, "mode", 0, 1, "cube_compute/asc_enable_hf32_trans.md")
    set_cube_mode(HF32_TRANS_MODE, bool(rounding))


# -- the img2col load's registers ------------------------------------------------------------


class asc_l13d_fmatrix_config(_Union):
    """``union asc_l13d_fmatrix_config``: the feature map of the img2col load.

    ``l1_height`` (bits 0-15) and ``l1_width`` (16-31), each to be set in [1, 32767], and the
    padding sizes ``padding_left_size`` (32-39), ``padding_right_size``, ``padding_top_size``,
    ``padding_bottom_size`` (to 63), each in [0, 255]; the default ``config`` is 0.

    Examples
    --------
    >>> cfg = asc_l13d_fmatrix_config(); cfg.l1_height = 4; cfg.l1_width = 8
    >>> cfg.padding_top_size = 1; hex(cfg.config)
    '0x1000000080004'
    """

    _FIELDS = (
        "l1_height", "l1_width", "padding_left_size", "padding_right_size", "padding_top_size",
        "padding_bottom_size",
    )  # fmt: skip
    l1_height = _bit_field("asc_l13d_fmatrix_config", "l1_height", 0, 16)
    l1_width = _bit_field("asc_l13d_fmatrix_config", "l1_width", 16, 16)
    padding_left_size = _bit_field("asc_l13d_fmatrix_config", "padding_left_size", 32, 8)
    padding_right_size = _bit_field("asc_l13d_fmatrix_config", "padding_right_size", 40, 8)
    padding_top_size = _bit_field("asc_l13d_fmatrix_config", "padding_top_size", 48, 8)
    padding_bottom_size = _bit_field("asc_l13d_fmatrix_config", "padding_bottom_size", 56, 8)


class asc_load3d_v2_config(_Union):
    """``union asc_load3d_v2_config``: the img2col load's repeat.

    ``rpt_stride`` (bits 0-15), ``rpt_time`` (16-23, default 1) and ``rpt_mode`` (bit 24: 0
    along height, 1 along width); the default ``config`` is ``0x10000``.

    Examples
    --------
    >>> asc_load3d_v2_config()
    asc_load3d_v2_config(rpt_stride=0, rpt_time=1, rpt_mode=0)
    """

    _FIELDS = ("rpt_stride", "rpt_time", "rpt_mode")
    _DEFAULT = 0x10000
    rpt_stride = _bit_field("asc_load3d_v2_config", "rpt_stride", 0, 16)
    rpt_time = _bit_field("asc_load3d_v2_config", "rpt_time", 16, 8)
    rpt_mode = _bit_field("asc_load3d_v2_config", "rpt_mode", 24, 1)


FMATRIX_SIZE = 32767
"""The largest ``l1_height`` / ``l1_width`` (asc_l13d_fmatrix_config's page)."""


def _fmatrix(config: Any) -> tuple[int, int, tuple[int, ...]]:
    """Check a feature-map config; return it as the register holds it."""
    cfg = operands.instance(config, asc_l13d_fmatrix_config, "config")
    height, width = (
        operands.in_range(getattr(cfg, name), f"config.{name}", 1, FMATRIX_SIZE)
        for name in ("l1_height", "l1_width")
    )
    pads = (cfg.padding_left_size, cfg.padding_right_size, cfg.padding_top_size,
            cfg.padding_bottom_size)  # fmt: skip
    return height, width, pads


def _set_fmatrix(op: Any, config: Any) -> None:
    setattr(load3d_registers(), op.register, _fmatrix(config))


_FMATRIX_DOC = """``{name}(asc_l13d_fmatrix_config& config)``: set the {which} feature-map
register of the img2col load; ``PIPE_S``.

``config.l1_height`` and ``config.l1_width`` must be set (each in [1, 32767]).{reader}

Examples
--------
>>> from ascreg._frontend.cube import load3d_registers
>>> from ascreg.machine.block import BlockContext, block
>>> cfg = asc_l13d_fmatrix_config(); cfg.l1_height = 4; cfg.l1_width = 8
>>> cfg.padding_left_size = 1
>>> with block(BlockContext()):
...     {name}(cfg)
...     load3d_registers().{register}
(4, 8, (1, 0, 0, 0))
"""
_FMATRIX_SETTERS = {
    "asc_set_l13d_fmatrix": (
        "fmatrix", "left-matrix",
        " The basic API's ``LoadData(LoadData3DParamsV2)`` with ``isSetFMatrix`` false reads it "
        "(it is ``SetFmatrix``'s register).",
    ),
    "asc_set_l13d_fmatrix_b": (
        "fmatrix_b", "right-matrix (``FMATRIX_B``)",
        " No modelled load reads it (the img2col L1 -> L0B load is not modelled).",
    ),
}  # fmt: skip
asc_set_l13d_fmatrix, asc_set_l13d_fmatrix_b = (
    define(name, doc=_FMATRIX_DOC.format(name=name, which=which, reader=reader, register=reg),
           register=reg)(_set_fmatrix)
    for name, (reg, which, reader) in _FMATRIX_SETTERS.items()
)  # fmt: skip


PADDING_TYPES = {np.dtype(np.float16): 16, np.dtype(np.int16): 16, np.dtype(np.uint16): 16}
"""The 16-bit overloads of ``asc_set_l13d_padding`` (a numpy scalar of the type picks one)."""


@define("asc_set_l13d_padding")
def asc_set_l13d_padding(op: Any, config: Any) -> None:
    """``asc_set_l13d_padding(uint64_t | half | int16_t | uint16_t config)``: the pad register.

    The img2col load's pad register; ``PIPE_S``.
    A ``half`` (a Python float or ``numpy.float16``), ``int16_t`` or ``uint16_t`` (numpy
    scalars) sets the register to the value's 16 bits; a ``uint64_t`` (a Python int) to
    ``config << 8 | config & 0xFF`` (the 950 header's packing: an 8-bit pad in bits 7:0 and
    15:8). The basic API's img2col ``LoadData`` with ``isSetPadding`` false pads with the
    register's low byte (8-bit types) or low 16 bits (16-bit types); a 32-bit load raises
    :class:`~ascreg.errors.UnsupportedError` (the page does not say which bits it takes).

    Examples
    --------
    >>> from ascreg._frontend.cube import load3d_registers
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_set_l13d_padding(0x7F)
    ...     hex(load3d_registers().pad.code)
    '0x7f7f'
    """
    if isinstance(config, float) or (
        isinstance(config, np.generic) and config.dtype in PADDING_TYPES
    ):
        kind = np.dtype(np.float16) if isinstance(config, float) else config.dtype
        code = int(np.asarray(config, kind).view(np.uint16))
    else:
        value = operands.in_range(config, "config", 0, (1 << 64) - 1, "a uint64_t")
        code = (value << 8 | value & 0xFF) & ((1 << 64) - 1)
    load3d_registers().pad = PadBits(code)


@define("asc_set_l13d_rpt")
def asc_set_l13d_rpt(op: Any, config: Any) -> None:
    """``asc_set_l13d_rpt(asc_load3d_v2_config& config)``: the img2col load's repeat; ``PIPE_S``.

    Sets the repeat register's stride, time and mode (``SetLoadDataRepeat``'s register; the
    destination stride, which the struct does not carry, is kept).

    Examples
    --------
    >>> from ascreg._frontend.cube import load3d_registers
    >>> from ascreg.machine.block import BlockContext, block
    >>> cfg = asc_load3d_v2_config(); cfg.rpt_stride = 3
    >>> with block(BlockContext()):
    ...     asc_set_l13d_rpt(cfg)
    ...     load3d_registers().repeat
    Load3dRepeat(stride=3, time=1, mode=0, dst_stride=0)
    """
    cfg = operands.instance(config, asc_load3d_v2_config, "config")
    regs = load3d_registers()
    regs.repeat = attrs.evolve(
        regs.repeat, stride=cfg.rpt_stride, time=cfg.rpt_time, mode=cfg.rpt_mode
    )


PADDING_MODES = {0: "fixed", 1: "per channel"}
"""``PADDING_B[33:32]``: the padding modes (2 and 3 are reserved)."""


@define("asc_set_l3d_rpt_b")
def asc_set_l3d_rpt_b(op: Any, config: Any) -> None:
    """``asc_set_l3d_rpt_b(uint64_t config)``: the ``L3D_RPT_B`` register; ``PIPE_S``.

    Bits 15:0 are the repeat stride, 23:16 the repeat time, 24 the mode (0: M, 1: K), 47:32 the
    output's K stride and 63:48 its M start (fractals); bits 31:25 must be 0. No modelled load
    reads it (ascreg's C API loads take all their parameters as arguments).

    Examples
    --------
    >>> from ascreg._frontend.cube import load3d_registers
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_set_l3d_rpt_b(1 << 16)
    ...     hex(load3d_registers().repeat_b)
    '0x10000'
    """
    value = operands.in_range(config, "config", 0, (1 << 64) - 1, "a uint64_t")
    if value >> 25 & 0x7F:
        raise AscregError(
            f"config {value:#x} sets bits 31:25, which L3D_RPT_B does not define "
            "(sys_var/asc_set_l3d_rpt_b.md)"
        )
    load3d_registers().repeat_b = value


@define("asc_set_l12l0_padding_val")
def asc_set_l12l0_padding_val(op: Any, config: Any) -> None:
    """``asc_set_l12l0_padding_val(uint64_t config)``: the ``PADDING_B`` register; ``PIPE_S``.

    Bits 31:0 are the pad value (for 8-bit data bits 15:8 must equal 7:0, for 4-bit data the
    four nibbles of 15:0 must be equal), bits 33:32 the mode (0 fixed, 1 per channel; 2 and 3
    are reserved). No modelled load reads it (the img2col L1 -> L0B load is not modelled).

    Examples
    --------
    >>> from ascreg._frontend.cube import load3d_registers
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_set_l12l0_padding_val(1 << 32 | 0x3C00)
    ...     hex(load3d_registers().padding_b)
    '0x100003c00'
    """
    value = operands.in_range(config, "config", 0, (1 << 64) - 1, "a uint64_t")
    mode = value >> 32 & 0x3
    if mode not in PADDING_MODES:
        raise AscregError(
            f"config {value:#x} selects padding mode {mode}, which is reserved "
            "(sys_var/asc_set_l12l0_padding_val.md: 0 fixed, 1 per channel)"
        )
    load3d_registers().padding_b = value


# -- asc_mmad_s4 ---------------------------------------------------------------------------------


def _mmad_s4(op: Any, *args: Any) -> None:
    """``asc_mmad_s4[_sync](c_matrix, a_matrix, b_matrix, ...)``: not an Ascend 950 form."""
    current_block()
    raise UnsupportedError(
        "int4b_t x int4b_t -> int32_t: cube_compute/asc_mmad.md lists asc_mmad_s4 only in the "
        "k_direction_align form, not among the Ascend 950 prototypes (disable_gemv), and the 950 "
        "header implements no asc_mmad_s4 (see docs/limitations.md)"
    )


_S4_DOC = """``{name}(__cc__ int32_t* c_matrix, __ca__ int4b_t* a_matrix, __cb__ int4b_t* b_matrix,
...)``: the int4 multiply-add, which the Ascend 950 does not have.

``cube_compute/asc_mmad.md`` lists it only in the ``k_direction_align`` form (not among the
Ascend 950 prototypes), and the 950 header implements none: every call raises
:class:`~ascreg.errors.UnsupportedError`.

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     {name}(None, None, None, 16, 64, 16, 0, False, False, True)
Traceback (most recent call last):
...
ascreg.errors.UnsupportedError: {name}: int4b_t x int4b_t -> int32_t: ...
"""

asc_mmad_s4 = define("asc_mmad_s4", doc=_S4_DOC.format(name="asc_mmad_s4"))(_mmad_s4)
asc_mmad_s4_sync = define("asc_mmad_s4_sync", doc=_S4_DOC.format(name="asc_mmad_s4_sync"))(_mmad_s4)
