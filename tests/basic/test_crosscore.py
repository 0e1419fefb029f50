"""Mixed launches and the cross-core flags: cores, counters, ordering, hangs and races.

The counter semantics are checked against :class:`FlagModel`, a scalar model written from the
CrossCoreSetFlag page's mode descriptions (one counter per core and flag, each mode's round
rule spelled out core by core), on random sequences of sets.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import GlobalMemory, GmPtr, int32_t
from ascreg.basic import (
    AIC,
    ASCEND_IS_AIC,
    ASCEND_IS_AIV,
    ASCEND_IS_NOT_AIC,
    KERNEL_TASK_TYPE_DEFAULT,
    KERNEL_TYPE_MIX_AIC_1_2,
    PIPE_ALL,
    PIPE_MTE3,
    PIPE_S,
    PIPE_V,
    CrossCoreSetFlag,
    CrossCoreWaitFlag,
    GetBlockIdx,
    GetBlockNum,
    GetSubBlockIdx,
    GetSubBlockNum,
    GetTaskRatio,
    GetTaskRation,
    g_coreType,
)
from ascreg.c_api import asc_get_sub_block_id, asc_sync_intra_arrive, asc_sync_intra_wait
from ascreg.errors import AscregError, AscregTypeError, LaunchError, SyncError, UnsupportedError
from ascreg.machine.crosscore import CrossCoreFlags, topology
from ascreg.machine.kernel import __global__, __mix__, __vector__


def launch(body: Any, blocks: int = 1, ratio: tuple[int, int] = (1, 2), slots: int = 64) -> Any:
    """Run *body(out)* as a ``__mix__(ratio)`` kernel on *blocks* AI Cores; return out."""

    @__global__
    @__mix__(*ratio)
    def kernel(out: GmPtr[int32_t]) -> None:
        body(out)

    out = GlobalMemory().alloc(int32_t, slots)
    out.write(np.zeros(slots, np.int32))
    kernel[blocks, 0, None](out)
    return np.asarray(out.read(slots))


# -- the cores of a launch ------------------------------------------------------------------------


@pytest.mark.parametrize("ratio", [(1, 2), (1, 1), (0, 1), (1, 0)])
def test_each_core_sees_its_indices(ratio: tuple[int, int]) -> None:
    """The GetBlockIdx / GetBlockNum / GetSubBlockNum / GetTaskRatio pages' values."""
    per_core = sum(ratio)

    def body(out: Any) -> None:
        block = GetBlockIdx() if ASCEND_IS_AIC else GetBlockIdx() // GetSubBlockNum()
        place = block * per_core + (0 if ASCEND_IS_AIC else ratio[0] + GetSubBlockIdx())
        row = [int(g_coreType), GetBlockIdx(), GetBlockNum(), GetSubBlockIdx(),
               GetSubBlockNum(), GetTaskRatio(), GetTaskRation()]  # fmt: skip
        (out + 7 * place).write(row)

    got = launch(body, blocks=3, ratio=ratio, slots=7 * 3 * per_core).reshape(-1, 7)
    aic, aiv = ratio
    want = []
    for block in range(3):
        want += [[1, block, 3, 0, 1, 1, 1]] * aic
        want += [[2, block * aiv + sub, 3, sub, aiv, aiv, aiv] for sub in range(aiv)]
    assert got.tolist() == want


def test_undocumented_ratio_is_rejected() -> None:
    with pytest.raises(LaunchError, match=r"__mix__\(1, 3\): the documented ratios"):
        __mix__(1, 3)


def test_branch_flags_outside_a_kernel_name_a_vector_core() -> None:
    assert bool(ASCEND_IS_AIV) and not ASCEND_IS_AIC and bool(ASCEND_IS_NOT_AIC)
    assert g_coreType != AIC


# -- ordering ------------------------------------------------------------------------------------


