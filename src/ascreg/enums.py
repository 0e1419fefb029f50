"""Enumerations of the Ascend C API, with their C++ member names and values.

Examples
--------
>>> from ascreg import CMPMODE, MaskPattern, LoadDist
>>> CMPMODE.EQ.value, MaskPattern.ALLF.value, LoadDist.DIST_UNPACK_B16.value
(2, 15, 14)
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from ascreg.errors import AscregTypeError


class MaskPattern(enum.IntEnum):
    """``AscendC::Reg::MaskPattern``: the fixed patterns of ``CreateMask`` (``pset``).

    Examples
    --------
    >>> from ascreg import Reg, MaskPattern, uint16_t
    >>> Reg.CreateMask[uint16_t, MaskPattern.H]().count()
    64
    """

    ALL = 0
    VL1 = 1
    VL2 = 2
    VL3 = 3
    VL4 = 4
    VL8 = 5
    VL16 = 6
    VL32 = 7
    VL64 = 8
    VL128 = 9
    M3 = 10
    M4 = 11
    H = 12
    Q = 13
    ALLF = 15


class CMPMODE(enum.IntEnum):
    """``AscendC::CMPMODE``: the predicate of ``Compare`` / ``Compares``.

    Examples
    --------
    >>> from ascreg import CMPMODE
    >>> CMPMODE.LE.name, int(CMPMODE.LE)
    ('LE', 3)
    """

    LT = 0
    GT = 1
    EQ = 2
    LE = 3
    GE = 4
    NE = 5


class LoadDist(enum.IntEnum):
    """``AscendC::Reg::LoadDist``: how ``LoadAlign`` distributes UB bytes into lanes.

    Examples
    --------
    >>> from ascreg import LoadDist
    >>> LoadDist.DIST_BRC_B16.value
    2
    """

    DIST_NORM = 0
    DIST_BRC_B8 = 1
    DIST_BRC_B16 = 2
    DIST_BRC_B32 = 3
    DIST_US_B8 = 6
    DIST_US_B16 = 7
    DIST_DS_B8 = 8
    DIST_DS_B16 = 9
    DIST_BDINTLV = 10
    DIST_DINTLV_B8 = 11
    DIST_DINTLV_B16 = 12
    DIST_UNPACK_B8 = 13
    DIST_UNPACK_B16 = 14
    DIST_BLK = 15
    DIST_E2B_B16 = 16
    DIST_E2B_B32 = 17
    DIST_UNPACK_B32 = 18
    DIST_DINTLV_B32 = 19
    DIST_UNPACK4_B8 = 20
    DIST_SPLT4CHN_B8 = 21
    DIST_SPLT2CHN_B8 = 22
    DIST_SPLT2CHN_B16 = 23


class StoreDist(enum.IntEnum):
    """``AscendC::Reg::StoreDist``: how ``StoreAlign`` writes lanes to UB.

    Examples
    --------
    >>> from ascreg import StoreDist
    >>> StoreDist.DIST_PACK_B32.value
    7
    """

    DIST_NORM_B8 = 0
    DIST_NORM_B16 = 1
    DIST_NORM_B32 = 2
    DIST_FIRST_ELEMENT_B8 = 3
    DIST_FIRST_ELEMENT_B16 = 4
    DIST_FIRST_ELEMENT_B32 = 5
    DIST_PACK_B16 = 6
    DIST_PACK_B32 = 7
    DIST_INTLV_B8 = 8
    DIST_INTLV_B16 = 9
    DIST_PACK_B64 = 10
    DIST_INTLV_B32 = 11
    DIST_PACK4_B32 = 12
    DIST_MRG4CHN_B8 = 13
    DIST_MRG2CHN_B8 = 14
    DIST_MRG2CHN_B16 = 15
    DIST_NORM = 16


class MaskDist(enum.Enum):
    """``AscendC::Reg::MaskDist``: MaskReg load/store modes (``DIST_PACK`` shares value 1).

    Examples
    --------
    >>> from ascreg import MaskDist
    >>> [m.name for m in MaskDist]
    ['DIST_NORM', 'DIST_US', 'DIST_DS', 'DIST_PACK']
    """

    DIST_NORM = 0
    DIST_US = 1
    DIST_DS = 2
    DIST_PACK = 3  # value 1 in C++ (aliasing DIST_US); kept distinct here so both names exist


class PostLiteral(enum.IntEnum):
    """``AscendC::Reg::PostLiteral``: whether an access updates its address operand.

    Examples
    --------
    >>> from ascreg import PostLiteral
    >>> PostLiteral.POST_MODE_UPDATE.value
    1
    """

    POST_MODE_NORMAL = 0
    POST_MODE_UPDATE = 1


class MaskMergeMode(enum.IntEnum):
    """``AscendC::Reg::MaskMergeMode``: what masked-off destination lanes become.

    Examples
    --------
    >>> from ascreg import MaskMergeMode
    >>> MaskMergeMode.ZEROING.value
    2
    """

    UNKNOWN = 0
    MERGING = 1
    ZEROING = 2


class GatherMaskMode(enum.IntEnum):
    """``AscendC::Reg::GatherMaskMode``: whether ``Reg.Squeeze`` writes its byte count to AR.

    ``STORE_REG`` adds the bytes the squeeze kept to the running block's AR register, the
    offset of the AR form of ``Reg.StoreUnAlign`` (``ascreg.machine.spr``).

    Examples
    --------
    >>> from ascreg import GatherMaskMode
    >>> GatherMaskMode.STORE_REG.value
    1
    """

    NO_STORE_REG = 0
    STORE_REG = 1


class ReduceType(enum.IntEnum):
    """``AscendC::ReduceType``: what ``Reg.Reduce`` computes (``NONE`` is not accepted there).

    Examples
    --------
    >>> from ascreg import ReduceType
    >>> ReduceType.MAX.value
    1
    """

    SUM = 0
    MAX = 1
    MIN = 2


class HighLowPart(enum.IntEnum):
    """``AscendC::Reg::HighLowPart``: which half ``Reg.Pack`` writes / ``Reg.UnPack`` reads.

    Examples
    --------
    >>> from ascreg import HighLowPart
    >>> HighLowPart.HIGHEST.value
    1
    """

    LOWEST = 0
    HIGHEST = 1


class PairReduce(enum.IntEnum):
    """``AscendC::Reg::PairReduce``: what ``Reg.PairReduceElem`` computes (SUM only).

    Examples
    --------
    >>> from ascreg import PairReduce
    >>> PairReduce.SUM.value
    0
    """

    SUM = 0


class IndexOrder(enum.IntEnum):
    """``AscendC::Reg::IndexOrder``: whether ``Reg.Arange`` counts up or down.

    Examples
    --------
    >>> from ascreg import IndexOrder
    >>> IndexOrder.DECREASE_ORDER.value
    1
    """

    INCREASE_ORDER = 0
    DECREASE_ORDER = 1


class DataCopyMode(enum.IntEnum):
    """``AscendC::Reg::DataCopyMode``: selects the DataBlock (``vsldb`` / ``vsstb``) overloads.

    ``LoadAlign[T, DataCopyMode.DATA_BLOCK_COPY](dst, src, dataBlockStride, mask)`` moves eight
    32-byte DataBlocks, register block ``b`` at ``src + b * dataBlockStride * 32`` bytes.

    Examples
    --------
    >>> from ascreg import DataCopyMode
    >>> DataCopyMode.DATA_BLOCK_COPY.value
    0
    """

    DATA_BLOCK_COPY = 0


# ---- the precision modes of Div, Sqrt, Exp and the logarithms ---------------------------------
# C++ passes these as ``Op<T, &mode>`` (a pointer to a constexpr struct); ascreg takes the struct
# itself as the subscript: ``Reg.Div[float32_t, Reg.DivSpecificMode(precisionMode=True)]``.

SUBNORMAL_ALGOS = frozenset({"PRECISION_0ULP_FTZ_FALSE", "PRECISION_1ULP_FTZ_FALSE"})
"""The algorithm names that keep subnormal inputs and results (every other one flushes them)."""


class DivAlgo(enum.IntEnum):
    """``AscendC::Reg::DivAlgo``: the algorithm of ``Reg.Div`` (see :class:`DivSpecificMode`).

    Examples
    --------
    >>> from ascreg import Reg
    >>> Reg.DivAlgo.PRECISION_1ULP_FTZ_FALSE.value
    5
    """

    INTRINSIC = 0
    DIFF_COMPENSATION = 1
    PRECISION_1ULP_FTZ_TRUE = 2
    PRECISION_0ULP_FTZ_TRUE = 3
    PRECISION_0ULP_FTZ_FALSE = 4
    PRECISION_1ULP_FTZ_FALSE = 5


class SqrtAlgo(enum.IntEnum):
    """``AscendC::Reg::SqrtAlgo``: the algorithm of ``Reg.Sqrt`` (see :class:`SqrtSpecificMode`).

    Examples
    --------
    >>> from ascreg import Reg
    >>> Reg.SqrtAlgo.FAST_INVERSE.value
    1
    """

    INTRINSIC = 0
    FAST_INVERSE = 1
    PRECISION_1ULP_FTZ_TRUE = 2
    PRECISION_0ULP_FTZ_FALSE = 3
    PRECISION_1ULP_FTZ_FALSE = 4


class ExpAlgo(enum.IntEnum):
    """``AscendC::Reg::ExpAlgo``; ``LnAlgo``, ``LogAlgo``, ``Log2Algo``, ``Log10Algo`` alike.

    The four have the same three members and are this class under their C++ names.

    Examples
    --------
    >>> from ascreg import Reg
    >>> Reg.Log2Algo.PRECISION_1ULP_FTZ_FALSE.value
    2
    """

    INTRINSIC = 0
    PRECISION_1ULP_FTZ_TRUE = 1
    PRECISION_1ULP_FTZ_FALSE = 2


LnAlgo = ExpAlgo
LogAlgo = ExpAlgo
Log2Algo = ExpAlgo
Log10Algo = ExpAlgo


@attrs.frozen
class ExpSpecificMode:
    """``AscendC::Reg::ExpSpecificMode{mrgMode, algo}``: the ``mode`` subscript of ``Reg.Exp``.

    ``LnSpecificMode``, ``LogSpecificMode``, ``Log2SpecificMode`` and ``Log10SpecificMode`` are
    the same struct under their C++ names. ``algo`` ``PRECISION_1ULP_FTZ_FALSE`` keeps
    subnormal inputs and results; the other algorithms flush them to a signed zero.

    Examples
    --------
    >>> from ascreg import Reg
    >>> Reg.LnSpecificMode(algo=Reg.LnAlgo.PRECISION_1ULP_FTZ_FALSE).keeps_subnormals
    True
    """

    mrgMode: MaskMergeMode = MaskMergeMode.ZEROING
    algo: ExpAlgo = ExpAlgo.INTRINSIC
    precisionMode: bool = attrs.field(default=False, init=False)

    @property
    def keeps_subnormals(self) -> bool:
        """Whether the mode computes with subnormals instead of flushing them to zero."""
        return self.algo.name in SUBNORMAL_ALGOS


LnSpecificMode = ExpSpecificMode
LogSpecificMode = ExpSpecificMode
Log2SpecificMode = ExpSpecificMode
Log10SpecificMode = ExpSpecificMode


@attrs.frozen
class DivSpecificMode:
    """``AscendC::Reg::DivSpecificMode{mrgMode, precisionMode, algo}``: ``Reg.Div``'s mode.

    ``precisionMode=True`` selects the 0-ulp difference-compensation algorithm (float only);
    ``algo`` ``PRECISION_0ULP_FTZ_FALSE`` (float) and ``PRECISION_1ULP_FTZ_FALSE`` (half,
    float) keep subnormals; every other mode flushes subnormal inputs and results to zero.

    Examples
    --------
    >>> from ascreg import Reg
    >>> Reg.DivSpecificMode(precisionMode=True).keeps_subnormals
    False
    """

    mrgMode: MaskMergeMode = MaskMergeMode.ZEROING
    precisionMode: bool = False
    algo: DivAlgo = DivAlgo.INTRINSIC

    @property
    def keeps_subnormals(self) -> bool:
        """Whether the mode computes with subnormals instead of flushing them to zero."""
        return self.algo.name in SUBNORMAL_ALGOS


@attrs.frozen
class SqrtSpecificMode:
    """``AscendC::Reg::SqrtSpecificMode{mrgMode, precisionMode, algo}``: ``Reg.Sqrt``'s mode.

    Decision ([IMPL] over [DOC]): the subnormal-keeping fast-inverse algorithm runs when
    ``precisionMode`` is True or ``algo`` is ``PRECISION_0ULP_FTZ_FALSE`` (both float only), as
    the dav-3510 implementation dispatches; ``algo=FAST_INVERSE`` alone takes the intrinsic
    (flushing) path there, although the page lists it with the fast-inverse algorithm.
    ``PRECISION_1ULP_FTZ_FALSE`` (half, float) keeps subnormals too.

    Examples
    --------
    >>> from ascreg import Reg
    >>> Reg.SqrtSpecificMode(algo=Reg.SqrtAlgo.PRECISION_1ULP_FTZ_FALSE).keeps_subnormals
    True
    """

    mrgMode: MaskMergeMode = MaskMergeMode.ZEROING
    precisionMode: bool = False
    algo: SqrtAlgo = SqrtAlgo.INTRINSIC

    @property
    def keeps_subnormals(self) -> bool:
        """Whether the mode computes with subnormals instead of flushing them to zero."""
        return self.precisionMode or self.algo.name in SUBNORMAL_ALGOS


SpecificMode = ExpSpecificMode | DivSpecificMode | SqrtSpecificMode
"""Any of the precision-mode structs."""


# ---- conversions (Reg.Cast, Reg.Truncate, the C API asc_<src>2<dst>_<round> family) -----------


class RoundMode(enum.IntEnum):
    """``AscendC::RoundMode``: how a conversion rounds an inexact value.

    ``CAST_RINT`` nearest, ties to even; ``CAST_ROUND`` nearest, ties away from zero;
    ``CAST_FLOOR`` / ``CAST_CEIL`` toward -inf / +inf; ``CAST_TRUNC`` toward zero;
    ``CAST_ODD`` to odd (an inexact result gets its last bit set); ``CAST_HYBRID`` the
    hifloat8 rounding whose threshold is the source's low bits. ``CAST_NONE`` (and
    ``UNKNOWN``, the default of :class:`CastTrait`) round as ``CAST_RINT`` where a conversion
    can lose precision.

    Examples
    --------
    >>> from ascreg import RoundMode
    >>> RoundMode.CAST_ROUND.value, RoundMode.UNKNOWN.value
    (4, 255)
    """

    CAST_NONE = 0
    CAST_RINT = 1
    CAST_FLOOR = 2
    CAST_CEIL = 3
    CAST_ROUND = 4
    CAST_TRUNC = 5
    CAST_ODD = 6
    CAST_HYBRID = 7
    UNKNOWN = 0xFF


class SatMode(enum.IntEnum):
    """``AscendC::Reg::SatMode``: whether an out-of-range conversion saturates.

    Examples
    --------
    >>> from ascreg import SatMode
    >>> SatMode.SAT.value
    1
    """

    UNKNOWN = -1
    NO_SAT = 0
    SAT = 1


class RegLayout(enum.IntEnum):
    """``AscendC::Reg::RegLayout``: which narrow element of each group a width-changing cast uses.

    Widening: the narrow source element ``k`` of each group of 2 (or 4) is converted;
    narrowing: the result goes to position ``k`` of each group and the others become 0.
    ``Reg.ExpSub`` with half sources reads source lanes ``2 * i + layout`` (ZERO: even, ONE: odd).

    Examples
    --------
    >>> from ascreg import RegLayout
    >>> RegLayout.TWO.value
    2
    """

    UNKNOWN = -1
    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3


def _member_of(kind: type[enum.Enum]) -> Any:
    """Return the validator of a :class:`CastTrait` field: a *kind* member only (no raw int)."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if type(value) is not kind:
            raise AscregTypeError(
                f"{attribute.name} must be a {kind.__name__} member "
                f"({', '.join(f'{kind.__name__}.{m.name}' for m in kind)}), got {value!r:.40}: "
                f"a plain {type(value).__name__} is not a {kind.__name__} (the C++ field is the "
                "enum class, which no integer converts to)",
                call="Reg.CastTrait",
            )

    return check


