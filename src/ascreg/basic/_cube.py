"""The cube core in the basic API (dav-3510): ND2NZ / DN2NZ copies, ``LoadData``, ``Mmad``, ...

A matmul moves A and B from GM to L1 with an ND -> NZ conversion (``DataCopy(dst, src,
Nd2NzParams)``, or ``Dn2NzParams`` for a matrix stored column by column; ``PIPE_MTE2``), from L1
to L0A / L0B in 512-byte fractals (``LoadData``, ``PIPE_MTE1``), multiplies into L0C (``Mmad``,
``PIPE_M``) and moves L0C to GM with an NZ -> ND conversion, a cast and an optional ReLU
(``Fixpipe``, ``PIPE_FIX``). Each step's accesses go to the block's pipe tracker, so a kernel
must order them with ``SetFlag`` / ``WaitFlag`` of ``HardEvent::MTE2_MTE1``, ``MTE1_M`` and
``M_FIX`` as on the chip. The layouts and the accumulation model are in :mod:`ascreg.core.cube`;
what the documents leave open is listed in docs/limitations.md.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, float32_t, half
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> gm = GlobalMemory()
>>> a, b, c = gm.alloc(half, 16 * 16), gm.alloc(half, 16 * 16), gm.alloc(float32_t, 16 * 16)
>>> a.write(np.eye(16).reshape(-1)); b.write(np.arange(256) % 7)
>>> aGm, bGm, cGm = GlobalTensor[half](), GlobalTensor[half](), GlobalTensor[float32_t]()
>>> aGm.SetGlobalBuffer(a); bGm.SetGlobalBuffer(b); cGm.SetGlobalBuffer(c)
>>> with block(BlockContext()):
...     a1 = LocalTensor[half](TPosition.A1, 0, 256); b1 = LocalTensor[half](TPosition.B1, 512, 256)
...     DataCopy(a1, aGm, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0))
...     DataCopy(b1, bGm, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0))  # B stored transposed: N x K
...     PipeBarrier[PIPE_ALL]()
...     a2 = LocalTensor[half](TPosition.A2, 0, 256); b2 = LocalTensor[half](TPosition.B2, 0, 256)
...     LoadData(a2, a1, LoadData2DParamsV2(0, 0, 1, 1, 1, 1, False, 0))
...     LoadData(b2, b1, LoadData2DParams(0, 1, 1, 0, 0, False, 0))
...     PipeBarrier[PIPE_ALL]()
...     c1 = LocalTensor[float32_t](TPosition.CO1, 0, 256)
...     Mmad(c1, a2, b2, MmadParams(16, 16, 16))
...     PipeBarrier[PIPE_ALL]()
...     Fixpipe(cGm, c1, FixpipeParamsArch3510(16, 16, 16, 16))
>>> bool((c.read(256).reshape(16, 16) == (np.arange(256) % 7).reshape(16, 16).T).all())
True
"""

from __future__ import annotations

import enum
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import (
    Scalar,
    uint64_t,
)
from ascreg._frontend import operands
from ascreg._frontend.cube import (
    DN2NZ_LIMITS,
    MMAD_LIMIT,
    ND2NZ_LIMITS,
    ROWS,
    SMALL_C0,
    Bursts,
    MmadRun,
    NzCopy,
    OnPipe,
    TransposeRun,
    Window,
    aligned,
    copy_bursts,
    copy_to_nz,
    fractals,
    load_2d,
    load_transposed,
    mmad_types,
    run_mmad,
    unit_acquire,
    unit_flag,
    unit_release,
    unit_reset,
    unit_span,
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
from ascreg._frontend.fixpipe import offsets as fix_offsets
from ascreg.basic._template import (
    BOOLEAN,
    TYPENAME,
    ClassTemplate,
    Signature,
    function_template,
    instance_of,
    member_of,
)
from ascreg.basic._tensor import GlobalTensor, LocalTensor
from ascreg.errors import AscregError, AscregTypeError, UnsupportedError
from ascreg.machine.block import current_block
from ascreg.machine.cube import C0_BYTES, FRACTAL_BYTES, POSITION_BUFFERS
from ascreg.machine.memory import GmPtr, Pointer, UbPtr
from ascreg.machine.sync import PIPE_FIX, PIPE_MTE1, PIPE_MTE2, Pipe

_OnPipe = OnPipe
_aligned = aligned
_fractals = fractals


@attrs.define
class Nd2NzParams:
    """``AscendC::Nd2NzParams`` (dav-3510): a GM -> L1 copy that turns ND matrices into NZ.

    ``ndNum`` matrices of ``nValue`` rows by ``dValue`` columns, rows ``srcDValue`` elements
    apart and matrices ``srcNdMatrixStride`` elements apart in GM, land in L1 as NZ: column
    blocks of 32 bytes, ``dstNzC0Stride`` rows apart, rows ``dstNzNStride`` rows apart (both in
    32-byte rows), matrices ``dstNzMatrixStride`` elements apart. A row's last block is padded
    with zeros.

    Examples
    --------
    >>> Nd2NzParams(1, 30, 70, 0, 70, 32, 1, 0).dstNzC0Stride
    32
    """

    ndNum: int = 0
    nValue: int = 0
    dValue: int = 0
    srcNdMatrixStride: int = 0
    srcDValue: int = 0
    dstNzC0Stride: int = 0
    dstNzNStride: int = 0
    dstNzMatrixStride: int = 0


@attrs.define
class Dn2NzParams:
    """``AscendC::Dn2NzParams`` (dav-3510): a GM -> L1 copy that turns DN matrices into NZ.

    A DN matrix of ``nValue`` rows by ``dValue`` columns is stored column by column: GM holds
    ``dValue`` lines of ``nValue`` elements, ``srcDValue`` elements apart (so element ``(r, c)``
    is at ``c * srcDValue + r``); ``dnNum`` matrices lie ``srcDnMatrixStride`` elements apart.
    Each lands in L1 as the NZ form of the ``nValue x dValue`` matrix, laid out as
    :class:`Nd2NzParams` lays it (``dstNzC0Stride``, ``dstNzNStride``, ``dstNzMatrixStride``):
    DN -> NZ is ND -> ZN of the stored lines.

    Examples
    --------
    >>> Dn2NzParams(1, 40, 56, 0, 40, 48, 1, 0).srcDValue
    40
    """

    dnNum: int = 0
    nValue: int = 0
    dValue: int = 0
    srcDnMatrixStride: int = 0
    srcDValue: int = 0
    dstNzC0Stride: int = 0
    dstNzNStride: int = 0
    dstNzMatrixStride: int = 0


@attrs.define
class LoadData2DParamsV2:
    """``AscendC::LoadData2DParamsV2``: an L1 -> L0A / L0B load of ``mStep x kStep`` fractals.

    Fractal ``(m, k)`` of the window (``m < mStep``, ``k < kStep``) is source fractal
    ``(kStartPosition + k) * srcStride + mStartPosition + m`` and destination fractal
    ``k * dstStride + m`` (fractals of 512 bytes). ``ifTranspose`` transposes the window.

    Examples
    --------
    >>> LoadData2DParamsV2(0, 0, 2, 5, 2, 2, False, 0).kStep
    5
    """

    mStartPosition: int = 0
    kStartPosition: int = 0
    mStep: int = 0
    kStep: int = 0
    srcStride: int = 0
    dstStride: int = 0
    ifTranspose: bool = False
    sid: int = 0


@attrs.define
class LoadData2DParams:
    """``AscendC::LoadData2DParams``: an L1 -> L0A / L0B load of ``repeatTimes`` fractals.

    Repeat ``i`` copies source fractal ``startIndex + i * srcStride`` to destination fractal
    ``i * (1 + dstGap)``; ``ifTranspose`` (b16 only) transposes each 16 x 16 fractal.

    Examples
    --------
    >>> LoadData2DParams(0, 4, 1, 0, 0, False, 0).repeatTimes
    4
    """

    startIndex: int = 0
    repeatTimes: int = 0
    srcStride: int = 0
    sid: int = 0
    dstGap: int = 0
    ifTranspose: bool = False
    addrMode: int = 0


@attrs.define
class MmadParams:
    """``AscendC::MmadParams``: the sizes and the initial-value switches of one ``Mmad``.

    ``cmatrixInitVal`` (default true) starts C at 0; otherwise ``cmatrixSource`` true takes the
    bias row from the bias table (C2) and false keeps L0C's value (accumulation).

    Examples
    --------
    >>> p = MmadParams(16, 32, 64); p.cmatrixInitVal = False; p
    MmadParams(m=16, n=32, k=64, isBias=False, fmOffset=0, enSsparse=False, enWinogradA=False, enWinogradB=False, unitFlag=0, kDirectionAlign=False, cmatrixSource=False, cmatrixInitVal=False, disableGemv=False)
    """

    m: int = 0
    n: int = 0
    k: int = 0
    isBias: bool = False
    fmOffset: int = 0
    enSsparse: bool = False
    enWinogradA: bool = False
    enWinogradB: bool = False
    unitFlag: int = 0
    kDirectionAlign: bool = False
    cmatrixSource: bool = False
    cmatrixInitVal: bool = True
    disableGemv: bool = False


class CO2Layout(enum.Enum):
    """``AscendC::CO2Layout``: the layout ``Fixpipe`` writes (NZ, ND rows, DN columns).

    Examples
    --------
    >>> CO2Layout.ROW_MAJOR.value
    1
    """

    NZ = 0
    ROW_MAJOR = 1
    COLUMN_MAJOR = 2


@attrs.frozen
class FixpipeConfig:
    """``AscendC::FixpipeConfig`` (dav-3510): ``Fixpipe``'s template parameter ``config``.

    ``format`` is the layout the move writes (its params are ``FixpipeParamsArch3510<format>``);
    ``isToUB`` says the destination is UB. The documented constants are :data:`CFG_ROW_MAJOR`
    (the default: NZ2ND), :data:`CFG_NZ` and :data:`CFG_COLUMN_MAJOR` (NZ2DN).

    Examples
    --------
    >>> FixpipeConfig(CO2Layout.NZ), CFG_COLUMN_MAJOR.format.name
    (FixpipeConfig(format=<CO2Layout.NZ: 0>, isToUB=False), 'COLUMN_MAJOR')
    """

    format: CO2Layout = attrs.field(validator=attrs.validators.instance_of(CO2Layout))
    isToUB: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))


