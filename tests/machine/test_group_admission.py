"""The static admission of kernels to block groups (ascreg.engine.groups.admission).

A group runs the kernel body once for all its blocks, so the user code the body reaches must
have no effect but through ascreg calls. These tests pin what the check reaches (template
functions, static methods, objects the blocks share and the functions they hold, nested
scopes) and what it lets through (stores through pointer parameters, read-only helpers, class
templates a factory makes), and that a kernel using them runs as one group with its blocks'
own results.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterator
from typing import Any, TypeVar

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, Reg, UbPtr, float32_t, template
from ascreg.basic import (
    __VEC_SCOPE__,
    PIPE_ALL,
    DataCopy,
    GetBlockIdx,
    GlobalTensor,
    Hardware,
    LocalMemAllocator,
    PipeBarrier,
)
from ascreg.engine.groups import admission, why_not_grouped
from ascreg.machine.kernel import __aicore__, __global__, __vector__

T = TypeVar("T")
N = 256
SEEN: list[int] = []


@template(T)
def noted(x: Any) -> None:
    SEEN.append(int(x))


def calls_a_template(x: Any) -> None:
    noted[float32_t](x)


class Helpers:
    @staticmethod
    def note(x: Any) -> None:
        SEEN.append(int(x))

    @staticmethod
    def ceil_div(a: int, b: int) -> int:
        return (a + b - 1) // b


def calls_a_static_method(x: Any) -> None:
    Helpers.note(x)


class Counter:
    def __init__(self) -> None:
        self.calls = 0  # making it is not the kernel's: not checked

    def bump(self) -> int:
        self.calls += 1
        return self.calls


ops, counter = Helpers(), Counter()


def reads_a_shared_helper(x: Any) -> int:
    return ops.ceil_div(int(x), 8)


def bumps_a_shared_counter(x: Any) -> int:
    return counter.bump()


class ClassTemplate:
    """``C[T]``: the class a factory makes for T, made once (``functools.cache``)."""

    def __init__(self, factory: Any) -> None:
        self._make = functools.cache(factory)

    def __getitem__(self, arguments: Any) -> Any:
        return self._make(*(arguments if isinstance(arguments, tuple) else (arguments,)))


@ClassTemplate
def Scale(U: Any) -> Any:
    class Scale:
        def __init__(self, factor: float) -> None:
            self.factor = factor

        @__aicore__
        def Compute(self, dst: UbPtr[float32_t], src: UbPtr[float32_t]) -> None:
            # dst: a pointer parameter, stored through; `x` made here, also another's parameter
            with __VEC_SCOPE__:
                x, full = Reg.RegTensor[U](), Reg.CreateMask[U]()
                for i in range(N // 64):
                    Reg.LoadAlign(x, src + i * 64)
                    Reg.Muls(x, x, self.factor, full)
                    Reg.StoreAlign(dst + i * 64, x, full)

        def Steps(self, count: int) -> list[int]:
            steps = [64] * count
            steps[0] = 0  # its own list (`steps` is another method's parameter)
            return steps

        def Other(self, steps: Any) -> Any:
            return steps

        def Zero(self, dst: GmPtr[float32_t]) -> None:
            dst[0] = 0.0  # a store through a pointer parameter

    return Scale


@ClassTemplate
def Noisy(U: Any) -> Any:
    class Noisy:
        def Compute(self, dst: Any) -> None:
            dst[0] = 1  # a parameter not annotated as a pointer: maybe the caller's object

    return Noisy


def uses_a_class_template(x: Any) -> None:
    Scale[float32_t](2.0).Other(x)


def uses_a_noisy_class_template(x: Any) -> None:
    Noisy[float32_t]().Compute(x)


def test_user_code_behind_templates_and_static_methods_is_checked() -> None:
    assert "noted (line" in (why_not_grouped(calls_a_template) or "")
    assert "calls SEEN.append" in (why_not_grouped(calls_a_template) or "")
    assert "Helpers.note (line" in (why_not_grouped(calls_a_static_method) or "")


def test_objects_the_blocks_share_may_be_read_not_changed() -> None:
    assert why_not_grouped(reads_a_shared_helper) is None  # (its class's `note` is not called)
    why = why_not_grouped(bumps_a_shared_counter) or ""
    assert "Counter.bump" in why and "writes into self.calls" in why


def test_a_class_template_is_checked_by_the_function_that_makes_its_classes() -> None:
    assert why_not_grouped(uses_a_class_template) is None
    why = why_not_grouped(uses_a_noisy_class_template) or ""
    assert "writes into dst[0], which is not the code's own" in why


def kernel_calling(helper: Any) -> Any:
    """A kernel a factory makes: it calls *helper*, a value it captures."""

    def kernel(x: Any) -> None:
        helper(x)

    return kernel


def test_a_lambda_is_checked_by_its_own_code() -> None:
    pure = lambda x: ops.ceil_div(x, 8)  # noqa: E731
    noisy = lambda x: SEEN.append(x)  # noqa: E731
    twins = (lambda x: x), (lambda x: -x)  # two alike on one line: which is which is unknown
    make = kernel_calling
    assert why_not_grouped(make(pure)) is None
    assert "<lambda> (line" in (why_not_grouped(make(noisy)) or "")
    assert "calls SEEN.append" in (why_not_grouped(make(noisy)) or "")
    assert "its source cannot be read" in (why_not_grouped(make(twins[0])) or "")


def test_kernels_a_factory_makes_are_checked_each_with_its_own_captured_values() -> None:
    make = kernel_calling
    assert why_not_grouped(make(reads_a_shared_helper)) is None
    assert "calls SEEN.append" in (why_not_grouped(make(calls_a_static_method)) or "")
    assert len({admission._checked(make(f))[0] for f in (abs, calls_a_template)}) == 2


@__global__
@__vector__
def scaled(x: GmPtr[float32_t], y: GmPtr[float32_t]) -> None:
    xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x + GetBlockIdx() * N)
    yGm.SetGlobalBuffer(y + GetBlockIdx() * N)
    allocator = LocalMemAllocator[Hardware.UB]()
    xLocal, yLocal = allocator.Alloc[float32_t, N](), allocator.Alloc[float32_t, N]()
    DataCopy(xLocal, xGm, ops.ceil_div(N, 1))
    PipeBarrier[PIPE_ALL]()
    Scale[float32_t](3.0).Compute(yLocal.GetPhyAddr(), xLocal.GetPhyAddr())
    PipeBarrier[PIPE_ALL]()
    DataCopy(yGm, yLocal, N)


@pytest.fixture
def group_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.DEBUG, logger="ascreg.groups")
    yield caplog


def test_a_kernel_using_a_class_template_and_shared_helpers_runs_as_one_group(
    group_log: pytest.LogCaptureFixture,
) -> None:
    gm = GlobalMemory()
    source = np.random.default_rng(3).standard_normal(4 * N).astype(np.float32)
    x, y = gm.alloc(float32_t, 4 * N), gm.alloc(float32_t, 4 * N)
    x.write(source)
    scaled[4, 0, None](x, y)
    np.testing.assert_array_equal(y.read(4 * N), source * np.float32(3.0))
    said = [r.getMessage() for r in group_log.records if r.getMessage().startswith("scaled")]
    assert "scaled: blocks 0-3 ran as one group" in said, said
