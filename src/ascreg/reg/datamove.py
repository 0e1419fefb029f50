"""``LoadAlign`` / ``StoreAlign``, ``CreateAddrReg``, ``LocalMemBar`` and ``DataCopy``.

``DataCopy`` is the older name of both accesses (the operand kinds pick one).

The C++ overload is picked from the arguments, as the compiler does:

======================================================  ===========================================
call                                                    C++ overload
======================================================  ===========================================
``LoadAlign[T, dist](dst, src)``                        single register
``LoadAlign[T, POST_MODE_UPDATE, dist](dst, Ref(src), n)``  load, then ``src += n`` elements
``LoadAlign[T, dist](dst, src, addr_reg)``              address ``src + addr_reg``
``LoadAlign[T, DIST_DINTLV_Bx](dst0, dst1, src)``       dual, de-interleaving (also post / AddrReg)
``LoadAlign[T, MaskDist.X](mask, src)``                 MaskReg (post-update stride in **bytes**)
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

from ascreg._frontend import operands, rules
from ascreg._frontend.dispatch import KindDispatch
from ascreg._frontend.operands import REG
from ascreg._frontend.template import TemplateArgs, define
from ascreg.core import datamove as core
from ascreg.enums import DataCopyMode, LoadDist, MaskDist, MemType, PostLiteral, StoreDist
from ascreg.errors import AscregTypeError, OutOfBoundsError
from ascreg.machine.block import running_block
from ascreg.machine.memory import Pointer, UbPtr
from ascreg.machine.ref import Ref
from ascreg.machine.registers import (
    AddrReg,
    MaskReg,
    RegTensor,
    RegTraitNumTwo,
    create_addr_reg,
)

_Address = tuple[Pointer[Any], Ref[Any] | None, int]
"""A resolved address operand: the pointer to access, the ``Ref`` to update (or None) and the
post-update stride."""


@define("Reg.CreateAddrReg", batch=rules.ROWS)  # a value of its integer arguments
def CreateAddrReg(op: Any, *indices_and_strides: Any) -> AddrReg:
    """``CreateAddrReg<T>(i0, s0[, i1, s1[, i2, s2[, i3, s3]]])``: offset = sum of ``i_k * s_k``.

    The ``i_k`` are the enclosing loop counters (outermost first), the ``s_k`` strides in
    elements of ``T``: every consumer accesses its address moved by ``offset * sizeof(T)``
    bytes, register and MaskReg forms alike. ``T`` (b8/b16/b32/b64) is required, as in C++
    (it cannot be deduced).

    Examples
    --------
    >>> from ascreg import Reg, half
    >>> Reg.CreateAddrReg[half](2, 128, 1, 16)
    AddrReg(offset=272, width=2)
    """
    if not op.t.dtypes:
        raise AscregTypeError(
            "needs its template argument T (CreateAddrReg[T](...)): the offset counts elements "
            "of T and C++ cannot deduce T from the arguments"
        )
    roles = [("index", "stride")[k % 2] + str(k // 2) for k in range(len(indices_and_strides))]
    return create_addr_reg(op.t.dtypes[0].size, *map(operands.integer, indices_and_strides, roles))


# -- address operands shared by LoadAlign and StoreAlign -------------------------------------


def _access_setup(op: Any) -> None:
    """Derive the form of one LoadAlign/StoreAlign subscript from its template arguments."""
    # Argument-type tuples of plain ``(register, pointer[, mask])`` calls that passed every
    # static check once: later calls with them skip straight to the access.
    op.plain = set()
    op.post = op.t.enum(PostLiteral, PostLiteral.POST_MODE_NORMAL) is PostLiteral.POST_MODE_UPDATE
    op.post_given = PostLiteral in op.t.enums
    op.dist = op.t.enum(op.dist_kind, op.dist_kind.DIST_NORM).name
    op.mask_dist = op.t.enum(MaskDist, MaskDist.DIST_NORM).name
    op.blocks = DataCopyMode in op.t.enums


def _address(op: Any, obj: Any, role: str, rest: tuple[Any, ...]) -> _Address:
    """Resolve the address operand *obj* and the arguments *rest* that follow it.

    The post-update stride is returned as given (elements, bytes for the MaskReg forms: the
    caller applies it). An AddrReg counts elements of its own ``T`` on every form, the
    MaskReg forms included (:meth:`AddrReg.at`).
    """
    if not rest and not op.post and type(obj) is UbPtr:
        return obj, None, 0  # the common case, checked with no further work
    ptr, ref = operands.address(obj, op.post, role, REG)
    if ref is not None:
        if len(rest) != 1:
            raise AscregTypeError("POST_MODE_UPDATE takes one int32_t stride after the address")
        return ptr, ref, operands.integer(rest[0], "the post-update stride")
    if not rest:
        return ptr, None, 0
    if isinstance(rest[0], AddrReg):
        return rest[0].at(ptr), None, 0
    raise AscregTypeError(
        f"unexpected argument {rest[0]!r}: an offset needs an AddrReg or POST_MODE_UPDATE"
    )


def _vector_address(
    op: Any, obj: Any, role: str, rest: tuple[Any, ...], reg: RegTensor[Any, Any]
) -> _Address:
    """Resolve the address of a single-register form (see :func:`_address`).

    The pointer's element type must be the register's, and the AddrReg form needs a
    RegTraitNumOne register (spec §3.2, §3.4).
    """
    found = _address(op, obj, role, rest)
    operands.pointer_type(found[0], reg, REG)
    if reg.trait is RegTraitNumTwo and rest and isinstance(rest[0], AddrReg):
        raise AscregTypeError(
            f"the AddrReg form takes RegTraitNumOne registers, not {type(reg).__name__} "
            "(RegTraitNumTwo supports the plain and POST_MODE_UPDATE forms only)"
        )
    return found


def _block_operands(
    op: Any, reg: RegTensor[Any, Any], args: tuple[Any, ...], role: str
) -> tuple[Pointer[Any], Ref[Any] | None, Any, Any, core.Lanes]:
    """Parse a DataBlock form: ``(address, Ref or None, block stride, repeat stride, enables)``.

    ``(src, dataBlockStride, mask)`` is overload 7 (no PostLiteral);
    ``(src, dataBlockStride, repeatStride, mask)`` is overload 8, which names its PostLiteral.
    """
    if reg.trait is RegTraitNumTwo:
        raise AscregTypeError("the DataBlock forms take RegTraitNumOne registers")
    if len(args) == 3 and not op.post_given:
        (addr, block_stride, mask), repeat_stride = args, 0
    elif len(args) == 4 and op.post_given:
        addr, block_stride, repeat_stride, mask = args
    else:
        raise AscregTypeError(
            "DATA_BLOCK_COPY takes (reg, src, dataBlockStride, mask), or with a PostLiteral "
            f"template argument (reg, src, dataBlockStride, repeatStride, mask); got {len(args)} "
            "arguments after the register"
            + (" and a PostLiteral" if op.post_given else " and no PostLiteral")
        )
    ptr, ref = operands.address(addr, op.post, role, REG)
    operands.pointer_type(ptr, reg, REG)
    enables = operands.lane_enables(operands.mask(mask, "mask", REG), reg)
    return ptr, ref, block_stride, repeat_stride, enables


_ACCESS_ENUMS = (PostLiteral, MaskDist, DataCopyMode)


def _batched_load(op: Any, args: tuple[Any, ...], batch: Any) -> tuple[Any, ...] | None:
    """Admit ``LoadAlign(dst, src)`` (or post-update): one address per iteration.

    Any single-register dist: each mode builds an iteration's lanes from its own elements; a
    MaskReg its bits from its own bytes. The dual (DINTLV) form ``LoadAlign(dst0, dst1,
    src)`` too: each iteration's two registers of its own ``2 * VL`` bytes.
    """
    if op.blocks:
        return None
    dual = core.LOAD_MODES.get(op.dist, _DUAL).dual
    if dual and len(args) == 3 + op.post and isinstance(args[1], RegTensor):
        if not (rules.one_block(args[0], op.post) and rules.one_block(args[1], op.post)):
            return None
        return (*args[:2], rules.access_address(op.post, args[2], args[3:], batch), *args[3:])
    if len(args) != 2 + op.post:
        return None
    if isinstance(args[0], MaskReg) and op.mask_dist is not None:
        at = rules.mask_access_address(op.post, args[1], args[2:], batch)
        return None if at is None else (args[0], at, *args[2:])
    if core.LOAD_MODES.get(op.dist, _DUAL).dual or not rules.one_block(args[0], op.post):
        return None
    return (args[0], rules.access_address(op.post, args[1], args[2:], batch), *args[2:])


def _batched_store(op: Any, args: tuple[Any, ...], batch: Any) -> tuple[Any, ...] | None:
    """Admit ``StoreAlign(dst, src, mask)`` (or post-update): one address per iteration.

    Any single-register dist: NORM, FIRST_ELEMENT, PACK.
    """
    if len(args) != 3 + op.post or op.blocks or core.STORE_MODES.get(op.dist, _DUAL).dual:
        return None
    if not (rules.one_block(args[1], op.post) and isinstance(args[-1], MaskReg)):
        return None
    return (rules.access_address(op.post, args[0], args[2:-1], batch), *args[1:])


_DUAL = core.STORE_MODES["DIST_INTLV_B8"]  # what an unknown dist is taken for: not admitted

_ALIGNED_LOAD = rules.BatchRule(
    "aligned load", "its single-register forms load one register per iteration", _batched_load
)
_ALIGNED_STORE = rules.BatchRule(
    "aligned store", "its single-register forms store one register per iteration", _batched_store
)


# -- LoadAlign --------------------------------------------------------------------------------


@define(
    "Reg.LoadAlign",
    enum_kinds=(LoadDist, *_ACCESS_ENUMS),
    dist_kind=LoadDist,
    _setup=_access_setup,
    batch=_ALIGNED_LOAD,
)
def LoadAlign(op: Any, dst: Any, *args: Any) -> None:
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
    if len(args) == 1 and (type(dst), type(args[0])) in op.plain:
        src = args[0]
        if src.dtype is dst.dtype:  # a form already validated: only the address is new
            dst.put_known(core.load(src, op.dist, dst.lanes))
            return
    if isinstance(dst, MaskReg):
        _load_mask(op, dst, args)
        return
    reg = operands.register(dst, "dst", REG)
    op.template_dtype(reg)
    if op.blocks:
        _load_blocks(op, reg, args)
    elif args and isinstance(args[0], RegTensor):
        _load_dual(op, reg, operands.register(args[0], "dst1", REG), args[1:])
    else:
        _load_single(op, reg, args)


def _load_single(op: Any, reg: RegTensor[Any, Any], args: tuple[Any, ...]) -> None:
    if not args:
        raise AscregTypeError("LoadAlign(dst, src) needs a source address")
    ptr, ref, stride = _vector_address(op, args[0], "src", args[1:], reg)
    if reg.trait is RegTraitNumTwo and op.dist != "DIST_NORM":
        raise AscregTypeError(f"RegTraitNumTwo registers load with DIST_NORM only, not {op.dist}")
    reg.put(core.load(ptr, op.dist, reg.lanes))
    if ref is not None:
        ref.value = ptr + stride
    elif len(args) == 1:
        op.plain.add((type(reg), type(ptr)))


def _load_dual(
    op: Any, dst0: RegTensor[Any, Any], dst1: RegTensor[Any, Any], args: tuple[Any, ...]
) -> None:
    operands.same_type(REG, dst0, dst1)
    if not args:
        raise AscregTypeError("LoadAlign(dst0, dst1, src) needs a source address")
    ptr, ref, stride = _address(op, args[0], "src", args[1:])
    operands.pointer_type(ptr, dst0, REG)
    if dst0.trait is RegTraitNumTwo:
        raise AscregTypeError("the dual LoadAlign forms take RegTraitNumOne registers")
    even, odd = core.load_dual(ptr, op.dist, dst0.lanes)
    dst0.put(even)
    dst1.put(odd)
    if ref is not None:
        ref.value = ptr + stride


def _load_blocks(op: Any, reg: RegTensor[Any, Any], args: tuple[Any, ...]) -> None:
    ptr, ref, block_stride, repeat_stride, enables = _block_operands(op, reg, args, "src")
    lanes, following = core.load_block_stream(
        ptr, enables, block_stride, repeat_stride, post=op.post
    )
    reg.put(lanes)
    if ref is not None:
        ref.value = following


def _load_mask(op: Any, dst: MaskReg, args: tuple[Any, ...]) -> None:
    if not args:
        raise AscregTypeError("LoadAlign(mask, src) needs a source address")
    ptr, ref, stride = _address(op, args[0], "src", args[1:])
    dst.set_bits(core.load_mask(ptr, op.mask_dist))
    if ref is not None:
        ref.value = ptr.offset_bytes(stride)


# -- StoreAlign -------------------------------------------------------------------------------


@define(
    "Reg.StoreAlign",
    enum_kinds=(StoreDist, *_ACCESS_ENUMS),
    dist_kind=StoreDist,
    _setup=_access_setup,
    batch=_ALIGNED_STORE,
)
def StoreAlign(op: Any, dst: Any, src: Any, *args: Any) -> None:
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
    try:
        _store_align(op, dst, src, args)
    except OutOfBoundsError as exc:
        hint = _pack_hint(op, src, args)
        if not hint:
            raise
        raise OutOfBoundsError(f"{exc.detail}; {hint}", call=exc.call) from None


_PACK_DISTS = {(1, 2): "DIST_PACK_B16", (2, 2): "DIST_PACK_B32", (4, 2): "DIST_PACK_B64",
               (1, 4): "DIST_PACK4_B32"}  # fmt: skip
"""The StoreDist that packs (register element size, lanes per mask lane) after a narrowing Cast."""


def _pack_hint(op: Any, src: Any, args: tuple[Any, ...]) -> str:
    """Explain a plain store of a narrowing Cast's result, whose mask is the wider type's.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Ref, Reg, UnifiedBuffer, half, float32_t
    >>> mask = Reg.UpdateMask[float32_t](Ref(61))
    >>> narrow = Reg.RegTensor[half](); narrow.set(np.zeros(128))
    >>> Reg.StoreAlign(UnifiedBuffer().alloc(half, 64), narrow, mask)
    Traceback (most recent call last):
    ...
    ascreg.errors.OutOfBoundsError: Reg.StoreAlign: writes 242 bytes ... leaves the allocation; the mask enables every 2nd half lane (a mask of a 4-byte type, as a narrowing Cast leaves its result): store the packed lanes with Reg.StoreAlign[half, StoreDist.DIST_PACK_B32](dst, src, mask)
    """
    if op.dist != "DIST_NORM" or not isinstance(src, RegTensor) or not args:
        return ""
    mask = args[-1]
    if not isinstance(mask, MaskReg):
        return ""
    on = np.flatnonzero(mask.bits())
    size = src.dtype.size
    width = next((w for w in (8, 4, 2, 1) if on.size and not (on % w).any()), size)
    dist = _PACK_DISTS.get((size, width // size))
    if dist is None:
        return ""
    name = src.dtype.cpp_name
    return (
        f"the mask enables every {width // size}{'nd' if width // size == 2 else 'th'} {name} "
        f"lane (a mask of a {width}-byte type, as a narrowing Cast leaves its result): store the "
        f"packed lanes with Reg.StoreAlign[{name}, StoreDist.{dist}](dst, src, mask)"
    )


def _store_align(op: Any, dst: Any, src: Any, args: tuple[Any, ...]) -> None:
    if (
        len(args) == 1
        and (type(src), type(dst), type(args[0])) in op.plain
        and dst.dtype is src.dtype  # a form already validated: only the address is new
    ):
        core.store(dst, src.get(), operands.lane_enables(args[0], src), op.dist)
        return
    if isinstance(src, MaskReg):
        _store_mask(op, dst, src, args)
        return
    reg = operands.register(src, "src", REG)
    op.template_dtype(reg)
    if op.blocks:
        _store_blocks(op, reg, (dst, *args))
    elif args and isinstance(args[0], RegTensor):
        _store_dual(op, dst, reg, operands.register(args[0], "src1", REG), args[1:])
    else:
        _store_single(op, dst, reg, args)


def _store_single(op: Any, dst: Any, reg: RegTensor[Any, Any], args: tuple[Any, ...]) -> None:
    if not args:
        raise AscregTypeError("StoreAlign(dst, src, mask) needs a mask")
    mask = operands.mask(args[-1], "mask", REG)
    ptr, ref, stride = _vector_address(op, dst, "dst", args[:-1], reg)
    lanes, enables = reg.get(), operands.lane_enables(mask, reg)
    if reg.trait is RegTraitNumTwo and ref is not None:
        core.store_two_post(ptr, lanes, enables, op.dist, stride)
    else:
        core.store(ptr, lanes, enables, op.dist)
    if ref is not None:
        ref.value = ptr + stride
    elif len(args) == 1:
        op.plain.add((type(reg), type(ptr), type(mask)))


def _store_dual(
    op: Any, dst: Any, src0: RegTensor[Any, Any], src1: RegTensor[Any, Any], rest: tuple[Any, ...]
) -> None:
    operands.same_type(REG, src0, src1)
    if not rest:
        raise AscregTypeError("StoreAlign(dst, src0, src1, mask) needs a mask")
    operands.mask(rest[-1], "mask", REG)
    ptr, _, _ = _address(op, dst, "dst", rest[:-1])
    operands.pointer_type(ptr, src0, REG)
    core.store_interleaved(ptr, src0.get(), src1.get(), op.dist)


def _store_blocks(op: Any, reg: RegTensor[Any, Any], args: tuple[Any, ...]) -> None:
    ptr, ref, block_stride, repeat_stride, enables = _block_operands(op, reg, args, "dst")
    following = core.store_block_stream(
        ptr, reg.get(), enables, block_stride, repeat_stride, post=op.post
    )
    if ref is not None:
        ref.value = following


def _store_mask(op: Any, dst: Any, src: MaskReg, args: tuple[Any, ...]) -> None:
    ptr, ref, stride = _address(op, dst, "dst", args)
    core.store_mask(ptr, src.bits(), op.mask_dist)
    if ref is not None:
        ref.value = ptr.offset_bytes(stride)


# -- LocalMemBar: the in-VF barrier between UB access streams --------------------------------

_MEM_BAR_PAIRS = frozenset(
    {
        (MemType.VEC_STORE, MemType.VEC_LOAD),
        (MemType.VEC_LOAD, MemType.VEC_STORE),
        (MemType.VEC_STORE, MemType.VEC_STORE),
        (MemType.VEC_STORE, MemType.SCALAR_LOAD),
        (MemType.VEC_STORE, MemType.SCALAR_STORE),
        (MemType.VEC_LOAD, MemType.SCALAR_STORE),
        (MemType.SCALAR_STORE, MemType.VEC_LOAD),
        (MemType.SCALAR_STORE, MemType.VEC_STORE),
        (MemType.SCALAR_LOAD, MemType.VEC_STORE),
        (MemType.VEC_ALL, MemType.VEC_ALL),
        (MemType.VEC_ALL, MemType.SCALAR_ALL),
        (MemType.SCALAR_ALL, MemType.VEC_ALL),
    }
)
"""The documented ``(src, dst)`` pairs of ``LocalMemBar`` (LocalMemBar.md table 3)."""
_STORES = frozenset({MemType.VEC_STORE, MemType.SCALAR_STORE, MemType.VEC_ALL, MemType.SCALAR_ALL})
_LOADS = frozenset({MemType.VEC_LOAD, MemType.SCALAR_LOAD, MemType.VEC_ALL, MemType.SCALAR_ALL})


def _mem_bar_parse(self: Any, items: tuple[Any, ...]) -> TemplateArgs:
    """Keep ``LocalMemBar``'s two ``MemType`` arguments in order (src, dst)."""
    if not all(isinstance(m, MemType) for m in items):
        raise AscregTypeError(
            f"takes two MemType template arguments (src, dst), got {items!r}", call=self.name
        )
    return TemplateArgs(enums={MemType: items})


