"""Batching rules: how an op runs on a batch of loop iterations, declared where the op is made.

A batched ``__simd_vf__`` loop (:mod:`ascreg.engine`) runs its body once for all of its
iterations: a register written in the loop holds one row of lanes per iteration. Each op
says how it runs on such a batch with a :class:`BatchRule`, in the spirit of JAX's batching
rules registered where a primitive is made:

* a **lane-wise** row (:attr:`ascreg._spec.OpSpec.lanewise`: every arithmetic, transcendental,
  conversion, compare, select, logic and shift row) gets :data:`ROWS` by construction, from its
  row alone: its core function and mask rule compute each iteration's lanes from that
  iteration's operands, so the op's own implementation runs on all rows at once;
* any other op declares its rule where it is defined (``define(row, batch=rule)``): the
  reductions, gathers, pack/unpack, interleave and mask-register ops, whose implementations
  work on the last axis, declare :data:`ROWS` too; the loads and stores declare how their
  address becomes one address per iteration, ``UpdateMask`` how its running count does;
* an op with no rule runs in a batch only when no operand differs between iterations (one call
  stands for all of them), and never when it is a kernel-level op.

A rule's :attr:`~BatchRule.admit` is ``admit(op, args, batch) -> args | None``: the arguments to
run the implementation with (an address made one per iteration, a count made per iteration),
or None when this form of the call does not batch. *batch* is the running batch of the engine,
used only through the methods this module names (``per_iteration``, ``address``,
``carried_count``, ``carried_pointer``), so the front ends never import the engine.

Examples
--------
>>> ROWS
<BatchRule rows: each iteration's row is computed alone from that iteration's operands>
>>> class Batch:
...     def per_iteration(self, obj): return isinstance(obj, list)
>>> ROWS.admit(None, (1, 2), Batch()), ROWS.admit(None, ([1], 2), Batch())
((1, 2), None)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg.machine.ref import Ref
from ascreg.machine.registers import MaskReg, RegTensor, RegTraitNumOne

Admit = Callable[[Any, tuple[Any, ...], Any], "tuple[Any, ...] | None"]
"""``admit(op, args, batch)``: the arguments to run with inside a batch, or None."""


class BatchRule:
    """How an op runs on a batch of loop iterations (see the module docstring).

    Parameters
    ----------
    name
        A short name (``"rows"``, ``"aligned load"``).
    summary
        What the rule does, for ``explain`` and the docs.
    admit
        ``admit(op, args, batch) -> args | None``.

    Examples
    --------
    >>> rule = BatchRule("never", "no form batches", lambda op, args, batch: None)
    >>> rule.admit(None, (), None) is None
    True
    """

    __slots__ = ("admit", "name", "summary")

    def __init__(self, name: str, summary: str, admit: Admit) -> None:
        self.name = name
        self.summary = summary
        self.admit = admit

    def __repr__(self) -> str:
        return f"<BatchRule {self.name}: {self.summary}>"


def _rows(op: Any, args: tuple[Any, ...], batch: Any) -> tuple[Any, ...] | None:
    """Admit a call whose only per-iteration operands are registers and masks."""
    for arg in args:
        plain = type(arg) in _PLAIN or isinstance(arg, RegTensor | MaskReg)
        if not plain and batch.per_iteration(arg):
            return None
    return args


_PLAIN = frozenset({int, float, bool, type(None)})
"""Operand types that are the same in every iteration (tested first, without ``isinstance``)."""

ROWS = BatchRule(
    "rows", "each iteration's row is computed alone from that iteration's operands", _rows
)
"""The rule of lane-wise rows (derived from the row) and of the register-file ops whose
implementations work row by row on the last axis (declared): reductions, gathers, pack and
unpack, interleave, squeeze, the mask-register ops."""


def rule_of(row: Any, declared: BatchRule | None) -> BatchRule | None:
    """Return an op's rule: the *declared* one, else :data:`ROWS` for a lane-wise *row*.

    Examples
    --------
    >>> from ascreg._spec import SPECS
    >>> rule_of(SPECS["Reg.Add"], None) is ROWS, rule_of(SPECS["Reg.LoadAlign"], None)
    (True, None)
    """
    if declared is not None:
        return declared
    return ROWS if row is not None and row.lanewise else None


def access_address(post: bool, address: Any, rest: tuple[Any, ...], batch: Any) -> Any:
    """Return the address operand of a load or store to run a batch with.

    A post-update address (a ``Ref`` advanced by the stride in *rest*) holds one pointer per
    iteration (``batch.carried_pointer``); a plain pointer becomes one address per iteration
    (``batch.address``: the same one for a plain pointer, a per-iteration pointer as it is).
    """
    if post:
        if isinstance(address, Ref) and len(rest) == 1:
            batch.carried_pointer(address, rest[0])
        return address
    return batch.address(address)


def mask_access_address(post: bool, address: Any, rest: tuple[Any, ...], batch: Any) -> Any:
    """Return the address of a ``MaskReg`` load to run a batch with, or None.

    As :func:`access_address`, but a MaskReg post-update stride counts bytes: it must be a
    whole number of the pointer's elements (None otherwise: the loop runs eagerly).
    """
    if not post:
        return batch.address(address)
    pointer = address.value if isinstance(address, Ref) else None
    size = getattr(getattr(pointer, "dtype", None), "size", 0)
    if len(rest) != 1 or not isinstance(rest[0], int | np.integer) or not size:
        return None
    stride = int(rest[0])  # (a uint16_t stride as the C++ declares it)
    return None if stride % size else access_address(post, address, (stride // size,), batch)


def one_block(reg: Any, post: bool) -> bool:
    """Return True for a vector register that a load or store moves as one block of lanes.

    A post-update access of a ``RegTraitNumTwo`` register is two accesses (two halves).

    Examples
    --------
    >>> from ascreg import Reg, RegTraitNumTwo, uint64_t
    >>> r = Reg.RegTensor[uint64_t, RegTraitNumTwo]()
    >>> one_block(r, post=False), one_block(r, post=True), one_block(3, post=False)
    (True, False, False)
    """
    return isinstance(reg, RegTensor) and (reg.trait is RegTraitNumOne or not post)


def index_like(value: Any) -> bool:
    """Return True for an integer offset: an ``int``, or one per iteration of a batch.

    Examples
    --------
    >>> index_like(3), index_like(3.0)
    (True, False)
    """
    return isinstance(value, int) or hasattr(type(value), "__ascreg_rows__")


def _tail_count(op: Any, args: tuple[Any, ...], batch: Any) -> tuple[Any, ...] | None:
    geometry = op.geometry
    if len(args) != 1 or type(args[0]) is not Ref or geometry is None:
        return None
    args[0].value = batch.carried_count(args[0], geometry[0])
    return args


TAIL_COUNT = BatchRule(
    "tail count",
    "the count it takes down by the lane count holds one value per iteration",
    _tail_count,
)
"""The rule of ``UpdateMask`` and its C twins (``op.geometry``: lanes and mask stride): the
running count of the tail idiom, ``max(count - k * lanes, 0)`` in iteration k."""


def store_stream(dst_at: int, src_at: int, register_at: int) -> BatchRule:
    """Return the rule of an unaligned store whose post-update address streams (``StoreUnAlign``).

    The form ``(Ref(dst), register, ureg, stride)`` (positions *dst_at*, *src_at* of the vector
    register, *register_at* of the unaligned one; the stride last, a plain ``int``) runs as one
    stream for all iterations: the ``Ref`` holds one address per iteration, each where the one
    before ended (``batch.carried_stream``). Any other form runs eagerly.

    Examples
    --------
    >>> store_stream(0, 1, 2)
    <BatchRule store stream: iteration k stores where iteration k - 1 stopped, one stream>
    """
    return _stream("store", dst_at, src_at, register_at)


def load_stream(dst_at: int, register_at: int, src_at: int) -> BatchRule:
    """Return the rule of an unaligned load whose post-update address streams (``LoadUnAlign``).

    The form ``(register, ureg, Ref(src), stride)`` (positions *dst_at* of the vector register,
    *register_at* of the unaligned one, *src_at* of the address; the stride last, a plain
    ``int``) runs as one stream for all iterations, as :func:`store_stream`'s does: iteration k
    reads the block iteration k - 1 left in the unaligned register.

    Examples
    --------
    >>> load_stream(0, 1, 2)
    <BatchRule load stream: iteration k loads where iteration k - 1 stopped, one stream>
    """
    return _stream("load", src_at, dst_at, register_at)


def post_streams(dst_at: int, register_at: int) -> BatchRule:
    """Return the rule of ``StoreUnAlignPost`` ending every iteration's own store stream.

    The form ``(Ref(dst), ureg, stride)`` batches when *ureg* holds one stream per iteration
    (a store stream whose address the body sets each iteration, ``ascreg.core.unaligned``
    ``store_streams``): each iteration writes what its stream holds. Any other form, or a
    stream carried from one iteration to the next, runs eagerly.

    Examples
    --------
    >>> post_streams(0, 1)
    <BatchRule stream ends: each iteration writes what its own store stream holds>
    """

    def admit(op: Any, args: tuple[Any, ...], batch: Any) -> tuple[Any, ...] | None:
        held = getattr(args[register_at], "held", None) if len(args) == 3 else None
        if type(args[dst_at]) is not Ref or type(args[2]) is not int or held is None:
            return None
        return args if held.ndim > 1 else None

    return BatchRule("stream ends", "each iteration writes what its own store stream holds", admit)


def _stream(kind: str, pointer_at: int, vector_at: int, register_at: int) -> BatchRule:
    """Return the rule of an unaligned *kind* (``load`` or ``store``) stream (see above)."""

    def admit(op: Any, args: tuple[Any, ...], batch: Any) -> tuple[Any, ...] | None:
        if len(args) != 4 or type(args[pointer_at]) is not Ref or type(args[3]) is not int:
            return None
        vector = args[vector_at]
        if not isinstance(vector, RegTensor) or vector.trait is not RegTraitNumOne:
            return None
        if kind == "store" and batch.own_streams(args[pointer_at]):
            return args  # each iteration its own stream (store_streams checks the rest)
        batch.carried_stream(args[pointer_at], args[3], args[register_at])
        return args

    return BatchRule(
        f"{kind} stream", f"iteration k {kind}s where iteration k - 1 stopped, one stream", admit
    )
