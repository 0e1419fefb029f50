"""The structs of the memory-level basic API: precision configs and repeat parameters.

``DivConfig`` ... ``BinaryConfig`` are the ``config`` template arguments of the element-wise
ops; ``CopyRepeatParams``, ``TransDataTo5HDParams`` and ``BrcbRepeatParams`` the parameter structs
of ``Copy``, ``TransDataTo5HD`` and ``Brcb``. (They live apart from the ops so that the ops'
generated stubs can re-export them.)

Examples
--------
>>> CopyRepeatParams().srcRepeatSize, DEFAULT_DIV_CONFIG.algo.name
(8, 'INTRINSIC')
"""

from __future__ import annotations

import enum

import attrs

from ascreg._frontend import operands
from ascreg.enums import DivAlgo, ExpAlgo, SqrtAlgo

__all__ = [
    "DEFAULT_BINARY_CONFIG",
    "DEFAULT_DIV_CONFIG",
    "DEFAULT_EXP_CONFIG",
    "DEFAULT_LN_CONFIG",
    "DEFAULT_RECIPROCAL_CONFIG",
    "DEFAULT_RSQRT_CONFIG",
    "DEFAULT_SQRT_CONFIG",
    "BinaryConfig",
    "BrcbRepeatParams",
    "CopyRepeatParams",
    "DivConfig",
    "ExpConfig",
    "GatherMaskMode",
    "GatherMaskParams",
    "LnAlgo",
    "LnConfig",
    "ReciprocalAlgo",
    "ReciprocalConfig",
    "RsqrtAlgo",
    "RsqrtConfig",
    "SqrtConfig",
    "TransDataTo5HDParams",
    "defaultGatherMaskMode",
]

MAX_REPEAT_SIZE = 4095
"""The largest ``dstRepeatSize`` / ``srcRepeatSize`` of ``CopyRepeatParams``."""

LnAlgo = ExpAlgo
"""``AscendC::LnAlgo``: the members of :class:`~ascreg.enums.ExpAlgo`."""
ReciprocalAlgo = ExpAlgo
"""``AscendC::ReciprocalAlgo``: the members of :class:`~ascreg.enums.ExpAlgo`."""
RsqrtAlgo = SqrtAlgo
"""``AscendC::RsqrtAlgo``: the members of :class:`~ascreg.enums.SqrtAlgo`."""


@attrs.frozen
class DivConfig:
    """``AscendC::DivConfig{algo}``: the ``config`` template argument of ``Div``.

    ``PRECISION_0ULP_FTZ_FALSE`` and ``PRECISION_1ULP_FTZ_FALSE`` keep subnormal inputs and
    results; the other algorithms flush them (ascreg's quotient is correctly rounded in every
    mode).

    Examples
    --------
    >>> DivConfig(DivAlgo.PRECISION_1ULP_FTZ_FALSE).algo.name
    'PRECISION_1ULP_FTZ_FALSE'
    """

    algo: DivAlgo = DivAlgo.INTRINSIC


@attrs.frozen
class ExpConfig:
    """``AscendC::ExpConfig{algo}`` (also ``LnConfig``, ``ReciprocalConfig``: the same members).

    ``PRECISION_1ULP_FTZ_FALSE`` keeps subnormals; ``INTRINSIC`` and ``PRECISION_1ULP_FTZ_TRUE``
    flush them.

    Examples
    --------
    >>> ExpConfig().algo.name
    'INTRINSIC'
    """

    algo: ExpAlgo = ExpAlgo.INTRINSIC


@attrs.frozen
class LnConfig:
    """``AscendC::LnConfig{algo}``: ``Ln``'s ``config`` (see :class:`ExpConfig`).

    Examples
    --------
    >>> LnConfig(LnAlgo.PRECISION_1ULP_FTZ_FALSE).algo.value
    2
    """

    algo: ExpAlgo = ExpAlgo.INTRINSIC


