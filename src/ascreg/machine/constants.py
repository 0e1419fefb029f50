"""The constants ``namespace AscendC`` gives kernels on dav-3510, and the platform size queries.

Values are those of the asc-devkit's ``kernel_utils_constants.h`` (and ``kernel_reg.h`` for
``MASK_PLACEHOLDER``) in their ``__NPU_ARCH__ == 3510`` branch. A C++ kernel reads them
unqualified after ``using namespace AscendC;`` or as ``AscendC::VECTOR_REG_WIDTH``; in Python
they come with ``from ascreg.basic import *`` and from ``ascreg`` itself (where Reg code
imports ``Reg``). ``GetVRegSize()`` / ``GetUbBlockSize()`` are the operator repositories'
``platform::`` (and ``Ops::Base::``) helpers (``ascreg.basic.platform`` holds them too).

Examples
--------
>>> VECTOR_REG_WIDTH // B32_BYTE_SIZE, ONE_BLK_SIZE, GetVRegSize(), GetUbBlockSize()
(64, 32, 256, 32)
"""

from __future__ import annotations

from typing import Final

from ascreg.machine.memory import DATA_BLOCK, UB_BYTES
from ascreg.machine.registers import VL

__all__ = [
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
"""The names a kernel reads after ``using namespace AscendC;`` (``platform`` is imported by name)."""

# -- the vector register and the UB --------------------------------------------------------------

VECTOR_REG_WIDTH: Final = VL
"""``AscendC::VECTOR_REG_WIDTH``: bytes in a vector register (256).

Examples
--------
>>> VECTOR_REG_WIDTH
256
"""
VECTOR_REG_WIDTH_2XVL: Final = 2 * VL
"""``AscendC::VECTOR_REG_WIDTH_2XVL``: bytes in two vector registers (512).

Examples
--------
>>> VECTOR_REG_WIDTH_2XVL
512
"""
ONE_REPEAT_BYTE_SIZE: Final = 256
"""``AscendC::ONE_REPEAT_BYTE_SIZE``: bytes one repeat of a memory-level vector op reads (256).

Examples
--------
>>> ONE_REPEAT_BYTE_SIZE
256
"""
ONE_BLK_SIZE: Final = DATA_BLOCK
"""``AscendC::ONE_BLK_SIZE``: bytes in a UB DataBlock, the 32-byte alignment unit.

Examples
--------
>>> ONE_BLK_SIZE
32
"""
ONE_BLOCK_SIZE: Final = DATA_BLOCK
"""``AscendC::ONE_BLOCK_SIZE``: the same 32 bytes, under its other name.

Examples
--------
>>> ONE_BLOCK_SIZE == ONE_BLK_SIZE
True
"""
DEFAULT_C0_SIZE: Final = 32
"""``AscendC::DEFAULT_C0_SIZE``: bytes of a C0 group (32).

Examples
--------
>>> DEFAULT_C0_SIZE
32
"""
DEFAULT_BLK_NUM: Final = 8
"""``AscendC::DEFAULT_BLK_NUM``: DataBlocks in one repeat (8).

Examples
--------
>>> DEFAULT_BLK_NUM * ONE_BLK_SIZE
256
"""
DEFAULT_BLK_STRIDE: Final = 1
"""``AscendC::DEFAULT_BLK_STRIDE``: the default DataBlock stride of a repeat (1).

Examples
--------
>>> DEFAULT_BLK_STRIDE
1
"""
DEFAULT_REPEAT_STRIDE: Final = 8
"""``AscendC::DEFAULT_REPEAT_STRIDE``: the default repeat stride, in DataBlocks (8).

Examples
--------
>>> DEFAULT_REPEAT_STRIDE
8
"""
HALF_DEFAULT_REPEAT_STRIDE: Final = 4
"""``AscendC::HALF_DEFAULT_REPEAT_STRIDE``: half the default repeat stride (4).

Examples
--------
>>> HALF_DEFAULT_REPEAT_STRIDE
4
"""
MAX_REPEAT_TIMES: Final = 255
"""``AscendC::MAX_REPEAT_TIMES``: the largest repeat count of a memory-level vector op (255).

Examples
--------
>>> MAX_REPEAT_TIMES
255
"""
HALF_FACTOR: Final = 2
"""``AscendC::HALF_FACTOR``: 2.

Examples
--------
>>> 64 // HALF_FACTOR
32
"""
DOUBLE_FACTOR: Final = 2
"""``AscendC::DOUBLE_FACTOR``: 2.

Examples
--------
>>> 64 * DOUBLE_FACTOR
128
"""
ONE_BYTE_BIT_SIZE: Final = 8
"""``AscendC::ONE_BYTE_BIT_SIZE``: bits in a byte.

Examples
--------
>>> ONE_BYTE_BIT_SIZE
8
"""
PAD_SIZE: Final = 4
"""``AscendC::PAD_SIZE``: 4.

Examples
--------
>>> PAD_SIZE
4
"""
FULL_MASK: Final = 0xFFFFFFFFFFFFFFFF
"""``AscendC::FULL_MASK``: a 64-bit mask with every bit set.

Examples
--------
>>> hex(FULL_MASK)
'0xffffffffffffffff'
"""
MASK_PLACEHOLDER: Final = 0
"""``AscendC::MASK_PLACEHOLDER``: the mask argument of a call whose mask comes from elsewhere (0).

Examples
--------
>>> MASK_PLACEHOLDER
0
"""
FULL_MASK_LEN: Final = 128
"""``AscendC::FULL_MASK_LEN``: 128.

Examples
--------
>>> FULL_MASK_LEN
128
"""
HALF_MASK_LEN: Final = 64
"""``AscendC::HALF_MASK_LEN``: 64.

Examples
--------
>>> HALF_MASK_LEN
64
"""

# -- element counts --------------------------------------------------------------------------

B64_BYTE_SIZE: Final = 8
"""``AscendC::B64_BYTE_SIZE``: bytes of a 64-bit element.

Examples
--------
>>> B64_BYTE_SIZE
8
"""
B32_BYTE_SIZE: Final = 4
"""``AscendC::B32_BYTE_SIZE``: bytes of a 32-bit element.

Examples
--------
>>> B32_BYTE_SIZE
4
"""
B16_BYTE_SIZE: Final = 2
"""``AscendC::B16_BYTE_SIZE``: bytes of a 16-bit element.

Examples
--------
>>> B16_BYTE_SIZE
2
"""
B8_BYTE_SIZE: Final = 1
"""``AscendC::B8_BYTE_SIZE``: bytes of an 8-bit element.

Examples
--------
>>> B8_BYTE_SIZE
1
"""
B32_DATA_NUM_PER_BLOCK: Final = ONE_BLK_SIZE // B32_BYTE_SIZE
"""``AscendC::B32_DATA_NUM_PER_BLOCK``: 32-bit elements in a DataBlock (8).

Examples
--------
>>> B32_DATA_NUM_PER_BLOCK
8
"""
B16_DATA_NUM_PER_BLOCK: Final = ONE_BLK_SIZE // B16_BYTE_SIZE
"""``AscendC::B16_DATA_NUM_PER_BLOCK``: 16-bit elements in a DataBlock (16).

Examples
--------
>>> B16_DATA_NUM_PER_BLOCK
16
"""
B16_DATA_NUM_PER_REPEAT: Final = ONE_REPEAT_BYTE_SIZE // B16_BYTE_SIZE
"""``AscendC::B16_DATA_NUM_PER_REPEAT``: 16-bit elements in a repeat (128).

Examples
--------
>>> B16_DATA_NUM_PER_REPEAT
128
"""
B32_DATA_NUM_PER_REPEAT: Final = ONE_REPEAT_BYTE_SIZE // B32_BYTE_SIZE
"""``AscendC::B32_DATA_NUM_PER_REPEAT``: 32-bit elements in a repeat (64).

Examples
--------
>>> B32_DATA_NUM_PER_REPEAT
64
"""
B64_DATA_NUM_PER_REPEAT: Final = ONE_REPEAT_BYTE_SIZE // B64_BYTE_SIZE
"""``AscendC::B64_DATA_NUM_PER_REPEAT``: 64-bit elements in a repeat (32).

Examples
--------
>>> B64_DATA_NUM_PER_REPEAT
32
"""
ONE_BLK_HALF_NUM: Final = ONE_BLK_SIZE // B16_BYTE_SIZE
"""``AscendC::ONE_BLK_HALF_NUM``: ``half`` elements in a DataBlock (16).

Examples
--------
>>> ONE_BLK_HALF_NUM
16
"""
ONE_BLK_FLOAT_NUM: Final = ONE_BLK_SIZE // B32_BYTE_SIZE
"""``AscendC::ONE_BLK_FLOAT_NUM``: ``float`` elements in a DataBlock (8).

Examples
--------
>>> ONE_BLK_FLOAT_NUM
8
"""
ONE_REPEAT_HALF_SIZE: Final = ONE_REPEAT_BYTE_SIZE // B16_BYTE_SIZE
"""``AscendC::ONE_REPEAT_HALF_SIZE``: ``half`` elements in a repeat (128).

Examples
--------
>>> ONE_REPEAT_HALF_SIZE
128
"""
ONE_REPEAT_FLOAT_SIZE: Final = ONE_REPEAT_BYTE_SIZE // B32_BYTE_SIZE
"""``AscendC::ONE_REPEAT_FLOAT_SIZE``: ``float`` elements in a repeat (64).

Examples
--------
>>> ONE_REPEAT_FLOAT_SIZE
64
"""
HALF_REPEAT_SIZE: Final = ONE_REPEAT_HALF_SIZE
"""``AscendC::HALF_REPEAT_SIZE``: ``half`` elements in a repeat (128).

Examples
--------
>>> HALF_REPEAT_SIZE
128
"""
FLOAT_REPEAT_SIZE: Final = ONE_REPEAT_FLOAT_SIZE
"""``AscendC::FLOAT_REPEAT_SIZE``: ``float`` elements in a repeat (64).

Examples
--------
>>> FLOAT_REPEAT_SIZE
64
"""
MAX_REPEAT_HALF_SIZE: Final = ONE_REPEAT_HALF_SIZE * MAX_REPEAT_TIMES
"""``AscendC::MAX_REPEAT_HALF_SIZE``: ``half`` elements in the most repeats (32640).

Examples
--------
>>> MAX_REPEAT_HALF_SIZE
32640
"""
MAX_REPEAT_FLOAT_SIZE: Final = ONE_REPEAT_FLOAT_SIZE * MAX_REPEAT_TIMES
"""``AscendC::MAX_REPEAT_FLOAT_SIZE``: ``float`` elements in the most repeats (16320).

Examples
--------
>>> MAX_REPEAT_FLOAT_SIZE
16320
"""

# -- memories and the cube -------------------------------------------------------------------

TOTAL_UB_SIZE: Final = UB_BYTES
"""``AscendC::TOTAL_UB_SIZE``: bytes of the Unified Buffer (248 KiB).

Examples
--------
>>> TOTAL_UB_SIZE // 1024
248
"""
TOTAL_VEC_LOCAL_SIZE: Final = UB_BYTES
"""``AscendC::TOTAL_VEC_LOCAL_SIZE``: bytes of UB a vector kernel may use (248 KiB).

Examples
--------
>>> TOTAL_VEC_LOCAL_SIZE == TOTAL_UB_SIZE
True
"""
TMP_UB_OFFSET: Final = UB_BYTES
"""``AscendC::TMP_UB_OFFSET``: 248 KiB.

Examples
--------
>>> TMP_UB_OFFSET // 1024
248
"""
TMP_UB_SIZE: Final = 8 * 1024
"""``AscendC::TMP_UB_SIZE``: 8 KiB.

Examples
--------
>>> TMP_UB_SIZE
8192
"""
CACHE_LINE_SIZE: Final = 64
"""``AscendC::CACHE_LINE_SIZE``: bytes of a GM cache line (64).

Examples
--------
>>> CACHE_LINE_SIZE
64
"""
TOTAL_L1_SIZE: Final = 512 * 1024
"""``AscendC::TOTAL_L1_SIZE``: bytes of the cube core's L1 buffer (512 KiB; no L1 in ascreg).

Examples
--------
>>> TOTAL_L1_SIZE // 1024
512
"""
TOTAL_L0A_SIZE: Final = 64 * 1024
"""``AscendC::TOTAL_L0A_SIZE``: bytes of L0A (64 KiB; a cube-core memory).

Examples
--------
>>> TOTAL_L0A_SIZE // 1024
64
"""
TOTAL_L0B_SIZE: Final = 64 * 1024
"""``AscendC::TOTAL_L0B_SIZE``: bytes of L0B (64 KiB; a cube-core memory).

Examples
--------
>>> TOTAL_L0B_SIZE // 1024
64
"""
TOTAL_L0C_SIZE: Final = 256 * 1024
"""``AscendC::TOTAL_L0C_SIZE``: bytes of L0C (256 KiB; a cube-core memory).

Examples
--------
>>> TOTAL_L0C_SIZE // 1024
256
"""
BLOCK_CUBE: Final = 16
"""``AscendC::BLOCK_CUBE``: rows and columns of a cube fractal (16).

Examples
--------
>>> BLOCK_CUBE * BLOCK_CUBE
256
"""
CUBE_MAX_SIZE: Final = 256
"""``AscendC::CUBE_MAX_SIZE``: 256.

Examples
--------
>>> CUBE_MAX_SIZE
256
"""
BYTE_PER_FRACTAL: Final = 512
"""``AscendC::BYTE_PER_FRACTAL``: bytes of a 16 x 32-byte fractal (512).

Examples
--------
>>> BYTE_PER_FRACTAL
512
"""
RESERVED_WORKSPACE: Final = 16 * 1024 * 1024
"""``AscendC::RESERVED_WORKSPACE``: bytes of system workspace before the user's (16 MiB).

``GetUserWorkspace(workspace)`` is the system workspace plus this many bytes.

Examples
--------
>>> RESERVED_WORKSPACE // (1024 * 1024)
16
"""
AIV_CORE_NUM: Final = 72
"""``AscendC::AIV_CORE_NUM``: vector cores of the largest dav-3510 part (72).

Examples
--------
>>> AIV_CORE_NUM
72
"""

# -- float bit patterns ------------------------------------------------------------------------

F32_INF: Final = 0x7F800000
"""``AscendC::F32_INF``: the bits of ``float`` +inf.

Examples
--------
>>> import numpy as np
>>> np.uint32(F32_INF).view(np.float32)
np.float32(inf)
"""
F32_NEG_INF: Final = 0xFF800000
"""``AscendC::F32_NEG_INF``: the bits of ``float`` -inf.

Examples
--------
>>> import numpy as np
>>> np.uint32(F32_NEG_INF).view(np.float32)
np.float32(-inf)
"""
F32_NAN: Final = 0x7FC00000
"""``AscendC::F32_NAN``: the bits of the ``float`` quiet NaN.

Examples
--------
>>> import numpy as np
>>> bool(np.isnan(np.uint32(F32_NAN).view(np.float32)))
True
"""


# -- the platform queries ------------------------------------------------------------------------


def GetVRegSize() -> int:
    """``platform::GetVRegSize()``: bytes in a vector register (``VECTOR_REG_WIDTH``, 256).

    Examples
    --------
    >>> GetVRegSize() // 4
    64
    """
    return VECTOR_REG_WIDTH


def GetUbBlockSize() -> int:
    """``platform::GetUbBlockSize()``: bytes in a UB block (32).

    Examples
    --------
    >>> GetUbBlockSize()
    32
    """
    return ONE_BLK_SIZE
