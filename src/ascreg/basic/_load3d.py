"""``LoadData`` of the cube core: the 2D loads, the img2col load (``LoadData3DParamsV2``), MX.

``LoadData<T, defaultConfig>(dst, src, LoadData3DParamsV2<T>)`` (the LoadData_3D page, "v2")
expands an NC1HWC0 feature map in L1 into the rows of a convolution's left matrix (image to
column) and moves an ``mExtension x kExtension`` window of it to L0A on ``PIPE_MTE1``. Its
feature-map and padding descriptions are registers: the load sets them from its params unless
``IsResetLoad3dConfig`` says otherwise, when ``SetFmatrix`` and ``SetLoadDataPaddingValue``
(or an earlier load) set them; ``SetLoadDataRepeat`` sets the repeat and the ``dstStride`` of
the destination. The L1 -> L0B load (always) and an ``enTranspose`` load into L0A write the
window's transpose (the page: the whole matrix transposed), the layouts ``Mmad`` reads;
``LoadDataWithStride`` is the same load (its ``dstStride`` set by
``SetLoadDataRepeatWithStride``, the same register). What the page defines only by figures
(repeats, windows ending inside a fractal) raises :class:`~ascreg.errors.UnsupportedError`;
docs/limitations.md lists them. The MX load (``LoadData2DMxParams``) is
:mod:`ascreg._frontend.cube_mx`'s.

Examples
--------
>>> import numpy as np
>>> from ascreg import half
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):  # a 1 x 1 kernel over a 4 x 4 image of 16 channels
...     a1 = LocalTensor[half](TPosition.A1, 0, 256); a1.GetPhyAddr().write(np.arange(256))
...     a2 = LocalTensor[half](TPosition.A2, 0, 256)
...     SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 0, 1))
...     p = LoadData3DParamsV2[half](l1H=4, l1W=4, channelSize=16, kExtension=16, mExtension=16)
...     PipeBarrier[PIPE_ALL]()
...     LoadData(a2, a1, p)
...     PipeBarrier[PIPE_ALL]()
...     a2.GetPhyAddr().read(18)[[0, 1, 16, 17]].tolist()  # the image as it lies: pixel-major
[0.0, 1.0, 16.0, 17.0]
"""

from __future__ import annotations

import enum
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    c_cast,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int8_t,
    int32_t,
    uint8_t,
    uint32_t,
)
from ascreg._frontend import operands
from ascreg._frontend.cube import ROWS, Load3dRepeat, PadBits, load3d_registers
from ascreg.basic._cube import (
    _aligned,
    _fields,
    _LoadData2D,
    _local,
    _OnPipe,
)
from ascreg.basic._cube_mx import load_data_mx
from ascreg.basic._template import (
    TYPENAME,
    ClassTemplate,
    Signature,
    function_template,
    instance_of,
)
from ascreg.basic._tensor import LocalTensor
from ascreg.errors import AscregError, AscregTypeError, UnsupportedError
from ascreg.machine.block import current_block
from ascreg.machine.constants import PAD_SIZE
from ascreg.machine.cube import C0_BYTES, FRACTAL_BYTES
from ascreg.machine.sync import PIPE_MTE1

LOAD3D_PAGE = "LoadData_3D.md"
"""The asc-devkit page of the img2col load (basic API, matrix compute, moves in)."""
"""The asc-devkit page of the MX load."""


class FmatrixMode(enum.Enum):
    """``AscendC::FmatrixMode``: which feature-map register ``SetFmatrix`` sets (LEFT only).

    Examples
    --------
    >>> FmatrixMode.FMATRIX_RIGHT.value
    1
    """

    FMATRIX_LEFT = 0
    FMATRIX_RIGHT = 1


@attrs.frozen
class IsResetLoad3dConfig:
    """``AscendC::IsResetLoad3dConfig``: whether an img2col ``LoadData`` sets its registers.

    ``isSetFMatrix`` true: the load sets the feature-map register (``l1H``, ``l1W``,
    ``padList``) from its params; false: it uses what ``SetFmatrix`` (or an earlier load) set.
    ``isSetPadding`` does the same for the pad value (``SetLoadDataPaddingValue``).

    Examples
    --------
    >>> IsResetLoad3dConfig(False, False) == IS_RESER_LOAD3D_DEFAULT_CONFIG
    False
    """

    isSetFMatrix: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool))
    isSetPadding: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool))


