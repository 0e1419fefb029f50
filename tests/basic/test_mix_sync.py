"""SyncAll and the C API FFTS flags inside mixed cube + vector launches.

Both run the dav-3510 headers' flag sequences (:mod:`ascreg.machine.mixsync`). The results
are checked against :func:`phases_model`, a bulk-synchronous model written from the SyncAll
page (after a barrier every participant sees every participant's writes before it), on random
programs; a missing barrier must be reported as a race and a barrier some core skips as a hang
naming the waiting cores.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import GlobalMemory, GmPtr, int32_t
from ascreg.basic import (
    ASCEND_IS_AIC,
    ASCEND_IS_AIV,
    PIPE_ALL,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_S,
    PIPE_V,
    GetBlockIdx,
    GetSubBlockIdx,
    GlobalTensor,
    LocalMemAllocator,
    SyncAll,
    SyncAllConfig,
)
from ascreg.c_api import (
    asc_sync_block_arrive,
    asc_sync_block_wait,
    asc_sync_inter_arrive,
    asc_sync_inter_wait,
    asc_sync_subblock_arrive,
    asc_sync_subblock_wait,
)
from ascreg.errors import AscregError, AscregTypeError, SyncError, UnsupportedError
from ascreg.machine.cube import __cube__
from ascreg.machine.kernel import __global__, __mix__
from ascreg.machine.mixsync import HARD_STEPS, aiv_only_steps

MIX = [(1, 1), (1, 2)]


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


def place(ratio: tuple[int, int]) -> int:
    """The running core's slot: AI Core * cores per AI Core + (AIC 0, AIVs after it)."""
    aic, aiv = ratio
    if ASCEND_IS_AIC:
        return GetBlockIdx() * (aic + aiv)
    return (GetBlockIdx() // aiv) * (aic + aiv) + aic + GetSubBlockIdx()


def joins(aiv_only: bool) -> bool:
    """Whether the running core takes part in a ``SyncAll<aiv_only>`` (the AICs do for false)."""
    return not aiv_only or bool(ASCEND_IS_AIV)


# -- a bulk-synchronous model ---------------------------------------------------------------------


def phases_model(ratio: tuple[int, int], blocks: int, aiv_only: bool, adds: list[int]) -> Any:
    """What each core holds after the phases: all participants add, meet, sum, meet again."""
    aic, aiv = ratio
    kinds = (["AIC"] * aic + ["AIV"] * aiv) * blocks
    member = np.array([not aiv_only or k == "AIV" for k in kinds])
    slots = np.zeros(len(kinds), np.int64)
    total = np.zeros(len(kinds), np.int64)
    for add in adds:
        slots = np.where(member, total + add + np.arange(len(kinds)), slots)
        total = np.where(member, slots[member].sum(), total)
    return np.where(member, total, 0)


def phases_kernel(ratio: tuple[int, int], aiv_only: bool, adds: list[int]) -> Any:
    def body(out: Any) -> None:
        me = place(ratio)
        total = 0
        cores = (ratio[0] + ratio[1]) * 2
        for add in adds:
            if joins(aiv_only):
                (out + me).write([total + add + me])
            SyncAll[aiv_only]()
            if joins(aiv_only):  # the slots of cores that do not join stay 0
                total = int(np.asarray(out.read(cores), np.int64).sum())
            SyncAll[aiv_only]()  # the next phase's write must follow every read
        if joins(aiv_only):
            (out + 32 + me).write([total])

    return body


@pytest.mark.parametrize("ratio", MIX)
@pytest.mark.parametrize("aiv_only", [False, True])
def test_sync_all_phases_match_the_model(ratio: tuple[int, int], aiv_only: bool) -> None:
    got = launch(phases_kernel(ratio, aiv_only, [3, 5, 7]), blocks=2, ratio=ratio)
    cores = 2 * sum(ratio)
    want = phases_model(ratio, 2, aiv_only, [3, 5, 7])
    assert got[32 : 32 + cores].tolist() == want.tolist()


@settings(max_examples=8, deadline=None, derandomize=True)
@given(
    st.sampled_from(MIX), st.integers(1, 2), st.booleans(),
    st.lists(st.integers(0, 50), min_size=1, max_size=3),
)  # fmt: skip
def test_sync_all_against_the_model(
    ratio: tuple[int, int], blocks: int, aiv_only: bool, adds: list[int]
) -> None:
    got = launch(phases_kernel(ratio, aiv_only, adds), blocks=blocks, ratio=ratio)
    cores = blocks * sum(ratio)
    assert got[32 : 32 + cores].tolist() == phases_model(ratio, blocks, aiv_only, adds).tolist()


def test_the_steps_are_the_headers() -> None:
    """Flag ids 11..14 as the page says SyncAll occupies; AIC waits for both AIVs at 1:2."""
    flags = {s.flag % 16 for steps in HARD_STEPS.values() for s in steps}
    assert flags == {11, 12, 13}
    assert [s.flag for s in HARD_STEPS["1:2", "AIC"] if s.op == "wait" and s.mode == 4] == [12, 28]
    assert [(s.pipe, s.flag) for s in aiv_only_steps(PIPE_MTE2, PIPE_MTE3)] == [
        (PIPE_MTE2, 14),
        (PIPE_MTE3, 14),
    ]


def test_a_config_sync_all_joins_the_aivs() -> None:
    config = SyncAllConfig(PIPE_MTE3, PIPE_MTE2)

    def body(out: Any) -> None:
        if ASCEND_IS_AIV:
            (out + GetBlockIdx()).write([GetBlockIdx() + 1])
        SyncAll[True, config]()
        if ASCEND_IS_AIV:
            (out + 8 + GetBlockIdx()).write([int(out.read(4).sum())])

    assert launch(body, blocks=2)[8:12].tolist() == [10] * 4


# -- misuse the chip would hang on or race ------------------------------------------------------


@pytest.mark.parametrize("ratio", MIX)
def test_a_missing_barrier_is_a_race(ratio: tuple[int, int]) -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIC:
            out.write([7])
        else:
            (out + 1 + GetSubBlockIdx()).write([out.read(1)[0]])  # no SyncAll between

    with pytest.raises(SyncError, match=r"AIV 0 reads __gm__ byte 0x0, which AIC 0 wrote with no"):
        launch(body, ratio=ratio)

    def fixed(out: Any) -> None:
        if ASCEND_IS_AIC:
            out.write([7])
        SyncAll[False]()
        if ASCEND_IS_AIV:
            (out + 1 + GetSubBlockIdx()).write([out.read(1)[0]])

    assert launch(fixed, ratio=ratio)[: 1 + ratio[1]].tolist() == [7] * (1 + ratio[1])


def test_aiv_only_sync_all_does_not_order_the_aic() -> None:
    """The page: SyncAll<true> in a Mix kernel joins the vector cores only."""

    def body(out: Any) -> None:
        if ASCEND_IS_AIC:
            out.write([7])
        SyncAll()
        if ASCEND_IS_AIV:
            (out + 1 + GetSubBlockIdx()).write([out.read(1)[0]])

    with pytest.raises(SyncError, match=r"reads __gm__ byte 0x0, which AIC 0 wrote with no"):
        launch(body)


@pytest.mark.parametrize(
    ("ratio", "skipper", "waiting"),
    [((1, 2), 1, r"AIC 0 waits in SyncAll<false>\(28\) \(mode 4\)"),
     ((1, 1), 0, r"AIC 0 waits in SyncAll<false>\(12\)")],
)  # fmt: skip
def test_a_core_that_skips_sync_all_is_a_hang(
    ratio: tuple[int, int], skipper: int, waiting: str
) -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV and GetSubBlockIdx() == skipper:
            return
        SyncAll[False]()

    with pytest.raises(SyncError, match=waiting + r".*AIV .* already ended.*the launch hangs"):
        launch(body, ratio=ratio)


def test_an_aic_that_skips_sync_all_leaves_the_other_ai_cores_waiting() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIC and GetBlockIdx() == 1:
            return
        SyncAll[False]()

    with pytest.raises(SyncError, match=r"AIC 0 waits in SyncAll<false>\(11\).*AIV 0 waits in"):
        launch(body, blocks=2)


@pytest.mark.parametrize("ratio", [(1, 0), (0, 1)])
def test_sync_all_false_needs_both_kinds_of_core(ratio: tuple[int, int]) -> None:
    with pytest.raises(
        SyncError, match=rf"SyncAll<false> .* a __mix__\({ratio[0]}, {ratio[1]}\) kernel does"
    ):
        launch(lambda out: SyncAll[False](), ratio=ratio)


def test_sync_all_true_in_a_pure_vector_mix_kernel() -> None:
    """The page's recommended spelling of a pure Vector kernel using the hard SyncAll."""

    def body(out: Any) -> None:
        (out + GetBlockIdx()).write([1])
        SyncAll()
        (out + 8 + GetBlockIdx()).write([int(out.read(3).sum())])

    assert launch(body, blocks=3, ratio=(0, 1))[8:11].tolist() == [3, 3, 3]


def test_a_bad_config_pipe_names_the_field() -> None:
    with pytest.raises(AscregTypeError, match=r"SyncAllConfig.waitPipe .* is not PIPE_MTE2"):
        launch(lambda out: SyncAll[True, SyncAllConfig(PIPE_MTE3, PIPE_V)]())


# -- the software SyncAll -----------------------------------------------------------------------


def soft_body(aiv_only: bool, cores: int) -> Any:
    def body(out: Any) -> None:
        sync = GlobalTensor[int32_t]()
        sync.SetGlobalBuffer(out, cores * 8)
        work = LocalMemAllocator().Alloc[int32_t](cores * 8)
        SyncAll[aiv_only](sync, work)
        SyncAll[aiv_only](sync, work)

    return body


def test_the_software_sync_all_of_a_mix_kernel() -> None:
    got = launch(soft_body(False, 4), blocks=2, ratio=(1, 2), slots=32)
    assert got.reshape(4, 8)[:, 0].tolist() == [2, 2, 2, 2]  # the AICs return at once
    got = launch(soft_body(True, 3), blocks=3, ratio=(0, 1), slots=24)
    assert got.reshape(3, 8)[:, 0].tolist() == [2, 2, 2]


def test_the_software_sync_all_rules_in_a_mix_kernel() -> None:
    with pytest.raises(UnsupportedError, match=r"raw block index of an AIV"):
        launch(soft_body(True, 4), blocks=2, ratio=(1, 2), slots=32)
    with pytest.raises(AscregError, match=r"SyncAll needs 4 cores \* 32 bytes = 32 int32_t"):
        launch(soft_body(False, 2), blocks=2, ratio=(1, 2), slots=32)


# -- the C API FFTS flags --------------------------------------------------------------------------


def test_inter_joins_every_core_of_a_kind() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV:
            (out + GetBlockIdx()).write([GetBlockIdx() + 1])
            asc_sync_inter_arrive(PIPE_S, 3)
            asc_sync_inter_wait(PIPE_S, 3)
            (out + 8 + GetBlockIdx()).write([int(out.read(4).sum())])

    assert launch(body, blocks=2)[8:12].tolist() == [10] * 4


def test_block_arrive_goes_between_the_aic_and_its_aivs() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIC:
            out.write([5])
            asc_sync_block_arrive(PIPE_MTE3, 2)  # each AIV of the AI Core gets one
            asc_sync_block_wait(PIPE_S, 4)  # once both AIVs arrived
            out.write([int(out.read(3)[1:].sum())])
        else:
            asc_sync_block_wait(PIPE_S, 2)
            (out + 1 + GetSubBlockIdx()).write([out.read(1)[0] + GetSubBlockIdx()])
            asc_sync_block_arrive(PIPE_S, 4)

    assert launch(body, slots=3).tolist() == [11, 5, 6]


def test_subblock_joins_the_two_aivs() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV:
            (out + GetSubBlockIdx()).write([GetSubBlockIdx() + 2])
            asc_sync_subblock_arrive(PIPE_MTE3, 0)
            asc_sync_subblock_wait(PIPE_S, 0)
            (out + 2 + GetSubBlockIdx()).write([int(out.read(2).prod())])

    assert launch(body, slots=4).tolist() == [2, 3, 6, 6]


def test_a_c_api_wait_nobody_satisfies_is_a_hang() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV and GetSubBlockIdx() == 0:
            asc_sync_subblock_arrive(PIPE_S, 1)  # AIV1 never arrives: no count
            asc_sync_subblock_wait(PIPE_S, 1)

    with pytest.raises(SyncError, match=r"AIV 0 waits in asc_sync_subblock_wait\(1\); no running"):
        launch(body)


def test_a_c_api_race_without_the_wait() -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIC:
            out.write([5])
            asc_sync_block_arrive(PIPE_MTE3, 2)
        else:
            (out + 1 + GetSubBlockIdx()).write([out.read(1)[0]])
            asc_sync_block_wait(PIPE_S, 2)

    with pytest.raises(SyncError, match=r"AIV 0 reads __gm__ byte 0x0, which AIC 0 wrote"):
        launch(body)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: asc_sync_inter_arrive(PIPE_S, 16), AscregError, r"flag_id .*16"),
        (lambda: asc_sync_block_wait(PIPE_S, -1), AscregError, r"flag_id .*-1"),
        (lambda: asc_sync_block_arrive(PIPE_ALL, 1), SyncError, r"PIPE_ALL.* is not a single"),
    ],
)  # fmt: skip
def test_c_api_operand_rules(call: Any, error: type[Exception], message: str) -> None:
    def body(out: Any) -> None:
        if ASCEND_IS_AIV and GetSubBlockIdx() == 0:
            call()

    with pytest.raises(error, match=message):
        launch(body)


def test_sync_all_in_a_cube_kernel() -> None:
    """The header: SyncAll<true> runs on the AIVs only; SyncAll<false> waits for AIVs."""

    @__global__
    @__cube__
    def cube(out: GmPtr[int32_t], aiv_only: bool) -> None:
        (out + GetBlockIdx()).write([1])
        SyncAll[aiv_only]()

    out = GlobalMemory().alloc(int32_t, 2)
    cube[2, 0, None](out, True)
    assert out.read(2).tolist() == [1, 1]
    with pytest.raises(SyncError, match=r"SyncAll<false> makes each AIC wait for its AIVs"):
        cube[2, 0, None](GlobalMemory().alloc(int32_t, 2), False)
