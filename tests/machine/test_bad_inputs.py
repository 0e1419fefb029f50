"""Unclear or silent bad inputs of issue 25: each gets an error naming the call, value and rule.

``CastTrait`` fields take their enum members only; a layout or rounding mode a cast pair does
not take is an ``UnsupportedError``; a queue tensor used after ``FreeTensor`` is an error, as
after ``UnifiedBuffer.free``; a host numpy array where a GM pointer belongs, a non-integer mask
count and a NaN for an integer lane are refused with the rule; and a kernel whose annotation
only resolves inside the function runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import (
    CastTrait,
    GlobalMemory,
    GmPtr,
    MaskMergeMode,
    Ref,
    Reg,
    RegLayout,
    RoundMode,
    SatMode,
    float32_t,
    half,
    int16_t,
    int32_t,
    uint8_t,
)
from ascreg import basic as B  # noqa: N812 (short alias for the basic namespace)
from ascreg.errors import (
    AscregError,
    AscregTypeError,
    OutOfBoundsError,
    UnsupportedError,
    UnsupportedModeError,
)
from ascreg.machine.block import BlockContext, block

# ---- CastTrait ---------------------------------------------------------------------------------

FIELDS = [
    ("layoutMode", RegLayout, 0),
    ("satMode", SatMode, 1),
    ("mrgMode", MaskMergeMode, 1),
    ("roundMode", RoundMode, 1),
]


@pytest.mark.parametrize(("field", "kind", "raw"), FIELDS, ids=[f[0] for f in FIELDS])
def test_cast_trait_fields_take_their_enum_only(field: str, kind: Any, raw: int) -> None:
    """A raw int used to give a silent unsaturated cast (satMode 1 is not SAT) or an AttributeError."""
    with pytest.raises(
        AscregTypeError,
        match=rf"^Reg.CastTrait: {field} must be a {kind.__name__} member .* got {raw}: a plain int",
    ):
        CastTrait(**{field: raw})
    assert getattr(CastTrait(**{field: kind(raw)}), field) is kind(raw)


def _cast(dst_type: Any, src_type: Any, trait: CastTrait) -> None:
    src, dst = Reg.RegTensor[src_type](), Reg.RegTensor[dst_type]()
    src.set(0)
    Reg.Cast[dst_type, src_type, trait](dst, src, Reg.CreateMask[src_type]())


def test_a_layout_a_pair_does_not_take_is_unsupported() -> None:
    # float -> int32 is 1:1: its table row lists UNKNOWN (ZERO, the first part, passes too)
    _cast(int32_t, float32_t, CastTrait(RegLayout.ZERO))
    with pytest.raises(UnsupportedModeError, match=r"RegLayout.ONE.* float -> int32_t"):
        _cast(int32_t, float32_t, CastTrait(RegLayout.ONE))
    # half -> int32 is 2:1: ZERO and ONE only
    with pytest.raises(UnsupportedError, match=r"RegLayout.TWO.*legal: UNKNOWN, ZERO, ONE"):
        _cast(int32_t, half, CastTrait(RegLayout.TWO))


def test_a_rounding_mode_a_pair_does_not_take_is_unsupported() -> None:
    """int16 -> int32 is exact: its row takes no roundMode (it used to be ignored silently)."""
    _cast(int32_t, int16_t, CastTrait(roundMode=RoundMode.CAST_NONE))
    with pytest.raises(
        UnsupportedError, match=r"CAST_FLOOR.* int16_t -> int32_t \(documented: none"
    ):
        _cast(int32_t, int16_t, CastTrait(RegLayout.ZERO, roundMode=RoundMode.CAST_FLOOR))


# ---- queues ------------------------------------------------------------------------------------


def test_a_queue_tensor_used_after_free_tensor_is_an_error() -> None:
    with block(BlockContext()):
        pipe, que = B.TPipe(), B.TQue[B.TPosition.VECIN, 1]()
        pipe.InitBuffer(que, 1, 128)
        tensor = que.AllocTensor[float32_t]()
        tensor.SetValue(0, 1.0)
        que.FreeTensor(tensor)
        with pytest.raises(OutOfBoundsError, match=r"^LocalTensor.GetValue: .*FreeTensor.*freed"):
            tensor.GetValue(0)
        view = tensor[4]  # a view of the freed tensor too
        with pytest.raises(OutOfBoundsError, match="freed"):
            view.SetValue(0, 2.0)
        again = que.AllocTensor[float32_t]()  # the buffer itself is fine
        again.SetValue(0, 3.0)
        assert again.GetValue(0) == 3.0


# ---- host arrays, counts, NaN ------------------------------------------------------------------

HOST = np.arange(64, dtype=np.float32)
RULE = r"is a host numpy array \(float32\[64\]\), not a .*copy the host data to device memory"


def test_a_host_array_is_no_gm_pointer() -> None:
    with block(BlockContext()):
        ub = C.__ubuf__(float32_t, 64)
        for copy, args in [
            (C.asc_copy_gm2ub_align, (ub, HOST, 256)),
            (C.asc_copy_gm2ub, (ub, HOST, 256)),
            (C.asc_copy_ub2gm_align, (HOST, ub, 256)),
            (C.asc_copy_ub2gm, (HOST, ub, 256)),
        ]:
            with pytest.raises(AscregTypeError, match=rf"^{copy.__name__}: (src|dst) {RULE}"):
                copy(*args)
        with pytest.raises(
            AscregTypeError, match=rf"^GlobalTensor.SetGlobalBuffer: the buffer {RULE}"
        ):
            B.GlobalTensor[float32_t]().SetGlobalBuffer(HOST, 64)
        local = B.LocalMemAllocator[B.Hardware.UB]().Alloc[float32_t, 64]()
        with pytest.raises(AscregTypeError, match=rf"^DataCopy: src {RULE}"):
            B.DataCopy(local, HOST, 64)


@pytest.mark.parametrize("count", ["abc", None, 2.5])
def test_a_mask_count_must_be_an_integer(count: Any) -> None:
    rule = r"must be an integer in \[0, 4294967295\] \(a uint32_t value\), got"
    with pytest.raises(AscregTypeError, match=rf"^Reg.UpdateMask: count {rule}"):
        Reg.UpdateMask[float32_t](Ref(count))
    with pytest.raises(AscregTypeError, match=r"^asc_update_mask_b32: count .* uint32_t"):
        C.asc_update_mask_b32(Ref(count))


@pytest.mark.parametrize("value", [np.nan, float("inf"), 1.5, np.float32(2.0)])
def test_a_float_in_an_integer_lane_names_the_value(value: Any) -> None:
    r = Reg.RegTensor[int32_t]()
    shown = repr(float(value))
    with pytest.raises(
        AscregError,
        match=rf"^RegTensor.set: cannot store the float value {shown} as int32_t .*through an explicit cast",
    ):
        r.set(value)
    with pytest.raises(AscregError, match=rf"float value {shown} as uint8_t"):
        UnifiedBufferWrite(value)


def UnifiedBufferWrite(value: Any) -> None:
    from ascreg import UnifiedBuffer

    UnifiedBuffer().alloc(uint8_t, 32).write([value])


# ---- annotations -------------------------------------------------------------------------------


def test_a_kernel_whose_annotation_only_resolves_inside_the_function_runs() -> None:
    out = GlobalMemory().alloc(float32_t, 8)
    out.write(np.zeros(8, np.float32))

    def make() -> Any:
        Out = GmPtr[float32_t]

        @C.__global__
        @C.__vector__
        def kernel(out: Out, forward: Later, n: int) -> None:
            out[0] = float32_t(n)

        return kernel

    class Later:  # a forward reference the launch cannot see
        pass

    make()[1, 0, None](out, Later(), 5)
    assert float(out.read(1)[0]) == 5.0