IS_RESER_LOAD3D_DEFAULT_CONFIG = IsResetLoad3dConfig(True, True)
"""``IS_RESER_LOAD3D_DEFAULT_CONFIG``: the load sets both registers (the C++ spelling)."""


@attrs.define
class LoadDataRepeatParam:
    """``AscendC::LoadDataRepeatParam`` (dav-3510): the repeat of an img2col ``LoadData``.

    ``repeatTime`` iterations (0: the load is a no-op) along height (``repeatMode`` 0) or width
    (1), ``repeatStride`` apart; ``dstStride`` is the distance, in 512-byte fractals, of the
    destination's K column blocks (the 950 requires it).

    Examples
    --------
    >>> LoadDataRepeatParam(0, 1, 0, 3).dstStride
    3
    """

    repeatStride: int = 0
    repeatTime: int = 1
    repeatMode: int = 0
    dstStride: int = 0


@attrs.define
class LoadDataRepeatParamWithStride:
    """``AscendC::LoadDataRepeatParamWithStride`` (dav-3510): the repeat of ``LoadDataWithStride``.

    The fields of :class:`LoadDataRepeatParam`, in the same order: ``repeatStride``,
    ``repeatTime``, ``repeatMode`` and ``dstStride`` (the destination's K column blocks, in
    512-byte fractals, apart); both set the same register.

    Examples
    --------
    >>> LoadDataRepeatParamWithStride(1, 1, 0, 5).dstStride
    5
    """

    repeatStride: int = 0
    repeatTime: int = 1
    repeatMode: int = 0
    dstStride: int = 0


REPEAT_LIMITS = {
    "repeatStride": (0, 65535),
    "repeatTime": (0, 255),
    "repeatMode": (0, 1),
    "dstStride": (0, 65535),
}
"""Ranges of the ``LoadDataRepeatParam`` fields (SetLoadDataRepeat page, table 2)."""


class LoadData3DParamsV2(metaclass=ClassTemplate):
    """``AscendC::LoadData3DParamsV2<T>``: an img2col load of an L1 feature map.

    The feature map is ``channelSize`` channels (``C1`` blocks of ``C0 = 32 / sizeof(T)``) of
    ``l1H x l1W`` pixels in NC1HWC0 order; ``padList`` is (left, right, top, bottom). The
    expanded matrix has a row per output pixel (``Ho x Wo``, row-major) and a column per
    (channel block, kernel row, kernel column, channel in the block); the load moves rows
    ``[mStartPt, mStartPt + mExtension)`` and columns ``[kStartPt, kStartPt + kExtension)``.
    The kernel is ``filterH x filterW`` (each + 256 with ``filterSizeH`` / ``filterSizeW``),
    sliding ``strideH`` / ``strideW`` with dilations ``dilationFilterH`` / ``dilationFilterW``;
    padding reads ``padValue`` (``T``; the raw byte for fp8 / hifloat8). Fields are set as
    keywords or in the C++ constructor's order.

    Examples
    --------
    >>> from ascreg import half
    >>> p = LoadData3DParamsV2[half](l1H=8, l1W=8, channelSize=32, filterW=3, filterH=3)
    >>> p.padList, p.strideW, p.dilationFilterH, p.T.cpp_name
    ([0, 0, 0, 0], 1, 1, 'half')
    """

    template_signatures = (Signature(T=TYPENAME),)

    def __init__(
        self,
        padList: Any = (0, 0, 0, 0),
        l1H: int = 0,
        l1W: int = 0,
        channelSize: int = 0,
        kExtension: int = 0,
        mExtension: int = 0,
        kStartPt: int = 0,
        mStartPt: int = 0,
        strideW: int = 1,
        strideH: int = 1,
        filterW: int = 1,
        filterH: int = 1,
        dilationFilterW: int = 1,
        dilationFilterH: int = 1,
        enTranspose: bool = False,
        enSmallK: bool = False,
        padValue: Any = 0,
        filterSizeW: bool = False,
        filterSizeH: bool = False,
        fMatrixCtrl: bool = False,
        *,
        T: type[Scalar] | None = None,
    ) -> None:
        self.T = T
        self.padList = list(padList)
        self.l1H, self.l1W, self.channelSize = l1H, l1W, channelSize
        self.kExtension, self.mExtension, self.kStartPt, self.mStartPt = (
            kExtension,
            mExtension,
            kStartPt,
            mStartPt,
        )
        self.strideW, self.strideH, self.filterW, self.filterH = strideW, strideH, filterW, filterH
        self.dilationFilterW, self.dilationFilterH = dilationFilterW, dilationFilterH
        self.enTranspose, self.enSmallK, self.padValue = enTranspose, enSmallK, padValue
        self.filterSizeW, self.filterSizeH, self.fMatrixCtrl = filterSizeW, filterSizeH, fMatrixCtrl

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if k != "T")
        return f"LoadData3DParamsV2<{getattr(self.T, 'cpp_name', '?')}>({shown})"


