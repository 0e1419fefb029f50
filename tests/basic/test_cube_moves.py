"""The cube core's further moves: DN2NZ and SmallC0 copies, the Fixpipe config, MatmulType.

Each data move is compared with the element-by-element references of ``tests/reference/cube.py``
or with a numpy model of the layout written here; each rule has a test that checks the message.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import GlobalMemory, bfloat16_t, float32_t, half, int8_t, int16_t, int32_t
from ascreg.basic import (
    CFG_COLUMN_MAJOR,
    CFG_NZ,
    CFG_ROW_MAJOR,
    PIPE_ALL,
    CO2Layout,
    CubeFormat,
    DataCopy,
    DataCopyParams,
    Dn2NzParams,
    Fixpipe,
    FixpipeConfig,
    FixpipeParamsArch3510,
    GlobalTensor,
    LayoutMode,
    LocalTensor,
    MatmulType,
    MatmulTypeArgs,
    Nd2NzParams,
    PipeBarrier,
    TPosition,
)
from ascreg.errors import AlignmentError, AscregError, AscregTypeError
from ascreg.machine.block import BlockContext, block
from reference import cube as ref


def gm_tensor(dtype: Any, values: np.ndarray) -> GlobalTensor[Any]:
    ptr = GlobalMemory().alloc(dtype, values.size)
    ptr.write(values)
    tensor = GlobalTensor[dtype]()
    tensor.SetGlobalBuffer(ptr, values.size)
    return tensor


def values(dtype: Any, count: int, seed: int) -> np.ndarray:
    """*count* distinct-looking small integers as *dtype* (exact in every type used)."""
    return (np.random.default_rng(seed).integers(-100, 100, count)).astype(dtype.np_dtype)


def copy_to_l1(dtype: Any, src: np.ndarray, params: Any, size: int, small: bool = False) -> Any:
    """Run ``DataCopy[dtype, small](a1, gm, params)`` into an L1 tensor pre-filled with 77."""
    with block(BlockContext()):
        dst = LocalTensor[dtype](TPosition.A1, 64, size)
        dst.GetPhyAddr().write(np.full(size, 77, dtype=dtype.np_dtype))
        PipeBarrier[PIPE_ALL]()
        DataCopy[dtype, small](dst, gm_tensor(dtype, src), params)
        PipeBarrier[PIPE_ALL]()
        return dst.GetPhyAddr().read(size)


# -- DN2NZ -------------------------------------------------------------------------------------


@given(
    dtype=st.sampled_from([int8_t, half, bfloat16_t, float32_t]),
    n=st.integers(1, 20),
    d=st.integers(1, 40),
    extra=st.integers(0, 5),
    count=st.integers(1, 2),
    nstride=st.integers(1, 2),
    seed=st.integers(0, 2**16),
)
def test_dn2nz_matches_the_reference(dtype, n, d, extra, count, nstride, seed) -> None:  # type: ignore[no-untyped-def]
    c0 = 32 // dtype.size
    src_d = n + extra  # GM: d lines of n elements, src_d apart
    c0_stride = (n - 1) * nstride + 1 + extra
    nz_size = (-(-d // c0) - 1) * c0_stride * c0 + ((n - 1) * nstride + 1) * c0
    p = Dn2NzParams(count, n, d, d * src_d, src_d, c0_stride, nstride, nz_size)
    src = values(dtype, count * d * src_d, seed)
    expected = np.full(count * nz_size, 77, dtype=src.dtype)
    ref.dn2nz(expected, src, p, c0)
    got = copy_to_l1(dtype, src, p, count * nz_size)
    assert np.array_equal(got.view(np.uint8), expected.view(np.uint8))


def test_the_dn2nz_page_example_is_the_nz_form_of_the_transposed_matrix() -> None:
    m, k = 40, 56  # A is m x k, stored transposed in GM (k lines of m); the page's scenario
    a = np.arange(m * k, dtype=np.float16).reshape(m, k) % 251
    p = Dn2NzParams(1, m, k, 0, m, 48, 1, 0)
    got = copy_to_l1(half, np.ascontiguousarray(a.T).reshape(-1), p, 48 * 64)
    nz = got.reshape(4, 48, 16)  # 4 column blocks of 48 rows (m padded to 16) of 16
    model = np.zeros((48, 64), np.float16)
    model[:m, :k] = a  # the padding columns are zeros; the padding rows are not written
    assert np.array_equal(nz[:, :m].transpose(1, 0, 2).reshape(m, 64), model[:m])
    assert (nz[:, m:] == 77).all()


# -- SmallC0 -----------------------------------------------------------------------------------


@given(
    dtype=st.sampled_from([int8_t, half, float32_t]),
    n=st.integers(1, 20),
    d=st.integers(1, 4),
    extra=st.integers(0, 3),
    column_major=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_small_c0_packs_rows_of_four(dtype, n, d, extra, column_major, seed) -> None:  # type: ignore[no-untyped-def]
    size = dtype.size
    stride = (n if column_major else d) + extra
    lines = d if column_major else n
    src = values(dtype, 2 * lines * stride, seed)
    span = -(-n * 4 * size // 32) * 32 // size
    kind = Dn2NzParams if column_major else Nd2NzParams
    p = kind(2, n, d, lines * stride, stride, 0, 0, span + 32 // size)
    got = copy_to_l1(dtype, src, p, 2 * span + 32 // size, small=True)
    for i in range(2):  # the numpy model: an n x 4 block per matrix, zero-padded to 32 bytes
        stored = src[i * lines * stride :][: lines * stride].reshape(lines, stride)
        matrix = stored[:, :n].T if column_major else stored[:, :d]
        model = np.zeros(span, dtype.np_dtype)
        model[: n * 4].reshape(n, 4)[:, :d] = matrix
        at = i * (span + 32 // size)
        assert np.array_equal(got[at : at + span], model)
    expected = np.full(2 * span + 32 // size, 77, dtype.np_dtype)
    ref.dn2nz(
        expected,
        src if column_major else _as_dn(src, p, lines, stride),
        _dn(p),
        32 // size,
        small_c0=True,
    )
    assert np.array_equal(got.view(np.uint8), expected.view(np.uint8))


def _as_dn(src: np.ndarray, p: Any, lines: int, stride: int) -> np.ndarray:
    """Store each ND matrix of an ND2NZ copy column by column (what DN2NZ would read)."""
    out = np.zeros(p.ndNum * p.dValue * p.nValue, src.dtype)
    for i in range(p.ndNum):
        matrix = src[i * p.srcNdMatrixStride :][: lines * stride].reshape(lines, stride)
        out[i * p.dValue * p.nValue :][: p.dValue * p.nValue] = matrix[:, : p.dValue].T.reshape(-1)
    return out


def _dn(p: Any) -> Any:
    if isinstance(p, Dn2NzParams):
        return p
    return Dn2NzParams(
        p.ndNum, p.nValue, p.dValue, p.dValue * p.nValue, p.nValue, 0, 0, p.dstNzMatrixStride
    )


# -- the rules ---------------------------------------------------------------------------------


def test_dn2nz_checks_its_source_ranges_and_strides() -> None:
    src = gm_tensor(half, np.zeros(256, np.float16))
    with block(BlockContext()):
        a1 = LocalTensor[half](TPosition.A1, 0, 512)
        with pytest.raises(AscregError, match=r"Dn2NzParams.dstNzNStride"):
            DataCopy(a1, src, Dn2NzParams(1, 4, 16, 0, 16, 4, 0, 0))
        with pytest.raises(AscregError, match=r"Dn2NzParams.dValue 2097152 is outside"):
            DataCopy(a1, src, Dn2NzParams(1, 4, 2**21, 0, 16, 4, 1, 0))
        with pytest.raises(AscregTypeError, match="the DN2NZ DataCopy reads a GlobalTensor"):
            DataCopy(a1, a1, Dn2NzParams(1, 4, 16, 0, 16, 4, 1, 0))
        with pytest.raises(AlignmentError, match=r"dstNzMatrixStride 8 x 2 bytes"):
            DataCopy(a1, src, Dn2NzParams(2, 4, 4, 0, 16, 4, 1, 8))
        with pytest.raises(AscregError, match=r"enableSmallC0 takes dValue <= 4, got Dn2NzParams"):
            DataCopy[half, True](a1, src, Dn2NzParams(1, 4, 5, 0, 16, 0, 0, 0))
        with pytest.raises(AscregTypeError, match="takes Nd2NzParams or Dn2NzParams"):
            DataCopy[half, True](a1, src, DataCopyParams(1, 1, 0, 0))


def test_a_zero_count_is_a_no_op() -> None:
    got = copy_to_l1(half, np.ones(64, np.float16), Dn2NzParams(0, 4, 4, 0, 16, 4, 1, 0), 64)
    assert (got == 77).all()


# -- Fixpipe<T, U, config> ---------------------------------------------------------------------

CONFIGS = {"ROW_MAJOR": CFG_ROW_MAJOR, "COLUMN_MAJOR": CFG_COLUMN_MAJOR, "NZ": CFG_NZ}


def run_fixpipe(config: FixpipeConfig, m: int, n: int, stride: int, l0c: np.ndarray) -> Any:
    """Run ``Fixpipe[int32_t, int32_t, config]`` of an m x n int32 L0C matrix; return GM."""
    out = GlobalMemory().alloc(int32_t, 4096)
    out_gm = GlobalTensor[int32_t]()
    out_gm.SetGlobalBuffer(out)
    mb = -(-m // 16)
    with block(BlockContext()):
        c1 = LocalTensor[int32_t](TPosition.CO1, 0, l0c.size)
        c1.GetPhyAddr().write(l0c)
        p = FixpipeParamsArch3510[config.format](n, m, mb * 16, stride)
        if config.format is CO2Layout.COLUMN_MAJOR:
            p.params.srcNzC0Stride = 1
        PipeBarrier[PIPE_ALL]()
        Fixpipe[int32_t, int32_t, config](out_gm, c1, p)
    return out.read(4096)


@given(
    layout=st.sampled_from(sorted(CONFIGS)),
    m=st.integers(1, 33),
    n=st.integers(1, 33),
    seed=st.integers(0, 2**16),
)
def test_the_config_layouts_match_a_numpy_model(layout, m, n, seed) -> None:  # type: ignore[no-untyped-def]
    mb, nb = -(-m // 16), -(-n // 16)
    l0c = np.random.default_rng(seed).integers(-1000, 1000, mb * nb * 256).astype(np.int32)
    matrix = l0c.reshape(nb, mb * 16, 16).transpose(1, 0, 2).reshape(mb * 16, nb * 16)[:m, :n]
    stride = {"ROW_MAJOR": n + 1, "COLUMN_MAJOR": m + 2, "NZ": (mb * 16 + 1) * 16}[layout]
    got = run_fixpipe(CONFIGS[layout], m, n, stride, l0c)
    model = np.zeros(4096, np.int32)
    rows, cols = np.meshgrid(np.arange(m), np.arange(n), indexing="ij")
    place = {
        "ROW_MAJOR": rows * stride + cols,
        "COLUMN_MAJOR": cols * stride + rows,
        "NZ": (cols // 16) * stride + rows * 16 + cols % 16,
    }[layout]
    model[place] = matrix
    assert np.array_equal(got, model)


def test_fixpipe_checks_its_template_arguments() -> None:
    out = GlobalTensor[int32_t]()
    out.SetGlobalBuffer(GlobalMemory().alloc(int32_t, 256))
    with block(BlockContext()):
        c1 = LocalTensor[int32_t](TPosition.CO1, 0, 256)
        nz = FixpipeParamsArch3510[CO2Layout.NZ](16, 16, 16, 256)
        with pytest.raises(
            AscregTypeError, match=r"must be FixpipeParamsArch3510<CO2Layout::ROW_MAJOR>"
        ):
            Fixpipe[int32_t, int32_t](out, c1, nz)  # config defaults to CFG_ROW_MAJOR
        with pytest.raises(AscregTypeError, match=r"config\.isToUB is true"):
            Fixpipe[int32_t, int32_t, FixpipeConfig(CO2Layout.NZ, True)](out, c1, nz)
        with pytest.raises(
            AscregTypeError, match="dst holds int32_t but the template argument says half"
        ):
            Fixpipe[half, int32_t, CFG_NZ](out, c1, nz)
        with pytest.raises(AscregTypeError, match="matches no template parameter list"):
            Fixpipe[int32_t, int32_t, CO2Layout.NZ]
    with pytest.raises(TypeError, match="format"):
        FixpipeConfig("NZ")  # type: ignore[arg-type]


# -- MatmulType, CubeFormat, LayoutMode --------------------------------------------------------


def test_matmul_type_holds_its_arguments_as_static_members() -> None:
    a_type = MatmulType[
        TPosition.TSCM, CubeFormat.NZ, half, True, LayoutMode.NORMAL, True, TPosition.VECOUT
    ]
    assert (a_type.pos, a_type.format, a_type.T) == (TPosition.TSCM, CubeFormat.NZ, half)
    assert (a_type.isTrans, a_type.layout, a_type.ibShare) == (True, LayoutMode.NORMAL, True)
    assert a_type.srcPos is TPosition.VECOUT and issubclass(a_type, MatmulTypeArgs)
    c_type = MatmulType[TPosition.GM, CubeFormat.ROW_MAJOR, float32_t]
    assert (c_type.format, c_type.isTrans, c_type.layout, c_type.ibShare, c_type.srcPos) == (
        CubeFormat.ND,
        False,
        LayoutMode.NONE,
        False,
        TPosition.GM,
    )


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ((TPosition.A1, CubeFormat.ND, half), "POSITION A1 is not one the Ascend 950 takes"),
        ((TPosition.GM, CubeFormat.ZN, half), "FORMAT ZN is not one the Ascend 950 takes"),
        ((TPosition.GM, CubeFormat.ND, int16_t), "TYPE int16_t is not one the Ascend 950 takes"),
        (
            (TPosition.TSCM, CubeFormat.NZ, half, False, LayoutMode.NONE, False, TPosition.A1),
            "SRCPOS A1 is not one",
        ),
        ((TPosition.TSCM, CubeFormat.COLUMN_MAJOR, half), "must be at TPosition::GM, not TSCM"),
    ],
)
def test_matmul_type_checks_the_950_rules(items: tuple[Any, ...], message: str) -> None:
    with pytest.raises(AscregError, match=message):
        MatmulType[items]


def test_matmul_type_checks_its_template_parameter_kinds() -> None:
    with pytest.raises(AscregTypeError, match="matches no template parameter list"):
        MatmulType[TPosition.GM, LayoutMode.NORMAL, half]
