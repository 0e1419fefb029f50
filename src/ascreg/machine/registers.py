"""The dav-3510 register file: vector, mask, address and unaligned registers.

``RegTensor[T]``, ``MaskReg`` and the ``RegTrait`` layouts; the address register ``AddrReg``;
the 32-byte unaligned registers (their access semantics are in :mod:`ascreg.core.unaligned`).

A vector register is VL = 256 bytes: 256/sizeof(T) lanes. A 64-bit register declared with
``RegTraitNumTwo`` spans two hardware registers and holds 64 lanes (the low words in ``reg[0]``
and the high words in ``reg[1]``). A mask register is 256 bits, one per byte of a vector
register: lane ``i`` of an op on ``T`` is bit ``i * sizeof(T)`` (TraitTwo b64 uses the b32
format over 64 lanes). Producers write 0 into the other bits.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, uint16_t
>>> r = Reg.RegTensor[uint16_t]()
>>> r.lanes, r.dtype is uint16_t
(128, True)
>>> r
RegTensor[uint16_t] <never written>
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Self

import attrs
import numpy as np
from typing_extensions import TypeVar

from ascreg._dtypes import Scalar, bool_, is_scalar_type, uint32_t
from ascreg.errors import (
    AscregTypeError,
    UndefinedBehaviourError,
    UninitializedRegisterError,
    current_call,
    undefined_behaviour,
)
from ascreg.machine.convert import to_dtype
from ascreg.machine.hook import ACTIVE
from ascreg.machine.memory import DATA_BLOCK, Memory, Pointer
from ascreg.machine.ref import EPOCH
from ascreg.machine.undefined import plain, undefined_lanes

VL = 256
"""Bytes in one vector register on dav-3510 (``GetVecLen()``).