LOAD3D_LIMITS = {
    "l1H": (0, 32767),
    "l1W": (0, 32767),
    "channelSize": (0, 65535),
    "kExtension": (0, 65535),
    "mExtension": (0, 65535),
    "kStartPt": (0, 65535),
    "mStartPt": (0, 32767),
    "strideW": (0, 63),
    "strideH": (0, 63),
    "filterW": (0, 255),
    "filterH": (0, 255),
    "dilationFilterW": (0, 255),
    "dilationFilterH": (0, 255),
}
"""Ranges of the ``LoadData3DParamsV2`` fields (LoadData_3D page, table 4)."""
LOAD3D_TYPES: tuple[type[Scalar], ...] = (
    int8_t,
    uint8_t,
    hifloat8_t,
    fp8_e5m2_t,
    fp8_e4m3fn_t,
    half,
    bfloat16_t,
    int32_t,
    uint32_t,
    float32_t,
)
"""The element types of the img2col load on the Ascend 950."""
RAW_PAD = (hifloat8_t, fp8_e5m2_t, fp8_e4m3fn_t)
"""The types whose ``padValue`` is the raw byte (``GetPadValueType`` is uint8_t on dav-3510)."""


# -- the registers -----------------------------------------------------------------------------


def _pad_list(pad_list: Any, role: str) -> tuple[int, ...]:
    values = tuple(pad_list)
    if len(values) != PAD_SIZE:
        raise AscregTypeError(f"{role} has {len(values)} entries, not {PAD_SIZE} (l, r, t, b)")
    return tuple(operands.in_range(v, f"{role}[{i}]", 0, 255) for i, v in enumerate(values))


def SetFmatrix(l1H: int, l1W: int, padList: Any, fmatrixMode: FmatrixMode) -> None:
    """``SetFmatrix(l1H, l1W, padList, fmatrixMode)``: set the img2col feature-map register.

    A later ``LoadData<T, {false, ...}>(dst, src, LoadData3DParamsV2)`` reads the feature map's
    height, width and padding (left, right, top, bottom) from here. Only ``FMATRIX_LEFT``
    exists on the Ascend 950 (both matrices use it).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetFmatrix(4, 8, [1, 1, 0, 0], FmatrixMode.FMATRIX_LEFT)
    ...     load3d_registers().fmatrix
    (4, 8, (1, 1, 0, 0))
    """
    _ascreg_call = "SetFmatrix"
    if not isinstance(fmatrixMode, FmatrixMode):
        raise AscregTypeError(f"fmatrixMode must be a FmatrixMode, got {fmatrixMode!r}")
    if fmatrixMode is not FmatrixMode.FMATRIX_LEFT:
        raise AscregError("fmatrixMode must be FMATRIX_LEFT (the only one the Ascend 950 has)")
    load3d_registers().fmatrix = (
        operands.in_range(l1H, "l1H", 1, 32767),
        operands.in_range(l1W, "l1W", 1, 32767),
        _pad_list(padList, "padList"),
    )


