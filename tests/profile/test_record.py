"""What the recorder sees: batched, replayed, undone and eager loops, plain code, the switches."""

from __future__ import annotations

import contextlib
import inspect
import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ascreg
import profile_kernels
from ascreg import GlobalMemory, GmPtr, Reg, UbPtr, UnifiedBuffer, float32_t
from ascreg.c_api import (
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __global__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_sync,
    asc_sync_notify,
    asc_sync_wait,
)
from ascreg.engine import plans
from ascreg.errors import AscregError, PolicyError
from ascreg.machine.kernel import __simd_vf__
from ascreg.machine.trace import GENERATION, RECORDING
from ascreg.profile import Profile
from profile_kernels import TILE, record

TILE_BYTES = TILE * 4


@__simd_vf__
def summed(dst: UbPtr[float32_t], src: UbPtr[float32_t], n: int) -> None:
    """A loop-carried register: the batched attempt is undone, the loop runs eagerly."""
    r, acc = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    Reg.Duplicate(acc, 0.0, Reg.CreateMask[float32_t]())
    for i in range(n // 64):
        Reg.LoadAlign(r, src + i * 64)
        Reg.Add(acc, acc, r, Reg.CreateMask[float32_t]())
    Reg.StoreAlign(dst, acc, Reg.CreateMask[float32_t]())


@__global__
@__vector__
def reduce_tiles(x: GmPtr[float32_t], y: GmPtr[float32_t], tiles: int) -> None:
    a, b = __ubuf__(float32_t, TILE), __ubuf__(float32_t, 64)
    for t in range(tiles):
        asc_copy_gm2ub_align(a, x + t * TILE, TILE_BYTES)
        asc_sync_notify(PIPE_MTE2, PIPE_V, 0)
        asc_sync_wait(PIPE_MTE2, PIPE_V, 0)
        summed(b, a, TILE)
        asc_sync_notify(PIPE_V, PIPE_MTE3, 0)
        asc_sync_wait(PIPE_V, PIPE_MTE3, 0)
        asc_copy_ub2gm_align(y + t * 64, b, 256)
        asc_sync()


def vf_groups(prof: Profile) -> list[list[tuple[str, int]]]:
    """The (op, calls) of each VF call of the first block."""
    program = prof.recorder.records[0].program
    return [[(g.name, g.calls) for g in i.groups] for i in program if i.kind == "vf"]


PIPELINE_VF = [
    ("Reg.CreateMask", 1),
    ("Reg.LoadAlign", 4),
    ("Reg.Add", 4),
    ("Reg.StoreAlign", 4),
]


def test_a_batched_loop_yields_one_slice_per_op() -> None:
    prof = record(3, 1)
    assert vf_groups(prof) == [PIPELINE_VF] * 3  # the first runs batched, the others replay
    names = [s.name for s in prof.timeline.blocks[0].slices if s.kind == "group"]
    assert names == [name for name, _ in PIPELINE_VF] * 3


def test_a_later_profile_replays_the_plans_an_earlier_one_saw_recorded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = record.__wrapped__(3, 1)
    attempts: list[int] = []
    real = plans._attempt
    monkeypatch.setattr(plans, "_attempt", lambda *a, **k: attempts.append(1) or real(*a, **k))
    second = record.__wrapped__(3, 1)
    assert vf_groups(second) == vf_groups(first) == [PIPELINE_VF] * 3
    assert not attempts  # no batched run: the first profile's plans replay, their ops counted


def test_a_profile_does_not_replay_plans_recorded_unprofiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gm = GlobalMemory()
    x, y = gm.alloc(float32_t, 2 * TILE), gm.alloc(float32_t, 2 * TILE)
    x.write(np.arange(2 * TILE, dtype=np.float32))
    attempts: list[int] = []
    real = plans._attempt
    GENERATION[0] += 1  # a fresh table of loops: no plan recorded so far is counted
    runner = profile_kernels.double_vf.__ascreg_runner__  # type: ignore[attr-defined]
    for site in runner[0].__ascreg_sites__:
        site.plans.clear()  # (and none of them replays: the unprofiled run records anew)
        if site.whole is not None:
            site.whole.plans.clear()
    try:
        profile_kernels.pipeline[1, 0, None](x, y, 2, 1, ())  # plans recorded by no profile
        monkeypatch.setattr(plans, "_attempt", lambda *a, **k: attempts.append(1) or real(*a, **k))
        assert vf_groups(record.__wrapped__(2, 1)) == [PIPELINE_VF] * 2
    finally:
        GENERATION[0] -= 1
    assert attempts  # their ops were never counted: the loop runs batched once more


def test_eager_and_batched_runs_give_the_same_schedule() -> None:
    batched = record(3, 2)
    with ascreg.policy(execution="eager"):
        eager = record.__wrapped__(3, 2)
    assert vf_groups(eager) == vf_groups(batched)
    assert eager.makespan == batched.makespan


def test_the_trace_grows_with_the_ops_not_the_data() -> None:
    ub = UnifiedBuffer()
    src, dst = ub.alloc(float32_t, 64 * 64), ub.alloc(float32_t, 64 * 64)
    src.write(np.ones(64 * 64, np.float32))
    sizes = []
    for repeats in (4, 64):
        with ascreg.profile() as prof:
            double(dst, src, 64 * repeats)
        sizes.append(len(prof.trace()["traceEvents"]))
        assert [(s.name, s.args["calls"]) for s in prof.timeline.blocks[0].slices][-3:] == [
            ("Reg.LoadAlign", repeats),
            ("Reg.Add", repeats),
            ("Reg.StoreAlign", repeats),
        ]
    assert sizes[0] == sizes[1]


@__simd_vf__
def double(dst: UbPtr[float32_t], src: UbPtr[float32_t], n: int) -> None:
    mask = Reg.CreateMask[float32_t]()
    r = Reg.RegTensor[float32_t]()
    for i in range(n // 64):
        Reg.LoadAlign(r, src + i * 64)
        Reg.Add(r, r, r, mask)
        Reg.StoreAlign(dst + i * 64, r, mask)


def test_an_undone_batch_is_not_counted_twice() -> None:
    gm = GlobalMemory()
    x, y = gm.alloc(float32_t, 2 * TILE), gm.alloc(float32_t, 128)
    x.write(np.ones(2 * TILE, np.float32))
    with ascreg.profile() as prof:
        reduce_tiles[1, 0, None](x, y, 2)
    assert y.read(2).tolist() == [4.0, 4.0]
    expected = [
        ("Reg.CreateMask", 1), ("Reg.Duplicate", 1), ("Reg.LoadAlign", 4),
        ("Reg.CreateMask", 4), ("Reg.Add", 4), ("Reg.CreateMask", 1), ("Reg.StoreAlign", 1),
    ]  # fmt: skip
    assert vf_groups(prof) == [expected, expected]


def test_plain_code_outside_a_kernel_is_one_block() -> None:
    ub = UnifiedBuffer()
    src, dst = ub.alloc(float32_t, 256), ub.alloc(float32_t, 256)
    src.write(np.ones(256, np.float32))
    with ascreg.profile() as prof:
        double(dst, src, 256)
    (block,) = prof.timeline.blocks
    assert block.label == "plain Reg code (no kernel)"
    assert {s.track for s in block.slices} == {"SCALAR", "VECTOR"}  # the VF is issued, then runs
    assert prof.makespan == sum(s.dur for s in block.slices) > 0


def test_the_policy_switch_writes_its_profile(tmp_path: Path) -> None:
    path = tmp_path / "policy.json"
    with contextlib.redirect_stdout(io.StringIO()), ascreg.policy(profile=str(path)) as policy:
        assert policy.profile == str(path) and RECORDING
        from ascreg.examples import vector_add

        vector_add.main()
    assert not RECORDING and ascreg.get_policy().profile is None
    assert path.exists() and ascreg.profile.last().path == path
    ascreg.set_policy(profile=str(tmp_path / "again.json"))
    assert RECORDING
    ascreg.set_policy(profile=False)
    assert not RECORDING and (tmp_path / "again.json").exists()
    with pytest.raises(PolicyError, match=r"profile=3 is not a policy"):
        ascreg.set_policy(profile=3)  # type: ignore[arg-type]


def test_profiles_do_not_nest_and_always_stop() -> None:
    outer = ascreg.profile().start()
    with pytest.raises(AscregError, match="another profile is recording"), ascreg.profile():
        pass
    outer.stop()
    assert not RECORDING
    with pytest.raises(ZeroDivisionError), ascreg.profile():
        1 / 0  # noqa: B018
    assert not RECORDING


def test_a_profile_still_recording_has_no_timeline() -> None:
    prof = ascreg.profile().start()
    try:
        with pytest.raises(AscregError, match="still recording"):
            prof.timeline  # noqa: B018
    finally:
        prof.stop()
    assert prof.makespan == 0 and "nothing was recorded" in prof.summary(show=False).text()


def test_the_summary() -> None:
    out = io.StringIO()
    found = record(8, 2).summary(file=out)
    text = out.getvalue()
    assert text == found.text() + "\n"
    lines = text.splitlines()
    assert lines[0] == "ascreg profile: 1 launch(es), 1 block(s), cost table dav-3510"
    assert lines[1].startswith(f"makespan: {found.makespan_cycles:,.0f} cycles = ")
    assert "us at 1.6 GHz (PyPTO cost model" in lines[1]
    assert found.bound == "MTE2" and "bound: MTE2" in lines
    assert found.lines[0].names == ("asc_copy_gm2ub_align",)
    source = inspect.getsource(profile_kernels).splitlines()
    line = next(i for i, text in enumerate(source, 1) if "asc_copy_gm2ub_align(xs[b]" in text)
    assert found.lines[0].source == f"profile_kernels.py:{line}"
    assert found.busy["MTE2"][1] > 0.9


def test_import_ascreg_does_not_load_the_profiler() -> None:
    code = (
        "import sys, ascreg; assert 'ascreg.profile' not in sys.modules; "
        "p = ascreg.profile; assert 'ascreg.profile' not in sys.modules; "
        "prof = ascreg.profile('t.json'); assert 'ascreg.profile' in sys.modules; "
        "assert type(prof).__name__ == 'Profile' and ascreg.profile.Profile is type(prof); "
        "print(repr(p))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "<module 'ascreg.profile' (not loaded yet)>"


def test_the_spellings_agree() -> None:
    assert type(ascreg.profile()) is ascreg.profile.Profile is type(ascreg.profile.profile())
    with pytest.raises(AscregError, match="costs must be a CostTable"):
        ascreg.profile(costs={"MTE2": 1})  # type: ignore[arg-type]
