"""Recorded plans: a batched loop (or a whole VF) called again replays its recorded op calls.

Every scenario calls the same VF object several times, with new data, other counts, other
buffers, and compares each call with the same call under ``execution="eager"``: UB bytes,
returned registers and error messages. The ``ascreg.batch`` log says what ran: a batched
body, a recorded plan of the loop, or a recorded plan of the whole VF.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import numpy as np
import pytest

import ascreg
from ascreg import (
    CMPMODE,
    Ref,
    Reg,
    StoreDist,
    UbPtr,
    UnifiedBuffer,
    float32_t,
    half,
    int16_t,
    uint16_t,
)
from ascreg.basic import __VEC_SCOPE__
from ascreg.c_api import (
    EVENT_ID0,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __global__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_sync_notify,
    asc_sync_wait,
    asc_vf_call,
)
from ascreg.engine import loops
from ascreg.machine.kernel import __aicore__
from ascreg.machine.template import template

L16 = 128
SHIFT = 3
"""A module name the VFs below read (a test changes it between calls)."""


@ascreg.__simd_vf__
def select_shift(
    dst: UbPtr[uint16_t], a: UbPtr[uint16_t], b: UbPtr[uint16_t], s: UbPtr[int16_t], count: int
) -> None:
    """The benchmark's VF: a prologue and one loop, so a plan replays it whole."""
    ra, rb, rs = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t](), Reg.RegTensor[int16_t]()
    sel, out, gt = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t](), Reg.MaskReg()
    remaining = Ref(count)
    for i in range(-(-count // L16)):
        mask = Reg.UpdateMask[uint16_t](remaining)
        offset = i * L16
        Reg.LoadAlign(ra, a + offset)
        Reg.LoadAlign(rb, b + offset)
        Reg.LoadAlign(rs, s + offset)
        Reg.Compare[uint16_t, CMPMODE.GT](gt, ra, rb, mask)
        Reg.Select(sel, ra, rb, gt)
        Reg.ShiftRight(out, sel, rs, mask)
        Reg.StoreAlign(dst + offset, out, mask)


@ascreg.__simd_vf__
def shift_and_keep(dst: UbPtr[uint16_t], a: UbPtr[uint16_t], count: int) -> Any:
    """A loop whose registers, mask and count the function returns (no whole replay)."""
    x, y = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t]()
    remaining = Ref(count)
    for i in range(-(-count // L16)):
        mask = Reg.UpdateMask[uint16_t](remaining)
        Reg.LoadAlign(x, a + i * L16)
        Reg.ShiftRights(y, x, SHIFT, mask)
        Reg.StoreAlign(dst + i * L16, y, mask)
    return x, y, mask, remaining.value


def calls(
    vf_calls: list[Callable[[], Any]], caplog: pytest.LogCaptureFixture
) -> tuple[list[Any], list[str]]:
    """Run each call batched (in order, on the same VF), then again eagerly; compare each.

    Returns the batched results (or error texts) and the batch log lines.
    """
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="ascreg.batch"):
        batched = [_outcome(call) for call in vf_calls]
    lines = [r.getMessage() for r in caplog.records if r.name == "ascreg.batch"]
    with ascreg.policy(execution="eager"):
        eager = [_outcome(call) for call in vf_calls]
    for k, (mine, theirs) in enumerate(zip(batched, eager, strict=True)):
        assert _same(mine, theirs), f"call {k} differs from its eager run"
    return batched, lines


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except ascreg.errors.AscregError as exc:
        return f"{type(exc).__name__}: {exc}"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, np.ndarray | Reg.RegTensor | Reg.MaskReg):
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    return bool(a == b)


def ran(lines: list[str], what: str) -> int:
    """Return how many loops the log says ran as *what* (``body``, ``loop``, ``whole``)."""
    endings = {
        "body": "iterations",
        "loop": "iterations (a recorded plan)",
        "whole": "iterations (a recorded plan of the whole VF)",
    }
    return sum(line.endswith(endings[what]) and "batched over" in line for line in lines)


class Tile:
    """Buffers of one UnifiedBuffer for :func:`select_shift`, allocated once."""

    def __init__(self, ub: UnifiedBuffer | None = None, capacity: int = 2048) -> None:
        ub = UnifiedBuffer() if ub is None else ub
        self.a, self.b, self.d = (ub.alloc(uint16_t, capacity) for _ in range(3))
        self.s = ub.alloc(int16_t, capacity)
        self.capacity = capacity

    def call(self, count: int, seed: int, *, shifts: int = 18) -> Callable[[], Any]:
        """Return a call on fresh data (a negative *shifts*: some counts are negative)."""
        rng = np.random.default_rng(seed)
        size = self.capacity
        values = [rng.integers(0, 1 << 16, size) for _ in range(2)]
        counts = rng.integers(-1 if shifts < 0 else 0, abs(shifts), size)

        def call() -> Any:
            self.d.write(np.zeros(size, np.int64))
            self.a.write(values[0])
            self.b.write(values[1])
            self.s.write(counts)
            select_shift(self.d, self.a, self.b, self.s, count)
            return self.d.read(size)

        return call


def test_a_whole_vf_replays_on_new_data(caplog: pytest.LogCaptureFixture) -> None:
    tile = Tile()
    _, lines = calls([tile.call(1000, seed) for seed in range(4)], caplog)
    assert ran(lines, "body") <= 1 and ran(lines, "whole") >= 3


def test_other_counts_record_their_own_plans(caplog: pytest.LogCaptureFixture) -> None:
    tile = Tile()
    full, tail = tile.call(1024, 2), tile.call(1000, 3)
    _, lines = calls([full, tail, full, tail, full], caplog)
    assert ran(lines, "whole") >= 3


def test_plans_move_to_new_memory_at_the_same_addresses(caplog: pytest.LogCaptureFixture) -> None:
    """A new UnifiedBuffer with the same allocations replays; another layout records anew."""
    calls([Tile().call(900, 4)], caplog)
    _, lines = calls([Tile().call(900, seed) for seed in (5, 6)], caplog)
    assert ran(lines, "body") == 0 and ran(lines, "whole") == 2
    _, lines = calls([Tile(capacity=1024).call(900, 7)], caplog)
    assert ran(lines, "body") == 1  # other allocation bounds: not the same call


def test_a_replay_that_fails_raises_the_eager_error(caplog: pytest.LogCaptureFixture) -> None:
    """A negative shift count in a later call's data: that call's eager error; then replays."""
    tile = Tile()
    good, bad = tile.call(1000, 8), tile.call(1000, 9, shifts=-18)
    results, lines = calls([good, good, bad, good], caplog)
    assert isinstance(results[2], str) and "NegativeShiftError" in results[2]
    assert "its plan is not replayed" in " ".join(lines)
    assert lines[-1].endswith("(a recorded plan of the whole VF)")


def test_a_loop_plan_leaves_the_last_iteration(caplog: pytest.LogCaptureFixture) -> None:
    """After a replayed loop, registers, the mask and the count hold the last iteration's."""
    ub = UnifiedBuffer()
    a, d = ub.alloc(uint16_t, 1024), ub.alloc(uint16_t, 1024)

    def call(seed: int) -> Callable[[], Any]:
        def run() -> Any:
            a.write(np.random.default_rng(seed).integers(0, 1 << 16, 1024))
            kept = shift_and_keep(d, a, 1000)
            return (*kept, d.read(1024))

        return run

    results, lines = calls([call(k) for k in range(4)], caplog)
    assert ran(lines, "loop") == 3
    assert results[3][3] == 0  # the count ran out


def test_a_module_name_changed_between_calls(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guard compares the module names the loop reads: a new value is not replayed stale."""
    ub = UnifiedBuffer()
    a, d = ub.alloc(uint16_t, 512), ub.alloc(uint16_t, 512)
    a.write(np.full(512, 64))
    shift_and_keep(d, a, 512)
    shift_and_keep(d, a, 512)
    monkeypatch.setattr(sys.modules[__name__], "SHIFT", 5)
    shift_and_keep(d, a, 512)
    assert int(d.read(1)[0]) == 64 >> 5


def test_calls_in_kernel_launches(caplog: pytest.LogCaptureFixture) -> None:
    """Each launch has a block of its own: the plan moves to it; a missing flag still fails."""
    gm = ascreg.GlobalMemory()
    size = 4 * 1024
    src = gm.alloc(uint16_t, size)
    shifts, dst = gm.alloc(int16_t, size), gm.alloc(uint16_t, size)

    def launch(synced: bool) -> Callable[[], Any]:
        @__global__
        @__vector__
        def kernel() -> None:
            pa, pb, pd = (__ubuf__(uint16_t, 1024) for _ in range(3))
            ps = __ubuf__(int16_t, 1024)
            for start in range(0, size, 1024):
                asc_copy_gm2ub_align(pa, src + start, 2048)
                asc_copy_gm2ub_align(pb, src + size - 1024 - start, 2048)
                asc_copy_gm2ub_align(ps, shifts + start, 2048)
                if synced:
                    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
                    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
                asc_vf_call[select_shift](pd, pa, pb, ps, 1000)
                asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
                asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
                asc_copy_ub2gm_align(dst + start, pd, 1, 2000, 0, 0, 0)
                asc_sync_notify(PIPE_MTE3, PIPE_MTE2, EVENT_ID0)
                asc_sync_wait(PIPE_MTE3, PIPE_MTE2, EVENT_ID0)

        def run() -> Any:
            src.write(np.arange(size) * 5 % 65536)
            shifts.write(np.arange(size) % 17)
            kernel[1, 0, None]()
            return dst.read(size)

        return run

    results, lines = calls([launch(True), launch(True), launch(False), launch(True)], caplog)
    assert "SyncError" in results[2]
    assert ran(lines, "whole") >= 6


TO_HALF = Reg.CastTrait(Reg.RegLayout.ZERO, Reg.SatMode.NO_SAT, Reg.MaskMergeMode.ZEROING,
                        Reg.RoundMode.CAST_RINT)  # fmt: skip
"""A frozen mode struct the VF below reads from the module (the guard compares it by identity)."""


@ascreg.__simd_vf__
def to_half(dst: UbPtr[half], a: UbPtr[float32_t], n: int) -> None:
    x, y = Reg.RegTensor[float32_t](), Reg.RegTensor[half]()
    full = Reg.CreateMask[float32_t]()
    for i in range(n):
        Reg.LoadAlign(x, a + i * 64)
        Reg.Cast[half, float32_t, TO_HALF](y, x, full)
        Reg.StoreAlign[half, StoreDist.DIST_PACK_B32](dst + i * 64, y, full)


def test_a_frozen_mode_struct_is_replayed(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    ub = UnifiedBuffer()
    a, d = ub.alloc(float32_t, 256), ub.alloc(half, 256)

    def call(seed: int) -> Callable[[], Any]:
        values = np.random.default_rng(seed).standard_normal(256) * 1e5

        def run() -> Any:
            a.write(values.astype(np.float32))
            to_half(d, a, 4)
            return d.read(256)

        return run

    _, lines = calls([call(k) for k in range(3)], caplog)
    assert ran(lines, "loop") == 2
    saturating = attrs.evolve(TO_HALF, satMode=Reg.SatMode.SAT)  # another object: no stale replay
    monkeypatch.setattr(sys.modules[__name__], "TO_HALF", saturating)
    _, lines = calls([call(3)], caplog)
    assert ran(lines, "loop") == 0 and ran(lines, "body") == 1


@ascreg.__simd_vf__
def through_a_wrapper(dst: UbPtr[uint16_t], a: UbPtr[uint16_t], n: int) -> None:
    x = Reg.RegTensor[uint16_t]()
    full = Reg.CreateMask[uint16_t]()
    for i in range(n):
        Reg.LoadAlign(x, a + i * L16)
        wrapped(x, x, x, full)
        Reg.StoreAlign(dst + i * L16, x, full)


def _add(dst: Any, a: Any, b: Any, mask: Any) -> None:
    Reg.Add(dst, a, b, mask)


wrapped = __import__("functools").wraps(Reg.Add.__call__)(_add)
wrapped._ascreg_call = "Reg.Add"  # type: ignore[attr-defined]


def test_a_wrapper_around_an_op_batches_but_records_no_plan() -> None:
    """A call that is not an op's own entry point (it may do more) is never replayed."""
    loop = loops._loops(through_a_wrapper.__wrapped__)[1][0]  # type: ignore[attr-defined,index]
    assert loop.reason is None and loop.inputs is None


def test_plans_can_be_turned_off() -> None:
    code = (
        "import logging, numpy as np, ascreg\n"
        "from ascreg import Reg, UnifiedBuffer, uint16_t\n"
        "logging.basicConfig(level=logging.DEBUG, format='%(message)s')\n"
        "@ascreg.__simd_vf__\n"
        "def vf(dst, src, n):\n"
        "    r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()\n"
        "    for i in range(n):\n"
        "        Reg.LoadAlign(r, src + i * 128)\n"
        "        Reg.StoreAlign(dst + i * 128, r, full)\n"
        "ub = UnifiedBuffer(); a, b = ub.alloc(uint16_t, 512), ub.alloc(uint16_t, 512)\n"
        "for _ in range(3): vf(b, a, 4)\n"
    )
    import os
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write(code)
    try:
        env = {**os.environ, "ASCREG_PLANS": "0"}
        out = subprocess.run(
            [sys.executable, script.name], env=env, capture_output=True, text=True, check=True
        ).stderr
    finally:
        os.unlink(script.name)
    assert out.count("batched over 4 iterations\n") == 3
    assert "recorded plan" not in out


@ascreg.__simd_vf__
def row_scale(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], rows: int, repeats: int) -> None:
    """A nest: per row an accumulator over the row's repeats, then the row scaled by it."""
    x, acc, out = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t]()
    full = Reg.CreateMask[uint16_t]()
    for i in range(rows):
        Reg.Duplicate(acc, 1, full)
        for j in range(repeats):
            Reg.LoadAlign(x, src + (i * repeats + j) * L16)
            Reg.Max(acc, acc, x, full)
        for j in range(repeats):
            Reg.LoadAlign(x, src + (i * repeats + j) * L16)
            Reg.Mul(out, x, acc, full)
            Reg.StoreAlign(dst + (i * repeats + j) * L16, out, full)


