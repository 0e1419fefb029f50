"""The scalar unit of a C API kernel: bit arithmetic, system variables and cache control.

These functions run on the scalar unit (``PIPE_S``): a kernel body calls them directly, as
``__aicore__`` functions. Integer arguments convert like the C parameters they stand for
(``uint64_t`` wraps modulo 2**64). The system registers live in the running block
(:mod:`ascreg.machine.sysregs`); values only hardware knows (the cycle counter, the program
counter, the architecture version) are deterministic stand-ins, documented on each function.
The cache-control functions change no values in ascreg (it has no data cache): they validate
their arguments.

Examples
--------
>>> from ascreg.c_api import *
>>> asc_clz(0x0FFF_FFFF_FFFF_FFFF), asc_popc(33), hex(asc_set_nthbit(0, 2))
(4, 2, '0x4')
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import operands
from ascreg._frontend.template import define
from ascreg._spec import C_SCALAR_ATOMIC_TYPES
from ascreg._spec.row import C_API_QUALIFIER
from ascreg.core import atomics
from ascreg.core.bits import SCALAR_BITS, as_u64
from ascreg.errors import AscregTypeError
from ascreg.machine.block import current_block
from ascreg.machine.crosscore import core_of
from ascreg.machine.memory import UB_BYTES, GmPtr, UbPtr
from ascreg.machine.races import atomic_access
from ascreg.machine.ref import Ref
from ascreg.machine.sync import Pipe
from ascreg.machine.sysregs import ARCH_VERSION, CONSTANT_REGISTERS, system_registers

__all__ = [
    "asc_atomic_add",
    "asc_atomic_and",
    "asc_atomic_cas",
    "asc_atomic_dec",
    "asc_atomic_exch",
    "asc_atomic_inc",
    "asc_atomic_max",
    "asc_atomic_min",
    "asc_atomic_or",
    "asc_atomic_sub",
    "asc_atomic_xor",
    "asc_clear_nthbit",
    "asc_clz",
    "asc_datacache_preload",
    "asc_dcci_entire_all",
    "asc_dcci_entire_atomic",
    "asc_dcci_entire_out",
    "asc_dcci_single",
    "asc_dci",
    "asc_ffs",
    "asc_ffz",
    "asc_get_arch_ver",
    "asc_get_core_id",
    "asc_get_ctrl",
    "asc_get_ffts_base_addr",
    "asc_get_icache_preload_status",
    "asc_get_phy_buf_addr",
    "asc_get_phy_stack_base",
    "asc_get_program_counter",
    "asc_get_smmu_tag_version",
    "asc_get_status",
    "asc_get_sub_block_id",
    "asc_get_sub_block_num",
    "asc_get_sys_virtual_base",
    "asc_get_system_cycle",
    "asc_icache_preload",
    "asc_popc",
    "asc_set_ctrl",
    "asc_set_ffts_base_addr",
    "asc_set_nthbit",
    "asc_sflbits",
    "asc_store_dev",
    "asc_ub_dcci_single",
    "asc_zero_bits_cnt",
]

# ---- scalar compute ------------------------------------------------------------------------------

_BIT_DOCS = {
    "clz": ("the number of leading zero bits of a ``uint64_t`` (64 for 0)", "0x0FFF_FFFF_FFFF_FFFF", "4"),
    "ffs": ("the index (from 0) of the lowest set bit, or -1 for 0", "10", "1"),
    "ffz": ("the index (from 0) of the lowest clear bit, or -1 when all 64 are set", "33", "1"),
    "popc": ("the number of set bits of a ``uint64_t``", "33", "2"),
    "zero_bits_cnt": ("the number of clear bits of a ``uint64_t``", "33", "62"),
    "sflbits": ("how many bits after the sign bit equal it (-1 for 0 and -1)", "0x000F00FF0FF0FFFF", "11"),
    "set_nthbit": ("*bits* with bit ``idx`` set (``idx`` outside [0, 63] wraps: ``(idx % 64 + 64) % 64``)", "0, 2", "4"),
    "clear_nthbit": ("*bits* with bit ``idx`` cleared (``idx`` outside [0, 63] wraps)", "7, 1", "5"),
}  # fmt: skip
"""Per scalar bit function: what it returns, and the documented example's arguments and result."""


