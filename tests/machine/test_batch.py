"""Batched VF loops: batched and eager execution give the same UB bytes, registers and errors.

Each scenario builds fresh buffers, runs a ``__simd_vf__`` once under the default policy
(batched where possible) and once under ``ascreg.policy(execution="eager")``, and compares every
UB byte, the returned values and the raised error (type and message). The ``ascreg.batch``
debug log says whether the loop ran batched, and why not.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import pytest

import ascreg
from ascreg import (
    CMPMODE,
    PostLiteral,
    Ref,
    Reg,
    StoreDist,
    UbPtr,
    UnifiedBuffer,
    float32_t,
    int16_t,
    uint8_t,
    uint16_t,
    uint32_t,
)
from ascreg.basic import __VEC_SCOPE__, PIPE_ALL, PipeBarrier
from ascreg.c_api import (
    asc_add,
    asc_loadalign,
    asc_loadalign_postupdate,
    asc_popc,
    asc_shiftright_scalar,
    asc_storealign,
    asc_storealign_postupdate,
    asc_update_mask_b32,
    vector_uint32_t,
)
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __aicore__
from ascreg.machine.sync import Pipe
from ascreg.machine.template import template

L16 = 128
L32 = 64


def run(scenario: Callable[[UnifiedBuffer], Any], *, eager: bool) -> tuple[bytes, Any, str]:
    """Run *scenario* on a fresh UB; return (UB bytes, result, error text)."""
    ub = UnifiedBuffer()
    result, error = None, ""
    with ascreg.policy(execution="eager" if eager else "batched"):
        try:
            result = scenario(ub)
        except ascreg.errors.AscregError as exc:
            error = f"{type(exc).__name__}: {exc}"
    return ub.data.tobytes(), result, error


def differential(
    scenario: Callable[[UnifiedBuffer], Any], caplog: pytest.LogCaptureFixture
) -> tuple[Any, str, list[str]]:
    """Assert batched == eager for *scenario*; return (result, error, batch log lines)."""
    eager = run(scenario, eager=True)
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="ascreg.batch"):
        batched = run(scenario, eager=False)
    assert batched[0] == eager[0], "UB contents differ"
    assert batched[2] == eager[2]
    assert _same(batched[1], eager[1])
    lines = [r.getMessage() for r in caplog.records if r.name == "ascreg.batch"]
    return batched[1], batched[2], lines


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, np.ndarray | Reg.RegTensor | Reg.MaskReg):
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    return bool(a == b)


def ran_batched(lines: list[str]) -> bool:
    return any("batched over" in line for line in lines)


def eager_reason(lines: list[str]) -> str:
    return " ".join(line for line in lines if "eager" in line)


# -- the VFs --------------------------------------------------------------------------------------


@ascreg.__simd_vf__
def select_shift(
    dst: UbPtr[uint16_t], a: UbPtr[uint16_t], b: UbPtr[uint16_t], s: UbPtr[int16_t], count: int
) -> None:
    """dst = (a > b ? a : b) >> s on the enabled lanes (the benchmark's VF)."""
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


def select_shift_scenario(count: int, capacity: int | None = None, shifts: int = 18) -> Any:
    def scenario(ub: UnifiedBuffer) -> Any:
        rng = np.random.default_rng(count)
        size = capacity or -(-count // L16) * L16
        a, b, d = (ub.alloc(uint16_t, size) for _ in range(3))
        s = ub.alloc(int16_t, size)
        a.write(rng.integers(0, 1 << 16, size))
        b.write(rng.integers(0, 1 << 16, size))
        s.write(rng.integers(0, shifts, size))
        select_shift(d, a, b, s, count)
        return d.read(size)

    return scenario


@pytest.mark.parametrize("count", [1, 128, 300, 1000, 1024, 16 * 1024 - 45, 16 * 1024])
def test_select_shift_batched_matches_eager(count: int, caplog: pytest.LogCaptureFixture) -> None:
    _, error, lines = differential(select_shift_scenario(count), caplog)
    assert not error
    assert ran_batched(lines) == (count > L16)


def test_tail_mask_per_iteration(caplog: pytest.LogCaptureFixture) -> None:
    """The UpdateMask tail: the last iteration stores only its lanes, nothing past them."""
    result, _, lines = differential(select_shift_scenario(300, capacity=512), caplog)
    assert ran_batched(lines)
    assert not result[300:].any()


@pytest.mark.parametrize("count", [300, 1000])
def test_tail_store_past_an_exact_buffer(count: int, caplog: pytest.LogCaptureFixture) -> None:
    """The destination holds exactly *count* elements: the last store's off lanes lie past it."""

    def scenario(ub: UnifiedBuffer) -> Any:
        padded = -(-count // L16) * L16
        a, b = ub.alloc(uint16_t, padded), ub.alloc(uint16_t, padded)
        s, d = ub.alloc(int16_t, padded), ub.alloc(uint16_t, count)
        a.write(np.arange(padded) * 7)
        b.write(np.arange(padded)[::-1].copy())
        s.write(np.arange(padded) % 5)
        select_shift(d, a, b, s, count)
        return d.read(count)

    _, error, lines = differential(scenario, caplog)
    assert not error and ran_batched(lines)


@ascreg.__simd_vf__
def c_api_add_shift(dst: UbPtr[uint32_t], a: UbPtr[uint32_t], count: int) -> None:
    """The C API form: returned registers, asc_update_mask_b32 over a running count."""
    remaining = Ref(count)
    x, y = vector_uint32_t(), vector_uint32_t()
    for i in range(-(-count // L32)):
        mask = asc_update_mask_b32(remaining)
        asc_loadalign(x, a + i * L32)
        shifted = asc_shiftright_scalar(x, 3, mask)
        asc_add(y, shifted, x, mask)
        asc_storealign(dst + i * L32, y, mask)


def test_c_api_vf_matches_eager(caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        a, d = ub.alloc(uint32_t, 1024), ub.alloc(uint32_t, 1000)
        a.write(np.arange(1024) * 977)
        c_api_add_shift(d, a, 1000)
        return d.read(1000)

    _, error, lines = differential(scenario, caplog)
    assert not error and ran_batched(lines)


def test_asc_vf_call_in_a_kernel(caplog: pytest.LogCaptureFixture) -> None:
    from ascreg.c_api import EVENT_ID0, PIPE_S, PIPE_V, asc_sync_notify, asc_sync_wait, asc_vf_call

    def scenario(ub: UnifiedBuffer) -> Any:
        ctx = BlockContext()
        with block(ctx):
            a, d = ctx.ub.alloc(uint32_t, 640), ctx.ub.alloc(uint32_t, 640)
            a.write(np.arange(640))
            asc_sync_notify(PIPE_S, PIPE_V, EVENT_ID0)  # the scalar writes, then the VF reads
            asc_sync_wait(PIPE_S, PIPE_V, EVENT_ID0)
            asc_vf_call[c_api_add_shift](d, a, 600)
            asc_sync_notify(PIPE_V, PIPE_S, EVENT_ID0)  # the VF writes, then the scalar reads
            asc_sync_wait(PIPE_V, PIPE_S, EVENT_ID0)
            state = (ctx.written.tobytes(), [(r.start, r.end) for r in ctx.tracker.records])
            return d.read(640), state

    _, error, lines = differential(scenario, caplog)
    assert not error and ran_batched(lines)


# -- what forces eager execution ------------------------------------------------------------------


@ascreg.__simd_vf__
def accumulate(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], n: int) -> None:
    acc, x = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t]()
    full = Reg.CreateMask[uint16_t]()
    Reg.Duplicate(acc, 0, full)
    for i in range(n):
        Reg.LoadAlign(x, src + i * L16)
        Reg.Add(acc, acc, x, full)
    Reg.StoreAlign(dst, acc, full)


def test_an_accumulator_batches_its_chain_in_order(caplog: pytest.LogCaptureFixture) -> None:
    """The load runs batched; the carried Add runs iteration by iteration (a scan)."""

    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 4 * L16), ub.alloc(uint16_t, L16)
        src.write(np.arange(4 * L16) % 1000)
        accumulate(dst, src, 4)
        return dst.read(L16)

    result, _, lines = differential(scenario, caplog)
    assert ran_batched(lines)
    expected = (np.arange(4 * L16) % 1000).reshape(4, L16).sum(axis=0)
    assert np.array_equal(result, expected.astype(np.uint16))


@ascreg.__simd_vf__
def assigned_refs(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], n: int, bad: bool) -> Any:
    """Per iteration: a count and a post-update address set through ``.value``."""
    x, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
    count, at, seen = Ref(0), Ref(src), Ref(-1)
    for i in range(n):
        seen.value = 3 * i  # (no op takes it)
        count.value = 40 * i + 7
        at.value = src + i * L16
        mask = Reg.UpdateMask[uint16_t](count)
        Reg.LoadAlign[uint16_t, PostLiteral.POST_MODE_UPDATE](x, at, L16)  # at moves on
        Reg.Adds(x, x, 1, mask)
        Reg.StoreAlign(dst + i * L16 + (1 if bad and i == n - 1 else 0), x, full)
    return count.value, at.value - src, seen.value


@pytest.mark.parametrize("bad", [False, True])
def test_refs_assigned_in_the_body_hold_each_iterations_value(
    bad: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """``ref.value = ...`` in the body: batched, the Refs end as eager order leaves them (or,
    the last iteration's store misaligned, the batch is undone and the error is the eager one)."""

    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 6 * L16), ub.alloc(uint16_t, 6 * L16 + 16)
        src.write(np.arange(6 * L16) % 1000)
        return assigned_refs(dst, src, 6, bad), dst.read(6 * L16)

    result, error, lines = differential(scenario, caplog)
    if bad:
        assert error and not ran_batched(lines)
        return
    assert not error and ran_batched(lines)
    (count, moved, seen), stored = result
    assert (count, moved, seen) == (40 * 5 + 7 - L16, 6 * L16, 15)  # (the count taken down once)
    expected = np.arange(6 * L16) % 1000
    enabled = np.arange(L16)[None, :] < (40 * np.arange(6) + 7)[:, None]
    assert np.array_equal(stored, np.where(enabled.reshape(-1), expected + 1, 0))


@ascreg.__simd_vf__
def read_then_written(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], n: int) -> None:
    """``acc`` is read by one op and written by another: not a chain one op carries."""
    acc, x, y = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t]()
    full = Reg.CreateMask[uint16_t]()
    Reg.Duplicate(acc, 0, full)
    for i in range(n):
        Reg.LoadAlign(x, src + i * L16)
        Reg.Add(y, acc, x, full)
        Reg.Adds(acc, y, 1, full)
    Reg.StoreAlign(dst, acc, full)