Examples
--------
>>> from ascreg import VL, half
>>> VL, VL // half.size
(256, 128)
"""
MASK_BITS = VL
"""Bits in a mask register: one per byte of a vector register."""
BATCHING = ACTIVE
BLOCK_ROWS = [False]
"""True while an op runs eagerly on one row of lanes per block of a group (a carried register
scanned in a block group's VF, ``ascreg.engine.groups``): results may have a leading axis."""
"""The running batched loop (:data:`ascreg.machine.hook.ACTIVE`), which registers report their
reads and writes to; empty (the common case, one test per access) when loops run eagerly."""


class RegTrait:
    """Base of the register layouts; ``REG_NUM`` hardware registers per ``RegTensor``.

    Examples
    --------
    >>> RegTraitNumTwo.REG_NUM
    2
    """

    REG_NUM: ClassVar[int] = 1


class RegTraitNumOne(RegTrait):
    """One hardware register per ``RegTensor`` (the default layout).

    Examples
    --------
    >>> from ascreg import Reg, RegTraitNumOne, int64_t
    >>> Reg.RegTensor[int64_t, RegTraitNumOne]().lanes
    32
    """

    REG_NUM = 1


class RegTraitNumTwo(RegTrait):
    """Two hardware registers per ``RegTensor``: 64 b64 lanes, low words in ``reg[0]``.

    Examples
    --------
    >>> from ascreg import Reg, RegTraitNumTwo, uint64_t
    >>> Reg.RegTensor[uint64_t, RegTraitNumTwo]().lanes
    64
    """

    REG_NUM = 2


T = TypeVar("T", bound=Scalar)
R = TypeVar("R", bound=RegTrait, default=RegTraitNumOne)
P = TypeVar("P", bound=Pointer[Any])
R_ = TypeVar("R_", bound="RegTensor[Any, Any]")


def spread_enables(enables: np.ndarray[Any, Any], stride: int) -> np.ndarray[Any, Any]:
    """Return the mask bits of lane *enables* (or rows of them): lane i is bit ``i * stride``.

    The inverse of :meth:`MaskReg.active`: each enable as a little-endian integer of *stride*
    bytes (1 or 0) is the lane's *stride* bits (one pass, no strided writes); the other bits
    are 0.

    Examples
    --------
    >>> spread_enables(np.array([True, False] * 64), 2)[:4].astype(int).tolist()
    [1, 0, 0, 0]
    """
    word = LANE_WORDS.get(stride)
    bits: np.ndarray[Any, Any] = enables.astype(f"<u{stride}" if word is None else word)
    return bits.view(np.bool_)


LANE_WORDS = {n: np.dtype(f"<u{n}") for n in (1, 2, 4, 8)}
"""The little-endian unsigned type of each mask stride (one lane's bits as one integer)."""


def lane_geometry(dtype: type[Scalar], trait: type[RegTrait] = RegTraitNumOne) -> tuple[int, int]:
    """Return ``(lanes, mask_bits_per_lane)`` for a register of *dtype* in layout *trait*.

    Examples
    --------
    >>> from ascreg import uint16_t, int64_t
    >>> lane_geometry(uint16_t), lane_geometry(int64_t), lane_geometry(int64_t, RegTraitNumTwo)
    ((128, 2), (32, 8), (64, 4))
    """
    return VL // dtype.size * trait.REG_NUM, dtype.size // trait.REG_NUM


class RegTensor(Generic[T, R]):
    """A vector register of dtype ``T`` (C++ ``AscendC::Reg::RegTensor<T, trait>``).

    Create one with a subscript: ``RegTensor[uint16_t]()``, or
    ``RegTensor[int64_t, RegTraitNumTwo]()`` for the two-register 64-bit layout. A new register
    is *unwritten*: reading it before an op or load writes it is an error (undefined on the chip).

    ``print(reg)`` shows the lanes in the register's dtype; ``numpy.asarray(reg)`` copies them.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int16_t
    >>> r = Reg.RegTensor[int16_t]()
    >>> r.set(np.arange(128))
    >>> np.asarray(r)[:4]
    array([0, 1, 2, 3], dtype=int16)
    """

    __slots__ = ("_lanes", "born")
    dtype: ClassVar[type[Scalar]]
    trait: ClassVar[type[RegTrait]]
    lanes: ClassVar[int]
    mask_stride: ClassVar[int]
    _shape: ClassVar[tuple[int]]  # (lanes,), for the cheap check in put
    _np_dtype: ClassVar[np.dtype[Any]]
    _specialised: ClassVar[dict[Any, type[RegTensor[Any, Any]]]] = {}

    def __class_getitem__(cls, params: Any) -> Any:
        if cls is RegTensor:  # RegTensor[T] in a VF's prologue: one lookup (keyed T as well)
            found = RegTensor._specialised.get(params)
            if found is not None:
                return found
        key = params if isinstance(params, tuple) else (params,)
        found = RegTensor._specialised.get(key)
        if found is not None:
            return found
        if not all(is_scalar_type(p) or isinstance(p, type) for p in key):
            return super().__class_getitem__(params)  # type: ignore[misc]
        if cls is not RegTensor or not is_scalar_type(key[0]) or len(key) > 2:
            raise AscregTypeError(
                f"RegTensor takes a scalar type and an optional RegTrait, got {params!r}",
                call="Reg.RegTensor",
            )
        dtype, trait = key[0], key[1] if len(key) == 2 else RegTraitNumOne
        if not (isinstance(trait, type) and issubclass(trait, RegTrait)):
            raise AscregTypeError(f"{trait!r} is not a RegTrait", call="Reg.RegTensor")
        if trait is RegTraitNumTwo and dtype.size != 8:
            raise AscregTypeError(
                f"RegTraitNumTwo is only for 64-bit types, not {dtype.cpp_name}",
                call="Reg.RegTensor",
            )
        lanes, stride = lane_geometry(dtype, trait)
        suffix = "" if trait is RegTraitNumOne else ", RegTraitNumTwo"
        name = f"RegTensor[{dtype.cpp_name}{suffix}]"
        attrs = {
            "__slots__": (),
            "dtype": dtype,
            "trait": trait,
            "lanes": lanes,
            "mask_stride": stride,
            "_shape": (lanes,),
            "_np_dtype": dtype.np_dtype,
            "__qualname__": name,
        }
        specialised = type(name, (RegTensor,), attrs)
        RegTensor._specialised[key] = specialised
        if trait is RegTraitNumOne:
            RegTensor._specialised[(dtype, RegTraitNumOne)] = specialised
            RegTensor._specialised[dtype] = specialised
        return specialised

    def __new__(cls, src: RegTensor[Any, Any] | None = None) -> Self:
        """Make a new unwritten register, or with *src* a view of it (:func:`reinterpret`)."""
        if src is None:
            return object.__new__(cls)
        return reinterpret(src, cls)

    def __init__(self, src: RegTensor[Any, Any] | None = None) -> None:
        if type(self) is RegTensor:
            raise AscregTypeError(
                "a RegTensor needs its element type: write RegTensor[uint16_t]()",
                call="Reg.RegTensor",
            )
        self._lanes: np.ndarray[Any, Any] | None = None
        self.born = EPOCH[0]  # (a batched loop's plan makes one made in its body anew)

    @property
    def written(self) -> bool:
        """True once an op or a load has written the register."""
        return self._lanes is not None

    def get(self) -> np.ndarray[Any, Any]:
        """Return the lane array (no copy) or raise if the register was never written.

        Under ``undefined="warn"`` an unwritten register reads as zeros.
        """
        lanes = self._lanes
        if BATCHING and id(self) not in BATCHING[-1].registers:  # read() ignores those
            BATCHING[-1].read(self, lanes)
        if lanes is None:
            undefined_behaviour(
                UninitializedRegisterError(
                    f"{type(self).__name__} is read before anything was written to it "
                    "(its content is undefined on the chip)"
                )
            )
            lanes = self._lanes = np.zeros(self.lanes, dtype=self.dtype.np_dtype)
        return lanes

    def set(self, values: Any) -> None:
        """Write all lanes from *values*: one number for every lane, or ``lanes`` numbers.

        The values are converted by :func:`~ascreg.machine.convert.to_dtype` (no wrapping,
        one correct rounding to a float type); any other count of values is an error.

        Examples
        --------
        >>> from ascreg import Reg, uint8_t
        >>> r = Reg.RegTensor[uint8_t](); r.set(7); int(r.get()[255])
        7
        >>> r.set([1, 2, 3])
        Traceback (most recent call last):
        ...
        ascreg.errors.AscregTypeError: RegTensor.set: RegTensor[uint8_t] holds 256 lanes: set takes one value (for every lane) or 256 values, got 3 of shape (3,)
        """
        array = to_dtype(values, self.dtype, call="RegTensor.set")
        if array.ndim > 1 or array.size not in (1, self.lanes):
            raise AscregTypeError(
                f"{type(self).__name__} holds {self.lanes} lanes: set takes one value (for "
                f"every lane) or {self.lanes} values, got {array.size} of shape {array.shape}",
                call=current_call() or "RegTensor.set",
            )
        array = np.broadcast_to(array.ravel(), (self.lanes,))
        self._lanes = np.array(array, dtype=self.dtype.np_dtype)

    def put(self, lanes: np.ndarray[Any, Any]) -> None:
        """Write an op's result: *lanes* already has the register's dtype and lane count.

        The one trusted way for the front ends to store a result (no conversion, no copy);
        :meth:`set` is the converting form for users.

        Examples
        --------
        >>> import numpy as np
        >>> from ascreg import Reg, int16_t
        >>> r = Reg.RegTensor[int16_t](); r.put(np.zeros(128, np.int16)); r.written
        True
        """
        if (
            not BATCHING
            and not BLOCK_ROWS[0]
            and (
                lanes.shape != self._shape
                or (lanes.dtype is not self._np_dtype and lanes.dtype != self._np_dtype)
            )
        ):
            raise AscregTypeError(
                f"internal: {type(self).__name__}.put got {lanes.dtype}[{lanes.shape}], "
                f"not {self.dtype.np_dtype}[{self.lanes}]"
            )
        self.put_known(lanes)  # (in a batch, Batch.write checks the shape and type)

    def held(self) -> np.ndarray[Any, Any] | None:
        """Return the lanes the register holds (None: unwritten), without reading it as an op does.

        A batched loop journals what a register held (and gives it back with :meth:`restore`).

        Examples
        --------
        >>> from ascreg import Reg, int16_t
        >>> r = Reg.RegTensor[int16_t](); r.held() is None
        True
        """
        return self._lanes

    def restore(self, lanes: np.ndarray[Any, Any] | None) -> None:
        """Put back *lanes* as the register held them (a batched loop's commit or undo).

        Examples
        --------
        >>> import numpy as np
        >>> from ascreg import Reg, int16_t
        >>> r = Reg.RegTensor[int16_t](); r.restore(np.zeros(128, np.int16)); r.written
        True
        """
        self._lanes = lanes

    def put_known(self, lanes: np.ndarray[Any, Any]) -> None:
        """:meth:`put` for a result the op's validated form gives this register's shape and type.

        An op's fast path, taken only for a form whose checks passed before, skips the
        consistency check (about 1 us a call; a VF loop makes several per iteration).

        Examples
        --------
        >>> import numpy as np
        >>> from ascreg import Reg, int16_t
        >>> r = Reg.RegTensor[int16_t](); r.put_known(np.zeros(128, np.int16)); r.written
        True
        """
        if BATCHING:
            BATCHING[-1].write(self, self._lanes, lanes)
        self._lanes = lanes

    @property
    def reg(self) -> tuple[np.ndarray[Any, Any], ...]:
        """The hardware registers as ``uint32`` word arrays (TraitTwo: low words, high words).

        Examples
        --------
        >>> import numpy as np
        >>> from ascreg import Reg, RegTraitNumTwo, uint64_t
        >>> r = Reg.RegTensor[uint64_t, RegTraitNumTwo](); r.set(np.full(64, 2**32 + 5, np.uint64))
        >>> [int(w[0]) for w in r.reg]
        [5, 1]
        """
        lanes = self.get()
        if self.trait is RegTraitNumOne:
            return (lanes.view(uint32_t.np_dtype),)
        words = lanes.view(uint32_t.np_dtype)
        return (words[0::2].copy(), words[1::2].copy())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        lanes: np.ndarray[Any, Any] = plain(self.get()).copy()
        return lanes if dtype is None else lanes.astype(dtype)

    def __repr__(self) -> str:
        name = type(self).__name__
        if self._lanes is None:
            return f"{name} <never written>"
        body = np.array2string(plain(self._lanes), max_line_width=100, threshold=1 << 12)
        undefined = np.flatnonzero(undefined_lanes(self._lanes))
        if undefined.size:
            body += f"\n(undefined lanes {_ranges(undefined)}: loaded past an allocation)"
        return f"{name} =\n{body}"

    __str__ = __repr__


# -- register reinterpret casts: (RegTensor<U>&)reg, (vector_int16_t)reg -------------------------


class _RegisterView:
    """The behaviour of a reinterpreted register (mixed into a view class of its target type).

    A view owns no lanes: ``_lanes`` reads the bytes of the register it views (its *storage*,
    ``_base``) as its own dtype and writes replace them, so both see every write. Reads and
    writes go through the storage's :meth:`RegTensor.get` / :meth:`RegTensor.put_known`, so a
    batched loop journals and checks the one register that holds the bytes.
    """

    __slots__ = ()
    _base: RegTensor[Any, Any]
    _np_dtype: ClassVar[np.dtype[Any]]

    def __init__(self, src: Any = None) -> None:  # made by RegTensor.__new__: nothing to set
        pass

    @property
    def _lanes(self) -> np.ndarray[Any, Any] | None:
        held = self._base._lanes
        return None if held is None else _as_dtype(held, self._np_dtype)

    @_lanes.setter
    def _lanes(self, lanes: np.ndarray[Any, Any] | None) -> None:
        base = self._base
        base._lanes = None if lanes is None else _as_dtype(lanes, base._np_dtype)

    def get(self) -> np.ndarray[Any, Any]:
        return _as_dtype(self._base.get(), self._np_dtype)

    def put_known(self, lanes: np.ndarray[Any, Any]) -> None:
        base = self._base
        base.put_known(_as_dtype(lanes, base._np_dtype))

    def __repr__(self) -> str:
        text = RegTensor.__repr__(self)  # type: ignore[arg-type]
        name = type(self).__name__
        return text.replace(name, f"{name} (a view of {type(self._base).__name__})", 1)

    __str__ = __repr__


def _as_dtype(lanes: np.ndarray[Any, Any], dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """Return *lanes* (one row or one row per iteration) reinterpreted as *dtype*, no copy if can."""
    if lanes.dtype is dtype:
        return lanes
    if lanes.dtype.itemsize != dtype.itemsize and not lanes.flags.c_contiguous:
        lanes = np.ascontiguousarray(lanes)  # a broadcast row: its bytes laid out once
    return lanes.view(dtype)


_VIEW_CLASSES: dict[type[Any], type[Any]] = {}
"""The view class of each register class (made on first use)."""


def _view_class(cls: type[RegTensor[Any, Any]]) -> type[Any]:
    """Return the class of views of type *cls*: a subclass named as *cls* (same checks, repr)."""
    found = _VIEW_CLASSES.get(cls)
    if found is None:
        namespace = {"__slots__": ("_base",), "__qualname__": cls.__qualname__,
                     "__module__": cls.__module__, "__doc__": cls.__doc__}  # fmt: skip
        found = _VIEW_CLASSES[cls] = type(cls.__name__, (_RegisterView, cls), namespace)
    return found


def plain_class(reg: Any) -> type[Any]:
    """Return the register type of *reg*: its class, or for a view the class it was cast to.

    Examples
    --------
    >>> from ascreg import Reg, half, uint16_t
    >>> x = Reg.RegTensor[half]()
    >>> plain_class(Reg.RegTensor[uint16_t](x)) is Reg.RegTensor[uint16_t]
    True
    """
    cls = type(reg)
    return cls.__mro__[2] if issubclass(cls, _RegisterView) else cls


def storage(reg: Any) -> Any:
    """Return the register that holds *reg*'s bytes: *reg* itself, or the register a view views.

    Examples
    --------
    >>> from ascreg import Reg, half, uint16_t
    >>> x = Reg.RegTensor[half]()
    >>> storage(Reg.RegTensor[uint16_t](x)) is x, storage(x) is x
    (True, True)
    """
    return reg._base if isinstance(reg, _RegisterView) else reg


def reinterpret(src: Any, cls: type[R_]) -> R_:
    """Return *src* viewed as a register of type *cls*: C++ ``(RegTensor<U>&)src``.

    Spelled ``Reg.RegTensor[U](src)`` (and ``vector_int16_t(src)`` for the C cast
    ``(vector_int16_t)src``). The view shares *src*'s bytes: an op writing the view changes
    *src* and the other way round, as the C++ reference does. Both hold the same total bits
    (one 256-byte register, or two for ``RegTraitNumTwo``); the view is written exactly when
    *src* is, and a mask given to an op on the view selects lanes of the view's type (bit
    ``i * sizeof(U)`` for lane ``i``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, half, uint16_t
    >>> x = Reg.RegTensor[half](); x.set(1.0)
    >>> bits = Reg.RegTensor[uint16_t](x)
    >>> hex(int(bits.get()[0]))
    '0x3c00'
    >>> bits.set(0); float(x.get()[0])
    0.0
    >>> Reg.RegTensor[uint16_t](Reg.MaskReg())
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: Reg.RegTensor: a register cast takes a vector register, got MaskReg MaskReg(<never written>)
    """
    call = "Reg.RegTensor" if cls.__module__.startswith("ascreg.machine") else cls.__name__
    if not isinstance(src, RegTensor):
        raise AscregTypeError(
            f"a register cast takes a vector register, got {type(src).__name__} {src!r:.60}",
            call=call,
        )
    if cls.lanes * cls.dtype.size != src.lanes * src.dtype.size:
        raise AscregTypeError(
            f"{cls.__name__} holds {cls.lanes * cls.dtype.size} bytes, {type(src).__name__} "
            f"{src.lanes * src.dtype.size}: a register cast keeps the total bits (a "
            "RegTraitNumTwo register is two registers; cast it to another 64-bit "
            "RegTraitNumTwo type)",
            call=call,
        )
    view = object.__new__(_view_class(cls))
    view._base = storage(src)
    return view  # type: ignore[no-any-return]


class MaskReg:
    """A 256-bit mask register (C++ ``AscendC::Reg::MaskReg``, C ``vector_bool``).

    ``mask.active(T)`` gives the per-lane view for an op on ``T``; ``print(mask)`` summarises
    which lanes are on at the widest lane width that explains the bits.

    Examples
    --------
    >>> from ascreg import Reg, Ref, uint16_t
    >>> m = Reg.UpdateMask[uint16_t](Ref(100))
    >>> print(m)
    MaskReg(b16: lanes 0-99 on, 100 of 128)
    >>> int(m.active(uint16_t).sum())
    100
    """

    __slots__ = ("_bits", "_lanes_of", "born")

    def __init__(self) -> None:
        self._bits: np.ndarray[Any, Any] | None = None
        self.born = EPOCH[0]  # (a batched loop's plan makes one made in its body anew)
        # (enables, stride): the contiguous lane enables at that stride that the bits hold, so
        # that an op reading the mask at that stride skips the strided view; while _bits is
        # None (an eager compare's result), the bits are spread from them on first read
        self._lanes_of: tuple[np.ndarray[Any, Any], int] | None = None

    @classmethod
    def from_bits(cls, bits: np.ndarray[Any, Any]) -> MaskReg:
        """Build a mask from 256 booleans (bit k = element k).

        Examples
        --------
        >>> import numpy as np
        >>> MaskReg.from_bits(np.ones(256, bool)).count()
        256
        """
        array = np.asarray(bits)
        rows = array.ndim == 2 and array.shape[1] == MASK_BITS  # one mask per batched iteration
        if array.size != MASK_BITS and not rows:
            raise AscregTypeError(
                f"a MaskReg has {MASK_BITS} bits, got {array.size} of shape {array.shape}",
                call=current_call() or "MaskReg.from_bits",
            )
        mask = cls()
        # a copy: later changes to the caller's array must not reach the mask
        mask.set_bits(np.array(array, dtype=np.bool_).reshape(array.shape if rows else MASK_BITS))
        return mask

    @property
    def written(self) -> bool:
        """True once the mask was produced by an op or a load."""
        return self._bits is not None or self._lanes_of is not None

    def bits(self) -> np.ndarray[Any, Any]:
        """Return the 256 bits (no copy) or raise if the mask was never written."""
        bits = self._bits
        if bits is None and self._lanes_of is not None:
            bits = self._bits = spread_enables(*self._lanes_of)
        if BATCHING and id(self) not in BATCHING[-1].registers:  # read() ignores those
            BATCHING[-1].read(self, bits)
        if bits is None:
            undefined_behaviour(
                UninitializedRegisterError(
                    "MaskReg is read before anything was written to it "
                    "(its content is undefined on the chip)"
                )
            )
            bits = self._bits = np.zeros(MASK_BITS, dtype=np.bool_)
        return bits

    def kept_enables(self, stride: int) -> np.ndarray[Any, Any] | None:
        """Return the lane enables at *stride* the mask was made from, if it keeps them.

        A read of the mask, as :meth:`bits` is (a batched loop notes it); None when the mask
        keeps no enables at that stride (then :meth:`bits` gives them, viewed at the stride).

        Examples
        --------
        >>> import numpy as np
        >>> m = MaskReg(); m.set_enables(np.arange(128) < 3, 2)
        >>> int(m.kept_enables(2).sum()), m.kept_enables(4)
        (3, None)
        """
        known = self._lanes_of
        if BATCHING and id(self) not in BATCHING[-1].registers:  # read() ignores those
            BATCHING[-1].read(self, self.held())
        if known is not None and known[1] == stride:
            return known[0]
        return None

    def kept_words(self, stride: int) -> np.ndarray[Any, Any] | None:
        """Return the bits as one ``stride``-byte integer per lane (1 or 0), if that is what they are.

        Bits spread from kept enables at *stride* (:meth:`set_bits`) are, viewed as
        little-endian unsigned integers of *stride* bytes, exactly 1 for an enabled lane and 0
        for the others: a select on the raw bits of the lanes takes them as they are. A read of
        the mask, as :meth:`bits` is; None when the mask keeps no enables at *stride*.

        Examples
        --------
        >>> import numpy as np
        >>> m = MaskReg(); m.set_bits(spread_enables(np.arange(128) < 2, 2), np.arange(128) < 2, 2)
        >>> m.kept_words(2)[:3].tolist(), m.kept_words(4)
        ([1, 1, 0], None)
        """
        known, bits = self._lanes_of, self._bits
        if BATCHING and id(self) not in BATCHING[-1].registers:  # read() ignores those
            BATCHING[-1].read(self, self.held())
        if known is None or known[1] != stride or bits is None:
            return None
        return bits.view(LANE_WORDS[stride])

    def set_bits(
        self,
        bits: np.ndarray[Any, Any],
        enables: np.ndarray[Any, Any] | None = None,
        stride: int = 0,
    ) -> None:
        """Replace the 256 bits; *enables* (optional) are the lanes of stride *stride* they hold.

        An op that made *bits* from the contiguous enables of a whole register (a compare, an
        ``UpdateMask``) passes them along: an op reading the mask at that stride gets them
        instead of a strided view of the bits (the same values, read faster).

        Examples
        --------
        >>> import numpy as np
        >>> m = MaskReg(); m.set_bits(np.ones(256, bool)); m.count()
        256
        """
        if BATCHING:
            BATCHING[-1].write(self, self.held(), bits)
        self._bits = bits
        self._lanes_of = None if enables is None else (enables, stride)

    def held(self) -> np.ndarray[Any, Any] | None:
        """Return the bits the mask holds (None: unwritten), without reading it as an op does.

        The enables of an eager compare are spread into bits for the answer; the mask keeps
        them unspread (what a batched loop journals, to put back if it is undone).

        Examples
        --------
        >>> import numpy as np
        >>> m = MaskReg(); m.held() is None
        True
        >>> m.set_enables(np.arange(128) < 3, 2); int(m.held().sum())
        3
        """
        bits = self._bits
        if bits is None and self._lanes_of is not None:
            return spread_enables(*self._lanes_of)
        return bits

    def set_enables(self, enables: np.ndarray[Any, Any], stride: int) -> None:
        """Replace the mask by the lane enables of a whole register at *stride* bits per lane.

        The bits are spread from them only when something reads them; an op reading the mask
        at the same stride uses *enables* directly. Outside a batched loop only.

        Examples
        --------
        >>> import numpy as np
        >>> m = MaskReg(); m.set_enables(np.arange(128) < 3, 2)
        >>> print(m)
        MaskReg(b16: lanes 0-2 on, 3 of 128)
        """
        self._bits = None
        self._lanes_of = (enables, stride)

    def restore(self, bits: np.ndarray[Any, Any] | None) -> None:
        """Put back *bits* as they were (a batched loop's commit or undo), with no enables."""
        self._bits = bits
        self._lanes_of = None

    def active(self, dtype: type[Scalar] = bool_, trait: type[RegTrait] = RegTraitNumOne) -> Any:
        """Return the lane-enable view (a bool array of the lane count) for an op on *dtype*.

        Examples
        --------
        >>> from ascreg import Reg, uint32_t, MaskPattern
        >>> Reg.CreateMask[uint32_t, MaskPattern.VL4]().active(uint32_t)[:6]
        array([ True,  True,  True,  True, False, False])
        """
        lanes, stride = lane_geometry(dtype, trait)
        return self.bits()[..., 0 : lanes * stride : stride]

    def count(self) -> int:
        """Return the number of set bits."""
        return int(self.bits().sum())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        bits = self.bits().copy()
        return bits if dtype is None else bits.astype(dtype)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MaskReg) and bool(np.array_equal(self.bits(), other.bits()))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if not self.written:
            return "MaskReg(<never written>)"
        on = np.flatnonzero(self.bits())
        if on.size == 0:
            return "MaskReg(all off)"
        width = next(s for s in (8, 4, 2, 1) if not (on % s).any())
        lanes = on // width
        return f"MaskReg(b{8 * width}: lanes {_ranges(lanes)} on, {lanes.size} of {MASK_BITS // width})"


# -- address and unaligned registers ----------------------------------------------------------


@attrs.frozen
class AddrReg:
    """An address register (C++ ``AddrReg``, C ``addr_reg``: the builtin ``vector_address``).

    ``offset`` counts units of ``width`` bytes: ``CreateAddrReg<T>`` counts elements of ``T``
    (``width = sizeof(T)``), ``asc_update_addr_reg_b8/_b16/_b32`` units of 1, 2 or 4 bytes.
    Every consumer (the Reg and C API loads and stores, aligned and unaligned, register and
    MaskReg forms) accesses its base pointer moved by ``offset * width`` bytes (:meth:`at`),
    whatever the pointer's element type: the unit belongs to the register, as on the chip
    (``vag_b8/_b16/_b32``).

    Examples
    --------
    >>> a = AddrReg(32, 4)
    >>> a.offset, a.width, a.byte_offset
    (32, 4, 128)
    """

    offset: int
    width: int = attrs.field(validator=attrs.validators.in_((1, 2, 4, 8)))

    @property
    def byte_offset(self) -> int:
        """The offset in bytes (``offset * width``)."""
        return self.offset * self.width

    def at(self, ptr: P) -> P:
        """Return *ptr* moved by this register's offset (``offset * width`` bytes).

        Examples
        --------
        >>> from ascreg import UnifiedBuffer, uint8_t
        >>> p = UnifiedBuffer().alloc(uint8_t, 512)
        >>> AddrReg(32, 4).at(p) - p  # 32 b32 elements: 128 bytes of uint8_t
        128
        """
        return ptr.offset_bytes(self.byte_offset)


def create_addr_reg(width: int, *indices_and_strides: int) -> AddrReg:
    """Build the register of ``CreateAddrReg<T>(i0, s0[, i1, s1[, i2, s2[, i3, s3]]])``.

    Its offset is the sum of ``i_k * s_k`` in elements of ``T`` (*width* = ``sizeof(T)``): the
    ``i_k`` are the enclosing loop counters (outermost first), the ``s_k`` strides; at most four
    pairs (four nested loops).

    Examples
    --------
    >>> create_addr_reg(2, 2, 128, 1, 16)
    AddrReg(offset=272, width=2)
    """
    pairs = indices_and_strides
    if len(pairs) not in (2, 4, 6, 8):
        raise AscregTypeError(f"takes 1 to 4 (index, stride) pairs, got {len(pairs)} arguments")
    offset = sum(int(i) * int(s) for i, s in zip(pairs[::2], pairs[1::2], strict=True))
    return AddrReg(offset, width)


class _UnalignState:
    """The fields of the 32-byte unaligned register, as a load stream and as a store stream."""

    __slots__ = ("address", "block", "held", "memory", "start", "used")
    memory: Memory | None
    address: int | None
    block: np.ndarray[Any, Any]
    start: int
    held: np.ndarray[Any, Any]
    used: bool

    def state(self) -> dict[str, Any]:
        """Return the register's fields as they are (its arrays are replaced, never written).

        Examples
        --------
        >>> from ascreg import Reg
        >>> sorted(Reg.UnalignRegForStore().state())
        ['held', 'memory', 'start', 'used']
        """
        return {
            name: getattr(self, name) for name in _UnalignState.__slots__ if hasattr(self, name)
        }

    def put_state(self, state: dict[str, Any]) -> None:
        """Give the register back the fields :meth:`state` returned."""
        for name, value in state.items():
            setattr(self, name, value)


class UnalignRegForLoad(_UnalignState):
    """The 32-byte unaligned load register (C++ ``UnalignRegForLoad``, C ``vector_load_unalign``).

    ``address`` is the UB address of the block it holds (None before ``LoadUnAlignPre``).

    Examples
    --------
    >>> from ascreg import Reg
    >>> Reg.UnalignRegForLoad()
    UnalignRegForLoad(<never filled>)
    """

    __slots__ = ()

    def __init__(self) -> None:
        self.memory = None
        self.address = None
        self.block = np.zeros(DATA_BLOCK, dtype=np.uint8)

    def __repr__(self) -> str:
        if self.address is None:
            return f"{type(self).__name__}(<never filled>)"
        return f"{type(self).__name__}(block at {self.address:#x})"


class UnalignRegForStore(_UnalignState):
    """The 32-byte unaligned store register (C++ ``UnalignRegForStore``, C ``vector_store_unalign``).

    ``held`` are the bytes a store kept back, to be written at ``start``; ``pending`` tells
    whether any are waiting for the next store or a ``StoreUnAlignPost``.

    Examples
    --------
    >>> from ascreg import Reg
    >>> u = Reg.UnalignRegForStore(); u.pending
    False
    """

    __slots__ = ()

    def __init__(self) -> None:
        self.memory = None
        self.start = 0
        self.held = np.zeros(0, dtype=np.uint8)
        self.used = False

    @property
    def pending(self) -> bool:
        """True while bytes are held back (not in UB yet)."""
        return self.held.size > 0

    @property
    def end(self) -> int:
        """The address where the stream stopped (one past the last held byte)."""
        return self.start + self.held.size

    def __repr__(self) -> str:
        name = type(self).__name__
        if not self.pending:
            return f"{name}(<nothing held>)"
        return f"{name}({self.held.size} bytes held for [{self.start:#x}, {self.end:#x}))"


class UnalignReg(UnalignRegForLoad, UnalignRegForStore):
    """C++ ``Reg::UnalignReg`` (older ``MicroAPI::UnalignReg``): the one unaligned register.

    In C++ ``UnalignReg``, ``UnalignRegForLoad`` and ``UnalignRegForStore`` are the same type
    (``vector_align``): one 32-byte register that a load stream or a store stream uses. An
    ``UnalignReg`` is accepted wherever either is. It is one register: a load into it while a
    store stream holds bytes in it would lose them (an undefined-behaviour error), and a store
    ends the load stream it held (the next ``LoadUnAlign`` needs a ``LoadUnAlignPre`` first).

    Examples
    --------
    >>> from ascreg import Reg
    >>> u = Reg.UnalignReg()
    >>> isinstance(u, Reg.UnalignRegForLoad), isinstance(u, Reg.UnalignRegForStore)
    (True, True)
    >>> u
    UnalignReg(<never filled>)
    """

    __slots__ = ()

    def __init__(self) -> None:
        UnalignRegForLoad.__init__(self)
        UnalignRegForStore.__init__(self)

    def __repr__(self) -> str:
        if self.pending:
            return UnalignRegForStore.__repr__(self)
        return UnalignRegForLoad.__repr__(self)

    def start_load(self) -> None:
        """Check that a load may fill the register: no store stream holds bytes in it."""
        if self.pending:
            undefined_behaviour(
                UndefinedBehaviourError(
                    f"a load into an UnalignReg that holds {self.held.size} bytes of a store "
                    "stream (UnalignReg is one register: the load would lose them; finish the "
                    "store with StoreUnAlignPost first)"
                )
            )
            self.held = self.held[:0]

    def start_store(self) -> None:
        """End the load stream the register held (a store refills it)."""
        self.address = None


def _ranges(indices: np.ndarray[Any, Any]) -> str:
    """Format sorted integers as ``0-3,8,10-11`` (capped for very fragmented masks)."""
    parts: list[str] = []
    start = prev = int(indices[0])
    for value in [*map(int, indices[1:]), None]:
        if value is not None and value == prev + 1:
            prev = value
            continue
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
        if value is not None:
            start = prev = value
    text = ",".join(parts)
    return text if len(parts) <= 12 else ",".join(parts[:12]) + ",..."