CFG_NZ = FixpipeConfig(CO2Layout.NZ)
"""``CFG_NZ``: ``Fixpipe`` writes NZ fractals (NZ2NZ).

Examples
--------
>>> CFG_NZ.format.name
'NZ'
"""
CFG_ROW_MAJOR = FixpipeConfig(CO2Layout.ROW_MAJOR)
"""``CFG_ROW_MAJOR``: ``Fixpipe`` writes ND rows (NZ2ND), the default ``config``."""
CFG_COLUMN_MAJOR = FixpipeConfig(CO2Layout.COLUMN_MAJOR)
"""``CFG_COLUMN_MAJOR``: ``Fixpipe`` writes DN columns (NZ2DN, Ascend 950 only)."""


class QuantMode_t(enum.Enum):
    """``QuantMode_t``: Fixpipe's conversion of the L0C values.

    ascreg models ``NoQuant`` and the casts ``F322F16`` / ``F322BF16`` (round to nearest even);
    the quantising modes raise :class:`~ascreg.errors.UnsupportedError`.

    Examples
    --------
    >>> QuantMode_t.F322BF16.value
    2
    """

    NoQuant = 0
    F322F16 = 1
    F322BF16 = 2
    DEQF16 = 3
    VDEQF16 = 4
    QF322B8_PRE = 5
    VQF322B8_PRE = 6
    REQ8 = 7
    VREQ8 = 8


@attrs.define
class Nz2NdParams:
    """``AscendC::Nz2NdParams``: the matrix count and strides of a ROW_MAJOR ``Fixpipe``.

    ``ndNum`` NZ matrices, ``srcNdStride`` C0 rows apart in L0C and ``dstNdStride`` elements
    apart in GM.

    Examples
    --------
    >>> Nz2NdParams().ndNum
    1
    """

    ndNum: int = 1
    srcNdStride: int = 0
    dstNdStride: int = 0


@attrs.define
class Nz2DnParams:
    """``AscendC::Nz2DnParams``: the matrix count and strides of a COLUMN_MAJOR ``Fixpipe``.

    ``dnNum`` NZ matrices, ``srcNzMatrixStride`` C0 rows apart in L0C (rows of a fractal
    ``srcNzC0Stride`` C0 rows apart) and ``dstDnMatrixStride`` elements apart in GM.

    Examples
    --------
    >>> Nz2DnParams(1, 0, 0, 1).srcNzC0Stride
    1
    """

    dnNum: int = 1
    srcNzMatrixStride: int = 0
    dstDnMatrixStride: int = 0
    srcNzC0Stride: int = 0


