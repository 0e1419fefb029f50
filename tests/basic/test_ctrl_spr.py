"""``SetCtrlSpr`` / ``GetCtrlSpr`` / ``ResetCtrlSpr``, ``GetSpr<AR>``, the saturation switches,
``Reg.UnalignReg`` (issue 25).

The saturation rule is restated here from the SetCtrlSpr and Cast pages (their table of
"global or per-instruction saturation"): with CTRL[60] = 0 a conversion follows its own control
(``satMode``); with CTRL[60] = 1, CTRL[48] decides float-to-float conversions and CTRL[59]
float-to-integer and integer-to-integer ones (0: saturate). Conversions are checked against the
scalar reference (``reference.convert``) with the saturation the rule gives.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascreg import (
    GmPtr,
    MicroAPI,
    Ref,
    Reg,
    UbPtr,
    acl,
    float32_t,
    fp8_e4m3fn_t,
    half,
    int16_t,
    int32_t,
    uint8_t,
)
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    DataCopy,
    GetCtrlSpr,
    GetSpr,
    GlobalTensor,
    HardEvent,
    Hardware,
    InitSocState,
    LocalMemAllocator,
    PipeBarrier,
    ResetCtrlSpr,
    SetCtrlSpr,
    SetFlag,
    WaitFlag,
)
from ascreg.c_api import asc_get_ctrl, asc_set_atomic_add_float16, asc_set_ctrl
from ascreg.enums import CastTrait, RegLayout, RoundMode, SatMode, SpecialPurposeReg
from ascreg.errors import (
    AscregTypeError,
    UndefinedBehaviourError,
    UninitializedRegisterError,
    UnsupportedError,
)
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __global__, __simd_vf__, __vector__
from ascreg.machine.sysregs import CTRL_DEFAULT, CTRL_RESET, system_registers
from reference import convert as ref
from strategies import make_mask, make_reg, reg_bits


def test_fields_read_write_and_reset_the_one_ctrl_register() -> None:
    with block(BlockContext()):
        assert GetCtrlSpr[0, 63]() == asc_get_ctrl() == CTRL_RESET
        SetCtrlSpr[60, 60](0)
        SetCtrlSpr[59, 59](1)
        assert asc_get_ctrl() == CTRL_RESET & ~(1 << 60) | 1 << 59
        assert (GetCtrlSpr[59, 60](), GetCtrlSpr[48, 48]()) == (0b01, 1)
        ResetCtrlSpr[59, 59]()
        ResetCtrlSpr[60, 60]()
        assert asc_get_ctrl() == CTRL_RESET
        asc_set_ctrl(asc_get_ctrl() | 1 << 49)  # scalar reads through the data cache
        assert GetCtrlSpr[49, 49]() == 1
    with block(BlockContext()):  # one register per block
        assert GetCtrlSpr[0, 63]() == CTRL_RESET and CTRL_RESET == CTRL_DEFAULT | 1 << 48


def test_atomic_field_is_the_store_atomic_mode() -> None:
    with block(BlockContext()):
        asc_set_atomic_add_float16()
        assert GetCtrlSpr[6, 8]() == 2 and GetCtrlSpr[9, 10]() == 0  # half, add
        SetCtrlSpr[9, 10](2)
        assert system_registers().atomic == ("min", half)
        SetCtrlSpr[6, 8](0)
        assert system_registers().atomic is None
        SetCtrlSpr[6, 10](0b01_100)  # int32_t, max
        assert system_registers().atomic == ("max", int32_t)
        with pytest.raises(UnsupportedError, match="store-atomic"):
            SetCtrlSpr[6, 8](7)
        assert system_registers().atomic == ("max", int32_t)  # a refused write changes nothing


@pytest.mark.parametrize(
    ("bits", "message"),
    [
        ((49, 49), "not a field"),
        ((5, 8), "not a field"),
        ((60, 59), "startBit <= endBit"),
        ((48, 64), "startBit <= endBit"),
        ((60,), "two int8_t"),
        ((60.0, 60), "two int8_t"),
    ],
)
def test_set_takes_the_fields_the_header_allows(bits: Any, message: str) -> None:
    with pytest.raises(AscregTypeError, match=message):
        SetCtrlSpr[bits]


def test_values_and_unmodelled_settings_are_refused() -> None:
    with block(BlockContext()):
        with pytest.raises(AscregTypeError, match="does not fit"):
            SetCtrlSpr[60, 60](2)
        with pytest.raises(AscregTypeError, match="does not fit"):
            SetCtrlSpr[6, 8](-1)
        for bit in (50, 53):
            with pytest.raises(UnsupportedError, match=f"CTRL\\[{bit}\\] = 1"):
                SetCtrlSpr[bit, bit](1)
        with pytest.raises(UnsupportedError, match="saturating float arithmetic"):
            SetCtrlSpr[48, 48](0)  # with CTRL[60] = 1: global saturation of half arithmetic
        SetCtrlSpr[60, 60](0)
        SetCtrlSpr[48, 48](0)  # ignored while CTRL[60] = 0: modelled
        with pytest.raises(UnsupportedError, match="saturating float arithmetic"):
            ResetCtrlSpr[60, 60]()
        assert GetCtrlSpr[60, 60]() == 0


# -- the saturation switches and Cast ------------------------------------------------------------

PAIRS = [(float32_t, int16_t), (int32_t, int16_t), (float32_t, half), (float32_t, fp8_e4m3fn_t)]
"""Float-to-integer, integer-to-integer and float-to-float conversions with a satMode."""
STATES = {
    "outside a kernel": None,
    "reset": {},
    "per-instruction": {60: 0},
    "global, truncating integers": {59: 1},
    "per-instruction, CTRL[48] and [59] ignored": {60: 0, 48: 0, 59: 1},
}


def saturates(state: dict[int, int] | None, integer: bool, sat: bool) -> bool:
    """The pages' table: CTRL[60] = 0 -> satMode; else CTRL[59] / CTRL[48] = 0 saturate."""
    if state is None:
        return sat  # no CTRL outside a kernel: the instruction's control
    ctrl = {48: 1, 59: 0, 60: 1, **state}  # a block starts with CTRL[48] = 1
    if ctrl[60] == 0:
        return sat
    return ctrl[59 if integer else 48] == 0