def SetLoadDataPaddingValue(padValue: Any) -> None:
    """``SetLoadDataPaddingValue(padValue)``: set the value the img2col load pads with.

    The value is converted to the load's ``T`` when a load reads it.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetLoadDataPaddingValue(-1.5)
    ...     load3d_registers().pad
    -1.5
    """
    _ascreg_call = "SetLoadDataPaddingValue"
    if isinstance(padValue, bool) or not isinstance(padValue, int | float | np.number):
        raise AscregTypeError(f"padValue must be a number, got {padValue!r}")
    load3d_registers().pad = padValue


def SetLoadDataRepeat(repeatParams: LoadDataRepeatParam) -> None:
    """``SetLoadDataRepeat(LoadDataRepeatParam)``: set the img2col load's repeat and dstStride.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 0, 4))
    ...     load3d_registers().repeat.dst_stride
    4
    """
    _ascreg_call = "SetLoadDataRepeat"
    if not isinstance(repeatParams, LoadDataRepeatParam):
        raise AscregTypeError(f"repeatParams must be LoadDataRepeatParam, got {repeatParams!r}")
    _set_repeat(repeatParams)


def _set_repeat(params: LoadDataRepeatParam | LoadDataRepeatParamWithStride) -> None:
    """Check *params* and write them to the img2col load's repeat register."""
    f = _fields(params, REPEAT_LIMITS)
    load3d_registers().repeat = Load3dRepeat(
        f["repeatStride"], f["repeatTime"], f["repeatMode"], f["dstStride"]
    )


def SetLoadDataRepeatWithStride(repeatParams: LoadDataRepeatParamWithStride) -> None:
    """``SetLoadDataRepeatWithStride(LoadDataRepeatParamWithStride)``: the repeat register.

    Sets the register ``SetLoadDataRepeat`` sets (the header writes both to one register):
    the repeat of the img2col loads and the ``dstStride`` ``LoadDataWithStride`` requires.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetLoadDataRepeatWithStride(LoadDataRepeatParamWithStride(1, 1, 0, 5))
    ...     load3d_registers().repeat.dst_stride
    5
    """
    _ascreg_call = "SetLoadDataRepeatWithStride"
    if not isinstance(repeatParams, LoadDataRepeatParamWithStride):
        raise AscregTypeError(
            f"repeatParams must be LoadDataRepeatParamWithStride, got {repeatParams!r:.60}"
        )
    _set_repeat(repeatParams)


# -- the img2col load --------------------------------------------------------------------------


@attrs.frozen
class _Geometry:
    """The feature map and kernel of one img2col load, and the expanded matrix's shape."""

    c1: int
    c0: int
    height: int
    width: int
    pads: tuple[int, ...]
    kernel: tuple[int, int]
    stride: tuple[int, int]
    dilation: tuple[int, int]

    @property
    def out(self) -> tuple[int, int]:
        """The output height and width (``Ho``, ``Wo``) of the sliding kernel."""
        left, right, top, bottom = self.pads
        spans = ((self.height + top + bottom, 0), (self.width + left + right, 1))
        return tuple(  # type: ignore[return-value]
            (size - ((self.kernel[i] - 1) * self.dilation[i] + 1)) // self.stride[i] + 1
            for size, i in spans
        )

    @property
    def columns(self) -> int:
        """The expanded matrix's columns: ``C1 * Hk * Wk * C0``."""
        return self.c1 * self.kernel[0] * self.kernel[1] * self.c0


def img2col_window(fmap: Any, g: _Geometry, pad: Any, rows: Any, cols: Any) -> Any:
    """Return the elements ``(rows[i], cols[j])`` of the image-to-column matrix of *fmap*.

    *fmap* is ``(C1, H, W, C0)``; row ``m`` is output pixel ``(m // Wo, m % Wo)``; column ``k``
    is (channel block, kernel row, kernel column, channel) in that order; a tap outside the
    image reads *pad*.

    Examples
    --------
    >>> fmap = np.arange(9, dtype=np.int32).reshape(1, 3, 3, 1)
    >>> g = _Geometry(1, 1, 3, 3, (1, 1, 1, 1), (3, 3), (1, 1), (1, 1))
    >>> img2col_window(fmap, g, -1, np.arange(1)[:, None], np.arange(9)).tolist()
    [[-1, -1, -1, -1, 0, 1, -1, 3, 4]]
    """
    wo = g.out[1]
    fh, fw = g.kernel
    oh, ow = rows // wo, rows % wo
    block, rest = cols // (fh * fw * g.c0), cols % (fh * fw * g.c0)
    kh, kw, lane = rest // (fw * g.c0), rest // g.c0 % fw, rest % g.c0
    y = oh * g.stride[0] + kh * g.dilation[0] - g.pads[2]
    x = ow * g.stride[1] + kw * g.dilation[1] - g.pads[0]
    inside = (y >= 0) & (y < g.height) & (x >= 0) & (x < g.width)
    taken = fmap[block, np.clip(y, 0, g.height - 1), np.clip(x, 0, g.width - 1), lane]
    return np.where(inside, taken, pad)


