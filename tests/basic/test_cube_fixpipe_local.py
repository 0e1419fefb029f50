"""Fixpipe from L0C to L1 and to UB (the "L0C到L1" / "L0C到UB" pages) and their refusals.

The L1 and UB destinations take the same layouts, conversions and ReLU as GM: each move is
checked against a numpy model of the layout written here (the page's ND / DN / NZ placements)
and, byte for byte, against the same Fixpipe to GM.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import GlobalMemory, float32_t, half, int32_t
from ascreg.basic import (
    CFG_COLUMN_MAJOR,
    CFG_NZ,
    CFG_ROW_MAJOR,
    PIPE_ALL,
    CO2Layout,
    Fixpipe,
    FixpipeConfig,
    FixpipeParamsArch3510,
    GlobalTensor,
    LocalTensor,
    PipeBarrier,
    QuantMode_t,
    TPosition,
)
from ascreg.errors import AlignmentError, AscregError, AscregTypeError, SyncError
from ascreg.machine.block import BlockContext, block

CONFIGS = {"ROW_MAJOR": CFG_ROW_MAJOR, "COLUMN_MAJOR": CFG_COLUMN_MAJOR, "NZ": CFG_NZ}
SPAN = 4096
"""The destination elements each test reads back."""


def _params(config: FixpipeConfig, m: int, n: int, stride: int) -> Any:
    p = FixpipeParamsArch3510[config.format](n, m, -(-m // 16) * 16, stride)
    if config.format is CO2Layout.COLUMN_MAJOR:
        p.params.srcNzC0Stride = 1
    return p


def to_l1(
    config: FixpipeConfig,
    m: int,
    n: int,
    stride: int,
    l0c: np.ndarray,
    position: Any = TPosition.C1,
) -> np.ndarray:
    """Run ``Fixpipe[int32_t, int32_t, config]`` into an L1 (or UB) tensor at byte 64."""
    with block(BlockContext()):
        c1 = LocalTensor[int32_t](TPosition.CO1, 0, l0c.size)
        c1.GetPhyAddr().write(l0c)
        dst = LocalTensor[int32_t](position, 64, SPAN)
        if position is TPosition.VECOUT:  # UB: zeroed (read back whole), config.isToUB
            dst.GetPhyAddr().write(np.zeros(SPAN, np.int32))
            config = FixpipeConfig(config.format, True)
        PipeBarrier[PIPE_ALL]()
        Fixpipe[int32_t, int32_t, config](dst, c1, _params(config, m, n, stride))
        PipeBarrier[PIPE_ALL]()
        return np.asarray(dst.GetPhyAddr().read(SPAN))


def to_gm(config: FixpipeConfig, m: int, n: int, stride: int, l0c: np.ndarray) -> np.ndarray:
    out = GlobalMemory().alloc(int32_t, SPAN)
    out_gm = GlobalTensor[int32_t]()
    out_gm.SetGlobalBuffer(out)
    with block(BlockContext()):
        c1 = LocalTensor[int32_t](TPosition.CO1, 0, l0c.size)
        c1.GetPhyAddr().write(l0c)
        PipeBarrier[PIPE_ALL]()
        Fixpipe[int32_t, int32_t, config](out_gm, c1, _params(config, m, n, stride))
    return np.asarray(out.read(SPAN))


@given(
    layout=st.sampled_from(sorted(CONFIGS)),
    position=st.sampled_from([TPosition.A1, TPosition.B1, TPosition.C1, TPosition.VECOUT]),
    m=st.integers(1, 33),
    n=st.integers(1, 33),
    seed=st.integers(0, 2**16),
)
def test_the_l1_layouts_match_a_numpy_model_and_gm(
    layout: str, position: Any, m: int, n: int, seed: int
) -> None:
    mb, nb = -(-m // 16), -(-n // 16)
    l0c = np.random.default_rng(seed).integers(-1000, 1000, mb * nb * 256).astype(np.int32)
    matrix = l0c.reshape(nb, mb * 16, 16).transpose(1, 0, 2).reshape(mb * 16, nb * 16)[:m, :n]
    stride = {"ROW_MAJOR": n + 1, "COLUMN_MAJOR": m + 2, "NZ": (mb * 16 + 1) * 16}[layout]
    got = to_l1(CONFIGS[layout], m, n, stride, l0c, position)
    model = np.zeros(SPAN, np.int32)
    rows, cols = np.meshgrid(np.arange(m), np.arange(n), indexing="ij")
    place = {
        "ROW_MAJOR": rows * stride + cols,
        "COLUMN_MAJOR": cols * stride + rows,
        "NZ": (cols // 16) * stride + rows * 16 + cols % 16,
    }[layout]
    model[place] = matrix
    assert np.array_equal(got, model)
    assert got.tobytes() == to_gm(CONFIGS[layout], m, n, stride, l0c).tobytes()


def test_fixpipe_to_l1_casts_and_relus_like_gm() -> None:
    l0c = (np.arange(256, dtype=np.float32) - 100.25) * 3.3
    with block(BlockContext()):
        c1 = LocalTensor[float32_t](TPosition.CO1, 0, 256)
        c1.GetPhyAddr().write(l0c)
        dst = LocalTensor[half](TPosition.A1, 0, 256)
        p = FixpipeParamsArch3510(16, 16, 16, 16)
        p.quantPre, p.reluEn = QuantMode_t.F322F16, True
        PipeBarrier[PIPE_ALL]()
        Fixpipe(dst, c1, p)
        PipeBarrier[PIPE_ALL]()
        got = np.asarray(dst.GetPhyAddr().read(256)).reshape(16, 16)
    matrix = l0c.reshape(16, 16)  # one 16 x 16 fractal: NZ is row-major
    assert got.tobytes() == np.maximum(matrix, 0).astype(np.float16).tobytes()


def test_fixpipe_to_l1_is_ordered_against_its_reader() -> None:
    with block(BlockContext()):
        c1 = LocalTensor[int32_t](TPosition.CO1, 0, 256)
        dst = LocalTensor[int32_t](TPosition.C1, 0, 256)
        PipeBarrier[PIPE_ALL]()
        Fixpipe(dst, c1, FixpipeParamsArch3510(16, 16, 16, 16))
        with pytest.raises(SyncError, match=r"reads L1 .* that PIPE_FIX wrote"):
            dst.GetPhyAddr().read(1)


@pytest.mark.parametrize(
    ("case", "error", "match"),
    [
        ("ub", AscregTypeError, r"Fixpipe: a UB dst needs Fixpipe\[T, U, config\] with"),
        ("sub", AscregError, "Fixpipe: sub-block 1 outside a mixed launch: a block run alone"),
        ("l0a", AscregTypeError, "dst is a A2 tensor but must be at TPosition A1 / B1 / C1"),
        ("split", AscregError, "isChannelSplit applies to L0C -> GM only"),
        ("touB", AscregTypeError, "config.isToUB is true"),
    ],
)
def test_fixpipe_destinations_it_refuses(case: str, error: type, match: str) -> None:
    with block(BlockContext()):
        c1 = LocalTensor[float32_t](TPosition.CO1, 0, 256)
        dst = {
            "ub": lambda: LocalTensor[float32_t](TPosition.VECOUT, 0, 256),
            "sub": lambda: LocalTensor[float32_t](TPosition.VECOUT, 0, 256),
            "l0a": lambda: LocalTensor[float32_t](TPosition.A2, 0, 256),
        }.get(case, lambda: LocalTensor[float32_t](TPosition.C1, 0, 256))()
        p = FixpipeParamsArch3510[CO2Layout.NZ](16, 16, 16, 256)
        p.isChannelSplit = case == "split"
        p.subBlockId = case == "sub"
        config = FixpipeConfig(CO2Layout.NZ, True)
        call = Fixpipe[float32_t, float32_t, config] if case in ("touB", "sub") else Fixpipe
        with pytest.raises(error, match=match):
            call(dst, c1, p)


def test_fixpipe_to_l1_needs_32_byte_alignment() -> None:
    with block(BlockContext()):
        c1 = LocalTensor[int32_t](TPosition.CO1, 0, 256)
        dst = LocalTensor[int32_t](TPosition.C1, 0, 256)
        shifted = dst[4]  # 16 bytes in
        with pytest.raises(AlignmentError, match="dst at __cbuf__ 0x10 is not 32-byte aligned"):
            Fixpipe(shifted, c1, FixpipeParamsArch3510(16, 16, 16, 16))


def test_a_cube_kernel_moving_l0c_to_ub_is_refused() -> None:
    """A ``__cube__`` launch has no vector core whose UB the move could write (the L0C -> UB
    moves of a mixed launch are tests/basic/test_cube_to_ub.py's)."""
    from ascreg import GmPtr
    from ascreg.machine.cube import __cube__
    from ascreg.machine.kernel import __global__

    @__global__
    @__cube__
    def kernel(x: GmPtr[int32_t]) -> None:
        c1 = LocalTensor[int32_t](TPosition.CO1, 0, 256)
        c1.GetPhyAddr().write(np.zeros(256, np.int32))
        ub = LocalTensor[int32_t](TPosition.VECOUT, 0, 256)
        PipeBarrier[PIPE_ALL]()
        config = FixpipeConfig(CO2Layout.ROW_MAJOR, True)
        Fixpipe[int32_t, int32_t, config](ub, c1, _params(CFG_ROW_MAJOR, 16, 16, 16))

    with pytest.raises(AscregError, match=r"Fixpipe: a __cube__ kernel has no vector core"):
        kernel[1, 0, None](GlobalMemory().alloc(int32_t, 8))
