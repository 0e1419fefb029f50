"""Undefined lanes keep where they came from through numpy's joining functions, and stop
being undefined where an op gives a defined value.

A batched loop's carried register is scanned iteration by iteration and its rows joined with
``np.stack``; the joined lanes must keep their origin, which the error of a later use names.
A lane a ZEROING op masks off is 0, whatever the source lane held.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ascreg
from ascreg import Ref, Reg, UnifiedBuffer, int32_t
from ascreg.machine.undefined import Origin, undefined_lanes, with_undefined

RACE = Origin("loaded after a store", "insert a barrier")


@pytest.mark.parametrize(
    "join",
    [
        lambda rows: np.stack(rows, axis=1),
        lambda rows: np.concatenate(rows),
    ],
    ids=["stack", "concatenate"],
)
def test_joined_rows_keep_the_origin_of_their_undefined_lanes(join: Any) -> None:
    defined = np.zeros((2, 4), np.float32)
    tainted = with_undefined(np.ones((2, 4), np.float32), np.eye(2, 4, dtype=bool), RACE)
    joined = join([defined, tainted])
    assert joined.origin == RACE
    assert int(undefined_lanes(joined).sum()) == 2


def test_a_zeroed_lane_of_a_masked_shift_is_defined() -> None:
    """A lane a ZEROING ``ShiftRight`` masks off is 0 whatever the source held there: a lane
    loaded past its buffer's end, then masked off, stores without an error (eager and batched)."""
    ub = UnifiedBuffer()
    src, counts, dst = ub.alloc(int32_t, 127), ub.alloc(int32_t, 64), ub.alloc(int32_t, 128)
    src.write(np.arange(127))
    counts.write(np.full(64, 2))

    @ascreg.__simd_vf__
    def shift_rows(src: Any, counts: Any, dst: Any, on: int) -> None:
        x, n = Reg.RegTensor[int32_t](), Reg.RegTensor[int32_t]()
        full = Reg.CreateMask[int32_t]()
        Reg.LoadAlign(n, counts)
        for i in range(2):
            mask = Reg.UpdateMask[int32_t](Ref(on))
            Reg.LoadAlign(x, src + i * 64)  # row 1's lane 63 lies past the end: undefined
            Reg.ShiftRight(x, x, n, mask)
            Reg.StoreAlign(dst + i * 64, x, full)

    for execution in ("eager", "batched"):
        with ascreg.policy(execution=execution):
            shift_rows(src, counts, dst, 63)
        want = np.concatenate([np.arange(63) >> 2, [0], np.arange(64, 127) >> 2, [0]])
        np.testing.assert_array_equal(dst.read(128), want)