def test_a_nest_on_queue_buffers(caplog: pytest.LogCaptureFixture) -> None:
    """Buffers a queue hands out anew (a new allocation of the same bounds) every tile.

    Each call replays the plan moved to the new allocations, keeping the views the moved
    pointers made of the same memory; every launch equals its eager run.
    """
    rows, repeats = 4, 3

    def compute(y: Any, x: Any) -> None:
        asc_vf_call[row_scale](y.GetPhyAddr(), x.GetPhyAddr(), rows, repeats)

    run = queue_tiles(rows * repeats * L16, compute)
    _, lines = calls([run(seed) for seed in range(3)], caplog)
    assert ran(lines, "whole") + ran(lines, "loop") >= 8


@__aicore__
def scaled_rows(y: Any, x: Any, rows: int, spelled_with_offset: bool) -> None:
    """A ``__VEC_SCOPE__`` loop that reads its tensors through ``GetPhyAddr()`` in its body.

    With *spelled_with_offset* the body passes an argument to the call (``GetPhyAddr(0)``):
    a plan could not guard that, so none is recorded.
    """
    with __VEC_SCOPE__:
        r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
        if spelled_with_offset:
            for i in range(rows):
                Reg.LoadAlign(r, x.GetPhyAddr(0) + i * L16)
                Reg.Muls(r, r, 3, full)
                Reg.StoreAlign(y.GetPhyAddr(0) + i * L16, r, full)
        else:
            for i in range(rows):
                Reg.LoadAlign(r, x.GetPhyAddr() + i * L16)
                Reg.Muls(r, r, 3, full)
                Reg.StoreAlign(y.GetPhyAddr() + i * L16, r, full)


