"""The basic API's L1 ``Fill(dst, InitConstValueParams)``: a constant over L1 on ``PIPE_MTE2``.

``Fill<T, U>(const LocalTensor<T>& dst, const InitConstValueParams<U>& params)`` writes
``params.initValue`` (``U`` is ``T``) over ``params.repeatTimes`` iterations of
``params.blockNum`` 32-byte blocks, ``params.dstGap`` blocks from one iteration's end to the
next one's start. On the Ascend 950 only an L1 tensor (``TPosition`` A1 / B1, 32-byte aligned)
is filled; ``T`` is ``int16_t``, ``uint16_t``, ``half``, ``bfloat16_t``, ``int32_t``,
``uint32_t`` or ``float``, and each field is in [0, 32767] (0 repeats or blocks: a NOP). The
page is ``基础API/矩阵计算（ISASI）/矩阵搬入辅助配置接口/Fill.md``; the fill is the C API's
``asc_fill_l1`` (:func:`ascreg._frontend.cube.fill_blocks`). The advanced API's GM ``Fill``
shares the name (:mod:`ascreg.basic._adv_misc` holds both overloads).

Examples
--------
>>> from ascreg import uint16_t
>>> from ascreg.basic import Fill, InitConstValueParams, LocalTensor, TPosition
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()) as ctx:
...     a1 = LocalTensor[uint16_t](TPosition.A1, 0, 64)
...     Fill(a1, InitConstValueParams[uint16_t](2, 1, 1, 9)); ctx.tracker.barrier()
...     a1.GetPhyAddr().read(64)[[0, 15, 16, 32, 47, 48]].tolist()
[9, 9, 0, 9, 9, 0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    float32_t,
    half,
    int16_t,
    int32_t,
    uint16_t,
    uint32_t,
)
from ascreg._frontend import operands
from ascreg._frontend.cube import aligned, fill_blocks
from ascreg.basic._adv import TYPENAME, Overload, Param, TemplateArgs
from ascreg.basic._template import TYPENAME as TYPE_PARAMETER
from ascreg.basic._template import ClassTemplate, Signature
from ascreg.basic._tensor import LocalTensor
from ascreg.errors import AscregTypeError
from ascreg.machine.cube import C0_BYTES

__all__ = ["InitConstValueParams"]

FILL_PAGE = "基础API/矩阵计算（ISASI）/矩阵搬入辅助配置接口/Fill.md"
FILL_L1_TYPES = (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float32_t)
"""The Ascend 950's element types of the L1 ``Fill`` (the page's data type list)."""
FIELD_MAX = 32767
"""The largest ``repeatTimes``, ``blockNum`` and ``dstGap`` (the page: [0, 32767])."""
L1_POSITIONS = ("A1", "B1")


class InitConstValueParams(metaclass=ClassTemplate):
    """``AscendC::InitConstValueParams<T>``: what the L1 ``Fill`` writes, and where.

    The C++ constructors are ``(repeatTimes, blockNum, dstGap, initValue)`` and
    ``(repeatTimes, initValue)``; every field defaults to 0 and may be set afterwards.

    Examples
    --------
    >>> from ascreg import half
    >>> from ascreg.basic import InitConstValueParams
    >>> p = InitConstValueParams[half](4, 1.5)
    >>> p.repeatTimes, p.blockNum, p.dstGap, p.initValue, p.T.cpp_name
    (4, 0, 0, 1.5, 'half')
    """

    template_signatures = (Signature(T=TYPE_PARAMETER),)

    def __init__(self, *args: Any, T: type[Scalar] | None = None) -> None:
        self.T = T
        self.repeatTimes = self.blockNum = self.dstGap = 0
        self.initValue: Any = 0
        if len(args) == 4:
            self.repeatTimes, self.blockNum, self.dstGap, self.initValue = args
        elif len(args) == 2:
            self.repeatTimes, self.initValue = args
        elif args:
            raise AscregTypeError(
                "InitConstValueParams takes (), (repeatTimes, initValue) or (repeatTimes, "
                f"blockNum, dstGap, initValue); got {len(args)} arguments"
            )

    def __repr__(self) -> str:
        return (
            f"InitConstValueParams<{getattr(self.T, 'cpp_name', '?')}>(repeatTimes="
            f"{self.repeatTimes}, blockNum={self.blockNum}, dstGap={self.dstGap}, "
            f"initValue={self.initValue!r})"
        )


def _element(value: Any, dtype: type[Scalar], call: str) -> Any:
    """Return *value* as one *dtype* element (an integer must fit; a float rounds to nearest)."""
    if np.issubdtype(dtype.np_dtype, np.integer):
        info = np.iinfo(dtype.np_dtype)
        number = operands.in_range(value, "initValue", int(info.min), int(info.max))
        return np.asarray(number, dtype.np_dtype)
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise AscregTypeError(
            f"initValue must be a number, got {type(value).__name__} {value!r:.40}", call=call
        )
    return np.asarray(value, dtype.np_dtype)


def _fill_l1(t: TemplateArgs, dst: Any, params: Any) -> None:
    call = _ascreg_call = f"Fill<{t.T.cpp_name}, {t.U.cpp_name}>"  # names errors raised below
    if t.T not in FILL_L1_TYPES:
        legal = ", ".join(d.cpp_name for d in FILL_L1_TYPES)
        raise AscregTypeError(f"dst holds {t.T.cpp_name}; {FILL_PAGE} fills {legal}", call=call)
    if t.U is not t.T:
        raise AscregTypeError(
            f"InitConstValueParams<{t.U.cpp_name}> into a LocalTensor<{t.T.cpp_name}>: U must "
            f"be T ({FILL_PAGE})",
            call=call,
        )
    position = dst.GetPosition().name
    if position not in L1_POSITIONS:
        raise AscregTypeError(
            f"dst is a {position} tensor; on the Ascend 950 {FILL_PAGE} fills L1 only "
            "(TPosition A1 / B1)",
            call=call,
        )
    repeat, blocks, gap = (
        operands.in_range(getattr(params, name), f"InitConstValueParams.{name}", 0, FIELD_MAX)
        for name in ("repeatTimes", "blockNum", "dstGap")
    )
    element = _element(params.initValue, t.T, call)
    ptr = dst.GetPhyAddr()
    aligned(ptr, C0_BYTES, "dst")
    fill_blocks(ptr, element, repeat, blocks, gap)


FILL_L1 = Overload(
    (Param("T", TYPENAME), Param("U", TYPENAME)),
    _fill_l1,
    lambda a: (
        len(a) == 2 and isinstance(a[0], LocalTensor) and isinstance(a[1], InitConstValueParams)
    ),
    lambda a: {"T": a[0]._dtype(), "U": a[1].T or a[0]._dtype()},
)
"""``Fill(dst, InitConstValueParams)``: the L1 overload of :data:`ascreg.basic.Fill`."""
