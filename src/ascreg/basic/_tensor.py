"""``GlobalTensor<T>``, ``LocalTensor<T>`` and ``TPosition`` of the basic API.

A tensor is a typed view: a pointer into GM or this block's UB plus an element count. Indexing
(``xGm[offset]``) gives a view that starts *offset* elements later; ``GetValue`` / ``SetValue``
are scalar accesses (the scalar pipe, for a LocalTensor). Template arguments are subscripts:
``GlobalTensor[float32_t]()``.
"""

from __future__ import annotations

import enum
from typing import Any, Generic, TypeVar, overload

import attrs
import numpy as np

from ascreg._dtypes import Scalar, c_cast, is_scalar_type
from ascreg._frontend import operands
from ascreg.basic._template import TYPENAME, Signature, member_of, member_template, need
from ascreg.errors import (
    AlignmentError,
    AscregError,
    AscregTypeError,
    OutOfBoundsError,
    mark_pure,
)
from ascreg.machine.block import current_block
from ascreg.machine.complex import is_complex_type
from ascreg.machine.cube import POSITION_BUFFERS, cube_tensor_pointer
from ascreg.machine.memory import DATA_BLOCK, GmPtr, UbPtr

T = TypeVar("T", bound=Scalar)
U = TypeVar("U", bound=Scalar)


class TPosition(enum.Enum):
    """``AscendC::TPosition``: the logical place a tensor or queue lives in.

    The vector core uses ``GM``, ``VECIN`` (data copied in), ``VECOUT`` (results to copy out)
    and ``VECCALC`` (scratch); ``A1`` / ``B1`` / ``C1`` (L1), ``A2`` (L0A), ``B2`` (L0B), ``CO1``
    (L0C), ``C2`` (the bias table) and ``C2PIPE2GM`` (the fixpipe buffer) are the cube core's
    buffers (:mod:`ascreg.machine.cube`); the others are kept for spelling.

    Examples
    --------
    >>> TPosition.VECIN.name, TPosition.LCM is TPosition.VECCALC
    ('VECIN', True)
    """

    GM = 0
    A1 = 1
    A2 = 2
    B1 = 3
    B2 = 4
    C1 = 5
    C2 = 6
    CO1 = 7
    CO2 = 8
    VECIN = 9
    VECOUT = 10
    VECCALC = 11
    LCM = 11
    SPM = 12
    SHM = 12
    TSCM = 13
    C2PIPE2GM = 14
    C2PIPE2LOCAL = 15
    MAX = 16


QuePosition = TPosition
"""``AscendC::QuePosition``: the C++ alias of :class:`TPosition` (``using QuePosition = TPosition``).

Examples
--------
>>> QuePosition.VECIN is TPosition.VECIN
True
"""


class CacheMode(enum.Enum):
    """``AscendC::CacheMode``: whether a GlobalTensor's data goes through the L2 cache.

    Examples
    --------
    >>> CacheMode.CACHE_MODE_DISABLE.value
    0
    """

    CACHE_MODE_DISABLE = 0
    CACHE_MODE_NORMAL = 1
    CACHE_MODE_LAST = 2
    CACHE_MODE_PERSISTENT = 4


class CacheRwMode(enum.Enum):
    """``AscendC::CacheRwMode``: the L2 read/write mode of ``SetL2CacheHint`` (reserved).

    Examples
    --------
    >>> CacheRwMode.RW.value
    3
    """

    READ = 1
    WRITE = 2
    RW = 3


UB_POSITIONS = (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC)
"""The positions that live in the Unified Buffer."""
_SPACES = {"__ubuf__": "UB", "__cbuf__": "L1", "__ca__": "L0A", "__cb__": "L0B", "__cc__": "L0C"}
"""How a tensor's description names its buffer."""


class _Subscripted(Generic[T]):
    """Shared ``Class[T]`` specialisation with a per-dtype cache."""

    dtype: type[Scalar]
    _cache: dict[Any, type[Any]]

    def __class_getitem__(cls, dtype: Any) -> Any:
        if not (is_scalar_type(dtype) or is_complex_type(dtype)):
            return super().__class_getitem__(dtype)  # type: ignore[misc]
        found = cls.__dict__.get("_cache", {}).get(dtype)
        if found is None:
            found = type(f"{cls.__name__}[{dtype.cpp_name}]", (cls,), {"dtype": dtype})
            if "_cache" not in cls.__dict__:
                cls._cache = {}
            cls._cache[dtype] = found
        return found

    def _dtype(self) -> type[Scalar]:
        dtype: type[Scalar] | None = getattr(type(self), "dtype", None)
        if dtype is None:
            raise AscregTypeError(
                f"{type(self).__name__} needs its element type: {type(self).__name__}[float32_t]()"
            )
        return dtype

    def _cpp(self) -> str:
        return f"{type(self).__name__.partition('[')[0]}<{self._dtype().cpp_name}>"