class FixpipeParamsArch3510(metaclass=ClassTemplate):
    """``AscendC::FixpipeParamsArch3510<format>``: an L0C -> GM move of ``mSize x nSize``.

    ``srcStride`` is the distance of L0C's column blocks in 16-element rows (the M size
    rounded up to 16); ``dstStride`` is the GM row length in elements (ROW_MAJOR) or the
    distance of the destination column blocks in elements (NZ; the mmad and fixpipe examples'
    reading for dav-3510) or the DN column length (COLUMN_MAJOR). ``quantPre`` and
    ``reluEn`` pick the conversion; ``params`` holds the ``Nz2NdParams`` of a ROW_MAJOR move or
    the ``Nz2DnParams`` of a COLUMN_MAJOR one (a braced ``{1, 0, 0, 1}`` may be a tuple).

    Examples
    --------
    >>> p = FixpipeParamsArch3510[CO2Layout.ROW_MAJOR](40, 30, 32, 40)
    >>> p.format.name, p.params.ndNum, p.quantPre.name
    ('ROW_MAJOR', 1, 'NoQuant')
    """

    template_signatures = (Signature(format=(member_of(CO2Layout), CO2Layout.ROW_MAJOR)),)

    def __init__(
        self,
        nSize: int = 0,
        mSize: int = 0,
        srcStride: int = 0,
        dstStride: int = 0,
        *,
        format: CO2Layout = CO2Layout.ROW_MAJOR,
    ) -> None:
        self.format = format
        self.nSize, self.mSize, self.srcStride, self.dstStride = nSize, mSize, srcStride, dstStride
        self.quantPre = QuantMode_t.NoQuant
        self.deqScalar = 0
        self.reluEn = False
        self.unitFlag = 0
        self.isChannelSplit = False
        self.dualDstCtl = 0
        self.subBlockId = False
        self.params: Any = {
            CO2Layout.ROW_MAJOR: Nz2NdParams,
            CO2Layout.COLUMN_MAJOR: Nz2DnParams,
        }.get(format, int)()

    def __repr__(self) -> str:
        return (
            f"FixpipeParamsArch3510<{self.format.name}>(nSize={self.nSize}, mSize={self.mSize}, "
            f"srcStride={self.srcStride}, dstStride={self.dstStride})"
        )


V220_FIELDS = (
    "nSize", "mSize", "srcStride", "dstStride", "reluEn", "quantPre", "deqScalar", "ndNum",
    "srcNdStride", "dstNdStride", "unitFlag", "isChannelSplit",
)  # fmt: skip
"""The fields of ``FixpipeParamsV220`` in the order of its constructors' arguments."""
V220_LIMITS = {"srcNdStride": (0, 512), "dstNdStride": (0, 65535)}
"""The ranges of the V220 fields that differ from ``FixpipeParamsArch3510``'s."""


class FixpipeParamsV220:
    """``AscendC::FixpipeParamsV220``: an L0C -> GM move, in the form the 950 keeps from V220.

    Built with no argument, the first five fields (``nSize, mSize, srcStride, dstStride,
    reluEn``), eleven (``..., quantPre, deqScalar, ndNum, srcNdStride, dstNdStride,
    unitFlag``) or twelve (``..., isChannelSplit``), as the header's constructors. The layout
    is ``Fixpipe``'s ``config`` (``CFG_ROW_MAJOR``, the default, or ``CFG_NZ``); the fields
    mean what ``FixpipeParamsArch3510``'s do, except one unit: an NZ ``dstStride`` counts
    32-byte blocks (not elements). ``srcNdStride`` counts C0 rows, as there: the 950's header
    copies it into ``Nz2NdParams`` unchanged and the batch_matmul example counts so ("A5: unit
    C0_SIZE"); the Fixpipe page's V220 table says 16 x C0 fractals, the A2 / A3 unit
    (docs/limitations.md).

    Examples
    --------
    >>> p = FixpipeParamsV220(128, 256, 256, 128, False, QuantMode_t.F322F16, 0, 1, 0, 0, 0)
    >>> p.quantPre.name, p.ndNum, p.isChannelSplit
    ('F322F16', 1, False)
    """

    nSize: int
    mSize: int
    srcStride: int
    dstStride: int
    reluEn: bool
    quantPre: QuantMode_t
    deqScalar: int
    ndNum: int
    srcNdStride: int
    dstNdStride: int
    unitFlag: int
    isChannelSplit: bool

    def __init__(self, *args: Any) -> None:
        if len(args) not in (0, 5, 11, 12):
            raise AscregTypeError(
                f"FixpipeParamsV220 takes 0, 5, 11 or 12 arguments ({', '.join(V220_FIELDS)}), "
                f"got {len(args)}"
            )
        defaults = (0, 0, 0, 0, False, QuantMode_t.NoQuant, 0, 1, 0, 0, 0, False)
        for field, value in zip(V220_FIELDS, args + defaults[len(args) :], strict=True):
            setattr(self, field, value)

    def __repr__(self) -> str:
        return (
            f"FixpipeParamsV220(nSize={self.nSize}, mSize={self.mSize}, "
            f"srcStride={self.srcStride}, dstStride={self.dstStride})"
        )

    def as_arch3510(self, layout: CO2Layout, dst_size: int) -> FixpipeParamsArch3510:
        """Return the ``FixpipeParamsArch3510<layout>`` move these fields describe.

        *dst_size* is the bytes of a destination element (an NZ ``dstStride`` is in 32-byte
        blocks here, in elements there).
        """
        if layout is CO2Layout.COLUMN_MAJOR:
            raise AscregTypeError(
                "FixpipeParamsV220 has no NZ2DN fields: a CFG_COLUMN_MAJOR Fixpipe takes "
                "FixpipeParamsArch3510<CO2Layout::COLUMN_MAJOR>"
            )
        for field, (low, high) in V220_LIMITS.items():
            operands.in_range(getattr(self, field), f"FixpipeParamsV220.{field}", low, high)
        if layout is CO2Layout.ROW_MAJOR:
            operands.in_range(self.mSize, "FixpipeParamsV220.mSize (NZ2ND)", 0, 8192)
        if self.nSize % ROWS and not self.isChannelSplit:
            raise AscregError(f"FixpipeParamsV220.nSize {self.nSize} is not a multiple of 16")
        dst_stride = self.dstStride
        if layout is CO2Layout.NZ:
            dst_stride = operands.in_range(dst_stride, "FixpipeParamsV220.dstStride", 1, 2**32 - 1)
            dst_stride = dst_stride * C0_BYTES // dst_size
        moved = FixpipeParamsArch3510(
            self.nSize, self.mSize, self.srcStride, dst_stride, format=layout
        )
        moved.quantPre, moved.deqScalar, moved.reluEn = self.quantPre, self.deqScalar, self.reluEn
        moved.unitFlag, moved.isChannelSplit = self.unitFlag, self.isChannelSplit
        if layout is CO2Layout.ROW_MAJOR:
            moved.params = Nz2NdParams(self.ndNum, self.srcNdStride, self.dstNdStride)
        return moved


# -- helpers ---------------------------------------------------------------------------------


def _local(tensor: Any, role: str, positions: tuple[str, ...]) -> Pointer[Any]:
    """Return the pointer of *tensor*, a LocalTensor at one of *positions* (TPosition names)."""
    if not isinstance(tensor, LocalTensor):
        raise AscregTypeError(f"{role} must be a LocalTensor, got {tensor!r:.60}")
    if tensor.GetPosition()._name_ not in positions:  # _name_: a slot, .name a Python property
        raise AscregTypeError(
            f"{role} is a {tensor.GetPosition().name} tensor but must be at TPosition "
            f"{' / '.join(positions)}"
        )
    ptr = tensor._ptr  # GetPhyAddr() without its copy (a pointer never changes), or its error
    return ptr if ptr is not None else tensor.GetPhyAddr()