def test_a_chain_of_two_ops_runs_eagerly(caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 4 * L16), ub.alloc(uint16_t, L16)
        src.write(np.arange(4 * L16) % 1000)
        read_then_written(dst, src, 4)
        return dst.read(L16)

    result, _, lines = differential(scenario, caplog)
    assert "loop-carried" in eager_reason(lines)
    expected = (np.arange(4 * L16) % 1000).reshape(4, L16).sum(axis=0) + 4
    assert np.array_equal(result, expected.astype(np.uint16))


@ascreg.__simd_vf__
def propagate(p: UbPtr[uint16_t], n: int) -> None:
    """Iteration i stores what iteration i + 1 loads: a cross-iteration memory dependency."""
    x = Reg.RegTensor[uint16_t]()
    full = Reg.CreateMask[uint16_t]()
    for i in range(n):
        Reg.LoadAlign(x, p + i * L16)
        Reg.Add(x, x, x, full)
        Reg.StoreAlign(p + (i + 1) * L16, x, full)


def test_cross_iteration_memory_runs_eagerly(caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        p = ub.alloc(uint16_t, 5 * L16)
        p.write(np.ones(5 * L16, dtype=np.uint16))
        propagate(p, 4)
        return p.read(5 * L16)

    result, _, lines = differential(scenario, caplog)
    assert "another iteration" in eager_reason(lines)
    assert result[-1] == 16


@ascreg.__simd_vf__
def printing(dst: UbPtr[uint16_t], n: int) -> None:
    r = Reg.RegTensor[uint16_t]()
    for i in range(n):
        Reg.Duplicate(r, 7, Reg.CreateMask[uint16_t]())
        print("iteration", i)
        Reg.StoreAlign(dst + i * L16, r, Reg.CreateMask[uint16_t]())


def helper(r: Any) -> None:
    Reg.Duplicate(r, 3, Reg.CreateMask[uint16_t]())


@ascreg.__simd_vf__
def calling_user_code(dst: UbPtr[uint16_t], n: int) -> None:
    r = Reg.RegTensor[uint16_t]()
    for i in range(n):
        helper(r)
        Reg.StoreAlign(dst + i * L16, r, Reg.CreateMask[uint16_t]())


@ascreg.__simd_vf__
def appending(dst: UbPtr[uint16_t], n: int) -> list[int]:
    seen: list[int] = []
    r = Reg.RegTensor[uint16_t]()
    for i in range(n):
        seen.append(i)
        Reg.Duplicate(r, 1, Reg.CreateMask[uint16_t]())
        Reg.StoreAlign(dst + i * L16, r, Reg.CreateMask[uint16_t]())
    return seen


@pytest.mark.parametrize(
    ("vf", "reason"),
    [
        (printing, "calls print"),
        (calling_user_code, "calls helper"),
        (appending, "calls seen.append"),
    ],
)
def test_statements_that_force_eager(
    vf: Any, reason: str, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        dst = ub.alloc(uint16_t, 3 * L16)
        return vf(dst, 3), dst.read(3 * L16)

    differential(scenario, caplog)
    assert any(reason in line for line in ascreg.explain_loops(vf))
    if vf is printing:
        assert capsys.readouterr().out.count("iteration") == 6  # each mode prints 3 lines


def test_explain_and_top_level_export() -> None:
    assert ascreg.__simd_vf__ is ascreg.c_api.__simd_vf__
    (line,) = ascreg.explain(select_shift)
    assert line.startswith("select_shift line ")
    assert ": batched when the run-time checks pass" in line
    assert ascreg.explain_loops(select_shift) == ascreg.explain(select_shift)
    assert "the body assigns" not in " ".join(ascreg.explain_loops(accumulate))


# -- undoing a failed attempt, and errors ---------------------------------------------------------


@ascreg.__simd_vf__
def store_then_unknown_op(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], n: int) -> None:
    """Stores come first; then a form no batching rule takes (a dual store) undoes the attempt."""
    x, idx, g = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t]()
    full = Reg.CreateMask[uint16_t]()
    for i in range(n):
        Reg.LoadAlign(x, src + i * L16)
        Reg.Add(x, x, x, full)
        Reg.StoreAlign(dst + i * L16, x, full)
        Reg.LoadAlign(idx, src)
        Reg.Add(g, x, idx, full)
        Reg.StoreAlign[uint16_t, StoreDist.DIST_INTLV_B16](src + 2 * i * L16, x, g, full)


