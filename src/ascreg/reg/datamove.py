"""``LoadAlign`` / ``StoreAlign`` (vector and MaskReg forms) and ``CreateAddrReg``.

The C++ overload is picked from the arguments, as the compiler does:

======================================================  ===========================================
call                                                    C++ overload
======================================================  ===========================================
``LoadAlign[T, dist](dst, src)``                        single register
``LoadAlign[T, POST_MODE_UPDATE, dist](dst, Ref(src), n)``  load, then ``src += n`` elements
``LoadAlign[T, dist](dst, src, addr_reg)``              address ``src + addr_reg``
``LoadAlign[T, DIST_DINTLV_Bx](dst0, dst1, src)``       dual, de-interleaving (also post / AddrReg)
``LoadAlign[T, MaskDist.X](mask, src)``                 MaskReg (post-update, AddrReg in **bytes**)
``StoreAlign[T, dist](dst, src, mask)``                 masked store; masked-off UB bytes untouched
``StoreAlign[T, DIST_INTLV_Bx](dst, src0, src1, mask)`` dual, interleaving (mask ignored)
``StoreAlign[T, MaskDist.X](dst, mask_reg)``            MaskReg
``LoadAlign[T, DATA_BLOCK_COPY](dst, src, bs, mask)``   8 DataBlocks, block b at ``src + b*bs*32`` B
``LoadAlign[T, DATA_BLOCK_COPY, POST](dst, Ref(src),    the same at ``src``, then ``src += rs*32`` B
bs, rs, mask)``                                         (``POST_MODE_NORMAL``: at ``src + rs*32`` B)
``StoreAlign[T, DATA_BLOCK_COPY[, POST]](dst, src,      the DataBlock stores (fully masked blocks
bs[, rs], mask)``                                       are never accessed)
======================================================  ===========================================

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, Ref, UnifiedBuffer, uint16_t, PostLiteral
>>> ub = UnifiedBuffer(); src = ub.alloc(uint16_t, 256); src.write(np.arange(256))
>>> r = Reg.RegTensor[uint16_t](); p = Ref(src)
>>> Reg.LoadAlign[uint16_t, PostLiteral.POST_MODE_UPDATE](r, p, 128)
>>> int(r.get()[0]), p.value - src
(0, 128)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._frontend import operands
from ascreg._frontend.operands import REG
from ascreg._frontend.template import Template
from ascreg.core import datamove as core
from ascreg.enums import DataCopyMode, LoadDist, MaskDist, PostLiteral, StoreDist
from ascreg.errors import AscregTypeError, RefRequiredError
from ascreg.machine.memory import Pointer, UbPtr
from ascreg.machine.ref import Ref
from ascreg.machine.registers import (
    AddrReg,
    MaskReg,
    RegTensor,
    RegTraitNumTwo,
    create_addr_reg,
)


class _CreateAddrReg(Template):
    """``CreateAddrReg<T>(i0, s0[, i1, s1[, i2, s2[, i3, s3]]])``: offset = sum of ``i_k * s_k``.

    The ``i_k`` are the enclosing loop counters (outermost first), the ``s_k`` strides in
    elements of ``T``.

    Examples
    --------
    >>> from ascreg import Reg, half
    >>> Reg.CreateAddrReg[half](2, 128, 1, 16)
    AddrReg(offset=272)
    """

    name = "Reg.CreateAddrReg"

    def __call__(self, *indices_and_strides: int) -> AddrReg:
        _ascreg_call = self.name
        return create_addr_reg(*indices_and_strides)


class _Access(Template):
    """Shared address handling of LoadAlign and StoreAlign."""

    def _setup(self) -> None:
        self._plain: set[tuple[type, ...]] = set()
        """Argument-type tuples of plain ``(register, pointer[, mask])`` calls that passed every
        static check once; later calls with them skip straight to the access."""
        update = PostLiteral.POST_MODE_UPDATE
        self.post = self.t.enum(PostLiteral, PostLiteral.POST_MODE_NORMAL) is update
        self.post_given = PostLiteral in self.t.enums
        self.mask_dist = self.t.enum(MaskDist, MaskDist.DIST_NORM).name
        self.blocks = DataCopyMode in self.t.enums

    def _block_address(
        self, reg: RegTensor[Any, Any], args: tuple[Any, ...]
    ) -> tuple[Pointer[Any], Any, int, int, MaskReg]:
        """Parse a DataBlock form: ``(address, Ref or None, block stride, repeat stride, mask)``.

        ``(src, dataBlockStride, mask)`` is overload 7 (no PostLiteral);
        ``(src, dataBlockStride, repeatStride, mask)`` is overload 8, which names its PostLiteral.
        """
        if reg.trait is RegTraitNumTwo:
            raise AscregTypeError("the DataBlock forms take RegTraitNumOne registers")
        if len(args) == 3 and not self.post_given:
            (src, block_stride, mask), repeat_stride = args, 0
        elif len(args) == 4 and self.post_given:
            src, block_stride, repeat_stride, mask = args
        else:
            raise AscregTypeError(
                "DATA_BLOCK_COPY takes (reg, src, dataBlockStride, mask), or with a PostLiteral "
                f"template argument (reg, src, dataBlockStride, repeatStride, mask); got {len(args)} "
                "arguments after the register"
                + (" and a PostLiteral" if self.post_given else " and no PostLiteral")
            )
        ptr, ref, _ = _resolve_address(self.post, src, (0,) if self.post else (), False)
        _match_pointer(ptr, reg)
        return ptr, ref, block_stride, repeat_stride, operands.mask(mask, "mask", REG)

    def _address(
        self, src: Any, rest: tuple[Any, ...], *, in_bytes: bool = False
    ) -> tuple[Pointer[Any], Any, Any]:
        """Resolve the address operand: ``(pointer to access, Ref to update or None, stride)``.

        *in_bytes*: an AddrReg offset counts bytes (the MaskReg forms), not elements.
        """
        if not rest and not self.post and type(src) is UbPtr:
            return src, None, None  # the common case, checked with no further work
        return _resolve_address(self.post, src, rest, in_bytes)


def _resolve_address(
    post: bool, src: Any, rest: tuple[Any, ...], in_bytes: bool
) -> tuple[Pointer[Any], Any, Any]:
    if post:
        if not isinstance(src, Ref):
            raise RefRequiredError(
                f"POST_MODE_UPDATE updates the address ('T*& src'): pass ascreg.Ref({src!r}), "
                "not the plain pointer"
            )
        if len(rest) != 1 or not isinstance(rest[0], int | np.integer):
            raise AscregTypeError("POST_MODE_UPDATE takes one int32_t stride after the address")
        ptr = _pointer(src.value)
        return ptr, src, int(rest[0])
    if isinstance(src, Ref):
        raise AscregTypeError(
            "a Ref address needs PostLiteral.POST_MODE_UPDATE in the template arguments"
        )
    ptr = _pointer(src)
    if rest and isinstance(rest[0], AddrReg):
        offset = rest[0].offset
        return (ptr.offset_bytes(offset) if in_bytes else ptr + offset), None, None
    if rest:
        raise AscregTypeError(
            f"unexpected argument {rest[0]!r}: an offset needs an AddrReg or POST_MODE_UPDATE"
        )
    return ptr, None, None


def _pointer(obj: Any) -> Pointer[Any]:
    if not isinstance(obj, Pointer):
        raise AscregTypeError(f"expected a __ubuf__ pointer, got {type(obj).__name__} {obj!r:.60}")
    core.check_in_ub(obj, "a Reg load/store")
    return obj


def _trait_one_for_addr_reg(reg: RegTensor[Any, Any], rest: tuple[Any, ...]) -> None:
    """Reject the AddrReg overloads for RegTraitNumTwo registers (spec §3.2, §3.4)."""
    if reg.trait is RegTraitNumTwo and rest and isinstance(rest[0], AddrReg):
        raise AscregTypeError(
            f"the AddrReg form takes RegTraitNumOne registers, not {type(reg).__name__} "
            "(RegTraitNumTwo supports the plain and POST_MODE_UPDATE forms only)"
        )


def _match_pointer(ptr: Pointer[Any], reg: RegTensor[Any, Any]) -> None:
    if ptr.dtype is not reg.dtype:
        raise AscregTypeError(
            f"the pointer is {ptr.space} {ptr.dtype.cpp_name}* but the register is "
            f"{type(reg).__name__} (C++ deduces one T for both)"
        )


class _LoadAlign(_Access):
    """``LoadAlign``: load a register (or two, or a MaskReg) from a 32-byte aligned UB address.

    There is no mask: a load always reads what its ``LoadDist`` defines (NORM: VL bytes;
    BRC: one element broadcast; US/DS: up/down-sample; UNPACK/UNPACK4: zero-interleave;
    BLK: one DataBlock x8; E2B: element to DataBlock; DINTLV: 2*VL split even/odd).
    See the module table for the overloads.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, UnifiedBuffer, int16_t, LoadDist
    >>> p = UnifiedBuffer().alloc(int16_t, 128); p.write(np.arange(128))
    >>> r = Reg.RegTensor[int16_t]()
    >>> Reg.LoadAlign[int16_t, LoadDist.DIST_BRC_B16](r, p + 5)
    >>> np.asarray(r)[:3]
    array([5, 5, 5], dtype=int16)
    """

    name = "Reg.LoadAlign"
    enum_kinds = (LoadDist, PostLiteral, MaskDist, DataCopyMode)

    def _setup(self) -> None:
        super()._setup()
        self.dist = self.t.enum(LoadDist, LoadDist.DIST_NORM).name

    def __call__(self, dst: Any, *args: Any) -> None:
        _ascreg_call = self.name
        if len(args) == 1 and (type(dst), type(args[0])) in self._plain:
            src = args[0]
            if src.dtype is dst.dtype:  # a form already validated: only the address is new
                dst.put(core.load(src, self.dist, dst.lanes))
                return
        if isinstance(dst, MaskReg):
            self._load_mask(dst, args)
            return
        reg = operands.register(dst, "dst", REG)
        self.template_dtype(reg)
        if self.blocks:
            ptr, ref, block_stride, repeat_stride, mask = self._block_address(reg, args)
            lanes, following = core.load_block_stream(
                ptr, operands.lane_enables(mask, reg), block_stride, repeat_stride, post=self.post
            )
            reg.put(lanes)
            if ref is not None:
                ref.value = following
            return
        if args and isinstance(args[0], RegTensor):
            self._load_dual(reg, operands.register(args[0], "dst1", REG), args[1], args[2:])
            return
        if not args:
            raise AscregTypeError("LoadAlign(dst, src) needs a source address")
        ptr, ref, stride = self._address(args[0], args[1:])
        _match_pointer(ptr, reg)
        _trait_one_for_addr_reg(reg, args[1:])
        dist = self.dist
        if reg.trait is RegTraitNumTwo and dist != "DIST_NORM":
            raise AscregTypeError(f"RegTraitNumTwo registers load with DIST_NORM only, not {dist}")
        reg.put(core.load(ptr, dist, reg.lanes))
        if ref is not None:
            ref.value = ptr + stride
        elif len(args) == 1:
            self._plain.add((type(reg), type(ptr)))

    def _load_dual(
        self, dst0: RegTensor[Any, Any], dst1: RegTensor[Any, Any], src: Any, rest: tuple[Any, ...]
    ) -> None:
        operands.same_type(REG, dst0, dst1)
        ptr, ref, stride = self._address(src, rest)
        _match_pointer(ptr, dst0)
        dist = self.dist
        if dst0.trait is RegTraitNumTwo:
            raise AscregTypeError("the dual LoadAlign forms take RegTraitNumOne registers")
        even, odd = core.deinterleave(core.load(ptr, dist, dst0.lanes, dual=True))
        dst0.put(even)
        dst1.put(odd)
        if ref is not None:
            ref.value = ptr + stride

    def _load_mask(self, dst: MaskReg, args: tuple[Any, ...]) -> None:
        if not args:
            raise AscregTypeError("LoadAlign(mask, src) needs a source address")
        ptr, ref, stride = self._address(args[0], args[1:], in_bytes=True)
        dist = self.mask_dist
        dst.set_bits(core.load_mask(ptr, dist))
        if ref is not None:
            ref.value = ptr.offset_bytes(stride)


class _StoreAlign(_Access):
    """``StoreAlign``: store a register (or two, or a MaskReg) to an aligned UB address.

    Lanes the mask does not select leave their UB bytes untouched. The ``FIRST_ELEMENT`` and
    ``INTLV`` dists ignore the mask. ``PACK`` dists write the low half (``PACK4``: quarter) of
    each enabled lane at its packed position.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, UnifiedBuffer, uint32_t, MaskPattern
    >>> p = UnifiedBuffer().alloc(uint32_t, 64); p.write(np.full(64, 7))
    >>> r = Reg.RegTensor[uint32_t](); r.set(np.arange(64))
    >>> Reg.StoreAlign(p, r, Reg.CreateMask[uint32_t, MaskPattern.VL2]())
    >>> p.read(4)
    array([0, 1, 7, 7], dtype=uint32)
    """

    name = "Reg.StoreAlign"
    enum_kinds = (StoreDist, PostLiteral, MaskDist, DataCopyMode)

    def _setup(self) -> None:
        super()._setup()
        self.dist = self.t.enum(StoreDist, StoreDist.DIST_NORM).name

    def __call__(self, dst: Any, src: Any, *args: Any) -> None:
        _ascreg_call = self.name
        if (
            len(args) == 1
            and (type(src), type(dst), type(args[0])) in self._plain
            and dst.dtype is src.dtype  # a form already validated: only the address is new
        ):
            core.store(dst, src.get(), operands.lane_enables(args[0], src), self.dist)
            return
        if isinstance(src, MaskReg):
            ptr, ref, stride = self._address(dst, args, in_bytes=True)
            core.store_mask(ptr, src.bits(), self.mask_dist)
            if ref is not None:
                ref.value = ptr.offset_bytes(stride)
            return
        reg = operands.register(src, "src", REG)
        self.template_dtype(reg)
        if self.blocks:
            ptr, ref, block_stride, repeat_stride, mask = self._block_address(reg, (dst, *args))
            following = core.store_block_stream(
                ptr,
                reg.get(),
                operands.lane_enables(mask, reg),
                block_stride,
                repeat_stride,
                post=self.post,
            )
            if ref is not None:
                ref.value = following
            return
        if args and isinstance(args[0], RegTensor):
            self._store_dual(dst, reg, operands.register(args[0], "src1", REG), args[1:])
            return
        if not args:
            raise AscregTypeError("StoreAlign(dst, src, mask) needs a mask")
        mask = operands.mask(args[-1], "mask", REG)
        ptr, ref, stride = self._address(dst, args[:-1])
        _match_pointer(ptr, reg)
        _trait_one_for_addr_reg(reg, args[:-1])
        dist = self.dist
        lanes, active = reg.get(), operands.lane_enables(mask, reg)
        if reg.trait is RegTraitNumTwo and ref is not None:
            # Two vsts of 32 lanes; the second lands min(stride, 32) elements further on.
            half = reg.lanes // 2
            core.store(ptr, lanes[:half], active[:half], dist)
            core.store(ptr + min(stride, half), lanes[half:], active[half:], dist)
        else:
            core.store(ptr, lanes, active, dist)
        if ref is not None:
            ref.value = ptr + stride
        elif len(args) == 1:
            self._plain.add((type(reg), type(ptr), type(mask)))

    def _store_dual(
        self, dst: Any, src0: RegTensor[Any, Any], src1: RegTensor[Any, Any], rest: tuple[Any, ...]
    ) -> None:
        operands.same_type(REG, src0, src1)
        if not rest:
            raise AscregTypeError("StoreAlign(dst, src0, src1, mask) needs a mask")
        operands.mask(rest[-1], "mask", REG)
        ptr, _, _ = self._address(dst, rest[:-1])
        _match_pointer(ptr, src0)
        dist = self.dist
        core.store_interleaved(ptr, src0.get(), src1.get(), dist)


LoadAlign = _LoadAlign()
StoreAlign = _StoreAlign()
CreateAddrReg = _CreateAddrReg()
