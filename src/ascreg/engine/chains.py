"""Accumulator chains: a loop-carried call ``Op(acc, acc, x, mask)`` run as one accumulation.

A scan (:func:`ascreg.engine.batching.scan`, :func:`ascreg.engine.nested.scan`) runs a call
that carries a register once per iteration, in order: each call pays the op's Python
overhead. A lane-wise binary row may declare the chain of its formula (``op.accumulate``:
``ascreg.core.arith.ACCUMULATIONS``), the accumulator after every step at once, in the same
order and rounding. A call takes it when it is the accumulator form -- ``(dst, src0, src1,
mask)`` with ``dst`` the very register ``src0`` is, ``src1`` another, and every lane of every
row enabled (masked-off lanes would zero or keep the accumulator: another chain) -- and
every operand holds plain lanes (an undefined lane's taint stays with the calls). Otherwise,
or when the declared chain says it has none for these lanes, the scan runs call by call.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, UnifiedBuffer, float32_t
>>> from ascreg.machine.kernel import __simd_vf__
>>> @__simd_vf__
... def row_sums(dst, src, rows):
...     x, acc, full = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t](), Reg.CreateMask[float32_t]()
...     for i in range(rows):
...         Reg.Duplicate(acc, 0.0, full)
...         for j in range(4):
...             Reg.LoadAlign(x, src + i * 256 + j * 64)
...             Reg.Add(acc, acc, x, full)
...         Reg.StoreAlign(dst + i * 64, acc, full)
>>> ub = UnifiedBuffer(); a, b = ub.alloc(float32_t, 1024), ub.alloc(float32_t, 256)
>>> a.write(np.ones(1024, np.float32)); row_sums(b, a, 4); b.read(256)[[0, 255]].tolist()
[4.0, 4.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._frontend.operands import lane_enables
from ascreg.core.elementary import any_set
from ascreg.machine.registers import MaskReg, RegTensor, storage

Lanes = np.ndarray[Any, Any]


def accumulator(op: Any, args: tuple[Any, ...]) -> tuple[Any, Any] | None:
    """Return ``(acc, x)`` when the call ``op(*args)`` is an accumulator step with a chain.

    That is ``op(acc, acc, x, mask)`` of an op that declares ``accumulate``, with plain
    registers of one class (no views) holding plain lanes, and a mask enabling every lane
    of every row.

    Examples
    --------
    >>> from ascreg import Reg, float32_t
    >>> acc, x, full = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t](), Reg.CreateMask[float32_t]()
    >>> acc.set(1.0); x.set(2.0)
    >>> [r is o for r, o in zip(accumulator(Reg.Add, (acc, acc, x, full)), (acc, x))]
    [True, True]
    >>> accumulator(Reg.Add, (acc, x, acc, full)) is None  # the accumulator second: call by call
    True
    """
    if getattr(op, "accumulate", None) is None or len(args) != 4:
        return None
    acc, first, x, mask = args
    if first is not acc or x is acc or not isinstance(mask, MaskReg):
        return None
    if not isinstance(acc, RegTensor) or type(x) is not type(acc):
        return None
    if storage(acc) is not acc or storage(x) is not x:  # (a view: its storage's bytes)
        return None
    lanes = (acc.held(), x.held(), mask.held())
    if any(type(held) is not np.ndarray for held in lanes):  # unwritten, or undefined lanes
        return None
    enables = lane_enables(mask, acc)
    if type(enables) is not np.ndarray or any_set(~enables):
        return None
    return acc, x


def chain(op: Any, initial: Lanes, steps: Lanes) -> Lanes | None:
    """Return the accumulator after each step (``... x k x lanes``), or None (call by call).

    *initial* is its value before the first step (``... x 1 x lanes``), *steps* the other
    operand's row of each step.

    Examples
    --------
    >>> from ascreg import Reg
    >>> chain(Reg.Max, np.full((1, 2), 2.0, np.float32), np.float32([[1, 3], [5, 4]])).tolist()
    [[2.0, 3.0], [5.0, 4.0]]
    """
    result: Lanes | None = op.accumulate(initial, steps)
    return result