def _fields(params: Any, limits: dict[str, tuple[int, int]]) -> dict[str, int]:
    """Check the integer fields of *params* against their documented ranges; return them."""
    name = type(params).__name__
    return {
        field: operands.in_range(getattr(params, field), f"{name}.{field}", low, high)
        for field, (low, high) in limits.items()
    }


# -- DataCopy forms of the cube core ---------------------------------------------------------

NZ_COPIES: dict[type, tuple[str, str, dict[str, tuple[int, int]], bool]] = {
    Nd2NzParams: ("ndNum", "srcNdMatrixStride", ND2NZ_LIMITS, False),
    Dn2NzParams: ("dnNum", "srcDnMatrixStride", DN2NZ_LIMITS, True),
}
"""Per GM -> L1 NZ copy: its matrix count and source matrix stride fields, its ranges, and
whether GM holds each matrix column by column (DN)."""


def is_cube_copy(dst: Any, src: Any, params: Any) -> bool:
    """Return True when ``DataCopy(dst, src, params)`` is a copy of the cube core.

    Examples
    --------
    >>> is_cube_copy(None, None, Nd2NzParams())
    True
    """
    if type(params) in NZ_COPIES:
        return True
    return any(
        isinstance(t, LocalTensor) and t.GetPosition().name in POSITION_BUFFERS for t in (dst, src)
    )


def cube_copy(dst: Any, src: Any, params: Any, enableSmallC0: bool = False) -> None:
    """Run the cube core's ``DataCopy`` forms: GM -> L1 (ND2NZ, DN2NZ or blocks), L1 -> C2 / FB.

    *enableSmallC0* (``DataCopy<T, true>``) packs an ND2NZ / DN2NZ copy of ``dValue <= 4``
    into 4-element C0 rows. The block forms take a count (elements, a multiple of 32 bytes) or
    ``DataCopyParams`` (blocks of ``blockLen`` 32-byte units); GM -> L1 runs on ``PIPE_MTE2``,
    L1 -> the bias table or the fixpipe buffer on ``PIPE_MTE1``.

    Called by ``DataCopy`` (see ``is_cube_copy``).

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     c1 = LocalTensor[float32_t](TPosition.C1, 0, 16); c1.GetPhyAddr().write(range(16))
    ...     c2 = LocalTensor[float32_t](TPosition.C2, 0, 16)
    ...     PipeBarrier[PIPE_ALL]()
    ...     DataCopy(c2, c1, DataCopyParams(1, 2, 0, 0))
    ...     PipeBarrier[PIPE_ALL]()
    ...     c2.GetPhyAddr().read(3).tolist()
    [0.0, 1.0, 2.0]
    """
    _ascreg_call = "DataCopy"
    if type(params) in NZ_COPIES:
        if not isinstance(src, GlobalTensor):
            kind = type(params).__name__[:2].upper()
            raise AscregTypeError(f"the {kind}2NZ DataCopy reads a GlobalTensor (GM -> L1)")
        _to_nz(_local(dst, "dst", ("A1", "B1", "C1")), src.GetPhyAddr(), params, enableSmallC0)
        return
    if enableSmallC0:
        raise AscregTypeError(
            f"DataCopy<T, enableSmallC0 = true> takes Nd2NzParams or Dn2NzParams, got "
            f"{type(params).__name__}"
        )
    if isinstance(src, GlobalTensor):  # GM -> L1, contiguous blocks
        d = _local(dst, "dst", ("A1", "B1", "C1"))
        _aligned(d, C0_BYTES, "dst")
        _block_copy(d, src.GetPhyAddr(), params, PIPE_MTE2)
        return
    d = _local(dst, "dst", ("C2", "C2PIPE2GM"))
    _aligned(d, 64, "dst")
    _block_copy(d, _local(src, "src", ("C1",)), params, PIPE_MTE1)


def _to_nz(dst: Pointer[Any], src: GmPtr[Any], params: Any, small_c0: bool) -> None:
    """Run an ND2NZ or DN2NZ copy: each GM matrix, read as ``nValue x dValue``, lands NZ in L1."""
    count_field, stride_field, limits, column_major = NZ_COPIES[type(params)]
    if dst.dtype is not src.dtype:
        raise AscregTypeError(
            f"dst holds {dst.dtype.cpp_name} but src holds {src.dtype.cpp_name} (one template T)"
        )
    if small_c0:  # the strides of the C0 blocks are not used
        limits = {k: v for k, v in limits.items() if k not in ("dstNzC0Stride", "dstNzNStride")}
    f = _fields(params, limits)
    copy = NzCopy(
        f[count_field], f["nValue"], f["dValue"], f[stride_field], f["srcDValue"],
        f.get("dstNzC0Stride", 1), f.get("dstNzNStride", 1), f["dstNzMatrixStride"],
        column_major, small_c0,
    )  # fmt: skip
    if small_c0 and copy.d > SMALL_C0:
        raise AscregError(
            f"enableSmallC0 takes dValue <= {SMALL_C0}, got {type(params).__name__}.dValue {copy.d}"
        )
    copy_to_nz(dst, src, copy, f"{type(params).__name__}.dstNzMatrixStride")


def _block_copy(dst: Pointer[Any], src: Pointer[Any], params: Any, pipe: Pipe) -> None:
    """Copy ``blockCount`` blocks of ``blockLen`` 32-byte units (a count: one block) on *pipe*."""
    if dst.dtype is not src.dtype:
        raise AscregTypeError(
            f"dst holds {dst.dtype.cpp_name} but src holds {src.dtype.cpp_name} (one template T)"
        )
    if type(params).__name__ == "DataCopyParams":  # ascreg.basic._copy's struct
        count = operands.in_range(params.blockCount, "DataCopyParams.blockCount", 0, 4095)
        nbytes = operands.in_range(params.blockLen, "DataCopyParams.blockLen", 0, 65535) * C0_BYTES
        gaps = [
            operands.in_range(v, f"DataCopyParams.{n}", 0, 65535) * C0_BYTES
            for n, v in (("srcStride", params.srcStride), ("dstStride", params.dstStride))
        ]
    else:
        elements = operands.integer(params, "count")
        count, nbytes, gaps = 1, elements * dst.dtype.size, [0, 0]
        if elements <= 0 or nbytes % C0_BYTES:
            raise AscregError(
                f"count {params} x {dst.dtype.size} bytes is not a positive multiple of 32"
            )
    if isinstance(src, GmPtr):
        ctx = current_block()
        for i in range(count):
            track_gm(ctx, src.offset_bytes(i * (nbytes + gaps[0])), nbytes, write=False)
    copy_bursts(dst, src, Bursts(count, nbytes, gaps[0], gaps[1]), pipe)


# -- LoadData ----------------------------------------------------------------------------------