def queue_tiles(
    tile: int, compute: Callable[[Any, Any], None]
) -> Callable[[int], Callable[[], Any]]:
    """Return ``run(seed)``: a launch of four tiles of *tile* elements through two queues.

    Each tile is copied in, ``compute(y, x)`` on the queues' tensors, copied out. The queues
    hand out their two buffers in turn (double buffering), each time a new allocation.
    """
    from ascreg.basic import DataCopy, GlobalTensor, TPipe, TPosition, TQue

    tiles = 4
    gm = ascreg.GlobalMemory()
    src, dst = gm.alloc(uint16_t, tiles * tile), gm.alloc(uint16_t, tiles * tile)

    @__global__
    @__vector__
    def kernel() -> None:
        pipe = TPipe()
        x_gm, y_gm = GlobalTensor[uint16_t](), GlobalTensor[uint16_t]()
        x_gm.SetGlobalBuffer(src, tiles * tile)
        y_gm.SetGlobalBuffer(dst, tiles * tile)
        in_q, out_q = TQue[TPosition.VECIN, 2](), TQue[TPosition.VECOUT, 2]()
        pipe.InitBuffer(in_q, 2, tile * 2)
        pipe.InitBuffer(out_q, 2, tile * 2)
        for t in range(tiles):
            x = in_q.AllocTensor[uint16_t]()
            DataCopy(x, x_gm[t * tile], tile)
            in_q.EnQue(x)
            x = in_q.DeQue[uint16_t]()
            y = out_q.AllocTensor[uint16_t]()
            compute(y, x)
            in_q.FreeTensor(x)
            out_q.EnQue(y)
            y = out_q.DeQue[uint16_t]()
            DataCopy(y_gm[t * tile], y, tile)
            out_q.FreeTensor(y)

    def run(seed: int) -> Callable[[], Any]:
        def launch() -> Any:
            src.write(np.random.default_rng(seed).integers(0, 300, tiles * tile))
            kernel[1, 0, None]()
            return dst.read(tiles * tile)

        return launch

    return run


