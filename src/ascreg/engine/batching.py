"""Op calls inside a batched VF loop: each op's own rule says how it runs on the batch.

While a loop runs batched (:mod:`ascreg.engine.batch`), every op call comes here. The op's
:class:`~ascreg._frontend.rules.BatchRule` (``op.batching``: declared where the op is defined,
or derived from a lane-wise row) admits the call: it returns the arguments to run the op's
implementation with -- an address made one per iteration, a count made per iteration -- or
None when this form does not batch. An op without a rule, or whose rule does not take the
form, runs only when no operand differs between iterations (one call stands for all of them),
and never when it is kernel-level (it would change the block's state once instead of once per
iteration); otherwise the batch is undone and the loop runs eagerly. Nothing here names an op.

A recorded plan (:mod:`ascreg.engine.plans`) replays each call with the step :func:`step_for`
derives from the op's rule: the implementation on the admitted arguments when the admission
depends on the operands alone, else the admission and the implementation.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, UnifiedBuffer, uint16_t, __simd_vf__
>>> @__simd_vf__
... def twice(dst, src):
...     r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
...     for i in range(4):
...         Reg.LoadAlign(r, src + i * 128)
...         Reg.Add(r, r, r, full)             # lane-wise: its row's rule
...         Reg.StoreAlign(dst + i * 128, r, full)
>>> ub = UnifiedBuffer(); a, b = ub.alloc(uint16_t, 512), ub.alloc(uint16_t, 512)
>>> a.write(np.arange(512)); twice(b, a); int(b.read(512)[-1])
1022
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ascreg.engine.batch import current, fallback


def batched(op: Any, impl: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None) -> Any:
    """Call *op* (through its implementation *impl*) on *args* inside the running batch.

    The arguments are :func:`admit`-ted first. When the batch records a plan
    (:mod:`ascreg.engine.plans`), the call is recorded, unless another recorded call makes it.
    """
    batch = current()
    recorder = batch.recorder
    if recorder is None or recorder.inside:
        admitted = admit(op, args, kwargs, batch)
        return impl(op, *admitted, **kwargs) if kwargs else impl(op, *admitted)
    recorder.inside = True
    try:
        journaled = len(batch.refs)
        admitted = admit(op, args, kwargs, batch)
        result = impl(op, *admitted, **kwargs) if kwargs else impl(op, *admitted)
    finally:
        recorder.inside = False
    if len(batch.refs) == journaled:  # the admission changed no Ref: it depends on the operands
        recorder.call(_admitted, op, impl, admitted, kwargs, result)
    else:
        recorder.call(step_for, op, impl, args, kwargs, result)
    return result


def step_for(op: Any, impl: Any, args: tuple[Any, ...], result: Any) -> Callable[..., Any]:
    """Return the step a plan replays for the recorded call ``op(*args)``.

    The call's admission by the op's rule, then the implementation, as :func:`batched` runs
    it. (*args* and *result* describe the recorded call; the step keeps neither.)

    A call whose admission changed no ``Ref`` (it made an address one per iteration, or took
    the arguments as they are, as :data:`~ascreg._frontend.rules.ROWS` does) depends on its
    operands alone: the plan records the admitted arguments and replays the implementation
    on them (:func:`_admitted`).
    """
    return functools.partial(_call, op, impl)


def _admitted(op: Any, impl: Any, args: tuple[Any, ...], result: Any) -> Callable[..., Any]:
    """Return the step of a call recorded with its admitted arguments: the implementation."""
    return functools.partial(impl, op)


def _call(op: Any, impl: Any, *args: Any) -> Any:
    return impl(op, *admit(op, args, None, current()))


def admit(
    op: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None, batch: Any = None
) -> tuple[Any, ...]:
    """Return the arguments to call *op* with inside a batch, or raise ``Fallback``."""
    if batch is None:
        batch = current()
    rule = op.batching
    if rule is not None and not kwargs:
        admitted: tuple[Any, ...] | None = rule.admit(op, args, batch)
        if admitted is not None:
            return admitted
    if op.kernel:
        # a kernel-level (scalar) op: flags, barriers, copies, system registers; run once for
        # all iterations it would change the block's state once instead of once per iteration
        raise fallback(f"{op.name} is a kernel-level op")
    per_iteration = batch.per_iteration
    if any(map(per_iteration, args)) or any(map(per_iteration, (kwargs or {}).values())):
        raise fallback(f"{op.name} does not run on a batch in this form")
    return args