@attrs.frozen
class ReciprocalConfig:
    """``AscendC::ReciprocalConfig{algo}``: ``Reciprocal``'s ``config`` (see :class:`ExpConfig`).

    Examples
    --------
    >>> ReciprocalConfig().algo.name
    'INTRINSIC'
    """

    algo: ExpAlgo = ExpAlgo.INTRINSIC


@attrs.frozen
class SqrtConfig:
    """``AscendC::SqrtConfig{algo}``: ``Sqrt``'s ``config``.

    ``FAST_INVERSE``, ``PRECISION_0ULP_FTZ_FALSE`` and ``PRECISION_1ULP_FTZ_FALSE`` keep
    subnormals; ``INTRINSIC`` and ``PRECISION_1ULP_FTZ_TRUE`` flush them.

    Examples
    --------
    >>> SqrtConfig(SqrtAlgo.FAST_INVERSE).algo.value
    1
    """

    algo: SqrtAlgo = SqrtAlgo.INTRINSIC


@attrs.frozen
class RsqrtConfig:
    """``AscendC::RsqrtConfig{algo}``: ``Rsqrt``'s ``config``.

    ``INTRINSIC`` and ``PRECISION_1ULP_FTZ_TRUE`` flush subnormals (``Sqrt`` then ``Div``);
    the others are the precise paths: no flushing, and for float in the count form the 950's
    0-ulp Newton algorithm.

    Examples
    --------
    >>> RsqrtConfig(RsqrtAlgo.PRECISION_0ULP_FTZ_FALSE).algo.name
    'PRECISION_0ULP_FTZ_FALSE'
    """

    algo: SqrtAlgo = SqrtAlgo.INTRINSIC


@attrs.frozen
class BinaryConfig:
    """``AscendC::BinaryConfig{scalarTensorIndex}``: which LocalTensor source is the scalar.

    When both sources of a tensor-and-scalar op (``Adds``, ``Subs``, ...) are LocalTensors,
    element 0 of source ``scalarTensorIndex`` (0: ``src0``, 1: ``src1``, the default) is the
    scalar.

    Examples
    --------
    >>> DEFAULT_BINARY_CONFIG.scalarTensorIndex
    1
    """

    scalarTensorIndex: int = 1


DEFAULT_DIV_CONFIG = DivConfig()
"""``AscendC::DEFAULT_DIV_CONFIG``: ``{DivAlgo::INTRINSIC}``."""
DEFAULT_EXP_CONFIG = ExpConfig()
"""``AscendC::DEFAULT_EXP_CONFIG``: ``{ExpAlgo::INTRINSIC}``."""
DEFAULT_LN_CONFIG = LnConfig()
"""``AscendC::DEFAULT_LN_CONFIG``: ``{LnAlgo::INTRINSIC}``."""
DEFAULT_RECIPROCAL_CONFIG = ReciprocalConfig()
"""``AscendC::DEFAULT_RECIPROCAL_CONFIG``: ``{ReciprocalAlgo::INTRINSIC}``."""
DEFAULT_SQRT_CONFIG = SqrtConfig()
"""``AscendC::DEFAULT_SQRT_CONFIG``: ``{SqrtAlgo::INTRINSIC}``."""
DEFAULT_RSQRT_CONFIG = RsqrtConfig()
"""``AscendC::DEFAULT_RSQRT_CONFIG``: ``{RsqrtAlgo::INTRINSIC}``."""
DEFAULT_BINARY_CONFIG = BinaryConfig()
"""``AscendC::DEFAULT_BINARY_CONFIG``: ``{1}`` (the right source is the scalar)."""