@attrs.frozen
class CastTrait:
    """``AscendC::Reg::CastTrait{layoutMode, satMode, mrgMode, roundMode}``: ``Reg.Cast``'s mode.

    Every field defaults to ``UNKNOWN``, as the C++ ``castTrait`` constant does; ``castTrait``
    is this default instance. Each field takes a member of its enum only: a raw integer (which
    C++ would not convert to the enum class) is an ``AscregTypeError``.

    Examples
    --------
    >>> from ascreg import Reg
    >>> trait = Reg.CastTrait(Reg.RegLayout.ZERO, Reg.SatMode.SAT, roundMode=Reg.RoundMode.CAST_ROUND)
    >>> trait.satMode, trait.mrgMode
    (<SatMode.SAT: 1>, <MaskMergeMode.UNKNOWN: 0>)
    >>> Reg.CastTrait(Reg.RegLayout.ZERO, 1)
    Traceback (most recent call last):
    ...
    ascreg.errors.AscregTypeError: Reg.CastTrait: satMode must be a SatMode member (SatMode.UNKNOWN, SatMode.NO_SAT, SatMode.SAT), got 1: a plain int is not a SatMode (the C++ field is the enum class, which no integer converts to)
    """

    layoutMode: RegLayout = attrs.field(default=RegLayout.UNKNOWN, validator=_member_of(RegLayout))
    satMode: SatMode = attrs.field(default=SatMode.UNKNOWN, validator=_member_of(SatMode))
    mrgMode: MaskMergeMode = attrs.field(
        default=MaskMergeMode.UNKNOWN, validator=_member_of(MaskMergeMode)
    )
    roundMode: RoundMode = attrs.field(default=RoundMode.UNKNOWN, validator=_member_of(RoundMode))


