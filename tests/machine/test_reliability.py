"""Silent mistakes the kernel runtime turns into errors: launch configuration and arguments,
UB lifetime, unwritten UB, vector ops outside a VF, cross-block GM races, same-pipe copies."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import ascreg
import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, GmPtr, Reg, UbPtr, acl, uint16_t, uint32_t
from ascreg.errors import (
    AddressSpaceError,
    AscregTypeError,
    AscregWarning,
    LaunchError,
    SyncError,
    UninitializedMemoryError,
)
from helpers import launch, raises_naming


def _kernel(body: Any) -> Any:
    return C.__global__(C.__vector__(body))


def test_bool_is_not_a_block_count() -> None:
    kernel = _kernel(lambda: None)
    raises_naming(LaunchError, "<lambda><<<True, 0, None>>>", r"numBlocks True")(
        lambda: kernel[True, 0, None]()
    )
    raises_naming(LaunchError, "<lambda><<<1, False, None>>>", r"dynamic UB size False")(
        lambda: kernel[1, False, None]()
    )


def test_destroyed_or_fake_stream() -> None:
    kernel = _kernel(lambda: None)
    acl.finalize()
    acl.init()
    acl.rt.set_device(0)
    stream, _ = acl.rt.create_stream()
    kernel[1, 0, stream]()  # live: fine
    acl.rt.destroy_stream(stream)
    with pytest.raises(LaunchError, match=r"^<lambda><<<1, 0, <aclrtStream.*was destroyed"):
        kernel[1, 0, stream]()
    raises_naming(LaunchError, "<lambda><<<1, 0, 'x'>>>", "'x' is not an aclrtStream")(
        lambda: kernel[1, 0, "x"]()
    )
    kernel[1, 0]()  # no stream: the default one
    acl.rt.reset_device(0)
    acl.finalize()


def test_missing_or_extra_kernel_argument() -> None:
    def body(a: int, b: int) -> None: ...

    kernel = _kernel(body)
    raises_naming(LaunchError, r"body<<<1, 0, None>>>", r"\(a, b\)", "missing .*'b'")(
        lambda: kernel[1, 0, None](1)
    )
    raises_naming(LaunchError, r"body<<<1, 0, None>>>", "too many positional")(
        lambda: kernel[1, 0, None](1, 2, 3)
    )
    raises_naming(LaunchError, r"body<<<1, 0, None>>>", "unexpected keyword .*'c'")(
        lambda: kernel[1, 0, None](1, 2, c=3)
    )


def test_unresolvable_string_annotation() -> None:
    """A legal kernel whose annotation resolves only where the launch cannot look runs (issue 25).

    The launch checks arguments against the annotations it can resolve; this one is skipped.
    """

    class Local:  # defined here, invisible to the kernel's globals and closure
        pass

    ran: list[Any] = []

    def body(out: GmPtr[Local]) -> None:  # a string: this module uses future annotations
        ran.append(out)

    out = GlobalMemory().alloc(uint16_t, 4)
    _kernel(body)[1, 0, None](out)
    assert ran == [out]


def test_ub_pointer_of_an_ended_block() -> None:
    kept: list[UbPtr[uint16_t]] = []

    def body() -> None:
        if C.block_idx == 0:
            buf = C.__ubuf__(uint16_t, 16)
            buf.write(np.arange(16))
            kept.append(buf)
        else:
            kept[0].read(1)

    raises_naming(AddressSpaceError, r"body<<<2, 0, None>>>", "block 0 of kernel body", "ended")(
        lambda: launch(body, blocks=2)
    )
    with pytest.raises(AddressSpaceError, match="which has ended"):  # the host, afterwards
        kept[0].read(1)


def test_vector_op_in_the_kernel_body() -> None:
    def reg_body() -> None:
        Reg.Duplicate(Reg.RegTensor[uint16_t](), 1)

    raises_naming(AscregTypeError, "Reg.Duplicate", "only inside a __simd_vf__")(
        lambda: launch(reg_body)
    )

    def c_body() -> None:
        C.asc_create_mask_b16(C.PAT_ALL)

    raises_naming(AscregTypeError, "asc_create_mask_b16", "only inside a __simd_vf__")(
        lambda: launch(c_body)
    )

    @C.__simd_vf__
    def vf() -> None:
        Reg.Duplicate(Reg.RegTensor[uint16_t](), 1)

    launch(lambda: vf())  # inside the VF: fine
    Reg.Duplicate(Reg.RegTensor[uint16_t](), 1)  # outside any kernel: plain Reg code


def test_reading_unwritten_ub() -> None:
    def scalar_read() -> None:
        C.__ubuf__(uint32_t, 8).read(1)

    raises_naming(
        UninitializedMemoryError, "scalar_read<<<1, 0, None>>>", "PIPE_S reads UB", "not zeroed"
    )(lambda: launch(scalar_read))
    gm = GlobalMemory().alloc(uint32_t, 8)

    def copy_out(gm: GmPtr[uint32_t]) -> None:
        C.asc_copy_ub2gm_align(gm, C.__ubuf__(uint32_t, 8), 32)

    raises_naming(UninitializedMemoryError, "asc_copy_ub2gm_align", "PIPE_MTE3 reads")(
        lambda: launch(copy_out, gm)
    )

    @C.__simd_vf__
    def load(src: UbPtr[uint32_t]) -> None:
        C.asc_loadalign(C.vector_uint32_t(), src)

    def vector_read() -> None:
        buf = C.__ubuf__(uint32_t, 64)
        load(buf)  # no byte written: an error

    raises_naming(UninitializedMemoryError, "asc_loadalign", "none of those bytes")(
        lambda: launch(vector_read)
    )

    def tail_read() -> None:
        buf = C.__ubuf__(uint32_t, 64)
        buf.write(np.arange(40))  # a tail: the lanes past 40 are masked off later
        C.asc_sync()
        load(buf)

    launch(tail_read)


def test_unwritten_ub_through_index_arrays_counts_the_elements_only() -> None:
    # a scatter writes its elements, not the gaps; a gather reads its elements, not the gaps
    def body(read_gap: bool, gather_gap: bool) -> None:
        buf = C.__ubuf__(uint32_t, 8)
        buf[np.array([0, 4, 2])] = 1
        assert buf[np.array([4, 0])].tolist() == [1, 1]
        if gather_gap:
            buf[np.array([0, 3])]
        if read_gap:
            (buf + 1).read(1)

    launch(body, False, False)
    raises_naming(UninitializedMemoryError, "body<<<1, 0, None>>>", r"UB \[0x4, 0x8\)", "byte 0x4")(
        lambda: launch(body, True, False)
    )
    raises_naming(
        UninitializedMemoryError, "body<<<1, 0, None>>>", r"UB \[0xc, 0x10\)", "byte 0xc"
    )(lambda: launch(body, False, True))


def test_a_two_dimensional_index_array_scatters_and_gathers_its_elements() -> None:
    # p[idx] with a 2D idx: the span runs from the lowest to the highest index of all of it
    def body() -> None:
        buf = C.__ubuf__(uint32_t, 16)
        idx = np.array([[9, 1], [4, 12]])
        buf[idx] = np.array([[5, 6], [7, 8]])
        assert buf[idx].tolist() == [[5, 6], [7, 8]]

    launch(body)


@C.__simd_vf__
def _scatter_two(buf: UbPtr[uint32_t], load_gap: bool) -> None:
    """``Reg.Scatter`` of elements 0 and 128; then, if asked, a load of elements 8..71 between."""
    src, index, r = Reg.RegTensor[uint32_t](), Reg.RegTensor[uint32_t](), Reg.RegTensor[uint32_t]()
    src.set(7)
    index.set(np.where(np.arange(64) == 1, 128, 0))
    Reg.Scatter(buf, src, index, Reg.CreateMask[uint32_t, Reg.MaskPattern.VL2]())
    if load_gap:
        Reg.LoadAlign(r, buf + 8)


def test_a_vector_scatter_marks_its_elements_only() -> None:
    # the span from element 0 to 128 is not all stored: loading the gap in the same VF is no
    # store-then-load, and copying the gap out reads bytes nothing wrote
    def load_between() -> None:
        buf = C.__ubuf__(uint32_t, 256)
        buf.write(np.arange(256))
        C.asc_sync()
        _scatter_two(buf, True)

    launch(load_between)
    gm = GlobalMemory().alloc(uint32_t, 256)

    def copy_out(gm: GmPtr[uint32_t]) -> None:
        buf = C.__ubuf__(uint32_t, 256)
        _scatter_two(buf, False)
        C.asc_sync_notify(C.PIPE_V, C.PIPE_MTE3, C.EVENT_ID0)
        C.asc_sync_wait(C.PIPE_V, C.PIPE_MTE3, C.EVENT_ID0)
        C.asc_copy_ub2gm_align(gm, buf, 1, 129 * 4, 0, 0, 0)

    raises_naming(UninitializedMemoryError, "asc_copy_ub2gm_align", "byte 0x4 was not")(
        lambda: launch(copy_out, gm)
    )


def test_a_vector_gather_of_elements_the_vf_stored_needs_mem_bar() -> None:
    # a gather reads its elements: the stored element 128 without a barrier is an error, the
    # gap element 8 is not, and a barrier orders the store before the gather
    @C.__simd_vf__
    def vf(buf: UbPtr[uint32_t], element: int, barrier: bool) -> None:
        src, index, out = (
            Reg.RegTensor[uint32_t](),
            Reg.RegTensor[uint32_t](),
            Reg.RegTensor[uint32_t](),
        )
        src.set(7)
        index.set(np.where(np.arange(64) == 1, 128, 0))
        Reg.Scatter(buf, src, index, Reg.CreateMask[uint32_t, Reg.MaskPattern.VL2]())
        if barrier:
            C.asc_mem_bar(C.VST_VLD)
        index.set(element)
        Reg.Gather(out, buf, index, Reg.CreateMask[uint32_t, Reg.MaskPattern.VL1]())

    def body(element: int, barrier: bool) -> None:
        buf = C.__ubuf__(uint32_t, 256)
        buf.write(np.arange(256))
        C.asc_sync()
        vf(buf, element, barrier)

    raises_naming(SyncError, "Reg.Gather", "after storing byte 0x200", "asc_mem_bar")(
        lambda: launch(body, 128, False)
    )
    launch(body, 8, False)
    launch(body, 128, True)


def test_unwritten_ub_under_warn_reads_zeros_and_warns_once() -> None:
    seen: list[int] = []

    def body() -> None:
        buf = C.__ubuf__(uint32_t, 8)
        seen.extend(int(buf[i]) for i in range(8))

    with ascreg.policy(undefined="warn"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        launch(body)
    assert seen == [0] * 8
    assert [type(w.message) for w in caught] == [AscregWarning]
    assert "PIPE_S reads UB [0x0, 0x4)" in str(caught[0].message)


def test_two_blocks_writing_the_same_gm_bytes() -> None:
    out = GlobalMemory().alloc(uint32_t, 16)

    def body(out: GmPtr[uint32_t], shared: bool) -> None:
        (out + C.block_idx * 4).write([1, 2, 3, 4])  # each block its own range: fine
        if shared:
            (out + 15).write([9])  # every block writes the last element

    launch(body, out, False, blocks=4)
    raises_naming(SyncError, "body", r"block 1 writes __gm__ \[0x3c, 0x40\) that block 0 wrote")(
        lambda: launch(body, out, True, blocks=4)
    )
    assert out.memory.on_access is None  # the check is detached after the launch


def test_interleaved_scattered_gm_stores_of_two_blocks_are_no_race() -> None:
    # block b writes columns b, b + 2, ... of a 4 x 4 matrix: the index spans overlap, the bytes not
    out = GlobalMemory().alloc(uint32_t, 16)

    def body(out: GmPtr[uint32_t]) -> None:
        columns = np.arange(int(C.block_idx), 4, 2)
        out[(np.arange(4)[:, None] * 4 + columns).ravel()] = int(C.block_idx) + 1

    launch(body, out, blocks=2)
    assert out.read(16).tolist() == [1, 2] * 8


def test_scattered_gm_stores_of_two_blocks_sharing_one_element_race() -> None:
    out = GlobalMemory().alloc(uint32_t, 16)

    def body(out: GmPtr[uint32_t], index: int) -> None:
        block = int(C.block_idx)
        out[np.array([block, 8 + block, index if block else 13])] = 7  # block 0: 0, 8, 13

    launch(body, out, 15, blocks=2)  # block 1: 1, 9, 15 (15 lies in block 0's span, unwritten)
    out.memory.data[out.address : out.address + 64] = 0
    launch(body, out, 6, blocks=2)  # block 1's contiguous store of element 1 would also be fine
    raises_naming(SyncError, "body", r"block 1 writes __gm__ \[0x34, 0x38\) that block 0 wrote")(
        lambda: launch(body, out, 13, blocks=2)
    )
    # a contiguous store onto one element of another block's scatter is caught the same way
    message = r"block 1 writes __gm__ \[0x1c, 0x24\) that block 0 wrote"
    raises_naming(SyncError, "_scatter_then_write", message)(
        lambda: launch(_scatter_then_write, out, blocks=2)
    )


def _scatter_then_write(out: GmPtr[uint32_t]) -> None:
    if C.block_idx == 0:
        out[np.array([0, 8, 4])] = 1
    else:
        (out + 7).write([2, 3])  # elements 7 and 8: 8 was scattered by block 0


def test_gathers_and_scatters_inside_one_block_are_unaffected() -> None:
    out = GlobalMemory().alloc(uint32_t, 16)

    def body(out: GmPtr[uint32_t]) -> None:
        if C.block_idx == 0:
            out[np.array([0, 2, 4])] = 1
            out[np.array([1, 2, 3, 3])] = np.array([5, 6, 7, 7])  # its own bytes again
            out[np.array([5, 5, 6])] = 9  # duplicates covering the whole span
            assert out[np.array([4, 0, 2])].tolist() == [1, 1, 6]
        else:
            out[np.array([15, 10, 12])] = 3
            assert out[np.array([0, 15])].tolist() == [1, 3]  # loads are not writes

    launch(body, out, blocks=2)
    assert out.read(16).tolist() == [1, 5, 6, 7, 1, 9, 9, 0, 0, 0, 3, 0, 3, 0, 0, 3]
    assert out.memory.on_access is None and out.memory.scatter is None


def test_same_pipe_copies_need_a_pipe_barrier() -> None:
    gm = GlobalMemory().alloc(uint32_t, 16)
    gm.write(np.arange(16))

    def racing(gm: GmPtr[uint32_t]) -> None:
        buf = C.__ubuf__(uint32_t, 16)
        C.asc_copy_gm2ub_align(buf, gm, 64)
        C.asc_copy_gm2ub_align(buf, gm + 8, 32)

    raises_naming(SyncError, "asc_copy_gm2ub_align", "PIPE_MTE2 copy writes UB", "asc_sync_pipe")(
        lambda: launch(racing, gm)
    )

    def ordered(gm: GmPtr[uint32_t]) -> None:
        buf = C.__ubuf__(uint32_t, 16)
        C.asc_copy_gm2ub_align(buf, gm, 64)
        C.asc_sync_pipe(C.PIPE_MTE2)
        C.asc_copy_gm2ub_align(buf, gm + 8, 32)

    launch(ordered, gm)

    def gm_overlap(gm: GmPtr[uint32_t]) -> None:
        buf = C.__ubuf__(uint32_t, 16)
        buf.write(np.arange(16))
        C.asc_sync()
        C.asc_copy_ub2gm_align(gm, buf, 64)
        C.asc_copy_ub2gm_align(gm + 8, buf + 8, 32)

    raises_naming(SyncError, "asc_copy_ub2gm_align", "PIPE_MTE3 copy writes GM")(
        lambda: launch(gm_overlap, gm)
    )


def test_store_then_load_in_one_vf_needs_mem_bar() -> None:
    @C.__simd_vf__
    def vf(buf: UbPtr[uint32_t], barrier: bool) -> None:
        r, m = C.vector_uint32_t(), C.asc_create_mask_b32(C.PAT_ALL)
        C.asc_loadalign(r, buf)
        C.asc_storealign(buf + 64, r, m)
        if barrier:
            C.asc_mem_bar(C.VST_VLD)
        C.asc_loadalign(r, buf + 64)
        C.asc_storealign(buf, r, m)  # uses what the load read (unused, it is harmless)

    def body(barrier: bool) -> None:
        buf = C.__ubuf__(uint32_t, 128)
        buf.write(np.arange(64))
        C.asc_sync()
        vf(buf, barrier)

    raises_naming(SyncError, "asc_storealign", "after storing byte 0x100", "asc_mem_bar")(
        lambda: launch(body, False)
    )
    launch(body, True)
