"""No silent slow path: an eager VF loop warns once, ``explain`` says why, refusals are remembered.

``ascreg.EagerLoopWarning`` is ignored by the suite's filters (pyproject.toml); these tests
record it explicitly (``pytest.warns`` and ``warnings.catch_warnings`` override the filters).
"""

from __future__ import annotations

import logging
import warnings
from typing import Any

import numpy as np
import pytest

import ascreg
from ascreg import EagerLoopWarning, Reg, UnifiedBuffer, __simd_vf__, uint16_t
from ascreg.engine import batch

L16 = 128


def _eager_warnings(call: Any) -> list[str]:
    """Run *call* and return the messages of the EagerLoopWarnings it issued."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", EagerLoopWarning)
        call()
    return [str(w.message) for w in caught if issubclass(w.category, EagerLoopWarning)]


def _buffers() -> tuple[Any, Any]:
    ub = UnifiedBuffer()
    src, dst = ub.alloc(uint16_t, 8 * L16), ub.alloc(uint16_t, 8 * L16)
    src.write(np.arange(8 * L16) % 251)
    return src, dst


def test_a_loop_that_never_batches_warns_once_with_its_reason() -> None:
    @__simd_vf__
    def printing(dst: Any, n: int) -> None:
        r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
        for i in range(n):
            print(end="")
            Reg.Duplicate(r, 1, full)
            Reg.StoreAlign(dst + i * L16, r, full)

    _, dst = _buffers()
    first = _eager_warnings(lambda: printing(dst, 4))
    assert len(first) == 1
    assert "runs eagerly, one iteration at a time: calls print" in first[0]
    assert _eager_warnings(lambda: printing(dst, 4)) == []  # once per loop
    (line,) = ascreg.explain(printing)
    assert line.endswith("calls print, which is not an ascreg operation; ran eagerly 2 times")


def test_the_warning_can_be_an_error() -> None:
    @__simd_vf__
    def printing(dst: Any, n: int) -> None:
        for _ in range(n):
            print(end="")

    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerLoopWarning)
        with pytest.raises(EagerLoopWarning, match="calls print"):
            printing(None, 2)


@__simd_vf__
def shifted(dst: Any, src: Any, n: int) -> None:
    """Each iteration loads the bytes the previous one stored: refused at run time."""
    x, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
    for i in range(n):
        Reg.LoadAlign(x, src + i * L16)
        Reg.StoreAlign(src + i * L16 + L16, x, full)


def test_a_run_time_refusal_warns_once_and_is_remembered(
    caplog: pytest.LogCaptureFixture,
) -> None:
    src, dst = _buffers()
    with caplog.at_level(logging.DEBUG, logger="ascreg.batch"):
        first = _eager_warnings(lambda: shifted(dst, src, 4))
        caplog.clear()
        again = _eager_warnings(lambda: shifted(dst, src, 4))
    assert len(first) == 1 and "shifted line" in first[0], first
    assert again == []
    lines = [r.getMessage() for r in caplog.records]
    assert any("refused before" in line for line in lines), lines  # no second attempt
    (line,) = ascreg.explain(shifted)
    assert "ran eagerly 2 times" in line and "refused at run time for 1 input form(s)" in line


def test_the_policy_and_one_iteration_are_not_warned_about() -> None:
    @__simd_vf__
    def fill(dst: Any, n: int) -> None:
        r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
        for i in range(n):
            Reg.Duplicate(r, 7, full)
            Reg.StoreAlign(dst + i * L16, r, full)

    _, dst = _buffers()
    with ascreg.policy(execution="eager"):
        assert _eager_warnings(lambda: fill(dst, 4)) == []
    assert _eager_warnings(lambda: fill(dst, 1)) == []
    assert _eager_warnings(lambda: fill(dst, 4)) == []
    (line,) = ascreg.explain(fill)
    assert "ran batched 1 time" in line and "ran eagerly 2 times" in line


def test_more_iterations_than_a_batch_holds_are_warned_about(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(batch, "MAX_ITERATIONS", 4)

    @__simd_vf__
    def fill(dst: Any, n: int) -> None:
        r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()
        for i in range(n):
            Reg.Duplicate(r, 7, full)
            Reg.StoreAlign(dst + i * L16, r, full)

    _, dst = _buffers()
    (message,) = _eager_warnings(lambda: fill(dst, 8))
    assert "8 iterations (more than 4)" in message


def test_code_without_a_source_warns_once() -> None:
    namespace: dict[str, Any] = {"Reg": Reg, "uint16_t": uint16_t}
    exec(
        "def vf(dst, n):\n"
        "    r, full = Reg.RegTensor[uint16_t](), Reg.CreateMask[uint16_t]()\n"
        "    for i in range(n):\n"
        "        Reg.Duplicate(r, 7, full)\n"
        "        Reg.StoreAlign(dst + i * 128, r, full)\n",
        namespace,
    )
    vf = __simd_vf__(namespace["vf"])
    _, dst = _buffers()
    (message,) = _eager_warnings(lambda: vf(dst, 4))
    assert "source is unavailable" in message
    assert _eager_warnings(lambda: vf(dst, 4)) == []
    assert dst.read(4 * L16).tolist() == [7] * (4 * L16)
