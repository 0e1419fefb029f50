"""Cross-core and per-pipe synchronisation, and the copy engine's store atomics (C API, dav-3510).

**Cross-core flags.** ``asc_sync_{block,subblock,inter}_arrive(pipe, flag_id)`` add one to a
4-bit counter of flag ``flag_id`` (0..15) once *pipe*'s work so far is done;
``asc_sync_{block,subblock,inter}_wait(pipe, flag_id)`` block *pipe* until that counter is
positive, then take one. The three waits are the same instruction (one counter per flag and
core); the arrives differ in which cores they reach: ``block`` and ``subblock`` the cores of the
running AI Core (ascreg launches one vector core per AI Core, so: this block), ``inter`` every
core of the launch. Inside one block an arrive/wait pair orders the arriving pipe's work before
the waiting pipe, for the pipe checker (:mod:`ascreg.machine.sync`), as a notify/wait does.
ascreg runs a launch's blocks one after another, so a wait must be satisfied by an arrive of
its own block or an earlier one; otherwise it is a :class:`~ascreg.errors.SyncError` (on the
chip it might wait for a later block). ``asc_sync_intra_*`` signal between the vector cores and
the cube core of one AI Core: in a ``__mix__(1, 2)`` launch they are the mode-4 flags of
:mod:`ascreg.machine.crosscore` (an AIV's ``sync_id`` 0..15 reaches the AIC's 0..15 from AIV0,
16..31 from AIV1; the AIC's 0..15 reach AIV0, 16..31 AIV1), and a wait parks the core until
the other side arrives. In a vector-only launch no cube core runs, so an intra wait reports the
hang it would be.

In a ``__mix__`` launch the arrives are the dav-3510 headers' ``ffts_cross_core_sync`` modes
(:mod:`ascreg.machine.mixsync`): ``inter`` mode 0 (every core of the arriving kind, once all
have arrived), ``subblock`` mode 1 (the AIVs of the AI Core), ``block`` mode 2 (AIC to its AIVs,
AIVs to their AIC), and each wait is ``wait_flag_dev`` on the running core's counter of modes
0..2 (the one ``CrossCoreWaitFlag`` uses): a wait parks the core, and a wait no core can
satisfy is the hang report naming every waiting core. ``block`` / ``subblock`` in a
``__mix__(0, 1)`` / ``(1, 0)`` launch (one kind of core, as the block page's pure-Vector
setting) keep the per-block counters above.

**Per-pipe barriers.** ``asc_sync_mte2(id)`` / ``asc_sync_mte3(id)`` set and wait the flags from
that copy pipe to the other copy pipe and to ``PIPE_V`` with event ``id``, then barrier the
pipe; ``asc_sync_vec()`` is ``pipe_barrier(PIPE_ALL)``.

**Store atomics.** After ``asc_set_atomic_<op>_<type>()`` every UB -> GM copy of the block
combines into GM (``gm = op(gm, ub)`` in that element type) until ``asc_set_atomic_none()``
or ``asc_init()``.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, int8_t
>>> from ascreg.c_api import *
>>> from ascreg.machine.kernel import BlockContext, block
>>> dst = GlobalMemory().alloc(int8_t, 256)
>>> with block(BlockContext()):
...     src0, src1 = __ubuf__(int8_t, 256), __ubuf__(int8_t, 256)
...     src0.write(np.ones(256, np.int8)); src1.write(np.full(256, 2, np.int8)); asc_sync()
...     asc_copy_ub2gm(dst, src0, 256)
...     asc_sync_pipe(PIPE_MTE3)
...     asc_set_atomic_add_int8()
...     asc_copy_ub2gm(dst, src1, 256)
...     asc_set_atomic_none()
>>> dst.read(4).tolist()
[3, 3, 3, 3]
"""

from __future__ import annotations

import warnings
from typing import Any

from ascreg._dtypes import bfloat16_t, float32_t, half, int8_t, int16_t, int32_t
from ascreg._frontend import operands
from ascreg._frontend.template import define
from ascreg._spec.c_api import STORE_ATOMIC_TYPES, STORE_ATOMIC_V2_OPS, STORE_ATOMIC_V2_TYPES
from ascreg.errors import SyncError, UnsupportedError
from ascreg.machine.block import BlockContext, current_block
from ascreg.machine.crosscore import core_of, cross_set, cross_wait, flags_of, ratio_of
from ascreg.machine.mixsync import c_api_signal
from ascreg.machine.sync import EVENT_COUNT, Pipe
from ascreg.machine.sysregs import FLAG_IDS, core_sync_counters, system_registers