def _load3d(dst: Any, src: Any, p: LoadData3DParamsV2, config: IsResetLoad3dConfig) -> None:
    """Run ``LoadData<T, config>(dst, src, LoadData3DParamsV2)`` (the checks, then the move)."""
    d, s = _local(dst, "dst", ("A2", "B2")), _local(src, "src", ("A1", "B1"))
    dtype = _checked_types(d.dtype, s.dtype, p)
    _aligned(d, FRACTAL_BYTES, "dst")
    _aligned(s, C0_BYTES, "src")
    f = _fields(p, LOAD3D_LIMITS)
    _unmodelled(d, p)
    regs = load3d_registers()
    own = (f["l1H"], f["l1W"], _pad_list(p.padList, "padList"))
    fmatrix = _register(own if config.isSetFMatrix else regs.fmatrix, "feature map", "SetFmatrix")
    raw = _register(
        p.padValue if config.isSetPadding else regs.pad, "pad value", "SetLoadDataPaddingValue"
    )
    pad = _pad_value(raw, dtype)
    regs.fmatrix, regs.pad = fmatrix, raw  # the load sets the registers it was told to
    height, width, pads = fmatrix
    repeat = regs.repeat
    kernel = (f["filterH"] + 256 * bool(p.filterSizeH), f["filterW"] + 256 * bool(p.filterSizeW))
    if not (height and width and f["channelSize"] and f["kExtension"] and f["mExtension"]):
        return
    if 0 in kernel or not repeat.time:
        return
    if repeat.time > 1:
        raise UnsupportedError(
            f"repeatTime {repeat.time}: where the repeats of an img2col load land is "
            f"defined by figures only ({LOAD3D_PAGE}, Repeat Mode); ascreg models repeatTime 1"
        )
    c0 = C0_BYTES // dtype.size
    g = _Geometry(
        _channel_blocks(f["channelSize"], c0, dtype),
        c0,
        height,
        width,
        pads,
        kernel,
        _strides(f),
        (f["dilationFilterH"], f["dilationFilterW"]),
    )
    rows, cols = _window(f, g)
    if _transposing(d, p) and rows.size % c0:
        raise UnsupportedError(
            f"mExtension {rows.size}: a transposing load writes the window's {rows.size} rows as "
            f"columns, which end inside a {c0}-column fractal; the page leaves the rest of it "
            f"open ({LOAD3D_PAGE})"
        )
    with _OnPipe(current_block(), PIPE_MTE1):
        fmap = s.view(g.c1 * height * width * c0, "reads").reshape(g.c1, height, width, c0)
        values = img2col_window(fmap, g, pad, rows[:, None], cols[None, :])
        if _transposing(d, p):  # the window's transpose, its rows (pixels) in column blocks
            values = values.T
        _write_nz(d, values, c0, repeat.dst_stride)


def _transposing(d: Any, p: LoadData3DParamsV2) -> bool:
    """Whether the load writes the window's transpose: into L0B always, into L0A by enTranspose."""
    return d.space == "__cb__" or bool(p.enTranspose)


def _checked_types(dst: type[Scalar], src: type[Scalar], p: LoadData3DParamsV2) -> type[Scalar]:
    if dst is not src or (p.T is not None and p.T is not dst):
        raise AscregTypeError(
            f"dst holds {dst.cpp_name}, src {src.cpp_name} and the params "
            f"LoadData3DParamsV2<{getattr(p.T, 'cpp_name', dst.cpp_name)}>: one T for all three"
        )
    if dst not in LOAD3D_TYPES:
        legal = ", ".join(t.cpp_name for t in LOAD3D_TYPES)
        raise AscregTypeError(f"the img2col LoadData takes {legal}; got {dst.cpp_name}")
    return dst