def _bits(op: Any, *args: Any) -> int:
    """Check the integer arguments, then call the core bit function of *op*."""
    params = op.spec.shape.forms[0].params
    if len(args) != len(params):
        names = ", ".join(p.name for p in params)
        raise AscregTypeError(f"takes ({names}); got {len(args)} argument(s)")
    values = [operands.integer(a, p.name) for a, p in zip(args, params, strict=True)]
    return op.formula(*values)  # type: ignore[no-any-return]


def _bit_doc(name: str) -> str:
    what, example, result = _BIT_DOCS[name]
    return f"""``asc_{name}``: {what} (``PIPE_S``; ``ascreg.core.bits.{name}``).

    Examples
    --------
    >>> asc_{name}({example})
    {result}
    """


def _bit_function(name: str) -> Any:
    return define(f"asc_{name}", doc=_bit_doc(name), formula=staticmethod(SCALAR_BITS[name]))(_bits)


(asc_clz, asc_ffs, asc_ffz, asc_popc, asc_zero_bits_cnt, asc_sflbits, asc_set_nthbit,
 asc_clear_nthbit) = (_bit_function(name) for name in SCALAR_BITS)  # fmt: skip


@define("asc_store_dev")
def asc_store_dev(op: Any, addr: Any, value: Any) -> None:
    """``asc_store_dev(__gm__ T* addr, T value)``: write one value to GM, bypassing the data cache.

    ``T`` is an 8- to 64-bit integer type; *value* converts to it as the C parameter does (an
    out-of-range Python int is an error). ascreg has no data cache, so this is a plain write.

    Examples
    --------
    >>> from ascreg import GlobalMemory, int32_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> addr = GlobalMemory().alloc(int32_t, 1)
    >>> with block(BlockContext()):
    ...     asc_store_dev(addr, 2)
    >>> addr.read(1).tolist()
    [2]
    """
    current_block()
    gm = operands.instance(addr, GmPtr, "addr")
    op.spec.check(gm.dtype)
    gm.write([operands.integer(value, "value")], call=op.name)


# ---- scalar GM atomics (issue 11, C API complete) ------------------------------------------------


def _atomic(op: Any, address: Any, *values: Any) -> int | float:
    """Check *address* and the operands against the row, then update the one GM element.

    The read-modify-write runs on ``PIPE_S`` and is reported to the block's pipe tracker as a
    GM write: the compiler inserts no synchronisation between a scalar atomic and the copy
    engines (the pages' constraint), so an unsynchronised MTE2/MTE3 access of the same bytes
    is a hazard. It is exempt from the cross-block race check (that is what atomics are for).
    """
    ctx = current_block()
    gm = operands.instance(address, GmPtr, "address")
    op.spec.check(gm.dtype)
    params = op.spec.shape.forms[0].params[1:]
    if len(values) != len(params):
        names = ", ".join(p.name for p in op.spec.shape.forms[0].params)
        raise AscregTypeError(f"takes ({names}); got {len(values) + 1} argument(s)")
    converted = [operands.scalar(v, gm.dtype, p.name) for v, p in zip(values, params, strict=True)]
    gm.view(1)  # bounds first: an address outside its allocation names the call
    start = gm.address
    ctx.tracker.access(Pipe.PIPE_S, start, start + gm.dtype.size, write=True, space=id(gm.memory))
    with atomic_access():
        old = atomics.read_modify_write(op.update, gm, 1, converted)
    return old[0].item()  # type: ignore[no-any-return]


def _atomic_doc(update: str, formula: str, example: str, result: str) -> str:
    """Return the docstring of the C API ``asc_atomic_<update>``."""
    legal = ", ".join(t.cpp_name for t in C_SCALAR_ATOMIC_TYPES[update])
    operands_ = "T compare, T val" if update == "cas" else "T val"
    return f"""``T asc_atomic_{update}(__gm__ T* address, {operands_})``: store ``{formula}``.

    Returns the old value (a Python ``int``, or ``float`` for ``float``). One GM element,
    updated atomically by the scalar unit (``PIPE_S``; ``ascreg.core.atomics.UPDATES``).
    Legal T: {legal}. The compiler does not synchronise a scalar atomic with the copy engines:
    order it after an ``asc_copy_ub2gm`` of the same bytes with
    ``asc_sync_notify/asc_sync_wait(PIPE_MTE3, PIPE_S, ...)`` (ascreg reports the hazard
    otherwise). ascreg has no data cache, so the ``asc_dcci_*`` calls the page asks for
    change nothing.

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint32_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> dst = GlobalMemory().alloc(uint32_t, 1); dst.write([6])
    >>> with block(BlockContext()):
    ...     asc_atomic_{update}(dst, {example})
    6
    >>> int(dst.read(1)[0])
    {result}
    """


