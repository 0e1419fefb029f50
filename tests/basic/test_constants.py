"""The constants kernels read from namespace AscendC, and the platform queries.

Each value is the dav-3510 branch of the asc-devkit's kernel_utils_constants.h; the test checks
them against the machine ascreg emulates and against each other (the header defines the derived
ones from the base ones), and that both import surfaces have them.
"""

from __future__ import annotations

import numpy as np

import ascreg
import ascreg.basic
from ascreg import UB_BYTES, VL, float32_t, half, uint8_t
from ascreg.basic import QuePosition, TPosition, _constants, platform
from ascreg.machine.memory import DATA_BLOCK


def test_machine_sizes() -> None:
    b = ascreg.basic
    assert b.VECTOR_REG_WIDTH == VL == b.GetVRegSize() == b.GetVecLen() == 256
    assert b.VECTOR_REG_WIDTH_2XVL == 2 * VL
    assert b.ONE_BLK_SIZE == b.ONE_BLOCK_SIZE == b.GetUbBlockSize() == DATA_BLOCK == 32
    assert b.TOTAL_UB_SIZE == b.TOTAL_VEC_LOCAL_SIZE == b.TMP_UB_OFFSET == UB_BYTES == 248 * 1024
    assert b.ONE_REPEAT_BYTE_SIZE == b.DEFAULT_BLK_NUM * b.ONE_BLK_SIZE == VL
    assert b.RESERVED_WORKSPACE == 16 << 20 and b.AIV_CORE_NUM == 72
    assert (b.TOTAL_L1_SIZE, b.TOTAL_L0A_SIZE, b.TOTAL_L0B_SIZE, b.TOTAL_L0C_SIZE) == (
        512 << 10,
        64 << 10,
        64 << 10,
        256 << 10,
    )
    assert (b.BLOCK_CUBE, b.CUBE_MAX_SIZE, b.BYTE_PER_FRACTAL) == (16, 256, 512)
    assert (b.DEFAULT_REPEAT_STRIDE, b.HALF_DEFAULT_REPEAT_STRIDE, b.MAX_REPEAT_TIMES) == (
        8,
        4,
        255,
    )


def test_derived_counts_follow_the_header_formulas() -> None:
    b = ascreg.basic
    for size, name in ((8, "B64"), (4, "B32"), (2, "B16"), (1, "B8")):
        assert getattr(b, f"{name}_BYTE_SIZE") == size
    assert b.B32_DATA_NUM_PER_BLOCK == b.ONE_BLK_FLOAT_NUM == b.ONE_BLK_SIZE // float32_t.size
    assert b.B16_DATA_NUM_PER_BLOCK == b.ONE_BLK_HALF_NUM == b.ONE_BLK_SIZE // half.size
    assert b.B16_DATA_NUM_PER_REPEAT == b.ONE_REPEAT_HALF_SIZE == b.HALF_REPEAT_SIZE == 128
    assert b.B32_DATA_NUM_PER_REPEAT == b.ONE_REPEAT_FLOAT_SIZE == b.FLOAT_REPEAT_SIZE == 64
    assert b.B64_DATA_NUM_PER_REPEAT == 32
    assert b.MAX_REPEAT_FLOAT_SIZE == 64 * 255 and b.MAX_REPEAT_HALF_SIZE == 128 * 255


def test_float_bit_patterns() -> None:
    b = ascreg.basic
    as_float = np.array([b.F32_INF, b.F32_NEG_INF, b.F32_NAN], dtype=np.uint32).view(np.float32)
    assert np.isposinf(as_float[0]) and np.isneginf(as_float[1]) and np.isnan(as_float[2])
    assert b.FULL_MASK == (1 << 64) - 1 and b.MASK_PLACEHOLDER == 0


def test_both_import_surfaces_have_every_constant() -> None:
    namespace: dict[str, object] = {}
    exec("from ascreg.basic import *", namespace)  # using namespace AscendC;
    for name in _constants.__all__:
        assert namespace[name] is getattr(ascreg, name)  # AscendC::NAME in Reg code
    assert "platform" not in namespace  # would shadow the standard library module
    assert "QuePosition" in namespace


def test_platform_helpers() -> None:
    assert platform.GetVRegSize() // float32_t.size == 64
    assert platform.GetUbBlockSize() == 32
    assert platform.IsSupportAtomicAddTypeSIMD[float32_t]()
    assert not platform.IsSupportAtomicAddTypeSIMD[uint8_t]()


def test_queposition_is_tposition() -> None:
    assert QuePosition is TPosition and QuePosition.VECOUT is TPosition.VECOUT