def _unmodelled(d: Any, p: LoadData3DParamsV2) -> None:
    """Refuse what the page forbids and what it defines by figures only."""
    if p.fMatrixCtrl:
        raise AscregError("fMatrixCtrl must be false (the only value the Ascend 950 supports)")
    if p.enSmallK:
        raise AscregError("enSmallK must be false (the page: no longer supported)")
    if d.space == "__cb__" and d.dtype.size == 1:
        legal = ", ".join(t.cpp_name for t in LOAD3D_TYPES if t.size > 1)
        raise AscregTypeError(
            f"an img2col load to L0B (B2) takes {legal}; got {d.dtype.cpp_name} ({LOAD3D_PAGE})"
        )


def _register(value: Any, what: str, setter: str) -> Any:
    if value is None:
        raise AscregError(
            f"the {what} register was never set: call {setter} first or let the load set it "
            "(IsResetLoad3dConfig true)"
        )
    return value


def _pad_value(value: Any, dtype: type[Scalar]) -> Any:
    """Convert a pad value to *dtype* (the raw byte for the fp8 and hifloat8 types).

    A :class:`~ascreg._frontend.cube.PadBits` (set by the C API's ``asc_set_l13d_padding``) is
    the register's code: its low byte for 8-bit types, its low 16 bits for 16-bit types.
    """
    if isinstance(value, PadBits):
        return value.element(dtype)
    if dtype in RAW_PAD:
        code = operands.in_range(value, "padValue (a raw byte for this T)", 0, 255)
        return np.asarray(code, np.uint8).view(dtype.np_dtype)[()]
    return c_cast(dtype, value)


CHANNEL_REMAINDERS = {4: (0, 4), 2: (0, 4, 8), 1: (0, 4, 8, 16)}
"""Per element size, the ``channelSize % C0`` the Ascend 950 takes (LoadData_3D page)."""


def _channel_blocks(channels: int, c0: int, dtype: type[Scalar]) -> int:
    """Return ``C1`` of a channel count (a multiple of C0; the small remainders not modelled)."""
    remainder = channels % c0
    if remainder not in CHANNEL_REMAINDERS[dtype.size]:
        raise AscregError(
            f"channelSize {channels} is not one the Ascend 950 takes for {dtype.cpp_name}: "
            f"a multiple of {c0} plus one of {CHANNEL_REMAINDERS[dtype.size]}"
        )
    if remainder:
        raise UnsupportedError(
            f"channelSize {channels} (not a multiple of C0 = {c0}): the page does not say how L1 "
            f"holds the last channel block ({LOAD3D_PAGE}); ascreg models multiples of C0"
        )
    return channels // c0


def _strides(f: dict[str, int]) -> tuple[int, int]:
    if not (f["strideH"] and f["strideW"]):
        raise UnsupportedError(
            f"strideH {f['strideH']}, strideW {f['strideW']}: a kernel that does not slide is "
            f"not defined ({LOAD3D_PAGE})"
        )
    return f["strideH"], f["strideW"]


def _window(f: dict[str, int], g: _Geometry) -> tuple[Any, Any]:
    """Return the rows and columns of the expanded matrix the load moves (checked)."""
    ho, wo = g.out
    if ho <= 0 or wo <= 0:
        raise AscregError(
            f"the {g.kernel[0]} x {g.kernel[1]} kernel (dilated) does not fit the padded "
            f"{g.height} x {g.width} feature map"
        )
    m0, m, k0, k = f["mStartPt"], f["mExtension"], f["kStartPt"], f["kExtension"]
    if k0 % g.c0:
        raise AscregError(f"kStartPt {k0} must be a multiple of {g.c0} (one 32-byte block)")
    if m % ROWS or k % g.c0:
        raise UnsupportedError(
            f"mExtension {m}, kExtension {k}: a window that ends inside a fractal (not a "
            f"multiple of {ROWS} rows / {g.c0} columns) leaves the rest of the fractal open "
            f"({LOAD3D_PAGE})"
        )
    if m0 + m > ho * wo or k0 + k > g.columns:
        raise AscregError(
            f"the window rows [{m0}, {m0 + m}) x columns [{k0}, {k0 + k}) leaves the "
            f"{ho * wo} x {g.columns} image-to-column matrix"
        )
    return np.arange(m0, m0 + m, dtype=np.int64), np.arange(k0, k0 + k, dtype=np.int64)