__all__ = [
    "asc_get_store_atomic_config",
    "asc_set_atomic_add_bfloat",
    "asc_set_atomic_add_float",
    "asc_set_atomic_add_float16",
    "asc_set_atomic_add_int",
    "asc_set_atomic_add_int8",
    "asc_set_atomic_add_int16",
    "asc_set_atomic_max_bfloat",
    "asc_set_atomic_max_float",
    "asc_set_atomic_max_float16",
    "asc_set_atomic_max_int",
    "asc_set_atomic_max_int8",
    "asc_set_atomic_max_int16",
    "asc_set_atomic_min_bfloat",
    "asc_set_atomic_min_float",
    "asc_set_atomic_min_float16",
    "asc_set_atomic_min_int",
    "asc_set_atomic_min_int8",
    "asc_set_atomic_min_int16",
    "asc_set_atomic_none",
    "asc_set_store_atomic_config_v2",
    "asc_store_atomic_config",
    "asc_sync_block_arrive",
    "asc_sync_block_wait",
    "asc_sync_inter_arrive",
    "asc_sync_inter_wait",
    "asc_sync_intra_arrive",
    "asc_sync_intra_wait",
    "asc_sync_mte2",
    "asc_sync_mte3",
    "asc_sync_subblock_arrive",
    "asc_sync_subblock_wait",
    "asc_sync_vec",
]

# ---- cross-core flags ----------------------------------------------------------------------------

_INTRA_IDS = 16
"""``sync_id`` values a vector core uses with ``asc_sync_intra_*`` (0..15)."""
_CUBE_CORE = -1
"""The core number of the (not emulated) cube core in the cross-core counters."""
_INTRA_HANG = (
    "asc_sync_intra_wait on sync_id {number}: a vector core's intra-block counters are raised "
    "only by the cube core's asc_sync_intra_arrive, and this launch runs no cube core (declare "
    "the kernel __mix__(1, 2)), so this wait would block for good"
)


def _single_pipe(pipe: Any) -> Pipe:
    if not isinstance(pipe, Pipe) or pipe is Pipe.PIPE_ALL:
        raise SyncError(f"pipe {pipe!r} is not a single pipe_t (PIPE_S, PIPE_V, PIPE_MTE2, ...)")
    return pipe


def _targets(kind: str, ctx: BlockContext) -> list[int]:
    """Return the cores an arrive of *kind* reaches (see the module docstring)."""
    if kind == "inter":
        return list(range(ctx.block_num))
    return [_CUBE_CORE] if kind == "intra" else [ctx.block_idx]


def _signal(op: Any, pipe: Any, flag: Any, *, arrive: bool) -> None:
    """Check the operands, then add an arrival to or consume one from the flag counters."""
    ctx = current_block()
    limit = _INTRA_IDS if op.kind == "intra" else FLAG_IDS
    number = operands.in_range(flag, op.flag, 0, limit - 1)
    single = _single_pipe(pipe)
    counters = core_sync_counters(ctx)
    if arrive:
        counters.arrive(ctx, _targets(op.kind, ctx), op.counter, number, single)
    elif op.kind == "intra":
        raise SyncError(_INTRA_HANG.format(number=number))
    else:
        counters.wait(ctx, op.counter, number, single)


def _mixed(op: Any, pipe: Any, flag: Any, step: str) -> bool:
    """Run *op* on the flags of a mixed launch (:mod:`ascreg.machine.mixsync`); False if none.

    ``inter`` in any ``__mix__`` launch; ``block`` / ``subblock`` where the AI Core has both
    kinds of core (in ``__mix__(0, 1)`` / ``(1, 0)`` they keep the per-block counters).
    """
    ctx = current_block()
    core = core_of(ctx)
    if core is None or (op.kind != "inter" and ratio_of(flags_of(ctx, op.name)[1]) not in _BOTH):
        return False
    number = operands.in_range(flag, op.flag, 0, FLAG_IDS - 1)
    c_api_signal(op.kind, step, _single_pipe(pipe), number, op.name)
    return True


_BOTH = ((1, 1), (1, 2))
"""The ``__mix__`` ratios whose AI Cores have an AIC and AIVs."""


