"""UB -> UB copies of a C API kernel (``asc_copy_ub2ub``, ``PIPE_V``).

Examples
--------
>>> import numpy as np
>>> from ascreg import half
>>> from ascreg.c_api import *
>>> from ascreg.machine.kernel import BlockContext, block
>>> total_length = 128
>>> with block(BlockContext()):
...     src, dst = __ubuf__(half, total_length), __ubuf__(half, total_length)
...     src.write(np.arange(total_length, dtype=np.float16)); asc_sync()
...     asc_copy_ub2ub(dst, src, total_length * half.size)
...     asc_sync_vec()
...     dst.read(4).tolist()
[0.0, 1.0, 2.0, 3.0]
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import operands
from ascreg._frontend.template import define
from ascreg.errors import AscregTypeError
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK, UbPtr
from ascreg.machine.mte import ub_to_ub

__all__ = ["asc_copy_ub2ub", "asc_copy_ub2ub_sync"]

UINT16_MAX = (1 << 16) - 1


def _size_blocks(size: Any) -> int:
    nbytes = operands.in_range(size, "size", DATA_BLOCK, (1 << 32) - 1)
    if nbytes % DATA_BLOCK:
        raise AscregTypeError(f"size {nbytes} must be a multiple of 32 bytes")
    return nbytes // DATA_BLOCK


@define("asc_copy_ub2ub")
def asc_copy_ub2ub(op: Any, *args: Any) -> None:
    """``asc_copy_ub2ub(dst, src, size | n_burst, len_burst, src_gap, dst_gap)``: UB to UB.

    Size form: the first ``size`` bytes (a multiple of 32). Burst form: ``n_burst`` bursts of
    ``len_burst`` 32-byte blocks; ``src_gap`` / ``dst_gap`` are the blocks between the tail of
    one burst and the head of the next. The copy runs on ``PIPE_V``: order it after the UB
    writes it reads (and its readers after it) with notify/wait or a barrier.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint32_t
    >>> from ascreg.c_api import __ubuf__, asc_sync, asc_sync_vec
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     a, b = __ubuf__(uint32_t, 32), __ubuf__(uint32_t, 32)
    ...     a.write(np.arange(32, dtype=np.uint32)); b.write(np.zeros(32, np.uint32)); asc_sync()
    ...     asc_copy_ub2ub(b, a, 2, 1, 1, 1)
    ...     asc_sync_vec()
    ...     b.read(32)[[0, 8, 16]].tolist()
    [0, 0, 16]
    """
    dst, src, *rest = args if len(args) >= 2 else (*args, None, None)
    for ptr, role in ((dst, "dst"), (src, "src")):
        operands.instance(ptr, UbPtr, role)
    current_block()
    args = tuple(rest)
    if len(args) == 1:
        ub_to_ub(dst, src, 1, _size_blocks(args[0]), (0, 0), op.name)
    elif len(args) == 4:
        n_burst, len_burst, src_gap, dst_gap = (
            operands.in_range(value, role, 0, UINT16_MAX)
            for value, role in zip(
                args, ("n_burst", "len_burst", "src_gap", "dst_gap"), strict=True
            )
        )
        ub_to_ub(dst, src, n_burst, len_burst, (src_gap, dst_gap), op.name)
    else:
        raise AscregTypeError(
            f"takes (dst, src, size) or (dst, src, n_burst, len_burst, src_gap, dst_gap); "
            f"got {len(args) + 2} arguments"
        )


@define("asc_copy_ub2ub_sync")
def asc_copy_ub2ub_sync(op: Any, dst: Any, src: Any, size: Any) -> None:
    """``asc_copy_ub2ub_sync(dst, src, uint32_t size)``: the size form, then ``PIPE_ALL`` barrier.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint8_t
    >>> from ascreg.c_api import __ubuf__, asc_sync
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     a, b = __ubuf__(uint8_t, 32), __ubuf__(uint8_t, 32)
    ...     a.write(np.full(32, 7, np.uint8)); asc_sync()
    ...     asc_copy_ub2ub_sync(b, a, 32)
    ...     int(b.read(32).sum())  # no wait needed: the copy is complete
    224
    """
    for ptr, role in ((dst, "dst"), (src, "src")):
        operands.instance(ptr, UbPtr, role)
    ub_to_ub(dst, src, 1, _size_blocks(size), (0, 0), op.name)
    current_block().tracker.barrier()
