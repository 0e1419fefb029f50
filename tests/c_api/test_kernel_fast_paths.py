"""The kernel runtime's fast paths: same results and same errors as the fully checked path.

A GM <-> UB copy remembers a form (pointer classes, element types, burst) whose checks passed
and then checks only the addresses; a one-burst copy skips the burst loop; a flag with two
pipes and an ``int`` id checks them with one lookup; the pipe tracker skips the records of the
copy being made and recomputes only the floors whose clocks rose. Each test makes the error
once with the form already cached and once with the cache empty, and compares the messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

import numpy as np
import pytest

import ascreg
import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, Reg, UbPtr, int16_t, uint8_t, uint16_t
from ascreg.c_api import kernel as c_kernel
from ascreg.engine import batch
from ascreg.errors import AlignmentError, AscregError, OutOfBoundsError, SyncError
from ascreg.machine import mte
from ascreg.machine.block import current_block
from ascreg.machine.sync import Pipe, PipeTracker
from helpers import launch

GM = GlobalMemory().alloc(uint16_t, 256)


def _cached_then(body: Callable[[], None], error: type[Exception], match: str) -> None:
    """Raise *error* from *body* both with its copy form cached and with the cache empty."""
    messages = []
    for cached in (True, False):
        mte._FORMS.clear()
        c_kernel._PLAIN_FORMS.clear()

        def kernel(cached: bool = cached) -> None:
            warm, out = C.__ubuf__(uint16_t, 256), C.__ubuf__(uint16_t, 256)  # same UB layout
            if cached:
                C.asc_copy_gm2ub_align(warm, GM, 64)
                C.asc_sync()
                out.write(np.zeros(256, np.uint16))
                C.asc_sync()
                C.asc_copy_ub2gm_align(GM + 128, out, 64)
                C.asc_sync()
                assert len(mte._FORMS) == len(c_kernel._PLAIN_FORMS) == 2  # both forms cached
            body()

        with pytest.raises(error) as caught:
            launch(kernel)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert match in messages[0], messages[0]


def test_a_cached_copy_form_still_checks_alignment() -> None:
    def misaligned_ub() -> None:
        C.asc_copy_gm2ub_align(C.__ubuf__(uint16_t, 256) + 1, GM, 64)

    _cached_then(misaligned_ub, AlignmentError, "not 32-byte aligned")

    def misaligned_gm() -> None:
        src = GM.cast(uint8_t).offset_bytes(1).cast(uint16_t)
        C.asc_copy_gm2ub_align(C.__ubuf__(uint16_t, 256), src, 64)

    _cached_then(misaligned_gm, AlignmentError, "not 2-byte aligned")

    def misaligned_out() -> None:
        buf = C.__ubuf__(uint16_t, 256)
        buf.write(np.zeros(256, np.uint16))
        C.asc_sync()
        C.asc_copy_ub2gm_align(GM.cast(uint8_t).offset_bytes(1).cast(uint16_t), buf, 64)

    _cached_then(misaligned_out, AlignmentError, "not 2-byte aligned")


def test_a_cached_copy_form_still_checks_bounds() -> None:
    def past_ub() -> None:
        C.asc_copy_gm2ub_align(C.__ubuf__(uint16_t, 256) + 240, GM, 64)

    _cached_then(past_ub, OutOfBoundsError, "leaves the allocation")

    def past_gm() -> None:
        C.asc_copy_gm2ub_align(C.__ubuf__(uint16_t, 256), GM + 240, 64)

    _cached_then(past_gm, OutOfBoundsError, "reads 64 bytes")

    def past_gm_out() -> None:
        buf = C.__ubuf__(uint16_t, 256)
        buf.write(np.zeros(256, np.uint16))
        C.asc_sync()
        C.asc_copy_ub2gm_align(GM + 240, buf, 64)

    _cached_then(past_gm_out, OutOfBoundsError, "writes 64 bytes")


def test_a_cached_copy_form_still_checks_hazards() -> None:
    def two_copies_in() -> None:  # two MTE2 copies writing the same UB bytes, unordered
        buf = C.__ubuf__(uint16_t, 256)
        C.asc_copy_gm2ub_align(buf, GM, 64)
        C.asc_copy_gm2ub_align(buf, GM + 64, 64)

    _cached_then(two_copies_in, SyncError, "copies on one pipe may overlap")

    def copy_out_unsynced() -> None:  # MTE3 reads what MTE2 wrote, no flag between
        buf = C.__ubuf__(uint16_t, 256)
        C.asc_copy_gm2ub_align(buf, GM, 64)
        C.asc_copy_ub2gm_align(GM + 128, buf, 64)

    _cached_then(copy_out_unsynced, SyncError, "PIPE_MTE3 reads UB")

    def gm_overwritten() -> None:  # MTE3 writes GM an unfinished MTE2 copy reads
        buf, out = C.__ubuf__(uint16_t, 256), C.__ubuf__(uint16_t, 256)
        out.write(np.zeros(256, np.uint16))
        C.asc_sync()
        C.asc_copy_gm2ub_align(buf, GM, 64)
        C.asc_copy_ub2gm_align(GM, out, 64)

    _cached_then(gm_overwritten, SyncError, "PIPE_MTE3 writes GM")

    def unwritten_copy_out() -> None:
        C.asc_copy_ub2gm_align(GM, C.__ubuf__(uint16_t, 256), 64)

    _cached_then(unwritten_copy_out, AscregError, "was not written before")


def test_a_burst_form_with_a_bad_stride_is_never_cached() -> None:
    def bad_stride() -> None:
        buf = C.__ubuf__(uint16_t, 256)
        C.asc_copy_gm2ub_align(buf, GM, 2, 32, 0, 0, False, 0, 64, 40)

    for _ in range(2):
        with pytest.raises(AscregError, match="dst_stride 40 differs from len_burst"):
            launch(bad_stride)


def test_one_burst_and_padded_copies_move_the_same_bytes() -> None:
    gm = GlobalMemory().alloc(uint16_t, 64)
    gm.write(np.arange(1, 65))
    out = GlobalMemory().alloc(uint16_t, 64)

    def body() -> None:
        plain, padded = C.__ubuf__(uint16_t, 64), C.__ubuf__(uint16_t, 64)
        C.asc_copy_gm2ub_align(plain, gm, 64)  # one burst: the direct path
        C.asc_copy_gm2ub_align(padded, gm, 1, 60, 0, 2, True, 0, 0, 0)  # padded: the loop
        C.asc_sync()
        C.asc_copy_ub2gm_align(out, plain, 64)
        C.asc_copy_ub2gm_align(out + 32, padded, 1, 64, 0, 0, 0)
        C.asc_sync()

    launch(body)
    assert out.read(32).tolist() == list(range(1, 33))
    assert out.read(64)[32:].tolist() == [*range(1, 31), 0, 0]


@pytest.mark.parametrize(
    ("src", "dst", "event", "match"),
    [
        (5, Pipe.PIPE_V, 0, "5 is not a single pipe"),
        (Pipe.PIPE_MTE2, 2, 0, "2 is not a single pipe"),
        (Pipe.PIPE_V, Pipe.PIPE_V, 0, "to itself"),
        (Pipe.PIPE_MTE2, Pipe.PIPE_V, 8, "event id 8"),
        (Pipe.PIPE_MTE2, Pipe.PIPE_V, np.int64(1), "event id np.int64(1) is outside"),
        (Pipe.PIPE_ALL, Pipe.PIPE_V, 0, "is not a single pipe"),
    ],
)
def test_flags_the_one_lookup_check_refuses_are_checked_in_full(
    src: object, dst: object, event: object, match: str
) -> None:
    for action in (PipeTracker().notify, PipeTracker().wait):
        with pytest.raises(SyncError, match=re.escape(match)):
            action(src, dst, event)  # type: ignore[arg-type]


def test_a_bool_event_id_is_accepted_as_before() -> None:
    tracker = PipeTracker()
    tracker.notify(Pipe.PIPE_MTE2, Pipe.PIPE_V, True)  # type: ignore[arg-type]
    tracker.wait(Pipe.PIPE_MTE2, Pipe.PIPE_V, 1)


def test_floors_rise_only_when_every_watcher_is_past_them() -> None:
    tracker = PipeTracker()
    tracker.access(Pipe.PIPE_MTE2, 0, 64, write=True)
    for dst in (Pipe.PIPE_V, Pipe.PIPE_MTE3):
        tracker.notify(Pipe.PIPE_MTE2, dst, 0)
        tracker.wait(Pipe.PIPE_MTE2, dst, 0)
        assert tracker.floor[Pipe.PIPE_MTE2] == 0  # PIPE_S (and MTE2 itself) not yet past
        assert tracker.records
    tracker.notify(Pipe.PIPE_MTE2, Pipe.PIPE_S, 0)
    tracker.wait(Pipe.PIPE_MTE2, Pipe.PIPE_S, 0)
    assert tracker.floor[Pipe.PIPE_MTE2] == 0  # MTE2 has not ordered its own copy yet
    tracker.pipe_barrier(Pipe.PIPE_MTE2)
    assert tracker.floor[Pipe.PIPE_MTE2] == 1
    assert tracker.records == []


def test_a_vf_return_orders_v_for_the_scalar_unit_before_the_next_prune() -> None:
    tracker = PipeTracker()
    tracker.access(Pipe.PIPE_V, 0, 64, write=True)
    tracker.complete(Pipe.PIPE_V, Pipe.PIPE_S)  # no prune here: the next one sees it
    for dst in (Pipe.PIPE_MTE2, Pipe.PIPE_MTE3):
        tracker.notify(Pipe.PIPE_V, dst, 0)
        tracker.wait(Pipe.PIPE_V, dst, 0)
    assert tracker.records == []


# -- known plain copy forms ----------------------------------------------------------------------


def test_a_cached_copy_form_still_checks_freed_and_ended_memory() -> None:
    freed = GlobalMemory().alloc(uint16_t, 256)
    freed.memory.free(freed)

    def from_freed() -> None:
        C.asc_copy_gm2ub_align(C.__ubuf__(uint16_t, 256), freed, 64)

    _cached_then(from_freed, OutOfBoundsError, "which was freed")
    ended: list[object] = []
    launch(lambda: ended.append(C.__ubuf__(uint16_t, 256)))

    def into_ended() -> None:
        C.asc_copy_gm2ub_align(ended[0], GM, 64)

    _cached_then(into_ended, AscregError, "which has ended")


def _loops_and_atomics(dst: object, src: object) -> None:
    """Copies whose plain forms are cached first, then made under loop registers and atomics."""
    buf = C.__ubuf__(int16_t, 64)
    C.asc_copy_gm2ub_align(buf, src, 32)
    C.asc_sync()
    C.asc_set_gm2ub_loop_size(2, 1)  # two copies of 32 bytes, 32 bytes apart on both sides
    C.asc_set_gm2ub_loop1_stride(32, 32)
    C.asc_copy_gm2ub_align(buf, src, 32)
    C.asc_set_gm2ub_loop_size(1, 1)
    C.asc_sync()
    C.asc_copy_ub2gm_align(dst, buf, 64)
    C.asc_sync()
    C.asc_set_atomic_add_int16()
    C.asc_copy_ub2gm_align(dst, buf, 64)
    C.asc_set_atomic_none()
    C.asc_sync()


@pytest.mark.parametrize("cached", [False, True])
def test_a_cached_plain_form_repeats_under_loop_registers_and_merges_atomics(
    cached: bool,
) -> None:
    src, dst = GlobalMemory().alloc(int16_t, 64), GlobalMemory().alloc(int16_t, 64)
    src.write(np.arange(64, dtype=np.int16))
    c_kernel._PLAIN_FORMS.clear()
    if cached:
        launch(_loops_and_atomics, dst, src)
        assert len(c_kernel._PLAIN_FORMS) == 2
    dst.write(np.zeros(64, np.int16))
    launch(_loops_and_atomics, dst, src)
    assert dst.read(32).tolist() == [2 * k for k in range(32)]


def test_only_plain_int_bursts_are_plain() -> None:
    assert mte.Burst(1, 64).plain
    assert not mte.Burst(2, 64, 64, 64).plain
    assert not mte.Burst(1, 64, left_pad=1).plain
    assert not mte.Burst(True, 64).plain
    assert not mte.Burst(1, 60, fill_to_block=True).plain
    assert mte.Burst(1, 64, fill_to_block=True).plain
    assert mte.Burst(1, 64) == mte.Burst(1, 64, pad_value=None) and "plain" not in repr(
        mte.Burst(1, 64)
    )


# -- VF calls and the aggregate report of a batched loop -----------------------------------------

L16 = 128


@C.__simd_vf__
def _load_store(dst: UbPtr[uint16_t], src: UbPtr[uint16_t]) -> None:
    r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
    for i in range(4):
        Reg.LoadAlign(r, src + i * L16)
        Reg.StoreAlign(dst + i * L16, r, full)


@C.__simd_vf__
def _load_load(dst: UbPtr[uint16_t], src: UbPtr[uint16_t]) -> None:
    """The same rows as :func:`_load_store` (shared arrays), loads only."""
    r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
    for i in range(4):
        Reg.LoadAlign(r, src + i * L16)
        Reg.LoadAlign(r, dst + i * L16)
        Reg.StoreAlign(src + i * L16, r, full)


def _records_after_vfs(forget: bool) -> list[tuple[object, ...]]:
    """The tracker's records after VF calls (forget: drop the report plans before each)."""
    seen: list[tuple[object, ...]] = []

    def kernel() -> None:
        src, dst = C.__ubuf__(uint16_t, 4 * L16), C.__ubuf__(uint16_t, 4 * L16)
        src.write(np.arange(4 * L16))
        dst.write(np.zeros(4 * L16, np.uint16))
        C.asc_sync()
        for vf in (_load_store, _load_store, _load_load, _load_store):
            if forget:
                batch._PLANS.clear()
            C.asc_vf_call[vf](dst, src)
            C.asc_sync_notify(C.PIPE_V, C.PIPE_S, C.EVENT_ID0)  # the records stay (MTE2 lags)
            C.asc_sync_wait(C.PIPE_V, C.PIPE_S, C.EVENT_ID0)
        records = current_block().tracker.records
        seen.extend((r.pipe, r.start, r.end, r.write, r.seq, r.order) for r in records)

    launch(kernel)
    return seen