def _atomic_function(update: str, formula: str, example: str, result: str) -> Any:
    return define(
        f"{C_API_QUALIFIER}asc_atomic_{update}",
        doc=_atomic_doc(update, formula, example, result),
        update=update,
    )(_atomic)


_ATOMIC_DOCS = {
    "add": ("old + val", "3", "9"),
    "sub": ("old - val", "3", "3"),
    "exch": ("val", "3", "3"),
    "max": ("max(old, val)", "3", "6"),
    "min": ("min(old, val)", "3", "3"),
    "cas": ("old == compare ? val : old", "6, 3", "3"),
    "and": ("old & val", "3", "2"),
    "or": ("old | val", "3", "7"),
    "xor": ("old ^ val", "3", "5"),
    "inc": ("old >= val ? 0 : old + 1", "3", "0"),
    "dec": ("(old == 0 || old > val) ? val : old - 1", "3", "3"),
}
"""Per C API atomic: what it stores, and its example's operands (old value 6) and new value."""

(asc_atomic_add, asc_atomic_sub, asc_atomic_exch, asc_atomic_max, asc_atomic_min, asc_atomic_cas,
 asc_atomic_and, asc_atomic_or, asc_atomic_xor, asc_atomic_inc,
 asc_atomic_dec) = (_atomic_function(u, *_ATOMIC_DOCS[u]) for u in C_SCALAR_ATOMIC_TYPES)  # fmt: skip


# ---- system variables ----------------------------------------------------------------------------


@define("asc_get_ctrl")
def asc_get_ctrl(op: Any) -> int:
    """``asc_get_ctrl()``: the CTRL register (:data:`~ascreg.machine.sysregs.CTRL_RESET` at start).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_set_ctrl(asc_get_ctrl() | 1 << 59)
    ...     hex(asc_get_ctrl())
    '0x1801000000000008'
    """
    return system_registers().ctrl


@define("asc_set_ctrl")
def asc_set_ctrl(op: Any, config: Any) -> None:
    """``asc_set_ctrl(uint64_t config)``: write the CTRL register.

    The same register as ``SetCtrlSpr`` (:mod:`ascreg.basic`): CTRL[59] and CTRL[60] select
    the conversions' saturation (docs/semantics.md), CTRL[10:6] the store-atomic mode of the
    UB -> GM copies (as ``asc_set_atomic_*``), CTRL[49] (data-cache reads) changes no result.
    A value ascreg does not model is an :class:`~ascreg.errors.UnsupportedError`
    (:func:`~ascreg.machine.sysregs.check_ctrl`: CTRL[53] set, saturating float
    arithmetic, ...).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_set_ctrl(asc_get_ctrl() & ~(1 << 60)); hex(asc_get_ctrl())
    '0x1000000000008'
    >>> with block(BlockContext()):
    ...     asc_set_ctrl(1 << 53)
    Traceback (most recent call last):
    ...
    ascreg.errors.UnsupportedError: asc_set_ctrl: CTRL[53] = 1 (saturating integer arithmetic): ascreg's integer arithmetic wraps; ascreg models CTRL[48], [59], [60] (saturation), CTRL[10:6] (store atomics), CTRL[56] (the counter mask mode), CTRL[45] and CTRL[49]
    """
    system_registers().ctrl = as_u64(operands.integer(config, "config"))


@define("asc_get_core_id")
def asc_get_core_id(op: Any) -> int:
    """``asc_get_core_id()``: the number of the running core; ascreg runs block *i* on core *i*.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext(block_idx=3, block_num=4)):
    ...     asc_get_core_id()
    3
    """
    return current_block().block_idx


@define("asc_get_sub_block_id")
def asc_get_sub_block_id(op: Any) -> int:
    """``asc_get_sub_block_id()``: the core's id among its kind in its AI Core.

    0 or 1 on the two AIVs of a ``__mix__(1, 2)`` launch; 0 elsewhere (a ``__vector__`` kernel
    is ``KERNEL_TYPE_AIV_ONLY``: one vector core per AI Core).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_get_sub_block_id(), asc_get_sub_block_num()
    (0, 1)
    """
    core = core_of(current_block())
    return 0 if core is None else core.sub


