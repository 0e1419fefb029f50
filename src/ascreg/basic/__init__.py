"""The Ascend C basic API around a VF: tensors, buffers, queues, copies and flags.

``InitSocState``, ``GlobalTensor<T>`` (``SetGlobalBuffer``, ``operator[]``, ``GetValue`` /
``SetValue``), ``LocalTensor<T>``, ``LocalMemAllocator<Hardware::UB>``, ``TPipe`` with
``TQue`` / ``TQueBind`` / ``TBuf`` (``InitBuffer``, ``AllocTensor``, ``EnQue``, ``DeQue``,
``FreeTensor``, ``Get``), ``DataCopy`` and ``DataCopyPad`` (GM <-> UB), ``Duplicate`` on a
LocalTensor, ``SetFlag`` / ``WaitFlag<HardEvent>``, ``PipeBarrier<pipe>``, ``GetBlockIdx``,
``GetBlockNum``, ``GetVecLen``, ``CeilDivision``, ``asc_vf_call``, and the special registers
(``SetCtrlSpr`` / ``GetCtrlSpr`` / ``ResetCtrlSpr``, ``GetSpr``), ``GetUintDivMagicAndShift``,
and the cube core of a ``__cube__`` kernel: ``DataCopy`` with ``Nd2NzParams`` /
``Dn2NzParams`` (GM -> L1), ``LoadData`` (2D and img2col) / ``LoadDataWithTranspose`` (L1 ->
L0A / L0B), ``Mmad`` and ``Fixpipe[T, U, FixpipeConfig]`` (L0C -> GM), with ``MatmulType``.
Template arguments are
subscripts, as in :mod:`ascreg.reg`: ``GlobalTensor[float32_t]()``,
``TQue[TPosition.VECIN, 1]()``, ``que.AllocTensor[float32_t]()``.

Examples
--------
>>> import numpy as np
>>> from ascreg import GlobalMemory, GmPtr, float32_t
>>> from ascreg.basic import *
>>> from ascreg.machine.kernel import __global__, __vector__
>>> x = GlobalMemory().alloc(float32_t, 64); x.write(np.arange(64, dtype=np.float32))
>>> @__global__
... @__vector__
... def negate(x: GmPtr[float32_t]) -> None:
...     InitSocState()
...     xGm = GlobalTensor[float32_t](); xGm.SetGlobalBuffer(x + GetBlockIdx() * 32, 32)
...     xLocal = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 32]()
...     DataCopy(xLocal, xGm, 32)
...     SetFlag[HardEvent.MTE2_S](EVENT_ID0); WaitFlag[HardEvent.MTE2_S](EVENT_ID0)
...     p = xLocal.GetPhyAddr(); p.write(-p.read(32))
...     SetFlag[HardEvent.S_MTE3](EVENT_ID0); WaitFlag[HardEvent.S_MTE3](EVENT_ID0)
...     DataCopy(xGm, xLocal, 32)
...     PipeBarrier[PIPE_ALL]()
>>> negate[2, 0, None](x)
>>> x.read(3).tolist(), x.read(64)[40].item()
([-0.0, -1.0, -2.0], -40.0)
"""

from __future__ import annotations

import enum
from typing import Any, TypeVar, cast

