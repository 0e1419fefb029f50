"""The Reg ``vector_add`` kernel on 4 blocks: GlobalTensor, LocalMemAllocator, DataCopy, asc_vf_call.

Each block adds its 2048-float slice of ``x`` and ``y`` in a ``__simd_vf__`` loop of
``Reg.LoadAlign`` / ``Reg.Add`` / ``Reg.StoreAlign`` under ``Reg.UpdateMask``.

Examples
--------
>>> from ascreg.examples import vector_add
>>> vector_add.main()
[Success] vector_add on 4 blocks (8192 floats) matches numpy.
True
"""

from __future__ import annotations

import numpy as np

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, float32_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    DataCopy,
    GetBlockIdx,
    GetBlockNum,
    GetVecLen,
    GlobalTensor,
    HardEvent,
    Hardware,
    InitSocState,
    LocalMemAllocator,
    PipeBarrier,
    SetFlag,
    WaitFlag,
    asc_vf_call,
)
from ascreg.machine.kernel import __global__, __simd_vf__, __vector__

BLOCKS = 4
TOTAL_LENGTH = 8192
BLOCK_LENGTH = TOTAL_LENGTH // BLOCKS


@__simd_vf__
def AddVF(z: UbPtr[float32_t], x: UbPtr[float32_t], y: UbPtr[float32_t], count: int) -> None:
    """``template <typename T> __simd_vf__ void AddVF(__ubuf__ T* z, ..., uint32_t count)``."""
    oneRepeatSize = GetVecLen() // float32_t.size
    repeatTimes = -(-count // oneRepeatSize)
    xReg = Reg.RegTensor[float32_t]()
    yReg = Reg.RegTensor[float32_t]()
    zReg = Reg.RegTensor[float32_t]()
    remaining = Ref(count)
    for i in range(repeatTimes):
        mask = Reg.UpdateMask[float32_t](remaining)
        Reg.LoadAlign(xReg, x + i * oneRepeatSize)
        Reg.LoadAlign(yReg, y + i * oneRepeatSize)
        Reg.Add(zReg, xReg, yReg, mask)
        Reg.StoreAlign(z + i * oneRepeatSize, zReg, mask)


@__global__
@__vector__
def add_custom(x: GmPtr[float32_t], y: GmPtr[float32_t], z: GmPtr[float32_t]) -> None:
    """``__global__ __vector__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)``."""
    InitSocState()
    blockLength = TOTAL_LENGTH // GetBlockNum()
    xGm, yGm, zGm = GlobalTensor[float32_t](), GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x + GetBlockIdx() * blockLength, blockLength)
    yGm.SetGlobalBuffer(y + GetBlockIdx() * blockLength, blockLength)
    zGm.SetGlobalBuffer(z + GetBlockIdx() * blockLength, blockLength)
    ubAllocator = LocalMemAllocator[Hardware.UB]()
    xLocal = ubAllocator.Alloc[float32_t, BLOCK_LENGTH]()
    yLocal = ubAllocator.Alloc[float32_t, BLOCK_LENGTH]()
    zLocal = ubAllocator.Alloc[float32_t, BLOCK_LENGTH]()
    DataCopy(xLocal, xGm, blockLength)
    DataCopy(yLocal, yGm, blockLength)
    SetFlag[HardEvent.MTE2_V](EVENT_ID0)
    WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
    asc_vf_call[AddVF](zLocal.GetPhyAddr(), xLocal.GetPhyAddr(), yLocal.GetPhyAddr(), blockLength)
    SetFlag[HardEvent.V_MTE3](EVENT_ID0)
    WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
    DataCopy(zGm, zLocal, blockLength)
    PipeBarrier[PIPE_ALL]()


def main() -> bool:
    """Host side: random inputs, launch ``add_custom<<<4, 0, stream>>>``, compare with numpy."""
    rng = np.random.default_rng(2026)
    x = rng.uniform(-100, 100, TOTAL_LENGTH).astype(np.float32)
    y = rng.uniform(-100, 100, TOTAL_LENGTH).astype(np.float32)
    z = np.zeros(TOTAL_LENGTH, dtype=np.float32)
    nbytes = TOTAL_LENGTH * float32_t.size
    acl.init(None)
    acl.rt.set_device(0)
    stream, _ = acl.rt.create_stream()
    xDevice, _ = acl.rt.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    zDevice, _ = acl.rt.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, nbytes, x, nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(yDevice, nbytes, y, nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    add_custom[BLOCKS, 0, stream](
        xDevice.cast(float32_t), yDevice.cast(float32_t), zDevice.cast(float32_t)
    )
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(z, nbytes, zDevice, nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    for ptr in (xDevice, yDevice, zDevice):
        acl.rt.free(ptr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(0)
    acl.finalize()
    ok = bool(np.array_equal(z.view(np.uint32), (x + y).view(np.uint32)))
    verdict = "[Success]" if ok else "[Failed]"
    print(f"{verdict} vector_add on {BLOCKS} blocks ({TOTAL_LENGTH} floats) matches numpy.")
    return ok