def _lanes(data: Any, dtype: Any, lanes: int) -> list[int]:
    if dtype is float32_t:  # big, small, special
        values = data.draw(st.lists(st.one_of(
            st.floats(width=32, min_value=-1e6, max_value=1e6),
            st.sampled_from([np.inf, -np.inf, np.nan, 40000.0, -70000.5, 500.0])),
            min_size=lanes, max_size=lanes))  # fmt: skip
        return [int(b) for b in np.array(values, np.float32).view(np.uint32)]
    return data.draw(
        st.lists(st.integers(0, (1 << 8 * dtype.size) - 1), min_size=lanes, max_size=lanes)
    )


@pytest.mark.rows("Reg.Cast")
@pytest.mark.parametrize("state", list(STATES), ids=list(STATES))
@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0].cpp_name}-{p[1].cpp_name}")
@settings(max_examples=8)
@given(data=st.data())
def test_cast_saturates_as_the_ctrl_switches_say(pair: Any, state: str, data: Any) -> None:
    src, dst = pair
    sat = data.draw(st.booleans())
    values = _lanes(data, src, 256 // src.size)
    layout = RegLayout.ZERO if src.size != dst.size else RegLayout.UNKNOWN
    # an integer narrowing is exact: it takes no rounding mode (UnsupportedError otherwise)
    rounding = RoundMode.CAST_RINT if src is float32_t else RoundMode.CAST_NONE
    trait = CastTrait(layout, SatMode.SAT if sat else SatMode.NO_SAT, roundMode=rounding)
    mask = [1] * 256
    integer = dst is int16_t
    setting = STATES[state]
    want = ref.cast_register(values, mask, src, dst, None if layout is RegLayout.UNKNOWN else 0,
                             RoundMode.CAST_RINT, saturates(setting, integer, sat), 256 // src.size)  # fmt: skip
    out = Reg.RegTensor[dst]()

    def run() -> None:
        Reg.Cast[dst, src, trait](out, make_reg(src, values), make_mask(mask))

    if setting is None:
        run()
    else:
        with block(BlockContext()) as ctx:
            for bit, value in setting.items():
                SetCtrlSpr[bit, bit](value)
            with ctx.simd_vf():
                run()
    assert reg_bits(out) == want


# -- a production kernel's pattern (ops-nn quant/ascend_quant, arch35) ---------------------------

FLOAT_OVERFLOW_MODE_CTRL = 60
CAST_TRAIT_FP32_TO_FP8E4M3 = CastTrait(RegLayout.ZERO, SatMode.SAT, roundMode=RoundMode.CAST_RINT)
N = 64


@__simd_vf__
def QuantVF(dst: UbPtr[fp8_e4m3fn_t], src: UbPtr[float32_t]) -> None:
    x = Reg.RegTensor[float32_t]()
    y = Reg.RegTensor[fp8_e4m3fn_t]()
    mask = Reg.CreateMask[float32_t]()
    Reg.LoadAlign(x, src)
    Reg.Cast[fp8_e4m3fn_t, float32_t, CAST_TRAIT_FP32_TO_FP8E4M3](y, x, mask)
    Reg.StoreAlign[fp8_e4m3fn_t, Reg.StoreDist.DIST_PACK4_B32](dst, y, mask)


@__global__
@__vector__
def ascend_quant(x: GmPtr[float32_t], y: GmPtr[fp8_e4m3fn_t], per_instruction: int) -> None:
    oriOverflowMode = GetCtrlSpr[FLOAT_OVERFLOW_MODE_CTRL, FLOAT_OVERFLOW_MODE_CTRL]()
    InitSocState()
    if per_instruction:  # SetFloatOverflowModeForRegbase<fp8_e4m3fn_t>()
        SetCtrlSpr[FLOAT_OVERFLOW_MODE_CTRL, FLOAT_OVERFLOW_MODE_CTRL](0)
    xGm, yGm = GlobalTensor[float32_t](), GlobalTensor[fp8_e4m3fn_t]()
    xGm.SetGlobalBuffer(x, N)
    yGm.SetGlobalBuffer(y, 256)
    ub = LocalMemAllocator[Hardware.UB]()
    xLocal, yLocal = ub.Alloc[float32_t, N](), ub.Alloc[fp8_e4m3fn_t, 256]()
    DataCopy(xLocal, xGm, N)
    SetFlag[HardEvent.MTE2_V](EVENT_ID0)
    WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
    QuantVF(yLocal.GetPhyAddr(), xLocal.GetPhyAddr())
    SetFlag[HardEvent.V_MTE3](EVENT_ID0)
    WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
    DataCopy(yGm, yLocal, N)
    SetCtrlSpr[FLOAT_OVERFLOW_MODE_CTRL, FLOAT_OVERFLOW_MODE_CTRL](oriOverflowMode)


@pytest.mark.parametrize("per_instruction", [1, 0])
def test_quant_kernel_saturates_fp8_only_per_instruction(per_instruction: int) -> None:
    """fp32 -> fp8_e4m3fn with SatMode::SAT: 1000.0 becomes 448 (the largest finite value)
    once CTRL[60] = 0; in the global non-saturating mode a block starts in it becomes NaN
    (e4m3fn has no infinity)."""
    x = np.array([1000.0, -1000.0, 1.0, 0.5] * (N // 4), np.float32)
    acl.init(None)
    acl.rt.set_device(0)
    host, _ = acl.rt.malloc_host(256)
    xd, _ = acl.rt.malloc(N * 4, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yd, _ = acl.rt.malloc(256, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xd, N * 4, x, N * 4, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    ascend_quant[1, 0](xd.cast(float32_t), yd.cast(fp8_e4m3fn_t), per_instruction)
    acl.rt.synchronize_device()
    acl.rt.memcpy(host, 256, yd, 256, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    out = host.view(fp8_e4m3fn_t.np_dtype)[:N].astype(np.float32)
    for pointer in (xd, yd):
        acl.rt.free(pointer)
    acl.rt.free_host(host)
    acl.rt.reset_device(0)
    acl.finalize()
    if per_instruction:
        assert out[:4].tolist() == [448.0, -448.0, 1.0, 0.5]
    else:
        assert np.isnan(out[:2]).all() and out[2:4].tolist() == [1.0, 0.5]


# -- GetSpr<AR> ------------------------------------------------------------------------------------


@__simd_vf__
def SqueezeVF(src: UbPtr[int16_t]) -> None:
    x, y = Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t]()
    Reg.ClearSpr[SpecialPurposeReg.AR]()
    Reg.LoadAlign(x, src)
    Reg.Squeeze[int16_t, Reg.GatherMaskMode.STORE_REG](
        y, x, Reg.CreateMask[int16_t, Reg.MaskPattern.VL16]()
    )


def test_get_spr_reads_ar_after_the_vf() -> None:
    with block(BlockContext()) as ctx:
        src = ctx.ub.alloc(int16_t, 128)
        src.write(np.arange(128))
        PipeBarrier[PIPE_ALL]()  # the scalar writes before the VF reads them
        SqueezeVF(src)
        assert GetSpr[SpecialPurposeReg.AR]() // int16_t.size == 16
        with ctx.simd_vf(), pytest.raises(AscregTypeError, match="outside a __simd_vf__"):
            GetSpr[SpecialPurposeReg.AR]()
    with pytest.raises(AscregTypeError, match=r"SpecialPurposeReg\.AR"):
        GetSpr[0]


# -- Reg.UnalignReg: one register for load and store streams --------------------------------------


def test_unalign_reg_serves_loads_and_stores() -> None:
    """``MicroAPI::UnalignReg u0;`` used for a load stream, then a store stream (one register)."""
    with block(BlockContext()) as ctx:
        src, dst = ctx.ub.alloc(uint8_t, 512), ctx.ub.alloc(uint8_t, 512)
        src.write(np.arange(512) % 251)
        PipeBarrier[PIPE_ALL]()
        u0 = MicroAPI.UnalignReg()
        r = Reg.RegTensor[uint8_t]()
        with ctx.simd_vf():
            Reg.LoadUnAlignPre(u0, src + 3)
            Reg.LoadUnAlign(r, u0, src + 3)  # bytes 3 .. 258
            out = Ref(dst + 5)
            Reg.StoreUnAlign(out, r, u0, 256)  # the same register now streams stores
            Reg.StoreUnAlignPost(out, u0, 0)
            with pytest.raises(UninitializedRegisterError, match="LoadUnAlignPre"):
                Reg.LoadUnAlign(r, u0, src + 259)  # the store ended the load stream
            Reg.StoreUnAlign(Ref(dst + 240), r, u0, 256)  # holds bytes ...
            with pytest.raises(UndefinedBehaviourError, match="would lose them"):
                Reg.LoadUnAlignPre(u0, src)  # ... a load would overwrite
        PipeBarrier[PIPE_ALL]()
        assert (dst + 5).read(235).tolist() == (np.arange(3, 238) % 251).tolist()  # then dst + 240
