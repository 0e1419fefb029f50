"""Memory-level vector functions of the C API that dav-3510 keeps (UB in, UB out, ``PIPE_V``).

They are called from the kernel body, like the copies: order their UB accesses against the
other pipes with notify/wait or a barrier. ``asc_transpose`` transposes one 16 x 16 block of
16-bit elements (``ascreg.core.transpose``).

Examples
--------
>>> import numpy as np
>>> from ascreg import int16_t
>>> from ascreg.c_api import *
>>> from ascreg.machine.kernel import BlockContext, block
>>> total_length = 256
>>> with block(BlockContext()):
...     dst, src = __ubuf__(int16_t, total_length), __ubuf__(int16_t, total_length)
...     src.write(np.arange(total_length, dtype=np.int16)); asc_sync()
...     asc_transpose_sync(dst, src)
...     dst.read(3).tolist()
[0, 16, 32]
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import operands
from ascreg._frontend.template import define
from ascreg.core.transpose import SIDE, transpose16
from ascreg.errors import AscregTypeError
from ascreg.machine.block import current_block
from ascreg.machine.memory import DATA_BLOCK, UbPtr
from ascreg.machine.sync import Pipe

__all__ = ["asc_transpose", "asc_transpose_sync"]


def _transpose(op: Any, dst: Any, src: Any) -> None:
    ctx = current_block()
    for ptr, role in ((dst, "dst"), (src, "src")):
        operands.instance(ptr, UbPtr, role)
        ptr.require_alignment(DATA_BLOCK, f"{role} must be 32-byte aligned ({op.name})")
    op.spec.check(dst.dtype)
    if src.dtype is not dst.dtype:
        raise AscregTypeError(f"dst is {dst!r} but src is {src!r} (one element type)")
    with ctx.on_pipe(Pipe.PIPE_V):
        block = transpose16(src.view(SIDE * SIDE))
        dst.view(SIDE * SIDE, "writes")[:] = block
    if op.synced:
        ctx.tracker.barrier()


_DOC = """``{name}(__ubuf__ T* dst, __ubuf__ T* src)``: transpose one 16 x 16 block of ``int16_t`` /
    ``uint16_t`` (``PIPE_V``){sync}.

    Both addresses are 32-byte aligned; element (r, c) of *src* becomes (c, r) of *dst*.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import uint16_t
    >>> from ascreg.c_api import __ubuf__, asc_sync, asc_sync_vec
    >>> from ascreg.machine.kernel import BlockContext, block
    >>> with block(BlockContext()):
    ...     dst, src = __ubuf__(uint16_t, 256), __ubuf__(uint16_t, 256)
    ...     src.write(np.arange(256, dtype=np.uint16)); asc_sync()
    ...     {name}(dst, src); asc_sync_vec()
    ...     dst.read(256)[[1, 16]].tolist()
    [16, 1]
    """

asc_transpose, asc_transpose_sync = (
    define(name, doc=_DOC.format(name=name, sync=sync), synced=bool(sync))(_transpose)
    for name, sync in (
        ("asc_transpose", ""),
        ("asc_transpose_sync", ", then a ``PIPE_ALL`` barrier"),
    )
)
