"""``asc_load`` / ``asc_store`` inside a loop run batched, with the eager result and errors.

Their batching rule makes the address one per iteration (any element offset, rows that
overlap included); a stream's pointer variable (a ``Ref``) or a per-iteration count keeps the
loop eager. Each case runs both ways and compares UB byte for byte.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ascreg
from ascreg import Ref, UnifiedBuffer, __simd_vf__, float32_t, half, int8_t, uint16_t
from ascreg.c_api import (
    asc_load,
    asc_store,
    vector_float,
    vector_half,
    vector_int8_t,
    vector_uint16_t,
)
from ascreg.errors import AscregError
from helpers import batch_log

VECTORS = {
    float32_t: vector_float,
    half: vector_half,
    int8_t: vector_int8_t,
    uint16_t: vector_uint16_t,
}


def copy_vf(dtype: Any) -> Any:
    vector = VECTORS[dtype]

    @__simd_vf__
    def copy(dst: Any, src: Any, start: int, step: int, count: int, n: int) -> None:
        reg = vector()
        for i in range(n):
            asc_load(reg, src + start + i * step)
            asc_store(dst + 2 * start + i * step, reg, count)

    return copy


def run(
    dtype: Any, start: int, step: int, count: int, n: int, eager: bool
) -> tuple[bytes, list[str]]:
    ub = UnifiedBuffer()
    elements = 4096 // dtype.size
    src, dst = ub.alloc(dtype, elements), ub.alloc(dtype, elements)
    src.write((np.arange(elements) % 100).astype(dtype.np_dtype))
    dst.write(np.zeros(elements, dtype.np_dtype))
    with batch_log() as records, ascreg.policy(execution="eager" if eager else "batched"):
        copy_vf(dtype)(dst, src, start, step, count, n)
    return dst.read(4096 // dtype.size).tobytes(), records


@pytest.mark.parametrize("dtype", [float32_t, half, int8_t, uint16_t])
@pytest.mark.parametrize(
    ("start", "step", "count"), [(3, 64, 64), (1, 5, 7), (0, 128, 1), (7, 200, 128)]
)
def test_batched_equals_eager(dtype: Any, start: int, step: int, count: int) -> None:
    lanes = 256 // dtype.size
    count = min(count, lanes)
    n = 4
    got, log = run(dtype, start, step, count, n, eager=False)
    want, _ = run(dtype, start, step, count, n, eager=True)
    assert got == want
    if step >= count:
        assert any("batched over 4 iterations" in line for line in log), log
    else:  # a store overwrites the previous iteration's: in order only
        assert any("stores of different iterations overlap" in line for line in log), log


def test_a_stream_pointer_keeps_the_loop_eager() -> None:
    @__simd_vf__
    def stream(dst: Any, src: Any) -> None:
        reg = vector_uint16_t()
        at = Ref(src)
        for i in range(4):
            asc_load(reg, at)
            asc_store(dst + i * 128, reg)
            at.value = at.value + 128

    ub = UnifiedBuffer()
    src, dst = ub.alloc(uint16_t, 512), ub.alloc(uint16_t, 512)
    src.write(np.arange(512))
    with pytest.warns(ascreg.errors.EagerLoopWarning):
        stream(dst, src)
    assert np.array_equal(dst.read(512), np.arange(512))


def test_an_error_is_the_eager_one() -> None:
    """A store past the destination's allocation raises what the eager run raises."""
    errors = []
    for eager in (False, True):
        with pytest.raises(AscregError) as caught:
            run(uint16_t, 0, 1000, 128, 4, eager=eager)
        errors.append((type(caught.value), str(caught.value).split("\n")[0]))
    assert errors[0] == errors[1]
