"""``AscendC::DataType`` and ``AscendC::Format``: the tensor descriptors' type and format codes.

Both are unscoped C++ enums of ``kernel_type.h`` (the device-side branch, which kernels
compile against), so their members are names of ``namespace AscendC`` too: ``DT_FLOAT``,
``FORMAT_ND``. The codes count up from 0 in declaration order. (The host-side branch of that
header defines the graph engine's ``DT_*`` codes instead, which differ from ``DT_INT16`` on.)

Examples
--------
>>> DT_FLOAT, DT_INT16.value, FORMAT_ND.value, DataType(26).name
(<DataType.DT_FLOAT: 0>, 5, 2, 'DT_BF16')
"""

from __future__ import annotations

import enum


class DataType(enum.IntEnum):
    """``AscendC::DataType``: the element type codes (``DT_FLOAT`` = 0, ``DT_FLOAT16``, ...).

    Examples
    --------
    >>> DataType.DT_INT8.value, DataType.DT_BF16.value
    (2, 26)
    """

    DT_FLOAT = 0
    DT_FLOAT16 = 1
    DT_INT8 = 2
    DT_INT32 = 3
    DT_UINT8 = 4
    DT_INT16 = 5
    DT_UINT16 = 6
    DT_INT64 = 7
    DT_UINT32 = 8
    DT_UINT64 = 9
    DT_BOOL = 10
    DT_DOUBLE = 11
    DT_STRING = 12
    DT_DUAL_SUB_INT8 = 13
    DT_DUAL_SUB_UINT8 = 14
    DT_COMPLEX64 = 15
    DT_COMPLEX128 = 16
    DT_QINT8 = 17
    DT_QINT16 = 18
    DT_QINT32 = 19
    DT_QUINT8 = 20
    DT_QUINT16 = 21
    DT_RESOURCE = 22
    DT_STRING_REF = 23
    DT_DUAL = 24
    DT_VARIANT = 25
    DT_BF16 = 26
    DT_UNDEFINED = 27
    DT_INT4 = 28
    DT_UINT1 = 29
    DT_INT2 = 30
    DT_UINT2 = 31
    DT_COMPLEX32 = 32
    DT_HIFLOAT8 = 33
    DT_FLOAT8_E5M2 = 34
    DT_FLOAT8_E4M3FN = 35
    DT_FLOAT8_E8M0 = 36
    DT_FLOAT6_E3M2 = 37
    DT_FLOAT6_E2M3 = 38
    DT_FLOAT4_E2M1 = 39
    DT_FLOAT4_E1M2 = 40
    DT_MAX = 41


class Format(enum.IntEnum):
    """``AscendC::Format``: the tensor layout codes (``FORMAT_NCHW`` = 0, ``FORMAT_NHWC``, ...).

    Examples
    --------
    >>> Format.FORMAT_ND.value, Format.FORMAT_FRACTAL_NZ.value
    (2, 29)
    """

    FORMAT_NCHW = 0
    FORMAT_NHWC = 1
    FORMAT_ND = 2
    FORMAT_NC1HWC0 = 3
    FORMAT_FRACTAL_Z = 4
    FORMAT_NC1C0HWPAD = 5
    FORMAT_NHWC1C0 = 6
    FORMAT_FSR_NCHW = 7
    FORMAT_FRACTAL_DECONV = 8
    FORMAT_C1HWNC0 = 9
    FORMAT_FRACTAL_DECONV_TRANSPOSE = 10
    FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11
    FORMAT_NC1HWC0_C04 = 12
    FORMAT_FRACTAL_Z_C04 = 13
    FORMAT_CHWN = 14
    FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15
    FORMAT_HWCN = 16
    FORMAT_NC1KHKWHWC0 = 17
    FORMAT_BN_WEIGHT = 18
    FORMAT_FILTER_HWCK = 19
    FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20
    FORMAT_HASHTABLE_LOOKUP_KEYS = 21
    FORMAT_HASHTABLE_LOOKUP_VALUE = 22
    FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23
    FORMAT_HASHTABLE_LOOKUP_HITS = 24
    FORMAT_C1HWNCoC0 = 25
    FORMAT_MD = 26
    FORMAT_NDHWC = 27
    FORMAT_FRACTAL_ZZ = 28
    FORMAT_FRACTAL_NZ = 29
    FORMAT_NCDHW = 30
    FORMAT_DHWCN = 31
    FORMAT_NDC1HWC0 = 32
    FORMAT_FRACTAL_Z_3D = 33
    FORMAT_CN = 34
    FORMAT_NC = 35
    FORMAT_DHWNC = 36
    FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37
    FORMAT_FRACTAL_ZN_LSTM = 38
    FORMAT_FRACTAL_Z_G = 39
    FORMAT_RESERVED = 40
    FORMAT_ALL = 41
    FORMAT_NULL = 42
    FORMAT_ND_RNN_BIAS = 43
    FORMAT_FRACTAL_ZN_RNN = 44
    FORMAT_NYUV = 45
    FORMAT_NYUV_A = 46
    FORMAT_NCL = 47
    FORMAT_FRACTAL_Z_WINO = 48
    FORMAT_C1HWC0 = 49
    FORMAT_FRACTAL_NZ_C0_16 = 50
    FORMAT_FRACTAL_NZ_C0_32 = 51
    FORMAT_FRACTAL_NZ_C0_2 = 52
    FORMAT_FRACTAL_NZ_C0_4 = 53
    FORMAT_FRACTAL_NZ_C0_8 = 54
    FORMAT_MAX = 55


globals().update({member.name: member for member in (*DataType, *Format)})
__all__ = ["DataType", "Format", *(member.name for member in (*DataType, *Format))]
"""The two enums and their members (an unscoped enum's members are namespace names)."""
