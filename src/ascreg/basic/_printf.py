r"""``AscendC::printf``: the kernel's formatted debug output (utils/debug/asc_printf.h).

The conversions of the 950's page: ``%d %i`` (and ``%ld %lld %li %lli``) signed decimals,
``%u %lu %llu`` unsigned, ``%x %lx %llx`` hexadecimal (a negative value as its type's two's
complement), ``%f %F`` floats (half and bfloat16 too), ``%s`` strings and ``%p`` addresses; the
flags, width and precision of C. In a block's scalar code each call's output starts with
``[AIV Block i/n] `` as the chip's does; inside a SIMD VF (and outside a kernel) it does not.

Examples
--------
>>> from ascreg import int8_t
>>> printf("int=%d hex=%x float=%.2f %s\n", 291, int8_t(-1), 3.14159, "ok")
int=291 hex=ff float=3.14 ok
"""

from __future__ import annotations

import re
import sys
from typing import Any

import numpy as np

from ascreg.errors import AscregTypeError
from ascreg.machine.block import running_block
from ascreg.machine.memory import Pointer

__all__ = ["printf"]

_SPEC = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\d*)(?P<precision>\.\d*)?(?P<length>ll|l|hh|h|z)?"
                   r"(?P<conversion>[diuxXfFeEgGscp%])")  # fmt: skip
"""One C conversion specification."""


def _bits(value: Any, length: str | None) -> int:
    """Return the width of *value*'s integer type (a Python int: ``long`` 64 bits, else 32)."""
    dtype = getattr(value, "dtype", None)
    if dtype is not None and dtype.kind in "iub":
        return int(dtype.itemsize) * 8
    return 64 if length in ("l", "ll", "z") else 32


def _integer(value: Any, conversion: str) -> int:
    if isinstance(value, float | np.floating):
        raise AscregTypeError(
            f"%{conversion} takes an integer, got the float {value!r}", call="printf"
        )
    return int(value)


def _convert(match: re.Match[str], value: Any) -> str:
    """Format *value* by one specification (``%%`` has none)."""
    flags, width, precision = match["flags"], match["width"], match["precision"] or ""
    conversion, length = match["conversion"], match["length"]
    if conversion in "di":
        return f"%{flags}{width}{precision}d" % _integer(value, conversion)
    if conversion in "uxX":
        number = _integer(value, conversion) % (1 << _bits(value, length))
        return f"%{flags}{width}{precision}{'d' if conversion == 'u' else conversion}" % number
    if conversion in "fFeEgG":
        return f"%{flags}{width}{precision}{conversion}" % float(value)
    if conversion == "c":
        return f"%{flags}{width}c" % (chr(int(value)) if not isinstance(value, str) else value)
    if conversion == "p":
        address = value.address if isinstance(value, Pointer) else int(value)
        return f"%{flags}{width}s" % hex(address)
    return f"%{flags}{width}{precision}s" % (value,)


def printf(fmt: str, *args: Any) -> None:
    r"""``AscendC::printf(fmt, args...)``: print *args* formatted by the C format *fmt*.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext(block_idx=1, block_num=8)):
    ...     printf("fmt string int: %d\n", 0x123)
    [AIV Block 1/8] fmt string int: 291
    >>> printf("%u %lld", -1)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: printf: the format "%u %lld" has 2 conversions, 1 argument given
    """
    if not isinstance(fmt, str):
        raise AscregTypeError(f"fmt must be a string, got {fmt!r:.40}", call="printf")
    specs = [m for m in _SPEC.finditer(fmt) if m["conversion"] != "%"]
    if len(specs) != len(args):
        raise AscregTypeError(
            f'the format "{fmt}" has {len(specs)} conversions, {len(args)} argument'
            f"{'' if len(args) == 1 else 's'} given",
            call="printf",
        )
    values = iter(args)
    text = _SPEC.sub(lambda m: "%" if m["conversion"] == "%" else _convert(m, next(values)), fmt)
    ctx = running_block()
    if ctx is not None and not ctx.in_simd_vf:
        text = f"[AIV Block {ctx.block_idx}/{ctx.block_num}] {text}"
    sys.stdout.write(text)