K_MAX_SHAPE_DIM = 8
"""The most dimensions a ``ShapeInfo`` holds (``K_MAX_SHAPE_DIM``)."""


class DataFormat(enum.IntEnum):
    """``AscendC::DataFormat``: the layout a ``ShapeInfo`` records.

    Examples
    --------
    >>> DataFormat.NCHW.value, DataFormat(1).name
    (2, 'NZ')
    """

    ND = 0
    NZ = 1
    NCHW = 2
    NC1HWC0 = 3
    NHWC = 4
    NCDHW = 5
    NDC1HWC0 = 6
    FRACTAL_Z_3D = 7


def _dims(count: Any, values: Any, role: str) -> list[int]:
    """Check a ``(dim, uint32_t shape[])`` pair; return the dims padded to K_MAX_SHAPE_DIM."""
    dim = operands.in_range(count, f"{role}Dim", 0, K_MAX_SHAPE_DIM, "K_MAX_SHAPE_DIM")
    if len(values) < dim:
        raise AscregTypeError(f"{role} has {len(values)} values, fewer than {role}Dim = {dim}")
    dims = [operands.in_range(v, role, 0, (1 << 32) - 1, "uint32_t") for v in list(values)[:dim]]
    return dims + [0] * (K_MAX_SHAPE_DIM - dim)


class ShapeInfo:
    """``AscendC::ShapeInfo``: the shape a ``LocalTensor`` / ``GlobalTensor`` carries.

    ``ShapeInfo(shapeDim, shape)`` (format ND), ``ShapeInfo(shapeDim, shape, dataFormat)``,
    ``ShapeInfo(shapeDim, shape, originalShapeDim, originalShape, dataFormat)``: as the struct's
    constructors, the original shape the shape unless given; at most ``K_MAX_SHAPE_DIM`` (8)
    dimensions. ``ShapeInfo()`` leaves every field 0 (C++ leaves them uninitialised).

    Examples
    --------
    >>> info = ShapeInfo(2, [8, 16])
    >>> info.shapeDim, info.shape[:3], info.originalShape[:2], info.dataFormat.name, GetShapeSize(info)
    (2, [8, 16, 0], [8, 16], 'ND', 128)
    """

    def __init__(self, *args: Any) -> None:
        self.shapeDim = self.originalShapeDim = 0
        self.shape = [0] * K_MAX_SHAPE_DIM
        self.originalShape = [0] * K_MAX_SHAPE_DIM
        self.dataFormat = DataFormat.ND
        if not args:
            return
        if len(args) not in (2, 3, 5):
            raise AscregTypeError(
                "ShapeInfo takes (), (shapeDim, shape), (shapeDim, shape, dataFormat) or "
                f"(shapeDim, shape, originalShapeDim, originalShape, dataFormat); got {len(args)} arguments"
            )
        original = args[2:4] if len(args) == 5 else args[:2]
        self.shape = _dims(args[0], args[1], "shape")
        self.originalShape = _dims(original[0], original[1], "originalShape")
        self.shapeDim, self.originalShapeDim = int(args[0]), int(original[0])
        if len(args) > 2:
            self.dataFormat = operands.instance(args[-1], DataFormat, "dataFormat")

    def copy(self) -> ShapeInfo:
        """Return a copy (the C++ struct is copied by value)."""
        other = ShapeInfo()
        other.shapeDim, other.originalShapeDim = self.shapeDim, self.originalShapeDim
        other.shape, other.originalShape = list(self.shape), list(self.originalShape)
        other.dataFormat = self.dataFormat
        return other

    def __repr__(self) -> str:
        return (
            f"ShapeInfo(shape={self.shape[: self.shapeDim]}, originalShape="
            f"{self.originalShape[: self.originalShapeDim]}, dataFormat={self.dataFormat.name})"
        )


def GetShapeSize(shapeInfo: ShapeInfo) -> int:
    """``AscendC::GetShapeSize(shapeInfo)``: the product of the shape's ``shapeDim`` dimensions.

    Examples
    --------
    >>> GetShapeSize(ShapeInfo(3, [2, 3, 4])), GetShapeSize(ShapeInfo())
    (24, 1)
    """
    info = operands.instance(shapeInfo, ShapeInfo, "shapeInfo")
    size = 1
    for dim in info.shape[: info.shapeDim]:
        size *= dim
    return size


