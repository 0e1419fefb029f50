"""GetSystemCycle, GetProgramCounter, GetArchVersion, Nop, Trap, Read/WriteGmByPassDCache,
DataCachePreload, MarkStamp and PrintTimeStamp, from their pages."""

from __future__ import annotations

import contextlib
import io
import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import GlobalMemory, Ref, float32_t, half, int8_t, uint64_t
from ascreg._dtypes import INTEGERS
from ascreg.basic import (
    PIPE_ALL,
    PIPE_M,
    PIPE_V,
    DataCachePreload,
    Duplicate,
    GetArchVersion,
    GetProgramCounter,
    GetSystemCycle,
    GlobalTensor,
    Hardware,
    LocalMemAllocator,
    MarkStamp,
    Nop,
    PipeBarrier,
    PrintTimeStamp,
    ReadGmByPassDCache,
    Trap,
    WriteGmByPassDCache,
)
from ascreg.basic._debug import TIME_STAMP
from ascreg.basic._kernel_source import KernelAssertion
from ascreg.errors import AscregError, AscregTypeError, SyncError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.sysregs import PC_BASE


@settings(max_examples=20, derandomize=True)
@given(st.integers(1, 6))
def test_cycles_grow_and_the_pc_steps_by_four(reads: int) -> None:
    with block(BlockContext()):
        cycles = [GetSystemCycle() for _ in range(reads + 1)]
        pcs = [GetProgramCounter() for _ in range(reads)]
    assert all(b > a for a, b in itertools.pairwise(cycles))
    assert pcs == [PC_BASE + 4 * k for k in range(reads)]


def test_the_arch_version_is_hex_0x3510() -> None:
    version = Ref(0)
    with block(BlockContext()):
        GetArchVersion(version)
        with pytest.raises(AscregTypeError, match="coreVersion"):
            GetArchVersion(0)
    assert f"{version.value:x}" == "3510"


def test_nop_is_a_pipe_all_barrier_when_count_is_positive() -> None:
    """Nop.md on the 950: PipeBarrier<PIPE_ALL>, count nops, PipeBarrier<PIPE_ALL>; count <= 0: nothing."""
    with block(BlockContext()):
        x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 64]()
        Duplicate(x, 1.0, 64)
        Nop[3]()
        assert x.GetPhyAddr().read(1).tolist() == [1.0]  # PIPE_S after PIPE_V: ordered
        Nop()
        Duplicate(x, 2.0, 64)
        Nop[0]()
        with pytest.raises(SyncError):
            x.GetPhyAddr().read(1)
    with pytest.raises(AscregTypeError, match="matches no template parameter list"):
        Nop["3"]


def test_trap_stops_the_kernel() -> None:
    with (
        block(BlockContext(block_idx=2, block_num=4)),
        pytest.raises(KernelAssertion, match=r"Trap: .* block 2: Trap\(\) stopped"),
    ):
        Trap()


@settings(max_examples=30, derandomize=True)
@given(st.sampled_from(INTEGERS), st.data())
def test_gm_access_past_the_cache_reads_back_what_it_wrote(dtype: Any, data: st.DataObject) -> None:
    info = np.iinfo(dtype.np_dtype)
    values = data.draw(st.lists(st.integers(int(info.min), int(info.max)), min_size=1, max_size=8))
    gm = GlobalMemory().alloc(dtype, len(values) + 1)
    gm.write(np.full(len(values) + 1, 3, dtype.np_dtype))
    with block(BlockContext()):
        for k, v in enumerate(values):
            WriteGmByPassDCache(gm + k, v)
        got = [int(ReadGmByPassDCache(gm + k)) for k in range(len(values) + 1)]
    assert got == [*values, 3]  # sizeof(T) bytes each, the next element untouched


def test_gm_access_rules() -> None:
    h = GlobalMemory().alloc(half, 2)
    b = GlobalMemory().alloc(int8_t, 2)
    with block(BlockContext()):
        with pytest.raises(
            AscregTypeError, match=r"ReadGmByPassDCache: addr is .*T must be one of int8_t"
        ):
            ReadGmByPassDCache(h)
        with pytest.raises(AscregTypeError, match="WriteGmByPassDCache: addr"):
            WriteGmByPassDCache(np.zeros(2), 1)
        with pytest.raises(AscregError, match="cannot store 300 as int8_t"):
            WriteGmByPassDCache(b, 300)


def test_data_cache_preload_checks_its_arguments() -> None:
    g = GlobalTensor[uint64_t]()
    g.SetGlobalBuffer(GlobalMemory().alloc(uint64_t, 8), 8)
    f = GlobalTensor[float32_t]()
    f.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 8), 8)
    with block(BlockContext()):
        DataCachePreload(g, 0)
        DataCachePreload(g, 63)
        with pytest.raises(
            AscregTypeError, match=r"DataCachePreload: cacheOffset 64 is outside \[0, 63\]"
        ):
            DataCachePreload(g, 64)
        with pytest.raises(
            AscregTypeError, match="DataCachePreload: src must be a GlobalTensor<uint64_t>"
        ):
            DataCachePreload(f, 0)
    with pytest.raises(AscregError, match="DataCachePreload"):
        DataCachePreload(g, 0)  # outside a block


