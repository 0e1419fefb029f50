"""``AscendC::Reg`` (alias ``MicroAPI``): the register-level vector API of dav-3510.

Import it as ``from ascreg import Reg`` and write calls as in C++ with template arguments as
subscripts: ``Reg.UpdateMask[uint16_t](count)``, ``Reg.Compare[half, CMPMODE.GT](m, a, b, mask)``.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, Ref, UnifiedBuffer, uint16_t, int16_t
>>> ub = UnifiedBuffer()
>>> src, out = ub.alloc(uint16_t, 128), ub.alloc(uint16_t, 128)
>>> src.write(np.arange(128) * 4)
>>> x, n, y = Reg.RegTensor[uint16_t](), Reg.RegTensor[int16_t](), Reg.RegTensor[uint16_t]()
>>> mask = Reg.UpdateMask[uint16_t](Ref(100))
>>> Reg.LoadAlign(x, src)
>>> Reg.Duplicate(n, 2)
>>> Reg.ShiftRight(y, x, n, mask)
>>> Reg.StoreAlign(out, y, mask)
>>> out.read(4), out.read(101)[-1]
(array([0, 1, 2, 3], dtype=uint16), np.uint16(0))
"""

from typing import TYPE_CHECKING

from ascreg._frontend.missing import module_getattr
from ascreg.enums import (
    CMPMODE,
    DataCopyMode,
    DivAlgo,
    DivSpecificMode,
    ExpAlgo,
    ExpSpecificMode,
    HighLowPart,
    IndexOrder,
    LnAlgo,
    LnSpecificMode,
    LoadDist,
    Log2Algo,
    Log2SpecificMode,
    Log10Algo,
    Log10SpecificMode,
    LogAlgo,
    LogSpecificMode,
    MaskDist,
    MaskMergeMode,
    MaskPattern,
    PairReduce,
    PostLiteral,
    ReduceType,
    SqrtAlgo,
    SqrtSpecificMode,
    StoreDist,
)
from ascreg.machine.registers import (
    AddrReg,
    MaskReg,
    RegTensor,
    RegTrait,
    RegTraitNumOne,
    RegTraitNumTwo,
)
from ascreg.reg.arith import (
    Abs,
    Adds,
    Arange,
    Div,
    Exp,
    Ln,
    Log,
    Log2,
    Log10,
    Maxs,
    Mins,
    Muls,
    Neg,
    PairReduceElem,
    Reduce,
    ReduceDataBlock,
    Sqrt,
)
from ascreg.reg.compute import (
    Add,
    And,
    Compare,
    Compares,
    Duplicate,
    Max,
    Min,
    Move,
    Mul,
    Not,
    Or,
    Prelu,
    Select,
    ShiftLeft,
    ShiftLefts,
    ShiftRight,
    ShiftRights,
    Sub,
    Xor,
)
from ascreg.reg.datamove import CreateAddrReg, LoadAlign, StoreAlign
from ascreg.reg.masks import CreateMask, MaskGenWithRegTensor, UpdateMask
from ascreg.reg.rearrange import DeInterleave, Interleave, Pack, UnPack
from ascreg.reg.unaligned import (
    Load,
    LoadUnAlign,
    LoadUnAlignPre,
    Store,
    StoreUnAlign,
    StoreUnAlignPost,
    UnalignRegForLoad,
    UnalignRegForStore,
)

__all__ = [
    "CMPMODE",
    "Abs",
    "Add",
    "AddrReg",
    "Adds",
    "And",
    "Arange",
    "Compare",
    "Compares",
    "CreateAddrReg",
    "CreateMask",
    "DataCopyMode",
    "DeInterleave",
    "Div",
    "DivAlgo",
    "DivSpecificMode",
    "Duplicate",
    "Exp",
    "ExpAlgo",
    "ExpSpecificMode",
    "HighLowPart",
    "IndexOrder",
    "Interleave",
    "Ln",
    "LnAlgo",
    "LnSpecificMode",
    "Load",
    "LoadAlign",
    "LoadDist",
    "LoadUnAlign",
    "LoadUnAlignPre",
    "Log",
    "Log2",
    "Log2Algo",
    "Log2SpecificMode",
    "Log10",
    "Log10Algo",
    "Log10SpecificMode",
    "LogAlgo",
    "LogSpecificMode",
    "MaskDist",
    "MaskGenWithRegTensor",
    "MaskMergeMode",
    "MaskPattern",
    "MaskReg",
    "Max",
    "Maxs",
    "Min",
    "Mins",
    "Move",
    "Mul",
    "Muls",
    "Neg",
    "Not",
    "Or",
    "Pack",
    "PairReduce",
    "PairReduceElem",
    "PostLiteral",
    "Prelu",
    "Reduce",
    "ReduceDataBlock",
    "ReduceType",
    "RegTensor",
    "RegTrait",
    "RegTraitNumOne",
    "RegTraitNumTwo",
    "Select",
    "ShiftLeft",
    "ShiftLefts",
    "ShiftRight",
    "ShiftRights",
    "Sqrt",
    "SqrtAlgo",
    "SqrtSpecificMode",
    "Store",
    "StoreAlign",
    "StoreDist",
    "StoreUnAlign",
    "StoreUnAlignPost",
    "Sub",
    "UnPack",
    "UnalignRegForLoad",
    "UnalignRegForStore",
    "UpdateMask",
    "Xor",
]

if not TYPE_CHECKING:  # a type checker keeps rejecting names that do not exist
    __getattr__ = module_getattr("ascreg.reg", "reg")
    """A documented asc-devkit name ascreg lacks raises :class:`~ascreg.errors.MissingApiError`."""
