"""The cube core's copy registers on dav-3510: the GM -> L1 NZ copy's and the fixpipe's.

The C API writes them on ``PIPE_S`` (``asc_set_gm2l1_nz_para``, ``asc_set_l0c2gm_nz2nd`` ...)
and its copies read them (``asc_copy_gm2l1_nd2nz``, ``asc_copy_l0c2gm`` ...). Each running
block has its own set (:func:`cube_registers`), made on first use with the reset values below.

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     cube_registers().loop3
(1, 0, 0)
"""

from __future__ import annotations

from typing import Any, cast

import attrs

from ascreg.machine.block import BlockContext, current_block
from ascreg.machine.sysregs import CopyLoops


def field(value: int, high: int, low: int) -> int:
    """Return bits ``[high:low]`` of *value*.

    Examples
    --------
    >>> field(0x0010_0020_0001_0003, 47, 32)
    32
    """
    return value >> low & ((1 << (high - low + 1)) - 1)


@attrs.define
class CubeRegisters:
    """The copy registers of one cube core.

    Attributes
    ----------
    nz_para
        ``MTE2_NZ_PARA`` (``asc_set_gm2l1_nz_para``): [15:0] the matrix count, [31:16] the
        destination row stride, [47:32] the C0 column stride (both in 32-byte rows), [63:48]
        the destination matrix stride (in 32-byte blocks).
    loop3
        ``LOOP3_PARA`` (``asc_set_l0c2gm_nz2nd``): the NZ2ND / NZ2DN matrix count, the source
        matrix stride (16-element rows of L0C) and the destination matrix stride (elements).
    channel_para
        ``CHANNEL_PARA`` (``asc_set_l0c2gm_channel_para``): [63:48] the NZ2DN source C0 stride.
    quant_pre
        ``QUANT_PRE`` (``asc_set_l0c_copy_prequant``): the scalar quantisation word.
    fpc
        ``FPC`` (``asc_set_l0c2gm_config``): the relu-vector address, the quantisation-vector
        address (128-byte units of the fixpipe buffer) and the unit flag.
    quant_post, relu_alpha, lrelu_alpha
        ``QUANT_POST``, ``RELU_ALPHA`` and the Leaky ReLU alpha: kept; the modes that read them
        are not modelled.
    gm2l1_loops
        The two loops around ``asc_copy_gm2l1_align`` (``asc_set_gm2l1_loop_size`` /
        ``_loop1_stride`` / ``_loop2_stride``, byte strides).
    gm2l1_pad
        ``asc_set_gm2l1_pad``'s value (kept: the padding mode that reads it is not modelled).
    """

    nz_para: int = 0
    gm2l1_loops: CopyLoops = attrs.field(factory=CopyLoops)
    gm2l1_pad: int = 0
    loop3: tuple[int, int, int] = (1, 0, 0)
    channel_para: int = 0
    quant_pre: int = 0
    fpc: tuple[int, int, bool] = (0, 0, False)
    quant_post: int = 0
    relu_alpha: int = 0
    lrelu_alpha: Any = None


CUBE_REGS_STATE = "cube_regs"
"""The key of a block's :class:`CubeRegisters` in ``BlockContext.state``."""


def cube_registers(ctx: BlockContext | None = None) -> CubeRegisters:
    """Return the cube copy registers of *ctx* (default: the running block), made on first use."""
    ctx = current_block() if ctx is None else ctx
    found = ctx.state.get(CUBE_REGS_STATE)
    if found is None:
        found = ctx.state[CUBE_REGS_STATE] = CubeRegisters()
    return cast(CubeRegisters, found)
