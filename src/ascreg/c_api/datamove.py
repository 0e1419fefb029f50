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

from ascreg._dtypes import bool_
from ascreg._frontend import compute as shared
from ascreg._frontend import operands, rules
from ascreg._frontend.operands import C_API
from ascreg._frontend.template import define
from ascreg._spec import C_LOAD_FAMILY, SPECS
from ascreg.core import datamove as core
from ascreg.core import unaligned
from ascreg.errors import AscregTypeError
from ascreg.machine import spr
from ascreg.machine.memory import Pointer
from ascreg.machine.ref import Ref
from ascreg.machine.registers import (
    AddrReg,
    MaskReg,
    RegTensor,
    UnalignRegForLoad,
    UnalignRegForStore,
)

Dist = Callable[[int], str]


def _sized(template: str) -> Dist:
    names = {size: template.format(bits=8 * size) for size in (1, 2, 4, 8)}  # named once
    return lambda size: names.get(size) or template.format(bits=8 * size)


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


def _mask_pointer(ptr: Pointer[Any]) -> None:
    if ptr.dtype.cpp_name not in ("uint8_t", "uint16_t", "uint32_t"):
        raise AscregTypeError(
            f"a vector_bool moves through a uint8_t/uint16_t/uint32_t pointer, not {ptr!r}"
        )


def _offset(value: Any, post: bool) -> int | AddrReg:
    """Check an ``int32_t offset`` or (not for ``_postupdate``) an ``addr_reg``.

    A Reg ``CreateAddrReg`` register is the same ``vector_address`` with its unit: it works too.
    """
    if isinstance(value, AddrReg):
        if post:
            raise AscregTypeError("the _postupdate form takes an int32_t offset, not an addr_reg")
        return value
    if hasattr(value, "__ascreg_rows__"):  # one offset per iteration of a batched loop
        return value  # type: ignore[no-any-return]
    return operands.integer(value, "offset")


def _move_address(
    ptr: Pointer[Any], ref: Ref[Any] | None, offset: int | AddrReg, *, mask: bool
) -> Pointer[Any]:
    """Return the access address (``ptr + offset`` unless post-update) and update *ref*.

    Offsets count elements (bytes for a ``vector_bool``); an ``addr_reg`` counts its own unit.
    """
    if isinstance(offset, AddrReg):
        return offset.at(ptr)
    step = ptr.offset_bytes(offset) if mask else ptr + offset
    if ref is None:
        return step
    ref.value = step
    return ptr


def _access_address(
    op: Any, ptr: Pointer[Any], ref: Ref[Any] | None, rest: tuple[Any, ...], after: str,
    *, mask: bool = False,
) -> Pointer[Any]:  # fmt: skip
    """Resolve the optional trailing ``offset`` of a plain, offset or post-update form."""
    if len(rest) > 1 or (op.post and not rest):
        raise AscregTypeError(f"unexpected arguments after the {after}: {rest!r:.80}")
    return _move_address(ptr, ref, _offset(rest[0], op.post) if rest else 0, mask=mask)


def _strides(rest: tuple[Any, ...]) -> tuple[int, int]:
    """Return the ``block_stride, repeat_stride`` of a DataBlock form."""
    return operands.integer(rest[0], "block_stride"), operands.integer(rest[1], "repeat_stride")


# -- loads ------------------------------------------------------------------------------------


def _load(op: Any, *args: Any) -> None:
    if len(args) == 2 and (type(args[0]), type(args[1])) in op._forms:
        dst, src = args  # a plain (dst, src) form checked before: only the address is new
        if src.dtype is dst.dtype:
            dst.put_known(core.load(src, op.dist(dst.dtype.size), dst.lanes))
            return
    if args and isinstance(args[0], MaskReg):
        _load_mask(op, args)
        return
    roles = ("dst0", "dst1") if op.dual else ("dst",)
    if len(args) < len(roles) + 1:
        raise AscregTypeError(f"needs {', '.join(roles)} and a source address")
    dsts = shared.vectors(op, *zip(args, roles, strict=False))
    ptr, ref = operands.address(args[len(roles)], op.post, "src")
    operands.pointer_type(ptr, dsts[0], C_API)
    rest = args[len(roles) + 1 :]
    if len(rest) == 3 and op.blocks:
        _load_blocks(op, dsts[0], ptr, ref, rest)
        return
    at = _access_address(op, ptr, ref, rest, "address")
    lanes = core.load(at, op.dist(dsts[0].dtype.size), dsts[0].lanes, dual=op.dual)
    for dst, part in zip(dsts, core.deinterleave(lanes) if op.dual else (lanes,), strict=True):
        dst.put(part)
    if len(args) == 2 and not op.dual and not op.post:  # the plain form passed every check
        op._forms.add((type(args[0]), type(args[1])))


