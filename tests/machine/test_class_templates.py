"""A class template written as a function that makes the class: its methods are rewritten once.

``def Kernel(T, times): class K: ...; return K`` makes a new class on every call (often every
launch). Two such classes with the same methods, the same closure values and equal class
constants share their ``__VEC_SCOPE__`` methods' rewrite (and the plans of their loops);
other template arguments or constants get their own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ascreg import Reg, float32_t, half
from ascreg.basic import __VEC_SCOPE__
from ascreg.machine import kernel
from ascreg.machine.kernel import BlockContext, __aicore__, block

ROWS = 4


def Scaler(T: Any, times: int) -> type:
    """``template <typename T, int TIMES> class Scaler``: scale rows of T by TIMES."""

    class Scaler:
        TIMES = float(times)

        @__aicore__
        def Compute(self, dst: Any, src: Any) -> None:
            lanes = 256 // T.size
            with __VEC_SCOPE__:
                r, full = Reg.RegTensor[T](), Reg.CreateMask[T]()
                for i in range(ROWS):
                    Reg.LoadAlign(r, src + i * lanes)
                    Reg.Muls(r, r, T(self.TIMES), full)
                    Reg.StoreAlign(dst + i * lanes, r, full)

    return Scaler


def launch(T: Any, times: int) -> np.ndarray[Any, Any]:
    """Make the class anew (as a launch of the kernel would) and run it on fresh rows."""
    lanes = 256 // T.size
    ctx = BlockContext()
    with block(ctx):
        with ctx.simd_vf():
            src, dst = ctx.ub.alloc(T, ROWS * lanes), ctx.ub.alloc(T, ROWS * lanes)
            src.write(np.arange(ROWS * lanes) % 7)
        Scaler(T, times)().Compute(dst, src)
        with ctx.simd_vf():
            result: np.ndarray[Any, Any] = dst.read(ROWS * lanes)
    return result


@pytest.fixture
def rewrites(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the methods the engine rewrites while the test runs."""
    made: list[str] = []
    engine = kernel.hook.engine()
    rewrite = engine.vec_scoped

    def counted(func: Any, **kwargs: Any) -> Any:
        made.append(func.__name__)
        return rewrite(func, **kwargs)

    monkeypatch.setattr(engine, "vec_scoped", counted)
    return made


def test_equal_classes_share_a_rewrite_and_others_get_their_own(rewrites: list[str]) -> None:
    kernel._SCOPED_RUNNERS.clear()
    first = launch(float32_t, 3)
    np.testing.assert_array_equal(first, (np.arange(ROWS * 64) % 7) * 3)
    np.testing.assert_array_equal(launch(float32_t, 3), first)  # a new, equal class
    assert rewrites == ["Compute"]
    np.testing.assert_array_equal(launch(float32_t, 5)[:3], [0, 5, 10])  # another constant
    np.testing.assert_array_equal(launch(half, 3)[:3], [0, 3, 6])  # another T (a cell)
    assert rewrites == ["Compute"] * 3
