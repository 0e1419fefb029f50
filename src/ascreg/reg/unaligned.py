"""Unaligned UB access: ``LoadUnAlign*``, ``StoreUnAlign*`` and the generic ``Load`` / ``Store``.

The unaligned registers carry state between calls (see ``ascreg.core.unaligned``): a load
stream is primed once with ``LoadUnAlignPre``; a store stream keeps the bytes past the last
32-byte boundary in its ``UnalignRegForStore`` until the next ``StoreUnAlign`` on the stream or
``StoreUnAlignPost`` writes them, so **they are not in UB before that**.

=========================================================  =======================================
call                                                       C++ overload
=========================================================  =======================================
``LoadUnAlignPre(ureg, src)``                              fill ``ureg`` with the block of ``src``
``LoadUnAlign(dst, ureg, Ref(src), stride)``               VL bytes at ``src``; ``src += stride``
``LoadUnAlign(dst, ureg, src)``                            VL bytes at ``src``
``StoreUnAlign(Ref(dst), src, ureg, stride)``              the first ``stride`` lanes; ``dst +=
                                                           stride``
``StoreUnAlignPost(Ref(dst), ureg, stride)``               write the held bytes; ``dst += stride``
``Load(dst, src)`` / ``Store(dst, src[, count])``          one-shot unaligned VL load / store
=========================================================  =======================================

The AddrReg and AR-register (``Squeeze``) overloads are not modelled: they raise
:class:`~ascreg.errors.UnsupportedError`.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, Ref, UnifiedBuffer, uint32_t
>>> ub = UnifiedBuffer(); a = ub.alloc(uint32_t, 160); b = ub.alloc(uint32_t, 160)
>>> a.write(np.arange(160))
>>> src, dst = Ref(a + 3), Ref(b + 5)
>>> r, ul, us = Reg.RegTensor[uint32_t](), Reg.UnalignRegForLoad(), Reg.UnalignRegForStore()
>>> Reg.LoadUnAlignPre(ul, src.value)
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

import numpy as np

from ascreg._frontend import operands
from ascreg._frontend.operands import REG
from ascreg._frontend.template import Template
from ascreg.core import unaligned as core
from ascreg.enums import PostLiteral
from ascreg.errors import AscregTypeError, RefRequiredError, UnsupportedError
from ascreg.machine.memory import Pointer
from ascreg.machine.ref import Ref
from ascreg.machine.registers import (
    VL,
    AddrReg,
    RegTensor,
    RegTraitNumTwo,
    UnalignRegForLoad,
    UnalignRegForStore,
)
from ascreg.reg.datamove import _match_pointer, _pointer

__all__ = [
    "Load",
    "LoadUnAlign",
    "LoadUnAlignPre",
    "Store",
    "StoreUnAlign",
    "StoreUnAlignPost",
    "UnalignRegForLoad",
    "UnalignRegForStore",
]


def _register_bytes(reg: RegTensor[Any, Any]) -> int:
    return VL * reg.trait.REG_NUM


def _ureg(obj: Any, kind: type[Any]) -> Any:
    if not isinstance(obj, kind):
        raise AscregTypeError(f"expected an {kind.__name__}, got {type(obj).__name__} {obj!r:.60}")
    return obj


def _no_addr_reg(args: tuple[Any, ...]) -> None:
    if any(isinstance(a, AddrReg) for a in args):
        raise UnsupportedError("the AddrReg overloads of the unaligned accesses are not modelled")


def _count(value: Any, limit: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise AscregTypeError(f"{what} must be an integer, got {value!r:.40}")
    if not 0 <= int(value) <= limit:
        raise AscregTypeError(f"{what} {int(value)} is outside [0, {limit}] (the register's lanes)")
    return int(value)


class _Unaligned(Template):
    """Shared checks: the post mode, the register and pointer types."""

    enum_kinds = (PostLiteral,)

    def _setup(self) -> None:
        self.normal = self.t.enum(PostLiteral, PostLiteral.POST_MODE_UPDATE) is not (
            PostLiteral.POST_MODE_UPDATE
        )

    def _ref(self, obj: Any, what: str) -> Ref[Any]:
        if self.normal:
            raise AscregTypeError(
                "POST_MODE_NORMAL is not supported by this overload (C++ static_assert)"
            )
        if not isinstance(obj, Ref):
            raise RefRequiredError(
                f"this overload updates the address ('T*& {what}'): pass ascreg.Ref({obj!r:.40})"
            )
        return obj

    def _operands(self, reg: Any, ptr: Any, what: str) -> tuple[RegTensor[Any, Any], Pointer[Any]]:
        reg = operands.register(reg, what, REG)
        self.template_dtype(reg)
        if self.spec is not None:
            self.spec.check(reg.dtype)
        pointer = _pointer(ptr)
        _match_pointer(pointer, reg)
        return reg, pointer

    def _pointer_dtype(self, ptr: Any) -> Pointer[Any]:
        pointer = _pointer(ptr)
        if self.t.dtypes and self.t.dtypes[0] is not pointer.dtype:
            raise AscregTypeError(
                f"template dtype {self.t.dtypes[0].cpp_name} does not match the pointer {pointer!r}"
            )
        if self.spec is not None:
            self.spec.check(pointer.dtype)
        return pointer


class _LoadUnAlignPre(_Unaligned):
    """``LoadUnAlignPre(ureg, src)``: prime a load stream with the 32-byte block holding ``src``.

    Examples
    --------
    >>> from ascreg import Reg, UnifiedBuffer, half
    >>> u = Reg.UnalignRegForLoad()
    >>> Reg.LoadUnAlignPre(u, UnifiedBuffer().alloc(half, 256) + 40); u
    UnalignRegForLoad(block at 0x40)
    """

    name = "Reg.LoadUnAlignPre"

    def __call__(self, ureg: Any, src: Any, *rest: Any) -> None:
        _ascreg_call = self.name
        _no_addr_reg(rest)
        if rest:
            raise AscregTypeError(f"takes (ureg, src), got {2 + len(rest)} arguments")
        core.load_pre(_ureg(ureg, UnalignRegForLoad), self._pointer_dtype(src))


class _LoadUnAlign(_Unaligned):
    """``LoadUnAlign``: load VL bytes (TraitTwo: 2*VL) from any UB address of a primed stream.

    ``LoadUnAlign(dst, ureg, Ref(src), stride)`` (POST_MODE_UPDATE, the default) advances
    ``src`` by ``stride`` elements; ``LoadUnAlign(dst, ureg, src)`` leaves it. ``ureg`` must
    hold the block of ``src``: call ``LoadUnAlignPre`` once before a stream whose stride is the
    register's size. RegTraitNumTwo registers take the post-update form only.

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

    name = "Reg.LoadUnAlign"

    def __call__(self, dst: Any, ureg: Any, src: Any, *rest: Any) -> None:
        _ascreg_call = self.name
        _no_addr_reg(rest)
        if len(rest) > 1:
            raise AscregTypeError(
                f"takes (dst, ureg, src[, stride]), got {3 + len(rest)} arguments"
            )
        u = _ureg(ureg, UnalignRegForLoad)
        ref = self._ref(src, "srcAddr") if rest else None
        if ref is None and isinstance(src, Ref):
            raise AscregTypeError("a Ref address needs the stride of the post-update form")
        reg, ptr = self._operands(dst, ref.value if ref else src, "dst")
        if reg.trait is RegTraitNumTwo and ref is None:
            raise AscregTypeError("RegTraitNumTwo registers take the post-update form only")
        stride = _count(rest[0], 1 << 32, "postUpdateStride") if rest else 0
        payload = core.load(u, ptr, _register_bytes(reg))
        reg.put(payload.view(reg.dtype.np_dtype).copy())
        if ref is not None:
            ref.value = ptr + stride


