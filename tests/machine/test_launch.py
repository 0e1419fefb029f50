"""Kernel launch: blocks and their UBs, __ubuf__ arrays, address spaces, argument checks, SIMT dispatch."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, GmPtr, UbPtr, float32_t, int16_t, uint8_t, uint16_t
from ascreg.errors import (
    AddressSpaceError,
    AscregTypeError,
    CapacityError,
    LaunchError,
    OutOfBoundsError,
)
from helpers import launch


def test_every_block_has_its_own_ub_and_index() -> None:
    gm = GlobalMemory()
    out = gm.alloc(uint16_t, 8 * 16)
    seen: list[tuple[int, int, int]] = []

    def body(out: GmPtr[uint16_t]) -> None:
        buf = C.__ubuf__(uint16_t, 16)
        seen.append((int(C.block_idx), C.asc_get_block_num(), buf.address))
        buf.write(np.full(16, C.asc_get_block_idx()))
        C.asc_sync_notify(C.PIPE_S, C.PIPE_MTE3, C.EVENT_ID3)
        C.asc_sync_wait(C.PIPE_S, C.PIPE_MTE3, C.EVENT_ID3)
        C.asc_copy_ub2gm_align(out + C.block_idx * 16, buf, 32)

    launch(body, out, blocks=8)
    assert seen == [(i, 8, 0) for i in range(8)]
    assert out.read(128).reshape(8, 16)[:, 0].tolist() == list(range(8))


def test_zero_blocks_and_bad_launch_configs() -> None:
    kernel = C.__global__(C.__vector__(lambda: None))
    with pytest.raises(LaunchError, match=r"numBlocks 0 is outside \[1, 65535\]"):
        kernel[0, 0, None]()
    with pytest.raises(LaunchError, match="numBlocks 65536"):
        kernel[65536, 0, None]()
    with pytest.raises(LaunchError, match="dynamic UB size"):
        kernel[1, 300 * 1024, None]()
    with pytest.raises(LaunchError, match="launch it as"):
        kernel()
    with pytest.raises(LaunchError, match="three items"):
        kernel[1, 1, 0, None]()


def test_ub_array_larger_than_what_is_left() -> None:
    def body() -> None:
        C.__ubuf__(uint8_t, 200 * 1024)
        C.__ubuf__(uint8_t, 60 * 1024)

    with pytest.raises(CapacityError, match=r"__ubuf__ uint8_t buf\[61440\]: .*holds 253952"):
        launch(body)
    with pytest.raises(CapacityError, match=r"\(200000 left\)|holds 253952"):
        launch(lambda: C.__ubuf__(uint8_t, 60000), dyn_ub=200 * 1000)


def test_extern_ubuf_is_the_dynamic_region() -> None:
    def body() -> None:
        dyn = C.__ubuf__.extern(float32_t)
        static = C.__ubuf__(float32_t, 8)
        assert dyn.address == 0 and static.address == 64
        dyn.write(np.zeros(16, np.float32))
        with pytest.raises(OutOfBoundsError):
            dyn.write(np.zeros(17, np.float32))

    launch(body, dyn_ub=64)


def test_gm_pointer_where_ubuf_is_required() -> None:
    gm = GlobalMemory().alloc(uint16_t, 128)

    @C.__simd_vf__
    def vf(p: UbPtr[uint16_t]) -> None: ...

    with pytest.raises(AddressSpaceError, match=r"vf: argument 1 .* must be __ubuf__"):
        launch(lambda: C.asc_vf_call[vf](gm))
    with pytest.raises(AddressSpaceError, match="asc_loadalign: src is <__gm__"):
        C.asc_loadalign(C.vector_uint16_t(), gm)
    with pytest.raises(AddressSpaceError, match="asc_copy_gm2ub_align: dst is <__gm__"):
        launch(lambda: C.asc_copy_gm2ub_align(gm, gm, 256))

    def takes_ub(p: UbPtr[uint16_t]) -> None: ...

    with pytest.raises(
        AddressSpaceError, match=r"argument 'p' is <__gm__ .* the parameter is __ubuf__"
    ):
        C.__global__(C.__vector__(takes_ub))[1, 0, None](gm)


def test_kernel_argument_dtype_and_host_array() -> None:
    def takes(p: GmPtr[uint16_t]) -> None: ...

    kernel = C.__global__(C.__vector__(takes))
    with pytest.raises(AscregTypeError, match=r"cast the pointer first"):
        kernel[1, 0, None](GlobalMemory().alloc(int16_t, 4))
    with pytest.raises(AscregTypeError, match="host numpy array"):
        kernel[1, 0, None](np.zeros(4, np.uint16))


def test_simt_dispatch_from_asc_vf_call() -> None:
    simt = importlib.import_module("ascreg.simt")
    if not hasattr(simt, "run_simt_vf") or not hasattr(simt, "dim3"):
        pytest.skip("ascreg.simt does not provide run_simt_vf/dim3 yet")
    calls: list[Any] = []
    # the kernel runtime dispatches to the SIMT engine (imported when a SIMT VF is started)
    runtime = importlib.import_module("ascreg.machine.simt.engine")
    original = runtime.run_simt_vf

    def spy(func: Any, block_dim: Any, args: tuple[Any, ...], **kw: Any) -> None:
        calls.append((block_dim, args, kw))

    runtime.run_simt_vf = spy
    try:

        @simt.__simt_vf__
        def f(x: int) -> None: ...

        launch(lambda: C.asc_vf_call[f](simt.dim3(32), 5), blocks=3)
    finally:
        runtime.run_simt_vf = original
    assert len(calls) == 3
    assert calls[2][1] == (5,)
    assert calls[2][2]["grid_dim"].x == 3 and calls[2][2]["block_idx"].x == 2


def test_builtin_block_variables_are_plain_integers() -> None:
    from ascreg.machine.kernel import BlockContext, block, block_idx, block_num

    with block(BlockContext(block_idx=5, block_num=8)):
        assert (100 // block_num, 100 % block_num, divmod(100, block_num)) == (12, 4, (12, 4))
        assert (block_idx << 1, block_idx >> 1, block_idx & 1, block_idx | 2) == (10, 2, 1, 7)
        assert (2 << block_idx, block_idx ^ 1, -block_idx, block_idx**2) == (64, 4, -5, 25)
        assert f"{block_idx:03d}" == "005" and str(block_num) == "8"
        assert block_num - block_idx == 3 and list(range(block_num))[block_idx] == 5
    assert repr(block_idx) == "<block_idx>"
