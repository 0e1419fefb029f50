"""ascreg: bit-exact CPU emulation of the Ascend C vector APIs of the Ascend 950 (dav-3510).

Write an Ascend C vector kernel in typed Python with the C++ spellings (``Reg.LoadAlign``,
``RegTensor[uint16_t]``, ``CMPMODE.EQ``), run it on any CPU on top of numpy, debug it with print
and pdb, and let mypy reject the dtype pairings the C++ compiler would reject.

Examples
--------
>>> import ascreg
>>> from ascreg import Reg, uint16_t
>>> Reg.RegTensor[uint16_t]().lanes
128
"""

from typing import Any

from ascreg import acl
from ascreg import reg as Reg
from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    bool_,
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    fp8_e8m0_t,
    half,
    hifloat8_t,
    int4b_t,
    int4x2_t,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)
from ascreg.enums import (
    CMPMODE,
    CastTrait,
    DataCopyMode,
    GatherMaskMode,
    HighLowPart,
    HistogramsBinType,
    HistogramsType,
    IndexOrder,
    LoadDist,
    MaskDist,
    MaskMergeMode,
    MaskPattern,
    MemType,
    PairReduce,
    PostLiteral,
    ReduceType,
    RegLayout,
    RoundMode,
    SatMode,
    SpecialPurposeReg,
    StoreDist,
)
from ascreg.errors import get_policy, policy, set_policy
from ascreg.machine import constants as _constants
from ascreg.machine.constants import *  # noqa: F403 (AscendC::VECTOR_REG_WIDTH and the rest, read by Reg code too)
from ascreg.machine.kernel import __simd_vf__
from ascreg.machine.loops import explain as explain_loops
from ascreg.machine.memory import (
    UB_BYTES,
    GlobalMemory,
    GmPtr,
    Pointer,
    UbPtr,
    UnifiedBuffer,
)
from ascreg.machine.ref import Ref
from ascreg.machine.registers import VL, MaskReg, RegTensor, RegTraitNumOne, RegTraitNumTwo
from ascreg.machine.template import TemplateFunction, template

MicroAPI = Reg
"""``AscendC::MicroAPI``: an alias of :mod:`ascreg.reg` (as on dav-3510)."""


def __getattr__(name: str) -> Any:
    """Load :mod:`ascreg.emit` on first use: ``ascreg.emit(fn, run=...)`` (not at import)."""
    if name == "emit":
        import ascreg.emit

        return ascreg.emit
    raise AttributeError(f"module 'ascreg' has no attribute {name!r}")


__version__ = "0.1.0"

__all__ = [
    "CMPMODE",
    "UB_BYTES",
    "VL",
    "CastTrait",
    "DataCopyMode",
    "GatherMaskMode",
    "GlobalMemory",
    "GmPtr",
    "HighLowPart",
    "HistogramsBinType",
    "HistogramsType",
    "IndexOrder",
    "LoadDist",
    "MaskDist",
    "MaskMergeMode",
    "MaskPattern",
    "MaskReg",
    "MemType",
    "MicroAPI",
    "PairReduce",
    "Pointer",
    "PostLiteral",
    "ReduceType",
    "Ref",
    "Reg",
    "RegLayout",
    "RegTensor",
    "RegTraitNumOne",
    "RegTraitNumTwo",
    "RoundMode",
    "SatMode",
    "Scalar",
    "SpecialPurposeReg",
    "StoreDist",
    "TemplateFunction",
    "UbPtr",
    "UnifiedBuffer",
    "__simd_vf__",
    "acl",
    "bfloat16_t",
    "bool_",
    "explain_loops",
    "float32_t",
    "fp4x2_e1m2_t",
    "fp4x2_e2m1_t",
    "fp8_e4m3fn_t",
    "fp8_e5m2_t",
    "fp8_e8m0_t",
    "get_policy",
    "half",
    "hifloat8_t",
    "int4b_t",
    "int4x2_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "policy",
    "set_policy",
    "template",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
]
__all__ += _constants.__all__