@attrs.define
class CopyRepeatParams:
    """``AscendC::CopyRepeatParams``: ``Copy``'s strides, in 32-byte DataBlocks.

    ``dstStride`` / ``srcStride`` (``[0, 65535]``) separate the blocks of one repeat;
    ``dstRepeatSize`` / ``srcRepeatSize`` (``[0, 4095]``) the starts of consecutive repeats.

    Examples
    --------
    >>> CopyRepeatParams(1, 1, 8, 16).srcRepeatSize
    16
    """

    dstStride: int = 1
    srcStride: int = 1
    dstRepeatSize: int = 8
    srcRepeatSize: int = 8

    def strides(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Return ``((dst block, dst repeat), (src block, src repeat))``, checked."""
        block = (1 << 16) - 1
        return (
            (operands.in_range(self.dstStride, "dstStride", 0, block),
             operands.in_range(self.dstRepeatSize, "dstRepeatSize", 0, MAX_REPEAT_SIZE)),
            (operands.in_range(self.srcStride, "srcStride", 0, block),
             operands.in_range(self.srcRepeatSize, "srcRepeatSize", 0, MAX_REPEAT_SIZE)),
        )  # fmt: skip


class GatherMaskMode(enum.Enum):
    """``AscendC::GatherMaskMode``: ``GatherMask``'s reserved template parameter (the 950: V1).

    Examples
    --------
    >>> GatherMaskMode.VERSION_V1.value, defaultGatherMaskMode
    (0, <GatherMaskMode.VERSION_V1: 0>)
    """

    VERSION_V1 = 0
    VERSION_V2 = 1


defaultGatherMaskMode = GatherMaskMode.VERSION_V1
"""``AscendC::defaultGatherMaskMode``: ``GatherMaskMode::VERSION_V1`` on the 950."""


@attrs.define
class GatherMaskParams:
    """``AscendC::GatherMaskParams(src0BlockStride, repeatTimes, src0RepeatStride, src1RepeatStride)``.

    ``GatherMask``'s strides in DataBlocks and its repeat count (kernel_struct_gather.h's
    defaults: block stride 1, no repeats, repeat strides 8).

    Examples
    --------
    >>> GatherMaskParams(1, 2, 8, 0)
    GatherMaskParams(src0BlockStride=1, repeatTimes=2, src0RepeatStride=8, src1RepeatStride=0)
    """

    src0BlockStride: int = 1
    repeatTimes: int = 0
    src0RepeatStride: int = 8
    src1RepeatStride: int = 8


@attrs.define
class GatherRepeatParams:
    """``AscendC::GatherRepeatParams(dstBlkStride, dstRepStride)``: ``Gatherb``'s dst strides.

    In DataBlocks (kernel_struct_gather.h's defaults: block stride 1, repeat stride 8); the
    other fields are kept for spelling (the page: deprecated, not processed).

    Examples
    --------
    >>> GatherRepeatParams(2, 16)
    GatherRepeatParams(dstBlkStride=2, dstRepStride=16, blockNumber=8, src0BlkStride=1, src1BlkStride=1, src0RepStride=8, src1RepStride=8, repeatStrideMode=False, strideSizeMode=False)
    """

    dstBlkStride: int = 1
    dstRepStride: int = 8
    blockNumber: int = 8
    src0BlkStride: int = 1
    src1BlkStride: int = 1
    src0RepStride: int = 8
    src1RepStride: int = 8
    repeatStrideMode: bool = False
    strideSizeMode: bool = False


@attrs.define
class TransDataTo5HDParams:
    """``AscendC::TransDataTo5HDParams``: the halves (8-bit types), repeats and strides.

    Examples
    --------
    >>> TransDataTo5HDParams()
    TransDataTo5HDParams(dstHighHalf=False, srcHighHalf=False, repeatTimes=1, dstRepStride=0, srcRepStride=0)
    """

    dstHighHalf: bool = False
    srcHighHalf: bool = False
    repeatTimes: int = 1
    dstRepStride: int = 0
    srcRepStride: int = 0


@attrs.define
class BrcbRepeatParams:
    """``AscendC::BrcbRepeatParams(dstBlkStride, dstRepStride)``: ``Brcb``'s strides, in DataBlocks.

    A ``dstBlkStride`` of 0 counts as 1 (the page's pseudo-code).

    Examples
    --------
    >>> BrcbRepeatParams(1, 8)
    BrcbRepeatParams(dstBlkStride=1, dstRepStride=8)
    """

    dstBlkStride: int = 1
    dstRepStride: int = 8