def _write_nz(d: Any, values: Any, c0: int, dst_stride: int) -> None:
    """Store *values* NZ at *d*: 16 x C0 fractals, K column blocks *dst_stride* fractals apart."""
    rows, cols = values.shape
    r = np.arange(rows, dtype=np.int64)[:, None]
    c = np.arange(cols, dtype=np.int64)[None, :]
    per_fractal = FRACTAL_BYTES // d.dtype.size
    offsets = ((c // c0) * dst_stride + r // ROWS) * per_fractal + (r % ROWS) * c0 + c % c0
    d.view(int(offsets.max()) + 1, "writes")[offsets] = values


# -- the MX load -------------------------------------------------------------------------------


@attrs.define
class LoadData2DMxParams:
    """``AscendC::LoadData2DMxParams``: the scale-matrix part of an MX ``LoadData``.

    ``xStep`` fractals along M from ``xStartPosition`` and ``yStep`` 32-byte units along K from
    ``yStartPosition``; ``srcStride`` / ``dstStride`` are the distances of consecutive fractals
    in 32-byte units (the MX ``LoadData``; :mod:`ascreg._frontend.cube_mx`).

    Examples
    --------
    >>> LoadData2DMxParams(0, 0, 3, 21, 42, 42).dstStride
    42
    """

    xStartPosition: int = 0
    yStartPosition: int = 0
    xStep: int = 0
    yStep: int = 0
    srcStride: int = 0
    dstStride: int = 0


# -- LoadData ----------------------------------------------------------------------------------


def _LoadData(
    dst: LocalTensor[Any],
    src: LocalTensor[Any],
    *args: Any,
    defaultConfig: IsResetLoad3dConfig | None = None,
) -> None:
    """``LoadData<T[, defaultConfig]>(dst, src, params)``: L1 -> L0A / L0B on PIPE_MTE1.

    *params* is ``LoadData2DParamsV2`` / ``LoadData2DParams`` (the 2D fractal loads, see
    :func:`ascreg.basic._cube._LoadData2D`) or ``LoadData3DParamsV2<T>`` (the img2col load:
    the window of the expanded feature map, see :class:`LoadData3DParamsV2`, lands NZ in L0A,
    its 16 x C0 fractals in column blocks ``dstStride`` fractals apart, ``dstStride`` from
    ``SetLoadDataRepeat``; into L0B its transpose lands so, see :func:`LoadDataWithStride`). *defaultConfig* (``IsResetLoad3dConfig``) says whether the img2col
    load sets its feature-map and pad registers. ``LoadData(dst, src, srcMx, params,
    LoadData2DMxParams)`` is the MX load (:mod:`ascreg._frontend.cube_mx`): the
    matrix as the 2D V2 load, its scales to the L0A_MX / L0B_MX buffer.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a1 = LocalTensor[half](TPosition.A1, 0, 512); a1.GetPhyAddr().write(np.arange(512))
    ...     a2 = LocalTensor[half](TPosition.A2, 0, 512)
    ...     PipeBarrier[PIPE_ALL]()
    ...     LoadData(a2, a1, LoadData2DParamsV2(1, 0, 1, 1, 2, 1, False, 0))
    ...     SetFmatrix(2, 8, [0, 0, 0, 0], FmatrixMode.FMATRIX_LEFT)
    ...     SetLoadDataPaddingValue(0)
    ...     p = LoadData3DParamsV2[half](kExtension=16, mExtension=16, channelSize=16)
    ...     LoadData[half, IsResetLoad3dConfig(False, False)](a2[256], a1, p)
    ...     PipeBarrier[PIPE_ALL]()
    ...     a2.GetPhyAddr().read(258)[[0, 1, 256, 257]].tolist()
    [256.0, 257.0, 0.0, 1.0]
    """
    _ascreg_call = "LoadData"
    if len(args) == 3 and isinstance(args[2], LoadData2DMxParams):
        load_data_mx(dst, src, *args)
        return
    if len(args) != 1:
        raise AscregTypeError(
            "LoadData takes (dst, src, params) or (dst, src, srcMx, LoadData2DParamsV2, "
            "LoadData2DMxParams)"
        )
    (params,) = args
    if isinstance(params, LoadData3DParamsV2):
        _load3d(dst, src, params, defaultConfig or IS_RESER_LOAD3D_DEFAULT_CONFIG)
        return
    if defaultConfig not in (None, IS_RESER_LOAD3D_DEFAULT_CONFIG):
        raise AscregTypeError("defaultConfig is a template parameter of the img2col LoadData only")
    _LoadData2D(dst, src, params)


LoadData = function_template(
    Signature(
        T=(TYPENAME, None),  # deduced from the tensors
        defaultConfig=(instance_of(IsResetLoad3dConfig), IS_RESER_LOAD3D_DEFAULT_CONFIG),
    ),
    name="LoadData",
)(_LoadData)


def _LoadDataWithStride(
    dst: LocalTensor[Any],
    src: LocalTensor[Any],
    loadDataParams: Any,
    *,
    defaultConfig: IsResetLoad3dConfig | None = None,
) -> None:
    """``LoadDataWithStride<T[, defaultConfig]>(dst, src, LoadData3DParamsV2<T>)`` (dav-3510).

    The img2col load of :func:`LoadData` with ``LoadData3DParamsV2`` (the LoadDataWithStride
    page: the same function, its destination's K column blocks ``dstStride`` fractals apart,
    ``dstStride`` from ``SetLoadDataRepeatWithStride``), from L1 (A1 / B1) to L0A (NZ) or L0B.
    The L1 -> L0B load always transposes, an L0A load with ``enTranspose``: it writes the
    window's transpose (a row per column of the window, a column per output pixel) NZ,
    16-row by C0-column fractals, which is the A / B layout ``Mmad`` reads (ascreg's reading
    of the page's "the whole matrix transposed"; for L0B the same as the load_data_l12l0
    example's ``load3d.py`` model).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):  # B (K = 16 positions x N = 16 channels) NZ in L1
    ...     b1 = LocalTensor[half](TPosition.B1, 0, 256); b1.GetPhyAddr().write(np.arange(256))
    ...     b2 = LocalTensor[half](TPosition.B2, 0, 256)
    ...     SetLoadDataRepeatWithStride(LoadDataRepeatParamWithStride(0, 1, 0, 1))
    ...     p = LoadData3DParamsV2[half](l1H=16, l1W=1, channelSize=16, kExtension=16, mExtension=16)
    ...     PipeBarrier[PIPE_ALL]()
    ...     LoadDataWithStride(b2, b1, p)
    ...     PipeBarrier[PIPE_ALL]()
    ...     b2.GetPhyAddr().read(3).tolist()  # row 0 of the transpose: channel 0 of each pixel
    [0.0, 16.0, 32.0]
    """
    _ascreg_call = "LoadDataWithStride"
    if not isinstance(loadDataParams, LoadData3DParamsV2):
        raise AscregTypeError(
            f"loadDataParams must be LoadData3DParamsV2, got {type(loadDataParams).__name__}"
        )
    _load3d(dst, src, loadDataParams, defaultConfig or IS_RESER_LOAD3D_DEFAULT_CONFIG)


LoadDataWithStride = function_template(
    Signature(
        T=(TYPENAME, None),
        defaultConfig=(instance_of(IsResetLoad3dConfig), IS_RESER_LOAD3D_DEFAULT_CONFIG),
    ),
    name="LoadDataWithStride",
)(_LoadDataWithStride)


__all__ = [
    "IS_RESER_LOAD3D_DEFAULT_CONFIG",
    "FmatrixMode",
    "IsResetLoad3dConfig",
    "LoadData",
    "LoadData2DMxParams",
    "LoadData3DParamsV2",
    "LoadDataRepeatParam",
    "LoadDataRepeatParamWithStride",
    "LoadDataWithStride",
    "SetFmatrix",
    "SetLoadDataPaddingValue",
    "SetLoadDataRepeat",
    "SetLoadDataRepeatWithStride",
]
