"""The basic API's data copies (``DataCopy``, ``DataCopyPad``) and their loop mode.

GM -> UB copies run on MTE2 and UB -> GM copies on MTE3, so the block's pipe tracker sees them
like the Reg and C API accesses. Where C++ deduces the
template argument the plain call works; ``DataCopyPad[float32_t](...)`` checks it.
``SetLoopModePara`` / ``ResetLoopModePara`` set the copy loop registers that repeat every
GM <-> UB copy of one direction (the registers the C API's ``asc_set_gm2ub_loop*`` set).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

import attrs
import numpy as np

from ascreg._dtypes import Scalar
from ascreg._frontend import operands
from ascreg.basic._cube import Dn2NzParams, Nd2NzParams, cube_copy, is_cube_copy
from ascreg.basic._nddma import NdDmaConfig, NdDmaParams, kDefaultNdDmaConfig, nddma_copy
from ascreg.basic._template import (
    BOOLEAN,
    INTEGER,
    TYPENAME,
    FunctionTemplate,
    Signature,
    function_template,
    instance_of,
    member_of,
)
from ascreg.basic._tensor import GlobalTensor, LocalTensor
from ascreg.errors import AscregError, AscregTypeError, OutOfBoundsError
from ascreg.machine.block import current_block, running_block
from ascreg.machine.memory import DATA_BLOCK, Pointer, UbPtr
from ascreg.machine.mte import GM_TO_UB, MAX_N_BURST, UB_TO_GM, Burst, copy_loops, repeated
from ascreg.machine.sysregs import (
    COPY_LOOP_GM_STRIDE_LIMIT,
    COPY_LOOP_SIZE_LIMIT,
    COPY_LOOP_UB_STRIDE_LIMIT,
    CopyLoops,
    system_registers,
)

T = TypeVar("T", bound=Scalar)
P = ParamSpec("P")
R = TypeVar("R")


class PaddingMode(enum.IntEnum):
    """``AscendC::PaddingMode``: how ``DataCopyPad<T, mode>`` lays blocks out in UB (dav-3510).

    ``Normal``: each block is padded and filled up to 32 bytes; ``Compact``: the blocks are
    packed and only the end of the last is filled.

    Examples
    --------
    >>> PaddingMode.Normal.value, PaddingMode.Compact.value
    (0, 1)
    """

    Normal = 0
    Compact = 1


@attrs.define
class DataCopyParams:
    """``AscendC::DataCopyParams``: ``blockCount`` blocks of ``blockLen`` 32-byte DataBlocks.

    ``srcStride`` / ``dstStride`` are the gaps between blocks, in DataBlocks (end of one block
    to the start of the next). Used by ``DataCopy(dst, src, params)``.

    Examples
    --------
    >>> DataCopyParams(2, 4, 1, 0)
    DataCopyParams(blockCount=2, blockLen=4, srcStride=1, dstStride=0)
    """

    blockCount: int = 1
    blockLen: int = 0
    srcStride: int = 0
    dstStride: int = 0


@attrs.define
class DataCopyExtParams:
    """``AscendC::DataCopyExtParams``: ``blockCount`` blocks of ``blockLen`` *bytes*.

    Gaps (end of one block to the start of the next) are in bytes on the GM side and in
    32-byte DataBlocks on the UB side. Used by ``DataCopyPad``.

    Examples
    --------
    >>> p = DataCopyExtParams(1, 40, 0, 0, 0); p.srcStride = 8; p
    DataCopyExtParams(blockCount=1, blockLen=40, srcStride=8, dstStride=0, rsv=0)
    """

    blockCount: int = 1
    blockLen: int = 0
    srcStride: int = 0
    dstStride: int = 0
    rsv: int = 0


@attrs.define
class DataCopyPadExtParams(Generic[T]):
    """``AscendC::DataCopyPadExtParams<T>``: the pads of a GM -> UB ``DataCopyPad``.

    ``leftPadding`` / ``rightPadding`` elements (32 bytes each at most) go around every block;
    with ``isPad`` they hold ``paddingValue``, else the value of ``SetPadValue`` (0 after
    ``InitSocState``; the chip leaves them undefined when none was set).

    Examples
    --------
    >>> from ascreg import half
    >>> DataCopyPadExtParams[half](True, 0, 4, 1.0).rightPadding
    4
    """

    isPad: bool = False
    leftPadding: int = 0
    rightPadding: int = 0
    paddingValue: Any = 0


def _Deduced(function: Callable[P, R]) -> FunctionTemplate[P, R]:
    """Make *function* a template ``<typename T>``: ``f(args)`` deduces, ``f[T](args)`` checks."""
    return function_template(Signature(T=TYPENAME))(function)


def _pointer(obj: Any, role: str) -> Pointer[Any]:
    if isinstance(obj, GlobalTensor | LocalTensor):
        return obj.GetPhyAddr()
    if isinstance(obj, Pointer):
        return obj
    if isinstance(obj, np.ndarray):
        raise AscregTypeError(
            f"{role} is a host numpy array ({obj.dtype}{list(obj.shape)}), not a GlobalTensor: "
            f"{operands.HOST_ARRAY_RULE} (GlobalTensor.SetGlobalBuffer)"
        )
    raise AscregTypeError(f"{role} must be a GlobalTensor or LocalTensor, got {obj!r:.60}")


def _pair(dst: Any, src: Any) -> tuple[Pointer[Any], Pointer[Any]]:
    d, s = _pointer(dst, "dst"), _pointer(src, "src")
    if d.dtype is not s.dtype:
        raise AscregTypeError(
            f"dst holds {d.dtype.cpp_name} but src holds {s.dtype.cpp_name} (one template T)"
        )
    if isinstance(d, UbPtr) == isinstance(s, UbPtr):
        raise AscregTypeError(
            f"copies GM -> UB (LocalTensor, GlobalTensor) or UB -> GM (GlobalTensor, "
            f"LocalTensor); got {type(dst).__name__} <- {type(src).__name__}"
        )
    return d, s


def _fits(tensor: Any, nbytes: int, role: str, loops: CopyLoops | None = None) -> None:
    """Reject a copy of *nbytes* into or out of a tensor of known size that is smaller.

    Under copy *loops*, the last repetition's offset (*role*'s side) adds to the span.
    """
    if loops is not None:
        src, dst = loops.reach()
        nbytes += dst if role == "dst" else src
    size = tensor.GetSize() if isinstance(tensor, GlobalTensor | LocalTensor) else 0
    have = size * tensor._dtype().size if size else None
    if have is not None and nbytes > have:
        raise OutOfBoundsError(
            f"the copy spans {nbytes} bytes of {role} but {tensor._cpp()} holds {size} "
            f"elements ({have} bytes)"
        )


def _direction(d: Pointer[Any]) -> str:
    return GM_TO_UB if isinstance(d, UbPtr) else UB_TO_GM


def _run(
    d: Pointer[Any], s: Pointer[Any], burst: Burst, call: str, loops: CopyLoops | None
) -> None:
    """Make the copy, repeated by the copy loop registers of its direction (*loops*)."""
    repeated(d, s, burst, _direction(d), call, loops)


_BURSTS: dict[tuple[Any, ...], Burst] = {}
"""The bursts of ``DataCopy`` count and ``DataCopyParams`` forms met so far, by their plain-int
fields (a burst is immutable and hashes once: one per form instead of one per call)."""
_MAX_BURSTS = 1024


def _remember(key: tuple[Any, ...], burst: Burst) -> Burst:
    """Keep *burst* as the burst of the checked form *key*; return it."""
    if len(_BURSTS) >= _MAX_BURSTS:
        _BURSTS.clear()
    _BURSTS[key] = burst
    return burst


def _DataCopy(
    dst: Any,
    src: Any,
    count: int | DataCopyParams | NdDmaParams | Nd2NzParams | Dn2NzParams,
    *,
    dim: int | None = None,
    config: NdDmaConfig | None = None,
    enableSmallC0: bool = False,
) -> None:
    """``DataCopy(dst, src, count | DataCopyParams | NdDmaParams)``: GM -> UB (MTE2) or UB -> GM (MTE3).

    The count form copies *count* contiguous elements; ``count * sizeof(T)`` must be a
    multiple of 32 bytes (the chip silently rounds it down; ascreg refuses). The
    ``DataCopyParams`` form copies ``blockCount`` blocks of ``blockLen`` DataBlocks with
    ``srcStride`` / ``dstStride`` DataBlocks between them; a zero count or length is a no-op.
    ``Nd2NzParams`` / ``Dn2NzParams`` are the cube core's GM -> L1 copies (``DataCopy[T,
    enableSmallC0]``, see ``ascreg.basic._cube.cube_copy``).
    The ``NdDmaParams<T, dim>`` form, ``DataCopy[T, dim, config](dst, src, params)``, is the
    n-dimensional GM -> UB copy (NDDMA) of :mod:`ascreg.basic._nddma`.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> x = GlobalMemory().alloc(float32_t, 32); x.write(np.arange(32))
    >>> xGm = GlobalTensor[float32_t](); xGm.SetGlobalBuffer(x, 32)
    >>> with block(BlockContext()):
    ...     xLocal = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 16]()
    ...     DataCopy(xLocal, xGm[8], DataCopyParams(2, 1, 1, 0))
    ...     PipeBarrier[PIPE_ALL]()
    ...     xLocal.GetPhyAddr().read(16)[[0, 7, 8, 15]].tolist()
    [8.0, 15.0, 24.0, 31.0]
    """
    _ascreg_call = "DataCopy"
    if is_cube_copy(dst, src, count) or enableSmallC0:
        cube_copy(dst, src, count, enableSmallC0)
        return
    d, s = _pair(dst, src)
    if isinstance(count, NdDmaParams):
        if not isinstance(d, UbPtr) or not isinstance(src, GlobalTensor):
            raise AscregTypeError("the NDDMA DataCopy copies GM -> UB: (LocalTensor, GlobalTensor)")
        nddma_copy(dst, src, count, dim, config)
        return
    if dim is not None or config is not None:
        raise AscregTypeError("DataCopy[T, dim, config] takes NdDmaParams<T, dim>")
    if isinstance(count, DataCopyParams):
        fields = (count.blockCount, count.blockLen, count.srcStride, count.dstStride)
        found = _BURSTS.get(fields)
        if found is None:
            found = _blocks(count)
            if found is None:
                return
            if all(type(f) is int for f in fields):  # a plain-int form: checked once
                _remember(fields, found)
        burst = found
    else:
        nbytes = count * d.dtype.size if isinstance(count, int) else -1
        if isinstance(count, bool) or nbytes <= 0 or nbytes % DATA_BLOCK:
            raise AscregError(
                f"count {count} x {d.dtype.size} bytes is not a positive multiple of 32"
            )
        burst = _BURSTS.get((nbytes,)) or _remember((nbytes,), Burst(n_burst=1, len_burst=nbytes))
    loops = copy_loops(_direction(d))
    _fits(dst, _extent(burst.n_burst, burst.dst_stride, burst.len_burst), "dst", loops)
    _fits(src, _extent(burst.n_burst, burst.src_stride, burst.len_burst), "src", loops)
    _run(d, s, burst, _ascreg_call, loops)


DataCopy = function_template(
    Signature(T=TYPENAME),
    Signature(T=TYPENAME, enableSmallC0=BOOLEAN),
    Signature(T=TYPENAME, dim=INTEGER, config=(instance_of(NdDmaConfig), kDefaultNdDmaConfig)),
    name="DataCopy",
)(_DataCopy)


def _extent(count: int, stride: int, length: int) -> int:
    """Bytes from the first block's start to the last block's end."""
    return (count - 1) * stride + length


def _blocks(params: DataCopyParams) -> Burst | None:
    """Return the burst of a ``DataCopyParams`` copy (sizes in DataBlocks); None: a no-op."""
    fields = attrs.asdict(params)
    for name, value in fields.items():
        operands.in_range(value, f"DataCopyParams.{name}", 0, 65535)
    if params.blockCount > MAX_N_BURST:
        raise AscregError(f"blockCount {params.blockCount} is outside [0, {MAX_N_BURST}]")
    if params.blockCount == 0 or params.blockLen == 0:
        return None
    length = params.blockLen * DATA_BLOCK
    return Burst(
        n_burst=params.blockCount,
        len_burst=length,
        src_stride=length + params.srcStride * DATA_BLOCK,
        dst_stride=length + params.dstStride * DATA_BLOCK,
    )


def _from_copy_params(params: DataCopyParams, into_ub: bool) -> DataCopyExtParams:
    """Return the ``DataCopyExtParams`` of a UB -> GM ``DataCopyPad(dst, src, DataCopyParams)``.

    The dav-3510 header's overload is the same copy (``blockLen`` in bytes, ``srcStride`` in
    DataBlocks, ``dstStride`` in bytes: ``DataCopyPadUB2GMImpl`` passes the fields as they are).

    Examples
    --------
    >>> _from_copy_params(DataCopyParams(2, 64, 1, 8), False)
    DataCopyExtParams(blockCount=2, blockLen=64, srcStride=1, dstStride=8, rsv=0)
    """
    if into_ub:
        raise AscregTypeError(
            "DataCopyPad GM -> UB takes DataCopyExtParams and DataCopyPadExtParams (the "
            "DataCopyParams form is UB -> GM only in ascreg)"
        )
    return DataCopyExtParams(params.blockCount, params.blockLen, params.srcStride,
                             params.dstStride, 0)  # fmt: skip


def _ext_params(value: Any) -> DataCopyExtParams:
    params = value if isinstance(value, DataCopyExtParams) else DataCopyExtParams(*value)
    for attribute in attrs.fields(type(params)):  # (attrs.asdict copies: ~20 us a copy)
        name = attribute.name
        field = getattr(params, name)
        if operands.integer(field, f"DataCopyExtParams.{name}") < 0:
            raise AscregError(f"DataCopyExtParams.{name} {field!r} must be a non-negative int")
    if params.blockCount > MAX_N_BURST:
        raise AscregError(f"blockCount {params.blockCount} is outside [0, {MAX_N_BURST}]")
    return params


def _pad_params(value: Any) -> DataCopyPadExtParams[Any]:
    if isinstance(value, DataCopyPadExtParams):
        return value
    return DataCopyPadExtParams(*value)


def _DataCopyPad(
    dst: LocalTensor[T] | GlobalTensor[T],
    src: GlobalTensor[T] | LocalTensor[T],
    dataCopyParams: DataCopyExtParams | DataCopyParams | tuple[int, ...],
    padParams: DataCopyPadExtParams[T] | tuple[Any, ...] | None = None,
    *,
    mode: PaddingMode = PaddingMode.Normal,
) -> None:
    """``DataCopyPad<T, mode>(dst, src, DataCopyExtParams[, DataCopyPadExtParams<T>])``.

    GM -> UB (with the pad parameters): ``blockCount`` blocks of ``blockLen`` bytes (any
    multiple of ``sizeof(T)``), ``srcStride`` bytes apart in GM; in UB each block gets
    ``leftPadding`` / ``rightPadding`` elements and is then filled up to the next 32-byte
    boundary, and blocks lie ``dstStride`` DataBlocks apart. The pads hold ``paddingValue``
    with ``isPad``, else the ``SetPadValue`` value; the fill holds ``paddingValue`` with
    ``isPad``, else the block's first element when it has no pads, else the pad value. UB -> GM
    (no pad parameters): the reverse, dropping the fill; ``srcStride`` is in DataBlocks,
    ``dstStride`` in bytes. A zero ``blockCount`` or ``blockLen`` is a no-op. C++ braced
    initialisers may be written as tuples.

    ``mode = PaddingMode.Compact`` (dav-3510) packs the blocks in UB one after the other
    (``dstStride``, ``leftPadding`` and ``rightPadding`` are ignored) and fills only the end of
    the last up to the next 32-byte boundary (with ``paddingValue`` with ``isPad``, else the
    last block's first element); UB -> GM it reads them packed (``srcStride`` is ignored).
    Under ``SetLoopModePara`` the whole copy repeats (see ``SetLoopModePara``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> x = GlobalMemory().alloc(float32_t, 5); x.write([1, 2, 3, 4, 5])
    >>> xGm = GlobalTensor[float32_t](); xGm.SetGlobalBuffer(x, 5)
    >>> with block(BlockContext()):
    ...     xLocal = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
    ...     DataCopyPad(xLocal, xGm, (1, 5 * 4, 0, 0, 0), (True, 0, 2, -1.0))
    ...     PipeBarrier[PIPE_ALL]()
    ...     xLocal.GetPhyAddr().read(8).tolist()
    [1.0, 2.0, 3.0, 4.0, 5.0, -1.0, -1.0, -1.0]
    >>> with block(BlockContext()):
    ...     xLocal = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
    ...     params = DataCopyExtParams(2, 2 * 4, 4, 0, 0)  # elements 0, 1 and 3, 4
    ...     DataCopyPad[float32_t, PaddingMode.Compact](xLocal, xGm, params, (True, 0, 0, 9.0))
    ...     PipeBarrier[PIPE_ALL]()
    ...     xLocal.GetPhyAddr().read(8).tolist()
    [1.0, 2.0, 4.0, 5.0, 9.0, 9.0, 9.0, 9.0]
    """
    _ascreg_call = "DataCopyPad"
    d, s = _pair(dst, src)
    into_ub = isinstance(d, UbPtr)
    if isinstance(dataCopyParams, DataCopyParams):
        dataCopyParams = _from_copy_params(dataCopyParams, into_ub)
    key = _pad_key(d, into_ub, dataCopyParams, padParams, mode)
    form = _PAD_FORMS.get(key) if key is not None else None
    if form is None:
        form = _pad_form(d, into_ub, dataCopyParams, padParams, mode)
        if form is None:
            return  # a zero blockCount or blockLen
        if key is not None:
            if len(_PAD_FORMS) >= _MAX_BURSTS:
                _PAD_FORMS.clear()
            _PAD_FORMS[key] = form
    burst, in_dst, in_src = form
    loops = copy_loops(_direction(d))
    if into_ub:
        _fits(dst, in_dst, "dst", loops)
        _fits(src, in_src, "src", loops)
    else:
        _fits(src, in_src, "src", loops)
        _fits(dst, in_dst, "dst", loops)
    _run(d, s, burst, _ascreg_call, loops)


PadForm = tuple[Burst, int, int]
"""A checked ``DataCopyPad`` form: its burst and the bytes it spans of dst and of src."""
_PAD_FORMS: dict[tuple[Any, ...], PadForm] = {}
"""The ``DataCopyPad`` forms met so far, by :func:`_pad_key`: a form's parameters are checked
and its burst built once."""


def _pad_key(
    d: Pointer[Any], into_ub: bool, params: Any, pads: Any, mode: PaddingMode
) -> tuple[Any, ...] | None:
    """Return what a ``DataCopyPad``'s form depends on, or None when it is not all plain ints.

    That is the element type, the direction, the mode, the parameters' fields and the pads'
    (``isPad`` a bool, the rest ints: a float pad value is left out, as ``-0.0 == 0.0``), and
    the ``SetPadValue`` value a GM -> UB copy may pad with.
    """
    if isinstance(params, DataCopyExtParams):
        count, length, gap, skip, rsv = (
            params.blockCount, params.blockLen, params.srcStride, params.dstStride, params.rsv
        )  # fmt: skip
        if not type(count) is type(length) is type(gap) is type(skip) is type(rsv) is int:
            return None
        fields: tuple[Any, ...] = (count, length, gap, skip, rsv)
    elif type(params) is tuple and all(type(f) is int for f in params):
        fields = params
    else:
        return None
    pad: tuple[Any, ...] | None = None
    if isinstance(pads, DataCopyPadExtParams):
        on, left, right, value = pads.isPad, pads.leftPadding, pads.rightPadding, pads.paddingValue
        if not (type(on) is bool and type(left) is type(right) is type(value) is int):
            return None
        pad = (on, left, right, value)
    elif type(pads) is tuple:
        if not (pads and type(pads[0]) is bool and all(type(f) is int for f in pads[1:])):
            return None
        pad = pads
    elif pads is not None:
        return None
    ctx = running_block()
    fill = ctx.state.get("pad_value", 0) if ctx is not None and into_ub else 0
    if ctx is None or type(fill) is not int:
        return None
    return (d.dtype, into_ub, mode is PaddingMode.Compact, fields, pad, fill)


def _pad_form(
    d: Pointer[Any], into_ub: bool, dataCopyParams: Any, padParams: Any, mode: PaddingMode
) -> PadForm | None:
    """Check a ``DataCopyPad``'s parameters; return its form, or None for a no-op."""
    params = _ext_params(dataCopyParams)
    size = d.dtype.size
    if params.blockLen % size:
        raise AscregError(f"blockLen {params.blockLen} is not a multiple of sizeof(T) = {size}")
    if params.blockCount == 0 or params.blockLen == 0:
        return None
    compact = mode is PaddingMode.Compact
    if into_ub:
        if padParams is None:
            raise AscregTypeError("a GM -> UB DataCopyPad takes DataCopyPadExtParams<T> too")
        burst = _gm_to_ub_burst(params, _pad_params(padParams), size, compact)
        if compact:
            in_ub = -(-burst.n_burst * burst.len_burst // DATA_BLOCK) * DATA_BLOCK
        else:
            in_ub = _extent(
                burst.n_burst, burst.dst_stride, burst.dst_stride - params.dstStride * DATA_BLOCK
            )
        return burst, in_ub, _extent(burst.n_burst, burst.src_stride, burst.len_burst)
    if padParams is not None:
        raise AscregTypeError("a UB -> GM DataCopyPad takes no DataCopyPadExtParams")
    burst = _ub_to_gm_burst(params, compact)
    return (
        burst,
        _extent(burst.n_burst, burst.dst_stride, burst.len_burst),
        _extent(burst.n_burst, burst.src_stride, burst.len_burst),
    )


def _gm_to_ub_burst(
    params: DataCopyExtParams, pads: DataCopyPadExtParams[Any], size: int, compact: bool
) -> Burst:
    if compact:
        return Burst(
            n_burst=params.blockCount,
            len_burst=params.blockLen,
            src_stride=params.blockLen + params.srcStride,
            dst_stride=params.blockLen,
            pad_value=pads.paddingValue if pads.isPad else None,
            compact=True,
        )
    padded = (pads.leftPadding + pads.rightPadding) * size + params.blockLen
    in_ub = -(-padded // DATA_BLOCK) * DATA_BLOCK
    value = pads.paddingValue if pads.isPad else current_block().state.get("pad_value", 0)
    return Burst(
        n_burst=params.blockCount,
        len_burst=params.blockLen,
        src_stride=params.blockLen + params.srcStride,
        dst_stride=in_ub + params.dstStride * DATA_BLOCK,
        left_pad=pads.leftPadding,
        right_pad=pads.rightPadding,
        pad_value=value,
        fill_to_block=True,
        constant_fill=bool(pads.isPad),
    )


def _ub_to_gm_burst(params: DataCopyExtParams, compact: bool) -> Burst:
    in_ub = -(-params.blockLen // DATA_BLOCK) * DATA_BLOCK
    return Burst(
        n_burst=params.blockCount,
        len_burst=params.blockLen,
        src_stride=params.blockLen if compact else in_ub + params.srcStride * DATA_BLOCK,
        dst_stride=params.blockLen + params.dstStride,
    )


DataCopyPad = function_template(
    Signature(T=TYPENAME, mode=(member_of(PaddingMode), PaddingMode.Normal)), name="DataCopyPad"
)(_DataCopyPad)


# ---- loop mode -------------------------------------------------------------------------------


@attrs.define
class LoopModeParams:
    """``AscendC::LoopModeParams``: the two loops ``SetLoopModePara`` puts around every copy.

    ``loop1Size`` (inner) and ``loop2Size`` (outer) repetitions, below 2**21 each; the strides
    are the byte distances between the starts of consecutive repetitions, of the source and
    of the destination. The UB side's strides are below 2**21 and multiples of 32, the GM
    side's below 2**40.

    Examples
    --------
    >>> LoopModeParams(2, 2, 96, 128, 192, 288).loop2DstStride
    288
    """

    loop1Size: int = 0
    loop2Size: int = 0
    loop1SrcStride: int = 0
    loop1DstStride: int = 0
    loop2SrcStride: int = 0
    loop2DstStride: int = 0


class DataCopyMVType(enum.IntEnum):
    """``AscendC::DataCopyMVType``: which copy direction's loop registers are meant.

    Examples
    --------
    >>> DataCopyMVType.OUT_TO_UB.value, DataCopyMVType.UB_TO_OUT.value
    (1, 0)
    """

    UB_TO_OUT = 0
    """UB -> GM (``DataCopy`` / ``DataCopyPad`` from a LocalTensor to a GlobalTensor)."""
    OUT_TO_UB = 1
    """GM -> UB."""


def _loop_direction(type: Any, call: str) -> str:
    if not isinstance(type, DataCopyMVType):
        raise AscregTypeError(f"{call}: type must be a DataCopyMVType member, got {type!r:.60}")
    return GM_TO_UB if type is DataCopyMVType.OUT_TO_UB else UB_TO_GM


def SetLoopModePara(loopParams: LoopModeParams, type: DataCopyMVType) -> None:
    """``SetLoopModePara(loopParams, type)``: repeat every copy of direction *type* in two loops.

    Until ``ResetLoopModePara(type)``, each ``DataCopy`` / ``DataCopyPad`` of that direction
    (GM -> UB for ``OUT_TO_UB``, UB -> GM for ``UB_TO_OUT``) runs ``loop2Size`` x
    ``loop1Size`` times, inner loop fastest, repetition ``(i2, i1)`` offset by
    ``i1 * loop1*Stride + i2 * loop2*Stride`` bytes on each side; a ``Compact`` copy fills
    the end of each repetition. A loop size of 0 makes no copy. The registers are those of the
    C API's ``asc_set_gm2ub_loop*`` / ``asc_set_ub2gm_loop*``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, int8_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> x = GlobalMemory().alloc(int8_t, 320); x.write(np.arange(320).astype(np.int8))
    >>> xGm = GlobalTensor[int8_t](); xGm.SetGlobalBuffer(x, 320)
    >>> with block(BlockContext()):
    ...     xLocal = LocalMemAllocator[Hardware.UB]().Alloc[int8_t, 576]()
    ...     Duplicate(xLocal, 0, 576); PipeBarrier[PIPE_ALL]()
    ...     SetLoopModePara(LoopModeParams(2, 2, 80, 128, 160, 288), DataCopyMVType.OUT_TO_UB)
    ...     DataCopyPad[int8_t, PaddingMode.Compact](xLocal, xGm, (2, 40, 0, 0, 0), (True, 0, 0, -1))
    ...     ResetLoopModePara(DataCopyMVType.OUT_TO_UB)
    ...     PipeBarrier[PIPE_ALL]()
    ...     xLocal.GetPhyAddr().read(576)[[0, 79, 80, 95, 96, 128, 288, 416]].tolist()
    [0, 79, -1, -1, 0, 80, -96, -16]
    """
    _ascreg_call = "SetLoopModePara"
    direction = _loop_direction(type, _ascreg_call)
    if not isinstance(loopParams, LoopModeParams):
        raise AscregTypeError(f"loopParams must be a LoopModeParams, got {loopParams!r:.60}")
    ub_side = "Dst" if direction == GM_TO_UB else "Src"
    values = {}
    for name, value in attrs.asdict(loopParams).items():
        if name.endswith("Size"):
            limit, multiple = COPY_LOOP_SIZE_LIMIT, 1
        elif name.endswith(f"{ub_side}Stride"):
            limit, multiple = COPY_LOOP_UB_STRIDE_LIMIT, DATA_BLOCK
        else:
            limit, multiple = COPY_LOOP_GM_STRIDE_LIMIT, 1
        values[name] = operands.integer_in(
            value, f"LoopModeParams.{name}", 0, limit - 1, multiple=multiple
        )
    system_registers().copy_loops[direction] = CopyLoops(
        (values["loop1Size"], values["loop2Size"]),
        (values["loop1SrcStride"], values["loop2SrcStride"]),
        (values["loop1DstStride"], values["loop2DstStride"]),
    )


def ResetLoopModePara(type: DataCopyMVType) -> None:
    """``ResetLoopModePara(type)``: back to one copy per call for direction *type*.

    It sets the loop sizes to 1 (the strides stay, unused), as the chip's reset does.

    Examples
    --------
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine.sysregs import system_registers
    >>> with block(BlockContext()):
    ...     SetLoopModePara(LoopModeParams(3, 2, 0, 32, 0, 96), DataCopyMVType.OUT_TO_UB)
    ...     ResetLoopModePara(DataCopyMVType.OUT_TO_UB)
    ...     system_registers().copy_loops["gm2ub"].sizes
    (1, 1)
    """
    _ascreg_call = "ResetLoopModePara"
    direction = _loop_direction(type, _ascreg_call)
    system_registers().copy_loops[direction].sizes = (1, 1)