def test_mark_stamp_and_print_time_stamp(capsys: Any) -> None:
    with block(BlockContext()):
        MarkStamp[PIPE_V, 7]()
        MarkStamp[PIPE_M](65535)
        with pytest.raises(
            AscregTypeError, match=r"MarkStamp: index 65536 is outside \[0, 65535\]"
        ):
            MarkStamp[PIPE_V](65536)
        with pytest.raises(AscregTypeError, match="MarkStamp: takes MarkStamp"):
            MarkStamp[PIPE_V, 1](2)
        PrintTimeStamp(0x10001)  # ASCENDC_TIME_STAMP_ON unset: nothing printed
        with pytest.raises(AscregTypeError, match="PrintTimeStamp: descId -1"):
            PrintTimeStamp(-1)
        TIME_STAMP["ASCENDC_TIME_STAMP_ON"] = True
        try:
            PrintTimeStamp(0x10001)
        finally:
            TIME_STAMP["ASCENDC_TIME_STAMP_ON"] = False
    out = capsys.readouterr().out
    assert out.startswith("descId is 65537, rsv is 0, timeStamp is ") and out.endswith(
        ", entry is 0.\n"
    )


def dump_reference(
    desc: int, addr: int, dtype_name: str, place: str, values: list[Any], shape: list[int] | None
) -> str:
    """The page's printouts: the header, then ``[v, v]`` or the shape's rows (``-`` for no data)."""
    cells = [str(v) if isinstance(v, int) else "%f" % v for v in values]  # noqa: UP031 (C's %f)
    head = f"DumpTensor: desc={desc}, addr={addr:#x}, data_type={dtype_name}, position={place}, dump_size={len(values)}\n"
    if shape is None:
        return head + "[" + ", ".join(cells) + "]\n"
    size = int(np.prod(shape))
    note = "data is not enough" if size > len(values) else "dumpSize is greater than shapeSize"
    cells = (cells + ["-"] * size)[:size]
    rows = [",".join(cells[r * shape[1] : (r + 1) * shape[1]]) for r in range(shape[0])]
    return (
        head
        + f"shape is {shape}, dumpSize is {len(values)}, {note}.\n[["
        + "],\n[".join(rows)
        + "]]\n"
    )


@settings(max_examples=20, derandomize=True)
@given(st.sampled_from([(half, "float16"), (float32_t, "float32"), (int8_t, "int8")]), st.integers(0, 40),
       st.one_of(st.none(), st.tuples(st.integers(1, 5), st.integers(1, 8))), st.integers(0, 2**32 - 1))  # fmt: skip
def test_dump_tensor_prints_as_the_page_shows(case: Any, count: int, shape: Any, seed: int) -> None:
    from ascreg.basic import DumpTensor, ShapeInfo

    dtype, name = case
    raw = np.random.default_rng(seed).integers(-50, 50, 64).astype(dtype.np_dtype)
    if dtype is not int8_t:
        raw = (raw / 8).astype(dtype.np_dtype)
    out = io.StringIO()
    with block(BlockContext()), contextlib.redirect_stdout(out):
        x = LocalMemAllocator[Hardware.UB]().Alloc[dtype, 64]()
        x.GetPhyAddr().write(raw)
        DumpTensor(
            x[32 // dtype.size], 7, count, None if shape is None else ShapeInfo(2, list(shape))
        )
    values = [int(v) if dtype is int8_t else float(v) for v in raw[32 // dtype.size :][:count]]
    assert out.getvalue() == dump_reference(
        7, 32, name, "UB", values, None if shape is None else list(shape)
    )


def test_dump_tensor_rules(capsys: Any) -> None:
    from ascreg.basic import DumpTensor

    g = GlobalTensor[uint64_t]()
    g.SetGlobalBuffer(GlobalMemory().alloc(uint64_t, 8), 8)
    with block(BlockContext()):
        DumpTensor(g, 1, 2)
        x = LocalMemAllocator[Hardware.UB]().Alloc[half, 16384]()
        Duplicate(x, 1.0, 16384)
        PipeBarrier[PIPE_ALL]()
        DumpTensor(x, 2, 16384)  # 32 KiB: more than the 30 KiB print buffer, not printed
        with pytest.raises(AscregTypeError, match=r"DumpTensor: desc -1 is outside"):
            DumpTensor(x, -1, 4)
        with pytest.raises(
            AscregTypeError, match="DumpTensor: tensor must be a LocalTensor or a GlobalTensor"
        ):
            DumpTensor(np.zeros(4), 1, 4)
    assert (
        capsys.readouterr().out
        == "DumpTensor: desc=1, addr=0x0, data_type=uint64, position=GM, dump_size=2\n[0, 0]\n"
    )