def _arrive(op: Any, pipe: Any, flag_id: Any) -> None:
    if not _mixed(op, pipe, flag_id, "arrive"):
        _signal(op, pipe, flag_id, arrive=True)


def _wait(op: Any, pipe: Any, flag_id: Any) -> None:
    if not _mixed(op, pipe, flag_id, "wait"):
        _signal(op, pipe, flag_id, arrive=False)


def _intra_arrive(op: Any, pipe: Any, sync_id: Any) -> None:
    if core_of(current_block()) is not None:
        cross_set(4, pipe, sync_id, op.name)
        return
    _signal(op, pipe, sync_id, arrive=True)


def _intra_wait(op: Any, pipe: Any, sync_id: Any) -> None:
    if core_of(current_block()) is not None:
        cross_wait(4, pipe, sync_id, op.name)
        return
    _signal(op, pipe, sync_id, arrive=False)


_REACH = {
    "block": "the cores of this AI Core (in ascreg: this block)",
    "subblock": "the other vector cores of this AI Core (in ascreg: this block)",
    "inter": "every core of the launch",
    "intra": "the cube core of this AI Core (AIV0's ids 0..15 reach its 0..15, AIV1's its "
    "16..31) or, from the cube core, of AIV0 (ids 0..15) or AIV1 (16..31 as 0..15)",
}


def _sync_doc(kind: str, step: str) -> str:
    flag = "sync_id" if kind == "intra" else "flag_id"
    if step == "arrive":
        what = f"add one to flag ``{flag}`` of {_REACH[kind]} once *pipe*'s work so far is done"
    else:
        what = f"block *pipe* until flag ``{flag}`` of this core is positive, then take one"
    if (kind, step) == ("intra", "wait"):
        example = f"""    >>> with block(BlockContext()):
    ...     asc_sync_intra_wait(PIPE_S, 1)
    Traceback (most recent call last):
    ...
    ascreg.errors.SyncError: asc_sync_intra_wait: {_INTRA_HANG.format(number=1)}"""
    else:
        wait = "" if kind == "intra" else f"\n    ...     asc_sync_{kind}_wait(PIPE_S, 1)"
        example = f"""    >>> with block(BlockContext()):
    ...     asc_sync_{kind}_arrive(PIPE_MTE3, 1){wait}"""
    return f"""``asc_sync_{kind}_{step}(pipe_t pipe, {flag})``: {what}.

    See the ``ascreg.c_api.coresync`` module docstring for the counters and what ascreg can emulate.

    Examples
    --------
    >>> from ascreg.c_api import PIPE_MTE3, PIPE_S
    >>> from ascreg.machine.block import BlockContext, block
{example}
    """


def _sync(kind: str, step: str) -> Any:
    return define(
        f"asc_sync_{kind}_{step}",
        doc=_sync_doc(kind, step),
        kind=kind,
        counter="intra" if kind == "intra" else "ffts",
        flag="sync_id" if kind == "intra" else "flag_id",
    )(_STEPS[kind == "intra", step])


_STEPS = {(False, "arrive"): _arrive, (False, "wait"): _wait,
          (True, "arrive"): _intra_arrive, (True, "wait"): _intra_wait}  # fmt: skip
"""The implementation of each (intra?, step): the C parameter is ``sync_id`` for intra."""


(asc_sync_block_arrive, asc_sync_block_wait, asc_sync_subblock_arrive, asc_sync_subblock_wait,
 asc_sync_inter_arrive, asc_sync_inter_wait, asc_sync_intra_arrive, asc_sync_intra_wait) = (
    _sync(kind, step) for kind in ("block", "subblock", "inter", "intra")
    for step in ("arrive", "wait")
)  # fmt: skip

# ---- per-pipe barriers ---------------------------------------------------------------------------


def _copy_pipe_barrier(op: Any, id: Any) -> None:
    tracker = current_block().tracker
    event = operands.in_range(id, "id", 0, EVENT_COUNT - 1, "an event_t")
    for dst in op.others:
        tracker.notify(op.pipe, dst, event)
    for dst in op.others:
        tracker.wait(op.pipe, dst, event)
    tracker.pipe_barrier(op.pipe)


def _copy_barrier_doc(name: str, pipe: str, other: str) -> str:
    return f"""``{name}(int id)``: order ``{pipe}``'s work so far before ``{other}`` and ``PIPE_V``.

    It sets and waits the flags ``({pipe} -> {other}, id)`` and ``({pipe} -> PIPE_V, id)``,
    then barriers ``{pipe}`` (so its next copy starts after the earlier ones).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     {name}(0)
    """


