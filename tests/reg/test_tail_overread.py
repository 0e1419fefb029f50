"""Tail over-read: whole-register loads past the end of an allocation, inside UB (issue 25).

An unmasked ``LoadAlign`` whose last bytes run past its allocation but stay inside UB is legal
(rms_norm-style kernels load their tail so); its lanes there hold the UB bytes actually there
and are undefined. Using such a lane in an active lane of a store, a reduction or a scalar read
is an ``UndefinedLaneError``; masking it off (UpdateMask of the element count, Select, a zeroing
op) makes it harmless. Active lanes stored past an allocation stay an ``OutOfBoundsError``
unless ``policy(past_allocation="chip")``. Loads that start outside the allocation, or end past
UB, stay errors.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import ascreg
import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import (
    GlobalMemory,
    GmPtr,
    Ref,
    Reg,
    UbPtr,
    UnifiedBuffer,
    bfloat16_t,
    float32_t,
    half,
    int8_t,
    int16_t,
    uint8_t,
    uint32_t,
)
from ascreg.errors import (
    AscregWarning,
    OutOfBoundsError,
    RacedLaneError,
    SyncError,
    UndefinedLaneError,
)
from ascreg.machine.kernel import __global__, __simd_vf__, __vector__
from ascreg.machine.undefined import undefined_lanes

N = 40
"""Elements of the short buffer (a register holds 64 float32 lanes: 24 lanes past its end)."""
NEIGHBOUR = 7.5


def _buffers() -> tuple[Any, Any]:
    """A 40-float buffer followed in UB by a neighbour holding NEIGHBOUR."""
    ub = UnifiedBuffer()
    x = ub.alloc(float32_t, N)
    x.write(np.arange(N, dtype=np.float32) + 1)
    neighbour = ub.alloc(float32_t, 64)
    neighbour.write(np.full(64, NEIGHBOUR, np.float32))
    return x, neighbour


def _tail_mask() -> Any:
    return Reg.UpdateMask[float32_t](Ref(N))


def test_the_load_is_legal_and_its_tail_lanes_are_the_ub_bytes_there_undefined() -> None:
    x, _ = _buffers()
    r = Reg.RegTensor[float32_t]()
    Reg.LoadAlign(r, x)
    lanes = np.asarray(r)
    assert lanes[:N].tolist() == list(range(1, N + 1))
    assert (lanes[N:] == NEIGHBOUR).all()  # the next allocation's bytes (160 = 5 x 32 bytes)
    assert np.flatnonzero(undefined_lanes(r.get())).tolist() == list(range(N, 64))
    assert "undefined lanes 40-63" in repr(r)


def test_masked_compute_store_and_reduction_use_only_defined_lanes() -> None:
    x, _ = _buffers()
    out = UnifiedBuffer().alloc(float32_t, 64)
    out.write(np.zeros(64, np.float32))
    r, sq, total = (Reg.RegTensor[float32_t]() for _ in range(3))
    mask = _tail_mask()
    Reg.LoadAlign(r, x)
    Reg.Mul(sq, r, r, mask)  # zeroing: the tail lanes become 0, defined
    Reg.StoreAlign(out, sq, Reg.CreateMask[float32_t]())
    assert out.read(N).tolist() == [float(v * v) for v in range(1, N + 1)]
    Reg.ReduceSum(total, r, mask)
    assert float(np.asarray(total)[0]) == sum(range(1, N + 1))
    Reg.Muls(sq, r, 2.0, Reg.CreateMask[float32_t]())  # unmasked: the tail stays undefined
    Reg.StoreAlign(out, sq, mask)  # ... but the store masks it off
    assert out.read(2).tolist() == [2.0, 4.0]


def test_select_with_the_tail_mask_makes_the_tail_defined() -> None:
    x, _ = _buffers()
    r, zeros, picked = (Reg.RegTensor[float32_t]() for _ in range(3))
    Reg.LoadAlign(r, x)
    Reg.Duplicate(zeros, 0.0)
    Reg.Select(picked, r, zeros, _tail_mask())
    assert not undefined_lanes(picked.get()).any()


@pytest.mark.parametrize("use", ["store", "reduction", "interleaved store", "unaligned store"])
def test_an_active_undefined_lane_is_an_error(use: str) -> None:
    x, _ = _buffers()
    out = UnifiedBuffer().alloc(float32_t, 128)
    r, y = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    everything = Reg.CreateMask[float32_t]()
    Reg.LoadAlign(r, x)
    Reg.Adds(y, r, 1.0, everything)  # computed from undefined lanes: undefined
    with pytest.raises(UndefinedLaneError, match=r"uses lane 40, which is undefined \(loaded"):
        if use == "store":
            Reg.StoreAlign(out, y, everything)
        elif use == "reduction":
            Reg.ReduceSum(Reg.RegTensor[float32_t](), y, everything)
        elif use == "interleaved store":
            Reg.StoreAlign[float32_t, Reg.StoreDist.DIST_INTLV_B32](out, r, r, everything)
        else:
            Reg.StoreUnAlign(Ref(out + 1), y, Reg.UnalignRegForStore(), 64)


def test_the_error_names_the_call_and_warns_under_the_policy() -> None:
    x, _ = _buffers()
    out = UnifiedBuffer().alloc(float32_t, 64)
    r = Reg.RegTensor[float32_t]()
    Reg.LoadAlign(r, x)
    with pytest.raises(UndefinedLaneError, match=r"^Reg.StoreAlign: a store uses lane 40"):
        Reg.StoreAlign(out, r, Reg.CreateMask[float32_t]())
    with ascreg.policy(undefined="warn"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Reg.StoreAlign(out, r, Reg.CreateMask[float32_t]())
    assert any(issubclass(w.category, AscregWarning) for w in caught)
    assert out.read(64)[N:].tolist() == np.asarray(r)[N:].tolist()  # stored as the chip would


def test_a_scalar_read_of_an_undefined_lane_is_an_error() -> None:
    x, _ = _buffers()
    r, shifted, dup = (Reg.RegTensor[float32_t]() for _ in range(3))
    idx = Reg.RegTensor[uint32_t]()
    Reg.LoadAlign(r, x)
    idx.set(np.arange(64, dtype=np.uint32)[::-1])  # lane 0 takes lane 63
    Reg.Gather(shifted, r, idx)
    with pytest.raises(UndefinedLaneError, match="a scalar read"):
        Reg.Duplicate(dup, shifted, Reg.CreateMask[float32_t]())


def test_active_lanes_stored_past_the_allocation_follow_the_policy() -> None:
    ub = UnifiedBuffer()
    out = ub.alloc(float32_t, N)
    neighbour = ub.alloc(float32_t, 64)
    neighbour.write(np.full(64, NEIGHBOUR, np.float32))
    r = Reg.RegTensor[float32_t]()
    r.set(np.arange(64))
    everything = Reg.CreateMask[float32_t]()
    with pytest.raises(OutOfBoundsError, match="leaves the allocation"):
        Reg.StoreAlign(out, r, everything)
    Reg.StoreAlign(out, r, _tail_mask())  # masked-off lanes past the end are never written
    assert neighbour.read(1).tolist() == [NEIGHBOUR]
    with ascreg.policy(past_allocation="chip"):
        Reg.StoreAlign(out, r, everything)
    assert neighbour.read(24).tolist() == list(range(N, 64))  # the chip overwrites it


def test_loads_starting_outside_or_ending_past_ub_stay_errors() -> None:
    ub = UnifiedBuffer()
    x = ub.alloc(float32_t, 8)
    r = Reg.RegTensor[float32_t]()
    with pytest.raises(OutOfBoundsError):
        Reg.LoadAlign(r, x + 64)  # starts past the allocation
    last = UnifiedBuffer(capacity=256 + 64).alloc(float32_t, 80)
    with pytest.raises(OutOfBoundsError, match="leaves the allocation"):
        Reg.LoadAlign(r, last + 32)  # runs past the end of UB


def test_the_c_api_loads_the_tail_too() -> None:
    x, _ = _buffers()
    out = UnifiedBuffer().alloc(float32_t, 64)
    v = C.vector_float()
    C.asc_loadalign(v, x)
    count = Ref(N)
    mask = C.asc_update_mask_b32(count)
    C.asc_storealign(out, v, mask)
    assert out.read(N).tolist() == list(range(1, N + 1))
    with pytest.raises(UndefinedLaneError, match="asc_storealign"):
        C.asc_storealign(out, v, C.asc_create_mask_b32(C.PAT_ALL))


TOTAL = 200
"""Elements of the kernel below: three whole registers and a tail of 8."""


@__simd_vf__
def _square_vf(dst: UbPtr[float32_t], src: UbPtr[float32_t], sums: UbPtr[float32_t]) -> None:
    count = Ref(TOTAL)
    x, y, acc = (Reg.RegTensor[float32_t]() for _ in range(3))
    Reg.Duplicate(acc, 0.0)
    for i in range((TOTAL + 63) // 64):
        mask = Reg.UpdateMask[float32_t](count)
        Reg.LoadAlign(x, src + i * 64)  # the last one reads 56 lanes past the buffer
        Reg.Mul(y, x, x, mask)
        Reg.Add(acc, acc, y, Reg.CreateMask[float32_t]())
        Reg.StoreAlign(dst + i * 64, y, mask)
    total = Reg.RegTensor[float32_t]()
    Reg.ReduceSum(total, acc, Reg.CreateMask[float32_t]())
    first = Reg.StoreDist.DIST_FIRST_ELEMENT_B32
    Reg.StoreAlign[float32_t, first](sums, total, Reg.CreateMask[float32_t]())


@__global__
@__vector__
def _square(out: GmPtr[float32_t], x: GmPtr[float32_t], sums: GmPtr[float32_t]) -> None:
    src = C.__ubuf__(float32_t, TOTAL)
    dst = C.__ubuf__(float32_t, TOTAL)
    total = C.__ubuf__(float32_t, 8)
    C.asc_copy_gm2ub_align(src, x, TOTAL * 4)
    C.asc_sync()
    C.asc_vf_call[_square_vf](dst, src, total)
    C.asc_sync()
    C.asc_copy_ub2gm_align(out, dst, TOTAL * 4)
    C.asc_copy_ub2gm_align(sums, total, 1, 4, 0, 0, 0)  # one 4-byte burst


def test_a_kernel_loop_over_reading_its_tail_runs() -> None:
    """The rms_norm pattern in a VF loop (batched where it can be): right results, no error."""
    gm = GlobalMemory()
    x, out, sums = gm.alloc(float32_t, TOTAL), gm.alloc(float32_t, TOTAL), gm.alloc(float32_t, 1)
    values = (np.arange(TOTAL, dtype=np.float32) % 7) - 3
    x.write(values)
    _square[1, 0, None](out, x, sums)
    assert out.read(TOTAL).tolist() == (values * values).tolist()
    assert float(sums.read(1)[0]) == float((values * values).sum())


@__simd_vf__
def _double_vf(dst: UbPtr[float32_t], src: UbPtr[float32_t]) -> None:
    count = Ref(TOTAL)
    x = Reg.RegTensor[float32_t]()
    for i in range((TOTAL + 63) // 64):
        mask = Reg.UpdateMask[float32_t](count)
        Reg.LoadAlign(x, src + i * 64)  # the last one reads 56 lanes of the spare buffer
        Reg.Muls(x, x, 2.0, mask)
        Reg.StoreAlign(dst + i * 64, x, mask)


@__global__
@__vector__
def _double_then_refill(out: GmPtr[float32_t], x: GmPtr[float32_t]) -> None:
    src = C.__ubuf__(float32_t, TOTAL)
    spare = C.__ubuf__(float32_t, 64)  # right after src: the over-read lands here
    dst = C.__ubuf__(float32_t, TOTAL)
    C.asc_copy_gm2ub_align(src, x, TOTAL * 4)
    C.asc_copy_gm2ub_align(spare, x, 64 * 4)
    C.asc_sync()
    C.asc_vf_call[_double_vf](dst, src)
    # PIPE_MTE2 refills the spare buffer with no PIPE_V -> PIPE_MTE2 flag: the VF read none of
    # its bytes that the kernel uses (the over-read lanes are masked off)
    C.asc_copy_gm2ub_align(spare, x + 64, 64 * 4)
    C.asc_sync()
    C.asc_copy_ub2gm_align(out, dst, TOTAL * 4)


@pytest.mark.parametrize("execution", ["batched", "eager"])
def test_the_pipe_checks_see_an_over_read_up_to_the_allocation_end(
    execution: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A batched loop reports each row's bytes up to its allocation's end, as eager order does
    (it reported whole rows: the refill of the buffer after was a false V -> MTE2 race)."""
    gm = GlobalMemory()
    x, out = gm.alloc(float32_t, TOTAL), gm.alloc(float32_t, TOTAL)
    values = np.arange(TOTAL, dtype=np.float32) - 50
    x.write(values)
    with ascreg.policy(execution=execution), caplog.at_level("DEBUG", logger="ascreg.batch"):
        _double_then_refill[1, 0, None](out, x)
    assert out.read(TOTAL).tolist() == (values * 2).tolist()
    batched = any("batched over" in record.getMessage() for record in caplog.records)
    assert batched == (execution == "batched")


