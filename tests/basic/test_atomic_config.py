"""SetAtomicType<T>, SetStoreAtomicConfig<type, op> and GetStoreAtomicConfig, written from their pages.

The store-atomic state is the copy engine's (``SetAtomicAdd`` and the C API switches set the
same): ``SetAtomicType`` writes the element type only; ``GetStoreAtomicConfig`` reports the type
codes of ``AtomicDtype`` (0 none, 1 float, 2 half, 3 int16_t, 4 int32_t, 5 int8_t, 6 bfloat16_t)
and the operation (0 sum).
"""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import Ref, bfloat16_t, float32_t, half, int8_t, int16_t, int32_t, uint32_t
from ascreg.basic import (
    AtomicDtype,
    AtomicOp,
    DisableDmaAtomic,
    GetStoreAtomicConfig,
    SetAtomicAdd,
    SetAtomicMax,
    SetAtomicMin,
    SetAtomicType,
    SetStoreAtomicConfig,
)
from ascreg.errors import AscregTypeError, UnsupportedError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.sysregs import system_registers

PAGE_CODES = {float32_t: 1, half: 2, int16_t: 3, int32_t: 4, int8_t: 5, bfloat16_t: 6}
"""GetStoreAtomicConfig(ISASI).md's atomicType codes."""
SWITCHES = {"add": SetAtomicAdd, "max": SetAtomicMax, "min": SetAtomicMin, "none": None}
OP_CODES = {"add": 0, "max": 1, "min": 2}


def expected(ops: list[tuple[str, type | None]]) -> tuple[int, int]:
    """The (atomicType, atomicOp) after the calls, from the pages: a scalar replay."""
    kind, op = 0, 0
    for name, dtype in ops:
        if name == "none":  # ascreg keeps no operation while off: the reset sum (decision)
            kind, op = 0, 0
        elif name == "type":
            kind = PAGE_CODES[dtype]  # the operation field stays
        elif name == "config":
            kind, op = (0, 0) if dtype is None else (PAGE_CODES[dtype], 0)
        else:
            kind, op = PAGE_CODES[dtype], OP_CODES[name]
    return kind, (op if kind else 0)


CALLS = st.tuples(
    st.sampled_from(["add", "max", "min", "none", "type", "config"]),
    st.sampled_from([*PAGE_CODES, None]),
).filter(lambda c: c[1] is not None or c[0] in ("none", "config"))


@settings(max_examples=40, derandomize=True)
@given(st.lists(CALLS, max_size=6))
def test_the_mode_after_any_sequence_matches_the_pages(
    calls: list[tuple[str, type | None]],
) -> None:
    kind, op = Ref(99), Ref(99)
    with block(BlockContext()):
        for name, dtype in calls:
            if name == "none":
                DisableDmaAtomic()
            elif name == "type":
                SetAtomicType[dtype]()
            elif name == "config":
                code = AtomicDtype(0 if dtype is None else PAGE_CODES[dtype])
                SetStoreAtomicConfig[code, AtomicOp.ATOMIC_SUM]()
            else:
                SWITCHES[name][dtype]()
        GetStoreAtomicConfig(kind, op)
    assert (kind.value, op.value) == expected(calls)


def test_a_configured_atomic_adds_into_gm() -> None:
    from ascreg import GlobalMemory
    from ascreg.basic import (
        PIPE_ALL,
        DataCopy,
        GlobalTensor,
        Hardware,
        LocalMemAllocator,
        PipeBarrier,
    )

    gm = GlobalMemory().alloc(float32_t, 8)
    gm.write(np.full(8, 1.5, np.float32))
    with block(BlockContext()):
        g = GlobalTensor[float32_t]()
        g.SetGlobalBuffer(gm, 8)
        x = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
        x.GetPhyAddr().write(np.arange(8, dtype=np.float32))
        PipeBarrier[PIPE_ALL]()
        SetStoreAtomicConfig[AtomicDtype.ATOMIC_F32, AtomicOp.ATOMIC_SUM]()
        DataCopy(g, x, 8)
        PipeBarrier[PIPE_ALL]()
        SetStoreAtomicConfig[AtomicDtype.ATOMIC_NONE, AtomicOp.ATOMIC_SUM]()
    assert gm.read(8).tolist() == [1.5 + i for i in range(8)]


def test_rules_and_examples() -> None:
    with block(BlockContext()):
        with pytest.raises(UnsupportedError, match=r"SetAtomicType<uint32_t>: T must be one of"):
            SetAtomicType[uint32_t]()
        with pytest.raises(AscregTypeError, match=r"write SetAtomicType\[T\]\(\)"):
            SetAtomicType()
        with pytest.raises(AscregTypeError, match="matches no template parameter list"):
            SetStoreAtomicConfig[1, 0]
        with pytest.raises(
            AscregTypeError, match="GetStoreAtomicConfig: atomicType is a uint16_t& output"
        ):
            GetStoreAtomicConfig(0, Ref(0))
        assert system_registers().atomic is None
    for obj in (SetAtomicType, SetStoreAtomicConfig, GetStoreAtomicConfig):
        test = doctest.DocTestParser().get_doctest(
            obj.__doc__,
            {
                "AtomicDtype": AtomicDtype,
                "AtomicOp": AtomicOp,
                "SetAtomicMax": SetAtomicMax,
                "SetAtomicType": SetAtomicType,
                "SetStoreAtomicConfig": SetStoreAtomicConfig,
                "GetStoreAtomicConfig": GetStoreAtomicConfig,
                "SetAtomicMin": SetAtomicMin,
            },
            "x",
            None,
            0,
        )
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.failures == 0