def _load_blocks(
    op: Any, reg: RegTensor[Any, Any], ptr: Pointer[Any], ref: Ref[Any] | None,
    rest: tuple[Any, ...],
) -> None:  # fmt: skip
    """DataBlock mode: ``(dst, src, block_stride, repeat_stride, mask)``."""
    block_stride, repeat_stride = _strides(rest)
    enabled = shared.enables(op, rest[2], reg)
    lanes, following = core.load_block_stream(
        ptr, enabled, block_stride, repeat_stride, post=op.post
    )
    reg.put(lanes)
    if ref is not None:
        ref.value = following


def _load_mask(op: Any, args: tuple[Any, ...]) -> None:
    if op.mask_dist is None:
        raise AscregTypeError("has no vector_bool form")
    op.spec.check(bool_)
    if len(args) not in (2, 3) or (op.post and len(args) != 3):
        raise AscregTypeError("takes (vector_bool dst, src[, offset in bytes])")
    ptr, ref = operands.address(args[1], op.post, "src")
    _mask_pointer(ptr)
    at = _access_address(op, ptr, ref, args[2:], "address", mask=True)
    args[0].set_bits(core.load_mask(at, op.mask_dist))


def _batched_load(op: Any, args: tuple[Any, ...], batch: Any) -> tuple[Any, ...] | None:
    """Admit ``asc_loadalign<sfx>[_postupdate](dst, src[, offset])``: one register per iteration.

    Any distribution: each builds an iteration's lanes from its own elements; a ``vector_bool``
    destination its bits from its own bytes.
    """
    plain = len(args) == 2 + op.post or (len(args) == 3 and rules.index_like(args[2]))
    if plain and isinstance(args[0], MaskReg) and op.mask_dist is not None:
        at = rules.mask_access_address(op.post, args[1], args[2:], batch)
        return None if at is None else (args[0], at, *args[2:])
    if not plain or op.dual or not rules.one_block(args[0], op.post):
        return None
    return (args[0], rules.access_address(op.post, args[1], args[2:], batch), *args[2:])


def _batched_store(op: Any, args: tuple[Any, ...], batch: Any) -> tuple[Any, ...] | None:
    """Admit ``asc_storealign<sfx>[_postupdate](dst, src[, offset][, mask])``, one per iteration.

    Every distribution but the interleaving (two-register) one.
    """
    masked = 1 if op.masked else 0
    plain = len(args) == 2 + masked + op.post or (
        len(args) == 3 + masked and rules.index_like(args[2])
    )
    if not plain or op.interleave or not rules.one_block(args[1], op.post):
        return None
    if masked and not isinstance(args[-1], MaskReg):
        return None
    return (rules.access_address(op.post, args[0], args[2 : len(args) - masked], batch), *args[1:])


_ALIGNED_LOAD = rules.BatchRule(
    "aligned load", "its single-register forms load one register per iteration", _batched_load
)
_ALIGNED_STORE = rules.BatchRule(
    "aligned store", "its single-register forms store one register per iteration", _batched_store
)


def _load_op(suffix: str, post: bool) -> Any:
    name = f"asc_loadalign{suffix}{'_postupdate' if post else ''}"
    vector_dist, mask_dist = LOAD_DISTS[suffix]
    return define(
        name,
        doc=_doc(name, "load"),
        post=post,
        dual=suffix == "_deintlv",
        blocks=suffix == "",
        dist=staticmethod(vector_dist),
        mask_dist=mask_dist,
        batch=_ALIGNED_LOAD,
    )(_load)


# -- stores -----------------------------------------------------------------------------------


