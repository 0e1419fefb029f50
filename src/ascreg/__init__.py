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

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ascreg import errors as _errors
from ascreg._dtypes import (
    Scalar,
    bfloat16_t,
    bool_,
    float8_e4m3_t,
    float8_e5m2_t,
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
from ascreg.errors import EagerLoopWarning, SlowPathWarning, get_policy, policy, set_policy
from ascreg.machine import hook as _hook
from ascreg.machine.constants import *  # noqa: F403 (AscendC::VECTOR_REG_WIDTH and the rest, read by Reg code too)
from ascreg.machine.kernel import __simd_vf__
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

if TYPE_CHECKING:
    from ascreg import acl
    from ascreg import reg as MicroAPI
    from ascreg import reg as Reg

_LAZY = {"Reg": "ascreg.reg", "MicroAPI": "ascreg.reg", "acl": "ascreg.acl", "emit": "ascreg.emit"}
"""The names made on first use: the Reg front end (and its op table), the host runtime and
the C++ emitter (``ascreg.emit(fn, run=...)``)."""


def __getattr__(name: str) -> Any:
    """Load ``Reg`` (``MicroAPI``) and the host runtime ``acl`` on first use.

    ``import ascreg`` loads neither (nor the execution engine): the op table, the front ends
    and the host runtime cost most of the import time.
    """
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ascreg' has no attribute {name!r}")
    value = importlib.import_module(module)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


def _load_engine() -> None:
    importlib.import_module("ascreg.engine")


_hook.register_loader(_load_engine)


def explain(func: Callable[..., Any]) -> list[str]:
    """Return one line per ``for`` loop of the VF *func*: its decision and what its runs did.

    The decision is read from the loop's body: batched when the run-time checks pass, or
    eager and why. Once the VF has run, each line also says how its loop ran (batched,
    replayed from a recorded plan, inside a batched outer loop, eagerly and why) and for how
    many input forms a run-time check refused it. A loop that runs eagerly also says so once
    with an :class:`EagerLoopWarning`.

    Examples
    --------
    >>> def vf(n):
    ...     for i in range(n):
    ...         print(i)
    >>> explain(vf)
    ['vf line 2: eager: calls print, which is not an ascreg operation']
    """
    found: list[str] = _hook.engine().explain(func)
    return found


explain_loops = explain
"""The older name of :func:`explain`."""


class _LazyProfile:
    """``ascreg.profile`` until the profiler is first used: it loads :mod:`ascreg.profile`.

    ``import ascreg`` does not import the profiler; calling this (or reading an attribute)
    does, and from then on ``ascreg.profile`` is the package itself (also callable).
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._load()(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._load(), name)

    def __repr__(self) -> str:
        return "<module 'ascreg.profile' (not loaded yet)>"

    @staticmethod
    def _load() -> Any:
        return importlib.import_module("ascreg.profile")


def _switch_profile(path: str | None) -> None:
    """Switch the policy's profile (``ascreg.policy(profile=...)``), loading the profiler."""
    importlib.import_module("ascreg.profile")._switch(path)


_errors.PROFILE_SWITCH[:] = [_switch_profile]
if TYPE_CHECKING:
    from ascreg import profile as profile
else:
    profile = _LazyProfile()


__version__ = "0.1.0"

__all__ = [
    "CMPMODE",
    "UB_BYTES",
    "VL",
    "CastTrait",
    "DataCopyMode",
    "EagerLoopWarning",
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
    "SlowPathWarning",
    "SpecialPurposeReg",
    "StoreDist",
    "TemplateFunction",
    "UbPtr",
    "UnifiedBuffer",
    "__simd_vf__",
    "acl",
    "bfloat16_t",
    "bool_",
    "explain",
    "explain_loops",
    "float8_e4m3_t",
    "float8_e5m2_t",
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
__all__ += [  # generated from ascreg.machine.constants.__all__ by tools/gen_stubs.py
    "AIV_CORE_NUM",
    "B8_BYTE_SIZE",
    "B16_BYTE_SIZE",
    "B16_DATA_NUM_PER_BLOCK",
    "B16_DATA_NUM_PER_REPEAT",
    "B32_BYTE_SIZE",
    "B32_DATA_NUM_PER_BLOCK",
    "B32_DATA_NUM_PER_REPEAT",
    "B64_BYTE_SIZE",
    "B64_DATA_NUM_PER_REPEAT",
    "BLOCK_CUBE",
    "BYTE_PER_FRACTAL",
    "CACHE_LINE_SIZE",
    "CUBE_MAX_SIZE",
    "DEFAULT_BLK_NUM",
    "DEFAULT_BLK_STRIDE",
    "DEFAULT_C0_SIZE",
    "DEFAULT_REPEAT_STRIDE",
    "DOUBLE_FACTOR",
    "F32_INF",
    "F32_NAN",
    "F32_NEG_INF",
    "FLOAT_REPEAT_SIZE",
    "FULL_MASK",
    "FULL_MASK_LEN",
    "HALF_DEFAULT_REPEAT_STRIDE",
    "HALF_FACTOR",
    "HALF_MASK_LEN",
    "HALF_REPEAT_SIZE",
    "MASK_PLACEHOLDER",
    "MAX_REPEAT_FLOAT_SIZE",
    "MAX_REPEAT_HALF_SIZE",
    "MAX_REPEAT_TIMES",
    "ONE_BLK_FLOAT_NUM",
    "ONE_BLK_HALF_NUM",
    "ONE_BLK_SIZE",
    "ONE_BLOCK_SIZE",
    "ONE_BYTE_BIT_SIZE",
    "ONE_REPEAT_BYTE_SIZE",
    "ONE_REPEAT_FLOAT_SIZE",
    "ONE_REPEAT_HALF_SIZE",
    "PAD_SIZE",
    "RESERVED_WORKSPACE",
    "TMP_UB_OFFSET",
    "TMP_UB_SIZE",
    "TOTAL_L0A_SIZE",
    "TOTAL_L0B_SIZE",
    "TOTAL_L0C_SIZE",
    "TOTAL_L1_SIZE",
    "TOTAL_UB_SIZE",
    "TOTAL_VEC_LOCAL_SIZE",
    "VECTOR_REG_WIDTH",
    "VECTOR_REG_WIDTH_2XVL",
    "GetUbBlockSize",
    "GetVRegSize",
]
