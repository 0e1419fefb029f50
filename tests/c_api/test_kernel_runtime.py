"""Kernel launch, UB arrays, GM<->UB copies, pipe-sync checking and the bad-input errors."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, GmPtr, UbPtr, acl, float32_t, int16_t, uint8_t, uint16_t
from ascreg.basic import DataCopy, GlobalTensor, Hardware, LocalMemAllocator
from ascreg.errors import (
    AddressSpaceError,
    AlignmentError,
    AscregError,
    AscregTypeError,
    CapacityError,
    LaunchError,
    OutOfBoundsError,
    SyncError,
)
from ascreg.examples import asc_shiftright, c_api_tail, vector_add
from ascreg.machine.kernel import BlockContext, block


def run(body: Any, blocks: int = 1, dyn: int = 0, *args: Any) -> None:
    kernel = C.__global__(C.__vector__(body))
    kernel[blocks, dyn, None](*args)


@pytest.mark.parametrize("module", [asc_shiftright, vector_add, c_api_tail])
def test_examples_end_to_end(module: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert module.main() is True
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("[Success]")


def test_seed_prints_its_success_line(capsys: pytest.CaptureFixture[str]) -> None:
    asc_shiftright.main()
    assert capsys.readouterr().out == "[Success] asc_shiftright completed.\n"


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

    run(body, 8, 0, out)
    assert seen == [(i, 8, 0) for i in range(8)]
    assert out.read(128).reshape(8, 16)[:, 0].tolist() == list(range(8))


def test_missing_notify_wait_between_mte2_and_vector_read_is_an_error() -> None:
    gm = GlobalMemory()
    x = gm.alloc(uint16_t, 128)

    @C.__simd_vf__
    def vf(src: UbPtr[uint16_t]) -> None:
        C.asc_loadalign(C.vector_uint16_t(), src)

    def body(x: GmPtr[uint16_t]) -> None:
        buf = C.__ubuf__(uint16_t, 128)
        C.asc_copy_gm2ub_align(buf, x, 256)
        vf(buf)

    with pytest.raises(SyncError, match=r"asc_loadalign: PIPE_V reads UB .* that PIPE_MTE2 wrote"):
        run(body, 1, 0, x)


def test_wait_without_notify_would_hang() -> None:
    def body() -> None:
        C.asc_sync_wait(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID0)

    with pytest.raises(SyncError, match=r"asc_sync_wait: .*would hang"):
        run(body)


def test_a_flag_of_the_wrong_pipe_pair_does_not_order_the_access() -> None:
    def body(x: GmPtr[uint16_t]) -> None:
        buf = C.__ubuf__(uint16_t, 128)
        C.asc_copy_gm2ub_align(buf, x, 256)
        C.asc_sync_notify(C.PIPE_MTE2, C.PIPE_MTE3, C.EVENT_ID0)  # wrong consumer
        C.asc_sync_wait(C.PIPE_MTE2, C.PIPE_MTE3, C.EVENT_ID0)
        buf.read(1)  # the scalar unit is still unordered after MTE2

    with pytest.raises(SyncError, match="PIPE_S reads"):
        run(body, 1, 0, GlobalMemory().alloc(uint16_t, 128))


def test_transitive_chain_orders_mte2_before_mte3() -> None:
    def body(x: GmPtr[uint16_t]) -> None:
        buf = C.__ubuf__(uint16_t, 128)
        C.asc_copy_gm2ub_align(buf, x, 256)
        C.asc_sync_notify(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID0)
        C.asc_sync_wait(C.PIPE_MTE2, C.PIPE_V, C.EVENT_ID0)
        C.asc_sync_notify(C.PIPE_V, C.PIPE_MTE3, C.EVENT_ID0)
        C.asc_sync_wait(C.PIPE_V, C.PIPE_MTE3, C.EVENT_ID0)
        C.asc_copy_ub2gm_align(x, buf, 256)

    run(body, 1, 0, GlobalMemory().alloc(uint16_t, 128))


def test_mte3_read_after_vector_write_without_sync_is_an_error() -> None:
    @C.__simd_vf__
    def vf(dst: UbPtr[uint16_t]) -> None:
        reg = C.vector_uint16_t()
        C.asc_duplicate_scalar(reg, 1)
        C.asc_storealign(dst, reg, C.asc_create_mask_b16(C.PAT_ALL))

    def body(x: GmPtr[uint16_t]) -> None:
        buf = C.__ubuf__(uint16_t, 128)
        C.asc_vf_call[vf](buf)
        C.asc_copy_ub2gm_align(x, buf, 256)

    with pytest.raises(SyncError, match=r"PIPE_MTE3 reads UB .* that PIPE_V wrote"):
        run(body, 1, 0, GlobalMemory().alloc(uint16_t, 128))


def test_barrier_orders_everything() -> None:
    def body(x: GmPtr[uint16_t]) -> None:
        buf = C.__ubuf__(uint16_t, 128)
        C.asc_copy_gm2ub_align(buf, x, 256)
        C.asc_sync()
        buf.read(128)

    run(body, 1, 0, GlobalMemory().alloc(uint16_t, 128))


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
        run(body)
    with pytest.raises(CapacityError, match=r"\(200000 left\)|holds 253952"):
        run(lambda: C.__ubuf__(uint8_t, 60000), 1, 200 * 1000)


def test_extern_ubuf_is_the_dynamic_region() -> None:
    def body() -> None:
        dyn = C.__ubuf__.extern(float32_t)
        static = C.__ubuf__(float32_t, 8)
        assert dyn.address == 0 and static.address == 64
        dyn.write(np.zeros(16, np.float32))
        with pytest.raises(OutOfBoundsError):
            dyn.write(np.zeros(17, np.float32))

    run(body, 1, 64)


def test_gm_pointer_where_ubuf_is_required() -> None:
    gm = GlobalMemory().alloc(uint16_t, 128)

    @C.__simd_vf__
    def vf(p: UbPtr[uint16_t]) -> None: ...

    with pytest.raises(AddressSpaceError, match=r"vf: argument 1 .* must be __ubuf__"):
        run(lambda: C.asc_vf_call[vf](gm))
    with pytest.raises(AddressSpaceError, match="asc_loadalign: src is <__gm__"):
        C.asc_loadalign(C.vector_uint16_t(), gm)
    with pytest.raises(AddressSpaceError, match="asc_copy_gm2ub_align: dst is <__gm__"):
        run(lambda: C.asc_copy_gm2ub_align(gm, gm, 256))

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


def test_misaligned_ub_and_gm_addresses_and_copies_past_an_allocation() -> None:
    gm = GlobalMemory().alloc(uint16_t, 256)

    def misaligned_ub() -> None:
        buf = C.__ubuf__(uint16_t, 256)
        C.asc_copy_gm2ub_align(buf + 1, gm, 64)

    with pytest.raises(AlignmentError, match=r"asc_copy_gm2ub_align: dst .* not 32-byte aligned"):
        run(misaligned_ub)

    def misaligned_gm() -> None:
        C.asc_copy_gm2ub_align(
            C.__ubuf__(uint16_t, 256), gm.cast(uint8_t).offset_bytes(1).cast(uint16_t), 64
        )

    with pytest.raises(AlignmentError, match=r"src .* not 2-byte aligned"):
        run(misaligned_gm)

    def past_ub() -> None:
        C.asc_copy_gm2ub_align(C.__ubuf__(uint16_t, 16), gm, 64)

    with pytest.raises(
        OutOfBoundsError, match=r"asc_copy_gm2ub_align: writes 64 bytes .* leaves the allocation"
    ):
        run(past_ub)

    def past_gm() -> None:
        C.asc_copy_gm2ub_align(C.__ubuf__(uint16_t, 512), gm, 1024)

    with pytest.raises(OutOfBoundsError, match="asc_copy_gm2ub_align: reads 1024 bytes"):
        run(past_gm)

    def odd_size() -> None:
        C.asc_copy_gm2ub_align(C.__ubuf__(uint16_t, 16), gm, 30)

    with pytest.raises(AscregError, match="multiple of 32"):
        run(odd_size)


def test_burst_copy_with_padding_and_strides() -> None:
    gm = GlobalMemory().alloc(uint16_t, 64)
    gm.write(np.arange(1, 65))

    def body() -> None:
        buf = C.__ubuf__(uint16_t, 64)
        C.asc_set_copy_pad_val(9)
        C.asc_copy_gm2ub_align(buf, gm, 2, 6, 2, 1, True, 0, 20, 32)
        C.asc_sync()
        assert buf.read(22).tolist() == [
            9,
            9,
            1,
            2,
            3,
            9,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            9,
            9,
            11,
            12,
            13,
            9,
        ]

    run(body)


def test_basic_glue_rejects_misuse() -> None:
    with block(BlockContext()):
        with pytest.raises(AscregError, match="positive multiple of 32"):
            t = LocalMemAllocator[Hardware.UB]().Alloc[float32_t, 8]()
            g = GlobalTensor[float32_t]()
            g.SetGlobalBuffer(GlobalMemory().alloc(float32_t, 8))
            DataCopy(t, g, 7)
        with pytest.raises(AscregTypeError, match="GlobalTensor<float>"):
            GlobalTensor[float32_t]().SetGlobalBuffer(GlobalMemory().alloc(uint16_t, 8))


def test_simt_dispatch_from_asc_vf_call() -> None:
    simt = importlib.import_module("ascreg.simt")
    if not hasattr(simt, "run_simt_vf") or not hasattr(simt, "dim3"):
        pytest.skip("ascreg.simt does not provide run_simt_vf/dim3 yet")
    calls: list[Any] = []
    runtime = importlib.import_module("ascreg.machine.kernel")  # dispatches to the SIMT engine
    original = runtime.run_simt_vf

    def spy(func: Any, block_dim: Any, args: tuple[Any, ...], **kw: Any) -> None:
        calls.append((block_dim, args, kw))

    runtime.run_simt_vf = spy
    try:

        @simt.__simt_vf__
        def f(x: int) -> None: ...

        run(lambda: C.asc_vf_call[f](simt.dim3(32), 5), 3)
    finally:
        runtime.run_simt_vf = original
    assert len(calls) == 3
    assert calls[2][1] == (5,)
    assert calls[2][2]["grid_dim"].x == 3 and calls[2][2]["block_idx"].x == 2


def test_acl_error_codes() -> None:
    acl.finalize()
    assert acl.rt.malloc(32, acl.ACL_MEM_MALLOC_HUGE_FIRST) == (None, acl.ACL_ERROR_UNINITIALIZE)
    assert acl.init(None) == acl.ACL_SUCCESS
    assert acl.init(None) == acl.ACL_ERROR_REPEAT_INITIALIZE
    assert acl.rt.malloc(32)[1] == acl.ACL_ERROR_INVALID_DEVICE
    assert acl.rt.set_device(1) == acl.ACL_ERROR_INVALID_DEVICE
    assert acl.rt.set_device(0) == acl.ACL_SUCCESS
    dev, ret = acl.rt.malloc(64, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == acl.ACL_SUCCESS and dev is not None
    host = np.arange(32, dtype=np.uint16)
    assert acl.rt.memcpy(dev, 64, host, 64, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert (
        acl.rt.memcpy(dev, 64, host, 128, acl.ACL_MEMCPY_HOST_TO_DEVICE)
        == acl.ACL_ERROR_INVALID_PARAM
    )
    assert (
        acl.rt.memcpy(dev, 128, host, 128, acl.ACL_MEMCPY_HOST_TO_DEVICE)
        == acl.ACL_ERROR_INVALID_PARAM
    )
    assert (
        "leaves the allocation" in acl.get_recent_err_msg() or "exceed" in acl.get_recent_err_msg()
    )
    assert (
        acl.rt.memcpy(host, 64, dev, 64, acl.ACL_MEMCPY_HOST_TO_DEVICE)
        == acl.ACL_ERROR_INVALID_PARAM
    )
    assert acl.rt.memcpy(dev, 64, host, 64, 7) == acl.ACL_ERROR_INVALID_PARAM
    other, _ = acl.rt.malloc(64)
    assert acl.rt.memcpy(other, 64, dev, 64, acl.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    assert other.cast(uint16_t).read(3).tolist() == [0, 1, 2]
    h2, _ = acl.rt.malloc_host(64)
    assert acl.rt.memcpy(h2, 64, host, 64, acl.ACL_MEMCPY_HOST_TO_HOST) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0 and acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == acl.ACL_ERROR_INVALID_RESOURCE_HANDLE
    assert acl.rt.free(dev) == 0 and acl.rt.free(dev) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.free_host(h2) == 0
    assert acl.rt.synchronize_device() == 0
    assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0
    assert acl.finalize() == acl.ACL_ERROR_REPEAT_FINALIZE