# -- loads of bytes the VF stored with no barrier between ---------------------------------------


@C.__simd_vf__
def _store_then_reload(buf: UbPtr[uint32_t], out: UbPtr[uint32_t], used: int) -> None:
    """Store lanes 64-127 of *buf*, then load lanes 32-95 back with no barrier between."""
    r, everything = C.vector_uint32_t(), C.asc_create_mask_b32(C.PAT_ALL)
    C.asc_loadalign(r, buf)
    C.asc_storealign(buf + 64, r, everything)
    C.asc_loadalign(r, buf + 32)  # lanes 32-63 read what the store above wrote: unordered
    count = Ref(used)
    C.asc_storealign(out, r, C.asc_update_mask_b32(count))


@__global__
@__vector__
def _reload(out: GmPtr[uint32_t], used: int) -> None:
    buf, kept = C.__ubuf__(uint32_t, 128), C.__ubuf__(uint32_t, 64)
    buf.write(np.arange(128))
    C.asc_sync()
    C.asc_vf_call[_store_then_reload](buf, kept, used)
    C.asc_sync()
    C.asc_copy_ub2gm_align(out, kept, 32 * 4)


def test_a_load_of_bytes_the_vf_stored_unordered_gives_undefined_lanes() -> None:
    """The chip may run the load before the store: those lanes are undefined, not an error.

    The production softmax_v2's binary fold loads a row's tail whole past the row into the
    scratch its partial sums are being stored to, and masks those lanes off.
    """
    out = GlobalMemory().alloc(uint32_t, 32)
    _reload[1, 0, None](out, 32)  # the raced lanes masked off: runs, lanes 32-63 of buf
    assert out.read(32).tolist() == list(range(32, 64))
    with pytest.raises(RacedLaneError) as caught:
        _reload[1, 0, None](out, 33)  # lane 32 read a byte stored with no barrier: used
    message = str(caught.value)
    assert isinstance(caught.value, SyncError) and isinstance(caught.value, UndefinedLaneError)
    for part in ("asc_storealign: a store uses lane 32", "after storing byte 0x100", "asc_mem_bar(VST_VLD)"):  # fmt: skip
        assert part in message, message