castTrait = CastTrait()
"""``AscendC::Reg::castTrait``: the default :class:`CastTrait` (every field ``UNKNOWN``)."""


# ---- rearrangement, histograms and system registers (issue 10) -----------------------------------


class HistogramsBinType(enum.IntEnum):
    """``AscendC::Reg::HistogramsBinType``: which half of the uint8 range ``Histograms`` counts.

    ``BIN0`` counts the values 0-127, ``BIN1`` the values 128-255 (one uint16 lane each).

    Examples
    --------
    >>> from ascreg import HistogramsBinType
    >>> HistogramsBinType.BIN1.value
    1
    """

    BIN0 = 0
    BIN1 = 1


class HistogramsType(enum.IntEnum):
    """``AscendC::Reg::HistogramsType``: per-value counts or running (cumulative) counts.

    Examples
    --------
    >>> from ascreg import HistogramsType
    >>> HistogramsType.ACCUMULATE.name
    'ACCUMULATE'
    """

    FREQUENCY = 0
    ACCUMULATE = 1


class MemType(enum.IntEnum):
    """``AscendC::Reg::MemType``: the in-VF UB access streams ``LocalMemBar`` orders.

    The numeric values are placeholders (the compiler's are not published).

    Examples
    --------
    >>> from ascreg import MemType
    >>> MemType.VEC_STORE.name
    'VEC_STORE'
    """

    VEC_STORE = 0
    VEC_LOAD = 1
    SCALAR_STORE = 2
    SCALAR_LOAD = 3
    VEC_ALL = 4
    SCALAR_ALL = 5


