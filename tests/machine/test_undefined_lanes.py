"""Undefined lanes keep where they came from through numpy's joining functions.

A batched loop's carried register is scanned iteration by iteration and its rows joined with
``np.stack``; the joined lanes must keep their origin, which the error of a later use names.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

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