EXACT, RINT = Reg.RoundMode.UNKNOWN, Reg.RoundMode.CAST_RINT


@pytest.mark.parametrize(
    ("dst", "src", "rounding"),
    [
        (float32_t, half, EXACT),
        (int8_t, half, RINT),
        (half, float32_t, RINT),
        (half, int16_t, RINT),
        (float32_t, bfloat16_t, EXACT),
        (half, uint8_t, EXACT),
    ],
)
def test_a_cast_keeps_the_undefined_lanes(dst: Any, src: Any, rounding: Any) -> None:
    """Undefined in, undefined out: through the table of every code's result that casts of 8-
    and 16-bit sources go by, and through a narrowing's placement (both once gave plain lanes,
    and a store of garbage lanes went unreported)."""
    ub = UnifiedBuffer()
    count = 256 // src.size - 8  # the last 8 lanes lie past the allocation
    x = ub.alloc(src, count)
    x.write(np.arange(count) % 100)
    ub.alloc(src, 256 // src.size).write(np.zeros(256 // src.size, dtype=np.int64))
    r, y = Reg.RegTensor[src](), Reg.RegTensor[dst]()
    Reg.LoadAlign(r, x)
    layout = Reg.RegLayout.ZERO if dst.size != src.size else Reg.RegLayout.UNKNOWN
    trait = Reg.CastTrait(layout, Reg.SatMode.NO_SAT, Reg.MaskMergeMode.ZEROING, rounding)
    Reg.Cast[dst, src, trait](y, r, Reg.CreateMask[src]())
    assert undefined_lanes(y.get()).any()
    with pytest.raises(UndefinedLaneError, match="past the end"):
        Reg.StoreAlign(ub.alloc(dst, 256 // dst.size), y, Reg.CreateMask[dst]())