class _ShapeCarrier:
    """``SetShapeInfo`` / ``GetShapeInfo`` of both tensor kinds (a copy of the struct is kept)."""

    _shape_info: ShapeInfo | None = None

    def SetShapeInfo(self, shapeInfo: ShapeInfo) -> None:
        """``SetShapeInfo(const ShapeInfo& shapeInfo)``: keep a copy of the tensor's shape.

        Examples
        --------
        >>> from ascreg import half
        >>> t = LocalTensor[half]()
        >>> t.SetShapeInfo(ShapeInfo(2, [4, 8])); t.GetShapeInfo().shape[:2]
        [4, 8]
        """
        self._shape_info = operands.instance(shapeInfo, ShapeInfo, "shapeInfo").copy()

    def GetShapeInfo(self) -> ShapeInfo:
        """``GetShapeInfo() const``: the shape ``SetShapeInfo`` set (a copy).

        The page: the shape has no default value; before ``SetShapeInfo`` this is an error.

        Examples
        --------
        >>> from ascreg import float32_t
        >>> GlobalTensor[float32_t]().GetShapeInfo()
        Traceback (most recent call last):
        ...
        ascreg.errors.AscregError: GetShapeInfo: GlobalTensor<float> has no shape: call SetShapeInfo first (the shape has no default value)
        """
        if self._shape_info is None:
            raise AscregError(
                f"{self._cpp()} has no shape: call SetShapeInfo first (the shape has no default "  # type: ignore[attr-defined]
                "value)",
                call="GetShapeInfo",
            )
        return self._shape_info.copy()


def _printed(value: Any) -> str:
    """One element as C++'s default ``operator<<`` prints it (``%g``; an integer in decimal)."""
    if isinstance(value, np.integer | int):
        return str(int(value))
    return f"{float(value):g}"


def _offset(value: Any, what: str) -> int:
    offset = operands.integer(value, what)
    if offset < 0:
        raise AscregTypeError(f"{what} must be a non-negative integer, got {value!r}")
    return offset