V2_LIMITS = {
    "mStartPosition": (0, 65535),
    "kStartPosition": (0, 65535),
    "mStep": (0, 255),
    "kStep": (0, 255),
    "srcStride": (0, 65535),
    "dstStride": (0, 65535),
}
"""Ranges of the ``LoadData2DParamsV2`` fields (the steps' documented, the others their types')."""
V1_LIMITS = {"startIndex": (0, 65535), "repeatTimes": (0, 255), "srcStride": (0, 65535), "dstGap": (0, 65535)}  # fmt: skip
"""Ranges of the ``LoadData2DParams`` fields (LoadData 2D page)."""


def _LoadData2D(dst: LocalTensor[Any], src: LocalTensor[Any], loadDataParams: Any) -> None:
    """``LoadData(dst, src, LoadData2DParamsV2 | LoadData2DParams)``: L1 -> L0A / L0B (MTE1).

    Moves 512-byte fractals from an L1 tensor (A1 / B1) to an L0A (A2) or L0B (B2) tensor; see
    :class:`LoadData2DParamsV2` and :class:`LoadData2DParams`. A transposing V2 load transposes
    the whole ``mStep x kStep`` window read as an NZ matrix (16-row by 32-byte fractals) and
    writes it NZ with ``dstStride`` fractals between column blocks. ``LoadData`` (in
    :mod:`ascreg.basic._load3d`, with the img2col and MX forms) calls it.
    """
    d = _local(dst, "dst", ("A2", "B2"))
    s = _local(src, "src", ("A1", "B1"))
    if isinstance(loadDataParams, LoadData2DParamsV2):
        f = _fields(loadDataParams, V2_LIMITS)
        window = Window(
            f["mStartPosition"], f["kStartPosition"], f["mStep"], f["kStep"], f["srcStride"],
            f["dstStride"], bool(loadDataParams.ifTranspose), ("mStep", "kStep"),
        )  # fmt: skip
        load_2d(d, s, window)
    elif isinstance(loadDataParams, LoadData2DParams):
        if d.dtype is not s.dtype:
            raise AscregTypeError(
                f"dst holds {d.dtype.cpp_name} but src holds {s.dtype.cpp_name} (one template T)"
            )
        _aligned(d, FRACTAL_BYTES, "dst")
        _aligned(s, C0_BYTES, "src")
        _load_v1(d, s, loadDataParams)
    else:
        raise AscregTypeError(
            "loadDataParams must be LoadData2DParamsV2, LoadData2DParams or LoadData3DParamsV2, "
            f"got {type(loadDataParams).__name__}"
        )


def _load_v1(d: Pointer[Any], s: Pointer[Any], params: LoadData2DParams) -> None:
    f = _fields(params, V1_LIMITS)
    if params.ifTranspose and d.dtype.size != 2:
        raise AscregError("a transposing LoadData2DParams load takes b16 elements only")
    if params.addrMode:
        raise AscregError("addrMode must be 0 on the L1 -> L0 path (GM -> L1 only)")
    repeats = np.arange(f["repeatTimes"], dtype=np.int64)
    if not repeats.size:
        return
    src_ids = f["startIndex"] + repeats * f["srcStride"]
    dst_ids = repeats * (1 + f["dstGap"])
    ctx = current_block()
    with _OnPipe(ctx, PIPE_MTE1):
        data = _fractals(s, int(src_ids.max()) + 1, "reads")[src_ids]
        if params.ifTranspose:
            typed = data.view(d.dtype.np_dtype).reshape(-1, ROWS, ROWS).transpose(0, 2, 1)
            data = np.ascontiguousarray(typed).view(np.uint8).reshape(-1, FRACTAL_BYTES)
        _fractals(d, int(dst_ids.max()) + 1, "writes")[dst_ids] = data


@attrs.define
class LoadData2dTransposeParams:
    """``AscendC::LoadData2dTransposeParams``: a ``LoadDataWithTranspose`` in square units.

    Repeat ``i`` transposes square ``startIndex + i * srcStride`` of the source (2 fractals for
    b8 and b32, 1 for b16) into fractals ``i * (1 + dstGap) + j * (1 + dstFracGap)``.

    Examples
    --------
    >>> LoadData2dTransposeParams(0, 2, 3, 1, 0).dstGap
    1
    """

    startIndex: int = 0
    repeatTimes: int = 0
    srcStride: int = 0
    dstGap: int = 0
    dstFracGap: int = 0
    addrMode: int = 0


@attrs.define
class LoadData2dTransposeParamsV2:
    """``AscendC::LoadData2dTransposeParamsV2`` (dav-3510): the same load in fractal units.

    Repeat ``i`` reads fractals ``startIndex + i * srcStride + j * (1 + srcFracGap)``.

    Examples
    --------
    >>> LoadData2dTransposeParamsV2(0, 1, 2, 0, 0, 1).srcFracGap
    1
    """

    startIndex: int = 0
    repeatTimes: int = 0
    srcStride: int = 0
    dstGap: int = 0
    dstFracGap: int = 0
    srcFracGap: int = 0
    addrMode: int = 0


TRANSPOSE_LIMITS = {"startIndex": (0, 65535), "repeatTimes": (0, 255), "srcStride": (0, 65535), "dstGap": (0, 65535), "dstFracGap": (0, 65535)}  # fmt: skip
"""Ranges of the ``LoadData2dTransposeParams[V2]`` fields."""


def LoadDataWithTranspose(
    dst: LocalTensor[Any], src: LocalTensor[Any], loadDataParams: Any
) -> None:
    """``LoadDataWithTranspose(dst, src, LoadData2dTransposeParams[V2])``: L1 -> L0B (MTE1).

    Each repeat reads one square of the source (its fractals as an NZ window, see
    ``ascreg._frontend.cube.SQUARE_BLOCKS``), transposes it and writes its fractals in NZ
    order, the first at ``i * (1 + dstGap)`` fractals and the next ``1 + dstFracGap`` fractals
    apart. The Ascend 950 has the L1 -> L0B path only.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import int8_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     b1 = LocalTensor[int8_t](TPosition.B1, 0, 1024)
    ...     b1.GetPhyAddr().write((np.arange(1024) % 100).astype(np.int8))
    ...     b2 = LocalTensor[int8_t](TPosition.B2, 0, 1024)
    ...     PipeBarrier[PIPE_ALL]()
    ...     LoadDataWithTranspose(b2, b1, LoadData2dTransposeParams(0, 1, 0, 0, 0))
    ...     PipeBarrier[PIPE_ALL]()
    ...     b2.GetPhyAddr().read(3).tolist()  # column 0 of the 32 x 32 square
    [0, 32, 64]
    """
    _ascreg_call = "LoadDataWithTranspose"
    d = _local(dst, "dst", ("B2",))
    s = _local(src, "src", ("B1", "A1"))
    v2 = isinstance(loadDataParams, LoadData2dTransposeParamsV2)
    if not (v2 or isinstance(loadDataParams, LoadData2dTransposeParams)):
        raise AscregTypeError(
            "loadDataParams must be LoadData2dTransposeParams or LoadData2dTransposeParamsV2"
        )
    f = _fields(loadDataParams, TRANSPOSE_LIMITS)
    if loadDataParams.addrMode:
        raise UnsupportedError("addrMode 1 (decreasing source addresses) is not emulated")
    gap = operands.in_range(loadDataParams.srcFracGap, "srcFracGap", 0, 65535) if v2 else None
    run = TransposeRun(
        f["startIndex"], f["repeatTimes"], f["srcStride"], f["dstGap"], f["dstFracGap"], gap
    )
    load_transposed(d, s, run)