def test_a_kept_report_plan_gives_the_records_of_a_new_one() -> None:
    assert _records_after_vfs(forget=False) == _records_after_vfs(forget=True) != []
    assert batch._PLANS


def _loop_then_copy(write: bool) -> None:
    src, dst = C.__ubuf__(uint16_t, 4 * L16), C.__ubuf__(uint16_t, 4 * L16)
    src.write(np.arange(4 * L16))
    C.asc_sync()
    C.asc_vf_call[_load_store](dst, src)
    if write:
        C.asc_copy_gm2ub_align(src + 16, GM, 64)  # V read these bytes; MTE2 did not wait
    else:
        C.asc_copy_ub2gm_align(GM + 128, src + 16, 64)  # a read after V's read: no hazard


@pytest.mark.parametrize("execution", ["batched", "eager"])
def test_a_batched_loop_record_conflicts_only_through_its_writes(
    execution: Literal["batched", "eager"],
) -> None:
    with ascreg.policy(execution=execution):
        launch(_loop_then_copy, False)
        with pytest.raises(SyncError) as caught:
            launch(_loop_then_copy, True)
    assert "PIPE_MTE2 writes UB [0x20, 0x60) that PIPE_V read (overlap [0x20, 0x60))" in str(
        caught.value
    )


@C.__simd_vf__
def _store_then_load(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], barrier: bool) -> None:
    r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
    for i in range(4):
        Reg.LoadAlign(r, src + i * L16)
        Reg.StoreAlign(dst + i * L16, r, full)
    if barrier:
        C.asc_mem_bar(C.VST_VLD)
    Reg.LoadAlign(r, dst + 2 * L16)
    Reg.StoreAlign(src, r, full)  # uses what the load read (unused, it is harmless)


@pytest.mark.parametrize("barrier", [False, True])
def test_a_load_after_a_batched_store_in_the_same_vf_needs_a_barrier(barrier: bool) -> None:
    def kernel() -> None:
        src, dst = C.__ubuf__(uint16_t, 4 * L16), C.__ubuf__(uint16_t, 4 * L16)
        src.write(np.arange(4 * L16))
        C.asc_sync()
        C.asc_vf_call[_store_then_load](dst, src, barrier)

    messages = []
    for execution in ("batched", "eager"):
        with ascreg.policy(execution=execution):
            try:
                launch(kernel)
                messages.append("")
            except SyncError as error:
                messages.append(str(error))
    assert messages[0] == messages[1]
    assert ("after storing byte 0x600" in messages[0]) != barrier, messages


def test_asc_vf_call_is_made_once_per_function() -> None:
    assert C.asc_vf_call[_load_store] is C.asc_vf_call[_load_store]
    with pytest.raises(AscregError, match=r"\[1\] is not a __simd_vf__ function"):
        launch(lambda: C.asc_vf_call[[1]]())  # type: ignore[index]
