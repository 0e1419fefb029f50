"""DivCeil and AlignUp: uint32_t arithmetic as the C++ constexpr functions do it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg.basic import AlignUp, DivCeil
from ascreg.errors import AscregError

U32 = st.integers(0, 2**32 - 1)


def _u32_div_ceil(a: int, b: int) -> np.uint32:
    with np.errstate(over="ignore"):
        return (np.uint32(a) + np.uint32(b) - np.uint32(1)) // np.uint32(b)


@given(a=U32, b=st.integers(1, 2**32 - 1))
def test_div_ceil_and_align_up_wrap_as_uint32(a: int, b: int) -> None:
    quotient = _u32_div_ceil(a, b)
    assert DivCeil(a, b) == int(quotient)
    with np.errstate(over="ignore"):
        assert AlignUp(a, b) == int(quotient * np.uint32(b))


def test_small_values_and_conversions() -> None:
    assert [DivCeil(n, 8) for n in (0, 1, 8, 9)] == [0, 1, 1, 2]
    assert AlignUp(np.uint32(33), 32) == 64
    assert DivCeil(-1, 1) == 2**32 - 1  # -1 converts to uint32_t
    with pytest.raises(AscregError, match=r"DivCeil\(4, 0\): division by zero"):
        DivCeil(4, 0)
    with pytest.raises(AscregError, match="AlignUp"):
        AlignUp(4, 2**32)  # converts to 0