@define("asc_get_sub_block_num")
def asc_get_sub_block_num(op: Any) -> int:
    """``asc_get_sub_block_num()``: cores of the running kind per AI Core (2 on an AIV of 1:2).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_get_sub_block_num()
    1
    """
    core = core_of(current_block())
    return 1 if core is None else core.subs


@define("asc_get_system_cycle")
def asc_get_system_cycle(op: Any) -> int:
    """``asc_get_system_cycle()``: an emulated, deterministic cycle count (no timing model).

    It grows strictly from read to read, by one plus the number of memory accesses the block
    made in between (:meth:`~ascreg.machine.sysregs.SystemRegisters.next_cycle`).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     before = asc_get_system_cycle(); after = asc_get_system_cycle()
    ...     after - before
    1
    """
    return system_registers().next_cycle()


@define("asc_get_program_counter")
def asc_get_program_counter(op: Any) -> int:
    """``asc_get_program_counter()``: an emulated program counter.

    The first read in a block gives :data:`~ascreg.machine.sysregs.PC_BASE`, each later read 4
    more (ascreg has no instruction addresses).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     hex(asc_get_program_counter()), hex(asc_get_program_counter())
    ('0x1000', '0x1004')
    """
    return system_registers().next_pc()


@define("asc_get_phy_buf_addr")
def asc_get_phy_buf_addr(op: Any, offset: Any) -> int:
    """``asc_get_phy_buf_addr(uint64_t offset)``: the UB address at *offset*.

    ascreg's UB addresses are offsets from the start of the UB, so this returns *offset*,
    after checking it lies inside the 248 KiB UB.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_get_phy_buf_addr(128)
    128
    """
    current_block()
    return operands.in_range(offset, "offset", 0, UB_BYTES, "the UB's size")


@define("asc_get_arch_ver")
def asc_get_arch_ver(op: Any, core_version: Any) -> None:
    """``asc_get_arch_ver(uint32_t& core_version)``: write the core version into a :class:`Ref`.

    ascreg reports :data:`~ascreg.machine.sysregs.ARCH_VERSION` (``0x3510``; print it in hex,
    as the documentation advises).

    Examples
    --------
    >>> from ascreg import Ref
    >>> from ascreg.machine.block import BlockContext, block
    >>> version = Ref(0)
    >>> with block(BlockContext()):
    ...     asc_get_arch_ver(version)
    >>> hex(version.value)
    '0x3510'
    """
    current_block()
    operands.instance(core_version, Ref, "core_version").value = ARCH_VERSION


@define("asc_get_status")
def asc_get_status(op: Any) -> int:
    """``asc_get_status()``: the status bits (overflow, NaN/INF inputs, ...); always 0 in ascreg.

    ascreg does not record the exception flags the status bits report.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_get_status()
    0
    """
    current_block()
    return 0


def _constant(op: Any) -> int:
    current_block()
    return CONSTANT_REGISTERS[op.register]


def _constant_doc(name: str, what: str) -> str:
    return f"""``asc_get_{name}()``: {what}; 0 in ascreg (no MMU, no stack to report).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_get_{name}()
    0
    """


asc_get_phy_stack_base, asc_get_sys_virtual_base, asc_get_smmu_tag_version = (
    define(f"asc_get_{name}", doc=_constant_doc(name, what), register=name)(_constant)
    for name, what in (
        ("phy_stack_base", "the physical stack base address"),
        ("sys_virtual_base", "the system virtual base address"),
        ("smmu_tag_version", "the SMMU tag version"),
    )
)


@define("asc_set_ffts_base_addr")
def asc_set_ffts_base_addr(op: Any, config: Any) -> None:
    """``asc_set_ffts_base_addr(uint64_t config)``: set the cross-core sync register base.

    ascreg keeps the value for :func:`asc_get_ffts_base_addr`; its cross-core sync needs none.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_set_ffts_base_addr(0x4000); hex(asc_get_ffts_base_addr())
    '0x4000'
    """
    system_registers().ffts_base = as_u64(operands.integer(config, "config"))


@define("asc_get_ffts_base_addr")
def asc_get_ffts_base_addr(op: Any) -> int:
    """``asc_get_ffts_base_addr()``: the cross-core sync register base (0 until set).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_get_ffts_base_addr()
    0
    """
    return system_registers().ffts_base


