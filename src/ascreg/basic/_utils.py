"""The integer helpers of ``namespace AscendC`` kernels call: ``DivCeil`` and ``AlignUp``.

Both are ``constexpr`` functions of ``uint32_t`` in the basic API's utilities
(``kernel_utils_ceil_oom_que.h``): the arithmetic wraps modulo 2**32 as the C++ does
(``DivCeil(a, b)`` is ``(a + b - 1) / b`` in ``uint32_t``), and a divisor of 0 is an error
(undefined behaviour in C++).

Examples
--------
>>> DivCeil(100, 32), AlignUp(100, 32)
(4, 128)
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import operands
from ascreg.errors import AscregError

__all__ = ["AlignUp", "DivCeil"]

_U32 = 1 << 32


def _operands(a: Any, b: Any, call: str) -> tuple[int, int]:
    """Return *a* and *b* as ``uint32_t`` values (converted as C++ converts an int argument)."""
    x = operands.integer(a, "a") % _U32
    y = operands.integer(b, "b") % _U32
    if y == 0:
        raise AscregError(f"{call}({a}, {b}): division by zero (undefined behaviour in C++)")
    return x, y


def DivCeil(a: Any, b: Any) -> int:
    """``AscendC::DivCeil(uint32_t a, uint32_t b)``: ``(a + b - 1) / b`` in ``uint32_t``.

    The sum wraps modulo 2**32 as in C++, so a quotient near 2**32 comes out small; negative
    arguments are converted to ``uint32_t`` first. ``b`` must not be 0.

    Examples
    --------
    >>> DivCeil(64, 32), DivCeil(65, 32), DivCeil(0, 7)
    (2, 3, 0)
    >>> DivCeil(2**32 - 1, 2)  # 2**32 - 1 + 1 wraps to 0: (0) / 2
    0
    """
    x, y = _operands(a, b, "DivCeil")
    return ((x + y - 1) % _U32) // y


def AlignUp(a: Any, b: Any) -> int:
    """``AscendC::AlignUp(uint32_t a, uint32_t b)``: ``DivCeil(a, b) * b`` in ``uint32_t``.

    *a* rounded up to a multiple of *b* (the product wraps modulo 2**32 as in C++).

    Examples
    --------
    >>> AlignUp(40, 32), AlignUp(64, 32), AlignUp(5, 3)
    (64, 64, 6)
    """
    x, y = _operands(a, b, "AlignUp")
    return ((((x + y - 1) % _U32) // y) * y) % _U32