# -- Mmad --------------------------------------------------------------------------------------


def Mmad(dst: LocalTensor[Any], fm: LocalTensor[Any], filter: LocalTensor[Any], *rest: Any) -> None:
    """``Mmad(dst, fm, filter[, bias], MmadParams)``: ``C = A x B + C`` on the cube (PIPE_M).

    *fm* (A2, NZ) is M x K, *filter* (B2, ZN) is K x N and *dst* (CO1, NZ) M x N, with
    ``M = ceil(m / 16)`` 16-row blocks, ``N = ceil(n / 16)`` and the K columns of ``k`` (the
    padding of a fractal is computed too, from whatever the buffers hold, and lands in L0C's
    padding). C starts at 0 (``cmatrixInitVal`` and not ``isBias``), at the bias row broadcast
    over the rows (the *bias* tensor (C2), or the bias table at address 0 when
    ``cmatrixSource``), or at L0C's value. With ``m == 1`` and ``disableGemv`` false, A is read as one ND row (GEMV). The
    arithmetic is :func:`ascreg.core.cube.mmad`.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import int8_t, int32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a = LocalTensor[int8_t](TPosition.A2, 0, 512); a.GetPhyAddr().write(np.ones(512, np.int8))
    ...     b = LocalTensor[int8_t](TPosition.B2, 0, 512); b.GetPhyAddr().write(np.full(512, 3, np.int8))
    ...     c = LocalTensor[int32_t](TPosition.CO1, 0, 256)
    ...     PipeBarrier[PIPE_ALL]()
    ...     Mmad(c, a, b, MmadParams(16, 16, 32))
    ...     PipeBarrier[PIPE_ALL]()
    ...     c.GetPhyAddr().read(2).tolist()
    [96, 96]
    """
    _ascreg_call = "Mmad"
    run_mmad(*_mmad_operands("Mmad", dst, fm, filter, rest, mmad_types))


def _mmad_operands(
    name: str, dst: Any, fm: Any, filter: Any, rest: tuple[Any, ...], types: Any
) -> tuple[Pointer[Any], Pointer[Any], Pointer[Any], Pointer[Any] | None, MmadRun]:
    """Check ``Mmad`` / ``MmadMx``'s operands (*types* checks the dtypes); return their run.

    ``isBias`` turns ``cmatrixInitVal`` off, as the dav-3510 header does (``Mmad`` ignored it
    before the MX forms; a kernel setting it without a bias keeps L0C or the bias table).
    """
    if len(rest) not in (1, 2):
        raise AscregTypeError(
            f"{name} takes (dst, fm, filter, mmadParams) or (..., bias, mmadParams)"
        )
    *bias, params = rest
    if not isinstance(params, MmadParams):
        raise AscregTypeError(f"mmadParams must be MmadParams, got {type(params).__name__}")
    c, a, b = (
        _local(dst, "dst", ("CO1",)),
        _local(fm, "fm", ("A2",)),
        _local(filter, "filter", ("B2",)),
    )
    bias_ptr = _bias(bias[0], types(c, a, b)) if bias else None
    in_range = operands.in_range
    m = in_range(params.m, "MmadParams.m", 0, MMAD_LIMIT)
    n = in_range(params.n, "MmadParams.n", 0, MMAD_LIMIT)
    k = in_range(params.k, "MmadParams.k", 0, MMAD_LIMIT)
    flag = unit_flag(params.unitFlag, "MmadParams.unitFlag")
    init_zero = bool(params.cmatrixInitVal) and not params.isBias
    run = MmadRun(
        m, n, k, init_zero, bool(params.cmatrixSource), bool(params.disableGemv), flag
    )  # fmt: skip
    return c, a, b, bias_ptr, run


def _bias(tensor: Any, out: type[Scalar]) -> Pointer[Any]:
    ptr = _local(tensor, "bias", ("C2",))
    if ptr.dtype is not out:
        raise AscregTypeError(f"the bias holds {ptr.dtype.cpp_name} but dst holds {out.cpp_name}")
    _aligned(ptr, 64, "bias")
    return ptr


# -- Fixpipe -----------------------------------------------------------------------------------