def test_mode2_orders_a_producer_aic_before_its_aivs() -> None:
    """The AIVs run first in no order at all: they park on the flag until the AIC sets it."""

    def body(out: Any) -> None:
        if ASCEND_IS_AIV:
            CrossCoreWaitFlag(1)
            (out + 1 + GetBlockIdx()).write([out.read(1)[0] * 10 + GetBlockIdx()])
            CrossCoreSetFlag[2, PIPE_MTE3](2)
        if ASCEND_IS_AIC:
            out.write([4])
            CrossCoreSetFlag[2, PIPE_MTE3](1)
            CrossCoreWaitFlag(2)  # both AIVs must set before the AIC goes on
            out.write([int(out.read(3)[1:].sum())])

    assert launch(body, slots=3).tolist() == [40 + 41, 40, 41]


def test_mode0_joins_every_core_of_one_kind() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV:
            (out + GetBlockIdx()).write([GetBlockIdx() + 1])
            CrossCoreSetFlag[0, PIPE_MTE3](0)
            CrossCoreWaitFlag(0)
            (out + 8 + GetBlockIdx()).write([int(out.read(4).sum())])

    got = launch(body, blocks=2, slots=16)
    assert got[8:12].tolist() == [10] * 4


def test_mode1_joins_the_two_aivs_of_one_ai_core_only() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV and GetBlockIdx() // 2 == 1:  # AI Core 1 only, as scenario 1 does
            (out + GetBlockIdx()).write([GetBlockIdx()])
            CrossCoreSetFlag[1, PIPE_MTE3](0)
            CrossCoreWaitFlag(0)
            (out + 8 + GetBlockIdx()).write([int(out.read(4).sum())])

    got = launch(body, blocks=2, slots=16)
    assert got[10:12].tolist() == [5, 5] and not got[8:10].any()


def test_mode4_maps_each_aiv_to_its_half_of_the_aic_flags() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV:
            (out + GetSubBlockIdx()).write([GetSubBlockIdx() + 7])
            CrossCoreSetFlag[4, PIPE_S](3)  # AIV0 -> AIC flag 3, AIV1 -> AIC flag 19
            CrossCoreWaitFlag[4](5)  # from the AIC's 5 (AIV0) or 21 (AIV1)
            (out + 4 + GetSubBlockIdx()).write([out.read(3)[2]])
        if ASCEND_IS_AIC:
            CrossCoreWaitFlag[4, PIPE_S](19)  # AIV1's set
            CrossCoreWaitFlag[4, PIPE_S](3)  # AIV0's set
            (out + 2).write([int(out.read(2).sum())])
            CrossCoreSetFlag[4, PIPE_S](5)
            CrossCoreSetFlag[4, PIPE_S](21)

    assert launch(body, slots=6).tolist() == [7, 8, 15, 0, 15, 15]


def test_c_api_intra_flags_are_mode4() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV:
            asc_sync_intra_wait(PIPE_S, 2)
            (out + 1 + asc_get_sub_block_id()).write([out.read(1)[0] + asc_get_sub_block_id()])
        else:
            out.write([9])
            asc_sync_intra_arrive(PIPE_MTE3, 2)  # AIV0's flag 2
            asc_sync_intra_arrive(PIPE_MTE3, 18)  # AIV1's flag 2

    assert launch(body, slots=3).tolist() == [9, 9, 10]


def test_a_flag_id_of_modes_0_to_2_keeps_its_low_4_bits() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV:
            CrossCoreSetFlag[1, PIPE_V](17)
            CrossCoreWaitFlag(1)
            (out + GetSubBlockIdx()).write([1])

    assert launch(body, slots=2).tolist() == [1, 1]


def test_sets_count_up() -> None:
    """Three sets before the first wait: three waits pass, a fourth would hang."""

    def body(out: Any) -> None:
        if ASCEND_IS_AIC:
            for _ in range(3):
                CrossCoreSetFlag[2, PIPE_MTE3](4)
        else:
            for i in range(3):
                CrossCoreWaitFlag(4)
                (out + 3 * GetSubBlockIdx() + i).write([1])

    assert launch(body, slots=6).sum() == 6


# -- misuse --------------------------------------------------------------------------------------


def test_a_wait_nobody_satisfies_reports_the_hang() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV and GetSubBlockIdx() == 0:
            CrossCoreSetFlag[2, PIPE_MTE3](6)  # AIV1 never sets: the round stays open
        if ASCEND_IS_AIC:
            CrossCoreWaitFlag(6)

    with pytest.raises(SyncError, match=r"AIC 0 waits in CrossCoreWaitFlag\(6\); no running core"):
        launch(body)