class _StoreUnAlign(_Unaligned):
    """``StoreUnAlign(Ref(dst), src, ureg, stride)``: store the first ``stride`` lanes at ``dst``.

    The bytes up to the last 32-byte boundary are written; the rest stay in ``ureg`` until the
    next ``StoreUnAlign`` continuing at the new ``dst`` or ``StoreUnAlignPost`` writes them. A
    store elsewhere while bytes are held is an error (they would be lost).

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

    name = "Reg.StoreUnAlign"

    def __call__(self, dst: Any, src: Any, ureg: Any, *rest: Any) -> None:
        _ascreg_call = self.name
        _no_addr_reg(rest)
        if not rest:
            raise UnsupportedError(
                "the AR-register overload StoreUnAlign(dst, src, ureg) (after Squeeze) is not "
                "modelled; pass Ref(dst) and a postUpdateStride"
            )
        if len(rest) > 1:
            raise AscregTypeError(f"takes (dst, src, ureg, stride), got {3 + len(rest)} arguments")
        ref = self._ref(dst, "dstAddr")
        reg, ptr = self._operands(src, ref.value, "src")
        count = _count(rest[0], reg.lanes, "postUpdateStride")
        u = _ureg(ureg, UnalignRegForStore)
        core.store(u, ptr, reg.get().view(np.uint8)[: count * reg.dtype.size])
        ref.value = ptr + count


class _StoreUnAlignPost(_Unaligned):
    """``StoreUnAlignPost(Ref(dst), ureg, stride)``: write the bytes ``ureg`` holds; ``dst += stride``.

    ``dst`` must be where the store stream stopped.

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

    name = "Reg.StoreUnAlignPost"

    def __call__(self, dst: Any, ureg: Any, *rest: Any) -> None:
        _ascreg_call = self.name
        _no_addr_reg(rest)
        if not rest:
            raise UnsupportedError(
                "the AR-register overload StoreUnAlignPost(dst, ureg) is not modelled; pass "
                "Ref(dst) and a postUpdateStride"
            )
        if len(rest) > 1:
            raise AscregTypeError(f"takes (dst, ureg, stride), got {2 + len(rest)} arguments")
        ref = self._ref(dst, "dstAddr")
        ptr = self._pointer_dtype(ref.value)
        value = rest[0]
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise AscregTypeError(f"postUpdateStride must be an integer, got {value!r:.40}")
        core.store_post(_ureg(ureg, UnalignRegForStore), ptr)
        ref.value = ptr + int(value)


class _Load(_Unaligned):
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

    name = "Reg.Load"

    def __call__(self, dst: Any, src: Any) -> None:
        _ascreg_call = self.name
        reg, ptr = self._operands(dst, src, "dst")
        if reg.trait is RegTraitNumTwo:
            raise AscregTypeError("Load takes RegTraitNumOne registers")
        u = UnalignRegForLoad()
        core.load_pre(u, ptr)
        reg.put(core.load(u, ptr, VL).view(reg.dtype.np_dtype).copy())


class _Store(_Unaligned):
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

    name = "Reg.Store"

    def __call__(self, dst: Any, src: Any, count: Any = None) -> None:
        _ascreg_call = self.name
        reg, ptr = self._operands(src, dst, "src")
        n = reg.lanes if count is None else _count(count, reg.lanes, "count")
        u = UnalignRegForStore()
        core.store(u, ptr, reg.get().view(np.uint8)[: n * reg.dtype.size])
        core.store_post(u, ptr + n)


LoadUnAlignPre = _LoadUnAlignPre()
LoadUnAlign = _LoadUnAlign()
StoreUnAlign = _StoreUnAlign()
StoreUnAlignPost = _StoreUnAlignPost()
Load = _Load()
Store = _Store()