from ascreg._dtypes import Scalar
from ascreg._frontend.missing import module_getattr
from ascreg.basic._atomic import AtomicAdd, AtomicCas, AtomicExch, AtomicMax, AtomicMin
from ascreg.basic._blocks import BilinearInterpolation, Gatherb, GatherRepeatParams
from ascreg.basic._cache import (
    CacheLine,
    DataCacheCleanAndInvalid,
    DataSyncBarrier,
    DcciDst,
    ICachePreLoad,
    MemDsbT,
)
from ascreg.basic._cast import (
    AddDeqRelu,
    AddReluCast,
    Cast,
    CastDequant,
    ExpSub,
    MulCast,
    MulsCast,
    SetDeqScale,
    SubReluCast,
    Truncate,
)
from ascreg.basic._constants import *  # noqa: F403 (the constant table; its __all__ lists them)
from ascreg.basic._constants import platform as platform
from ascreg.basic._copy import (
    DataCopy,
    DataCopyExtParams,
    DataCopyMVType,
    DataCopyPad,
    DataCopyPadExtParams,
    DataCopyParams,
    LoopModeParams,
    PaddingMode,
    ResetLoopModePara,
    SetLoopModePara,
)
from ascreg.basic._cube import (
    CFG_COLUMN_MAJOR,
    CFG_NZ,
    CFG_ROW_MAJOR,
    CO2Layout,
    Dn2NzParams,
    Fixpipe,
    FixpipeConfig,
    FixpipeParamsArch3510,
    FixpipeParamsV220,
    LoadData2DParams,
    LoadData2DParamsV2,
    LoadData2dTransposeParams,
    LoadData2dTransposeParamsV2,
    LoadDataWithTranspose,
    Mmad,
    MmadParams,
    Nd2NzParams,
    Nz2DnParams,
    Nz2NdParams,
    QuantMode_t,
    SetFixPipeConfig,
)
from ascreg.basic._cube_fill import InitConstValueParams
from ascreg.basic._cube_modes import (
    HF32Mode,
    HF32TransMode,
    SetHF32Mode,
    SetHF32TransMode,
    SetMMColumnMajor,
    SetMMRowMajor,
)
from ascreg.basic._cube_mx import MmadMx
from ascreg.basic._cube_ub import DataCopyL1ToUB
from ascreg.basic._datatype import *  # noqa: F403 (the DataType / Format members; its __all__)
from ascreg.basic._debug import (
    DataCachePreload,
    DumpTensor,
    GetArchVersion,
    GetProgramCounter,
    GetSystemCycle,
    MarkStamp,
    Nop,
    PrintTimeStamp,
    ReadGmByPassDCache,
    Trap,
    WriteGmByPassDCache,
)
from ascreg.basic._events import (
    QUE_MAX_EVENT,
    HardEvent,
    PipeBarrier,
    SetFlag,
    TEventID,
    TQueSync,
    WaitFlag,
    event_t,
)
from ascreg.basic._layout import (
    BRCB_BROADCAST_NUMBER,
    NCHW_CONV_ADDR_LIST_SIZE,
    Brcb,
    BrcbRepeatParams,
    Copy,
    CopyRepeatParams,
    DeInterleave,
    Gather,
    GatherMask,
    GatherMaskMode,
    GatherMaskParams,
    Interleave,
    Mull,
    Scatter,
    TransDataTo5HD,
    TransDataTo5HDParams,
    defaultGatherMaskMode,
)
from ascreg.basic._load3d import (
    IS_RESER_LOAD3D_DEFAULT_CONFIG,
    FmatrixMode,
    IsResetLoad3dConfig,
    LoadData,
    LoadData2DMxParams,
    LoadData3DParamsV2,
    LoadDataRepeatParam,
    LoadDataRepeatParamWithStride,
    LoadDataWithStride,
    SetFmatrix,
    SetLoadDataPaddingValue,
    SetLoadDataRepeat,
    SetLoadDataRepeatWithStride,
)
from ascreg.basic._matmul_type import CubeFormat, LayoutMode, MatmulType, MatmulTypeArgs
from ascreg.basic._mutex import AllocMutexID, Mutex, MutexID, ReleaseMutexID
from ascreg.basic._nddma import (
    MultiCopyConfig,
    MultiCopyLoopInfo,
    MultiCopyParams,
    NdDmaConfig,
    NdDmaDci,
    NdDmaLoopInfo,
    NdDmaParams,
    kDefaultMultiCopyConfig,
    kDefaultNdDmaConfig,
)
from ascreg.basic._printf import printf
from ascreg.basic._reduce import (
    BlockReduceMax,
    BlockReduceMin,
    BlockReduceSum,
    PairReduceSum,
    Pattern,
    ReduceAll,
    ReduceAny,
    ReduceDataBlock,
    ReduceMax,
    ReduceMean,
    ReduceMin,
    ReduceOrder,
    ReducePairElem,
    ReducePattern,
    ReduceProd,
    ReduceRepeat,
    ReduceSum,
    RepeatReduceSum,
    WholeReduceMax,
    WholeReduceMin,
    WholeReduceSum,
)
from ascreg.basic._repeat import (
    BinaryRepeatParams,
    MaskMode,
    ResetMask,
    SetMaskCount,
    SetMaskNorm,
    SetVectorMask,
    UnaryRepeatParams,
)
from ascreg.basic._scalar import GetUintDivMagicAndShift
from ascreg.basic._select import SELMODE, Compare, Compares, Select
from ascreg.basic._spr import (
    GetCmpMask,
    GetMrgSortResult,
    GetReduceRepeatSumSpr,
    SetCmpMask,
    SetPadValue,
)
from ascreg.basic._system import (
    DEFAULT_SYNC_ALL_CONFIG,
    AtomicDtype,
    AtomicOp,
    CrossCoreSetFlag,
    CrossCoreWaitFlag,
    DisableDmaAtomic,
    GetDataBlockSizeInBytes,
    GetRuntimeUBSize,
    GetStoreAtomicConfig,
    GetSubBlockIdx,
    GetSubBlockNum,
    GetSysWorkSpacePtr,
    GetTaskRatio,
    GetTaskRation,
    GetUBSizeInBytes,
    GetUserWorkspace,
    SetAtomicAdd,
    SetAtomicMax,
    SetAtomicMin,
    SetAtomicNone,
    SetAtomicType,
    SetStoreAtomicConfig,
    SetSysWorkspace,
    SyncAll,
    SyncAllConfig,
    reset_soc_state,
)
from ascreg.basic._sysvar import GetCtrlSpr, GetSpr, ResetCtrlSpr, SetCtrlSpr
from ascreg.basic._template import (
    INTEGER,
    TYPENAME,
    ClassTemplate,
    Signature,
    member_of,
    member_template,
    need,
)
from ascreg.basic._tensor import (
    K_MAX_SHAPE_DIM,
    CacheMode,
    CacheRwMode,
    DataFormat,
    GetShapeSize,
    GlobalTensor,
    LocalTensor,
    QuePosition,
    ShapeInfo,
    TBuffAddr,
    TPosition,
)
from ascreg.basic._tpipe import (
    MAX_ALLOCATED_PER_POSITION,
    MAX_BUFFERS,
    GetTPipePtr,
    TBuf,
    TBufHandle,
    TBufPool,
    TPipe,
    TQue,
    TQueBind,
)
from ascreg.basic._transpose import Transpose, TransposeParamsExt, TransposeType
from ascreg.basic._utils import AlignUp, DivCeil
from ascreg.basic._vector import (
    DEFAULT_BINARY_CONFIG,
    DEFAULT_DIV_CONFIG,
    DEFAULT_EXP_CONFIG,
    DEFAULT_LN_CONFIG,
    DEFAULT_RECIPROCAL_CONFIG,
    DEFAULT_RSQRT_CONFIG,
    DEFAULT_SQRT_CONFIG,
    Abs,
    AbsSub,
    Add,
    AddRelu,
    Adds,
    And,
    Ands,
    Axpy,
    BinaryConfig,
    CreateVecIndex,
    Div,
    DivAlgo,
    DivConfig,
    Divs,
    Duplicate,
    Exp,
    ExpAlgo,
    ExpConfig,
    FusedMulAdd,
    LeakyRelu,
    Ln,
    LnAlgo,
    LnConfig,
    Max,
    Maxs,
    Min,
    Mins,
    Mul,
    MulAddDst,
    MulAddRelu,
    Muls,
    Neg,
    Not,
    Or,
    Ors,
    Prelu,
    Reciprocal,
    ReciprocalAlgo,
    ReciprocalConfig,
    Relu,
    Rsqrt,
    RsqrtAlgo,
    RsqrtConfig,
    ShiftLeft,
    ShiftRight,
    Sqrt,
    SqrtAlgo,
    SqrtConfig,
    Sub,
    SubRelu,
    Subs,
)
from ascreg.basic._vf import __VEC_SCOPE__
from ascreg.enums import CMPMODE, RoundMode
from ascreg.errors import AscregTypeError
from ascreg.machine.block import current_block
from ascreg.machine.complex import Complex, complex32, complex64
from ascreg.machine.cube import __cube__
from ascreg.machine.kernel import __mix__, asc_vf_call, get_vec_len
from ascreg.machine.sync import (
    EVENT_ID0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
    PIPE_ALL,
    PIPE_FIX,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_S,
    PIPE_V,
)