class GlobalTensor(_ShapeCarrier, _Subscripted[T]):
    """``AscendC::GlobalTensor<T>``: a view of GM set by ``SetGlobalBuffer``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, float32_t
    >>> from ascreg.basic import GlobalTensor
    >>> x = GlobalMemory().alloc(float32_t, 8); x.write(np.arange(8))
    >>> xGm = GlobalTensor[float32_t](); xGm.SetGlobalBuffer(x, 8)
    >>> tail = xGm[6]
    >>> tail.GetValue(1).item(), tail.GetSize()
    (7.0, 2)
    """

    def __init__(self) -> None:
        self._dtype()
        self.ptr: GmPtr[T] | None = None
        self.size: int | None = None

    def __repr__(self) -> str:
        where = "no buffer" if self.ptr is None else repr(self.ptr)
        return f"<{self._cpp()} {where}, {self.size if self.size is not None else '?'} elements>"

    def SetGlobalBuffer(self, buffer: GmPtr[T], bufferSize: int | None = None) -> None:
        """Point the tensor at ``buffer`` (``bufferSize`` elements, optional).

        Examples
        --------
        >>> from ascreg import GlobalMemory, float32_t, uint16_t
        >>> from ascreg.basic import GlobalTensor
        >>> GlobalTensor[float32_t]().SetGlobalBuffer(GlobalMemory().alloc(uint16_t, 8))
        Traceback (most recent call last):
        ...
        ascreg.errors.AscregTypeError: GlobalTensor.SetGlobalBuffer: the buffer is uint16_t* but the tensor is GlobalTensor<float>
        """
        _ascreg_call = "GlobalTensor.SetGlobalBuffer"
        if not isinstance(buffer, GmPtr):
            operands.device_pointer(buffer, "the buffer")  # names a host array's rule
            raise AscregTypeError(f"SetGlobalBuffer takes a __gm__ pointer, got {buffer!r:.60}")
        if buffer.dtype is not self._dtype():
            raise AscregTypeError(
                f"the buffer is {buffer.dtype.cpp_name}* but the tensor is {self._cpp()}"
            )
        if bufferSize is not None:
            _offset(bufferSize, "bufferSize")
        self.ptr, self.size = buffer, bufferSize

    @mark_pure
    def GetPhyAddr(self, offset: int = 0) -> GmPtr[T]:
        """Return the ``__gm__ T*`` of element *offset*.

        Examples
        --------
        >>> from ascreg import GlobalMemory, int32_t
        >>> from ascreg.basic import GlobalTensor
        >>> g = GlobalTensor[int32_t](); g.SetGlobalBuffer(GlobalMemory().alloc(int32_t, 8))
        >>> g.GetPhyAddr(2).address
        8
        """
        _ascreg_call = "GlobalTensor.GetPhyAddr"
        if self.ptr is None:
            raise AscregError("the GlobalTensor has no buffer: call SetGlobalBuffer first")
        return self.ptr + offset

    def GetSize(self) -> int:
        """Return the element count given to ``SetGlobalBuffer`` (0 if none).

        Examples
        --------
        >>> from ascreg import float32_t
        >>> from ascreg.basic import GlobalTensor
        >>> GlobalTensor[float32_t]().GetSize()
        0
        """
        return self.size or 0

    def __getitem__(self, offset: int) -> GlobalTensor[T]:
        """``xGm[offset]``: the tensor that starts *offset* elements later."""
        _ascreg_call = "GlobalTensor::operator[]"
        if (type(offset) is not int or offset < 0) and (  # (a plain non-negative int passes)
            not hasattr(type(offset), "__ascreg_blocks__") or offset < 0  # (ascreg.engine.groups)
        ):
            _offset(offset, "the offset")
        if self.size is not None and offset > self.size:
            raise OutOfBoundsError(
                f"offset {offset} is past the end of the {self.size}-element {self._cpp()}"
            )
        view: GlobalTensor[T] = type(self)()
        view.ptr = self.GetPhyAddr(offset)
        view.size = None if self.size is None else self.size - offset
        return view

    def GetValue(self, offset: int) -> Any:
        """Read element *offset* (a scalar GM read).

        Examples
        --------
        >>> import numpy as np
        >>> from ascreg import GlobalMemory, uint16_t
        >>> from ascreg.basic import GlobalTensor
        >>> g = GlobalTensor[uint16_t](); g.SetGlobalBuffer(GlobalMemory().alloc(uint16_t, 4))
        >>> g.SetValue(3, 9); g.GetValue(3).item()
        9
        """
        _ascreg_call = "GlobalTensor.GetValue"
        return self._element(offset)[0]

    def SetValue(self, offset: int, value: Any) -> None:
        """Write *value* to element *offset* (a scalar GM write); see :meth:`GetValue`."""
        _ascreg_call = "GlobalTensor.SetValue"
        self._element(offset).write([value])

    def _element(self, offset: int) -> GmPtr[T]:
        _offset(offset, "the offset")
        if self.size is not None and offset >= self.size:
            raise OutOfBoundsError(f"element {offset} of the {self.size}-element {self._cpp()}")
        return self.GetPhyAddr(offset)

    @member_template(Signature(rwMode=(member_of(CacheRwMode), CacheRwMode.RW)))
    def SetL2CacheHint(
        self, mode: CacheMode = CacheMode.CACHE_MODE_NORMAL, *, rwMode: CacheRwMode = CacheRwMode.RW
    ) -> None:
        """``SetL2CacheHint<rwMode>(mode)``: whether this tensor's GM goes through the L2 cache.

        A performance hint: ascreg has no L2 cache, so it checks the mode and changes nothing.

        Examples
        --------
        >>> from ascreg import GlobalMemory, float32_t
        >>> from ascreg.basic import CacheMode, GlobalTensor
        >>> g = GlobalTensor[float32_t](); g.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 8))
        >>> g.SetL2CacheHint(CacheMode.CACHE_MODE_DISABLE)
        """
        _ascreg_call = "GlobalTensor.SetL2CacheHint"
        if not isinstance(mode, CacheMode):
            raise AscregTypeError(f"mode must be a CacheMode, got {mode!r:.40}")

    @member_template(Signature(CAST_T=TYPENAME))
    def ReinterpretCast(self, *, CAST_T: type[U] | None = None) -> GlobalTensor[U]:
        """``ReinterpretCast<CAST_T>()``: the same GM bytes viewed as ``CAST_T`` elements.

        The size in bytes stays (rounded down to whole ``CAST_T`` elements).

        Examples
        --------
        >>> from ascreg import GlobalMemory, float32_t, uint8_t
        >>> from ascreg.basic import GlobalTensor
        >>> g = GlobalTensor[float32_t](); g.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 8), 8)
        >>> g.ReinterpretCast[uint8_t]().GetSize()
        32
        """
        _ascreg_call = "GlobalTensor.ReinterpretCast"
        dtype: type[U] = need("CAST_T", CAST_T, "ReinterpretCast[CAST_T]()")
        view: GlobalTensor[U] = GlobalTensor[dtype]()  # type: ignore[valid-type]
        view.ptr = self.GetPhyAddr().cast(dtype)
        view.size = None if self.size is None else self.size * self._dtype().size // dtype.size
        return view


@attrs.define
class TBuffAddr:
    """``AscendC::TBuffAddr``: the address record a ``LocalTensor`` holds.

    ``dataLen`` is the length in bytes, ``bufferAddr`` the start (a byte address in the
    position's buffer; a ``GetPhyAddr()`` pointer is taken as its address, as the C++ ``uint64_t``
    is), ``logicPos`` the position as its ``uint8_t`` value (``(uint8_t)TPosition::A1``; a
    :class:`TPosition` is taken too), ``bufferHandle`` the queue buffer's handle (kept, unused).
    A kernel fills one and gives it to :meth:`LocalTensor.SetAddr`. A new record is zero (a
    ``logicPos`` of 0 is ``TPosition::GM``, where no LocalTensor lives).

    Examples
    --------
    >>> from ascreg.basic import TBuffAddr, TPosition
    >>> a = TBuffAddr(); a.dataLen = 512; a.logicPos = TPosition.A1.value
    >>> a.position().name, a.start()
    ('A1', 0)
    """

    dataLen: int = 0
    bufferAddr: Any = 0
    bufferHandle: Any = None
    logicPos: Any = 0

    def position(self) -> TPosition:
        """Return the :class:`TPosition` ``logicPos`` holds."""
        if isinstance(self.logicPos, TPosition):
            return self.logicPos
        value = operands.integer(self.logicPos, "logicPos")
        try:
            return TPosition(value)
        except ValueError:
            raise AscregTypeError(
                f"logicPos {value} is no TPosition value (0 to {TPosition.MAX.value - 1})"
            ) from None

    def start(self) -> int:
        """Return the byte address ``bufferAddr`` holds (a pointer's address)."""
        address = getattr(self.bufferAddr, "address", self.bufferAddr)
        return operands.in_range(address, "bufferAddr", 0, (1 << 32) - 1)


