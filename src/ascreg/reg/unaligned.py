"""Unaligned UB access: ``LoadUnAlign*``, ``StoreUnAlign*`` and the generic ``Load`` / ``Store``.

The unaligned registers carry state between calls (see ``ascreg.core.unaligned``): a load
stream is primed once with ``LoadUnAlignPre``; a store stream keeps the bytes past the last
32-byte boundary in its ``UnalignRegForStore`` until the next ``StoreUnAlign`` on the stream or
``StoreUnAlignPost`` writes them, so **they are not in UB before that**.

=========================================================  =======================================
call                                                       C++ overload
=========================================================  =======================================
``LoadUnAlignPre(ureg, src)``                              fill ``ureg`` with the block of ``src``
                                                           (a pointer, or the ``Ref`` holding it)
``LoadUnAlign(dst, ureg, Ref(src), stride)``               VL bytes at ``src``; ``src += stride``
``LoadUnAlign(dst, ureg, src)``                            VL bytes at ``src``
``StoreUnAlign(Ref(dst), src, ureg, stride)``              the first ``stride`` lanes; ``dst +=
                                                           stride``
``StoreUnAlignPost(Ref(dst), ureg, stride)``               write the held bytes; ``dst += stride``
``StoreUnAlign(dst, src, ureg)`` (AR form)                 the bytes the ``Squeeze<T, STORE_REG>``
                                                           before it kept, at ``dst`` + the bytes
                                                           earlier squeezes kept
``StoreUnAlignPost(dst, ureg)`` (AR form)                  write the held bytes (the stream ends
                                                           at ``dst`` + AR bytes)
``LoadUnAlignPre(ureg, src, areg)``                        prime at ``src + areg``
``LoadUnAlign(dst, ureg, src, areg, 0)``                   VL bytes at ``src + areg``
``StoreUnAlign(dst, src, ureg, areg)``                     the whole register at ``dst + areg``
``StoreUnAlignPost(dst, ureg, areg)``                      write the bytes held by the store at
                                                           ``dst + areg`` (the same ``areg``)
``StoreUnAlign(Ref(dst), mask, ureg)``                     one bit per b16 / b32 element: 16 / 8
                                                           bytes; ``dst`` moves past them
``Load(dst, src)`` / ``Store(dst, src[, count])``          one-shot unaligned VL load / store
=========================================================  =======================================

The AddrReg forms never move ``src`` / ``dst`` (a loop recomputes the AddrReg from its
counter, as the pages' example does); they take RegTraitNumOne registers.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, Ref, UnifiedBuffer, uint32_t
>>> ub = UnifiedBuffer(); a = ub.alloc(uint32_t, 160); b = ub.alloc(uint32_t, 160)
>>> a.write(np.arange(160))
>>> src, dst = Ref(a + 3), Ref(b + 5)
>>> r, ul, us = Reg.RegTensor[uint32_t](), Reg.UnalignRegForLoad(), Reg.UnalignRegForStore()
>>> Reg.LoadUnAlignPre(ul, src)  # C++ passes the variable; the Ref's pointer is used
>>> for _ in range(2):
...     Reg.LoadUnAlign(r, ul, src, 64)
...     Reg.StoreUnAlign(dst, r, us, 64)
>>> int(b.read(133)[132])  # held in the store register, not in UB yet
0
>>> Reg.StoreUnAlignPost(dst, us, 0)
>>> bool((b.read(133)[5:] == np.arange(3, 131)).all())
True
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import compute as shared
from ascreg._frontend import operands, rules
from ascreg._frontend.dispatch import KindDispatch
from ascreg._frontend.operands import REG
from ascreg._frontend.template import define
from ascreg.core import unaligned as core
from ascreg.enums import PostLiteral
from ascreg.errors import (
    AscregTypeError,
    IllegalDtypeError,
    TemplateMismatchError,
    UnsupportedError,
)
from ascreg.machine import spr
from ascreg.machine.memory import Pointer
from ascreg.machine.ref import Ref
from ascreg.machine.registers import (
    AddrReg,
    MaskReg,
    RegTensor,
    RegTraitNumTwo,
    UnalignRegForLoad,
    UnalignRegForStore,
)

__all__ = [
    "DataCopyUnAlign",
    "DataCopyUnAlignPost",
    "DataCopyUnAlignPre",
    "Load",
    "LoadUnAlign",
    "LoadUnAlignPre",
    "Store",
    "StoreUnAlign",
    "StoreUnAlignPost",
    "UnalignRegForLoad",
    "UnalignRegForStore",
]


# -- operand checks shared by the unaligned ops ----------------------------------------------


def _post_setup(op: Any) -> None:
    op.normal = op.t.enum(PostLiteral, PostLiteral.POST_MODE_UPDATE) is not (
        PostLiteral.POST_MODE_UPDATE
    )


_OPTIONS: dict[str, Any] = {"enum_kinds": (PostLiteral,), "_setup": _post_setup}
"""The template arguments every unaligned op takes: ``T`` and a PostLiteral."""


def _addr_reg(args: tuple[Any, ...], extra: int = 0) -> AddrReg | None:
    """Return the AddrReg of an AddrReg form (``args`` = the arguments after the fixed ones).

    *extra* is how many arguments follow it (``LoadUnAlign``'s unused ``inc``).
    """
    if not args or not isinstance(args[0], AddrReg):
        return None
    if len(args) != 1 + extra:
        raise AscregTypeError(
            f"the AddrReg form takes {1 + extra} argument(s) after the address, got {len(args)}"
        )
    return args[0]


def _one_trait(reg: RegTensor[Any, Any], form: str) -> None:
    if reg.trait is RegTraitNumTwo:
        raise AscregTypeError(f"the {form} form takes RegTraitNumOne registers")


def _moving_address(op: Any, obj: Any, role: str) -> tuple[Pointer[Any], Ref[Any]]:
    """Return the address of a post-update overload: a ``Ref`` (``T*&``) the call advances."""
    if op.normal:
        raise AscregTypeError(
            "POST_MODE_NORMAL is not supported by this overload (C++ static_assert)"
        )
    ptr, _ = operands.address(obj, True, role, REG)  # raises unless obj is a Ref
    ref: Ref[Any] = obj
    return ptr, ref


def _register_at(op: Any, obj: Any, role: str, ptr: Pointer[Any]) -> RegTensor[Any, Any]:
    """Check the register operand against the row and the pointer it moves through."""
    (reg,) = shared.vectors(op, (obj, role))
    operands.pointer_type(ptr, reg, REG)
    return reg


def _typed_pointer(op: Any, ptr: Pointer[Any]) -> Pointer[Any]:
    """Check a pointer that is the only typed operand: its dtype is ``T``, legal for the row."""
    if op.t.dtypes and op.t.dtypes[0] is not ptr.dtype:
        raise TemplateMismatchError(
            f"template dtype {op.t.dtypes[0].cpp_name} does not match the pointer {ptr!r}"
        )
    op.spec.check(ptr.dtype)
    return ptr


# -- the ops ----------------------------------------------------------------------------------


@define("Reg.LoadUnAlignPre", **_OPTIONS)
def LoadUnAlignPre(op: Any, ureg: Any, src: Any, *rest: Any) -> None:
    """``LoadUnAlignPre(ureg, src[, areg])``: prime a load stream at ``src`` (+ ``areg``).

    Fills ``ureg`` with the 32-byte block holding the address.

    Examples
    --------
    >>> from ascreg import Reg, UnifiedBuffer, half
    >>> u = Reg.UnalignRegForLoad()
    >>> Reg.LoadUnAlignPre(u, UnifiedBuffer().alloc(half, 256) + 40); u
    UnalignRegForLoad(block at 0x40)
    """
    areg = _addr_reg(rest)
    if rest and areg is None:
        raise AscregTypeError(f"takes (ureg, src[, areg]), got {2 + len(rest)} arguments")
    u = operands.instance(ureg, UnalignRegForLoad, "ureg")
    ptr = _typed_pointer(op, operands.value_address(src, "src", REG))
    core.load_pre(u, areg.at(ptr) if areg is not None else ptr)


@define("Reg.LoadUnAlign", batch=rules.load_stream(0, 1, 2), **_OPTIONS)
def LoadUnAlign(op: Any, dst: Any, ureg: Any, src: Any, *rest: Any) -> None:
    """``LoadUnAlign``: load VL bytes (TraitTwo: 2*VL) from any UB address of a primed stream.

    ``LoadUnAlign(dst, ureg, Ref(src), stride)`` (POST_MODE_UPDATE, the default) advances
    ``src`` by ``stride`` elements; ``LoadUnAlign(dst, ureg, src)`` leaves it. ``ureg`` must
    hold the block of ``src``: call ``LoadUnAlignPre`` once before a stream whose stride is the
    register's size. RegTraitNumTwo registers take the post-update form only.
    ``LoadUnAlign(dst, ureg, src, areg, inc)`` loads at ``src + areg`` (primed there by
    ``LoadUnAlignPre(ureg, src, areg)``) and leaves ``src``; ``inc`` is unused (0).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, Ref, UnifiedBuffer, int16_t
    >>> p = UnifiedBuffer().alloc(int16_t, 300); p.write(np.arange(300))
    >>> r, u, src = Reg.RegTensor[int16_t](), Reg.UnalignRegForLoad(), Ref(p + 7)
    >>> Reg.LoadUnAlignPre(u, src.value); Reg.LoadUnAlign(r, u, src, 128)
    >>> int(r.get()[0]), src.value - p
    (7, 135)
    """
    areg = _addr_reg(rest, extra=1)
    if areg is not None:
        _load_at_addr_reg(op, dst, ureg, src, areg, rest[1])
        return
    if len(rest) > 1:
        raise AscregTypeError(f"takes (dst, ureg, src[, stride]), got {3 + len(rest)} arguments")
    u = operands.instance(ureg, UnalignRegForLoad, "ureg")
    if rest:
        ptr, ref = _moving_address(op, src, "src")
    else:
        ptr, ref = operands.value_address(src, "src", REG), None
    reg = _register_at(op, dst, "dst", ptr)
    if reg.trait is RegTraitNumTwo and ref is None:
        raise AscregTypeError("RegTraitNumTwo registers take the post-update form only")
    stride = (
        operands.in_range(rest[0], "postUpdateStride", 0, operands.UINT32_MAX, "a uint32_t")
        if rest
        else 0
    )
    reg.put(core.load_lanes(u, ptr, reg.dtype.np_dtype, reg.lanes))
    if ref is not None:
        ref.value = ptr + stride


def _load_at_addr_reg(op: Any, dst: Any, ureg: Any, src: Any, areg: AddrReg, inc: Any) -> None:
    """``LoadUnAlign(dst, ureg, src, areg, inc)``: VL bytes at ``src + areg``; ``src`` stays."""
    operands.in_range(inc, "inc", 0, operands.UINT32_MAX, "a uint32_t (unused: 0)")
    u = operands.instance(ureg, UnalignRegForLoad, "ureg")
    ptr = operands.value_address(src, "src", REG)
    reg = _register_at(op, dst, "dst", ptr)
    _one_trait(reg, "AddrReg")
    reg.put(core.load_lanes(u, areg.at(ptr), reg.dtype.np_dtype, reg.lanes))


@define("Reg.StoreUnAlign", batch=rules.store_stream(0, 1, 2), **_OPTIONS)
def StoreUnAlign(op: Any, dst: Any, src: Any, ureg: Any, *rest: Any) -> None:
    """``StoreUnAlign(Ref(dst), src, ureg, stride)``: store the first ``stride`` lanes at ``dst``.

    The bytes up to the last 32-byte boundary are written; the rest stay in ``ureg`` until the
    next ``StoreUnAlign`` continuing at the new ``dst`` or ``StoreUnAlignPost`` writes them. A
    store elsewhere while bytes are held is an error (they would be lost).

    The AR form ``StoreUnAlign(dst, src, ureg)`` follows a ``Squeeze<T, STORE_REG>`` (they
    alternate): it stores the bytes that squeeze kept at ``dst`` plus the bytes the earlier
    squeezes kept (AR before that squeeze); ``dst`` itself does not move, and
    ``StoreUnAlignPost(dst, ureg)`` ends the stream at ``dst`` + AR. POST_MODE_UPDATE only.

    The AddrReg form ``StoreUnAlign(dst, src, ureg, areg)`` stores the whole register at
    ``dst + areg`` and leaves ``dst``; ``StoreUnAlignPost(dst, ureg, areg)`` with the same
    ``areg`` ends that stream. The MaskReg form ``StoreUnAlign(Ref(dst), mask, ureg)`` streams
    the lowest mask bit of each b16 (16 bytes) or b32 (8 bytes) element, ``dst`` aligned to
    that size, and advances ``dst`` past them; ``StoreUnAlignPost`` ends it as usual.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, Ref, UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 64); r = Reg.RegTensor[uint8_t](); r.set(9)
    >>> u, dst = Reg.UnalignRegForStore(), Ref(p + 30)
    >>> Reg.StoreUnAlign(dst, r, u, 10)
    >>> p.read(40)[29:34].tolist(), u.pending
    ([0, 9, 9, 0, 0], True)
    >>> Reg.StoreUnAlignPost(dst, u, 0); p.read(41)[29:41].tolist()
    [0, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0]
    """
    areg = _addr_reg(rest)
    if areg is not None:
        _store_at_addr_reg(op, dst, src, ureg, areg)
        return
    if isinstance(src, MaskReg) and not rest:
        _store_mask(op, dst, src, ureg)
        return
    if not rest:
        _store_squeezed(op, dst, src, ureg)
        return
    if len(rest) > 1:
        raise AscregTypeError(f"takes (dst, src, ureg, stride), got {3 + len(rest)} arguments")
    ptr, ref = _moving_address(op, dst, "dst")
    reg = _register_at(op, src, "src", ptr)
    count = operands.in_range(rest[0], "postUpdateStride", 0, reg.lanes, "the register's lanes")
    core.store_lanes(operands.instance(ureg, UnalignRegForStore, "ureg"), ptr, reg.get(), count)
    ref.value = ptr + count


def _store_at_addr_reg(op: Any, dst: Any, src: Any, ureg: Any, areg: AddrReg) -> None:
    """``StoreUnAlign(dst, src, ureg, areg)``: the whole register at ``dst + areg``; ``dst`` stays."""
    ptr = operands.value_address(dst, "dst", REG)
    reg = _register_at(op, src, "src", ptr)
    _one_trait(reg, "AddrReg")
    u = operands.instance(ureg, UnalignRegForStore, "ureg")
    core.store_lanes(u, areg.at(ptr), reg.get(), reg.lanes)


def _store_mask(op: Any, dst: Any, mask: MaskReg, ureg: Any) -> None:
    """``StoreUnAlign(Ref(dst), mask, ureg)``: one mask bit per b16 / b32 element of ``dst``.

    Streams 16 (b16) or 8 (b32) bytes at ``dst`` and advances it past them.
    """
    ptr, ref = _moving_address(op, dst, "dst")
    _typed_pointer(op, ptr)
    if ptr.dtype.size not in (2, 4):
        raise IllegalDtypeError(
            f"a MaskReg StoreUnAlign writes b16 or b32 elements, not {ptr.dtype.cpp_name}"
        )
    u = operands.instance(ureg, UnalignRegForStore, "ureg")
    written = core.store_mask_bits(u, ptr, mask.bits(), ptr.dtype.size)
    ref.value = ptr.offset_bytes(written)


def _store_squeezed(op: Any, dst: Any, src: Any, ureg: Any) -> None:
    """Store what the squeeze before it kept (the AR form ``StoreUnAlign(dst, src, ureg)``).

    Decision (docs/semantics.md): the offset from ``dst`` is AR minus the bytes of the
    ``Squeeze<T, STORE_REG>`` this store follows, i.e. the bytes every earlier squeeze kept.
    """
    if op.normal:
        raise UnsupportedError(
            "the AR form of StoreUnAlign with POST_MODE_NORMAL is not modelled (which address "
            "it writes is not documented); use POST_MODE_UPDATE"
        )
    ptr = operands.value_address(dst, "dst", REG)
    reg = _register_at(op, src, "src", ptr)
    _one_trait(reg, "AR")
    u = operands.instance(ureg, UnalignRegForStore, "ureg")
    core.store_squeezed(u, ptr, reg.get(), spr.read_ar(), spr.take_squeeze())


@define("Reg.StoreUnAlignPost", batch=rules.post_streams(0, 1), **_OPTIONS)
def StoreUnAlignPost(op: Any, dst: Any, ureg: Any, *rest: Any) -> None:
    """``StoreUnAlignPost(Ref(dst), ureg, stride)``: write the bytes ``ureg`` holds; ``dst += stride``.

    ``dst`` must be where the store stream stopped. The AR form ``StoreUnAlignPost(dst, ureg)``
    ends a stream of AR stores (at ``dst`` + AR bytes); the AddrReg form ``(dst, ureg, areg)``
    one whose last ``StoreUnAlign(dst, src, ureg, areg)`` used the same ``areg``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, Ref, UnifiedBuffer, uint16_t
    >>> p = UnifiedBuffer().alloc(uint16_t, 32); r = Reg.RegTensor[uint16_t](); r.set(5)
    >>> u, dst = Reg.UnalignRegForStore(), Ref(p + 1)
    >>> Reg.StoreUnAlign(dst, r, u, 3); p.read(5).tolist()
    [0, 0, 0, 0, 0]
    >>> Reg.StoreUnAlignPost(dst, u, 0); p.read(5).tolist()
    [0, 5, 5, 5, 0]
    """
    areg = _addr_reg(rest)
    if areg is not None or not rest:
        ptr = _typed_pointer(op, operands.value_address(dst, "dst", REG))
        u = operands.instance(ureg, UnalignRegForStore, "ureg")
        if areg is not None:
            core.store_post_after_register(u, areg.at(ptr))
        else:
            core.store_post_at_ar(u, ptr, spr.read_ar())
        return
    if len(rest) > 1:
        raise AscregTypeError(f"takes (dst, ureg, stride), got {2 + len(rest)} arguments")
    ptr, ref = _moving_address(op, dst, "dst")
    _typed_pointer(op, ptr)
    stride = operands.integer(rest[0], "postUpdateStride")
    core.store_post(operands.instance(ureg, UnalignRegForStore, "ureg"), ptr)
    ref.value = ptr + stride


@define("Reg.Load", **_OPTIONS)
def Load(op: Any, dst: Any, src: Any) -> None:
    """``Load(dst, src)``: load VL bytes from any UB address (``LoadUnAlignPre`` + ``LoadUnAlign``).

    RegTraitNumOne registers only.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, UnifiedBuffer, uint8_t
    >>> p = UnifiedBuffer().alloc(uint8_t, 300); p.write(np.arange(300) % 256)
    >>> r = Reg.RegTensor[uint8_t](); Reg.Load(r, p + 1); r.get()[:3].tolist()
    [1, 2, 3]
    """
    ptr = operands.value_address(src, "src", REG)
    reg = _register_at(op, dst, "dst", ptr)
    if reg.trait is RegTraitNumTwo:
        raise AscregTypeError("Load takes RegTraitNumOne registers")
    reg.put(core.load_anywhere(ptr, reg.dtype.np_dtype, reg.lanes))


@define("Reg.Store", **_OPTIONS)
def Store(op: Any, dst: Any, src: Any, count: Any = None) -> None:
    """``Store(dst, src[, count])``: store the first ``count`` lanes (default all) at any UB address.

    Equivalent to ``StoreUnAlign`` followed by ``StoreUnAlignPost``: every byte is in UB on return.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, UnifiedBuffer, int32_t
    >>> p = UnifiedBuffer().alloc(int32_t, 80); r = Reg.RegTensor[int32_t](); r.set(-1)
    >>> Reg.Store(p + 3, r, 2); p.read(6).tolist()
    [0, 0, 0, -1, -1, 0]
    """
    ptr = operands.value_address(dst, "dst", REG)
    reg = _register_at(op, src, "src", ptr)
    lanes = reg.lanes
    n = (
        lanes
        if count is None
        else operands.in_range(count, "count", 0, lanes, "the register's lanes")
    )
    core.store_anywhere(ptr, reg.get(), n)


# The older spellings (the rows' ``aliases``): the same op objects.
DataCopyUnAlignPre = LoadUnAlignPre
DataCopyUnAlignPost = StoreUnAlignPost


def _load_stream(args: tuple[Any, ...]) -> bool:
    return len(args) > 1 and isinstance(args[1], UnalignRegForLoad)


def _store_stream(args: tuple[Any, ...]) -> bool:
    return len(args) > 2 and isinstance(args[2], UnalignRegForStore)


DataCopyUnAlign = KindDispatch(
    "Reg.DataCopyUnAlign",
    (
        ("DataCopyUnAlign(dst register, UnalignRegForLoad, src[, stride]) -> LoadUnAlign", _load_stream, LoadUnAlign),
        ("DataCopyUnAlign(dst address, src register, UnalignRegForStore, stride) -> StoreUnAlign", _store_stream, StoreUnAlign),
    ),
)  # fmt: skip
"""``DataCopyUnAlign``: the older name of ``LoadUnAlign`` (an ``UnalignRegForLoad`` second) and
``StoreUnAlign`` (an ``UnalignRegForStore`` third), as its C++ overloads forward."""