asc_sync_mte2, asc_sync_mte3 = (
    define(
        name,
        doc=_copy_barrier_doc(name, pipe.name, other.name),
        pipe=pipe,
        others=(other, Pipe.PIPE_V),
    )(_copy_pipe_barrier)
    for name, pipe, other in (
        ("asc_sync_mte2", Pipe.PIPE_MTE2, Pipe.PIPE_MTE3),
        ("asc_sync_mte3", Pipe.PIPE_MTE3, Pipe.PIPE_MTE2),
    )
)


@define("asc_sync_vec")
def asc_sync_vec(op: Any) -> None:
    """``asc_sync_vec()``: ``pipe_barrier(PIPE_ALL)`` (every pipe's work so far completes).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_sync_vec()
    """
    current_block().tracker.barrier()


# ---- store atomics -------------------------------------------------------------------------------

_TYPE_CODES = {None: 0, float32_t: 1, half: 2, int16_t: 3, int32_t: 4, int8_t: 5, bfloat16_t: 6}
"""``asc_store_atomic_config.atomic_type`` of each element type (0: no atomic)."""
_OP_CODES = {"add": 0, "max": 1, "min": 2}
"""``asc_store_atomic_config.atomic_op`` of each operation: 0 (sum) is documented; 1 and 2 are
ascreg's codes for max and min (the page gives no others)."""
_TYPE_BITS, _OP_SHIFT, _OP_BITS = 0b111, 3, 0b11


class asc_store_atomic_config:
    """``union asc_store_atomic_config``: ``config``, or its fields ``atomic_type`` / ``atomic_op``.

    ``atomic_type`` (bits 0-2): 0 none, 1 float, 2 half, 3 int16_t, 4 int32_t, 5 int8_t,
    6 bfloat16_t; ``atomic_op`` (bits 3-4): 0 sum (ascreg reports 1 for max, 2 for min).

    Examples
    --------
    >>> cfg = asc_store_atomic_config()
    >>> cfg.atomic_type = 4; cfg.atomic_op = 1
    >>> cfg.config, cfg.atomic_type, cfg.atomic_op
    (12, 4, 1)
    """

    def __init__(self, config: int = 0) -> None:
        self.config = config

    @property
    def atomic_type(self) -> int:
        """The element-type code (bits 0-2)."""
        return self.config & _TYPE_BITS

    @atomic_type.setter
    def atomic_type(self, value: int) -> None:
        self.config = self.config & ~_TYPE_BITS | value & _TYPE_BITS

    @property
    def atomic_op(self) -> int:
        """The operation code (bits 3-4)."""
        return self.config >> _OP_SHIFT & _OP_BITS

    @atomic_op.setter
    def atomic_op(self, value: int) -> None:
        mask = _OP_BITS << _OP_SHIFT
        self.config = self.config & ~mask | (value & _OP_BITS) << _OP_SHIFT

    def __repr__(self) -> str:
        return (
            f"asc_store_atomic_config(atomic_type={self.atomic_type}, atomic_op={self.atomic_op})"
        )


def _set_atomic(op: Any) -> None:
    system_registers().atomic = (op.atomic_op, op.atomic_type)


def _set_atomic_doc(op: str, suffix: str) -> str:
    dtype = STORE_ATOMIC_TYPES[suffix]
    return f"""``asc_set_atomic_{op}_{suffix}()``: later UB -> GM copies {op} into GM as ``{dtype.cpp_name}``.

    Each element a copy writes becomes ``{op}(gm, ub)`` (``ascreg.machine.store_atomic``) until
    ``asc_set_atomic_none()`` or ``asc_init()``; GM is not cleared first.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_set_atomic_{op}_{suffix}(); asc_set_atomic_none()
    """


def _set_atomic_function(op: str, suffix: str) -> Any:
    return define(
        f"asc_set_atomic_{op}_{suffix}",
        doc=_set_atomic_doc(op, suffix),
        atomic_op=op,
        atomic_type=STORE_ATOMIC_TYPES[suffix],
    )(_set_atomic)


