"""Special registers of the memory-level API: the compare mask, the ReduceSum result, MrgSort's counts, the pad value.

* ``SetCmpMask`` / ``GetCmpMask``: the 128-bit CmpMask, which the 950 keeps in two block-local
  ``uint64_t`` (``g_cmpMaskLow`` / ``g_cmpMaskHigh``, static storage: 0 when a kernel starts);
  each call is ``pipe_barrier(PIPE_ALL)``, a scalar 16-byte copy, ``pipe_barrier(PIPE_ALL)``.
* ``GetReduceRepeatSumSpr<T>``: the result of the last ``ReduceSum`` count form of ``T`` (half
  or float), which the 950 keeps in a block-local ``accValHalf`` / ``accValFloat``.
* ``GetMrgSortResult``: the VMS4_SR register: how many records of each queue the last
  ``MrgSort`` with ``isExhaustedSuspension`` took.
* ``SetPadValue<T, pos>``: the constant a ``DataCopyPad`` GM -> UB without ``isPad`` fills with.

Examples
--------
>>> import numpy as np
>>> from ascreg import uint16_t
>>> from ascreg.basic import *
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     t = LocalMemAllocator[Hardware.UB]().Alloc[uint16_t, 128]()
...     t.GetPhyAddr().write(np.arange(128)); PipeBarrier[PIPE_ALL]()
...     SetCmpMask(t); GetCmpMask(t[16]); PipeBarrier[PIPE_ALL]()
...     t.GetPhyAddr().read(24)[16:].tolist()
[0, 1, 2, 3, 4, 5, 6, 7]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import ALL_SCALARS, Scalar, float32_t, half, int32_t, uint64_t
from ascreg._frontend import operands
from ascreg.basic._events import PipeBarrier
from ascreg.basic._repeat import block_state
from ascreg.basic._template import TYPENAME, Signature, function_template, member_of, need
from ascreg.basic._tensor import LocalTensor, TPosition
from ascreg.errors import AscregError, AscregTypeError, UnsupportedError
from ascreg.machine.block import current_block
from ascreg.machine.ref import Ref
from ascreg.machine.sync import PIPE_ALL, Pipe

__all__ = [
    "GetCmpMask",
    "GetMrgSortResult",
    "GetReduceRepeatSumSpr",
    "SetCmpMask",
    "SetPadValue",
    "record_mrgsort",
    "record_reduce_sum",
]

CMP_MASK = "cmp_mask"
"""Block-state key of the CmpMask: ``(low, high)`` 64-bit words (``(0, 0)`` until set)."""
REDUCE_SUM = "reduce_sum_spr"
"""Block-state key of ``{dtype: value}``: the last ``ReduceSum`` count form's result per type."""
VMS4_SR = "vms4_sr"
"""Block-state key of the four counts of the last suspending ``MrgSort`` (None: not such)."""
CMP_MASK_ALIGN = 16
"""The byte alignment of ``SetCmpMask`` / ``GetCmpMask``'s tensor (their pages)."""
GET_CMP_MASK_BYTES = 128
"""``GetCmpMask``'s ``dst`` must hold at least 128 bytes (its constraint)."""


def _mask_tensor(call: str, tensor: Any, role: str, sizes: tuple[int, ...], least: int) -> Any:
    """Check *tensor* (a LocalTensor of a b8/b16/... type, 16-byte aligned, *least* bytes)."""
    if not isinstance(tensor, LocalTensor):
        raise AscregTypeError(f"{role} must be a LocalTensor, got {tensor!r:.60}", call=call)
    ptr = tensor.GetPhyAddr()
    dtype = tensor._dtype()
    if dtype.size not in sizes:
        legal = ", ".join(f"b{8 * s}" for s in sizes)
        raise AscregTypeError(f"{role} is a {tensor._cpp()}; the page takes {legal}", call=call)
    ptr.require_alignment(CMP_MASK_ALIGN, f"{call}: {role} must be 16-byte aligned (its page)")
    if tensor.GetSize() * dtype.size < least:
        raise AscregError(
            f"{role} holds {tensor.GetSize() * dtype.size} bytes; the page needs at least {least}",
            call=call,
        )
    return ptr.cast(uint64_t)