# ---- cache control -------------------------------------------------------------------------------


@define("c_api.asc_dcci_single")
def asc_dcci_single(op: Any, dst: Any) -> None:
    """``asc_dcci_single(__gm__ void* dst)``: flush the data-cache line holding *dst*.

    ascreg has no data cache (scalar GM accesses are immediately visible), so this only checks
    that *dst* is a GM pointer.

    Examples
    --------
    >>> from ascreg import GlobalMemory, float32_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> x = GlobalMemory().alloc(float32_t, 16)
    >>> with block(BlockContext()):
    ...     asc_dcci_single(x)
    """
    current_block()
    operands.instance(dst, GmPtr, "dst")


@define("asc_ub_dcci_single")
def asc_ub_dcci_single(op: Any, dst: Any) -> None:
    """``asc_ub_dcci_single(__ubuf__ void* dst)``: flush the data-cache line holding UB *dst*.

    Checks that *dst* is a UB pointer (ascreg has no data cache).

    Examples
    --------
    >>> from ascreg import uint8_t
    >>> from ascreg.machine.kernel import BlockContext, __ubuf__, block
    >>> with block(BlockContext()):
    ...     asc_ub_dcci_single(__ubuf__(uint8_t, 64))
    """
    current_block()
    operands.instance(dst, UbPtr, "dst")


def _whole_cache(op: Any) -> None:
    current_block()


def _whole_cache_doc(name: str, what: str) -> str:
    return f"""``{name}()``: {what}; no effect in ascreg (it has no data cache).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     {name}()
    """


asc_dcci_entire_all, asc_dcci_entire_out, asc_dcci_entire_atomic, asc_dci = (
    define(name, doc=_whole_cache_doc(name, what))(_whole_cache)
    for name, what in (
        ("asc_dcci_entire_all", "flush every data-cache line"),
        ("asc_dcci_entire_out", "flush the data-cache lines of GM"),
        ("asc_dcci_entire_atomic", "flush the data-cache lines of atomics"),
        ("asc_dci", "invalidate the whole data cache without writing dirty lines back"),
    )
)


@define("asc_datacache_preload")
def asc_datacache_preload(op: Any, address: Any, offset: Any) -> None:
    """``asc_datacache_preload(__gm__ uint64_t* address, int64_t offset)``: preload a GM line.

    Checks that *address* is a ``uint64_t`` GM pointer and that ``offset`` bytes past it lie
    inside its allocation (no effect on values in ascreg).

    Examples
    --------
    >>> from ascreg import GlobalMemory, uint64_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> x = GlobalMemory().alloc(uint64_t, 8)
    >>> with block(BlockContext()):
    ...     asc_datacache_preload(x, 0)
    ...     asc_datacache_preload(x, 64)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: asc_datacache_preload: offset 64 is outside [0, 63] (the bytes of address's allocation)
    """
    current_block()
    gm = operands.instance(address, GmPtr, "address")
    if gm.dtype.cpp_name != "uint64_t":
        raise AscregTypeError(f"address is {gm!r}; it must be a __gm__ uint64_t*")
    found = gm.memory.allocation_at(gm.address)
    last = (found.end if found is not None else gm.address + 1) - gm.address - 1
    operands.in_range(offset, "offset", 0, last, "the bytes of address's allocation")


@define("asc_icache_preload")
def asc_icache_preload(op: Any, addr: Any, prefetch_len: Any) -> None:
    """``asc_icache_preload(const void* addr, int64_t prefetch_len)``: preload instructions.

    *addr* is an instruction address (an integer, e.g. from :func:`asc_get_program_counter`);
    *prefetch_len* must not be negative. No effect in ascreg, which has no instruction cache.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_icache_preload(asc_get_program_counter() & 0xFFFF_FFFF_FFFF, 32)
    ...     asc_get_icache_preload_status()
    0
    """
    current_block()
    operands.integer(addr, "addr")
    operands.in_range(prefetch_len, "prefetch_len", 0, (1 << 63) - 1)


@define("asc_get_icache_preload_status")
def asc_get_icache_preload_status(op: Any) -> int:
    """``asc_get_icache_preload_status()``: 0 (idle) or 1 (busy); ascreg's preloads finish at once.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     asc_get_icache_preload_status()
    0
    """
    current_block()
    return 0