def _store(op: Any, dst: Any, src: Any, *rest: Any) -> None:
    form = (type(dst), type(src), type(rest[0])) if len(rest) == 1 else None
    if form in op._forms and dst.dtype is src.dtype:  # a plain masked form checked before
        enabled = operands.lane_enables(rest[0], src)
        core.store(dst, src.get(), enabled, op.dist(src.dtype.size))
        return
    ptr, ref = operands.address(dst, op.post, "dst")
    if isinstance(src, MaskReg):
        _store_mask(op, ptr, ref, src, rest)
    elif op.interleave:
        _store_interleaved(op, ptr, ref, src, rest)
    else:
        _store_vector(op, ptr, ref, src, rest)


def _store_interleaved(
    op: Any, ptr: Pointer[Any], ref: Ref[Any] | None, src: Any, rest: tuple[Any, ...]
) -> None:
    reg, other = shared.vectors(op, (src, "src"), (rest[0] if rest else None, "src1"))
    operands.pointer_type(ptr, reg, C_API)
    at = _access_address(op, ptr, ref, rest[1:], "second source")
    core.store_interleaved(at, reg.get(), other.get(), op.dist(reg.dtype.size))


def _store_vector(
    op: Any, ptr: Pointer[Any], ref: Ref[Any] | None, src: Any, rest: tuple[Any, ...]
) -> None:
    (reg,) = shared.vectors(op, (src, "src"))
    operands.pointer_type(ptr, reg, C_API)
    enabled = None
    if op.masked:
        if not rest:
            raise AscregTypeError("needs a vector_bool mask as its last argument")
        *options, mask = rest
        rest, enabled = tuple(options), shared.enables(op, mask, reg)
        if len(rest) == 2 and op.blocks:
            _store_blocks(op, reg, ptr, ref, rest, enabled)
            return
    at = _access_address(op, ptr, ref, rest, "source")
    core.store(at, reg.get(), enabled, op.dist(reg.dtype.size))
    if enabled is not None and not rest and ref is None:  # the plain masked form passed
        op._forms.add((type(ptr), type(src), type(mask)))


def _store_blocks(
    op: Any, reg: RegTensor[Any, Any], ptr: Pointer[Any], ref: Ref[Any] | None,
    rest: tuple[Any, ...], enabled: Any,
) -> None:  # fmt: skip
    """DataBlock mode: ``(dst, src, block_stride, repeat_stride, mask)``."""
    block_stride, repeat_stride = _strides(rest)
    following = core.store_block_stream(
        ptr, reg.get(), enabled, block_stride, repeat_stride, post=op.post
    )
    if ref is not None:
        ref.value = following


def _store_mask(
    op: Any, ptr: Pointer[Any], ref: Ref[Any] | None, src: MaskReg, rest: tuple[Any, ...]
) -> None:
    if op.mask_dist is None:
        raise AscregTypeError("has no vector_bool form")
    op.spec.check(bool_)
    _mask_pointer(ptr)
    if len(rest) > 1 or (op.post and not rest):
        raise AscregTypeError("takes (dst, vector_bool src[, offset in bytes])")
    core.store_mask(
        _access_address(op, ptr, ref, rest, "source", mask=True), src.bits(), op.mask_dist
    )


def _store_op(suffix: str, post: bool) -> Any:
    name = f"asc_storealign{suffix}{'_postupdate' if post else ''}"
    vector_dist, mask_dist = STORE_DISTS[suffix]
    return define(
        name,
        doc=_doc(name, "store"),
        post=post,
        masked=suffix not in UNMASKED_STORES,
        interleave=suffix == "_intlv",
        blocks=suffix == "",
        dist=staticmethod(vector_dist),
        mask_dist=mask_dist,
        batch=_ALIGNED_STORE,
    )(_store)


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


def _doc(name: str, kind: str) -> str:
    """Return the docstring of ``asc_<kind>align<suffix>[_postupdate]``, with an example."""
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
        example = _STORE_EXAMPLES[suffix].format(name=name, **_store_arguments(post))
    return f"""``{name}``: see the module table for its overloads.

    Legal element types: {spec.legal_text()}.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Ref, UnifiedBuffer
    >>> from ascreg.c_api import *
{example}
    """