def _mem_bar_setup(op: Any) -> None:
    op.pair = op.t.enums.get(MemType, ())


@define("Reg.LocalMemBar", _parse=_mem_bar_parse, _setup=_mem_bar_setup)
def LocalMemBar(op: Any) -> None:
    """``LocalMemBar<MemType src, MemType dst>()``: inside a VF, stream ``dst`` waits for ``src``.

    Written ``Reg.LocalMemBar[MemType.VEC_STORE, MemType.VEC_LOAD]()``; the pair must be one of
    the 12 documented ones. A pair that orders stores before loads (``VEC_STORE`` /
    ``SCALAR_STORE`` / ``*_ALL`` before ``VEC_LOAD`` / ``SCALAR_LOAD`` / ``*_ALL``) clears the
    running block's store-to-load check, exactly as ``asc_mem_bar(VST_VLD)`` does: without it
    a VF that loads UB bytes it stored earlier is a :class:`~ascreg.errors.SyncError`. Inside a
    kernel it runs only in a ``__simd_vf__`` function; outside any kernel it checks the pair.

    Examples
    --------
    >>> from ascreg import Reg, MemType
    >>> Reg.LocalMemBar[MemType.VEC_STORE, MemType.VEC_LOAD]()
    >>> Reg.LocalMemBar[MemType.VEC_LOAD, MemType.VEC_LOAD]()
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: Reg.LocalMemBar: (VEC_LOAD, VEC_LOAD) is not a documented (src, dst) pair: ...
    """
    pair = op.pair
    if pair not in _MEM_BAR_PAIRS:
        shown = ", ".join(f"({a.name}, {b.name})" for a, b in sorted(_MEM_BAR_PAIRS))
        written = "(" + ", ".join(getattr(m, "name", repr(m)) for m in pair) + ")"
        raise AscregTypeError(f"{written} is not a documented (src, dst) pair: {shown}")
    ctx = running_block()
    if ctx is not None and pair[0] in _STORES and pair[1] in _LOADS:
        ctx.mem_bar()


# -- DataCopy: the older name of LoadAlign and StoreAlign --------------------------------------


def _register_first(args: tuple[Any, ...]) -> bool:
    return bool(args) and isinstance(args[0], RegTensor | MaskReg)


def _address_first(args: tuple[Any, ...]) -> bool:
    return bool(args) and isinstance(args[0], Pointer | Ref)


DataCopy = KindDispatch(
    "Reg.DataCopy",
    (
        ("DataCopy(dst register or MaskReg, src address, ...) -> LoadAlign", _register_first, LoadAlign),
        ("DataCopy(dst address, src register or MaskReg, ...) -> StoreAlign", _address_first, StoreAlign),
    ),
)  # fmt: skip
"""``DataCopy``: the older name of both ``LoadAlign`` (a register or MaskReg first) and
``StoreAlign`` (an address first), as the C++ overloads of ``DataCopy`` forward."""
