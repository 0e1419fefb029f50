"""Long launches show a progress line on a terminal; short ones and non-terminals stay quiet."""

from __future__ import annotations

import io

import numpy as np
import pytest

import ascreg
from ascreg import GlobalMemory, GmPtr, int32_t
from ascreg.errors import PolicyError
from ascreg.machine import progress as progress_module
from ascreg.machine.kernel import __global__, __vector__
from ascreg.machine.progress import LaunchProgress, shows_progress


class Clock:
    """A clock that advances by *step* seconds at every reading."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.split("\r")[1:]]


def test_a_short_launch_prints_nothing() -> None:
    out = io.StringIO()
    bar = LaunchProgress("k<<<8>>>", 8, stream=out, clock=Clock(0.1), show=True)
    for done in range(1, 9):
        bar.update(done)
    bar.close()
    assert out.getvalue() == ""


def test_a_long_launch_rewrites_one_line_and_ends_it() -> None:
    out = io.StringIO()
    bar = LaunchProgress("k<<<8>>>", 8, stream=out, clock=Clock(1.0), show=True)
    for done in range(1, 9):
        bar.update(done)
    bar.close()
    written = lines(out.getvalue())
    # the clock reads 1.0 at the start and 1.0 more at every update: shown from 2 s on
    assert written[0] == "ascreg: k<<<8>>>: 2/8 blocks, 2.0 s, about 6.0 s left"
    assert written[-1] == "ascreg: k<<<8>>>: 8/8 blocks in 9.0 s"
    assert out.getvalue().count("\n") == 1 and out.getvalue().endswith("\n")


def test_rewrites_are_at_least_an_interval_apart() -> None:
    out = io.StringIO()
    bar = LaunchProgress("k", 1000, stream=out, clock=Clock(0.01), show=True)
    for done in range(1, 1001):
        bar.update(done)
    # 10 s in steps of 0.01 s, shown after 2 s, at most one line per 0.5 s
    assert (
        len(lines(out.getvalue()))
        <= (10 - progress_module.SHOW_AFTER) / progress_module.INTERVAL + 1
    )


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("mode", "stream", "ci", "shown"),
    [
        ("auto", FakeTerminal(), None, True),
        ("auto", FakeTerminal(), "true", False),
        ("auto", io.StringIO(), None, False),
        ("on", io.StringIO(), "true", True),
        ("off", FakeTerminal(), None, False),
    ],
)
def test_the_policy_decides_where_progress_shows(
    monkeypatch: pytest.MonkeyPatch, mode: str, stream: io.StringIO, ci: str | None, shown: bool
) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    with ascreg.policy(progress=mode):  # type: ignore[arg-type]
        assert shows_progress(stream) is shown


def test_a_bad_progress_setting_is_a_policy_error() -> None:
    with pytest.raises(PolicyError, match="progress='loud' is not a policy"):
        ascreg.set_policy(progress="loud")  # type: ignore[arg-type]


@__global__
@__vector__
def fill(out: GmPtr[int32_t]) -> None:
    from ascreg.basic import GetBlockIdx

    out[GetBlockIdx()] = GetBlockIdx()


def test_a_launch_reports_its_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(progress_module, "SHOW_AFTER", 0.0)
    monkeypatch.setattr(progress_module, "INTERVAL", 0.0)
    monkeypatch.setattr(progress_module.sys, "stderr", out)
    gm = GlobalMemory().alloc(int32_t, 8)
    with ascreg.policy(progress="on"):
        fill[8, 0, None](gm)
    assert np.array_equal(gm.read(8), np.arange(8))
    written = lines(out.getvalue())
    assert written[-1].startswith("ascreg: fill<<<8, 0, None>>>: 8/8 blocks in ")
    assert [line.split(": ")[2].split(",")[0] for line in written[:-1]] == [
        f"{done}/8 blocks" for done in range(9)
    ]