def test_rollback_then_eager(caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 6 * L16), ub.alloc(uint16_t, 3 * L16)
        src.write(np.arange(6 * L16) % 7)
        store_then_unknown_op(dst, src, 3)
        return src.read(6 * L16), dst.read(3 * L16)

    _, _, lines = differential(scenario, caplog)
    assert "Reg.StoreAlign does not run on a batch in this form" in eager_reason(lines)


def test_rollback_restores_the_block_state(caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        ctx = BlockContext()
        with block(ctx), ctx.simd_vf():
            src, dst = ctx.ub.alloc(uint16_t, 3 * L16), ctx.ub.alloc(uint16_t, 3 * L16)
            src.write(np.arange(3 * L16) % 7)
        with block(ctx):
            store_then_unknown_op(dst, src, 3)
            records = [(r.pipe, r.start, r.end, r.write) for r in ctx.tracker.records]
            return src.read(3 * L16), ctx.written.tobytes(), records

    differential(scenario, caplog)


@pytest.mark.parametrize("bad", ["shift", "alignment", "bounds"])
def test_errors_are_the_eager_errors(bad: str, caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        count = 5 * L16
        size = count if bad != "bounds" else count - L16
        a, b, d = (ub.alloc(uint16_t, count) for _ in range(3))
        s = ub.alloc(int16_t, size)
        a.write(np.arange(count))
        b.write(np.arange(count)[::-1].copy())
        shifts = np.ones(size, dtype=np.int16)
        if bad == "shift":
            shifts[3 * L16 + 5] = -2
        s.write(shifts)
        select_shift(d if bad != "alignment" else d + 1, a, b, s, count)
        return d.read(count)

    _, error, lines = differential(scenario, caplog)
    assert error
    assert not ran_batched(lines)


# -- nested loops -----------------------------------------------------------------------------------


@ascreg.__simd_vf__
def rows_then_columns(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], rows: int, cols: int) -> None:
    x = Reg.RegTensor[uint16_t]()
    full = Reg.CreateMask[uint16_t]()
    for r in range(rows):
        for c in range(cols):
            Reg.LoadAlign(x, src + (r * cols + c) * L16)
            Reg.Adds(x, x, r, full)
            Reg.StoreAlign(dst + (c * rows + r) * L16, x, full)


def test_nested_loops_batch_the_inner_one_when_the_outer_one_cannot(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The outer loop is a candidate (a nested loop runs in order inside it), but its row
    number as a scalar operand differs per iteration: refused at run time, and remembered."""

    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 12 * L16), ub.alloc(uint16_t, 12 * L16)
        src.write(np.arange(12 * L16))
        rows_then_columns(dst, src, 3, 4)
        return dst.read(12 * L16)

    _, _, lines = differential(scenario, caplog)
    assert sum("batched over 4 iterations" in line for line in lines) == 3
    assert any("Reg.Adds does not run on a batch in this form" in line for line in lines)
    outer, inner = ascreg.explain(rows_then_columns)
    assert "refused at run time for 1 input form(s)" in outer
    assert "ran batched 3 times" in inner


@ascreg.__simd_vf__
def rows_of_columns(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], rows: int, cols: int) -> None:
    x, total = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t]()
    full = Reg.CreateMask[uint16_t]()
    for r in range(rows):
        Reg.Duplicate(total, 0, full)
        for c in range(cols):  # an accumulator of the inner loop: scanned over it, in order
            Reg.LoadAlign(x, src + (r * cols + c) * L16)
            Reg.Add(total, total, x, full)
        Reg.StoreAlign(dst + r * L16, total, full)


def test_nested_loops_batch_the_outer_one(caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 12 * L16), ub.alloc(uint16_t, 3 * L16)
        src.write(np.arange(12 * L16) % 1000)
        rows_of_columns(dst, src, 3, 4)
        return dst.read(3 * L16)

    result, _, lines = differential(scenario, caplog)
    assert sum("batched over 3 iterations" in line for line in lines) == 1
    outer, inner = ascreg.explain(rows_of_columns)
    assert "ran batched" in outer and "ran flattened into a batched outer loop" in inner
    expected = (np.arange(12 * L16) % 1000).reshape(3, 4, L16).sum(axis=1).ravel()
    assert result.tolist() == expected.tolist()


# -- policy -------------------------------------------------------------------------------------------


def test_policy_eager_turns_batching_off(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="ascreg.batch"):
        run(select_shift_scenario(1000), eager=True)
    lines = [r.getMessage() for r in caplog.records if r.name == "ascreg.batch"]
    assert not ran_batched(lines)
    assert any("execution='eager'" in line for line in lines)
    assert ascreg.get_policy().execution == "batched"
    with pytest.raises(ascreg.errors.PolicyError, match="execution='lazy'"):
        ascreg.set_policy(execution="lazy")  # type: ignore[arg-type]


# -- the examples, in both modes ------------------------------------------------------------------------


EXAMPLES = [
    "asc_shiftright",
    "c_api_abs",
    "c_api_compare",
    "c_api_div",
    "c_api_duplicate",
    "c_api_mergemode",
    "c_api_mul",
    "c_api_muls",
    "c_api_select",
    "c_api_tail",
    "select_vf",
    "shiftright_vf",
    "tail_vf",
    "vector_add",
]


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_in_both_modes(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib

    module = importlib.import_module(f"ascreg.examples.{name}")
    outputs = []
    for execution in ("eager", "batched"):
        with ascreg.policy(execution=execution):  # type: ignore[arg-type]
            result = module.main()
        outputs.append((result, capsys.readouterr().out))
    assert outputs[0] == outputs[1]


def test_unwritten_ub_in_a_kernel_is_the_eager_error(caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        ctx = BlockContext()
        with block(ctx):
            a, b, d = (ctx.ub.alloc(uint16_t, 640) for _ in range(3))
            s = ctx.ub.alloc(int16_t, 640)
            with ctx.simd_vf():
                a.write(np.arange(640))
                b.write(np.arange(640))
                s[np.arange(256)] = 1  # iterations 2.. read shift counts nobody wrote
            select_shift(d, a, b, s, 640)
            return d.read(640)

    _, error, lines = differential(scenario, caplog)
    assert "UninitializedMemoryError" in error and not ran_batched(lines)


@ascreg.__simd_vf__
def reads_unwritten_register(dst: UbPtr[uint16_t], n: int) -> None:
    r, never = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t]()
    for i in range(n):
        Reg.Add(r, never, never, Reg.CreateMask[uint16_t]())
        Reg.StoreAlign(dst + i * L16, r, Reg.CreateMask[uint16_t]())


def test_unwritten_register_is_the_eager_error(caplog: pytest.LogCaptureFixture) -> None:
    _, error, _ = differential(
        lambda ub: reads_unwritten_register(ub.alloc(uint16_t, 3 * L16), 3), caplog
    )
    assert "UninitializedRegisterError" in error


@ascreg.__simd_vf__
def index_dependent(dst: UbPtr[uint16_t], n: int) -> None:
    r = Reg.RegTensor[uint16_t]()
    for i in range(n):
        Reg.Duplicate(r, 1 if i % 2 else 2, Reg.CreateMask[uint16_t]())
        Reg.StoreAlign(dst + i * L16, r, Reg.CreateMask[uint16_t]())


def test_control_flow_on_the_index_runs_eagerly(caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        dst = ub.alloc(uint16_t, 4 * L16)
        index_dependent(dst, 4)
        return dst.read(4 * L16)

    result, _, lines = differential(scenario, caplog)
    assert "plain Python value" in eager_reason(lines)
    assert result[::L16].tolist() == [2, 1, 2, 1]


def test_index_arithmetic_that_python_and_int64_disagree_on_is_eager() -> None:
    from ascreg.engine.batch import Fallback, RowInts

    i = RowInts(np.arange(4), 1)
    assert (i * 3 - 1).values.tolist() == [-1, 2, 5, 8] and (i * 3 - 1).step == 3
    for bad in (lambda: i // 0, lambda: i << -1, lambda: (i + 2**40) * 2**40, lambda: 7 % (i - 1)):
        with pytest.raises(Fallback):
            bad()


@ascreg.__simd_vf__
def post_update(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], n: int) -> None:
    """Post-update addresses carried from before the loop, a count made in the body."""
    x = Reg.RegTensor[uint16_t]()
    s, d = Ref(src), Ref(dst)
    for _ in range(n):
        fresh = Ref(100)  # made in each iteration: every iteration's mask has 100 lanes
        mask = Reg.UpdateMask[uint16_t](fresh)
        Reg.LoadAlign[uint16_t, ascreg.PostLiteral.POST_MODE_UPDATE](x, s, L16)
        Reg.Adds(x, x, 1, mask)
        Reg.StoreAlign[uint16_t, ascreg.PostLiteral.POST_MODE_UPDATE](d, x, L16, mask)


@ascreg.__simd_vf__
def c_post_update(dst: UbPtr[uint32_t], src: UbPtr[uint32_t], n: int) -> None:
    x = vector_uint32_t()
    s, d, remaining = Ref(src), Ref(dst), Ref(n * L32 - 7)
    for _ in range(n):
        mask = asc_update_mask_b32(remaining)
        asc_loadalign_postupdate(x, s, L32)
        asc_storealign_postupdate(d, x, L32, mask)


def test_post_update_addresses(caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 4 * L16), ub.alloc(uint16_t, 4 * L16)
        src.write(np.arange(4 * L16))
        post_update(dst, src, 4)
        a, b = ub.alloc(uint32_t, 3 * L32), ub.alloc(uint32_t, 3 * L32)
        a.write(np.arange(3 * L32) + 5)
        c_post_update(b, a, 3)
        return dst.read(4 * L16), b.read(3 * L32)

    (reg, c_api), _, lines = differential(scenario, caplog)
    assert sum("batched over" in line for line in lines) == 2
    assert reg.reshape(4, L16)[:, 99].tolist() == [100, 228, 356, 484]
    assert not reg.reshape(4, L16)[:, 100:].any()
    assert c_api[-7:].tolist() == [0] * 7


# -- a kernel's checks see a batched loop's accesses as eager order would -------------------------

HAZARDS = ["none", "no MTE2->V flag", "no V->MTE3 flag", "unwritten UB", "partly unwritten UB"]


def kernel_scenario(hazard: str) -> Callable[[UnifiedBuffer], Any]:
    """A one-block kernel: copy in (MTE2), the select/shift VF (V), copy out (MTE3)."""
    from ascreg import GlobalMemory
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

    count = 5 * L16 - 7

    @__global__
    @__vector__
    def kernel(dst: Any, a: Any, b: Any, s: Any) -> None:
        pa, pb, pd = (__ubuf__(uint16_t, 5 * L16) for _ in range(3))
        ps = __ubuf__(int16_t, 5 * L16)
        nbytes = 5 * L16 * 2
        asc_copy_gm2ub_align(pa, a, nbytes)
        asc_copy_gm2ub_align(pb, b, nbytes)
        if hazard != "unwritten UB":
            asc_copy_gm2ub_align(ps, s, nbytes if hazard != "partly unwritten UB" else 2 * L16)
        if hazard != "no MTE2->V flag":
            asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
            asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
        asc_vf_call[select_shift](pd, pa, pb, ps, count)
        if hazard != "no V->MTE3 flag":
            asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
            asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
        asc_copy_ub2gm_align(dst, pd + L16, 1, count * 2 - 2 * L16, 0, 0, 0)

    def scenario(ub: UnifiedBuffer) -> Any:
        gm = GlobalMemory()
        a, b, d = (gm.alloc(uint16_t, 5 * L16) for _ in range(3))
        s = gm.alloc(int16_t, 5 * L16)
        a.write(np.arange(5 * L16) * 37)
        b.write(np.arange(5 * L16)[::-1] * 11)
        s.write(np.arange(5 * L16) % 17)
        kernel[1, 0, None](d, a, b, s)
        return d.read(5 * L16)

    return scenario


@pytest.mark.parametrize("hazard", HAZARDS)
def test_kernel_hazards_are_the_eager_errors(hazard: str, caplog: pytest.LogCaptureFixture) -> None:
    """Missing flags and unwritten UB give the eager error, whether or not the loop batched."""
    _, error, lines = differential(kernel_scenario(hazard), caplog)
    expected = {
        "none": "",
        "no MTE2->V flag": "PIPE_V reads UB [0x0, 0x100) that PIPE_MTE2 wrote",
        "no V->MTE3 flag": "that PIPE_V wrote (overlap [0xb00, 0xc00))",
        "unwritten UB": "UninitializedMemoryError",
        "partly unwritten UB": "UninitializedMemoryError",
    }[hazard]
    assert expected in error if expected else not error, error
    # the loop batches unless its own accesses are hazardous (then it reruns eagerly)
    assert ran_batched(lines) == (hazard in ("none", "no V->MTE3 flag"))


@pytest.mark.parametrize("dtype", ["u1", "i2", "f2", "bf16", "f4", "u8", "f8", "e4m3"])
def test_select_on_rows_is_the_bitwise_copy(dtype: str) -> None:
    """core.compare.select on batched rows (raw-bit select) equals np.where, NaN payloads too."""
    import ml_dtypes

    from ascreg.core.compare import BITWISE_SELECT_FROM, select

    dt = np.dtype({"bf16": ml_dtypes.bfloat16, "e4m3": ml_dtypes.float8_e4m3fn}.get(dtype, dtype))
    rng = np.random.default_rng(7)
    rows = BITWISE_SELECT_FROM // 128
    a, b = (rng.integers(0, 256, (rows, 128 * dt.itemsize), dtype=np.uint8).view(dt) for _ in "ab")
    sel = rng.integers(0, 2, (rows, 128)).astype(bool)
    for first in (a, a[0]):
        got, expected = select(sel, first, b), np.where(sel, first, b)
        assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()


@ascreg.__simd_vf__
def with_kernel_op(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], n: int) -> None:
    r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
    for i in range(n):
        asc_popc(i + 7)
        Reg.LoadAlign(r, src + i * L16)
        Reg.StoreAlign(dst + i * L16, r, full)


def test_kernel_level_ops_run_eagerly(caplog: pytest.LogCaptureFixture) -> None:
    """A kernel-level op in the body runs once per iteration: the loop runs eagerly."""

    def scenario(ub: UnifiedBuffer) -> Any:
        a, d = ub.alloc(uint16_t, 3 * L16), ub.alloc(uint16_t, 3 * L16)
        a.write(np.arange(3 * L16))
        with_kernel_op(d, a, 3)
        return d.read(3 * L16)

    _, error, lines = differential(scenario, caplog)
    assert not error and "asc_popc is a kernel-level op" in eager_reason(lines)


def test_an_op_that_never_batches_is_remembered_for_every_input_form(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The refusal depends on the body alone: calls with other counts do not try again."""

    def scenario(ub: UnifiedBuffer) -> Any:
        a, d = ub.alloc(uint16_t, 6 * L16), ub.alloc(uint16_t, 6 * L16)
        a.write(np.arange(6 * L16))
        for n in (3, 4, 5, 6):
            with_kernel_op(d, a, n)
        return d.read(6 * L16)

    _, error, lines = differential(scenario, caplog)
    tried = sum("runs eagerly (asc_popc is a kernel-level op)" in line for line in lines)
    assert not error and tried <= 1  # (0: an earlier test's call was refused already)
    assert sum("refused before: asc_popc" in line for line in lines) == 4 - tried
    [said] = ascreg.explain(with_kernel_op)
    assert "refused at run time for 1 input form(s)" in said


@ascreg.__simd_vf__
def branch_temporary(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], n: int, plus: bool) -> Any:
    """A temporary only one branch assigns (a template flag's, as rms_norm's IS_GEMMA)."""
    r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
    for i in range(n):
        Reg.LoadAlign(r, src + i * L16)
        if plus:
            t = Reg.RegTensor[uint16_t]()
            Reg.Adds(t, r, 1, full)
            Reg.StoreAlign(dst + i * L16, t, full)
        else:
            Reg.StoreAlign(dst + i * L16, r, full)
    try:
        return np.asarray(t).tolist()[:2]  # the last iteration's, when a branch made it
    except NameError:
        return "unassigned"


@pytest.mark.parametrize("plus", [True, False])
def test_a_name_one_branch_assigns_is_as_the_eager_run_leaves_it(
    caplog: pytest.LogCaptureFixture, plus: bool
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 4 * L16), ub.alloc(uint16_t, 4 * L16)
        src.write(np.arange(4 * L16))
        return branch_temporary(dst, src, 4, plus), dst.read(4 * L16).tolist()

    (left, stored), error, lines = differential(scenario, caplog)
    assert not error and ran_batched(lines), lines
    assert left == ([3 * L16 + 1, 3 * L16 + 2] if plus else "unassigned")
    assert stored == (np.arange(4 * L16) + int(plus)).tolist()


@ascreg.__simd_vf__
def doubled_tail(dst: UbPtr[float32_t], src: UbPtr[float32_t], count: int, masked: bool) -> None:
    """The last register of each row runs past *src*'s allocation; *masked*: UpdateMask."""
    reg, full = Reg.RegTensor[float32_t](), Reg.CreateMask[float32_t]()
    remaining = Ref(count)
    for i in range(-(-count // 64)):
        mask = Reg.UpdateMask[float32_t](remaining)
        Reg.LoadAlign(reg, src + i * 64)
        Reg.Add(reg, reg, reg, mask if masked else full)
        Reg.StoreAlign(dst + i * 64, reg, mask if masked else full)


@pytest.mark.parametrize("masked", [True, False], ids=["tail masked", "tail stored"])
@pytest.mark.parametrize("count", [100, 200])
def test_loads_past_the_allocations_end_batch_as_one_register_each(
    caplog: pytest.LogCaptureFixture, count: int, masked: bool
) -> None:
    """Each row reports its bytes up to the allocation's end (the bytes past it, never
    written, are not checked); the lanes past it are undefined: storing them is the eager
    run's error, masking them off its result."""

    def scenario(ub: UnifiedBuffer) -> Any:
        with block(BlockContext()) as ctx:
            ctx.ub = ub
            dst = ub.alloc(float32_t, 256)
            src = ub.alloc(float32_t, count)  # the last allocation: nothing written after it
            src.write(np.arange(count, dtype=np.float32))
            PipeBarrier[PIPE_ALL]()
            doubled_tail(dst, src, count, masked)
            # MTE2 fills the next buffer, unordered with the VF: its loads past src's end read
            # no bytes of it (they are no access of it), so no hazard
            after = ub.alloc(float32_t, 64)
            with ctx.on_pipe(Pipe.PIPE_MTE2):
                after.write(np.ones(64, dtype=np.float32))
            PipeBarrier[PIPE_ALL]()
            return dst.read(count)

    result, error, lines = differential(scenario, caplog)
    if masked:
        assert not error and ran_batched(lines), lines
        np.testing.assert_array_equal(result, np.arange(count, dtype=np.float32) * 2)
    else:
        assert error.startswith("UndefinedLaneError: Reg.StoreAlign: a store uses lane")


# -- values shared between calls of a VF (the per-tile fast paths) --------------------------------


def test_calls_share_index_offsets_and_counts_not_addresses(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A VF called per tile reuses its loop index, offsets and tail counts between calls.

    The shared values depend on the loop's range and the count alone: other buffers (other
    addresses) and another count with the same number of iterations must give their own rows.
    """

    def scenario(ub: UnifiedBuffer) -> Any:
        size = 3 * L16
        bufs = [[ub.alloc(uint16_t, size) for _ in range(3)] for _ in range(2)]
        shifts = [ub.alloc(int16_t, size) for _ in range(2)]
        rng = np.random.default_rng(5)
        for (a, b, _), s in zip(bufs, shifts, strict=True):
            a.write(rng.integers(0, 1 << 16, size))
            b.write(rng.integers(0, 1 << 16, size))
            s.write(rng.integers(0, 18, size))
        results = []
        for (a, b, d), s, count in zip(bufs * 2, shifts * 2, (300, 300, 260, 257), strict=True):
            select_shift(d, a, b, s, count)
            results.append(d.read(size))
        return results

    result, error, lines = differential(scenario, caplog)
    assert not error and sum(ran_batched([line]) for line in lines) == 4
    # the shorter counts leave the tail of the earlier call's output where it was
    assert result[2][260:].tolist() == result[0][260:].tolist()
    assert result[3][257:].tolist() == result[1][257:].tolist()
    assert result[2][:260].tolist() == result[0][:260].tolist()


def test_shared_rows_are_read_only() -> None:
    """Shared index rows cannot be written: an op that tried would fall back, not corrupt."""
    from ascreg.engine import batch

    index = batch._index(range(3))
    offset = index * L16
    assert index is batch._index(range(3)) and offset is index * L16  # shared, remembered
    assert not index.values.flags.writeable and not offset.values.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        offset.values[0] = 1


@ascreg.__simd_vf__
def zigzag(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], n: int) -> None:
    """Offsets that are not affine in the index (no shared fast path for them)."""
    r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
    for i in range(n):
        offset = (i % 2) * (n // 2) * L16 + (i // 2) * L16
        Reg.LoadAlign(r, src + offset)
        Reg.Adds(r, r, 1, full)
        Reg.StoreAlign(dst + i * L16, r, full)


def test_offsets_outside_the_shared_fast_path(caplog: pytest.LogCaptureFixture) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 4 * L16), ub.alloc(uint16_t, 4 * L16)
        src.write(np.arange(4 * L16))
        zigzag(dst, src, 4)
        first = dst.read(4 * L16)
        zigzag(dst, src + 0, 4)  # the same again: nothing remembered from the first call
        return first, dst.read(4 * L16)

    result, error, lines = differential(scenario, caplog)
    assert not error and ran_batched(lines)
    assert result[0][L16 : 2 * L16].tolist() == list(range(2 * L16 + 1, 3 * L16 + 1))


def test_update_mask_rows_remembers_shared_counts_only() -> None:
    from ascreg.core import masks

    writable = np.array([200, 72, 0])
    first = masks.update_mask_rows(writable, 128, 2)
    assert id(writable) not in masks._ROWS  # a count the body computed: never remembered
    shared = np.array([200, 72, 0])
    shared.flags.writeable = False
    bits, rest = masks.update_mask_rows(shared, 128, 2)
    again = masks.update_mask_rows(shared, 128, 2)
    assert again[0] is bits and again[1] is rest
    assert np.array_equal(bits, first[0]) and rest.tolist() == [72, 0, 0]
    other = masks.update_mask_rows(shared, 64, 4)  # the same counts, another lane geometry
    assert other[0] is not bits and other[0].sum(axis=1).tolist() == [64, 64, 0]


def test_whole_rows_share_all_on_enables(caplog: pytest.LogCaptureFixture) -> None:
    """Counts covering every lane of every row give the shared all-on rows (ops skip masking).

    A tile of whole registers, with a negative shift count in its last iteration, still
    raises the eager error in that iteration.
    """
    from ascreg.core import masks

    counts = np.array([1024 - 128 * k for k in range(8)])
    bits, _ = masks.update_mask_rows(counts, 128, 2)
    enables = masks.enables_of(bits, 128, 2)
    assert masks.is_all_on(enables) and enables.shape == (8, 128)
    assert not masks.is_all_on(
        masks.enables_of(masks.update_mask_rows(counts - 1, 128, 2)[0], 128, 2)
    )

    def scenario(ub: UnifiedBuffer) -> Any:
        a, b, d = (ub.alloc(uint16_t, 1024) for _ in range(3))
        s = ub.alloc(int16_t, 1024)
        a.write(np.arange(1024) * 7)
        b.write(np.arange(1024)[::-1].copy())
        s.write(np.where(np.arange(1024) == 1000, -1, np.arange(1024) % 17))
        select_shift(d, a, b, s, 1024)

    _, error, lines = differential(scenario, caplog)
    assert error.startswith("NegativeShiftError") and not ran_batched(lines)


def test_all_on_rows_beyond_the_budget_are_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    from ascreg.core import masks

    monkeypatch.setattr(masks, "ALL_ON_ROW_BYTES", masks._KEPT_ROW_BYTES[0])
    rows = masks.all_on_rows(4095, 3)  # a shape no test asks for
    assert rows.all() and not rows.flags.writeable and not masks.is_all_on(rows)
    assert masks.all_on_rows(4095, 3) is not rows


def test_bitwise_select_broadcasts_one_register_over_rows() -> None:
    from ascreg.core.compare import BITWISE_SELECT_FROM, select

    rows = BITWISE_SELECT_FROM // 128
    selector = np.random.default_rng(1).integers(0, 2, (rows, 128)).astype(bool)
    a, b = np.arange(128, dtype=np.uint16), np.arange(128, dtype=np.uint16)[::-1].copy()
    for left, right in ((a, b), (np.tile(a, (rows, 1)), b), (a, np.tile(b, (rows, 1)))):
        assert np.array_equal(select(selector, left, right), np.where(selector, left, right))


def test_shared_pointers_are_per_memory_and_type() -> None:
    """Two UBs laid out alike: each batch loads and stores through its own UB's pointers."""
    from ascreg.engine import batch

    results = []
    for seed in (1, 2):
        ub = UnifiedBuffer()
        a, b, d = (ub.alloc(uint16_t, 1024) for _ in range(3))
        s = ub.alloc(int16_t, 1024)
        for p in (a, b):
            p.write(np.random.default_rng(seed).integers(0, 1 << 16, 1024))
        s.write(np.full(1024, seed))
        select_shift(d, a, b, s, 1000)
        results.append(d.read(1024))
        if seed == 1:
            i = batch._index(range(8)) * L16  # the VF's shared offsets, with pointers remembered
            assert any(key[0] == "pointer" for key in (i.derived or {}))
    assert results[0][:1000].tolist() != results[1][:1000].tolist()
    for seed, result in zip((1, 2), results, strict=True):
        a = np.random.default_rng(seed).integers(0, 1 << 16, 1024).astype(np.uint16)
        assert result[:1000].tolist() == (a[:1000] >> seed).tolist()


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.float64])
def test_bitwise_select_with_spread_enables(dtype: Any) -> None:
    """A selector spread with its lanes' width selects through its bits, bit for bit."""
    from ascreg.core import masks
    from ascreg.core.compare import BITWISE_SELECT_FROM, select

    rng = np.random.default_rng(2)
    size = np.dtype(dtype).itemsize
    lanes = 256 // size
    shape = (BITWISE_SELECT_FROM // lanes + 1, lanes)
    raw = rng.integers(0, 256, (2, shape[0], lanes * size), dtype=np.uint8)
    a, b = (r.view(dtype) for r in raw)  # any bits, NaN payloads too
    selector = rng.integers(0, 2, shape).astype(bool)
    masks.spread_lanes(selector, size)
    assert masks.lane_words(selector, size) is not None
    chosen = select(selector, a, b)
    assert np.array_equal(chosen.view(np.uint8), np.where(selector, a, b).view(np.uint8))


@ascreg.__simd_vf__
def store_then_load(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], n: int) -> None:
    r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
    for i in range(n):
        Reg.LoadAlign(r, src + i * L16)
        Reg.StoreAlign(dst + i * L16, r, full)
    for i in range(n):  # loads what the first loop stored, with no barrier between
        Reg.LoadAlign(r, dst + i * L16)
        Reg.StoreAlign(src + i * L16, r, full)


def test_a_loop_loading_what_an_earlier_loop_stored(caplog: pytest.LogCaptureFixture) -> None:
    """The aggregate check skips the VF-stored marks only while the VF has stored nothing."""

    def scenario(ub: UnifiedBuffer) -> Any:
        ctx = BlockContext()
        with block(ctx):
            src, dst = ctx.ub.alloc(uint16_t, 3 * L16), ctx.ub.alloc(uint16_t, 3 * L16)
            with ctx.simd_vf():
                src.write(np.arange(3 * L16))
            store_then_load(dst, src, 3)

    _, error, lines = differential(scenario, caplog)
    assert "after storing byte 0x300" in error and ran_batched(lines)


def test_wholly_written_spans_are_forgotten_on_restore() -> None:
    ctx = BlockContext()
    p = ctx.ub.alloc(uint16_t, 64)
    p.write(np.arange(32))
    state = ctx.checkpoint([(0, 64), (64, 128)])  # one span all written, one not
    assert ctx.all_written(0, 64) and not ctx.all_written(0, 128)
    with ctx.simd_vf():
        (p + 32).write(np.arange(32))
    assert ctx.all_written(0, 128)
    ctx.restore(state)
    assert ctx.all_written(0, 64) and not ctx.all_written(64, 65)
    assert not ctx.vf_stored[:128].any()


# -- C-typed loop indexes (``uint32_t(i)``, the ports' ``(uint32_t)i``) ----------------------------


@ascreg.__simd_vf__
def typed_offsets(
    dst: UbPtr[uint16_t], src: UbPtr[uint16_t], n: int, stride: Any, back: int
) -> None:
    """Copy n registers at ``uint32_t(i) * stride - back`` (a C-typed offset of the index)."""
    r = Reg.RegTensor[uint16_t]()
    mask = Reg.CreateMask[uint16_t]()
    for i in range(n):
        offset = uint32_t(i) * stride - back
        Reg.LoadAlign(r, src + offset)
        Reg.StoreAlign(dst + uint32_t(i) * L16, r, mask)


@pytest.mark.parametrize(
    ("stride", "back", "batched"),
    [
        (uint32_t(L16), 0, True),  # uint32_t arithmetic inside its range: batched
        (L16, 0, True),  # a Python int stride: the offset stays uint32_t
        (uint32_t(L16), L16, False),  # i = 0 wraps below zero in uint32_t: eager, as written
    ],
)
def test_a_c_typed_loop_index_batches_where_its_type_does_not_wrap(
    caplog: pytest.LogCaptureFixture, stride: Any, back: int, batched: bool
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 8 * L16), ub.alloc(uint16_t, 4 * L16)
        src.write(np.arange(8 * L16))
        with np.errstate(over="ignore"):  # (numpy warns of the uint32_t wrap; C does not)
            typed_offsets(dst, src, 4, stride, back)
        return dst.read(4 * L16)

    result, error, lines = differential(scenario, caplog)
    assert ran_batched(lines) is batched, lines
    assert bool(error) is not batched  # the wrapped offset leaves the UB: the same error
    if batched:
        np.testing.assert_array_equal(result, np.arange(4 * L16))


@ascreg.__simd_vf__
def wrapped_offsets(dst: UbPtr[uint16_t], src: UbPtr[uint16_t], n: int) -> None:
    """Copy n registers from ``uint8_t(i) * 64``: from i = 4 on the offset wraps (256 -> 0)."""
    r = Reg.RegTensor[uint16_t]()
    mask = Reg.CreateMask[uint16_t]()
    for i in range(n):
        Reg.LoadAlign(r, src + uint8_t(i) * 64)
        Reg.StoreAlign(dst + i * L16, r, mask)


def test_a_loop_index_offset_that_wraps_in_its_c_type_runs_as_written(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 8 * L16), ub.alloc(uint16_t, 6 * L16)
        src.write(np.arange(8 * L16))
        with np.errstate(over="ignore"):
            wrapped_offsets(dst, src, 6)
        return dst.read(6 * L16).reshape(6, L16)[:, 0]

    result, error, lines = differential(scenario, caplog)
    assert not error and not ran_batched(lines)
    assert result.tolist() == [0, 64, 128, 192, 0, 64]  # uint8_t: 256 is 0


# -- helpers a loop body calls: __aicore__ functions, templates, methods, older op names ----------

T = TypeVar("T")


@__aicore__
@template(T)
def load_for(dst: Any, src: Any, offset: Any) -> None:
    """A templated ``__aicore__ inline`` helper (the norm library's LoadRegForDtype shape)."""
    Reg.DataCopy[T](dst, src + offset)  # the older name: LoadAlign for a register first


@__aicore__
def store_at(dst: Any, reg: Any, offset: Any, mask: Any) -> None:
    Reg.DataCopy(dst + offset, reg, mask)  # the older name: StoreAlign for a pointer first


class Doubler:
    """A kernel class whose __VEC_SCOPE__ loop calls its own ``__aicore__`` method with a
    private attribute (a name its class mangles)."""

    def __init__(self) -> None:
        self.__times = 2

    @__aicore__
    def scale(self, reg: Any, times: int, mask: Any) -> None:
        Reg.Muls(reg, reg, times, mask)

    @__aicore__
    def run(self, dst: Any, src: Any, n: int) -> None:
        with __VEC_SCOPE__:
            r = Reg.RegTensor[uint16_t]()
            mask = Reg.CreateMask[uint16_t]()
            for i in range(n):
                load_for[uint16_t](r, src, uint32_t(i) * L16)
                self.scale(r, self.__times, mask)
                store_at(dst, r, i * L16, mask)


def _tripler_class() -> type:
    """A kernel class a factory makes (its module does not name it), as for a C++ class
    template: its loop calls its own method and makes its registers two at a time."""

    class Tripler:
        @__aicore__
        def scale(self, reg: Any, mask: Any) -> None:
            Reg.Muls(reg, reg, 3, mask)

        @__aicore__
        def run(self, dst: Any, src: Any, n: int) -> None:
            with __VEC_SCOPE__:
                mask = Reg.CreateMask[uint16_t]()
                for i in range(n):
                    r, out = (Reg.RegTensor[uint16_t]() for _ in range(2))
                    Reg.LoadAlign(r, src + i * L16)
                    self.scale(r, mask)
                    Reg.Adds(out, r, 0, mask)
                    Reg.StoreAlign(dst + i * L16, out, mask)

    return Tripler


@pytest.mark.parametrize(
    ("kernel_class", "factor"),
    [(Doubler, 2), (_tripler_class(), 3)],
    ids=["module-level class", "factory-made class"],
)
def test_a_loop_calling_aicore_helpers_template_ones_and_methods_runs_batched(
    caplog: pytest.LogCaptureFixture, kernel_class: Any, factor: int
) -> None:
    def scenario(ub: UnifiedBuffer) -> Any:
        src, dst = ub.alloc(uint16_t, 4 * L16), ub.alloc(uint16_t, 4 * L16)
        src.write(np.arange(4 * L16))
        with block(BlockContext()) as ctx:
            ctx.ub = ub
            kernel_class().run(dst, src, 4)
        return dst.read(4 * L16)

    result, error, lines = differential(scenario, caplog)
    assert not error and ran_batched(lines), lines
    np.testing.assert_array_equal(result, np.arange(4 * L16) * factor)


@ascreg.__simd_vf__
def scale_rows(
    dst: UbPtr[float32_t], src: UbPtr[float32_t], rows: int, width: int, over: int
) -> None:
    """Rows of *width* floats back to back, two registers each, *over* lanes enabled past each
    row: a row's tail register spans the next row's start (the production rms_norm's ComputeY),
    and only its enabled lanes write there."""
    x = Reg.RegTensor[float32_t]()
    for i in range(rows):
        count = Ref(width + over)
        for j in range(2):
            mask = Reg.UpdateMask[float32_t](count)
            Reg.LoadAlign(x, src + i * width + j * L32)
            Reg.Muls(x, x, 3.0, mask)
            Reg.StoreAlign(dst + i * width + j * L32, x, mask)


@pytest.mark.parametrize("over", [0, 8])
def test_masked_stores_whose_whole_registers_overlap_the_next_row_batch(
    over: int, caplog: pytest.LogCaptureFixture
) -> None:
    """The overlap check counts a masked store's enabled lanes only: a row's tail of 40 lanes
    ends at the row's end and the loop batches; 8 more lanes write the next row's start (which
    that row then overwrites) and the loop runs in eager order."""
    width, rows = 104, 8  # (a row of 104 floats: 32-byte aligned, 40 past one register)

    def scenario(ub: UnifiedBuffer) -> Any:
        ctx = BlockContext()
        with block(ctx):
            src = ctx.ub.alloc(float32_t, rows * width + L32)
            dst = ctx.ub.alloc(float32_t, rows * width + L32)
            with ctx.simd_vf():
                src.write(np.arange(rows * width + L32) % 17)
                dst.write(np.zeros(rows * width + L32))
            scale_rows(dst, src, rows, width, over)
            ctx.mem_bar()
            with ctx.simd_vf():  # (read back on the vector pipe: no V -> S flag needed)
                return dst.read(rows * width + over)

    result, error, lines = differential(scenario, caplog)
    assert not error
    outer = any("batched over 8 iterations" in line for line in lines)  # (the rows' loop)
    assert outer == (over == 0), lines
    assert over == 0 or "another iteration stores" in eager_reason(lines)
    expected = (np.arange(rows * width + over) % 17) * np.float32(3.0)
    np.testing.assert_array_equal(result, expected)