T = TypeVar("T", bound=Scalar)

__all__ = [
    "DumpTensor",
    "BilinearInterpolation",
    "CastDequant",
    "AddDeqRelu",
    "Transpose",
    "TransposeParamsExt",
    "TransposeType",
    "Gatherb",
    "GatherRepeatParams",
    "DataFormat",
    "GetShapeSize",
    "K_MAX_SHAPE_DIM",
    "ShapeInfo",
    "DataCachePreload",
    "GetArchVersion",
    "GetProgramCounter",
    "GetSystemCycle",
    "MarkStamp",
    "Nop",
    "PrintTimeStamp",
    "ReadGmByPassDCache",
    "Trap",
    "WriteGmByPassDCache",
    "GetCmpMask",
    "GetMrgSortResult",
    "GetReduceRepeatSumSpr",
    "SetCmpMask",
    "SetPadValue",
    "AtomicDtype",
    "AtomicOp",
    "GetStoreAtomicConfig",
    "SetAtomicType",
    "SetStoreAtomicConfig",
    "BRCB_BROADCAST_NUMBER",
    "CFG_COLUMN_MAJOR",
    "CFG_NZ",
    "CFG_ROW_MAJOR",
    "CMPMODE",
    "DEFAULT_BINARY_CONFIG",
    "DEFAULT_DIV_CONFIG",
    "DEFAULT_EXP_CONFIG",
    "DEFAULT_LN_CONFIG",
    "DEFAULT_RECIPROCAL_CONFIG",
    "DEFAULT_RSQRT_CONFIG",
    "DEFAULT_SQRT_CONFIG",
    "DEFAULT_SYNC_ALL_CONFIG",
    "EVENT_ID0",
    "EVENT_ID1",
    "EVENT_ID2",
    "EVENT_ID3",
    "EVENT_ID4",
    "EVENT_ID5",
    "EVENT_ID6",
    "EVENT_ID7",
    "HF32Mode",
    "HF32TransMode",
    "IS_RESER_LOAD3D_DEFAULT_CONFIG",
    "MAX_ALLOCATED_PER_POSITION",
    "MAX_BUFFERS",
    "NCHW_CONV_ADDR_LIST_SIZE",
    "PIPE_ALL",
    "PIPE_FIX",
    "PIPE_M",
    "PIPE_MTE1",
    "PIPE_MTE2",
    "PIPE_MTE3",
    "PIPE_S",
    "PIPE_V",
    "QUE_MAX_EVENT",
    "SELMODE",
    "SetHF32Mode",
    "SetHF32TransMode",
    "SetMMColumnMajor",
    "SetMMRowMajor",
    "__VEC_SCOPE__",
    "Abs",
    "AbsSub",
    "Add",
    "AddRelu",
    "AddReluCast",
    "Adds",
    "AlignUp",
    "AllocMutexID",
    "And",
    "Ands",
    "AtomicAdd",
    "AtomicCas",
    "AtomicExch",
    "AtomicMax",
    "AtomicMin",
    "Axpy",
    "BinaryConfig",
    "BinaryRepeatParams",
    "BlockReduceMax",
    "BlockReduceMin",
    "BlockReduceSum",
    "Brcb",
    "BrcbRepeatParams",
    "CO2Layout",
    "CacheLine",
    "CacheMode",
    "CacheRwMode",
    "Cast",
    "CeilDivision",
    "Compare",
    "Compares",
    "Complex",
    "Copy",
    "CopyRepeatParams",
    "CreateVecIndex",
    "CubeFormat",
    "DataCacheCleanAndInvalid",
    "DataCopy",
    "DataCopyL1ToUB",
    "DataCopyExtParams",
    "DataCopyMVType",
    "DataCopyPad",
    "DataCopyPadExtParams",
    "DataCopyParams",
    "DataSyncBarrier",
    "DcciDst",
    "DeInterleave",
    "DisableDmaAtomic",
    "Div",
    "DivAlgo",
    "DivCeil",
    "DivConfig",
    "Divs",
    "Dn2NzParams",
    "Duplicate",
    "Exp",
    "ExpSub",
    "ExpAlgo",
    "ExpConfig",
    "Fixpipe",
    "FixpipeConfig",
    "FixpipeParamsArch3510",
    "FixpipeParamsV220",
    "FmatrixMode",
    "FusedMulAdd",
    "Gather",
    "GatherMask",
    "GatherMaskMode",
    "GatherMaskParams",
    "GetBlockIdx",
    "GetBlockNum",
    "GetCtrlSpr",
    "GetDataBlockSizeInBytes",
    "GetRuntimeUBSize",
    "GetSpr",
    "GetSubBlockIdx",
    "CrossCoreSetFlag",
    "CrossCoreWaitFlag",
    "GetSubBlockNum",
    "GetSysWorkSpacePtr",
    "GetTPipePtr",
    "GetTaskRatio",
    "GetTaskRation",
    "GetUBSizeInBytes",
    "GetUintDivMagicAndShift",
    "GetUserWorkspace",
    "GetVecLen",
    "GlobalTensor",
    "HardEvent",
    "Hardware",
    "ICachePreLoad",
    "InitConstValueParams",
    "InitSocState",
    "Interleave",
    "IsResetLoad3dConfig",
    "LayoutMode",
    "LeakyRelu",
    "Ln",
    "LnAlgo",
    "LnConfig",
    "LoadData",
    "LoadData2DMxParams",
    "LoadData2DParams",
    "LoadData2DParamsV2",
    "LoadData2dTransposeParams",
    "LoadData2dTransposeParamsV2",
    "LoadData3DParamsV2",
    "LoadDataRepeatParam",
    "LoadDataRepeatParamWithStride",
    "LoadDataWithStride",
    "LoadDataWithTranspose",
    "LocalMemAllocator",
    "LocalTensor",
    "LoopModeParams",
    "MaskMode",
    "MatmulType",
    "MatmulTypeArgs",
    "Max",
    "Maxs",
    "MemDsbT",
    "Min",
    "Mins",
    "Mmad",
    "MmadMx",
    "MmadParams",
    "Mul",
    "MulCast",
    "MulAddDst",
    "MulAddRelu",
    "Mull",
    "Muls",
    "MulsCast",
    "MultiCopyConfig",
    "MultiCopyLoopInfo",
    "MultiCopyParams",
    "Mutex",
    "MutexID",
    "Nd2NzParams",
    "NdDmaConfig",
    "NdDmaDci",
    "NdDmaLoopInfo",
    "NdDmaParams",
    "Neg",
    "Not",
    "Nz2DnParams",
    "Nz2NdParams",
    "Or",
    "Ors",
    "PaddingMode",
    "PairReduceSum",
    "Pattern",
    "PipeBarrier",
    "Prelu",
    "QuantMode_t",
    "QuePosition",
    "Reciprocal",
    "ReciprocalAlgo",
    "ReciprocalConfig",
    "ReduceAll",
    "ReduceAny",
    "ReduceDataBlock",
    "ReduceMax",
    "ReduceMean",
    "ReduceMin",
    "ReduceOrder",
    "ReducePairElem",
    "ReducePattern",
    "ReduceProd",
    "ReduceRepeat",
    "ReduceSum",
    "ReleaseMutexID",
    "Relu",
    "RepeatReduceSum",
    "ResetCtrlSpr",
    "ResetLoopModePara",
    "ResetMask",
    "RoundMode",
    "Rsqrt",
    "RsqrtAlgo",
    "RsqrtConfig",
    "Scatter",
    "Select",
    "SetAtomicAdd",
    "SetAtomicMax",
    "SetAtomicMin",
    "SetAtomicNone",
    "SetCtrlSpr",
    "SetDeqScale",
    "SetFixPipeConfig",
    "SetFlag",
    "SetFmatrix",
    "SetLoadDataPaddingValue",
    "SetLoadDataRepeat",
    "SetLoadDataRepeatWithStride",
    "SetLoopModePara",
    "SetMaskCount",
    "SetMaskNorm",
    "SetSysWorkspace",
    "SetVectorMask",
    "ShiftLeft",
    "ShiftRight",
    "Sqrt",
    "SqrtAlgo",
    "SqrtConfig",
    "Sub",
    "SubRelu",
    "SubReluCast",
    "Subs",
    "SyncAll",
    "SyncAllConfig",
    "TBuf",
    "TBuffAddr",
    "TBufHandle",
    "TBufPool",
    "TEventID",
    "TPipe",
    "TPosition",
    "TQue",
    "TQueBind",
    "TQueSync",
    "TransDataTo5HD",
    "TransDataTo5HDParams",
    "Truncate",
    "UnaryRepeatParams",
    "WaitFlag",
    "WholeReduceMax",
    "WholeReduceMin",
    "WholeReduceSum",
    "__cube__",
    "__mix__",
    "asc_vf_call",
    "complex32",
    "complex64",
    "defaultGatherMaskMode",
    "event_t",
    "kDefaultMultiCopyConfig",
    "kDefaultNdDmaConfig",
    "printf",
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
__all__ += [  # generated from ascreg.basic._datatype.__all__ by tools/gen_stubs.py
    "DataType",
    "Format",
    "DT_FLOAT",
    "DT_FLOAT16",
    "DT_INT8",
    "DT_INT32",
    "DT_UINT8",
    "DT_INT16",
    "DT_UINT16",
    "DT_INT64",
    "DT_UINT32",
    "DT_UINT64",
    "DT_BOOL",
    "DT_DOUBLE",
    "DT_STRING",
    "DT_DUAL_SUB_INT8",
    "DT_DUAL_SUB_UINT8",
    "DT_COMPLEX64",
    "DT_COMPLEX128",
    "DT_QINT8",
    "DT_QINT16",
    "DT_QINT32",
    "DT_QUINT8",
    "DT_QUINT16",
    "DT_RESOURCE",
    "DT_STRING_REF",
    "DT_DUAL",
    "DT_VARIANT",
    "DT_BF16",
    "DT_UNDEFINED",
    "DT_INT4",
    "DT_UINT1",
    "DT_INT2",
    "DT_UINT2",
    "DT_COMPLEX32",
    "DT_HIFLOAT8",
    "DT_FLOAT8_E5M2",
    "DT_FLOAT8_E4M3FN",
    "DT_FLOAT8_E8M0",
    "DT_FLOAT6_E3M2",
    "DT_FLOAT6_E2M3",
    "DT_FLOAT4_E2M1",
    "DT_FLOAT4_E1M2",
    "DT_MAX",
    "FORMAT_NCHW",
    "FORMAT_NHWC",
    "FORMAT_ND",
    "FORMAT_NC1HWC0",
    "FORMAT_FRACTAL_Z",
    "FORMAT_NC1C0HWPAD",
    "FORMAT_NHWC1C0",
    "FORMAT_FSR_NCHW",
    "FORMAT_FRACTAL_DECONV",
    "FORMAT_C1HWNC0",
    "FORMAT_FRACTAL_DECONV_TRANSPOSE",
    "FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS",
    "FORMAT_NC1HWC0_C04",
    "FORMAT_FRACTAL_Z_C04",
    "FORMAT_CHWN",
    "FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS",
    "FORMAT_HWCN",
    "FORMAT_NC1KHKWHWC0",
    "FORMAT_BN_WEIGHT",
    "FORMAT_FILTER_HWCK",
    "FORMAT_HASHTABLE_LOOKUP_LOOKUPS",
    "FORMAT_HASHTABLE_LOOKUP_KEYS",
    "FORMAT_HASHTABLE_LOOKUP_VALUE",
    "FORMAT_HASHTABLE_LOOKUP_OUTPUT",
    "FORMAT_HASHTABLE_LOOKUP_HITS",
    "FORMAT_C1HWNCoC0",
    "FORMAT_MD",
    "FORMAT_NDHWC",
    "FORMAT_FRACTAL_ZZ",
    "FORMAT_FRACTAL_NZ",
    "FORMAT_NCDHW",
    "FORMAT_DHWCN",
    "FORMAT_NDC1HWC0",
    "FORMAT_FRACTAL_Z_3D",
    "FORMAT_CN",
    "FORMAT_NC",
    "FORMAT_DHWNC",
    "FORMAT_FRACTAL_Z_3D_TRANSPOSE",
    "FORMAT_FRACTAL_ZN_LSTM",
    "FORMAT_FRACTAL_Z_G",
    "FORMAT_RESERVED",
    "FORMAT_ALL",
    "FORMAT_NULL",
    "FORMAT_ND_RNN_BIAS",
    "FORMAT_FRACTAL_ZN_RNN",
    "FORMAT_NYUV",
    "FORMAT_NYUV_A",
    "FORMAT_NCL",
    "FORMAT_FRACTAL_Z_WINO",
    "FORMAT_C1HWC0",
    "FORMAT_FRACTAL_NZ_C0_16",
    "FORMAT_FRACTAL_NZ_C0_32",
    "FORMAT_FRACTAL_NZ_C0_2",
    "FORMAT_FRACTAL_NZ_C0_4",
    "FORMAT_FRACTAL_NZ_C0_8",
    "FORMAT_MAX",
]
_PUBLIC_NOT_STARRED = ("platform",)
"""Public names a star import leaves out (``platform`` would shadow the standard library's)."""


class Hardware(enum.Enum):
    """``AscendC::Hardware``: the physical memory a ``LocalMemAllocator`` allocates from.

    ``UB`` on the vector core; ``L1``, ``L0A``, ``L0B``, ``L0C``, ``BIAS`` (the bias table) and
    ``FIXBUF`` (the fixpipe buffer) on the cube core. ``GM`` and ``MAX`` complete the C++ enum;
    no allocator takes them.

    Examples
    --------
    >>> Hardware.UB.name, Hardware.L0C.value
    ('UB', 5)
    """

    GM = 0
    UB = 1
    L1 = 2
    L0A = 3
    L0B = 4
    L0C = 5
    BIAS = 6
    FIXBUF = 7
    MAX = 8


DEFAULT_POSITIONS = {
    Hardware.UB: TPosition.VECCALC,
    Hardware.L1: TPosition.A1,
    Hardware.L0A: TPosition.A2,
    Hardware.L0B: TPosition.B2,
    Hardware.L0C: TPosition.CO1,
    Hardware.BIAS: TPosition.C2,
    Hardware.FIXBUF: TPosition.C2PIPE2GM,
}
"""The position ``Alloc`` gives a tensor when the call names none (``GetDefaultPosition``)."""
HARDWARE_POSITIONS = {
    Hardware.UB: (TPosition.VECIN, TPosition.VECOUT, TPosition.VECCALC),
    Hardware.L1: (TPosition.A1, TPosition.B1, TPosition.C1),
    Hardware.L0A: (TPosition.A2,),
    Hardware.L0B: (TPosition.B2,),
    Hardware.L0C: (TPosition.CO1,),
    Hardware.BIAS: (TPosition.C2,),
    Hardware.FIXBUF: (TPosition.C2PIPE2GM,),
}
"""The logical positions on each physical memory (``GetPhyType`` of a position)."""


def InitSocState() -> None:
    """``AscendC::InitSocState()``: reset the core's modes (as ``asc_init``).

    The copy pad value becomes 0, the mask SPR all ones and the store-atomic mode none.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()) as ctx:
    ...     InitSocState(); ctx.state["pad_value"]
    0
    """
    _ascreg_call = "InitSocState"
    reset_soc_state()


def GetBlockIdx() -> int:
    """``AscendC::GetBlockIdx()``: the running block's index.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext(block_idx=2, block_num=4)):
    ...     GetBlockIdx(), GetBlockNum()
    (2, 4)
    """
    _ascreg_call = "GetBlockIdx"
    return current_block().block_idx


def GetBlockNum() -> int:
    """``AscendC::GetBlockNum()``: the number of blocks of the launch; see :func:`GetBlockIdx`.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext(block_num=8)):
    ...     GetBlockNum()
    8
    """
    _ascreg_call = "GetBlockNum"
    return current_block().block_num


def GetVecLen() -> int:
    """``AscendC::GetVecLen()``: bytes in a vector register (256).

    Examples
    --------
    >>> GetVecLen() // 4
    64
    """
    return get_vec_len()


def CeilDivision(num1: int, num2: int) -> int:
    """``AscendC::CeilDivision(num1, num2)``: *num1* / *num2* rounded up (0 when *num2* is 0).

    Examples
    --------
    >>> CeilDivision(200, 64), CeilDivision(128, 64), CeilDivision(5, 0)
    (4, 2, 0)
    >>> import numpy as np
    >>> CeilDivision(np.uint32(512), np.uint32(64))  # unsigned values (a kernel's uint32_t)
    8
    """
    a, b = int(num1), int(num2)
    return 0 if b == 0 else -(-a // b)


class LocalMemAllocator(metaclass=ClassTemplate):
    """``AscendC::LocalMemAllocator<hard>``: ``LocalMemAllocator[Hardware.UB]()`` (or ``()``).

    Its ``Alloc`` hands out :class:`LocalTensor` objects: over fresh UB of the running block
    (32-byte aligned), or, for the cube core's ``L1`` / ``L0A`` / ``L0B`` / ``L0C`` / ``BIAS`` /
    ``FIXBUF``, at the allocator's head, which each ``Alloc`` moves on by the tensor's bytes as
    the header's allocator does (the buffer's address alignment is checked as for any
    ``LocalTensor`` there).

    Examples
    --------
    >>> from ascreg import float32_t
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     ubAllocator = LocalMemAllocator[Hardware.UB]()
    ...     ubAllocator.Alloc[float32_t, 64]().GetSize(), ubAllocator.Alloc[float32_t](8).GetPhyAddr().address
    (64, 256)
    >>> with block(BlockContext()):
    ...     l0c = LocalMemAllocator[Hardware.L0C]().Alloc[float32_t](256)
    ...     l0c.GetPosition().name, l0c.GetPhyAddr()
    ('CO1', <__cc__ float* 0x0>)
    """

    template_signatures = (Signature(hard=(member_of(Hardware), Hardware.UB)),)

    def __init__(self, hard: Hardware = Hardware.UB) -> None:
        _ascreg_call = "LocalMemAllocator"
        if hard not in DEFAULT_POSITIONS:
            raise AscregTypeError(
                f"LocalMemAllocator<Hardware::{hard.name}>: the hardware position must be UB, L1, "
                "L0A, L0B, L0C, BIAS or FIXBUF"
            )
        self.hard = hard
        self.head = 0
        """The next byte address of a cube-core allocator (``head_``; UB uses the block's UB)."""

    def __repr__(self) -> str:
        return f"LocalMemAllocator<Hardware::{self.hard.name}>"

    def GetCurAddr(self) -> int:
        """``GetCurAddr()``: the byte address the next ``Alloc`` of a cube-core memory starts at.

        Examples
        --------
        >>> from ascreg import half
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     l1 = LocalMemAllocator[Hardware.L1](); _ = l1.Alloc[half](100); l1.GetCurAddr()
        200
        """
        if self.hard is Hardware.UB:
            return current_block().ub.top
        return self.head

    @member_template(
        Signature(pos=member_of(TPosition), DataType=TYPENAME, tileSize=INTEGER),
        Signature(DataType=TYPENAME, tileSize=INTEGER),
        Signature(pos=member_of(TPosition), DataType=TYPENAME),
        Signature(DataType=TYPENAME),
    )
    def Alloc(
        self,
        count: int | None = None,
        *,
        pos: TPosition | None = None,
        DataType: type[Scalar] | None = None,
        tileSize: int | None = None,
    ) -> LocalTensor[Any]:
        """``Alloc<DataType, tileSize>()`` / ``Alloc<DataType>(tileSize)``: a fresh LocalTensor.

        Either form may lead with the logical position: ``Alloc[TPosition.VECIN, T, N]()``
        (default ``VECCALC``). The tensor starts on a 32-byte boundary.

        Examples
        --------
        >>> from ascreg import half
        >>> from ascreg.machine.block import BlockContext, block
        >>> with block(BlockContext()):
        ...     t = LocalMemAllocator().Alloc[TPosition.VECIN, half](40)
        ...     t.GetSize(), t.GetPosition().name
        (40, 'VECIN')
        """
        dtype = need("DataType", DataType, "Alloc[DataType](tileSize)")
        n = tileSize if tileSize is not None else count
        _ascreg_call = f"LocalMemAllocator.Alloc<{dtype.cpp_name}, {n}>"
        if tileSize is not None and count is not None:
            raise AscregTypeError("give the size once: Alloc[T, N]() or Alloc[T](n)")
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
            raise AscregTypeError(f"the tile size must be a positive element count, got {n!r}")
        position = DEFAULT_POSITIONS[self.hard] if pos is None else pos
        if position not in HARDWARE_POSITIONS[self.hard]:
            raise AscregTypeError(
                f"{position} is not a position of Hardware::{self.hard.name} "
                f"({', '.join(p.name for p in HARDWARE_POSITIONS[self.hard])})"
            )
        if self.hard is Hardware.UB:
            ptr = current_block().ub.alloc(dtype, n)
            return LocalTensor._view(ptr, n, position)
        # the header's allocator: a tensor at head_, which moves on by its bytes (no padding)
        tensor: LocalTensor[Any] = cast(Any, LocalTensor)[dtype](position, self.head, n)
        self.head += dtype.bits * n // 8
        return tensor


# The kernel-source macros and the advanced API (one import group; see ascreg.basic._advanced).
from ascreg.basic._advanced import *  # noqa: E402, F403

__all__ += [  # generated from ascreg.basic._advanced.__all__ by tools/gen_stubs.py
    "AIC",
    "AIV",
    "ASCENDC_ASSERT",
    "ASCEND_IS_AIC",
    "ASCEND_IS_AIV",
    "ASCEND_IS_NOT_AIC",
    "ASCEND_IS_NOT_AIV",
    "ASSERT",
    "COPY_TILING_WITH_ARRAY",
    "COPY_TILING_WITH_STRUCT",
    "GET_TILING_DATA",
    "GET_TILING_DATA_MEMBER",
    "GET_TILING_DATA_PTR_WITH_STRUCT",
    "GET_TILING_DATA_WITH_STRUCT",
    "GM_ADDR",
    "ICPU_SET_TILING_KEY",
    "KERNEL_DEBUG",
    "KERNEL_ERROR",
    "KERNEL_INFO",
    "KERNEL_LOG",
    "KERNEL_TASK_TYPE",
    "KERNEL_TASK_TYPE_DEFAULT",
    "KERNEL_TYPE_AICORE",
    "KERNEL_TYPE_AIC_ONLY",
    "KERNEL_TYPE_AIV_ONLY",
    "KERNEL_TYPE_MAX",
    "KERNEL_TYPE_MIX_AICORE",
    "KERNEL_TYPE_MIX_AIC_1_0",
    "KERNEL_TYPE_MIX_AIC_1_1",
    "KERNEL_TYPE_MIX_AIC_1_2",
    "KERNEL_TYPE_MIX_AIV_1_0",
    "KERNEL_TYPE_MIX_VECTOR_CORE",
    "KERNEL_TYPE_VECTORCORE",
    "KERNEL_WARN",
    "LAUNCH_BOUND",
    "MIX",
    "REGISTER_NONE_TILING",
    "REGISTER_TILING_DATA_CLASS",
    "REGISTER_TILING_DEFAULT",
    "REGISTER_TILING_FOR_TILINGKEY",
    "TILING_KEY_IS",
    "TILING_KEY_LIST",
    "TILING_KEY_VAR",
    "CArray",
    "CountBitsCntSameAsSignBit",
    "CountLeadingZero",
    "GetBitCount",
    "GetSFFValue",
    "KernelMetaType",
    "NumericLimits",
    "ScalarCountLeadingZero",
    "ScalarGetCountOfValue",
    "ScalarGetSFFValue",
    "Struct",
    "ascendc_assert",
    "g_coreType",
    "int4b_t",
    "likely",
    "unlikely",
    "DEFAULT_SORT_CONFIG",
    "Concat",
    "Extract",
    "GetSortLen",
    "GetSortOffset",
    "MrgSort",
    "MrgSortSrcList",
    "Sort",
    "Sort32",
    "SortConfig",
    "SortType",
    "TopK",
    "TopKAlgo",
    "TopKConfig",
    "TopKInfo",
    "TopKMode",
    "TopKOrder",
    "defaultTopKConfig",
    "DEFAULT_TANH_CONFIG",
    "Acos",
    "Acosh",
    "Asin",
    "Atan",
    "AtanAlgo",
    "AtanConfig",
    "Atanh",
    "BitwiseAnd",
    "BitwiseAndConfig",
    "BitwiseNot",
    "BitwiseNotConfig",
    "BitwiseOr",
    "BitwiseOrConfig",
    "BitwiseXor",
    "BitwiseXorConfig",
    "Ceil",
    "Cos",
    "CosAlgo",
    "CosConfig",
    "Cosh",
    "Erf",
    "ErfAlgo",
    "ErfConfig",
    "Erfc",
    "FasterGelu",
    "FasterGeluV2",
    "Floor",
    "Fma",
    "FmaConfig",
    "Gelu",
    "IsFinite",
    "IsInf",
    "IsInfConfig",
    "IsNan",
    "IsNanConfig",
    "Log",
    "Log2",
    "Log10",
    "LogicalAnd",
    "LogicalAndConfig",
    "LogicalNot",
    "LogicalNotConfig",
    "LogicalOr",
    "LogicalOrConfig",
    "LogicalXor",
    "LogicalXorConfig",
    "Power",
    "PowerAlgo",
    "PowerConfig",
    "Rint",
    "RintConfig",
    "Round",
    "Sigmoid",
    "Sign",
    "Sin",
    "SinAlgo",
    "SinConfig",
    "Sinh",
    "Swish",
    "Tan",
    "Tanh",
    "TanhAlgo",
    "TanhConfig",
    "Trunc",
    "defaultAtanConfig",
    "defaultCosConfig",
    "defaultErfConfig",
    "defaultPowerConfig",
    "defaultSinConfig",
    "LNCFG_NORM",
    "NLCFG_NOBETA",
    "NLCFG_NOGAMMA",
    "NLCFG_NOOPT",
    "NLCFG_NORM",
    "WFFINALIZE_DEFAULT_CFG",
    "WFUPDATE_DEFAULT_CFG",
    "GetLayerNormNDTilingInfo",
    "GetRmsNormTilingInfo",
    "LayerNorm",
    "LayerNormConfig",
    "LayerNormPara",
    "LayerNormSeparateTiling",
    "Normalize",
    "NormalizeConfig",
    "NormalizePara",
    "RmsNorm",
    "RmsNormTiling",
    "WelfordFinalize",
    "WelfordFinalizeConfig",
    "WelfordFinalizePara",
    "WelfordUpdate",
    "WelfordUpdateConfig",
    "WelfordUpdateParam",
    "ASCEND_QUANT_DEFAULT_CFG",
    "AntiQuantShapeInfo",
    "AscendAntiQuant",
    "AscendDequant",
    "AscendQuant",
    "AscendQuantConfig",
    "DeQuantMode",
    "DequantParams",
    "AntiQuantize",
    "AntiQuantizeConfig",
    "AntiQuantizeParams",
    "AntiQuantizePolicy",
    "Dequantize",
    "DequantizeConfig",
    "DequantizeParams",
    "DequantizePolicy",
    "Quantize",
    "QuantizeConfig",
    "QuantizeParams",
    "QuantizePolicy",
    "PHILOX_COUNTER_SIZE",
    "PHILOX_KEY_SIZE",
    "Arange",
    "Broadcast",
    "BroadcastTiling",
    "Fill",
    "GetBroadcastTilingInfo",
    "PhiloxRandom",
    "PhiloxRandomParams",
    "ASCENDC_TPL_1_BW",
    "ASCENDC_TPL_2_BW",
    "ASCENDC_TPL_4_BW",
    "ASCENDC_TPL_8_BW",
    "ASCENDC_TPL_AICORE",
    "ASCENDC_TPL_AIC_ONLY",
    "ASCENDC_TPL_AIV_ONLY",
    "ASCENDC_TPL_ARGS_DECL",
    "ASCENDC_TPL_ARGS_SEL",
    "ASCENDC_TPL_BOOL",
    "ASCENDC_TPL_BOOL_DECL",
    "ASCENDC_TPL_BOOL_SEL",
    "ASCENDC_TPL_DATATYPE_DECL",
    "ASCENDC_TPL_DATATYPE_SEL",
    "ASCENDC_TPL_DETERMINISTIC",
    "ASCENDC_TPL_DETERMINISTIC_SEL",
    "ASCENDC_TPL_DTYPE",
    "ASCENDC_TPL_DTYPE_DECL",
    "ASCENDC_TPL_DTYPE_SEL",
    "ASCENDC_TPL_FORMAT",
    "ASCENDC_TPL_FORMAT_DECL",
    "ASCENDC_TPL_FORMAT_SEL",
    "ASCENDC_TPL_INPUT",
    "ASCENDC_TPL_KERNEL_TYPE",
    "ASCENDC_TPL_KERNEL_TYPE_DECL",
    "ASCENDC_TPL_KERNEL_TYPE_SEL",
    "ASCENDC_TPL_MIX_AICORE",
    "ASCENDC_TPL_MIX_AIC_1_0",
    "ASCENDC_TPL_MIX_AIC_1_1",
    "ASCENDC_TPL_MIX_AIC_1_2",
    "ASCENDC_TPL_MIX_AIV_1_0",
    "ASCENDC_TPL_MIX_VECTOR_CORE",
    "ASCENDC_TPL_OUTPUT",
    "ASCENDC_TPL_SEL",
    "ASCENDC_TPL_SHARED_KERNEL_TYPE",
    "ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL",
    "ASCENDC_TPL_TILING_STRUCT_SEL",
    "ASCENDC_TPL_UINT",
    "ASCENDC_TPL_UINT_DECL",
    "ASCENDC_TPL_UINT_SEL",
    "ASCENDC_TPL_UI_LIST",
    "ASCENDC_TPL_UI_MIX",
    "ASCENDC_TPL_UI_RANGE",
    "ASCENDC_TPL_VECTORCORE",
    "GET_TPL_TILING_KEY",
    "INVALID_TILING_KEY",
    "DecodeTilingKey",
    "EncodeTilingKey",
    "ParamStruct",
]

__getattr__ = module_getattr("ascreg.basic", "basic")
