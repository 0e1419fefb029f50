"""Launch-wide glue: ``SyncAll``, the workspace GM, and the store-atomic mode switch.

``SyncAll`` makes every block of the launch wait until all have reached it (the blocks run as
cooperative phases, :mod:`ascreg.machine.coop`). ``SetSysWorkspace`` / ``GetUserWorkspace``
split the workspace GM a kernel receives into the system part (:data:`RESERVED_WORKSPACE`
bytes) and the user part. ``SetAtomicAdd<T>`` / ``SetAtomicMax<T>`` / ``SetAtomicMin<T>`` and
``SetAtomicNone`` / ``DisableDmaAtomic`` set the copy engine's store-atomic mode, the state
``asc_set_atomic_add_float()`` and the other C API switches set.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Iterator
from typing import Any

import attrs

from ascreg._dtypes import Scalar, int32_t, uint8_t
from ascreg._spec.c_api import STORE_ATOMIC_TYPES
from ascreg.basic._constants import AIV_CORE_NUM, ONE_BLK_SIZE, RESERVED_WORKSPACE, TOTAL_UB_SIZE
from ascreg.basic._template import (
    BOOLEAN,
    INTEGER,
    TYPENAME,
    Signature,
    function_template,
    instance_of,
    member_of,
    need,
)
from ascreg.basic._tensor import GlobalTensor, LocalTensor
from ascreg.errors import AscregError, AscregTypeError, SyncError, UnsupportedError
from ascreg.machine.block import BlockContext, current_block
from ascreg.machine.coop import Barrier, BlockRunner
from ascreg.machine.crosscore import RUNNER_STATE, core_of, cross_set, cross_wait, running_kind
from ascreg.machine.memory import GmPtr
from ascreg.machine.mixsync import hard_sync_all
from ascreg.machine.ref import Ref
from ascreg.machine.spr import MASK_SPR_INIT, write_mask_spr
from ascreg.machine.sync import PIPE_ALL, PIPE_MTE2, PIPE_MTE3, Pipe
from ascreg.machine.sysregs import ATOMIC_OP_CODES, ATOMIC_TYPE_CODES, system_registers


def reset_soc_state() -> None:
    """Reset the core's modes as ``InitSocState`` / ``asc_init``: pad value 0, mask SPR, no atomic.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     reset_soc_state(); ctx.state["pad_value"], system_registers().atomic
    (0, None)
    """
    current_block().state["pad_value"] = 0
    write_mask_spr(MASK_SPR_INIT)
    system_registers().atomic = None


# -- system variables ----------------------------------------------------------------------------


def GetSubBlockIdx() -> int:
    """``AscendC::GetSubBlockIdx()``: the core's index among its kind in its AI Core.

    0 or 1 on the two AIVs of a ``__mix__(1, 2)`` launch, 0 on every other core (an AIC, the
    one AIV of a ``__mix__(1, 1)`` launch, a block of a ``__vector__`` kernel).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext(block_idx=3, block_num=4)):
    ...     GetSubBlockIdx(), GetSubBlockNum(), GetTaskRatio()
    (0, 1, 1)
    """
    _ascreg_call = "GetSubBlockIdx"
    core = core_of(current_block())
    return 0 if core is None else core.sub


def GetSubBlockNum() -> int:
    """``AscendC::GetSubBlockNum()``: cores of the running core's kind per AI Core.

    2 on an AIV of a ``__mix__(1, 2)`` launch, else 1 (the GetSubBlockNum page's table).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     GetSubBlockNum()
    1
    """
    _ascreg_call = "GetSubBlockNum"
    core = core_of(current_block())
    return 1 if core is None else core.subs


def GetTaskRatio() -> int:
    """``AscendC::GetTaskRatio()``: the running core's kind started per logical AI Core.

    As :func:`GetSubBlockNum` on dav-3510 (2 on an AIV of a 1:2 launch, else 1):
    ``GetTaskRatio() * GetBlockNum()`` cores of this kind run.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     GetTaskRatio()
    1
    """
    _ascreg_call = "GetTaskRatio"
    core = core_of(current_block())
    return 1 if core is None else core.subs


def GetTaskRation() -> int:
    """``AscendC::GetTaskRation()``: the header's other spelling of :func:`GetTaskRatio`.

    The basic API header defines it as ``return GetTaskRatio();``; kernels such as the
    quant_group_matmul example call it.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     GetTaskRation()
    1
    """
    _ascreg_call = "GetTaskRation"
    return GetTaskRatio()


@function_template(Signature(modeId=INTEGER, pipe=member_of(Pipe)), name="CrossCoreSetFlag")
def CrossCoreSetFlag(flagId: int, *, modeId: int | None = None, pipe: Pipe | None = None) -> None:
    """``AscendC::CrossCoreSetFlag<modeId, pipe>(flagId)``: ``CrossCoreSetFlag[2, PIPE_MTE3](0)``.

    Once *pipe*'s earlier work is done, the core reports the set to the scheduler, which
    raises the counters of the cores *modeId* names: 0 all cores of this kind in the launch
    (once all have set), 1 both AIVs of the AI Core (once both have), 2 the AIC and the AIVs
    of the AI Core (an AIC's set reaches each AIV, the AIVs' sets reach the AIC once all have
    set), 4 the AIC and one AIV (flag ids mapped as ``asc_sync_intra_*``). Only a ``__mix__``
    kernel has the scheduler; :mod:`ascreg.machine.crosscore` has the model.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, GmPtr, int32_t
    >>> from ascreg.basic import ASCEND_IS_AIC, ASCEND_IS_AIV, PIPE_S
    >>> from ascreg.machine.kernel import __global__, __mix__
    >>> @__global__
    ... @__mix__(1, 2)
    ... def relay(out: GmPtr[int32_t]) -> None:
    ...     if ASCEND_IS_AIC:
    ...         out.write([7])
    ...         CrossCoreSetFlag[2, PIPE_MTE3](5)  # both AIVs of the AI Core get one
    ...     if ASCEND_IS_AIV:
    ...         CrossCoreWaitFlag(5)               # the AIVs run first and wait here
    ...         (out + 1 + GetSubBlockIdx()).write([out.read(1)[0] + GetSubBlockIdx()])
    >>> out = GlobalMemory().alloc(int32_t, 3)
    >>> relay[1, 0](out); out.read(3).tolist()
    [7, 7, 8]

    PIPE_S and PIPE_ALL cannot carry a set of modes 0 to 2:

    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     CrossCoreSetFlag[0, PIPE_S](1)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: CrossCoreSetFlag: pipe 'PIPE_S' cannot carry a mode-0 set (PIPE_ALL and PIPE_S are not supported; PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX are)
    """
    _ascreg_call = "CrossCoreSetFlag"
    mode = need("modeId", modeId, "CrossCoreSetFlag[modeId, pipe](flagId)")
    chosen = need("pipe", pipe, "CrossCoreSetFlag[modeId, pipe](flagId)")
    cross_set(mode, chosen, flagId, _ascreg_call)


@function_template(
    Signature(modeId=(INTEGER, 0), pipe=(member_of(Pipe), Pipe.PIPE_S)), name="CrossCoreWaitFlag"
)
def CrossCoreWaitFlag(flagId: int, *, modeId: int = 0, pipe: Pipe = Pipe.PIPE_S) -> None:
    """``AscendC::CrossCoreWaitFlag<modeId = 0, pipe = PIPE_S>(flagId)``: wait for a set.

    Blocks the core until its counter of *flagId* (mode 4's own counters with ``modeId`` 4,
    else the shared ones of modes 0 to 2) is positive, then takes one. Meanwhile the launch's
    other cores run; when none can, the launch would hang: a :class:`~ascreg.errors.SyncError`.

    Examples
    --------
    >>> from ascreg import GlobalMemory, GmPtr, int32_t
    >>> from ascreg.basic import ASCEND_IS_AIV, PIPE_MTE3
    >>> from ascreg.machine.kernel import __global__, __mix__
    >>> @__global__
    ... @__mix__(1, 2)
    ... def lonely(out: GmPtr[int32_t]) -> None:
    ...     if ASCEND_IS_AIV:
    ...         CrossCoreWaitFlag(3)          # no AIC ever sets flag 3
    >>> lonely[1, 0](GlobalMemory().alloc(int32_t, 1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ascreg.errors.SyncError: lonely: every core left waits: AIV 0 waits in CrossCoreWaitFlag(3); AIV 1 waits in CrossCoreWaitFlag(3); no running core can raise those counters (AIC 0 already ended): on the chip the launch hangs ...
    """
    _ascreg_call = "CrossCoreWaitFlag"
    cross_wait(modeId, pipe, flagId, _ascreg_call)


def GetDataBlockSizeInBytes() -> int:
    """``AscendC::GetDataBlockSizeInBytes()``: bytes in a DataBlock (32).

    Examples
    --------
    >>> GetDataBlockSizeInBytes()
    32
    """
    return ONE_BLK_SIZE


def GetUBSizeInBytes() -> int:
    """``AscendC::GetUBSizeInBytes()``: bytes of the Unified Buffer (248 KiB on dav-3510).

    Examples
    --------
    >>> GetUBSizeInBytes() // 1024
    248
    """
    return TOTAL_UB_SIZE


def GetRuntimeUBSize() -> int:
    """``AscendC::GetRuntimeUBSize()``: bytes of UB the kernel may use (248 KiB).

    The chip reports 216 KiB in a kernel that mixes SIMD and SIMT (the SIMT data cache takes
    the rest); ascreg's SIMT engine uses no UB for that, so it reports the whole UB.

    Examples
    --------
    >>> GetRuntimeUBSize() == GetUBSizeInBytes()
    True
    """
    return TOTAL_UB_SIZE


# -- SyncAll -----------------------------------------------------------------------------------


@attrs.frozen
class SyncAllConfig:
    """``AscendC::SyncAllConfig``: the pipes a hardware ``SyncAll`` triggers and waits on.

    Each is ``PIPE_MTE2``, ``PIPE_MTE3`` or ``PIPE_ALL`` (the default): the block's work on
    ``triggerPipe`` completes before the other blocks go on.

    Examples
    --------
    >>> from ascreg.basic import PIPE_ALL, PIPE_MTE3
    >>> SyncAllConfig(PIPE_MTE3, PIPE_ALL)
    SyncAllConfig(triggerPipe=<Pipe.PIPE_MTE3: 6>, waitPipe=<Pipe.PIPE_ALL: 10>)
    """

    triggerPipe: Pipe = PIPE_ALL
    waitPipe: Pipe = PIPE_ALL


DEFAULT_SYNC_ALL_CONFIG = SyncAllConfig(PIPE_ALL, PIPE_ALL)
"""``AscendC::DEFAULT_SYNC_ALL_CONFIG``: trigger and wait on every pipe.

Examples
--------
>>> DEFAULT_SYNC_ALL_CONFIG.triggerPipe.name
'PIPE_ALL'
"""

_SYNC_PIPES = (PIPE_MTE2, PIPE_MTE3, PIPE_ALL)


@function_template(
    Signature(
        isAIVOnly=(BOOLEAN, True),
        config=(instance_of(SyncAllConfig), DEFAULT_SYNC_ALL_CONFIG),
    ),
    name="SyncAll",
)
def SyncAll(
    gmWorkspace: GlobalTensor[Any] | None = None,
    ubWorkspace: LocalTensor[Any] | None = None,
    usedCores: int = 0,
    *,
    isAIVOnly: bool = True,
    config: SyncAllConfig = DEFAULT_SYNC_ALL_CONFIG,
) -> None:
    """``AscendC::SyncAll()``: every block of the launch waits until all have reached it.

    The hardware form ``SyncAll<isAIVOnly = true, config>()`` first completes the block's work
    on ``config.triggerPipe`` (every pipe by default), so GM written before it is visible to
    every block after it. The software form ``SyncAll(gmWorkspace, ubWorkspace, usedCores)``
    synchronises blocks ``0 .. usedCores - 1`` (all when 0) through the ``int32_t`` flags in
    *gmWorkspace* (32 bytes per block, zero before the first call), leaving the block's counter
    in its flag and the flags of all participants in *ubWorkspace*, as the chip does.

    Every participating block must reach each ``SyncAll`` (one in a branch some blocks skip
    hangs the chip: a :class:`~ascreg.errors.SyncError` here), and the launch may have at most
    :data:`AIV_CORE_NUM` blocks. ``SyncAll[False]()`` (cube and vector cores) hangs a
    ``__vector__`` kernel: an error. In a ``__mix__`` kernel the hard form runs the dav-3510
    header's cross-core flag sequence (:mod:`ascreg.machine.mixsync`): ``SyncAll()`` joins the
    AIVs only (an AIC passes through), ``SyncAll[False]()`` every AIC and AIV of a
    ``__mix__(1, 1)`` / ``__mix__(1, 2)`` kernel; the software form returns at once on an AIC
    and joins the AIVs.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, GmPtr, int32_t
    >>> from ascreg.basic import GetBlockIdx, GetBlockNum
    >>> from ascreg.machine.kernel import __global__, __vector__
    >>> @__global__
    ... @__vector__
    ... def total(x: GmPtr[int32_t], out: GmPtr[int32_t]) -> None:
    ...     (x + GetBlockIdx()).write([GetBlockIdx() + 1])  # phase 1: each block its own slot
    ...     SyncAll()
    ...     if GetBlockIdx() == 0:                          # phase 2: read every block's slot
    ...         out.write([x.read(GetBlockNum()).sum()])
    >>> x, out = GlobalMemory().alloc(int32_t, 4), GlobalMemory().alloc(int32_t, 1)
    >>> total[4, 0](x, out); out.read(1).item()
    10

    A cube core's result read by its vector cores after ``SyncAll<false>``:

    >>> from ascreg.basic import ASCEND_IS_AIC, ASCEND_IS_AIV, GetSubBlockIdx
    >>> from ascreg.machine.kernel import __mix__
    >>> @__global__
    ... @__mix__(1, 2)
    ... def mixed(out: GmPtr[int32_t]) -> None:
    ...     if ASCEND_IS_AIC:
    ...         out.write([7])
    ...     SyncAll[False]()
    ...     if ASCEND_IS_AIV:
    ...         (out + 1 + GetSubBlockIdx()).write([out.read(1)[0] + GetSubBlockIdx()])
    >>> out = GlobalMemory().alloc(int32_t, 3); mixed[1, 0](out); out.read(3).tolist()
    [7, 7, 8]
    """
    _ascreg_call = "SyncAll"
    ctx = current_block()
    core = core_of(ctx)
    if core is None and running_kind(ctx) == "AIC":  # a __cube__ kernel: its blocks are AICs
        if isAIVOnly:
            return  # the header: SyncAll<true> runs on the AIVs only
        raise SyncError(
            "SyncAll<false> makes each AIC wait for its AIVs, which a __cube__ kernel does not "
            "start: it hangs (declare the kernel __mix__(1, 1) / __mix__(1, 2))"
        )
    if core is None and not isAIVOnly:
        raise SyncError(
            "SyncAll<false> synchronises the cube cores as well, which a __vector__ kernel "
            "does not have: it hangs (use SyncAll() or SyncAll<true>(), or declare the kernel "
            "__mix__(1, 1) / __mix__(1, 2))"
        )
    if gmWorkspace is None and ubWorkspace is None:
        _hard_sync(ctx, config, isAIVOnly)
        return
    if gmWorkspace is None or ubWorkspace is None:
        raise AscregTypeError("the software SyncAll takes both gmWorkspace and ubWorkspace")
    if core is not None and core.kind == "AIC":
        return  # the header: the software form returns at once on a cube core
    _soft_sync(ctx, gmWorkspace, ubWorkspace, usedCores, isAIVOnly)


def _runner(ctx: BlockContext) -> BlockRunner | None:
    runner = ctx.shared.get(RUNNER_STATE)
    if runner is None and ctx.block_num > 1:
        raise AscregError(
            f"block {ctx.block_idx} of {ctx.block_num} runs outside a launch: SyncAll needs "
            "the launch's other blocks (launch the kernel as kernel[blocks, 0, stream](args))"
        )
    if ctx.block_num > AIV_CORE_NUM:
        raise SyncError(
            f"SyncAll in a launch of {ctx.block_num} blocks: the blocks must all run at once, "
            f"and dav-3510 has {AIV_CORE_NUM} vector cores (more blocks hang the chip)"
        )
    return runner if isinstance(runner, BlockRunner) else None


def _arrive(ctx: BlockContext, barrier: Barrier) -> None:
    runner = _runner(ctx)
    if runner is not None:
        runner.sync_all(ctx, barrier)


def _hard_sync(ctx: BlockContext, config: SyncAllConfig, aiv_only: bool) -> None:
    core = core_of(ctx)
    if not aiv_only:  # every core of a Mix kernel: PipeBarrier<PIPE_ALL>, then the flags
        ctx.tracker.barrier()
        hard_sync_all(ctx, False, PIPE_ALL, PIPE_ALL, "SyncAll<false>")
        return
    for role, pipe in (("triggerPipe", config.triggerPipe), ("waitPipe", config.waitPipe)):
        if pipe not in _SYNC_PIPES:
            raise AscregTypeError(
                f"SyncAllConfig.{role} {pipe!r} is not PIPE_MTE2, PIPE_MTE3 or PIPE_ALL"
            )
    if core is not None and core.kind == "AIC":
        return  # SyncAll<true> joins the vector cores only: an AIC passes through
    if config.triggerPipe is PIPE_ALL:
        ctx.tracker.barrier()
    else:
        ctx.tracker.pipe_barrier(config.triggerPipe)
    if core is not None:
        hard_sync_all(ctx, True, config.triggerPipe, config.waitPipe, "SyncAll()")
        return
    _arrive(ctx, Barrier("SyncAll()", range(ctx.block_num)))


def _soft_place(ctx: BlockContext, aiv_only: bool) -> tuple[int, int, Any]:
    """Return (cores synchronised by default, this core's flag slot, their runner places).

    In a mixed launch the header counts ``GetBlockNum()`` vector cores by the raw block index
    for isAIVOnly true, and ``GetTaskRation() * GetBlockNum()`` by ``GetBlockIdx()`` for false.
    """
    core = core_of(ctx)
    if core is None:
        return ctx.block_num, ctx.block_idx, None
    runner = ctx.shared.get(RUNNER_STATE)
    cores = runner.cores if isinstance(runner, BlockRunner) and runner.cores else [core]
    if aiv_only and core.subs > 1:
        raise UnsupportedError(
            "the software SyncAll<true> in a __mix__(1, 2) kernel indexes its flags by the raw "
            "block index of an AIV, which the SyncAll page (pure Vector kernels only) leaves "
            "undefined for two AIVs per AI Core: pass isAIVOnly false, or use __mix__(0, 1)"
        )
    count = ctx.block_num * (1 if aiv_only else core.subs)
    return count, core.logical, [c for c in cores if c.kind == "AIV"]


def _soft_sync(
    ctx: BlockContext, gm: GlobalTensor[Any], ub: LocalTensor[Any], usedCores: int, aiv_only: bool
) -> None:
    if isinstance(usedCores, bool) or not isinstance(usedCores, int):
        raise AscregTypeError(f"usedCores must be an integer, got {usedCores!r:.40}")
    count, place, aivs = _soft_place(ctx, aiv_only)
    if not 0 <= usedCores <= count:
        bound = "GetBlockNum()" if aiv_only else "GetBlockNum() * GetTaskRatio()"
        raise AscregError(f"usedCores {usedCores} is outside [0, {bound} = {count}]")
    total = usedCores or count
    slots = ONE_BLK_SIZE // int32_t.size
    for role, tensor, kind in (("gmWorkspace", gm, GlobalTensor), ("ubWorkspace", ub, LocalTensor)):
        if not isinstance(tensor, kind) or tensor._dtype() is not int32_t:
            raise AscregTypeError(f"{role} must be a {kind.__name__}<int32_t>, got {tensor!r:.60}")
        size = tensor.GetSize()
        if size and size < count * slots:
            raise AscregError(
                f"{role} holds {size} int32_t but SyncAll needs {count} cores * 32 bytes = "
                f"{count * slots} int32_t"
            )
    ctx.tracker.barrier()
    flag = gm.GetPhyAddr(place * slots)
    with _polled(ctx):
        flag.write([int(flag.read(1)[0]) + 1])
    form = f"SyncAll(gmWorkspace, ubWorkspace, {usedCores})"
    if aivs is None:
        participants: Any = range(total)
    else:
        participants = tuple(c.member for c in aivs if c.logical < total)
    _arrive(ctx, Barrier(form, participants))
    with _polled(ctx):
        ub.GetPhyAddr().write(gm.GetPhyAddr().read(total * slots))
    ctx.tracker.barrier()


@contextlib.contextmanager
def _polled(ctx: BlockContext) -> Iterator[None]:
    """Exempt the software SyncAll's own flag traffic from a mixed launch's race check.

    The header polls the flags while later cores may already count up for the next SyncAll
    (it compares with ``>=``): those unordered accesses are the algorithm, not a kernel bug.
    """
    runner = ctx.shared.get(RUNNER_STATE)
    races = runner.races if isinstance(runner, BlockRunner) else None
    if races is None or races.flags is None:
        yield
        return
    races.paused = True
    try:
        yield
    finally:
        races.paused = False


# -- the workspace -------------------------------------------------------------------------------

_SYS_WORKSPACE = "basic.sys_workspace"


def _gm_address(value: Any, role: str) -> GmPtr[Any]:
    if not isinstance(value, GmPtr):
        raise AscregTypeError(f"{role} must be a GM_ADDR (__gm__ uint8_t*), got {value!r:.60}")
    return value.cast(uint8_t) if value.dtype is not uint8_t else value


def SetSysWorkspace(workspace: GmPtr[Any]) -> None:
    """``AscendC::SetSysWorkspace(workspace)``: the kernel's workspace GM holds the system part.

    The first call of a block sets it (later ones keep it, as on the chip).

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> ws = GlobalMemory().alloc(uint8_t, 64)
    >>> with block(BlockContext()):
    ...     SetSysWorkspace(ws); GetSysWorkSpacePtr() == ws
    True
    """
    _ascreg_call = "SetSysWorkspace"
    state = current_block().state
    state.setdefault(_SYS_WORKSPACE, _gm_address(workspace, "workspace"))


def GetSysWorkSpacePtr() -> GmPtr[Any] | None:
    """``AscendC::GetSysWorkSpacePtr()``: the system workspace, or None (``nullptr``) if unset.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     GetSysWorkSpacePtr() is None
    True
    """
    _ascreg_call = "GetSysWorkSpacePtr"
    found: GmPtr[Any] | None = current_block().state.get(_SYS_WORKSPACE)
    return found


def GetUserWorkspace(workspace: GmPtr[Any]) -> GmPtr[uint8_t]:
    """``AscendC::GetUserWorkspace(workspace)``: the user part, after the system's reserve.

    It is the system workspace plus :data:`RESERVED_WORKSPACE` (16 MiB) bytes. Without
    ``SetSysWorkspace`` the system workspace is *workspace* itself (on the chip the framework
    sets it to the kernel's workspace argument), so the host allocates the user's bytes plus
    16 MiB, as its tiling function reports.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint8_t
    >>> from ascreg.basic import RESERVED_WORKSPACE
    >>> from ascreg.machine.block import BlockContext, block
    >>> ws = GlobalMemory().alloc(uint8_t, RESERVED_WORKSPACE + 256)
    >>> with block(BlockContext()):
    ...     GetUserWorkspace(ws).address - ws.address
    16777216
    """
    _ascreg_call = "GetUserWorkspace"
    system = current_block().state.get(_SYS_WORKSPACE)
    base = system if system is not None else _gm_address(workspace, "workspace")
    if not base.fits(RESERVED_WORKSPACE + 1):
        raise AscregError(
            f"the workspace {base!r} is smaller than the {RESERVED_WORKSPACE}-byte system "
            "reserve plus user bytes: allocate the user workspace size plus RESERVED_WORKSPACE "
            "(GetLibApiWorkSpaceSize on the host)"
        )
    return base + RESERVED_WORKSPACE


# -- the store-atomic mode ---------------------------------------------------------------------

_ATOMIC_TYPES = tuple(STORE_ATOMIC_TYPES.values())


def _set_atomic(op: str, dtype: type[Scalar] | None) -> None:
    chosen = need("T", dtype, f"SetAtomic{op.title()}[T]()")
    if chosen not in _ATOMIC_TYPES:
        legal = ", ".join(t.cpp_name for t in _ATOMIC_TYPES)
        raise UnsupportedError(
            f"the store atomic takes {legal} on dav-3510, not {chosen.cpp_name}",
            call=f"SetAtomic{op.title()}<{chosen.cpp_name}>",
        )
    system_registers().atomic = (op, chosen)


@function_template(Signature(T=TYPENAME), name="SetAtomicAdd")
def SetAtomicAdd(*, T: type[Scalar] | None = None) -> None:
    """``AscendC::SetAtomicAdd<T>()``: later UB -> GM copies add into GM as ``T``.

    The same mode as ``asc_set_atomic_add_*`` (``ascreg.machine.sysregs.SystemRegisters``):
    until ``SetAtomicNone()`` / ``DisableDmaAtomic()`` or ``InitSocState()``. ``T`` is one of
    ``int8_t``, ``int16_t``, ``half``, ``bfloat16_t``, ``int32_t``, ``float``.

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine.sysregs import system_registers
    >>> with block(BlockContext()):
    ...     SetAtomicAdd[float32_t](); mode = system_registers().atomic
    ...     SetAtomicNone(); mode, system_registers().atomic
    (('add', <class 'ascreg._dtypes.float32_t'>), None)
    """
    _ascreg_call = "SetAtomicAdd"
    _set_atomic("add", T)


@function_template(Signature(T=TYPENAME), name="SetAtomicMax")
def SetAtomicMax(*, T: type[Scalar] | None = None) -> None:
    """``AscendC::SetAtomicMax<T>()``: later UB -> GM copies keep the larger value in GM.

    Examples
    --------
    >>> from ascreg import int8_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine.sysregs import system_registers
    >>> with block(BlockContext()):
    ...     SetAtomicMax[int8_t](); system_registers().atomic[0]
    'max'
    """
    _ascreg_call = "SetAtomicMax"
    _set_atomic("max", T)


@function_template(Signature(T=TYPENAME), name="SetAtomicMin")
def SetAtomicMin(*, T: type[Scalar] | None = None) -> None:
    """``AscendC::SetAtomicMin<T>()``: later UB -> GM copies keep the smaller value in GM.

    Examples
    --------
    >>> from ascreg import uint8_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetAtomicMin[uint8_t]()
    Traceback (most recent call last):
    ...
    ascreg.errors.UnsupportedError: SetAtomicMin<uint8_t>: the store atomic takes int8_t, int16_t, int32_t, bfloat16_t, half, float on dav-3510, not uint8_t
    """
    _ascreg_call = "SetAtomicMin"
    _set_atomic("min", T)


def SetAtomicNone() -> None:
    """``AscendC::SetAtomicNone()``: later UB -> GM copies overwrite GM again.

    The older name of ``DisableDmaAtomic()``.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     SetAtomicNone()
    """
    _ascreg_call = "SetAtomicNone"
    system_registers().atomic = None


def DisableDmaAtomic() -> None:
    """``AscendC::DisableDmaAtomic()``: later UB -> GM copies overwrite GM (no atomic).

    Examples
    --------
    >>> from ascreg import half
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine.sysregs import system_registers
    >>> with block(BlockContext()):
    ...     SetAtomicAdd[half](); DisableDmaAtomic(); system_registers().atomic is None
    True
    """
    _ascreg_call = "DisableDmaAtomic"
    system_registers().atomic = None


class AtomicDtype(enum.IntEnum):
    """``AscendC::AtomicDtype``: the store atomic's element type (``SetStoreAtomicConfig``).

    The values are the page's (and CTRL[8:6]'s) codes.

    Examples
    --------
    >>> AtomicDtype.ATOMIC_F32.value, AtomicDtype(6).name
    (1, 'ATOMIC_BF16')
    """

    ATOMIC_NONE = 0
    ATOMIC_F32 = 1
    ATOMIC_F16 = 2
    ATOMIC_S16 = 3
    ATOMIC_S32 = 4
    ATOMIC_S8 = 5
    ATOMIC_BF16 = 6


class AtomicOp(enum.IntEnum):
    """``AscendC::AtomicOp``: the store atomic's operation (the page documents the sum only).

    Examples
    --------
    >>> AtomicOp.ATOMIC_SUM.value
    0
    """

    ATOMIC_SUM = 0


_CODE_OF_TYPE = {dtype: code for code, dtype in ATOMIC_TYPE_CODES.items()}
_CODE_OF_OP = {op: code for code, op in ATOMIC_OP_CODES.items()}


@function_template(Signature(T=TYPENAME), name="SetAtomicType")
def SetAtomicType(*, T: type[Scalar] | None = None) -> None:
    """``AscendC::SetAtomicType<T>()``: the store atomic's element type, its operation kept.

    The 950 writes the type field alone (``set_atomic_<type>()``, CTRL[8:6]): after
    ``SetAtomicMax<half>()``, ``SetAtomicType<float>()`` keeps the max. With no atomic on,
    the operation is the sum (CTRL[10:9] = 0, its reset value: ascreg does not keep the
    operation field while the atomic is off), so ``SetAtomicType<T>()`` alone turns an atomic
    add on. ``T``: int8_t, int16_t, half, bfloat16_t, int32_t, float.

    Examples
    --------
    >>> from ascreg import float32_t, half
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine.sysregs import system_registers
    >>> with block(BlockContext()):
    ...     SetAtomicMax[half](); SetAtomicType[float32_t](); system_registers().atomic
    ('max', <class 'ascreg._dtypes.float32_t'>)
    """
    _ascreg_call = "SetAtomicType"
    chosen = need("T", T, "SetAtomicType[T]()")
    if chosen not in _CODE_OF_TYPE:
        legal = ", ".join(t.cpp_name for t in _ATOMIC_TYPES)
        raise UnsupportedError(
            f"T must be one of {legal} (the page's 950 types), not {chosen.cpp_name}",
            call=f"SetAtomicType<{chosen.cpp_name}>",
        )
    registers = system_registers()
    operation = registers.atomic[0] if registers.atomic is not None else "add"
    registers.atomic = (operation, chosen)


@function_template(Signature(type=member_of(AtomicDtype), op=member_of(AtomicOp)),
                   name="SetStoreAtomicConfig")  # fmt: skip
def SetStoreAtomicConfig(**targs: Any) -> None:
    """``AscendC::SetStoreAtomicConfig<AtomicDtype type, AtomicOp op>()``: the store atomic.

    ``type`` ``ATOMIC_NONE`` turns it off (later UB -> GM copies overwrite); any other type
    makes later copies add into GM as that type (``op`` ``ATOMIC_SUM``, the only one).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> from ascreg.machine.sysregs import system_registers
    >>> with block(BlockContext()):
    ...     SetStoreAtomicConfig[AtomicDtype.ATOMIC_F16, AtomicOp.ATOMIC_SUM]()
    ...     system_registers().atomic
    ('add', <class 'ascreg._dtypes.half'>)
    """
    _ascreg_call = "SetStoreAtomicConfig"
    kind = need("type", targs.get("type"), "SetStoreAtomicConfig[type, op]()")
    operation = ATOMIC_OP_CODES[
        int(need("op", targs.get("op"), "SetStoreAtomicConfig[type, op]()"))
    ]
    registers = system_registers()
    registers.atomic = (
        None if kind is AtomicDtype.ATOMIC_NONE else (operation, ATOMIC_TYPE_CODES[int(kind)])
    )


def GetStoreAtomicConfig(atomicType: Ref[Any], atomicOp: Ref[Any]) -> None:
    """``AscendC::GetStoreAtomicConfig(uint16_t& atomicType, uint16_t& atomicOp)``: read the mode.

    *atomicType* receives the element type's code (0: no atomic, 1 float, 2 half, 3 int16_t,
    4 int32_t, 5 int8_t, 6 bfloat16_t: ``AtomicDtype``), *atomicOp* the operation's
    (0: sum; 1 and 2 are the max and min of ``SetAtomicMax`` / ``SetAtomicMin``, the
    register's codes, which the page does not list; 0 when no atomic is on).

    Examples
    --------
    >>> from ascreg import Ref, int32_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> kind, op = Ref(0), Ref(0)
    >>> with block(BlockContext()):
    ...     SetAtomicMin[int32_t](); GetStoreAtomicConfig(kind, op)
    >>> kind.value, op.value
    (4, 2)
    """
    _ascreg_call = "GetStoreAtomicConfig"
    for value, role in ((atomicType, "atomicType"), (atomicOp, "atomicOp")):
        if not isinstance(value, Ref):
            raise AscregTypeError(
                f"{role} is a uint16_t& output: pass a Ref (Ref(0)), got {value!r:.40}"
            )
    mode = system_registers().atomic
    atomicType.value = 0 if mode is None else _CODE_OF_TYPE[mode[1]]
    atomicOp.value = 0 if mode is None else _CODE_OF_OP[mode[0]]