def SetCmpMask(src: LocalTensor[Any]) -> None:
    """``AscendC::SetCmpMask<T>(const LocalTensor<T>& src)``: load the 128-bit CmpMask from UB.

    Copies the first 16 bytes of ``src`` (b8, b16, b32 or b64 elements, 16-byte aligned) into
    the CmpMask, between two ``PIPE_ALL`` barriers, as the 950 does. ``Select`` without a mask
    argument reads it (``VSEL_CMPMASK_SPR``: the selMask bits; ``VSEL_TENSOR_SCALAR_MODE``: the
    scalar; ``VSEL_TENSOR_TENSOR_MODE``: the selMask's address); ``GetCmpMask`` reads it back.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint32_t, uint64_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     src = LocalMemAllocator[Hardware.UB]().Alloc[uint64_t, 2]()
    ...     dst = LocalMemAllocator[Hardware.UB]().Alloc[uint32_t, 32]()
    ...     src.GetPhyAddr().write(np.uint64([2**64 - 1, 5])); PipeBarrier[PIPE_ALL]()
    ...     SetCmpMask(src); GetCmpMask(dst); PipeBarrier[PIPE_ALL]()
    ...     [hex(v) for v in dst.GetPhyAddr().read(4)]
    ['0xffffffff', '0xffffffff', '0x5', '0x0']
    """
    _ascreg_call = "SetCmpMask"
    words = _mask_tensor("SetCmpMask", src, "src", (1, 2, 4, 8), CMP_MASK_ALIGN)
    PipeBarrier[PIPE_ALL]()
    with current_block().on_pipe(Pipe.PIPE_S):
        low, high = (int(v) for v in words.read(2))
    block_state()[CMP_MASK] = (low, high)
    PipeBarrier[PIPE_ALL]()


def GetCmpMask(dst: LocalTensor[Any]) -> None:
    """``AscendC::GetCmpMask<T>(const LocalTensor<T>& dst)``: store the 128-bit CmpMask to UB.

    Writes the CmpMask's low then high 64-bit word to the first 16 bytes of ``dst`` (b8, b16
    or b32 elements, 16-byte aligned, at least 128 bytes: the page's constraints), between two
    ``PIPE_ALL`` barriers. The CmpMask is 0 until ``SetCmpMask`` writes it (the 950 keeps it
    in zero-initialised block-local variables).

    Examples
    --------
    >>> from ascreg import uint32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     t = LocalMemAllocator[Hardware.UB]().Alloc[uint32_t, 32]()
    ...     Duplicate(t, 7, 32); PipeBarrier[PIPE_ALL]()
    ...     GetCmpMask(t); PipeBarrier[PIPE_ALL]()
    ...     t.GetPhyAddr().read(6).tolist()
    [0, 0, 0, 0, 7, 7]
    """
    _ascreg_call = "GetCmpMask"
    words = _mask_tensor("GetCmpMask", dst, "dst", (1, 2, 4), GET_CMP_MASK_BYTES)
    PipeBarrier[PIPE_ALL]()
    with current_block().on_pipe(Pipe.PIPE_S):
        words.write(np.array(block_state().get(CMP_MASK, (0, 0)), dtype=np.uint64))
    PipeBarrier[PIPE_ALL]()


# ---- GetReduceRepeatSumSpr -------------------------------------------------------------------------

REDUCE_SUM_TYPES = (half, float32_t)
"""The types ``ReduceSum``'s count form records and ``GetReduceRepeatSumSpr`` reads."""


def record_reduce_sum(dtype: type[Scalar], value: Any) -> None:
    """Keep a ``ReduceSum`` count form's result for ``GetReduceRepeatSumSpr`` (half, float)."""
    if dtype in REDUCE_SUM_TYPES:
        block_state().setdefault(REDUCE_SUM, {})[dtype] = dtype.np_dtype.type(value)


@function_template(Signature(T=TYPENAME), name="GetReduceRepeatSumSpr")
def GetReduceRepeatSumSpr(*, T: type[Scalar] | None = None) -> Any:
    """``AscendC::GetReduceRepeatSumSpr<T>()``: the last ``ReduceSum`` count form's result of type ``T``.

    ``T`` is half or float. The 950 keeps the sum in a block-local variable per type after each
    ``ReduceSum(dst, src, sharedTmpBuffer, count)`` (the count form only, as the page says);
    reading it before any such call reads an uninitialised variable: an error here.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import float32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     y = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
    ...     Duplicate(x, 0.5, 64); PipeBarrier[PIPE_ALL]()
    ...     ReduceSum(y, x, y, 64); PipeBarrier[PIPE_ALL]()
    ...     float(GetReduceRepeatSumSpr[float32_t]())
    32.0
    """
    _ascreg_call = "GetReduceRepeatSumSpr"
    chosen = need("T", T, "GetReduceRepeatSumSpr[T]()")
    if chosen not in REDUCE_SUM_TYPES:
        raise AscregTypeError(
            f"T must be half or float (the page's types), not {chosen.cpp_name}",
            call=f"GetReduceRepeatSumSpr<{chosen.cpp_name}>",
        )
    found = block_state().get(REDUCE_SUM, {})
    if chosen not in found:
        raise AscregError(
            f"no ReduceSum<{chosen.cpp_name}> count form (ReduceSum(dst, src, sharedTmpBuffer, "
            "count)) has run in this block: the result variable is uninitialised",
            call=f"GetReduceRepeatSumSpr<{chosen.cpp_name}>",
        )
    return found[chosen]


# ---- GetMrgSortResult --------------------------------------------------------------------------


