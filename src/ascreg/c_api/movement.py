"""C API data movement by index and rearrangement: scatter, DataBlock gather, histograms.

``asc_scatter``, ``asc_gather_datablock``, ``asc_frequency_histogram_bin0/1``,
``asc_cumulative_histogram_bin0/1``, ``asc_intlv`` / ``asc_deintlv`` (and their
``_b8/_b16/_b32`` mask forms), ``asc_unsqueeze`` and ``asc_clear_ar_spr``: the twins of
``Reg.Scatter``, ``Reg.GatherB``, ``Reg.Histograms``, ``Reg.Interleave`` /
``Reg.DeInterleave``, ``Reg.Unsqueeze`` and ``Reg.ClearSpr``, on the same implementations.
``asc_squeeze_with_status`` squeezes and adds the kept bytes to AR, which
``asc_get_squeeze_status`` reads.

Examples
--------
>>> import numpy as np
>>> from ascreg.c_api import *
>>> a, b, lo, hi = vector_int16_t(), vector_int16_t(), vector_int16_t(), vector_int16_t()
>>> a.set(np.arange(128)); b.set(-np.arange(128))
>>> asc_intlv(lo, hi, a, b); np.asarray(lo)[:4]
array([ 0,  0,  1, -1], dtype=int16)
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import movement, rules
from ascreg._frontend.template import define
from ascreg.core import rearrange
from ascreg.errors import AscregTypeError
from ascreg.machine import spr

__all__ = [
    "asc_clear_ar_spr",
    "asc_cumulative_histogram_bin0",
    "asc_cumulative_histogram_bin1",
    "asc_deintlv",
    "asc_deintlv_b8",
    "asc_deintlv_b16",
    "asc_deintlv_b32",
    "asc_frequency_histogram_bin0",
    "asc_frequency_histogram_bin1",
    "asc_gather_datablock",
    "asc_get_squeeze_status",
    "asc_intlv",
    "asc_intlv_b8",
    "asc_intlv_b16",
    "asc_intlv_b32",
    "asc_scatter",
    "asc_squeeze_with_status",
    "asc_unsqueeze",
]


@define("asc_scatter")
def asc_scatter(op: Any, dst: Any, src: Any, index: Any, mask: Any) -> None:
    """``void asc_scatter(__ubuf__ T* dst, vector_T src, vector_U index, vector_bool mask)``.

    ``dst[index[i]] = src`` lane i for the selected lanes (indices in elements; ``dst`` 32-byte
    aligned); no other UB byte changes. int8/uint8 data writes the even lanes (uint16
    indices). Indices must be unique among the selected lanes (a repeat is undefined
    behaviour: an error by default). The twin of ``Reg.Scatter``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer
    >>> from ascreg.c_api import *
    >>> out = UnifiedBuffer().alloc(float32_t, 64); out.write([0] * 64)
    >>> s, i = vector_float(), vector_uint32_t(); s.set(np.arange(64)); i.set(63 - np.arange(64))
    >>> asc_scatter(out, s, i, asc_create_mask_b32(PAT_VL2)); out.read(64)[-2:].tolist()
    [1.0, 0.0]
    """
    movement.scatter(op, dst, src, index, mask)


@define("asc_gather_datablock")
def asc_gather_datablock(op: Any, *args: Any) -> None:
    """``void asc_gather_datablock(vector_T& dst, __ubuf__ T* src, vector_uint32_t index[, mask])``.

    DataBlock k (32 bytes, k < 8) of ``dst`` is read from ``src + index[k]`` bytes (each a
    multiple of 32, repeats allowed); with a mask, bit ``4 * k`` enables block k and a
    disabled block is 0; without one every block is read. The twin of ``Reg.GatherB``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer
    >>> from ascreg.c_api import *
    >>> p = UnifiedBuffer().alloc(uint8_t, 256); p.write(np.arange(256))
    >>> d, i = vector_uint8_t(), vector_uint32_t(); i.set((np.arange(64) % 8)[::-1] * 32)
    >>> asc_gather_datablock(d, p, i); np.asarray(d)[[0, 32, 255]].tolist()
    [224, 192, 31]
    """
    if len(args) not in (3, 4):
        raise AscregTypeError(f"takes (dst, src, index[, mask]), got {len(args)} arguments")
    dst, src, index, *mask = args
    movement.gather_blocks(op, dst, src, index, *(mask or (None,)))


def _histogram(op: Any, dst: Any, src: Any, mask: Any) -> None:
    movement.histogram(op, dst, src, mask, high=op.high, cumulative=op.cumulative)


def _histogram_doc(name: str, cumulative: bool, high: bool) -> str:
    values = "128-255" if high else "0-127"
    what = "the values up to lane n's" if cumulative else "lane n's value"
    return f"""``void {name}(vector_uint16_t& dst, vector_uint8_t src, vector_bool mask)``.

    Adds to ``dst`` lane n how many selected ``src`` lanes hold {what} ({values}, lane n is
    value {"128 + n" if high else "n"}{"; the running count starts at 128" if high and cumulative else ""}).
    The counts wrap at 65536. The twin of ``Reg.Histograms``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.c_api import *
    >>> s, d = vector_uint8_t(), vector_uint16_t(); s.set(np.arange(256) % 2 + 128); d.set(0)
    >>> {name}(d, s, asc_create_mask_b8(PAT_ALL)); np.asarray(d)[:3].tolist()
    {[0, 0, 0] if not high else ([128, 256, 256] if cumulative else [128, 128, 0])}
    """


def _histogram_op(kind: str, part: str) -> Any:
    name = f"asc_{kind}_histogram_{part}"
    cumulative, high = kind == "cumulative", part == "bin1"
    doc = _histogram_doc(name, cumulative, high)
    return define(name, doc=doc, high=high, cumulative=cumulative, batch=rules.ROWS)(_histogram)


asc_frequency_histogram_bin0, asc_frequency_histogram_bin1 = (
    _histogram_op("frequency", part) for part in ("bin0", "bin1")
)
asc_cumulative_histogram_bin0, asc_cumulative_histogram_bin1 = (
    _histogram_op("cumulative", part) for part in ("bin0", "bin1")
)


def _registers(op: Any, dst0: Any, dst1: Any, src0: Any, src1: Any) -> None:
    movement.interleave_registers(op, dst0, dst1, src0, src1)


def _masks(op: Any, dst0: Any, dst1: Any, src0: Any, src1: Any) -> None:
    movement.mask_interleave(op, op.group, dst0, dst1, src0, src1, inverse=op.inverse)


_INTERLEAVE_DOCS = {
    "asc_intlv": (
        "zip two registers lane by lane: ``dst0 = [a0, b0, a1, b1, ...]`` over the low halves, "
        "``dst1`` over the high halves (``Reg.Interleave``)"
    ),
    "asc_deintlv": (
        "split ``concat(src0, src1)`` into its even lanes (``dst0``) and odd lanes (``dst1``) "
        "(``Reg.DeInterleave``)"
    ),
}


def _interleave_doc(name: str, width: str | None) -> str:
    base = name if width is None else name.rsplit("_", 1)[0]
    operands = "vector_bool" if width else "vector_T"
    what = _INTERLEAVE_DOCS[base]
    if width:
        what += f", in groups of {int(width[1:]) // 8} mask bit(s) (one {width} lane each)"
    make = "asc_create_mask_b16(PAT_ALL), asc_create_mask_b16(PAT_ALLF)"
    return f"""``void {name}({operands}& dst0, {operands}& dst1, {operands} src0, {operands} src1)``.

    {what[0].upper() + what[1:]}. ``dst0`` and ``dst1`` must differ.

    Examples
    --------
    >>> from ascreg.c_api import *
    >>> d0, d1 = vector_bool(), vector_bool()
    >>> asc_{base.removeprefix("asc_")}_b16(d0, d1, {make}); d0.count(), d1.count()
    (64, 64)
    """


def _interleave_ops(name: str, formula: Any, inverse: bool) -> tuple[Any, ...]:
    vector = define(
        name, doc=_interleave_doc(name, None), formula=staticmethod(formula), batch=rules.ROWS
    )(_registers)
    masks = tuple(
        define(f"{name}_b{8 * group}", doc=_interleave_doc(f"{name}_b{8 * group}", f"b{8 * group}"),
               group=group, inverse=inverse, batch=rules.ROWS)(_masks)
        for group in (1, 2, 4)
    )  # fmt: skip
    return (vector, *masks)


asc_intlv, asc_intlv_b8, asc_intlv_b16, asc_intlv_b32 = _interleave_ops(
    "asc_intlv", rearrange.interleave, inverse=False
)
asc_deintlv, asc_deintlv_b8, asc_deintlv_b16, asc_deintlv_b32 = _interleave_ops(
    "asc_deintlv", rearrange.deinterleave, inverse=True
)


@define("asc_unsqueeze", batch=rules.ROWS)
def asc_unsqueeze(op: Any, dst: Any, mask: Any) -> None:
    """``void asc_unsqueeze(vector_T& dst, vector_bool mask)``: lane i = selected lanes before i.

    ``dst[0] = 0``, ``dst[i] = dst[i-1] + mask[i-1]`` (``Reg.Unsqueeze``); 8/16/32-bit integers.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.c_api import *
    >>> d = vector_uint16_t(); asc_unsqueeze(d, asc_create_mask_b16(PAT_ALL))
    >>> np.asarray(d)[[0, 1, 127]].tolist()
    [0, 1, 127]
    """
    movement.unsqueeze(op, dst, mask)


@define("asc_clear_ar_spr")
def asc_clear_ar_spr(op: Any) -> None:
    """``void asc_clear_ar_spr()``: zero the AR special register (``Reg.ClearSpr<AR>``).

    AR is the running block's (``ascreg.machine.spr``); outside a kernel there is none.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine import spr
    >>> with block(BlockContext()) as ctx, ctx.simd_vf():
    ...     spr.add_ar(32); asc_clear_ar_spr(); spr.read_ar()
    0
    """
    spr.clear_ar()


@define("asc_squeeze_with_status")  # no batching rule: each call adds its bytes to AR
def asc_squeeze_with_status(op: Any, dst: Any, src: Any, mask: Any) -> None:
    """``void asc_squeeze_with_status(vector_T& dst, vector_T src, vector_bool mask)``.

    ``asc_squeeze`` (the selected lanes packed from lane 0, the rest 0) that also adds the bytes
    it kept to the AR register (decision: AR accumulates, so clear it with
    ``asc_clear_ar_spr`` first; read it with :func:`asc_get_squeeze_status`). AR belongs to the
    running block: outside a kernel there is none (error).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.c_api import *
    >>> s, d = vector_int32_t(), vector_int32_t(); s.set(np.arange(64))
    >>> with block(BlockContext()) as ctx, ctx.simd_vf():
    ...     asc_clear_ar_spr(); asc_squeeze_with_status(d, s, asc_create_mask_b32(PAT_VL3))
    ...     asc_squeeze_with_status(d, s, asc_create_mask_b32(PAT_VL2)); asc_get_squeeze_status()
    20
    >>> np.asarray(d)[:3].tolist()
    [0, 1, 0]
    """
    movement.squeeze_counting(op, dst, src, mask)


def asc_get_squeeze_status() -> int:
    """``int64_t asc_get_squeeze_status()``: the AR register (bytes the squeezes kept).

    Scalar code (``PIPE_S``): it runs in the kernel body as well as in a VF.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine import spr
    >>> with block(BlockContext()):
    ...     spr.add_ar(20); asc_get_squeeze_status()
    20
    """
    _ascreg_call = "asc_get_squeeze_status"
    return spr.read_ar()