def _store_arguments(post: bool) -> dict[str, str]:
    """Return the destination and post-update stride of a store example, as a call writes them."""
    strides = {f"n{n}": f", {n}" if post else "" for n in (1, 16, 32, 64)}
    if post:
        return {"p": "Ref(p)", "p32": "Ref(p.cast(uint32_t))", **strides}
    return {"p": "p", "p32": "p.cast(uint32_t)", **strides}


_STORE_EXAMPLES: dict[str, str] = {
    "": """    >>> p = UnifiedBuffer().alloc(uint32_t, 64); r = vector_uint32_t(); r.set(np.arange(64))
    >>> {name}({p}, r{n64}, asc_create_mask_b32(PAT_VL2))
    >>> p.read(3).tolist()
    [0, 1, 0]""",
    "_1st": """    >>> p = UnifiedBuffer().alloc(uint32_t, 64); r = vector_uint32_t(); r.set(np.arange(64) + 9)
    >>> {name}({p}, r{n1})
    >>> p.read(2).tolist()
    [9, 0]""",
    "_pack": """    >>> p = UnifiedBuffer().alloc(uint16_t, 64); r = vector_uint32_t(); r.set(0x10002)
    >>> {name}({p32}, r{n32}, asc_create_mask_b32(PAT_VL2))
    >>> p.read(3).tolist()
    [2, 2, 0]""",
    "_pack_quarter": """    >>> p = UnifiedBuffer().alloc(uint32_t, 64); r = vector_uint32_t(); r.set(0x0105)
    >>> {name}({p}, r{n16}, asc_create_mask_b32(PAT_VL2))
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
    _load_op(s, False) for s in C_LOAD_FAMILY)
(asc_loadalign_postupdate, asc_loadalign_brc_postupdate, asc_loadalign_brc_elem_postupdate,
 asc_loadalign_brc_datablock_postupdate, asc_loadalign_brc_elem2datablock_postupdate,
 asc_loadalign_upsample_postupdate, asc_loadalign_downsample_postupdate,
 asc_loadalign_unpack_postupdate, asc_loadalign_unpack4_postupdate,
 asc_loadalign_deintlv_postupdate) = (_load_op(s, True) for s in C_LOAD_FAMILY)
(asc_storealign, asc_storealign_1st, asc_storealign_pack, asc_storealign_pack_quarter,
 asc_storealign_intlv) = (_store_op(s, False) for s in STORE_DISTS)
(asc_storealign_postupdate, asc_storealign_1st_postupdate, asc_storealign_pack_postupdate,
 asc_storealign_pack_quarter_postupdate) = (
    _store_op(s, True) for s in STORE_DISTS if s != "_intlv")
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


# -- unaligned accesses (spec c_api §3.6; the same core as Reg.LoadUnAlign / Reg.StoreUnAlign) ---


class vector_load_unalign(UnalignRegForLoad):
    """The C unaligned load register (``vector_align``): see ``ascreg.core.unaligned``.

    Examples
    --------
    >>> from ascreg.c_api import vector_load_unalign
    >>> vector_load_unalign()
    vector_load_unalign(<never filled>)
    """

    __slots__ = ()


class vector_store_unalign(UnalignRegForStore):
    """The C unaligned store register (``vector_align``): holds a store stream's tail bytes.

    Examples
    --------
    >>> from ascreg.c_api import vector_store_unalign
    >>> vector_store_unalign().pending
    False
    """

    __slots__ = ()


def _vector_at(op: Any, reg: Any, role: str, ptr: Pointer[Any]) -> RegTensor[Any, Any]:
    """Check the vector operand of an unaligned access against the row and its pointer."""
    (vector,) = shared.vectors(op, (reg, role))
    operands.pointer_type(ptr, vector, C_API)
    return vector


def _areg(value: Any, role: str) -> AddrReg:
    """Return *value* if it is an ``addr_reg`` (or the Reg ``AddrReg``, the same register)."""
    if isinstance(value, AddrReg):
        return value
    raise AscregTypeError(
        f"{role} must be an addr_reg (asc_update_addr_reg_b8/_b16/_b32), got {value!r:.40}"
    )


def _plus_areg(ptr: Pointer[Any], value: Any, role: str) -> Pointer[Any]:
    """Return *ptr* moved by the ``addr_reg`` *value* (its offset times its unit, in bytes)."""
    return _areg(value, role).at(ptr)


@define("asc_loadunalign_pre")
def asc_loadunalign_pre(op: Any, dst: Any, src: Any, *rest: Any) -> None:
    """``asc_loadunalign_pre(vector_load_unalign& dst, __ubuf__ T* src[, addr_reg offset])``: prime a load stream.

    Legal element types: see ``SPECS["asc_loadunalign_pre"]``. The addr_reg form primes at
    ``src`` + the ``addr_reg`` offset (in its own unit), for the addr_reg form of
    ``asc_loadunalign_postupdate``; ``src`` does not move.

    Examples
    --------
    >>> from ascreg import UnifiedBuffer, half
    >>> from ascreg.c_api import *
    >>> u = vector_load_unalign(); asc_loadunalign_pre(u, UnifiedBuffer().alloc(half, 64) + 17); u
    vector_load_unalign(block at 0x20)
    """
    if len(rest) > 1:
        raise AscregTypeError(f"takes (dst, src[, offset]), got {2 + len(rest)} arguments")
    ptr = operands.value_address(src, "src")
    op.spec.check(ptr.dtype)
    at = _plus_areg(ptr, rest[0], "offset") if rest else ptr
    unaligned.load_pre(operands.instance(dst, vector_load_unalign, "dst"), at)


def _load_unaligned(op: Any, dst: Any, ureg: Any, ptr: Pointer[Any]) -> None:
    reg = _vector_at(op, dst, "dst", ptr)
    stream = operands.instance(ureg, vector_load_unalign, "src0")
    reg.put(unaligned.load_lanes(stream, ptr, reg.dtype.np_dtype, reg.lanes))


@define("asc_loadunalign")
def asc_loadunalign(op: Any, dst: Any, src0: Any, src1: Any) -> None:
    """``asc_loadunalign(dst, vector_load_unalign& src0, __ubuf__ T* src1)``: VL bytes at ``src1``.

    ``src0`` must hold the 32-byte block of ``src1`` (``asc_loadunalign_pre``, or the previous
    load of a stream that advanced by VL bytes).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> from ascreg.c_api import *
    >>> p = UnifiedBuffer().alloc(uint8_t, 300); p.write(np.arange(300) % 256)
    >>> u, r = vector_load_unalign(), vector_uint8_t()
    >>> asc_loadunalign_pre(u, p + 3); asc_loadunalign(r, u, p + 3); r.get()[:2].tolist()
    [3, 4]
    """
    ptr = operands.value_address(src1, "src1")
    _load_unaligned(op, dst, src0, ptr)


@define("asc_loadunalign_postupdate", batch=rules.load_stream(0, 1, 2))
def asc_loadunalign_postupdate(op: Any, dst: Any, src0: Any, src1: Any, *rest: Any) -> None:
    """``asc_loadunalign_postupdate(dst, src0, __ubuf__ T*& src1, uint32_t count)``: then ``src1 += count``.

    The addr_reg form ``asc_loadunalign_postupdate(dst, src0, __ubuf__ T* src1, addr_reg& offset,
    uint32_t inc)`` loads VL bytes at ``src1`` + the ``addr_reg`` offset (primed there by the
    addr_reg form of ``asc_loadunalign_pre``) and moves neither ``src1`` nor the offset: the
    hardware loop recomputes the ``addr_reg`` each iteration; ``inc`` is unused (the page
    advises 0), as for ``Reg.LoadUnAlign``'s AddrReg form.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Ref, UnifiedBuffer, uint16_t
    >>> from ascreg.c_api import *
    >>> p = UnifiedBuffer().alloc(uint16_t, 300); p.write(np.arange(300)); src = Ref(p + 1)
    >>> u, r = vector_load_unalign(), vector_uint16_t(); asc_loadunalign_pre(u, src.value)
    >>> for _ in range(2): asc_loadunalign_postupdate(r, u, src, 128)
    >>> int(r.get()[0]), src.value - p
    (129, 257)
    """
    if len(rest) == 2:
        ptr = operands.value_address(src1, "src1")
        at = _plus_areg(ptr, rest[0], "offset")
        operands.integer(rest[1], "inc")
        _load_unaligned(op, dst, src0, at)
        return
    if len(rest) != 1 or isinstance(rest[0], AddrReg):
        raise AscregTypeError(
            "takes (dst, src0, src1, count) or (dst, src0, src1, offset, inc) with an addr_reg "
            f"offset, got {3 + len(rest)} arguments"
        )
    ptr, ref = operands.address(src1, True, "src1")
    step = operands.integer(rest[0], "count")
    _load_unaligned(op, dst, src0, ptr)
    if ref is not None:
        ref.value = ptr + step


def _store_unaligned(op: Any, ptr: Pointer[Any], ureg: Any, src: Any, count: Any) -> int:
    reg = _vector_at(op, src, "src1", ptr)
    n = operands.lane_count(count, reg, "count")
    stream = operands.instance(ureg, vector_store_unalign, "src0")
    unaligned.store_lanes(stream, ptr, reg.get(), n)
    return n


@define("asc_storeunalign")
def asc_storeunalign(op: Any, dst: Any, src0: Any, src1: Any, count: Any) -> None:
    """``asc_storeunalign(__ubuf__ T* dst, vector_store_unalign& src0, src1, uint32_t count)``.

    Stores the first ``count`` lanes of ``src1`` at ``dst``: bytes up to the last 32-byte
    boundary reach UB, the rest wait in ``src0`` for the next store continuing at
    ``dst + count`` or for ``asc_storeunalign_post``. ``dst`` is not updated.

    Examples
    --------
    >>> from ascreg import UnifiedBuffer, uint32_t
    >>> from ascreg.c_api import *
    >>> p = UnifiedBuffer().alloc(uint32_t, 32); r = vector_uint32_t(); r.set(4)
    >>> u = vector_store_unalign(); asc_storeunalign(p + 1, u, r, 2); p.read(3).tolist()
    [0, 0, 0]
    >>> asc_storeunalign_post(p + 3, u, 0); p.read(4).tolist()
    [0, 4, 4, 0]
    """
    ptr = operands.value_address(dst, "dst")
    _store_unaligned(op, ptr, src0, src1, count)


@define("asc_storeunalign_postupdate", batch=rules.store_stream(0, 2, 1))
def asc_storeunalign_postupdate(op: Any, dst: Any, src0: Any, src1: Any, *rest: Any) -> None:
    """``asc_storeunalign_postupdate(__ubuf__ T*& dst, src0, src1, uint32_t count)``: then ``dst += count``.

    The AR form ``asc_storeunalign_postupdate(dst, src0, src1)`` (no count) follows an
    ``asc_squeeze_with_status`` and stores the bytes it kept at ``dst`` plus the bytes the
    earlier squeezes kept, as ``Reg.StoreUnAlign``'s AR form (docs/semantics.md); ``dst``
    does not move (the implementation takes it by value).

    The addr_reg form ``asc_storeunalign_postupdate(__ubuf__ T* dst, src0, src1, addr_reg&
    count)`` stores the whole register at ``dst`` + the ``addr_reg`` offset and moves neither;
    ``asc_storeunalign_post(dst, src, offset)`` with the same ``addr_reg`` ends that stream. The
    vector_bool form ``asc_storeunalign_postupdate(__ubuf__ uintN_t*& dst, src0, vector_bool
    src1)`` streams the lowest mask bit of each element: 16 bytes through a ``uint16_t``
    pointer, 8 through a ``uint32_t`` or (as the implementation casts it) a ``uint8_t`` one,
    ``dst`` aligned to that many bytes and advanced past them (``Reg.StoreUnAlign``'s MaskReg
    form).

    Examples
    --------
    >>> from ascreg import Ref, UnifiedBuffer, uint8_t
    >>> from ascreg.c_api import *
    >>> p = UnifiedBuffer().alloc(uint8_t, 64); r = vector_uint8_t(); r.set(1); dst = Ref(p + 7)
    >>> u = vector_store_unalign(); asc_storeunalign_postupdate(dst, u, r, 30)
    >>> asc_storeunalign_post_postupdate(dst, u, 0); int(p.read(64).sum()), dst.value - p
    (30, 37)
    """
    if isinstance(src1, MaskReg) and not rest:
        _store_mask_unaligned(dst, src0, src1)
        return
    if len(rest) == 1 and isinstance(rest[0], AddrReg):
        ptr = operands.value_address(dst, "dst")
        reg = _vector_at(op, src1, "src1", ptr)
        stream = operands.instance(src0, vector_store_unalign, "src0")
        unaligned.store_lanes(stream, _plus_areg(ptr, rest[0], "count"), reg.get(), reg.lanes)
        return
    if not rest:
        ptr = operands.value_address(dst, "dst")
        reg = _vector_at(op, src1, "src1", ptr)
        stream = operands.instance(src0, vector_store_unalign, "src0")
        unaligned.store_squeezed(stream, ptr, reg.get(), spr.read_ar(), spr.take_squeeze())
        return
    if len(rest) != 1:
        raise AscregTypeError(f"takes (dst, src0, src1[, count]), got {3 + len(rest)} arguments")
    ptr, ref = operands.address(dst, True, "dst")
    n = _store_unaligned(op, ptr, src0, src1, rest[0])
    if ref is not None:
        ref.value = ptr + n


_MASK_STORE_BYTES = {"uint8_t": 4, "uint16_t": 2, "uint32_t": 4}
"""Element size a ``vector_bool`` unaligned store assumes per pointer type (the uint8_t
overload is the uint32_t one on a cast pointer)."""


def _store_mask_unaligned(dst: Any, ureg: Any, mask: MaskReg) -> None:
    """``asc_storeunalign_postupdate(uintN_t*& dst, src0, vector_bool src1)``: see its docstring."""
    ptr, ref = operands.address(dst, True, "dst")
    _mask_pointer(ptr)
    stream = operands.instance(ureg, vector_store_unalign, "src0")
    size = _MASK_STORE_BYTES[ptr.dtype.cpp_name]
    written = unaligned.store_mask_bits(stream, ptr, mask.bits(), size)
    if ref is not None:
        ref.value = ptr.offset_bytes(written)


def _flush(op: Any, ptr: Pointer[Any], ureg: Any) -> None:
    op.spec.check(ptr.dtype)
    unaligned.store_post(operands.instance(ureg, vector_store_unalign, "src"), ptr)


@define("asc_storeunalign_post")
def asc_storeunalign_post(op: Any, dst: Any, src: Any, *rest: Any) -> None:
    """``asc_storeunalign_post(__ubuf__ T* dst, vector_store_unalign src, int32_t offset)``.

    Writes the bytes ``src`` holds; the stream must have stopped at ``dst + offset`` (elements,
    the C API's plain-offset rule). The AR form ``asc_storeunalign_post(dst, src)`` ends a
    stream of AR stores at ``dst`` + AR bytes. The addr_reg form ``asc_storeunalign_post(dst,
    src, addr_reg offset)`` ends the stream whose last store was the addr_reg form of
    ``asc_storeunalign_postupdate`` with the same ``addr_reg`` (a whole register at
    ``dst`` + offset).

    Examples
    --------
    >>> from ascreg import UnifiedBuffer, int16_t
    >>> from ascreg.c_api import *
    >>> p = UnifiedBuffer().alloc(int16_t, 16); r = vector_int16_t(); r.set(-2)
    >>> u = vector_store_unalign(); asc_storeunalign(p + 1, u, r, 2)
    >>> asc_storeunalign_post(p, u, 3); p.read(4).tolist()
    [0, -2, -2, 0]
    """
    ptr = operands.value_address(dst, "dst")
    if len(rest) == 1 and isinstance(rest[0], AddrReg):
        op.spec.check(ptr.dtype)
        stream = operands.instance(src, vector_store_unalign, "src")
        unaligned.store_post_after_register(stream, _plus_areg(ptr, rest[0], "offset"))
        return
    if not rest:
        op.spec.check(ptr.dtype)
        stream = operands.instance(src, vector_store_unalign, "src")
        unaligned.store_post_at_ar(stream, ptr, spr.read_ar())
        return
    if len(rest) != 1:
        raise AscregTypeError(f"takes (dst, src[, offset]), got {2 + len(rest)} arguments")
    _flush(op, ptr + operands.integer(rest[0], "offset"), src)


@define("asc_storeunalign_post_postupdate", batch=rules.post_streams(0, 1))
def asc_storeunalign_post_postupdate(op: Any, dst: Any, src: Any, offset: Any) -> None:
    """``asc_storeunalign_post_postupdate(__ubuf__ T*& dst, src, int32_t offset)``: then ``dst += offset``.

    Writes the bytes ``src`` holds; the stream must have stopped at ``dst``.

    Examples
    --------
    >>> from ascreg import Ref, UnifiedBuffer, uint16_t
    >>> from ascreg.c_api import *
    >>> p = UnifiedBuffer().alloc(uint16_t, 16); r = vector_uint16_t(); r.set(3); dst = Ref(p)
    >>> u = vector_store_unalign(); asc_storeunalign_postupdate(dst, u, r, 5)
    >>> asc_storeunalign_post_postupdate(dst, u, 0); p.read(6).tolist()
    [3, 3, 3, 3, 3, 0]
    """
    ptr, ref = operands.address(dst, True, "dst")
    step = operands.integer(offset, "offset")
    _flush(op, ptr, src)
    if ref is not None:
        ref.value = ptr + step


def _batched_anywhere(address_at: int) -> rules.BatchRule:
    """Return the rule of ``asc_load`` / ``asc_store``: one address per iteration.

    The address is argument *address_at*; a count, if given, is the same in every iteration.
    """

    def admit(op: Any, args: tuple[Any, ...], batch: Any) -> tuple[Any, ...] | None:
        address, rest = args[address_at], args[2:]
        if isinstance(address, Ref) or any(not isinstance(a, int) for a in rest):
            return None  # a stream's pointer variable, or a per-iteration count
        moved = list(args)
        moved[address_at] = batch.address(address)
        return tuple(moved)

    return rules.BatchRule(
        "unaligned access", "one register per iteration, at that iteration's address", admit
    )


@define("asc_load", batch=_batched_anywhere(1))
def asc_load(op: Any, dst: Any, src: Any) -> None:
    """``asc_load(dst, __ubuf__ T* src)``: load VL bytes from any UB address.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import UnifiedBuffer, int32_t
    >>> from ascreg.c_api import *
    >>> p = UnifiedBuffer().alloc(int32_t, 80); p.write(np.arange(80)); r = vector_int32_t()
    >>> asc_load(r, p + 9); r.get()[:2].tolist()
    [9, 10]
    """
    ptr = operands.value_address(src, "src")
    reg = _vector_at(op, dst, "dst", ptr)
    reg.put(unaligned.load_anywhere(ptr, reg.dtype.np_dtype, reg.lanes))


@define("asc_store", batch=_batched_anywhere(0))
def asc_store(op: Any, dst: Any, src: Any, count: Any = None) -> None:
    """``asc_store(__ubuf__ T* dst, src[, uint32_t count])``: store ``count`` lanes (default all).

    Every byte is in UB on return (an unaligned store plus its flush).

    Examples
    --------
    >>> from ascreg import UnifiedBuffer, uint8_t
    >>> from ascreg.c_api import *
    >>> p = UnifiedBuffer().alloc(uint8_t, 300); r = vector_uint8_t(); r.set(2)
    >>> asc_store(p + 5, r, 3); p.read(9).tolist()
    [0, 0, 0, 0, 0, 2, 2, 2, 0]
    """
    ptr = operands.value_address(dst, "dst")
    reg = _vector_at(op, src, "src", ptr)
    n = operands.lane_count(reg.lanes if count is None else count, reg, "count")
    unaligned.store_anywhere(ptr, reg.get(), n)


UNALIGNED = {f.__name__: f for f in (
    asc_loadunalign_pre, asc_loadunalign, asc_loadunalign_postupdate, asc_storeunalign,
    asc_storeunalign_postupdate, asc_storeunalign_post, asc_storeunalign_post_postupdate,
    asc_load, asc_store)}  # fmt: skip
"""Every unaligned-access function by name."""