def _Fixpipe(
    dst: GlobalTensor[Any] | LocalTensor[Any],
    src: LocalTensor[Any],
    *args: Any,
    dstT: type[Scalar] | None = None,
    srcT: type[Scalar] | None = None,
    config: FixpipeConfig | None = None,
) -> None:
    """``Fixpipe<T, U, config>(dst, src[, cbufWorkspace], FixpipeParamsArch3510<config.format>)``.

    Moves L0C to GM (a ``GlobalTensor`` *dst*), to L1 (a ``LocalTensor`` at ``A1`` / ``B1`` /
    ``C1``, 32-byte aligned; the "L0C到L1" page) or to UB on PIPE_FIX:
    ``Fixpipe[half, float32_t, CFG_NZ](dst, src, params)`` checks
    that *dst* holds ``T``, *src* holds ``U`` and the params are
    ``FixpipeParamsArch3510<config.format>`` (``config.isToUB`` exactly when *dst* is in UB);
    a plain call takes the layout of its params (where C++ would default to ``CFG_ROW_MAJOR``).
    A UB *dst* (32-byte aligned; the "L0C到UB" page) needs a ``config`` with ``isToUB`` true and
    is the tensor's own UB: ``subBlockId`` / ``dualDstCtl`` other than 0 raise
    :class:`~ascreg.errors.UnsupportedError` (as ``asc_copy_l0c2ub``'s ``sub_blockid`` /
    ``dual_dst_ctl``). Channel split and the store-atomic modes apply to GM only.

    Reads ``mSize x nSize`` of the NZ matrix in L0C (``srcStride`` rows between its column
    blocks), applies ``reluEn`` (``max(x, 0)``) and the ``quantPre`` cast (round to nearest
    even), and writes it to GM as ND rows of ``dstStride`` elements (``CO2Layout::ROW_MAJOR``,
    ``params.ndNum`` matrices), as DN columns of ``dstStride`` elements
    (``CO2Layout::COLUMN_MAJOR``, ``params.dnNum`` matrices) or as NZ (``CO2Layout::NZ``:
    column blocks ``dstStride`` elements apart, of 16-element rows, 8 with ``isChannelSplit``).
    The layout is the params' template argument (C++ passes the matching ``FixpipeConfig``).
    ``QF322B8_PRE`` quantises float to int8 / uint8 with the word ``deqScalar``,
    ``VQF322B8_PRE`` with one word per column from *cbufWorkspace* (a ``LocalTensor<uint64_t>``
    at ``TPosition::C1``); the arithmetic is :func:`ascreg.core.cube.quantize_b8`. Under a
    store-atomic mode (``SetAtomicAdd<T>`` ...; T the GM type) each element combines into GM
    as a UB -> GM copy's does, exempt from the cross-block race check.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, float32_t, half
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> out = GlobalMemory().alloc(half, 2 * 16); outGm = GlobalTensor[half](); outGm.SetGlobalBuffer(out)
    >>> with block(BlockContext()):
    ...     c = LocalTensor[float32_t](TPosition.CO1, 0, 256); c.GetPhyAddr().write(np.arange(256) - 20)
    ...     p = FixpipeParamsArch3510(16, 2, 16, 16); p.quantPre = QuantMode_t.F322F16; p.reluEn = True
    ...     PipeBarrier[PIPE_ALL]()
    ...     Fixpipe[half, float32_t, CFG_ROW_MAJOR](outGm, c, p)
    >>> out.read(32).reshape(2, 16)[:, :3].tolist()
    [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    """
    _ascreg_call = "Fixpipe"
    if len(args) not in (1, 2) or not isinstance(
        args[-1], FixpipeParamsArch3510 | FixpipeParamsV220
    ):
        raise AscregTypeError(
            "Fixpipe takes (dst, src, params) or (dst, src, cbufWorkspace, params), the params "
            "a FixpipeParamsArch3510 or a FixpipeParamsV220"
        )
    s, d, p = _local(src, "src", ("CO1",)), _fixpipe_dst(dst), args[-1]
    if isinstance(p, FixpipeParamsV220):  # its layout is the config's (C++: CFG_ROW_MAJOR)
        p = p.as_arch3510((config or CFG_ROW_MAJOR).format, d.dtype.size)
    p = _braced(p)
    _check_config(d.dtype, s.dtype, p, dstT, srcT, config, isinstance(d, UbPtr))
    _aligned(s, 64, "src")
    out = _fix_out(p)
    if isinstance(d, UbPtr):
        out = attrs.evolve(out, sub=int(p.subBlockId), dual=int(p.dualDstCtl))
        check_dual(out, p.quantPre.name != "NoQuant", bool(p.reluEn))
    if out.channel_split and not isinstance(d, GmPtr):
        raise AscregError("isChannelSplit applies to L0C -> GM only (the L0C -> L1 page)")
    check_split(s.dtype, d.dtype, out)
    flag = _fixpipe_unit_flag(p)
    if not (out.m and out.n and out.count):
        return
    ctx = current_block()
    units = unit_span(s, _fixpipe_extent(out) * s.dtype.size)
    unit_acquire(ctx, units, flag, write=False)
    with _OnPipe(ctx, PIPE_FIX):  # the vector quantisation words are read on PIPE_FIX
        convert = _converter(s.dtype, d.dtype, p, args[0] if len(args) == 2 else None)
    run_fixpipe(d, s, out, convert)
    unit_release(ctx, units, flag, write=False)


def _fix_out(p: FixpipeParamsArch3510) -> FixOut:
    """Check the sizes and strides of *p*; return the move it describes."""
    n = operands.in_range(p.nSize, "nSize", 0, 4095)
    m = operands.in_range(p.mSize, "mSize", 0, 65535)
    src_stride = operands.in_range(p.srcStride, "srcStride", 0, 65535)
    dst_stride = operands.in_range(p.dstStride, "dstStride", 1, 2**32 - 1)
    split = bool(p.isChannelSplit)
    if p.format is CO2Layout.ROW_MAJOR:
        count = operands.in_range(p.params.ndNum, "Nz2NdParams.ndNum", 0, 65535)
        return FixOut(n, m, src_stride, dst_stride, "nd", count, p.params.srcNdStride,
                      p.params.dstNdStride, channel_split=split)  # fmt: skip
    if p.format is CO2Layout.COLUMN_MAJOR:
        count = operands.in_range(p.params.dnNum, "Nz2DnParams.dnNum", 0, 65535)
        return FixOut(n, m, src_stride, dst_stride, "dn", count, p.params.srcNzMatrixStride,
                      p.params.dstDnMatrixStride, p.params.srcNzC0Stride, split)  # fmt: skip
    return FixOut(n, m, src_stride, dst_stride, "nz", channel_split=split)


def _fixpipe_unit_flag(p: FixpipeParamsArch3510) -> int:
    """Check ``p.unitFlag`` (0, 2 or 3; not with an NZ2DN move of ``srcNzC0Stride`` > 1)."""
    flag = unit_flag(p.unitFlag, "FixpipeParamsArch3510.unitFlag")
    if flag and p.format is CO2Layout.COLUMN_MAJOR and p.params.srcNzC0Stride != 1:
        raise AscregError(
            f"unitFlag {flag} with an NZ2DN move of srcNzC0Stride {p.params.srcNzC0Stride}: the "
            "Fixpipe page allows the unit flag only with srcNzC0Stride 1"
        )
    return flag


def _fixpipe_extent(out: FixOut) -> int:
    """Return the L0C elements a Fixpipe's reads span from its src (its unit-flag blocks)."""
    rows, cols = np.arange(out.m, dtype=np.int64)[:, None], np.arange(out.n, dtype=np.int64)
    return max(int(fix_offsets(out, rows, cols, i, 4)[0].max()) + 1 for i in range(out.count))


FIXPIPE_L1 = ("A1", "B1", "C1")
"""The L1 positions a Fixpipe may write (the "Fixpipe（L0C到L1数据搬运）" page names C1)."""


def _fixpipe_dst(dst: Any) -> Pointer[Any]:
    """Return the pointer of a Fixpipe's *dst*: GM, L1 or UB (those 32-byte aligned)."""
    if isinstance(dst, GlobalTensor):
        return dst.GetPhyAddr()
    if isinstance(dst, LocalTensor) and isinstance(dst.GetPhyAddr(), UbPtr):
        d: Pointer[Any] = dst.GetPhyAddr()
    else:
        d = _local(dst, "dst", FIXPIPE_L1)
    _aligned(d, C0_BYTES, "dst")
    return d


Fixpipe = function_template(
    Signature(
        dstT=(TYPENAME, None),  # deduced from the tensors
        srcT=(TYPENAME, None),
        config=(instance_of(FixpipeConfig), CFG_ROW_MAJOR),
    ),
    name="Fixpipe",
)(_Fixpipe)