def record_mrgsort(counts: list[int] | None) -> None:
    """Keep the four counts a suspending ``MrgSort`` took (None after a non-suspending one)."""
    block_state()[VMS4_SR] = None if counts is None else [int(c) & 0xFFFF for c in counts]


def GetMrgSortResult(
    mrgSortList1: Ref[Any], mrgSortList2: Ref[Any], mrgSortList3: Ref[Any], mrgSortList4: Ref[Any]
) -> None:
    """``AscendC::GetMrgSortResult(uint16_t& mrgSortList1, ..., uint16_t& mrgSortList4)``.

    Each ``Ref`` receives how many records of queue 1..4 the last ``MrgSort`` took (the VMS4_SR
    register's four 16-bit fields). The page requires that ``MrgSort`` ran with
    ``isExhaustedSuspension`` true; after one without it, or before any, the result is not
    documented: an ``UnsupportedError``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Ref, float32_t, uint32_t
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> def queue(at, values):
    ...     t = LocalTensor[float32_t](TPosition.VECCALC, at, 2 * len(values))
    ...     w = np.zeros((len(values), 2), np.uint32); w[:, 0] = np.float32(values).view(np.uint32)
    ...     t.GetPhyAddr().cast(uint32_t).write(w.reshape(-1)); return t
    >>> counts = [Ref(0) for _ in range(4)]
    >>> with block(BlockContext()) as ctx:
    ...     a, b = queue(0, [5, 3, 1]), queue(64, [4, 2])
    ...     dst = LocalTensor[float32_t](TPosition.VECCALC, 128, 10); ctx.tracker.barrier()
    ...     MrgSort[float32_t, True](dst, MrgSortSrcList[float32_t](a, b), [3, 2, 0, 0], [0] * 4, 0b11, 1)
    ...     GetMrgSortResult(*counts)
    >>> [c.value for c in counts]
    [2, 2, 0, 0]
    """
    _ascreg_call = "GetMrgSortResult"
    refs = (mrgSortList1, mrgSortList2, mrgSortList3, mrgSortList4)
    for k, ref in enumerate(refs):
        if not isinstance(ref, Ref):
            raise AscregTypeError(
                f"mrgSortList{k + 1} is a uint16_t& output: pass a Ref (Ref(0)), got {ref!r:.40}"
            )
    counts = block_state().get(VMS4_SR)
    if counts is None:
        raise UnsupportedError(
            "no MrgSort with isExhaustedSuspension = true has run in this block: the page "
            "(排序组合（ISASI）/GetMrgSortResult.md) documents the counts only after one"
        )
    for ref, count in zip(refs, counts, strict=True):
        ref.value = count


# ---- SetPadValue -------------------------------------------------------------------------------

PAD_POSITIONS = (TPosition.VECIN, TPosition.VECOUT, TPosition.MAX)
"""``SetPadValue``'s ``pos`` values on the 950 (``MAX``: VECIN or VECOUT)."""


@function_template(
    Signature(T=TYPENAME, pos=(member_of(TPosition), TPosition.MAX)), name="SetPadValue"
)
def SetPadValue(
    paddingValue: Any, *, T: type[Scalar] | None = None, pos: TPosition = TPosition.MAX
) -> None:
    """``AscendC::SetPadValue<T, TPosition pos = MAX>(T paddingValue)``: the GM -> UB pad constant.

    Later ``DataCopyPad`` GM -> UB copies whose ``DataCopyPadExtParams.isPad`` is false fill
    their padding with *paddingValue* (converted to ``T``, the copies' element type: the 950
    writes its bit pattern, ``set_mov_pad_val``), as ``asc_set_copy_pad_val``; ``InitSocState``
    resets it to 0. Without a template argument ``T`` is deduced from the value (a Python int:
    int32_t, a float: float). ``pos`` is ``VECIN``, ``VECOUT`` or ``MAX`` (either).

    Examples
    --------
    >>> from ascreg import half
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     SetPadValue[half](1.5); float(ctx.state["pad_value"])
    1.5
    """
    _ascreg_call = "SetPadValue"
    if pos not in PAD_POSITIONS:
        raise UnsupportedError(
            f"pos must be TPosition.VECIN, VECOUT or MAX on the 950 (GM -> UB), not {pos.name}",
            call="SetPadValue",
        )
    if T is None:
        T = _deduced(paddingValue)
    value = operands.scalar(paddingValue, T, "paddingValue")
    if T.np_dtype.kind in "iub":
        value = int(value)
    current_block().state["pad_value"] = value


def _deduced(value: Any) -> type[Scalar]:
    """Return the ``T`` C++ deduces from the value: its numpy scalar's type, ``int`` or ``float``."""
    if isinstance(value, np.generic):
        for candidate in ALL_SCALARS:
            if candidate.np_dtype == value.dtype and not candidate.cpp_name.startswith("fp"):
                return candidate
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise AscregTypeError(f"paddingValue {value!r:.40} is not a number", call="SetPadValue")
    return int32_t if isinstance(value, int | np.integer) else float32_t