def test_a_set_nobody_waits_for_is_reported_at_the_end() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIC:
            CrossCoreSetFlag[2, PIPE_MTE3](7)

    with pytest.raises(SyncError, match=r"never waited for: AIV 0 flag 7 x1; AIV 1 flag 7 x1"):
        launch(body)


def test_an_open_round_is_reported_at_the_end() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV and GetSubBlockIdx() == 1:
            CrossCoreSetFlag[1, PIPE_MTE3](2)

    with pytest.raises(SyncError, match=r"mode 1 flag 2 set by 1 core\(s\) but not by AIV 0"):
        launch(body)


def test_a_counter_past_15_is_an_error() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIC:
            for _ in range(16):
                CrossCoreSetFlag[2, PIPE_MTE3](0)

    with pytest.raises(SyncError, match=r"4-bit counter of flag 0 of AIV 0 would exceed 15"):
        launch(body)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: CrossCoreSetFlag[3, PIPE_V](0), UnsupportedError, r"modeId 3 is not a mode"),
        (lambda: CrossCoreSetFlag[0, PIPE_ALL](0), AscregTypeError, r"'PIPE_ALL' cannot carry"),
        (lambda: CrossCoreSetFlag[1, PIPE_S](0), AscregTypeError, r"'PIPE_S' cannot carry a mode-1"),
        (lambda: CrossCoreWaitFlag[0, PIPE_ALL](0), AscregTypeError, r"PIPE_ALL is not supported"),
        (lambda: CrossCoreSetFlag[0, PIPE_V](1 << 16), AscregTypeError, r"flagId must be a uint16_t"),
        (lambda: CrossCoreSetFlag[4, PIPE_V](16), AscregError, r"mode-4 flagId 16 is outside \[0, 15\] of an AIV"),
    ],
)  # fmt: skip
def test_operand_rules(call: Any, error: type[Exception], message: str) -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV and GetSubBlockIdx() == 0:
            call()

    with pytest.raises(error, match=message):
        launch(body)


def test_mode4_needs_the_1_to_2_ratio() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV:
            CrossCoreSetFlag[4, PIPE_V](0)

    with pytest.raises(
        SyncError, match=r"mode 4 .* needs a __mix__\(1, 2\) kernel; this one is __mix__\(1, 1\)"
    ):
        launch(body, ratio=(1, 1))


def test_a_vector_kernel_has_no_scheduler() -> None:
    @__global__
    @__vector__
    def kernel(out: GmPtr[int32_t]) -> None:
        CrossCoreSetFlag[0, PIPE_MTE3](0)

    with pytest.raises(SyncError, match=r"needs the scheduler of a mixed launch"):
        kernel[2, 0, None](GlobalMemory().alloc(int32_t, 1))


# -- races between the cores ---------------------------------------------------------------------


def test_a_read_with_no_wait_after_the_other_cores_write_is_a_race() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIC:
            out.write([5])
            CrossCoreSetFlag[2, PIPE_MTE3](0)
        elif GetSubBlockIdx() == 0:
            CrossCoreWaitFlag(0)
            (out + 1).write([out.read(1)[0]])  # ordered
        else:
            (out + 2).write([out.read(1)[0]])  # no wait: races with the AIC's write
            CrossCoreWaitFlag(0)

    with pytest.raises(SyncError, match=r"AIV 1 reads __gm__ byte 0x0, which AIC 0 wrote with no"):
        launch(body)


def test_a_write_after_another_cores_unordered_read_is_a_race() -> None:
    """The reader runs first here (the AIC waits for AIV1); the AIC's later write is caught."""

    def body(out: Any) -> None:
        if ASCEND_IS_AIC:
            CrossCoreWaitFlag[4](16)  # AIV1's flag 0
            out.write([5])
        elif GetSubBlockIdx() == 0:
            (out + 1).write([out.read(1)[0]])  # reads slot 0 with no flag from the AIC
        else:
            CrossCoreSetFlag[4, PIPE_MTE3](0)

    with pytest.raises(SyncError, match=r"AIC 0 writes __gm__ byte 0x0, which AIV 0 read with no"):
        launch(body)