@function_template(Signature(T=(TYPENAME, None), setRelu=(BOOLEAN, False)), name="SetFixPipeConfig")
def SetFixPipeConfig(*args: Any, T: type[Scalar] | None = None, setRelu: bool = False) -> None:
    """``SetFixPipeConfig<T[, setRelu]>(preData[, isUnitFlag])`` or ``(reluPre, quantPre[, isUnitFlag])``.

    ascreg models the unit-flag form: *preData* a ``CO1`` tensor and ``isUnitFlag`` true set
    the unit flag of every L0C block to 0 (``UnitFlag.md``; ``Mmad`` and ``Fixpipe`` with
    ``unitFlag`` 2 or 3 wait on them). Setting the quantisation tensor from the Fixpipe Buffer
    (``C2PIPE2GM``) is an :class:`~ascreg.errors.UnsupportedError`: ascreg's ``Fixpipe`` takes
    its words from ``deqScalar`` or *cbufWorkspace*. ``setRelu`` must be false (the page).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t, half
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     a = LocalTensor[half](TPosition.A2, 0, 256); b = LocalTensor[half](TPosition.B2, 0, 256)
    ...     c = LocalTensor[float32_t](TPosition.CO1, 0, 256)
    ...     p = MmadParams(16, 16, 16); p.unitFlag = 3
    ...     Mmad(c, a, b, p)  # its L0C blocks' flags are now 1: a unit-flag Mmad would wait
    ...     SetFixPipeConfig[float32_t](c, True)
    ...     Mmad(c, a, b, p)
    """
    _ascreg_call = "SetFixPipeConfig"
    if setRelu:
        raise AscregError("setRelu must be false: the one-tensor form sets the quant tensor only")
    tensors = [a for a in args if isinstance(a, LocalTensor)]
    rest = args[len(tensors) :]
    if len(tensors) not in (1, 2) or len(rest) > 1:
        raise AscregTypeError(
            "SetFixPipeConfig takes (preData[, isUnitFlag]) or (reluPre, quantPre[, isUnitFlag])"
        )
    is_unit_flag = rest[0] if rest else False
    if not isinstance(is_unit_flag, bool | np.bool_):
        raise AscregTypeError(f"isUnitFlag must be a bool, got {is_unit_flag!r:.40}")
    if len(tensors) == 2 or tensors[0].GetPosition().name != "CO1":
        raise UnsupportedError(
            "SetFixPipeConfig with a quantisation tensor in the Fixpipe Buffer: ascreg's Fixpipe "
            "takes its words from deqScalar or cbufWorkspace (docs/limitations.md)"
        )
    _local(tensors[0], "preData", ("CO1",))
    if is_unit_flag:
        unit_reset(current_block())


def _check_config(
    dst: type[Scalar],
    src: type[Scalar],
    p: FixpipeParamsArch3510,
    dstT: type[Scalar] | None,
    srcT: type[Scalar] | None,
    config: FixpipeConfig | None,
    to_ub: bool = False,
) -> None:
    """Check the template arguments of ``Fixpipe<T, U, config>`` against its operands.

    A move to UB needs ``config.isToUB`` (the L0C -> UB page: ``CFG_ROW_MAJOR`` and the other
    constants may not be used) and no dual destination or other sub-block.
    """
    for role, held, wanted in (("dst", dst, dstT), ("src", src, srcT)):
        if wanted is not None and held is not wanted:
            raise AscregTypeError(
                f"{role} holds {held.cpp_name} but the template argument says {wanted.cpp_name}"
            )
    if to_ub:
        _check_to_ub(p, config)
    if config is None:
        return
    if config.isToUB and not to_ub:
        raise AscregTypeError("config.isToUB is true (an L0C -> UB move) but dst is in GM or L1")
    if p.format is not config.format:
        raise AscregTypeError(
            f"config.format is CO2Layout::{config.format.name}, so the params must be "
            f"FixpipeParamsArch3510<CO2Layout::{config.format.name}>, got "
            f"FixpipeParamsArch3510<CO2Layout::{p.format.name}>"
        )


def _check_to_ub(p: FixpipeParamsArch3510, config: FixpipeConfig | None) -> None:
    """Check an L0C -> UB move: ``isToUB`` set, one destination, sub-block 0."""
    if config is None or not config.isToUB:
        raise AscregTypeError(
            "a UB dst needs Fixpipe[T, U, config] with config.isToUB true (the L0C -> UB page: "
            "e.g. FixpipeConfig(CO2Layout.ROW_MAJOR, True)); got "
            f"{'no config' if config is None else config}"
        )
    if not isinstance(p.subBlockId, bool | int | np.integer) or p.subBlockId not in (0, 1):
        raise AscregError(f"subBlockId must be 0 or 1 (false / true), got {p.subBlockId!r}")
    operands.in_range(p.dualDstCtl, "dualDstCtl", 0, 3)


def _converter(src: type[Scalar], dst: type[Scalar], p: FixpipeParamsArch3510, work: Any) -> Any:
    """Return ``convert(values, cols)`` of the Fixpipe's ``quantPre`` (checked against dst)."""
    mode = p.quantPre.name
    if is_b8(src, dst, mode):
        if QUANT_B8[mode] != (work is not None):
            raise AscregTypeError(f"quantPre {mode} takes cbufWorkspace only in vector mode")
        words = _quant_words(work, p) if work is not None else np.array([p.deqScalar], np.uint64)
        return b8_converter(words, p.reluEn, dst)
    if work is not None:
        raise AscregTypeError(f"quantPre {mode} takes no cbufWorkspace")
    return cast_converter(src, dst, mode, p.reluEn)


def _quant_words(work: Any, p: FixpipeParamsArch3510) -> Any:
    """Read the ``nSize`` quantisation words of a vector-quantising Fixpipe from L1."""
    ptr = _local(work, "cbufWorkspace", ("C1",))
    if ptr.dtype is not uint64_t:
        raise AscregTypeError(f"cbufWorkspace holds {ptr.dtype.cpp_name}, not uint64_t")
    _aligned(ptr, C0_BYTES, "cbufWorkspace")
    return ptr.view(operands.in_range(p.nSize, "nSize", 0, 4095), "reads").copy()


def _braced(p: FixpipeParamsArch3510) -> FixpipeParamsArch3510:
    """Turn ``params`` written as a C++ braced list (a tuple) into its struct."""
    if isinstance(p.params, tuple):
        kind = {CO2Layout.ROW_MAJOR: Nz2NdParams, CO2Layout.COLUMN_MAJOR: Nz2DnParams}.get(p.format)
        if kind is None:
            raise AscregTypeError("a CO2Layout::NZ move takes no transform params")
        p.params = kind(*p.params)
    return p


__all__ = [
    "CFG_COLUMN_MAJOR",
    "CFG_NZ",
    "CFG_ROW_MAJOR",
    "CO2Layout",
    "Dn2NzParams",
    "Fixpipe",
    "FixpipeConfig",
    "FixpipeParamsArch3510",
    "FixpipeParamsV220",
    "LoadData2DParams",
    "LoadData2DParamsV2",
    "LoadData2dTransposeParams",
    "LoadData2dTransposeParamsV2",
    "LoadDataWithTranspose",
    "Mmad",
    "MmadParams",
    "Nd2NzParams",
    "Nz2DnParams",
    "Nz2NdParams",
    "QuantMode_t",
    "SetFixPipeConfig",
]
