"""Every template of the basic API is spelled with subscripts, by one mechanism.

C++ ``que.EnQue<T>(t)``, ``t.ReinterpretCast<U>()``, ``TQueBind<src, dst, depth>``,
``DataCopyPad<T>(...)`` are ``que.EnQue[T](t)``, ``t.ReinterpretCast[U]()``,
``TQueBind[src, dst, depth]()``, ``DataCopyPad[T](...)``; deduced ones may be left out.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GlobalMemory, float32_t, half, int8_t, int16_t, int32_t, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    DataCopy,
    DataCopyPad,
    Duplicate,
    GlobalTensor,
    HardEvent,
    Hardware,
    LocalMemAllocator,
    LocalTensor,
    PipeBarrier,
    QuePosition,
    SetFlag,
    TBuf,
    TPipe,
    TPosition,
    TQue,
    TQueBind,
    WaitFlag,
)
from ascreg.basic._template import (
    INTEGER,
    TYPENAME,
    ClassTemplate,
    Signature,
    function_template,
    member_template,
)
from ascreg.errors import AscregTypeError
from ascreg.machine.block import BlockContext, block


def test_member_templates_take_subscripts_and_deduce_without() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        que = TQue[QuePosition.VECIN, 2]()
        pipe.InitBuffer(que, 2, 128)
        a = que.AllocTensor[float32_t]()
        b = que.AllocTensor[float32_t]()
        assert que.EnQue[float32_t](a) and que.EnQue(b)
        first = que.DeQue[float32_t]()
        que.FreeTensor[float32_t](first)
        que.FreeTensor(que.DeQue[float32_t]())
        assert que.GetTensorCountInQue() == 0 and que.HasIdleBuffer()


def test_every_basic_template_method_is_subscriptable() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        buf = TBuf()  # TBuf<>: VECCALC
        pipe.InitBuffer(buf, 256)
        t = buf.Get[int32_t]()
        assert t.ReinterpretCast[uint8_t]().GetSize() == 256
        assert buf.GetWithOffset[half](16, 32).GetSize() == 16
        alloc = LocalMemAllocator()
        assert alloc.Alloc[TPosition.VECOUT, float32_t, 8]().GetPosition() is TPosition.VECOUT
        assert alloc.Alloc[float32_t, 8]().GetSize() == 8
        assert alloc.Alloc[int16_t](10).GetLength() == 20
        g = GlobalTensor[float32_t]()
        g.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 4), 4)
        assert g.ReinterpretCast[int16_t]().GetSize() == 8
        SetFlag[HardEvent.S_V](EVENT_ID0)
        WaitFlag[HardEvent.S_V](EVENT_ID0)
        PipeBarrier[PIPE_ALL]()


def test_class_templates_tquebind_tque_tbuf_localmemallocator() -> None:
    assert repr(TQueBind[TPosition.VECIN, TPosition.VECOUT, 2]()) == "TQueBind<VECIN, VECOUT, 2>"
    assert repr(TQue[TPosition.VECOUT, 1]()) == "TQue<VECOUT, 1>"
    assert isinstance(TQue[TPosition.VECIN, 1](), TQueBind)
    assert repr(TBuf[TPosition.VECIN]()) == "TBuf<VECIN>" and repr(TBuf()) == "TBuf<VECCALC>"
    assert repr(LocalMemAllocator[Hardware.UB]()) == "LocalMemAllocator<Hardware::UB>"
    with pytest.raises(AscregTypeError, match=r"TQueBind\[TPosition.VECIN\] matches no template"):
        TQueBind[TPosition.VECIN]
    with pytest.raises(AscregTypeError, match="a TPosition member"):
        TQue[1, 1]
    with pytest.raises(AscregTypeError, match="TQueConfig is not modelled"):
        TQue[TPosition.VECIN, 1, 5]


def test_function_templates_check_t_against_the_tensors() -> None:
    src = GlobalTensor[float32_t]()
    src.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 16), 16)
    with block(BlockContext()):
        dst = LocalMemAllocator().Alloc[float32_t, 16]()
        DataCopy[float32_t](dst, src, 16)
        PipeBarrier[PIPE_ALL]()
        DataCopyPad[float32_t](dst, src, (1, 64, 0, 0, 0), (False, 0, 0, 0))
        with pytest.raises(AscregTypeError, match=r"DataCopy<half>: LocalTensor<float> does"):
            DataCopy[half](dst, src, 16)
        with pytest.raises(
            AscregTypeError,
            match=r"Duplicate: template argument half does not match dst, a LocalTensor<float>",
        ):
            Duplicate[half](dst, 1.0, 8)


def test_a_missing_template_argument_says_how_to_write_it() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        que = TQue[TPosition.VECIN, 1]()
        pipe.InitBuffer(que, 1, 64)
        with pytest.raises(AscregTypeError, match=r"write AllocTensor\[T\]\(\) \(the C\+\+ "):
            que.AllocTensor()
        with pytest.raises(AscregTypeError, match=r"write ReinterpretCast\[CAST_T\]\(\)"):
            que.AllocTensor[int8_t]().ReinterpretCast()
        with pytest.raises(AscregTypeError, match=r"write SetFlag\[HardEvent.X\]\(id\)"):
            SetFlag(EVENT_ID0)
        with pytest.raises(AscregTypeError, match=r"write PipeBarrier\[pipe\]\(\)"):
            PipeBarrier()


def test_a_wrong_template_argument_lists_the_accepted_forms() -> None:
    with block(BlockContext()):
        pipe = TPipe()
        que = TQue[TPosition.VECOUT, 1]()
        pipe.InitBuffer(que, 1, 64)
        t = que.AllocTensor[float32_t]()
        with pytest.raises(AscregTypeError) as info:
            que.EnQue[TPosition.VECOUT](t)
        assert str(info.value) == (
            "TQueBind.EnQue: EnQue[TPosition.VECOUT] matches no template parameter list; "
            "EnQue takes EnQue<T> (T: a scalar type such as float32_t); "
            "EnQue<srcUserPos, dstUserPos, T> (srcUserPos: a TPosition member, dstUserPos: a "
            "TPosition member, T: a scalar type such as float32_t); EnQue<srcUserPos, "
            "dstUserPos> (srcUserPos: a TPosition member, dstUserPos: a TPosition member)"
        )
        with pytest.raises(AscregTypeError, match="LocalTensor<float> does not hold T = half"):
            que.EnQue[half](t)


def test_the_mechanism_on_its_own() -> None:
    @function_template(Signature(T=TYPENAME, n=(INTEGER, 4)))
    def Fill(tensor: object = None, *, T: type | None = None, n: int = 0) -> tuple[object, int]:
        return T, n

    assert Fill[half]() == (half, 4) and Fill[half, 2]() == (half, 2) and Fill() == (None, 0)
    assert Fill[half] is Fill[half]  # instances are cached per argument tuple

    class Box(metaclass=ClassTemplate):
        template_signatures = (Signature(T=TYPENAME),)

        def __init__(self, T: type) -> None:
            self.T = T

        @member_template(Signature(n=INTEGER))
        def Scale(self, x: int, *, n: int = 1) -> int:
            return x * n

    box = Box[half]()
    assert box.T is half and box.Scale[3](2) == 6 and box.Scale(2) == 2
    with pytest.raises(AscregTypeError, match=r"Box.Scale: Scale\[half\] matches no template"):
        box.Scale[half]


def test_reinterpret_cast_shares_the_bytes() -> None:
    with block(BlockContext()):
        t = LocalTensor[int32_t](TPosition.VECCALC, 0, 16)
        for i in range(16):
            t.SetValue(i, i)
        view = t.ReinterpretCast[int16_t]()
        assert view.GetSize() == 32 and view.GetPhyAddr().address == 0
        values = [int(view.GetValue(i)) for i in range(6)]
        assert values == [0, 0, 1, 0, 2, 0]
        np.testing.assert_array_equal(view.GetPhyAddr().read(4), [0, 0, 1, 0])


def test_set_value_converts_to_its_template_type_first() -> None:
    """``LocalTensor::SetValue<S>(index, S value)``: the argument becomes ``S`` (the call's
    conversion), then the element type (kernel_tensor_impl.h's ``static_cast<PrimType>``)."""
    from ascreg import int64_t
    from ascreg.errors import AscregError

    with block(BlockContext()):
        t = LocalTensor[int64_t](TPosition.VECCALC, 0, 8)
        t.SetValue[int64_t](0, 2**40)
        t.SetValue[uint8_t](1, -1)  # 255 as uint8_t
        t.SetValue[int8_t](2, 200)  # -56 as int8_t
        t.SetValue[half](3, 2049)  # rounds to 2048 in half, then static_cast to int64_t
        assert [int(t.GetValue(i)) for i in range(4)] == [2**40, 255, -56, 2048]
        small = LocalTensor[uint8_t](TPosition.VECCALC, 64, 32)
        small.SetValue[int32_t](0, -1)  # static_cast<uint8_t>(int32_t(-1)) wraps
        assert int(small.GetValue(0)) == 255
        with pytest.raises(AscregError, match="cannot store -1 as uint8_t"):
            small.SetValue(1, -1)  # a Python number: stored only if it fits
        with pytest.raises(AscregError, match=r"\(uint8_t\)np.float32\(300.0\): the value is"):
            small.SetValue[float32_t](1, 300)  # float -> uint8_t out of range: undefined
        with pytest.raises(AscregTypeError, match=r"SetValue\[3\] matches no template"):
            small.SetValue[3]
