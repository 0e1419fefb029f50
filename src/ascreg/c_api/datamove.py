"""``asc_loadalign*`` / ``asc_storealign*``: UB <-> register moves of the C API.

Each family member is generated from two tables: the distribution mode it uses (here) and its
legal element types (``_spec.py``). The C overloads are picked from the arguments:

=====================================================  ===========================================
call                                                   meaning
=====================================================  ===========================================
``asc_loadalign<sfx>(dst, src)``                       load at ``src``
``asc_loadalign<sfx>(dst, src, offset)``               load at ``src + offset`` (elements)
``asc_loadalign<sfx>(dst, src, areg)``                 load at ``src`` + the ``addr_reg`` offset
``asc_loadalign<sfx>_postupdate(dst, Ref(src), n)``    load at ``src``, then ``src += n``
``asc_loadalign(dst, src, block_stride, repeat_stride, mask)``  DataBlock mode (also postupdate)
``asc_loadalign_deintlv(dst0, dst1, src[, offset])``   even lanes to ``dst0``, odd to ``dst1``
``asc_loadalign(vector_bool, src[, offset])``          a mask; offsets count **bytes**
``asc_storealign<sfx>(dst, src[, offset], mask)``      masked store; masked-off UB untouched;
                                                       ``offset`` may be an ``addr_reg``
``asc_storealign(dst, src, block_stride, repeat_stride, mask)``  DataBlock mode
``asc_storealign_1st(dst, src[, offset])``             lane 0 only (no mask)
``asc_storealign_intlv(dst, src0, src1[, offset])``    interleave two registers (no mask)
``asc_storealign(dst, vector_bool[, offset])``         a mask (32 bytes; ``_pack``: 16)
=====================================================  ===========================================

Examples
--------
>>> import numpy as np
>>> from ascreg import Ref, UnifiedBuffer, half
>>> from ascreg.c_api import *
>>> ub = UnifiedBuffer(); src = ub.alloc(half, 256); src.write(np.arange(256))
>>> r = vector_half(); p = Ref(src)
>>> asc_loadalign_postupdate(r, p, 128); asc_loadalign_postupdate(r, p, 128)
>>> float(np.asarray(r)[0]), p.value - src
(128.0, 256)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import bool_
from ascreg._spec import C_LOAD_FAMILY, SPECS
from ascreg.c_api._types import active, as_vector, same_dtype
from ascreg.c_api.addr import addr_reg
from ascreg.core import datamove as core
from ascreg.errors import AddressSpaceError, AscregTypeError, RefRequiredError
from ascreg.machine.memory import Pointer
from ascreg.machine.ref import Ref
from ascreg.machine.registers import MaskReg, RegTensor
from ascreg.reg.datamove import AddrReg

Dist = Callable[[int], str]


def _sized(template: str) -> Dist:
    return lambda size: template.format(bits=8 * size)


LOAD_DISTS: dict[str, tuple[Dist, str | None]] = {
    "": (lambda _size: "DIST_NORM", "DIST_NORM"),
    "_brc": (_sized("DIST_BRC_B{bits}"), None),
    "_brc_elem": (_sized("DIST_BRC_B{bits}"), None),
    "_brc_datablock": (lambda _size: "DIST_BLK", None),
    "_brc_elem2datablock": (_sized("DIST_E2B_B{bits}"), None),
    "_upsample": (_sized("DIST_US_B{bits}"), "DIST_US"),
    "_downsample": (_sized("DIST_DS_B{bits}"), "DIST_DS"),
    "_unpack": (_sized("DIST_UNPACK_B{bits}"), None),
    "_unpack4": (lambda _size: "DIST_UNPACK4_B8", None),
    "_deintlv": (_sized("DIST_DINTLV_B{bits}"), None),
}
"""``asc_loadalign<suffix>``: the ``LoadDist`` of a vector load (by element size) and the
``MaskDist`` of a ``vector_bool`` load (None: no mask form)."""

STORE_DISTS: dict[str, tuple[Dist, str | None]] = {
    "": (_sized("DIST_NORM_B{bits}"), "DIST_NORM"),
    "_1st": (_sized("DIST_FIRST_ELEMENT_B{bits}"), None),
    "_pack": (_sized("DIST_PACK_B{bits}"), "DIST_PACK"),
    "_pack_quarter": (lambda _size: "DIST_PACK4_B32", None),
    "_intlv": (_sized("DIST_INTLV_B{bits}"), None),
}
"""``asc_storealign<suffix>``: the ``StoreDist`` of a vector store and the ``MaskDist`` of a
``vector_bool`` store."""

UNMASKED_STORES = ("_1st", "_intlv")


def _ub_pointer(obj: Any, what: str) -> Pointer[Any]:
    if not isinstance(obj, Pointer):
        raise AscregTypeError(
            f"{what} must be a __ubuf__ pointer, got {type(obj).__name__} {obj!r:.60}"
        )
    if obj.space != "__ubuf__":
        raise AddressSpaceError(f"{what} is {obj!r}: Reg loads and stores address __ubuf__ only")
    return obj


def _address(obj: Any, post: bool, what: str) -> tuple[Pointer[Any], Ref[Any] | None]:
    if post:
        if not isinstance(obj, Ref):
            raise RefRequiredError(
                f"the _postupdate form updates the address ('T*& {what}'): pass "
                f"ascreg.Ref({obj!r:.40}), not the plain pointer"
            )
        return _ub_pointer(obj.value, what), obj
    if isinstance(obj, Ref):
        raise AscregTypeError(f"a Ref address needs the _postupdate form (got Ref as {what})")
    return _ub_pointer(obj, what), None


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise AscregTypeError(f"{what} must be an integer, got {value!r:.40}")
    return int(value)


def _match(ptr: Pointer[Any], reg: RegTensor[Any, Any]) -> None:
    if ptr.dtype is not reg.dtype:
        raise AscregTypeError(
            f"the pointer is {ptr.space} {ptr.dtype.cpp_name}* but the register is "
            f"{type(reg).__name__} (C has no implicit conversion between them)"
        )


def _mask_pointer(ptr: Pointer[Any]) -> None:
    if ptr.dtype.cpp_name not in ("uint8_t", "uint16_t", "uint32_t"):
        raise AscregTypeError(
            f"a vector_bool moves through a uint8_t/uint16_t/uint32_t pointer, not {ptr!r}"
        )


def _offset(value: Any, post: bool) -> int | addr_reg:
    """Check an ``int32_t offset`` or (not for ``_postupdate``) an ``addr_reg``."""
    if isinstance(value, addr_reg):
        if post:
            raise AscregTypeError("the _postupdate form takes an int32_t offset, not an addr_reg")
        return value
    if isinstance(value, AddrReg):
        raise AscregTypeError(
            f"{value!r} is a Reg.CreateAddrReg register without a unit: the C API takes the "
            "addr_reg of asc_update_addr_reg_b8/_b16/_b32"
        )
    return _int(value, "offset")


def _move_address(
    ptr: Pointer[Any], ref: Ref[Any] | None, offset: int | addr_reg, *, mask: bool
) -> Pointer[Any]:
    """Return the access address (``ptr + offset`` unless post-update) and update *ref*.

    Offsets count elements (bytes for a ``vector_bool``); an ``addr_reg`` counts its own unit.
    """
    if isinstance(offset, addr_reg):
        return ptr.offset_bytes(offset.byte_offset)
    step = ptr.offset_bytes(offset) if mask else ptr + offset
    if ref is None:
        return step
    ref.value = step
    return ptr


# -- loads ------------------------------------------------------------------------------------


def _load(suffix: str, post: bool) -> Callable[..., None]:
    name = f"asc_loadalign{suffix}{'_postupdate' if post else ''}"
    spec = SPECS[name]
    vector_dist, mask_dist = LOAD_DISTS[suffix]
    dual = suffix == "_deintlv"

    def load(*args: Any) -> None:
        _ascreg_call = name
        if args and isinstance(args[0], MaskReg):
            _load_mask(args, mask_dist, post, spec.check)
            return
        n_dst = 2 if dual else 1
        if len(args) < n_dst + 1:
            raise AscregTypeError(f"needs {'dst0, dst1' if dual else 'dst'} and a source address")
        dsts = [as_vector(a, "dst") for a in args[:n_dst]]
        same_dtype(*dsts)
        reg = dsts[0]
        spec.check(reg.dtype)
        ptr, ref = _address(args[n_dst], post, "src")
        _match(ptr, reg)
        rest = args[n_dst + 1 :]
        if len(rest) == 3 and suffix == "":
            _load_blocks(reg, ptr, ref, rest)
            return
        if len(rest) > 1 or (post and not rest):
            raise AscregTypeError(f"unexpected arguments after the address: {rest!r:.80}")
        offset = _offset(rest[0], post) if rest else 0
        at = _move_address(ptr, ref, offset, mask=False)
        lanes = core.load(at, vector_dist(reg.dtype.size), reg.lanes, dual=dual)
        if dual:
            dsts[0]._lanes, dsts[1]._lanes = core.deinterleave(lanes)
        else:
            reg._lanes = lanes

    return _doc(load, name, "load")


def _load_blocks(
    reg: RegTensor[Any, Any], ptr: Pointer[Any], ref: Ref[Any] | None, rest: tuple[Any, ...]
) -> None:
    block_stride = _int(rest[0], "block_stride")
    repeat_stride = _int(rest[1], "repeat_stride")
    reg._lanes, following = core.load_block_stream(
        ptr, active(rest[2], reg), block_stride, repeat_stride, post=ref is not None
    )
    if ref is not None:
        ref.value = following


def _load_mask(
    args: tuple[Any, ...], dist: str | None, post: bool, check: Callable[..., None]
) -> None:
    if dist is None:
        raise AscregTypeError("has no vector_bool form")
    check(bool_)
    if len(args) not in (2, 3) or (post and len(args) != 3):
        raise AscregTypeError("takes (vector_bool dst, src[, offset in bytes])")
    ptr, ref = _address(args[1], post, "src")
    _mask_pointer(ptr)
    offset = _offset(args[2], post) if len(args) == 3 else 0
    at = _move_address(ptr, ref, offset, mask=True)
    args[0].set_bits(core.load_mask(at, dist))


# -- stores -----------------------------------------------------------------------------------


def _store(suffix: str, post: bool) -> Callable[..., None]:
    name = f"asc_storealign{suffix}{'_postupdate' if post else ''}"
    spec = SPECS[name]
    vector_dist, mask_dist = STORE_DISTS[suffix]
    masked = suffix not in UNMASKED_STORES

    def store(dst: Any, src: Any, *rest: Any) -> None:
        _ascreg_call = name
        ptr, ref = _address(dst, post, "dst")
        if isinstance(src, MaskReg):
            if mask_dist is None:
                raise AscregTypeError("has no vector_bool form")
            spec.check(bool_)
            _mask_pointer(ptr)
            if len(rest) > 1 or (post and not rest):
                raise AscregTypeError("takes (dst, vector_bool src[, offset in bytes])")
            at = _move_address(ptr, ref, _offset(rest[0], post) if rest else 0, mask=True)
            core.store_mask(at, src.bits(), mask_dist)
            return
        reg = as_vector(src, "src")
        spec.check(reg.dtype)
        _match(ptr, reg)
        if suffix == "_intlv":
            other = as_vector(rest[0] if rest else None, "src1")
            same_dtype(reg, other)
            offset = _offset(rest[1], post) if len(rest) > 1 else 0
            at = _move_address(ptr, ref, offset, mask=False)
            core.store_interleaved(at, reg.get(), other.get(), vector_dist(reg.dtype.size))
            return
        mask = None
        if masked:
            if not rest:
                raise AscregTypeError("needs a vector_bool mask as its last argument")
            *rest_list, mask = rest
            enabled = active(mask, reg)
            rest = tuple(rest_list)
        if masked and len(rest) == 2 and suffix == "":
            _store_blocks(reg, ptr, ref, rest, enabled)
            return
        if len(rest) > 1 or (post and not rest):
            raise AscregTypeError(f"unexpected arguments after the source: {rest!r:.80}")
        at = _move_address(ptr, ref, _offset(rest[0], post) if rest else 0, mask=False)
        core.store(at, reg.get(), enabled if masked else None, vector_dist(reg.dtype.size))

    return _doc(store, name, "store")


def _store_blocks(
    reg: RegTensor[Any, Any],
    ptr: Pointer[Any],
    ref: Ref[Any] | None,
    rest: tuple[Any, ...],
    enabled: Any,
) -> None:
    block_stride = _int(rest[0], "block_stride")
    repeat_stride = _int(rest[1], "repeat_stride")
    following = core.store_block_stream(
        ptr, reg.get(), enabled, block_stride, repeat_stride, post=ref is not None
    )
    if ref is not None:
        ref.value = following


# -- documentation ------------------------------------------------------------------------------

_LOAD_EXAMPLES: dict[str, tuple[str, str]] = {
    "": ("p", "[0, 1, 2, 3]"),
    "_brc": ("p + 5", "[5, 5, 5, 5]"),
    "_brc_elem": ("p + 5", "[5, 5, 5, 5]"),
    "_brc_datablock": ("p + 16", "[16, 17, 18, 19]"),
    "_brc_elem2datablock": ("p + 8", "[8, 8, 8, 8]"),
    "_upsample": ("p", "[0, 0, 1, 1]"),
    "_downsample": ("p", "[0, 2, 4, 6]"),
    "_unpack": ("p", "[0, 0, 1, 0]"),
    "_unpack4": ("p + 32", "[32, 0, 0, 0]"),
    "_deintlv": ("p", "[0, 2, 4, 6]"),
}


def _doc(func: Callable[..., None], name: str, kind: str) -> Callable[..., None]:
    func.__name__ = func.__qualname__ = name
    spec = SPECS[name]
    suffix = name.removeprefix(f"asc_{kind}align").removesuffix("_postupdate")
    post = name.endswith("_postupdate")
    if kind == "load":
        where, lanes = _LOAD_EXAMPLES[suffix]
        dtype = "uint8_t" if suffix == "_unpack4" else "uint16_t"
        extra = "r2, " if suffix == "_deintlv" else ""
        head = "r, " + extra
        call = f"{name}({head}Ref({where}), 0)" if post else f"{name}({head}{where})"
        example = f"""    >>> p = UnifiedBuffer().alloc({dtype}, 512); p.write(np.arange(512) % 256)
    >>> r, r2 = vector_{dtype}(), vector_{dtype}()
    >>> {call}
    >>> np.asarray(r)[:4].tolist()
    {lanes}"""
    else:
        example = _STORE_EXAMPLES[suffix].format(name=name, post=post)
    func.__doc__ = f"""``{name}``: see the module table for its overloads.

    Legal element types: {spec.legal_text()}.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Ref, UnifiedBuffer
    >>> from ascreg.c_api import *
{example}
    """
    return func


_STORE_EXAMPLES: dict[str, str] = {
    "": """    >>> p = UnifiedBuffer().alloc(uint32_t, 64); r = vector_uint32_t(); r.set(np.arange(64))
    >>> {name}(Ref(p) if {post} else p, r, *([64] if {post} else []), asc_create_mask_b32(PAT_VL2))
    >>> p.read(3).tolist()
    [0, 1, 0]""",
    "_1st": """    >>> p = UnifiedBuffer().alloc(uint32_t, 64); r = vector_uint32_t(); r.set(np.arange(64) + 9)
    >>> {name}(Ref(p) if {post} else p, r, *([1] if {post} else []))
    >>> p.read(2).tolist()
    [9, 0]""",
    "_pack": """    >>> p = UnifiedBuffer().alloc(uint16_t, 64); r = vector_uint32_t(); r.set(0x10002)
    >>> {name}(Ref(p.cast(uint32_t)) if {post} else p.cast(uint32_t), r, *([32] if {post} else []), asc_create_mask_b32(PAT_VL2))
    >>> p.read(3).tolist()
    [2, 2, 0]""",
    "_pack_quarter": """    >>> p = UnifiedBuffer().alloc(uint32_t, 64); r = vector_uint32_t(); r.set(0x0105)
    >>> {name}(Ref(p) if {post} else p, r, *([16] if {post} else []), asc_create_mask_b32(PAT_VL2))
    >>> p.cast(uint8_t).read(3).tolist()
    [5, 5, 0]""",
    "_intlv": """    >>> p = UnifiedBuffer().alloc(uint16_t, 256); a, b = vector_uint16_t(), vector_uint16_t()
    >>> a.set(1); b.set(2); {name}(p, a, b)
    >>> p.read(4).tolist()
    [1, 2, 1, 2]""",
}

# fmt: off
(asc_loadalign, asc_loadalign_brc, asc_loadalign_brc_elem, asc_loadalign_brc_datablock,
 asc_loadalign_brc_elem2datablock, asc_loadalign_upsample, asc_loadalign_downsample,
 asc_loadalign_unpack, asc_loadalign_unpack4, asc_loadalign_deintlv) = (
    _load(s, False) for s in C_LOAD_FAMILY)
(asc_loadalign_postupdate, asc_loadalign_brc_postupdate, asc_loadalign_brc_elem_postupdate,
 asc_loadalign_brc_datablock_postupdate, asc_loadalign_brc_elem2datablock_postupdate,
 asc_loadalign_upsample_postupdate, asc_loadalign_downsample_postupdate,
 asc_loadalign_unpack_postupdate, asc_loadalign_unpack4_postupdate,
 asc_loadalign_deintlv_postupdate) = (_load(s, True) for s in C_LOAD_FAMILY)
(asc_storealign, asc_storealign_1st, asc_storealign_pack, asc_storealign_pack_quarter,
 asc_storealign_intlv) = (_store(s, False) for s in STORE_DISTS)
(asc_storealign_postupdate, asc_storealign_1st_postupdate, asc_storealign_pack_postupdate,
 asc_storealign_pack_quarter_postupdate) = (
    _store(s, True) for s in STORE_DISTS if s != "_intlv")
# fmt: on

LOADS = {f.__name__: f for f in (
    asc_loadalign, asc_loadalign_brc, asc_loadalign_brc_elem, asc_loadalign_brc_datablock,
    asc_loadalign_brc_elem2datablock, asc_loadalign_upsample, asc_loadalign_downsample,
    asc_loadalign_unpack, asc_loadalign_unpack4, asc_loadalign_deintlv,
    asc_loadalign_postupdate, asc_loadalign_brc_postupdate, asc_loadalign_brc_elem_postupdate,
    asc_loadalign_brc_datablock_postupdate, asc_loadalign_brc_elem2datablock_postupdate,
    asc_loadalign_upsample_postupdate, asc_loadalign_downsample_postupdate,
    asc_loadalign_unpack_postupdate, asc_loadalign_unpack4_postupdate,
    asc_loadalign_deintlv_postupdate)}  # fmt: skip
"""Every load function by name."""
STORES = {f.__name__: f for f in (
    asc_storealign, asc_storealign_1st, asc_storealign_pack, asc_storealign_pack_quarter,
    asc_storealign_intlv, asc_storealign_postupdate, asc_storealign_1st_postupdate,
    asc_storealign_pack_postupdate, asc_storealign_pack_quarter_postupdate)}  # fmt: skip
"""Every store function by name."""