class SpecialPurposeReg(enum.IntEnum):
    """``AscendC::SpecialPurposeReg``: the special registers ``ClearSpr`` can zero.

    ``AR`` is the byte counter ``Squeeze<T, GatherMaskMode::STORE_REG>`` adds to.

    Examples
    --------
    >>> from ascreg import SpecialPurposeReg
    >>> SpecialPurposeReg.AR.name
    'AR'
    """

    AR = 0


class StoreMode(enum.IntEnum):
    """``AscendC::Reg::StoreMode``: whether a squeeze stores its count (the intrinsic's spelling).

    ``NOSTORED`` / ``STORED`` are the values ``GatherMaskMode`` ``NO_STORE_REG`` / ``STORE_REG``
    forward to (kernel_reg_compute_utils.h); ``Reg.Squeeze`` takes ``GatherMaskMode``.

    Examples
    --------
    >>> from ascreg import Reg
    >>> Reg.StoreMode.STORED.value == Reg.GatherMaskMode.STORE_REG.value
    True
    """

    NOSTORED = 0
    STORED = 1


class RoundControl(enum.IntEnum):
    """``AscendC::Reg::RoundControl``: ``NO_ROUND`` / ``ROUND`` (kernel_reg_compute_utils.h).

    The headers declare it in ``Reg``; no documented Reg API takes it as a parameter on
    dav-3510 (the rounding of the conversions is ``RoundMode``), so ascreg provides the type for
    code that names it and no op reads it.

    Examples
    --------
    >>> from ascreg import Reg
    >>> [m.name for m in Reg.RoundControl]
    ['NO_ROUND', 'ROUND']
    """

    NO_ROUND = 0
    ROUND = 1


class DefaultType:
    """``AscendC::Reg::DefaultType``: the default of an op's dtype template parameters.

    ``Reg.Cast[Reg.DefaultType, Reg.DefaultType, trait]`` is ``Cast<DefaultType, DefaultType,
    trait>``: the dtypes are deduced from the registers, as when they are left out. ascreg takes
    it in the trailing dtype positions of a subscript (a written dtype after it is an
    :class:`~ascreg.errors.UnsupportedError`), and for a scalar's type ``U``.

    Examples
    --------
    >>> from ascreg import Reg, half
    >>> Reg.Muls[half, Reg.DefaultType]
    <Reg.Muls[half]>
    """

    cpp_name = "DefaultType"

    def __init__(self) -> None:
        raise TypeError("DefaultType is a template argument: write Reg.DefaultType, not a call")