def test_accesses_ordered_through_a_chain_of_flags_pass() -> None:
    """AIV0 -> AIC (mode 4) -> AIV1 (mode 4): AIV1 may read what AIV0 wrote."""

    def body(out: Any) -> None:
        if ASCEND_IS_AIV and GetSubBlockIdx() == 0:
            out.write([3])
            CrossCoreSetFlag[4, PIPE_MTE3](0)
        if ASCEND_IS_AIC:
            CrossCoreWaitFlag[4](0)
            CrossCoreSetFlag[4, PIPE_S](16)
        if ASCEND_IS_AIV and GetSubBlockIdx() == 1:
            CrossCoreWaitFlag[4](0)
            (out + 1).write([out.read(1)[0] + 1])

    assert launch(body, slots=2).tolist() == [3, 4]


# -- the counters against a scalar model --------------------------------------------------------


class FlagModel:
    """The page's counter rules, core by core: what each set raises, on a 1:2 launch."""

    def __init__(self, blocks: int) -> None:
        self.blocks = blocks
        self.count: dict[tuple[str, int, int, str, int], int] = {}
        self.arrived: dict[tuple[int, int, int], list[set[tuple[str, int, int]]]] = {}

    def cores(self, kind: str, block: int | None) -> list[tuple[str, int, int]]:
        subs = 1 if kind == "AIC" else 2
        blocks = range(self.blocks) if block is None else [block]
        return [(kind, b, s) for b in blocks for s in range(subs)]

    def raise_(self, core: tuple[str, int, int], space: str, flag: int) -> None:
        key = (*core, space, flag)
        self.count[key] = self.count.get(key, 0) + 1

    def set(self, core: tuple[str, int, int], mode: int, flag: int) -> None:
        kind, block, sub = core
        if mode == 4:
            if kind == "AIV":
                self.raise_(("AIC", block, 0), "mode4", flag + 16 * sub)
            else:
                self.raise_(("AIV", block, flag // 16), "mode4", flag % 16)
            return
        if mode == 2 and kind == "AIC":
            for aiv in self.cores("AIV", block):
                self.raise_(aiv, "ffts", flag)
            return
        group = self.cores(kind, None) if mode == 0 else self.cores("AIV", block)
        rounds = self.arrived.setdefault((mode, flag, hash(tuple(group))), [])
        for pending in rounds:
            if core not in pending:
                pending.add(core)
                break
        else:
            rounds.append({core})
        if len(rounds[0]) == len(group):
            rounds.pop(0)
            for target in self.cores("AIC", block) if mode == 2 else group:
                self.raise_(target, "ffts", flag)


SET = st.tuples(
    st.sampled_from(["AIC", "AIV"]), st.integers(0, 1), st.integers(0, 1),
    st.sampled_from([0, 1, 2, 4]), st.integers(0, 3),
)  # fmt: skip


@given(st.lists(SET, max_size=40))
def test_counters_match_the_scalar_model(sets: list[tuple[str, int, int, int, int]]) -> None:
    cores = topology(2, 1, 2)
    flags, model = CrossCoreFlags(cores), FlagModel(2)
    by_id = {(c.kind, c.block, c.sub): c for c in cores}
    for kind, block, sub, mode, flag in sets:
        sub = 0 if kind == "AIC" else sub
        if mode == 1 and kind == "AIC":
            continue  # mode 1 joins AIVs only
        number = flag + (16 if mode == 4 and kind == "AIC" and sub == 0 and flag % 2 else 0)
        flags.set(by_id[kind, block, sub], mode, number)
        model.set((kind, block, sub), mode, number)
    for (kind, block, sub, space, flag), n in model.count.items():
        assert flags.count(by_id[kind, block, sub], space, flag) == n
    total = sum(len(q) for q in flags.counters.values())
    assert total == sum(model.count.values())


def test_the_kernel_type_must_name_the_qualifiers_cores() -> None:
    def body(out: Any) -> None:
        KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)
        (out + (0 if ASCEND_IS_AIC else 1 + GetSubBlockIdx())).write([1])

    assert launch(body, slots=3).tolist() == [1, 1, 1]
    with pytest.raises(UnsupportedError, match=r"does not match the kernel's __mix__\(1, 1\)"):
        launch(body, ratio=(1, 1))
