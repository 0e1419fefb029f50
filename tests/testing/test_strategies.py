"""ascreg.testing.strategies drive one test per surface: Reg, C API, SIMT, basic, acl.

Each test checks a kernel or op against a numpy golden with ``assert_lanes_equal``, the way the
"Testing your kernel" docs page shows a user doing it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GmPtr, Ref, Reg, UbPtr, acl, float32_t, int8_t, int32_t, uint16_t, uint32_t
from ascreg.basic import (
    EVENT_ID0,
    DataCopy,
    GetBlockIdx,
    GlobalTensor,
    HardEvent,
    Hardware,
    LocalMemAllocator,
    SetFlag,
    WaitFlag,
    asc_vf_call,
)
from ascreg.machine.kernel import __global__, __simd_vf__, __vector__
from ascreg.simt import __byte_perm, __simt_vf__, blockDim, blockIdx, dim3, threadIdx
from ascreg.testing import assert_lanes_equal
from ascreg.testing.strategies import (
    LaunchShape,
    arrays,
    dtypes,
    gm_buffers,
    launch_shapes,
    mask_lanes,
    masks,
    registers,
    special_bits,
    ub_buffers,
)

FEW = settings(max_examples=12, deadline=None)


@FEW
@given(st.data(), st.sampled_from([int8_t, uint16_t, int32_t]))
def test_reg_add_wraps_and_zeroes_masked_off_lanes(data: Any, dtype: Any) -> None:
    a, b = data.draw(registers(dtype)), data.draw(registers(dtype))
    mask = data.draw(masks(dtype))
    out = Reg.RegTensor[dtype]()
    Reg.Add(out, a, b, mask)
    golden = np.where(mask_lanes(mask, dtype), np.asarray(a) + np.asarray(b), 0)
    assert_lanes_equal(out, golden.astype(dtype.np_dtype))


@FEW
@given(st.data())
def test_c_api_asc_mul_matches_numpy_float32(data: Any) -> None:
    x, y = data.draw(arrays(float32_t, 64)), data.draw(arrays(float32_t, 64))
    a, b, out = C.vector_float(), C.vector_float(), C.vector_float()
    a.set(x)
    b.set(y)
    C.asc_mul(out, a, b, C.asc_create_mask_b32(C.PAT_ALL))
    with np.errstate(all="ignore"):
        assert_lanes_equal(out, x * y)


THREADS = 32


@__simt_vf__
def vf_byte_perm(dst: Any, x: Any, y: Any, s: Any) -> None:
    idx = threadIdx.x + blockIdx.x * blockDim.x
    dst[idx] = __byte_perm(x[idx], y[idx], s[idx])


@__global__
@__vector__
def byte_perm_kernel(
    dst: GmPtr[uint32_t], x: GmPtr[uint32_t], y: GmPtr[uint32_t], s: GmPtr[uint32_t]
) -> None:
    C.asc_vf_call[vf_byte_perm](dim3(THREADS), dst, x, y, s)


def byte_perm_golden(
    x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], s: np.ndarray[Any, Any]
) -> Any:
    """``__byte_perm``: result byte i is byte (s >> 4i) & 7 of the 8 bytes y:x."""
    pool = (y.astype(np.uint64) << np.uint64(32)) | x.astype(np.uint64)
    out = np.zeros_like(x)
    for i in range(4):
        pick = ((s >> np.uint32(4 * i)) & np.uint32(7)).astype(np.uint64)
        byte = (pool >> (pick * np.uint64(8))) & np.uint64(0xFF)
        out |= (byte << np.uint64(8 * i)).astype(np.uint32)
    return out


@FEW
@given(st.data())
def test_simt_byte_perm_kernel_over_gm_buffers(data: Any) -> None:
    x, y, s = (data.draw(gm_buffers(uint32_t, THREADS)) for _ in range(3))
    dst = x.memory.alloc(uint32_t, THREADS)
    byte_perm_kernel[1, 0, None](dst, x, y, s)
    golden = byte_perm_golden(x.read(THREADS), y.read(THREADS), s.read(THREADS))
    assert_lanes_equal(dst, golden)


@__simd_vf__
def double_vf(dst: UbPtr[float32_t], src: UbPtr[float32_t], count: int) -> None:
    lanes = 256 // float32_t.size
    reg, twice = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    remaining = Ref(count)
    for i in range(-(-count // lanes)):
        mask = Reg.UpdateMask[float32_t](remaining)
        Reg.LoadAlign(reg, src + i * lanes)
        Reg.Add(twice, reg, reg, mask)
        Reg.StoreAlign(dst + i * lanes, twice, mask)


@__global__
@__vector__
def double_kernel(x: GmPtr[float32_t], z: GmPtr[float32_t], block_length: int) -> None:
    xGm, zGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x + GetBlockIdx() * block_length, block_length)
    zGm.SetGlobalBuffer(z + GetBlockIdx() * block_length, block_length)
    ub = LocalMemAllocator[Hardware.UB]()
    xLocal, zLocal = ub.Alloc[float32_t](block_length), ub.Alloc[float32_t](block_length)
    DataCopy(xLocal, xGm, block_length)
    SetFlag[HardEvent.MTE2_V](EVENT_ID0)
    WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
    asc_vf_call[double_vf](zLocal.GetPhyAddr(), xLocal.GetPhyAddr(), block_length)
    SetFlag[HardEvent.V_MTE3](EVENT_ID0)
    WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
    DataCopy(zGm, zLocal, block_length)


@settings(max_examples=8, deadline=None)
@given(st.data(), launch_shapes(float32_t, max_blocks=4, max_block_bytes=2048, tails=False))
def test_basic_kernel_over_launch_shapes(data: Any, shape: LaunchShape) -> None:
    x = data.draw(gm_buffers(float32_t, shape.total, aligned=True))
    z = x.memory.alloc(float32_t, shape.total)
    double_kernel[shape.blocks, 0, None](x, z, shape.block_length)
    with np.errstate(all="ignore"):
        assert_lanes_equal(z, x.read(shape.total) * np.float32(2))


@settings(max_examples=25, deadline=None)
@given(st.data(), dtypes(kinds=("int", "uint", "float", "bool")))
def test_acl_round_trip_keeps_every_bit(data: Any, dtype: Any) -> None:
    values = data.draw(arrays(dtype, 48))
    acl.finalize()
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    try:
        back = acl.from_device(acl.to_device(values), like=values)
    finally:
        acl.rt.reset_device(0)
        acl.finalize()
    assert_lanes_equal(back.view(f"u{dtype.size}"), values.view(f"u{dtype.size}"))


@FEW
@given(st.data(), st.sampled_from([uint16_t, float32_t]), st.booleans())
def test_ub_buffers_are_aligned_as_asked(data: Any, dtype: Any, aligned: bool) -> None:
    ptr = data.draw(ub_buffers(dtype, 20, aligned=aligned))
    assert (ptr.address % 32 == 0) is aligned
    assert ptr.read(20).dtype == dtype.np_dtype


def test_special_bits_cover_the_float_edges() -> None:
    bits = special_bits(float32_t)
    for pattern in (0x0, 0x80000000, 0x7F800000, 0x7FC00000, 0x1, 0x7FFFFF, 0x800000):
        assert pattern in bits