class LocalTensor(_ShapeCarrier, _Subscripted[T]):
    """``AscendC::LocalTensor<T>``: a typed view of this block's UB.

    Made by ``LocalMemAllocator``, ``TQue.AllocTensor`` / ``DeQue`` and ``TBuf.Get``, or
    directly as ``LocalTensor[T](TPosition.VECCALC, addr, tileSize)`` at UB byte address
    *addr* (32-byte aligned). ``GetPhyAddr()`` is its ``__ubuf__ T*``; ``t[offset]`` is the view
    *offset* elements later; ``GetValue`` / ``SetValue`` are scalar-pipe accesses. At a cube
    position (``TPosition.A1`` ... ``CO1``, see :class:`TPosition`) the tensor lives in that cube
    buffer instead, at a start address aligned as the buffer requires.

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.basic import LocalTensor, TPosition
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     t = LocalTensor[float32_t](TPosition.VECCALC, 64, 16)
    ...     t.SetValue(2, 1.5)
    ...     t[2].GetValue(0).item(), t[2].GetSize(), t.GetPhyAddr().address
    (1.5, 14, 64)
    """

    @overload
    def __init__(self) -> None: ...
    @overload
    def __init__(self, pos: TPosition, addr: int, tileSize: int) -> None: ...
    def __init__(
        self, pos: TPosition | None = None, addr: int | None = None, tileSize: int | None = None
    ) -> None:
        _ascreg_call = "LocalTensor"
        self._dtype()
        self._ptr: UbPtr[T] | None = None
        self._size = 0
        self._position = TPosition.VECCALC
        self._owner: object = None
        if pos is None and addr is None and tileSize is None:
            return
        self._place(pos, addr, tileSize)

    def _place(self, pos: Any, addr: Any, tileSize: Any) -> None:
        """Point the tensor at byte *addr* of *pos*'s buffer, *tileSize* elements long."""
        dtype = self._dtype()
        if isinstance(pos, TPosition) and pos.name in POSITION_BUFFERS:
            self._bind(cube_tensor_pointer(pos.name, dtype, addr, tileSize), tileSize, pos)  # type: ignore[arg-type]
            return
        if pos not in UB_POSITIONS:
            raise AscregTypeError(
                f"a LocalTensor lives in UB (VECIN, VECOUT, VECCALC) or a cube buffer "
                f"({', '.join(POSITION_BUFFERS)}), not {pos}"
            )
        start, count = _offset(addr, "addr"), _offset(tileSize, "tileSize")
        if start % DATA_BLOCK:
            raise AlignmentError(f"addr {start:#x} is not 32-byte aligned")
        ub = current_block().ub
        if start + count * dtype.size > ub.capacity:
            raise OutOfBoundsError(
                f"[{start:#x}, {start + count * dtype.size:#x}) leaves the {ub.capacity}-byte UB"
            )
        self._bind(ub.pointer(dtype, start), count, pos)  # type: ignore[arg-type]

    def SetAddr(self, address: TBuffAddr) -> None:
        """``SetAddr(address)``: point the tensor at the buffer a :class:`TBuffAddr` describes.

        The tensor takes the address record as its own (``address_ = address`` in
        ``kernel_tensor_base.h``): position ``logicPos``, start ``bufferAddr`` (a byte address
        in that position's buffer, or the ``GetPhyAddr()`` of a tensor there), length
        ``dataLen`` bytes (``GetSize()`` is ``dataLen / sizeof(T)``, whole elements). The same
        rules as ``LocalTensor(pos, addr, tileSize)`` hold: a UB start is 32-byte aligned, a
        cube buffer's start meets that buffer's alignment, and the tensor stays inside it.

        Examples
        --------
        >>> from ascreg import uint16_t
        >>> from ascreg.basic import LocalTensor, TBuffAddr, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     t = LocalTensor[uint16_t]()
        ...     t.SetAddr(TBuffAddr(dataLen=64, bufferAddr=96, logicPos=TPosition.VECCALC.value))
        ...     t.GetSize(), t.GetPhyAddr().address, t.GetPosition().name
        (32, 96, 'VECCALC')
        """
        _ascreg_call = "LocalTensor.SetAddr"
        if not isinstance(address, TBuffAddr):
            raise AscregTypeError(f"SetAddr takes a TBuffAddr, got {address!r:.60}")
        nbytes = operands.in_range(address.dataLen, "dataLen", 0, (1 << 32) - 1)
        self._place(address.position(), address.start(), nbytes // self._dtype().size)

    def _bind(self, ptr: UbPtr[T], size: int, position: TPosition, owner: object = None) -> None:
        self._ptr, self._size, self._position, self._owner = ptr, size, position, owner

    @classmethod
    def _view(
        cls, ptr: UbPtr[Any], size: int, position: TPosition, owner: object = None
    ) -> LocalTensor[Any]:
        tensor: LocalTensor[Any] = LocalTensor[ptr.dtype]()  # type: ignore[name-defined]
        tensor._bind(ptr, size, position, owner)
        return tensor

    def __repr__(self) -> str:
        where = "no buffer" if self._ptr is None else repr(self._ptr)
        return f"<{self._cpp()} {self._position.name} {where}, {self._size} elements>"

    def _describe(self) -> str:
        where = (
            "(no buffer)"
            if self._ptr is None
            else f"at {_SPACES.get(self._ptr.space, self._ptr.space)} {self._ptr.address:#x}"
        )
        return f"{self._cpp()} {where}"

    @mark_pure
    def GetPhyAddr(self, offset: int = 0) -> UbPtr[T]:
        """Return the ``__ubuf__ T*`` of element *offset*.

        Examples
        --------
        >>> from ascreg import int16_t
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     LocalTensor[int16_t](TPosition.VECIN, 0, 32).GetPhyAddr(3).address
        6
        """
        if self._ptr is None:
            raise AscregError(
                "the LocalTensor has no buffer: take it from a LocalMemAllocator, a TQue or a TBuf",
                call="LocalTensor.GetPhyAddr",
            )
        return self._ptr + offset

    def GetSize(self) -> int:
        """Return the element count.

        Examples
        --------
        >>> from ascreg import float32_t
        >>> from ascreg.basic import LocalTensor
        >>> LocalTensor[float32_t]().GetSize()
        0
        """
        return self._size

    def _handle(self, call: str) -> Any:
        """Return the queue / TBuf buffer the tensor came from (its ``bufferHandle``), or raise."""
        owner = self._owner
        if not hasattr(owner, "usertag"):
            raise AscregError(
                f"{self._describe()} has no buffer handle (bufferHandle is nullptr): only a "
                "tensor of a TQue / TQueBind / TBuf buffer carries a tag",
                call=f"LocalTensor.{call}",
            )
        return owner

    def SetUserTag(self, tag: Any) -> None:
        """``SetUserTag(const TTagType tag)``: tag the buffer the tensor came from (``int32_t``).

        The tag lives in the queue or TBuf buffer (``TBufType::usertag``), so every tensor of
        that buffer sees it; ``InitBuffer`` sets -1.

        Examples
        --------
        >>> from ascreg import half
        >>> from ascreg.basic import TPipe, TQue, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     pipe = TPipe(); que = TQue[TPosition.VECIN, 1]()
        ...     _ = pipe.InitBuffer(que, 1, 256)
        ...     t = que.AllocTensor[half](); before = t.GetUserTag()
        ...     t.SetUserTag(10); before, t.GetUserTag()
        (-1, 10)
        """
        self._handle("SetUserTag").usertag = operands.in_range(
            tag, "tag", -(1 << 31), (1 << 31) - 1, "TTagType (int32_t)"
        )

    def GetUserTag(self) -> int:
        """``GetUserTag() const``: the tag of the buffer the tensor came from (``TTagType``).

        Examples
        --------
        >>> from ascreg import half
        >>> from ascreg.basic import LocalMemAllocator, Hardware
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     LocalMemAllocator[Hardware.UB]().Alloc[half, 16]().GetUserTag()
        Traceback (most recent call last):
        ...
        ascreg.errors.AscregError: LocalTensor.GetUserTag: LocalTensor<half> at UB 0x0 has no buffer handle (bufferHandle is nullptr): only a tensor of a TQue / TQueBind / TBuf buffer carries a tag
        """
        tag: int = self._handle("GetUserTag").usertag
        return tag

    def Print(self, len: Any = None) -> None:
        """``Print()`` / ``Print(uint32_t len)``: print the first *len* elements (CPU debug only).

        One row per 32-byte DataBlock, as the CPU build prints it: the first element's index
        in 4 digits, `` : ``, each value and a space (floats as C++'s default stream output, 6
        significant digits; 8-bit integers as numbers); *len* is capped at ``GetSize()``. The
        header marks it deprecated. The read is a scalar access (``PIPE_S``).

        Examples
        --------
        >>> import numpy as np
        >>> from ascreg import half
        >>> from ascreg.basic import LocalMemAllocator, Hardware
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     t = LocalMemAllocator[Hardware.UB]().Alloc[half, 32]()
        ...     t.GetPhyAddr().write(np.arange(32) / 3)
        ...     t.Print(18)
        0000 : 0 0.333252 0.666504 1 1.33301 1.66699 2 2.33398 2.66602 3 3.33398 3.66602 4 4.33203 4.66797 5
        0016 : 5.33203 5.66797
        """
        count = (
            self._size
            if len is None
            else min(operands.in_range(len, "len", 0, (1 << 32) - 1), self._size)
        )
        values = self.GetPhyAddr().read(count)
        per_row = DATA_BLOCK // self._dtype().size
        text = []
        for start in range(0, count, per_row):
            row = " ".join(_printed(v) for v in values[start : start + per_row])
            text.append(f"{start:04d} : {row} \n")
        print("".join(text), end="")

    def ToFile(self, fileName: str) -> int:
        """``ToFile(fileName)``: write the tensor's ``GetSize()`` elements to a file (CPU debug).

        The raw bytes, as the CPU build's ``TensorWriteFile`` writes them, to *fileName*
        (relative to the working directory). Returns 0, or 1 when the file cannot be written. The
        read is checked as any read of the tensor is (unwritten bytes are an error).

        Examples
        --------
        >>> import numpy as np, os, tempfile
        >>> from ascreg import int16_t
        >>> from ascreg.basic import LocalMemAllocator, Hardware
        >>> from ascreg.machine.block import BlockContext, block
        >>> path = os.path.join(tempfile.mkdtemp(), "t.bin")
        >>> with block(BlockContext()):
        ...     t = LocalMemAllocator[Hardware.UB]().Alloc[int16_t, 16]()
        ...     t.GetPhyAddr().write(np.arange(16))
        ...     t.ToFile(path)
        0
        >>> np.fromfile(path, np.int16)[:4].tolist()
        [0, 1, 2, 3]
        """
        _ascreg_call = "LocalTensor.ToFile"
        if not isinstance(fileName, str):
            raise AscregTypeError(f"fileName must be a str, got {fileName!r:.60}")
        data = np.ascontiguousarray(self.GetPhyAddr().read(self._size))
        try:
            with open(fileName, "wb") as out:
                out.write(data.tobytes())
        except OSError:
            return 1
        return 0

    def SetAddrWithOffset(self, src: LocalTensor[Any], offset: int) -> None:
        """``SetAddrWithOffset(src, offset)``: view *src*'s buffer from its element *offset*.

        As the header does: the tensor takes *src*'s address record (position and byte length)
        and moves its start by ``offset * sizeof(S)`` bytes, S being *src*'s element type; its
        ``GetSize()`` is that byte length over its own element size. Its end may then lie past
        *src*'s: an access there is checked as any access beyond an allocation is.

        Examples
        --------
        >>> from ascreg import float32_t, half
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     src = LocalTensor[float32_t](TPosition.VECCALC, 64, 32)
        ...     view = LocalTensor[half]()
        ...     view.SetAddrWithOffset(src, 8)
        ...     view.GetPhyAddr().address, view.GetSize(), view.GetPosition().name
        (96, 64, 'VECCALC')
        """
        _ascreg_call = "LocalTensor.SetAddrWithOffset"
        if not isinstance(src, LocalTensor):
            raise AscregTypeError(f"src must be a LocalTensor, got {src!r:.60}")
        step = operands.in_range(offset, "offset", 0, (1 << 32) - 1)
        base = src.GetPhyAddr()
        dtype = self._dtype()
        ptr: UbPtr[T] = base.offset_bytes(step * base.dtype.size).cast(dtype)  # type: ignore[arg-type]
        self._bind(ptr, src._size * base.dtype.size // dtype.size, src._position, src._owner)

    def GetLength(self) -> int:
        """Return the size in bytes.

        Examples
        --------
        >>> from ascreg import half
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     LocalTensor[half](TPosition.VECCALC, 0, 48).GetLength()
        96
        """
        return self._size * self._dtype().size

    def SetSize(self, size: int) -> None:
        """``SetSize(size)``: make the tensor *size* elements long (a reused tensor's new length).

        The tensor must stay inside the UB.

        Examples
        --------
        >>> from ascreg import half
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     t = LocalTensor[half](TPosition.VECCALC, 0, 48); t.SetSize(16); t.GetSize()
        16
        """
        _ascreg_call = "LocalTensor.SetSize"
        self._resize(operands.in_range(size, "size", 0, (1 << 32) - 1))

    def SetBufferLen(self, dataLen: int) -> None:
        """``SetBufferLen(dataLen)``: set the tensor's length field to *dataLen* bytes.

        The implementation stores *dataLen* as the byte length (so ``GetSize()`` is then
        ``dataLen / sizeof(T)``, whole elements), as the page's example (1024 bytes) reads it.

        Examples
        --------
        >>> from ascreg import float32_t
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     t = LocalTensor[float32_t](TPosition.VECCALC, 0, 512); t.SetBufferLen(1024)
        ...     t.GetSize()
        256
        """
        _ascreg_call = "LocalTensor.SetBufferLen"
        nbytes = operands.in_range(dataLen, "dataLen", 0, (1 << 32) - 1)
        self._resize(nbytes // self._dtype().size)

    def _resize(self, size: int) -> None:
        ptr = self.GetPhyAddr()
        end = ptr.address + size * self._dtype().size
        if end > ptr.memory.capacity:
            raise OutOfBoundsError(
                f"{size} elements from UB byte {ptr.address} end at byte {end}, past the "
                f"{ptr.memory.capacity}-byte UB"
            )
        self._size = size

    def GetPosition(self) -> TPosition:
        """Return the tensor's logical position.

        Examples
        --------
        >>> from ascreg import half
        >>> from ascreg.basic import LocalTensor
        >>> LocalTensor[half]().GetPosition().name
        'VECCALC'
        """
        return self._position

    def __getitem__(self, offset: int) -> LocalTensor[T]:
        """``t[offset]``: the tensor that starts *offset* elements later (same buffer)."""
        _ascreg_call = "LocalTensor::operator[]"
        if type(offset) is not int or offset < 0:  # (a plain non-negative int passes)
            _offset(offset, "the offset")
        if offset > self._size:
            raise OutOfBoundsError(
                f"offset {offset} is past the end of the {self._size}-element {self._cpp()}"
            )
        view: LocalTensor[T] = type(self)()
        view._bind(self.GetPhyAddr(offset), self._size - offset, self._position, self._owner)
        return view

    def GetValue(self, index: int) -> Any:
        """Read element *index* on the scalar pipe.

        Examples
        --------
        >>> from ascreg import int32_t
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     t = LocalTensor[int32_t](TPosition.VECCALC, 0, 8); t.SetValue(7, -3)
        ...     t.GetValue(7).item()
        -3
        """
        _ascreg_call = "LocalTensor.GetValue"
        return self._element(index)[0]  # a struct element (complex64) reads as its value

    @member_template(Signature(S=TYPENAME))
    def SetValue(self, index: int, value: Any, *, S: type[Scalar] | None = None) -> None:
        """``SetValue<S>(index, value)``: write *value* to element *index* on the scalar pipe.

        The C++ parameter has the template type ``S`` and the body stores
        ``static_cast<T>(value)``: ``SetValue[S](index, value)`` converts *value* to ``S``, then
        to the element type ``T``, each as a C cast (``c_cast``: integers wrap, floats
        round once or truncate; a float out of an integer's range is an error). The plain call
        stores *value* only if the element type holds it exactly (a Python number has no C
        type to convert from). See :meth:`GetValue`.

        Examples
        --------
        >>> from ascreg import int64_t, uint8_t
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     t = LocalTensor[int64_t](TPosition.VECCALC, 0, 4)
        ...     t.SetValue[int64_t](0, 5); t.SetValue[uint8_t](1, 300); t.SetValue(2, -1)
        ...     [t.GetValue(i).item() for i in range(3)]
        [5, 44, -1]
        """
        _ascreg_call = "LocalTensor.SetValue"
        if S is not None:
            value = c_cast(self._dtype(), c_cast(S, value))
        self._element(index).write([value])

    def _element(self, index: int) -> UbPtr[T]:
        _offset(index, "the index")
        if index >= self._size:
            raise OutOfBoundsError(f"element {index} of the {self._size}-element {self._cpp()}")
        return self.GetPhyAddr(index)

    @member_template(Signature(CAST_T=TYPENAME))
    def ReinterpretCast(self, *, CAST_T: type[U] | None = None) -> LocalTensor[U]:
        """``ReinterpretCast<CAST_T>()``: the same UB bytes viewed as ``CAST_T`` elements.

        The size in bytes stays (rounded down to whole ``CAST_T`` elements). The view belongs
        to the same queue buffer as the tensor: ``que.FreeTensor(t.ReinterpretCast[U]())``
        frees the buffer, as in C++.

        Examples
        --------
        >>> from ascreg import float32_t, uint8_t
        >>> from ascreg.basic import LocalTensor, TPosition
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     LocalTensor[float32_t](TPosition.VECCALC, 0, 8).ReinterpretCast[uint8_t]().GetSize()
        32
        """
        _ascreg_call = "LocalTensor.ReinterpretCast"
        dtype: type[U] = need("CAST_T", CAST_T, "ReinterpretCast[CAST_T]()")
        return self._view(
            self.GetPhyAddr().cast(dtype),
            self.GetLength() // dtype.size,
            self._position,
            self._owner,
        )
