"""Hand-written type tests of the cube spellings that must type-check (never run)."""

from typing import assert_type

from ascreg import float32_t, half
from ascreg.basic import (
    CFG_COLUMN_MAJOR,
    CO2Layout,
    CubeFormat,
    DataCopy,
    Dn2NzParams,
    Fixpipe,
    FixpipeParamsArch3510,
    GlobalTensor,
    IsResetLoad3dConfig,
    LayoutMode,
    LoadData,
    LoadData3DParamsV2,
    LoadDataRepeatParam,
    LocalTensor,
    MatmulType,
    MatmulTypeArgs,
    SetLoadDataRepeat,
    TPosition,
)

aType = MatmulType[TPosition.GM, CubeFormat.ND, half, False, LayoutMode.NORMAL]
assert_type(aType.format, CubeFormat)
assert_type(aType, type[MatmulTypeArgs])

LOAD3D_CONFIG = IsResetLoad3dConfig(False, False)


def cube_moves(
    a1: LocalTensor[half], a2: LocalTensor[half], c1: LocalTensor[float32_t], gm: GlobalTensor[half]
) -> None:
    DataCopy(a1, gm, Dn2NzParams(1, 40, 56, 0, 40, 48, 1, 0))
    DataCopy[half, True](a1, gm, Dn2NzParams(1, 40, 4, 0, 40, 0, 0, 0))
    SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 0, 3))
    LoadData[half, LOAD3D_CONFIG](a2, a1, LoadData3DParamsV2[half](l1H=4, l1W=4))
    out = GlobalTensor[float32_t]()
    params = FixpipeParamsArch3510[CO2Layout.COLUMN_MAJOR](16, 16, 16, 16)
    Fixpipe[float32_t, float32_t, CFG_COLUMN_MAJOR](out, c1, params)
