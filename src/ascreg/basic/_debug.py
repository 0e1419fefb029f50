"""System variables, scalar GM access past the data cache and the debug hooks of the basic API.

``GetSystemCycle``, ``GetProgramCounter`` and ``GetArchVersion`` read the registers the C API's
``asc_get_system_cycle``, ``asc_get_program_counter`` and ``asc_get_arch_ver`` read
(``ascreg.machine.sysregs.SystemRegisters``: an emulated, deterministic cycle count, a
program counter stepping by 4, version ``0x3510``). ascreg has no data cache, so
``ReadGmByPassDCache`` / ``WriteGmByPassDCache`` are plain scalar GM accesses and
``DataCachePreload`` only checks its arguments; ``Nop<count>`` is the 950's ``PIPE_ALL``
barrier around *count* ``nop`` instructions; ``Trap`` stops the kernel (the page: an assert
in CPU mode); ``MarkStamp`` marks a pipeline for the profiler (no effect on values);
``PrintTimeStamp`` prints only when the build switch ``ASCENDC_TIME_STAMP_ON`` is set (here
``TIME_STAMP``), as on the chip.

Examples
--------
>>> from ascreg import GlobalMemory, Ref, int32_t
>>> from ascreg.machine.block import BlockContext, block
>>> x = GlobalMemory().alloc(int32_t, 2)
>>> with block(BlockContext()):
...     WriteGmByPassDCache(x + 1, 7); int(ReadGmByPassDCache(x + 1))
7
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ascreg._dtypes import INTEGERS
from ascreg._frontend import operands
from ascreg.basic._events import PipeBarrier
from ascreg.basic._kernel_source import KernelAssertion
from ascreg.basic._template import INTEGER, Signature, function_template, member_of, need
from ascreg.basic._tensor import GlobalTensor, LocalTensor, ShapeInfo
from ascreg.errors import AscregTypeError, UnsupportedError
from ascreg.machine.block import current_block
from ascreg.machine.memory import GmPtr
from ascreg.machine.ref import Ref
from ascreg.machine.sync import PIPE_ALL, Pipe
from ascreg.machine.sysregs import ARCH_VERSION, system_registers

__all__ = [
    "TIME_STAMP",
    "DataCachePreload",
    "DumpTensor",
    "GetArchVersion",
    "GetProgramCounter",
    "GetSystemCycle",
    "MarkStamp",
    "Nop",
    "PrintTimeStamp",
    "ReadGmByPassDCache",
    "Trap",
    "WriteGmByPassDCache",
]

TIME_STAMP = {"ASCENDC_TIME_STAMP_ON": False}
"""The build switch of ``PrintTimeStamp`` (``-DASCENDC_TIME_STAMP_ON``): off by default, as on
the chip; set ``TIME_STAMP["ASCENDC_TIME_STAMP_ON"] = True`` to print."""
MARK_PIPES = (Pipe.PIPE_S, Pipe.PIPE_V, Pipe.PIPE_M, Pipe.PIPE_MTE1, Pipe.PIPE_MTE2,
              Pipe.PIPE_MTE3, Pipe.PIPE_FIX)  # fmt: skip
"""The pipes a ``MarkStamp`` may mark."""


def GetSystemCycle() -> int:
    """``AscendC::GetSystemCycle()``: the system cycle count (``int64_t``; PIPE_S).

    ascreg's count is emulated and deterministic, no timing model: it grows by one per read
    plus the block's memory accesses in between, like ``asc_get_system_cycle``. On the chip
    the 950's counter runs at 1 GHz (``time = cycles / 1000`` us).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     before = GetSystemCycle(); after = GetSystemCycle()
    ...     after - before
    1
    """
    _ascreg_call = "GetSystemCycle"
    return system_registers().next_cycle()


def GetProgramCounter() -> int:
    """``AscendC::GetProgramCounter()``: the program counter (``int64_t``).

    ascreg has no instruction addresses: the first read in a block gives
    :data:`~ascreg.machine.sysregs.PC_BASE`, each later one 4 more (``asc_get_program_counter``).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     hex(GetProgramCounter()), hex(GetProgramCounter())
    ('0x1000', '0x1004')
    """
    _ascreg_call = "GetProgramCounter"
    return system_registers().next_pc()


def GetArchVersion(coreVersion: Ref[Any]) -> None:
    """``AscendC::GetArchVersion(uint32_t& coreVersion)``: the architecture version, hex-coded.

    Writes :data:`~ascreg.machine.sysregs.ARCH_VERSION` (``0x3510``) into the ``Ref``; print
    it in hex, as the page advises.

    Examples
    --------
    >>> from ascreg import Ref
    >>> from ascreg.machine.block import BlockContext, block
    >>> version = Ref(0)
    >>> with block(BlockContext()):
    ...     GetArchVersion(version)
    >>> hex(version.value)
    '0x3510'
    """
    _ascreg_call = "GetArchVersion"
    current_block()
    operands.instance(coreVersion, Ref, "coreVersion").value = ARCH_VERSION


@function_template(Signature(count=(INTEGER, 1)), name="Nop")
def Nop(*, count: int = 1) -> None:
    """``AscendC::Nop<int count = 1>()``: delay *count* cycles.

    On the 950 a positive *count* is ``PipeBarrier<PIPE_ALL>()``, *count* ``nop`` instructions,
    ``PipeBarrier<PIPE_ALL>()``: the barriers order every pipe's work, as here; a count of 0 or
    less does nothing.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     Nop(); Nop[8](); Nop[0]()
    """
    _ascreg_call = "Nop"
    current_block()
    if count > 0:
        PipeBarrier[PIPE_ALL]()


def Trap() -> None:
    """``AscendC::Trap()``: stop the AI Core (an assert in CPU mode, as the page says).

    Raises ``KernelAssertion`` (the error of a failed ``ASSERT``) naming the block.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     Trap()
    Traceback (most recent call last):
    ...
    ascreg.basic._kernel_source.KernelAssertion: Trap: ? block 0: Trap() stopped the AI Core
    """
    _ascreg_call = "Trap"
    ctx = current_block()
    raise KernelAssertion(
        f"{ctx.kernel} block {ctx.block_idx}: Trap() stopped the AI Core", call="Trap"
    )


def _gm_pointer(call: str, addr: Any) -> GmPtr[Any]:
    """Check a ``__gm__ T*`` of an integer ``T`` (the pages' types)."""
    gm = operands.instance(addr, GmPtr, "addr")
    if gm.dtype not in INTEGERS:
        legal = ", ".join(t.cpp_name for t in INTEGERS)
        raise AscregTypeError(f"addr is {gm!r}; T must be one of {legal}", call=call)
    return gm


def ReadGmByPassDCache(addr: GmPtr[Any]) -> Any:
    """``AscendC::ReadGmByPassDCache<T>(__gm__ T* addr)``: read one GM value past the data cache.

    ``T`` is an 8- to 64-bit integer type; ascreg has no data cache, so this is a plain scalar
    read (``PIPE_S``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import GlobalMemory, uint64_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> x = GlobalMemory().alloc(uint64_t, 1); x.write(np.uint64([2**63]))
    >>> with block(BlockContext()):
    ...     int(ReadGmByPassDCache(x))
    9223372036854775808
    """
    _ascreg_call = "ReadGmByPassDCache"
    current_block()
    return _gm_pointer("ReadGmByPassDCache", addr).read(1)[0]


def WriteGmByPassDCache(addr: GmPtr[Any], value: Any) -> None:
    """``AscendC::WriteGmByPassDCache<T>(__gm__ T* addr, T value)``: write one GM value past the data cache.

    *value* converts to ``T`` as the C parameter does (an out-of-range value is an error);
    ascreg has no data cache, so this is a plain scalar write of ``sizeof(T)`` bytes.

    Examples
    --------
    >>> from ascreg import GlobalMemory, int8_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> x = GlobalMemory().alloc(int8_t, 4)
    >>> with block(BlockContext()):
    ...     WriteGmByPassDCache(x + 2, -5)
    >>> x.read(4).tolist()
    [0, 0, -5, 0]
    """
    _ascreg_call = "WriteGmByPassDCache"
    current_block()
    gm = _gm_pointer("WriteGmByPassDCache", addr)
    gm.write([operands.scalar(value, gm.dtype, "value")], call="WriteGmByPassDCache")


def DataCachePreload(src: GlobalTensor[Any], cacheOffset: Any) -> None:
    """``AscendC::DataCachePreload<T>(const GlobalTensor<uint64_t>& src, const T cacheOffset)``.

    Preloads one cache line at ``cacheOffset`` bytes past ``src`` (``T``: int16_t or int64_t).
    No effect on values in ascreg, which has no data cache; the arguments are checked as
    ``asc_datacache_preload`` checks them: ``src`` a ``GlobalTensor<uint64_t>`` with a buffer,
    the offset inside its allocation.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint64_t
    >>> from ascreg.basic import GlobalTensor
    >>> from ascreg.machine.block import BlockContext, block
    >>> g = GlobalTensor[uint64_t](); g.SetGlobalBuffer(GlobalMemory().alloc(uint64_t, 16), 16)
    >>> with block(BlockContext()):
    ...     DataCachePreload(g, 64)
    ...     DataCachePreload(g, 128)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: DataCachePreload: cacheOffset 128 is outside [0, 127] (the bytes of src's allocation)
    """
    _ascreg_call = "DataCachePreload"
    current_block()
    if not isinstance(src, GlobalTensor) or src._dtype().cpp_name != "uint64_t":
        raise AscregTypeError(f"src must be a GlobalTensor<uint64_t>, got {src!r:.60}")
    gm = src.GetPhyAddr()
    found = gm.memory.allocation_at(gm.address)
    last = (found.end if found is not None else gm.address + 1) - gm.address - 1
    operands.in_range(cacheOffset, "cacheOffset", 0, last, "the bytes of src's allocation")


@function_template(
    Signature(pipe=member_of(Pipe), index=INTEGER),
    Signature(pipe=member_of(Pipe)),
    name="MarkStamp",
)
def MarkStamp(*args: Any, pipe: Pipe | None = None, index: int | None = None) -> None:
    """``AscendC::MarkStamp<pipe_t pipe, uint16_t index>()`` / ``MarkStamp<pipe>(uint16_t index)``.

    Marks a point of *pipe*'s instruction stream for the pipeline profiler. It changes no
    value; ascreg checks the pipe and that *index* is a ``uint16_t``.

    Examples
    --------
    >>> from ascreg.basic import PIPE_V
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     MarkStamp[PIPE_V, 3](); MarkStamp[PIPE_V](4)
    """
    _ascreg_call = "MarkStamp"
    current_block()
    chosen = need("pipe", pipe, "MarkStamp[pipe, index]()")
    if chosen not in MARK_PIPES:
        raise AscregTypeError(
            f"pipe {chosen.name} cannot be marked (one of {', '.join(p.name for p in MARK_PIPES)})"
        )
    given = (index,) if index is not None else args
    if len(given) != 1 or (index is not None and args):
        raise AscregTypeError("takes MarkStamp[pipe, index]() or MarkStamp[pipe](index)")
    operands.in_range(given[0], "index", 0, (1 << 16) - 1, "uint16_t")


def PrintTimeStamp(descId: Any) -> None:
    """``AscendC::PrintTimeStamp(uint32_t descId)``: print a time stamp (when the build enables it).

    With ``ASCENDC_TIME_STAMP_ON`` (``TIME_STAMP``; off by default, as the page says) it
    prints ``descId is <descId>, rsv is 0, timeStamp is <GetSystemCycle()>, pcPtr is
    <GetProgramCounter()>, entry is 0.`` (ascreg's kernels start at cycle 0); without it, it
    only checks that *descId* is a ``uint32_t``. The page reserves ``[0, 0xffff]`` for Ascend C.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> TIME_STAMP["ASCENDC_TIME_STAMP_ON"] = True
    >>> with block(BlockContext()):
    ...     PrintTimeStamp(0x10000)
    descId is 65536, rsv is 0, timeStamp is 1, pcPtr is 4096, entry is 0.
    >>> TIME_STAMP["ASCENDC_TIME_STAMP_ON"] = False
    """
    _ascreg_call = "PrintTimeStamp"
    current_block()
    desc = operands.in_range(descId, "descId", 0, (1 << 32) - 1, "uint32_t")
    if not TIME_STAMP["ASCENDC_TIME_STAMP_ON"]:
        return
    registers = system_registers()
    stamp, pc = registers.next_cycle(), registers.next_pc()
    sys.stdout.write(
        f"descId is {desc}, rsv is 0, timeStamp is {stamp}, pcPtr is {pc}, entry is 0.\n"
    )


DUMP_LIMIT = 30 * 1024
"""The default print buffer per core (``simd_printf_fifo_size_per_core``): a larger dump is not
printed (the page)."""
DUMP_POSITIONS = {"__ubuf__": "UB", "__cbuf__": "L1", "__cc__": "L0C", "__gm__": "GM"}
"""The buffers ``DumpTensor`` prints and the names its header gives them."""


def _dump_type(dtype: Any) -> str:
    """Return the header's ``data_type``: ``float16``, ``bfloat16``, ``float32``, ``int32``, ``hifloat8`` ..."""
    special = {"half": "float16", "float": "float32", "bfloat16_t": "bfloat16"}
    name: str = special.get(dtype.cpp_name, dtype.cpp_name.removesuffix("_t"))
    return name


def _dump_value(value: Any) -> str:
    """One element as the dump prints it: an integer in decimal, a float with ``%f``."""
    if isinstance(value, np.integer | np.bool_):
        return str(int(value))
    return f"{float(value):f}"


def _shaped(values: list[str], shape: list[int]) -> str:
    """Nest *values* by *shape*, rows one a line, ``-`` where the dump has no data (the page)."""
    if len(shape) == 1:
        return "[" + ",".join(values[: shape[0]]) + "]"
    inner = int(np.prod(shape[1:]))
    parts = [_shaped(values[k * inner : (k + 1) * inner], shape[1:]) for k in range(shape[0])]
    return "[" + ",\n".join(parts) + "]"


def DumpTensor(tensor: Any, desc: Any, dumpSize: Any, shapeInfo: ShapeInfo | None = None) -> None:
    """``AscendC::DumpTensor<T>(tensor, uint32_t desc, uint32_t dumpSize[, const ShapeInfo& shapeInfo])``.

    Prints a header ``DumpTensor: desc=<desc>, addr=<hex address>, data_type=<float16 ...>,
    position=<UB | L1 | L0C | GM>, dump_size=<dumpSize>``, then the first *dumpSize* elements as
    ``[v, v, ...]`` (floats with ``%f``, integers in decimal), as the page's examples show. With
    ``shapeInfo`` the values are nested by the shape, rows one a line without spaces, after a
    line ``shape is [..], dumpSize is <n>, ...``: a shape larger than *dumpSize* prints ``-`` for
    the missing elements ("data is not enough"), a smaller one drops the rest ("dumpSize is
    greater than shapeSize"). A dump of more than 30 KiB (the default print buffer) is not
    printed, as on the chip. Decision: the address is the tensor's byte address in its buffer,
    in hex (the page's shape examples print ``addr=0x0``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half
    >>> from ascreg.basic import *
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     x = LocalMemAllocator[Hardware.UB]().Alloc[half, 16]()
    ...     x.GetPhyAddr().write(np.arange(16) / 4)
    ...     DumpTensor(x, 5, 4)
    ...     DumpTensor(x, 6, 4, ShapeInfo(2, [3, 2]))
    DumpTensor: desc=5, addr=0x0, data_type=float16, position=UB, dump_size=4
    [0.000000, 0.250000, 0.500000, 0.750000]
    DumpTensor: desc=6, addr=0x0, data_type=float16, position=UB, dump_size=4
    shape is [3, 2], dumpSize is 4, data is not enough.
    [[0.000000,0.250000],
    [0.500000,0.750000],
    [-,-]]
    """
    _ascreg_call = "DumpTensor"
    current_block()
    if not isinstance(tensor, LocalTensor | GlobalTensor):
        raise AscregTypeError(f"tensor must be a LocalTensor or a GlobalTensor, got {tensor!r:.60}")
    ident = operands.in_range(desc, "desc", 0, (1 << 32) - 1, "uint32_t")
    count = operands.in_range(dumpSize, "dumpSize", 0, (1 << 32) - 1, "uint32_t")
    ptr = tensor.GetPhyAddr()
    place = DUMP_POSITIONS.get(ptr.space)
    if place is None:
        raise UnsupportedError(
            f"DumpTensor prints UB, L1, L0C and GM tensors, not {ptr.space} ones"
        )
    dtype = ptr.dtype
    if count * dtype.size > DUMP_LIMIT:
        return
    values = [_dump_value(v) for v in ptr.read(count)] if count else []
    lines = [f"DumpTensor: desc={ident}, addr={ptr.address:#x}, data_type={_dump_type(dtype)}, "
             f"position={place}, dump_size={count}"]  # fmt: skip
    if shapeInfo is None:
        lines.append("[" + ", ".join(values) + "]")
    else:
        info = operands.instance(shapeInfo, ShapeInfo, "shapeInfo")
        shape = info.shape[: info.shapeDim]
        size = int(np.prod(shape)) if shape else 1
        note = "data is not enough" if size > count else "dumpSize is greater than shapeSize"
        lines.append(f"shape is {shape}, dumpSize is {count}, {note}.")
        padded = values[:size] + ["-"] * max(size - count, 0)
        lines.append(_shaped(padded, shape) if shape else "[" + ",".join(padded) + "]")
    sys.stdout.write("\n".join(lines) + "\n")
