"""The img2col ``LoadData`` (``LoadData3DParamsV2``), its registers, and the MX load's refusal.

The property compares the load with the element-by-element reference ``ref.img2col_nz``
(written from the LoadData_3D page); each rule has a test that checks the message.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ascreg import float32_t, fp8_e4m3fn_t, half, int8_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    FmatrixMode,
    HardEvent,
    IsResetLoad3dConfig,
    LoadData,
    LoadData2DMxParams,
    LoadData2DParamsV2,
    LoadData3DParamsV2,
    LoadDataRepeatParam,
    LoadDataRepeatParamWithStride,
    LoadDataWithStride,
    LocalTensor,
    Mmad,
    MmadParams,
    PipeBarrier,
    SetFlag,
    SetFmatrix,
    SetLoadDataPaddingValue,
    SetLoadDataRepeat,
    SetLoadDataRepeatWithStride,
    TPosition,
    WaitFlag,
)
from ascreg.errors import AlignmentError, AscregError, AscregTypeError, SyncError, UnsupportedError
from ascreg.machine.block import BlockContext, block
from reference import cube as ref

L0A_ELEMENTS_B16 = 32768


def fmap_values(dtype: Any, count: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(-50, 50, count).astype(dtype.np_dtype)


def run_load(dtype: Any, fmap: np.ndarray, p: Any, size: int, dst_stride: int, **kw: Any) -> Any:
    """Load *fmap* (at A1 0) into A2 (pre-filled with 7) and return *size* elements of A2."""
    with block(BlockContext()):
        a1 = LocalTensor[dtype](TPosition.A1, 0, fmap.size)
        a1.GetPhyAddr().write(fmap)
        a2 = LocalTensor[dtype](TPosition.A2, 0, size)
        a2.GetPhyAddr().write(np.full(size, 7, dtype.np_dtype))
        SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 0, dst_stride))
        PipeBarrier[PIPE_ALL]()
        LoadData[dtype](a2, a1, p) if not kw else LoadData[dtype, kw["config"]](a2, a1, p)
        PipeBarrier[PIPE_ALL]()
        return a2.GetPhyAddr().read(size)


@given(
    dtype=st.sampled_from([half, float32_t, int8_t]),
    c1=st.integers(1, 2),
    height=st.integers(3, 7),
    width=st.integers(3, 7),
    pads=st.tuples(*[st.integers(0, 2)] * 4),
    kernel=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    stride=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    dilation=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    data=st.data(),
)
def test_img2col_matches_the_reference(  # type: ignore[no-untyped-def]
    dtype, c1, height, width, pads, kernel, stride, dilation, data
) -> None:
    c0 = 32 // dtype.size
    left, right, top, bottom = pads
    ho = (height + top + bottom - ((kernel[0] - 1) * dilation[0] + 1)) // stride[0] + 1
    wo = (width + left + right - ((kernel[1] - 1) * dilation[1] + 1)) // stride[1] + 1
    assume(ho > 0 and wo > 0 and ho * wo >= 16)
    m_blocks = data.draw(st.integers(1, ho * wo // 16))
    m0 = data.draw(st.integers(0, ho * wo - 16 * m_blocks))
    k_blocks_all = c1 * kernel[0] * kernel[1]
    k_blocks = data.draw(st.integers(1, min(k_blocks_all, 4)))
    k0 = data.draw(st.integers(0, k_blocks_all - k_blocks)) * c0
    dst_stride = m_blocks + data.draw(st.integers(0, 1))
    pad = data.draw(st.integers(-9, 9))
    p = LoadData3DParamsV2[dtype](
        list(pads), height, width, c1 * c0, k_blocks * c0, m_blocks * 16, k0, m0,
        stride[1], stride[0], kernel[1], kernel[0], dilation[1], dilation[0], False, False, pad,
    )  # fmt: skip
    fmap = fmap_values(dtype, c1 * height * width * c0, data.draw(st.integers(0, 2**16)))
    size = ((k_blocks - 1) * dst_stride + m_blocks) * 16 * c0
    expected = np.full(size, 7, dtype.np_dtype)
    ref.img2col_nz(expected, fmap, p, pad, dst_stride)
    got = run_load(dtype, fmap, p, size, dst_stride)
    assert np.array_equal(got, expected)


def test_a_1x1_kernel_moves_the_l1_fractals_as_they_lie() -> None:
    """The page: with N 1, a 1 x 1 kernel, no pad, stride and dilation 1, L1 is already NZ."""
    fmap = fmap_values(half, 2 * 4 * 8 * 16, 3)  # C1 2, 4 x 8 pixels: two 32 x 16 column blocks
    p = LoadData3DParamsV2[half](l1H=4, l1W=8, channelSize=32, kExtension=32, mExtension=32)
    assert np.array_equal(run_load(half, fmap, p, fmap.size, 2), fmap)


def test_the_registers_persist_and_the_config_selects_them() -> None:
    fmap = fmap_values(half, 4 * 4 * 16, 5)
    p = LoadData3DParamsV2[half]([1, 1, 1, 1], 4, 4, 16, 16 * 9, 16, 0, 0, 1, 1, 3, 3, 1, 1, False, False, -4)  # fmt: skip
    expected = np.full(9 * 256, 7, np.float16)
    ref.img2col_nz(expected, fmap, p, -4, 1)
    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, fmap.size)
        a1.GetPhyAddr().write(fmap)
        a2 = LocalTensor[half](TPosition.A2, 0, 9 * 256)
        SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 0, 1))
        SetFmatrix(4, 4, [1, 1, 1, 1], FmatrixMode.FMATRIX_LEFT)
        SetLoadDataPaddingValue(-4)
        keep = LoadData3DParamsV2[half](l1H=1, l1W=1, channelSize=16, kExtension=144, mExtension=16, filterW=3, filterH=3, padValue=99)  # fmt: skip
        a2.GetPhyAddr().write(np.full(9 * 256, 7, np.float16))
        PipeBarrier[PIPE_ALL]()
        LoadData[half, IsResetLoad3dConfig(False, False)](a2, a1, keep)  # the registers rule
        PipeBarrier[PIPE_ALL]()
        assert np.array_equal(a2.GetPhyAddr().read(9 * 256), expected)
        PipeBarrier[PIPE_ALL]()
        LoadData(a2, a1, p)  # sets both registers from p (the same values)
        PipeBarrier[PIPE_ALL]()
        p_pad = LoadData3DParamsV2[half]([1, 1, 1, 1], 4, 4, 16, 144, 16, 0, 0, 1, 1, 3, 3, 1, 1, False, False, 5)  # fmt: skip
        LoadData[half, IsResetLoad3dConfig(True, False)](a2, a1, p_pad)  # the pad stays -4
        PipeBarrier[PIPE_ALL]()
        assert np.array_equal(a2.GetPhyAddr().read(9 * 256), expected)


def test_a_load_without_its_registers_set_says_which() -> None:
    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, 256)
        a2 = LocalTensor[half](TPosition.A2, 0, 256)
        p = LoadData3DParamsV2[half](l1H=4, l1W=4, channelSize=16, kExtension=16, mExtension=16)
        with pytest.raises(
            AscregError, match="the feature map register was never set: call SetFmatrix"
        ):
            LoadData[half, IsResetLoad3dConfig(False, True)](a2, a1, p)
        with pytest.raises(AscregError, match="the pad value register was never set"):
            LoadData[half, IsResetLoad3dConfig(True, False)](a2, a1, p)


def test_zero_sizes_and_repeat_time_zero_are_no_ops() -> None:
    fmap = fmap_values(half, 256, 1)
    for changed in ({"channelSize": 0}, {"kExtension": 0}, {"l1H": 0}, {"filterW": 0}):
        fields = {"l1H": 4, "l1W": 4, "channelSize": 16, "kExtension": 16, "mExtension": 16}
        p = LoadData3DParamsV2[half](**(fields | changed))
        assert (run_load(half, fmap, p, 256, 1) == 7).all()
    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, 256)
        a2 = LocalTensor[half](TPosition.A2, 0, 256)
        a2.GetPhyAddr().write(np.full(256, 7, np.float16))
        SetLoadDataRepeat(LoadDataRepeatParam(0, 0, 0, 1))
        PipeBarrier[PIPE_ALL]()
        LoadData(a2, a1, LoadData3DParamsV2[half](l1H=4, l1W=4, channelSize=16, kExtension=16, mExtension=16))  # fmt: skip
        PipeBarrier[PIPE_ALL]()
        assert (a2.GetPhyAddr().read(256) == 7).all()


def test_fp8_pads_with_the_raw_byte() -> None:
    fmap = np.zeros(16 * 32, np.uint8).view(fp8_e4m3fn_t.np_dtype)
    p = LoadData3DParamsV2[fp8_e4m3fn_t]([1, 0, 0, 0], 1, 16, 32, 32, 16, padValue=0x38)  # 1.0
    got = run_load(fp8_e4m3fn_t, fmap, p, 512, 1)
    assert float(got[0].astype(np.float32)) == 1.0 and float(got[32].astype(np.float32)) == 0.0


@pytest.mark.parametrize(
    ("fields", "error", "message"),
    [
        ({"fMatrixCtrl": True}, AscregError, "fMatrixCtrl must be false"),
        ({"enSmallK": True}, AscregError, "enSmallK must be false"),
        ({"channelSize": 20}, UnsupportedError, r"channelSize 20 \(not a multiple of C0 = 16\)"),
        ({"channelSize": 18}, AscregError, "channelSize 18 is not one the Ascend 950 takes"),
        ({"kStartPt": 8}, AscregError, "kStartPt 8 must be a multiple of 16"),
        ({"mExtension": 8}, UnsupportedError, "a window that ends inside a fractal"),
        ({"mExtension": 32}, AscregError, r"rows \[0, 32\) x columns \[0, 16\) leaves the 16 x 16"),
        ({"strideW": 0}, UnsupportedError, "a kernel that does not slide"),
        ({"filterW": 5}, AscregError, "does not fit the padded 4 x 4 feature map"),
        ({"l1H": 40000}, AscregError, r"LoadData3DParamsV2.l1H 40000 is outside \[0, 32767\]"),
    ],
)
def test_the_img2col_rules(fields: dict[str, Any], error: type[Exception], message: str) -> None:
    base = {"l1H": 4, "l1W": 4, "channelSize": 16, "kExtension": 16, "mExtension": 16}
    with pytest.raises(error, match=message):
        run_load(half, fmap_values(half, 20 * 16, 0), LoadData3DParamsV2[half](**(base | fields)), 512, 1)  # fmt: skip


def test_the_operands_and_the_unmodelled_forms() -> None:
    p = LoadData3DParamsV2[half](l1H=4, l1W=4, channelSize=16, kExtension=16, mExtension=16)
    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, 256)
        a2 = LocalTensor[half](TPosition.A2, 0, 256)
        with pytest.raises(AscregTypeError, match=r"to L0B \(B2\) takes half, .*; got int8_t"):
            LoadData(
                LocalTensor[int8_t](TPosition.B2, 0, 512),
                LocalTensor[int8_t](TPosition.B1, 0, 512),
                LoadData3DParamsV2[int8_t](
                    l1H=4, l1W=4, channelSize=32, kExtension=32, mExtension=16
                ),
            )
        with pytest.raises(AscregTypeError, match="one T for all three"):
            LoadData(a2, a1, LoadData3DParamsV2[float32_t](l1H=4))
        with pytest.raises(AlignmentError, match="src at __cbuf__ 0x10 is not 32-byte aligned"):
            LoadData(a2, a1[8], p)
        SetLoadDataRepeat(LoadDataRepeatParam(1, 2, 0, 1))
        with pytest.raises(UnsupportedError, match="repeatTime 2: where the repeats"):
            LoadData(a2, a1, p)
        with pytest.raises(AscregError, match=r"LoadDataRepeatParam.repeatMode 2 is outside"):
            SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 2, 1))
        with pytest.raises(AscregError, match="fmatrixMode must be FMATRIX_LEFT"):
            SetFmatrix(4, 4, [0, 0, 0, 0], FmatrixMode.FMATRIX_RIGHT)
        with pytest.raises(AscregError, match=r"padList\[2\] 256 is outside"):
            SetFmatrix(4, 4, [0, 0, 256, 0], FmatrixMode.FMATRIX_LEFT)
        with pytest.raises(AscregTypeError, match="defaultConfig is a template parameter"):
            LoadData[half, IsResetLoad3dConfig(False, False)](a2, a1, LoadData2DParamsV2())
        with pytest.raises(AscregTypeError, match="LoadData3DParamsV2, got int"):
            LoadData(a2, a1, 3)
        with pytest.raises(AscregTypeError, match=r"LoadData takes \(dst, src, params\)"):
            LoadData(a2, a1)
        with pytest.raises(AscregTypeError, match=r"the MX LoadData moves .*got half"):
            LoadData(a2, a1, a1, LoadData2DParamsV2(), LoadData2DMxParams(0, 0, 1, 1, 1, 1))


def test_the_load_runs_on_mte1() -> None:
    from ascreg import float32_t as f32

    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, 256)
        a2 = LocalTensor[half](TPosition.A2, 0, 256)
        b2 = LocalTensor[half](TPosition.B2, 0, 256)
        c1 = LocalTensor[f32](TPosition.CO1, 0, 256)
        SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 0, 1))
        PipeBarrier[PIPE_ALL]()
        LoadData(a2, a1, LoadData3DParamsV2[half](l1H=4, l1W=4, channelSize=16, kExtension=16, mExtension=16))  # fmt: skip
        with pytest.raises(SyncError, match="PIPE_MTE1"):
            Mmad(c1, a2, b2, MmadParams(16, 16, 16))
        SetFlag[HardEvent.MTE1_M](EVENT_ID0)
        WaitFlag[HardEvent.MTE1_M](EVENT_ID0)
        Mmad(c1, a2, b2, MmadParams(16, 16, 16))


# -- the L1 -> L0B load and LoadDataWithStride ---------------------------------------------------


def run_transposing_load(
    dtype: Any, fmap: np.ndarray, p: Any, size: int, dst_stride: int, l0b: bool
) -> Any:
    """Load *fmap* by LoadDataWithStride into B2 (*l0b*) or A2 (pre-filled with 7); read it."""
    src, dst = (TPosition.B1, TPosition.B2) if l0b else (TPosition.A1, TPosition.A2)
    with block(BlockContext()):
        l1 = LocalTensor[dtype](src, 0, fmap.size)
        l1.GetPhyAddr().write(fmap)
        l0 = LocalTensor[dtype](dst, 0, size)
        l0.GetPhyAddr().write(np.full(size, 7, dtype.np_dtype))
        SetLoadDataRepeatWithStride(LoadDataRepeatParamWithStride(0, 1, 0, dst_stride))
        PipeBarrier[PIPE_ALL]()
        LoadDataWithStride(l0, l1, p)
        PipeBarrier[PIPE_ALL]()
        return l0.GetPhyAddr().read(size)


@settings(max_examples=30, derandomize=True, deadline=None)
@given(
    case=st.sampled_from(
        [(half, True), (float32_t, True), (half, False), (float32_t, False), (int8_t, False)]
    ),
    height=st.integers(4, 8),
    width=st.integers(4, 8),
    kernel=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    data=st.data(),
)
def test_a_transposing_load_writes_the_transposed_window(  # type: ignore[no-untyped-def]
    case, height, width, kernel, data
) -> None:
    """Into L0B always, into L0A with enTranspose: the window's transpose, NZ."""
    dtype, l0b = case
    c0 = 32 // dtype.size
    ho, wo = height - kernel[0] + 1, width - kernel[1] + 1
    step = max(16, c0)  # the window's rows: whole 16-row fractals, whole C0 columns after
    assume(ho * wo >= step)
    col_blocks = data.draw(st.integers(1, ho * wo // step)) * step // c0  # the transpose's
    k_blocks = data.draw(st.integers(1, kernel[0] * kernel[1]))
    rows = -(-k_blocks * c0 // 16)  # the transpose's 16-row blocks
    dst_stride = rows + data.draw(st.integers(0, 1))
    p = LoadData3DParamsV2[dtype](
        l1H=height, l1W=width, channelSize=c0, kExtension=k_blocks * c0,
        mExtension=col_blocks * c0, filterH=kernel[0], filterW=kernel[1], enTranspose=not l0b,
    )  # fmt: skip
    fmap = fmap_values(dtype, height * width * c0, data.draw(st.integers(0, 2**16)))
    size = ((col_blocks - 1) * dst_stride + rows) * 16 * c0
    expected = np.full(size, 7, dtype.np_dtype)
    ref.img2col_nz(expected, fmap, p, 0, dst_stride, transpose=True)
    assert np.array_equal(run_transposing_load(dtype, fmap, p, size, dst_stride, l0b), expected)


def test_a_transposing_window_must_fill_its_column_fractals() -> None:
    p = LoadData3DParamsV2[int8_t](
        l1H=4, l1W=4, channelSize=32, kExtension=32, mExtension=16, enTranspose=True
    )
    with pytest.raises(UnsupportedError, match=r"mExtension 16: .* inside a 32-column fractal"):
        run_transposing_load(int8_t, fmap_values(int8_t, 512, 0), p, 1024, 2, l0b=False)


@pytest.mark.parametrize("dtype", [half, float32_t])
def test_an_l0b_load_of_an_nz_matrix_gives_mmad_its_b(dtype: Any) -> None:
    """B (K x N) NZ in L1 is a 1 x 1 feature map of K pixels and N channels: Mmad gets A x B."""
    c0 = 32 // dtype.size
    k, n = 32, 2 * c0 if dtype is float32_t else 32
    rng = np.random.default_rng(5)
    a = rng.integers(-4, 5, (16, k)).astype(dtype.np_dtype)
    b = rng.integers(-4, 5, (k, n)).astype(dtype.np_dtype)
    with block(BlockContext()):
        a1 = LocalTensor[dtype](TPosition.A1, 0, a.size)
        b1 = LocalTensor[dtype](TPosition.B1, 4096, b.size)
        a1.GetPhyAddr().write(ref_nz(a, c0))
        b1.GetPhyAddr().write(ref_nz(b, c0))
        a2 = LocalTensor[dtype](TPosition.A2, 0, a.size)
        b2 = LocalTensor[dtype](TPosition.B2, 0, 16 * k * -(-n // 16))
        c = LocalTensor[float32_t](TPosition.CO1, 0, 16 * 16 * -(-n // 16))
        PipeBarrier[PIPE_ALL]()
        LoadData(a2, a1, LoadData2DParamsV2(0, 0, 1, k // c0, 1, 1, False, 0))
        SetLoadDataRepeatWithStride(LoadDataRepeatParamWithStride(1, 1, 0, -(-n // 16)))
        p = LoadData3DParamsV2[dtype](l1H=k, l1W=1, channelSize=n, kExtension=n, mExtension=k)
        LoadDataWithStride(b2, b1, p)
        PipeBarrier[PIPE_ALL]()
        Mmad(c, a2, b2, MmadParams(16, n, k))
        PipeBarrier[PIPE_ALL]()
        got = (
            c.GetPhyAddr().read(c.GetSize()).reshape(-1, 16, 16).transpose(1, 0, 2).reshape(16, -1)
        )
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.array_equal(got[:, :n], exact)


def ref_nz(matrix: np.ndarray, c0: int) -> np.ndarray:
    """*matrix* (rows a multiple of 16, columns of C0) as NZ: column blocks of C0, row-major."""
    rows, cols = matrix.shape
    return matrix.reshape(rows, cols // c0, c0).transpose(1, 0, 2).reshape(-1)


def test_load_data_with_stride_errors() -> None:
    with block(BlockContext()):
        b1 = LocalTensor[half](TPosition.B1, 0, 256)
        b2 = LocalTensor[half](TPosition.B2, 0, 256)
        with pytest.raises(AscregTypeError, match="loadDataParams must be LoadData3DParamsV2"):
            LoadDataWithStride(b2, b1, LoadData2DParamsV2())
        with pytest.raises(AscregTypeError, match="must be LoadDataRepeatParamWithStride"):
            SetLoadDataRepeatWithStride(LoadDataRepeatParam(0, 1, 0, 1))  # type: ignore[arg-type]
        with pytest.raises(
            AscregError, match=r"LoadDataRepeatParamWithStride.dstStride 70000 is outside"
        ):
            SetLoadDataRepeatWithStride(LoadDataRepeatParamWithStride(0, 1, 0, 70000))