def tensor_tiles(spelled_with_offset: bool) -> Callable[[int], Callable[[], Any]]:
    """:func:`queue_tiles` of :func:`scaled_rows` on four rows: the tensors' addresses alternate
    between tiles, so a plan must compare what ``GetPhyAddr()`` returns, not keep the first."""
    return queue_tiles(4 * L16, lambda y, x: scaled_rows(y, x, 4, spelled_with_offset))


def test_a_plan_guards_the_tensors_the_body_reads_through_a_pure_method(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The loop's plan compares each tensor's ``GetPhyAddr()``; every launch equals eager.

    The first tile of each buffer pair records a plan; the other ten replay one.
    """
    run = tensor_tiles(spelled_with_offset=False)
    results, lines = calls([run(seed) for seed in range(3)], caplog)
    assert ran(lines, "loop") == 10, lines
    source = np.random.default_rng(2).integers(0, 300, 16 * L16)
    np.testing.assert_array_equal(results[2], (source * 3).astype(np.uint16))


def test_a_pure_method_called_with_arguments_records_no_plan(
    caplog: pytest.LogCaptureFixture,
) -> None:
    run = tensor_tiles(spelled_with_offset=True)
    _, lines = calls([run(seed) for seed in range(2)], caplog)
    assert ran(lines, "loop") == 0 and ran(lines, "body") == 8, lines


T = TypeVar("T")


@__aicore__
@template(T)
def load_as(dst: Any, src: Any, offset: Any) -> None:
    """A templated helper, as the norm library's ``LoadRegForDtype<T>``."""
    Reg.LoadAlign[T](dst, src + offset)


@ascreg.__simd_vf__
def through_a_template(dst: UbPtr[uint16_t], a: UbPtr[uint16_t], count: int) -> None:
    """A loop whose body calls a function template (the loop reads it and its parameter)."""
    x, y, full = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
    for i in range(count // L16):
        load_as[uint16_t](x, a, i * L16)
        Reg.ShiftRights(y, x, SHIFT, full)
        Reg.StoreAlign(dst + i * L16, y, full)


def test_a_loop_calling_a_function_template_replays_its_plan(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The guard compares the template and its parameter by identity."""
    ub = UnifiedBuffer()
    a, d = ub.alloc(uint16_t, 1024), ub.alloc(uint16_t, 1024)

    def call(seed: int) -> Callable[[], Any]:
        def run() -> Any:
            a.write(np.random.default_rng(seed).integers(0, 1 << 16, 1024))
            through_a_template(d, a, 1024)
            return d.read(1024)

        return run

    _, lines = calls([call(k) for k in range(3)], caplog)
    assert ran(lines, "whole") + ran(lines, "loop") == 2, lines


@ascreg.__simd_vf__
def made_in_the_body(dst: UbPtr[uint16_t], a: UbPtr[uint16_t], count: int) -> Any:
    """Registers and a mask made in the loop body (as C++ declares them in the loop's scope).

    ``before`` is made before the loop and first written in it (one of the loop's inputs).
    The body's registers of the last iteration are returned.
    """
    before = Reg.RegTensor[uint16_t]()
    remaining = Ref(count)
    for i in range(-(-count // L16)):
        mask = Reg.UpdateMask[uint16_t](remaining)
        x = Reg.RegTensor[uint16_t]()
        y, z = (Reg.RegTensor[uint16_t]() for _ in range(2))
        high = Reg.MaskReg()
        Reg.LoadAlign(x, a + i * L16)
        Reg.CompareScalar[uint16_t, CMPMODE.GT](high, x, 1000, mask)
        Reg.ShiftRights(y, x, SHIFT, mask)
        Reg.Select(z, y, x, high)
        Reg.Adds(before, z, 1, mask)
        Reg.StoreAlign(dst + i * L16, before, mask)
    return x, z, high, before


class Holder:
    """An object holding a register made before a loop."""

    def __init__(self) -> None:
        self.before = Reg.RegTensor[uint16_t]()


@ascreg.__simd_vf__
def reached_through_an_object(dst: UbPtr[uint16_t], a: UbPtr[uint16_t], count: int) -> Any:
    """:func:`made_in_the_body` with ``before`` reached through an object, not an input.

    A plan would have to write that register, not one it makes anew: none is recorded.
    """
    held = Holder()
    remaining = Ref(count)
    for i in range(-(-count // L16)):
        mask = Reg.UpdateMask[uint16_t](remaining)
        x = Reg.RegTensor[uint16_t]()
        y, z = (Reg.RegTensor[uint16_t]() for _ in range(2))
        high = Reg.MaskReg()
        Reg.LoadAlign(x, a + i * L16)
        Reg.CompareScalar[uint16_t, CMPMODE.GT](high, x, 1000, mask)
        Reg.ShiftRights(y, x, SHIFT, mask)
        Reg.Select(z, y, x, high)
        Reg.Adds(held.before, z, 1, mask)
        Reg.StoreAlign(dst + i * L16, held.before, mask)
    return x, z, high, held.before


def test_registers_made_in_the_body_are_made_anew_by_a_plan(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The plan makes the body's registers and mask again on every replay.

    Each call returns its own last-iteration registers (a later replay leaves an earlier
    call's as they were), and the register made before the loop holds the last iteration's.
    """
    call = made_calls(made_in_the_body)
    results, lines = calls([call(k) for k in range(4)], caplog)
    assert ran(lines, "loop") == 3, lines
    first = call(0)()  # a replay: the registers it returns are new ones
    assert _same(first, results[0])
    kept = [np.asarray(r).copy() for r in first[:4]]
    call(5)()
    assert all(np.array_equal(np.asarray(r), k) for r, k in zip(first[:4], kept, strict=True))


def made_calls(vf: Any) -> Callable[[int], Callable[[], Any]]:
    """Return ``call(seed)``: a call of *vf* on new data (its registers and the UB after it)."""
    ub = UnifiedBuffer()
    a, d = ub.alloc(uint16_t, 1024), ub.alloc(uint16_t, 1024)

    def call(seed: int) -> Callable[[], Any]:
        def run() -> Any:
            a.write(np.random.default_rng(seed).integers(0, 1 << 16, 1024))
            made = vf(d, a, 1000)
            return (*made, d.read(1024))

        return run

    return call


def test_a_register_reached_through_an_object_is_not_made_anew(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Its loop batches, records no plan (it is not an input), and leaves the eager bytes."""
    call = made_calls(reached_through_an_object)
    _, lines = calls([call(k) for k in range(3)], caplog)
    assert ran(lines, "loop") == 0 and ran(lines, "body") == 3, lines
    assert any("RegTensor[uint16_t] that is not an input" in line for line in lines), lines


def scaler_class(t: Any) -> Any:
    """``template <typename T> class Scaler``, spelled as the ports do: a function making it.

    ``Load`` reads the template's parameter (a closure variable of the methods), ``Scale``
    the object's ``factor``; ``Shifted`` and ``Scaled`` loop over rows calling them.
    """

    class Scaler:
        def __init__(self, factor: int) -> None:
            self.factor = factor

        @__aicore__
        def Load(self, dst: Any, src: Any, offset: Any) -> None:
            Reg.LoadAlign[t](dst, src + offset)

        @__aicore__
        def Scale(self, reg: Any, mask: Any) -> None:
            Reg.Muls(reg, reg, self.factor, mask)

        @__aicore__
        def Shifted(self, y: Any, x: Any, rows: int) -> None:
            with __VEC_SCOPE__:
                r, full = Reg.RegTensor[t](), Reg.CreateMask[t]()
                for i in range(rows):
                    self.Load(r, x.GetPhyAddr(), i * L16)
                    Reg.ShiftRights(r, r, 1, full)
                    Reg.StoreAlign(y.GetPhyAddr() + i * L16, r, full)

        @__aicore__
        def Scaled(self, y: Any, x: Any, rows: int) -> None:
            with __VEC_SCOPE__:
                r, full = Reg.RegTensor[t](), Reg.CreateMask[t]()
                for i in range(rows):
                    self.Load(r, x.GetPhyAddr(), i * L16)
                    self.Scale(r, full)
                    Reg.StoreAlign(y.GetPhyAddr() + i * L16, r, full)

        @__aicore__
        def ScaledRows(self, y: Any, x: Any, rows: int) -> None:
            with __VEC_SCOPE__:
                r, full = Reg.RegTensor[t](), Reg.CreateMask[t]()
                for i in range(rows // 2):
                    for j in range(2):
                        self.Load(r, x.GetPhyAddr(), (2 * i + j) * L16)
                        Reg.Muls(r, r, self.factor, full)
                        Reg.StoreAlign(y.GetPhyAddr() + (2 * i + j) * L16, r, full)

    return Scaler


Scaler16 = scaler_class(uint16_t)


def test_a_loop_calling_methods_of_a_class_template_replays_its_plan(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``self.Load(...)`` reads the template's ``T`` from its closure and ``self`` only to call
    it: the plan guards ``T`` and ``self``'s class, so a new object each tile replays it.

    The first tile of each buffer pair records a plan; the other ten replay one.
    """
    run = queue_tiles(4 * L16, lambda y, x: Scaler16(3).Shifted(y, x, 4))
    results, lines = calls([run(seed) for seed in range(3)], caplog)
    assert ran(lines, "loop") == 10, lines
    source = np.random.default_rng(2).integers(0, 300, 16 * L16)
    np.testing.assert_array_equal(results[2], source >> 1)


def test_a_method_reading_the_object_records_no_plan(caplog: pytest.LogCaptureFixture) -> None:
    """``self.Scale`` reads ``self.factor``: a plan could not tell two objects apart, so none
    is recorded, and each launch's factor is the one its objects hold."""
    factor = [0]
    run = queue_tiles(4 * L16, lambda y, x: Scaler16(factor[0]).Scaled(y, x, 4))

    def launch(seed: int) -> Callable[[], Any]:
        def go() -> Any:
            factor[0] = seed + 2
            return run(seed)()

        return go

    results, lines = calls([launch(seed) for seed in range(3)], caplog)
    assert ran(lines, "loop") == 0, lines
    for seed in range(3):
        source = np.random.default_rng(seed).integers(0, 300, 16 * L16)
        np.testing.assert_array_equal(results[seed], (source * (seed + 2)).astype(np.uint16))


def test_a_body_reading_the_object_itself_still_flattens_its_inner_loop(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``self.factor`` read in the body keeps ``self`` an input as any other (no plan), so the
    inner loop still runs flattened into the batched outer one."""
    run = queue_tiles(4 * L16, lambda y, x: Scaler16(5).ScaledRows(y, x, 4))
    results, lines = calls([run(seed) for seed in range(2)], caplog)
    assert ran(lines, "loop") == 0, lines
    source = np.random.default_rng(1).integers(0, 300, 16 * L16)
    np.testing.assert_array_equal(results[1], (source * 5).astype(np.uint16))
    inner = [line for line in ascreg.explain(Scaler16.ScaledRows) if "line" in line][1]
    assert "ran flattened into a batched outer loop" in inner, inner
