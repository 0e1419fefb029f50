"""Compare / Compares / Select, one lane at a time."""

from __future__ import annotations

from collections.abc import Sequence

from ascreg._dtypes import Scalar
from reference.common import value_of

CMP = {
    "EQ": lambda a, b: a == b,
    "NE": lambda a, b: a != b,
    "GT": lambda a, b: a > b,
    "GE": lambda a, b: a >= b,
    "LT": lambda a, b: a < b,
    "LE": lambda a, b: a <= b,
}
"""Python's operators on ints and floats are exactly the spec's rules (NaN false except NE,
+0 == -0)."""


def compare(
    mode: str, dtype: type[Scalar], a: Sequence[int], b: Sequence[int], active: Sequence[bool]
) -> list[bool]:
    return [
        bool(act) and CMP[mode](value_of(x, dtype), value_of(y, dtype))
        for x, y, act in zip(a, b, active, strict=True)
    ]


def select(a: Sequence[int], b: Sequence[int], sel: Sequence[bool]) -> list[int]:
    return [x if s else y for x, y, s in zip(a, b, sel, strict=True)]