(asc_set_atomic_add_int8, asc_set_atomic_add_int16, asc_set_atomic_add_int,
 asc_set_atomic_add_bfloat, asc_set_atomic_add_float16, asc_set_atomic_add_float,
 asc_set_atomic_max_int8, asc_set_atomic_max_int16, asc_set_atomic_max_int,
 asc_set_atomic_max_bfloat, asc_set_atomic_max_float16, asc_set_atomic_max_float,
 asc_set_atomic_min_int8, asc_set_atomic_min_int16, asc_set_atomic_min_int,
 asc_set_atomic_min_bfloat, asc_set_atomic_min_float16, asc_set_atomic_min_float) = (
    _set_atomic_function(op, suffix) for op in ("add", "max", "min") for suffix in STORE_ATOMIC_TYPES
)  # fmt: skip


@define("asc_set_atomic_none")
def asc_set_atomic_none(op: Any) -> None:
    """``asc_set_atomic_none()``: later UB -> GM copies overwrite GM again.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_set_atomic_max_float(); asc_set_atomic_none()
    """
    system_registers().atomic = None


@define("asc_get_store_atomic_config")
def asc_get_store_atomic_config(op: Any, config: Any) -> None:
    """``asc_get_store_atomic_config(asc_store_atomic_config& config)``: read the atomic mode.

    Deprecated on dav-3510 (the header marks it so): it warns with a ``DeprecationWarning``
    naming ``asc_atomic_add``, then fills *config*'s ``atomic_type`` and ``atomic_op``.

    Examples
    --------
    >>> import warnings
    >>> from ascreg.machine.block import BlockContext, block
    >>> cfg = asc_store_atomic_config()
    >>> with block(BlockContext()), warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     asc_set_atomic_add_float(); asc_get_store_atomic_config(cfg)
    >>> cfg.atomic_type, cfg.atomic_op
    (1, 0)
    """
    warnings.warn(
        "asc_get_store_atomic_config is deprecated on dav-3510: use asc_atomic_add for "
        "atomic additions",
        DeprecationWarning,
        stacklevel=3,
    )
    target = operands.instance(config, asc_store_atomic_config, "config")
    mode = system_registers().atomic
    target.atomic_type = _TYPE_CODES[mode[1] if mode else None]
    target.atomic_op = _OP_CODES[mode[0]] if mode else 0


# ---- asc_set_store_atomic_config_v2 (deprecated; issue 11, C API complete) -----------------------


@define("asc_set_store_atomic_config_v2")
def asc_set_store_atomic_config_v2(op: Any, atomic_type: Any, atomic_op: Any) -> None:
    """``asc_set_store_atomic_config_v2(uint16_t type, uint16_t op)``: enable the store atomic.

    Deprecated (the header's notice names ``asc_atomic_add`` for atomic additions): it warns
    with a ``DeprecationWarning``, then sets the same state as ``asc_set_atomic_add_<type>``.
    Documented codes: ``type`` 1 int32_t, 4 half, 5 float, 7 bfloat16_t, 9 int16_t,
    10 int8_t; ``op`` 2 (sum). The page gives the other values no meaning, so ascreg rejects
    them (decision) instead of guessing a register layout. The C parameters ``type`` and ``op``
    are spelled ``atomic_type`` and ``atomic_op`` (the union ``asc_store_atomic_config``'s
    field names): ``type`` is a Python builtin and ``op`` the name ascreg's ops reserve.

    Examples
    --------
    >>> import warnings
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine.sysregs import system_registers
    >>> with block(BlockContext()), warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", DeprecationWarning)
    ...     asc_set_store_atomic_config_v2(5, 2); system_registers().atomic
    ('add', <class 'ascreg._dtypes.float32_t'>)
    """
    warnings.warn(
        "asc_set_store_atomic_config_v2 is deprecated on dav-3510: use asc_atomic_add for "
        "atomic additions",
        DeprecationWarning,
        stacklevel=3,
    )
    element = _v2_code(atomic_type, "atomic_type", STORE_ATOMIC_V2_TYPES)
    operation = _v2_code(atomic_op, "atomic_op", STORE_ATOMIC_V2_OPS)
    system_registers().atomic = (operation, element)


def _v2_code(value: Any, role: str, table: dict[int, Any]) -> Any:
    """Return the meaning of a documented ``asc_set_store_atomic_config_v2`` code, or raise."""
    code = operands.integer(value, role)
    if code not in table:
        legal = ", ".join(f"{k} ({getattr(v, 'cpp_name', v)})" for k, v in table.items())
        raise UnsupportedError(f"{role} {code} is not a documented code (documented: {legal})")
    return table[code]
