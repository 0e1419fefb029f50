"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute/select/select.asc.

Line for line: ``SelectVF`` loads ``x``, ``y`` and a 32-byte mask per 256-byte repeat with
``PostLiteral::POST_MODE_UPDATE`` loads (the mask through ``LoadAlign<uint8_t, ...>`` into a
``MaskReg``) and writes Reg ``Select(zReg, xReg, yReg, mask)``. Inputs are made as
scripts/gen_data.py makes them: ``x``, ``y`` float32 uniform in [0, 2) of shape [1, 256], a
128-byte mask ``randint(0, 255)``, and the golden picked bit by bit (for b32 every fourth mask
bit, two lanes per byte); checked with the example's ``CompareResult`` (absolute and relative
error both above 1e-4 fails an element).
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, Ref, Reg, UbPtr, acl, float32_t, uint8_t
from ascreg.basic import (
    EVENT_ID0,
    PIPE_ALL,
    DataCopy,
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
from example_checks import CompareResult


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


totalLength = 256  # the kernel's constexprs, passed as Kernel<float, totalLength, maskLength>
maskLength = 128
T = float32_t


@__simd_vf__
def SelectVF(
    xAddr: UbPtr[float32_t],
    yAddr: UbPtr[float32_t],
    maskAddr: UbPtr[uint8_t],
    zAddr: UbPtr[float32_t],
    repeatTimes: int,
    oneRepeatSize: int,
    maskRepeatSize: int,
) -> None:
    xReg = Reg.RegTensor[T]()
    yReg = Reg.RegTensor[T]()
    mask = Reg.CreateMask[T]()
    zReg = Reg.RegTensor[T]()
    storeMask = Reg.CreateMask[T, Reg.MaskPattern.ALL]()
    x, y, m, z = Ref(xAddr), Ref(yAddr), Ref(maskAddr), Ref(zAddr)  # passed by reference
    for _ in range(repeatTimes):
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](xReg, x, oneRepeatSize)
        Reg.LoadAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](yReg, y, oneRepeatSize)
        Reg.LoadAlign[uint8_t, Reg.PostLiteral.POST_MODE_UPDATE](mask, m, maskRepeatSize)
        Reg.Select(zReg, xReg, yReg, mask)
        Reg.StoreAlign[T, Reg.PostLiteral.POST_MODE_UPDATE](z, zReg, oneRepeatSize, storeMask)


class Kernel:
    def Init(
        self, x: GmPtr[uint8_t], y: GmPtr[uint8_t], mask: GmPtr[uint8_t], z: GmPtr[uint8_t]
    ) -> None:
        self.xGm = GlobalTensor[T]()
        self.yGm = GlobalTensor[T]()
        self.maskGm = GlobalTensor[uint8_t]()
        self.zGm = GlobalTensor[T]()
        self.xGm.SetGlobalBuffer(x.cast(T))
        self.yGm.SetGlobalBuffer(y.cast(T))
        self.maskGm.SetGlobalBuffer(mask.cast(uint8_t))
        self.zGm.SetGlobalBuffer(z.cast(T))

    def Process(self) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[T, totalLength]()
        yLocal = ubAllocator.Alloc[T, totalLength]()
        maskLocal = ubAllocator.Alloc[uint8_t, maskLength]()
        zLocal = ubAllocator.Alloc[T, totalLength]()

        DataCopy(xLocal, self.xGm, totalLength)
        DataCopy(yLocal, self.yGm, totalLength)
        DataCopy(maskLocal, self.maskGm, maskLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)

        xAddr = xLocal.GetPhyAddr()
        yAddr = yLocal.GetPhyAddr()
        maskAddr = maskLocal.GetPhyAddr()
        zAddr = zLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // T.size
        maskRepeatSize = GetVecLen() // 8
        repeatTimes = DivCeil(totalLength, oneRepeatSize)
        asc_vf_call[SelectVF](
            xAddr, yAddr, maskAddr, zAddr, repeatTimes, oneRepeatSize, maskRepeatSize
        )

        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)

        DataCopy(self.zGm, zLocal, totalLength)


@__global__
@__vector__
def select(x: GmPtr[uint8_t], y: GmPtr[uint8_t], mask: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:
    InitSocState()
    kernel = Kernel()
    kernel.Init(x, y, mask, z)
    kernel.Process()
    PipeBarrier[PIPE_ALL]()


def main(xHost: np.ndarray, yHost: np.ndarray, maskHost: np.ndarray) -> np.ndarray:
    numBlocks = 1
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    totalLength = 256
    maskLength = 128
    inputByteSize = 1 * totalLength * float32_t.size
    maskByteSize = 1 * maskLength * uint8_t.size
    outputByteSize = 1 * totalLength * float32_t.size
    zHost = np.zeros(totalLength, dtype=np.float32)
    xDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    yDevice, _ = acl.rt.malloc(inputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    maskDevice, _ = acl.rt.malloc(maskByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    zDevice, _ = acl.rt.malloc(outputByteSize, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(xDevice, inputByteSize, xHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(yDevice, inputByteSize, yHost, inputByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(maskDevice, maskByteSize, maskHost, maskByteSize, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    select[numBlocks, 0, stream](xDevice, yDevice, maskDevice, zDevice)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(zHost, outputByteSize, zDevice, outputByteSize, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    acl.rt.free(xDevice)
    acl.rt.free(yDevice)
    acl.rt.free(maskDevice)
    acl.rt.free(zDevice)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return zHost


def gen_golden_data_simple(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py: x, y uniform in [0, 2); mask bytes randint(0, 255); golden by bit."""
    total_length = 256
    data_type = np.float32
    dtype_size = np.dtype(data_type).itemsize
    repeat = total_length // (256 // dtype_size)
    mask_length = repeat * 32
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 2, [1, total_length]).astype(data_type)
    y = rng.uniform(0, 2, [1, total_length]).astype(data_type)
    mask = rng.integers(0, 255, [1, mask_length]).astype(np.uint8)
    golden = np.zeros([1, total_length]).astype(data_type)

    mask_num = 8 // dtype_size
    for i in range(total_length):
        mask_i = mask[0, i // mask_num] >> (i % mask_num * dtype_size) & 1
        golden[0, i] = x[0, i] if mask_i == 1 else y[0, i]
    return x, y, mask, golden


@pytest.mark.parametrize("seed", [0, 1])
def test_select_matches_the_golden(seed: int) -> None:
    x, y, mask, golden = gen_golden_data_simple(seed)
    assert CompareResult(main(x.reshape(-1), y.reshape(-1), mask.reshape(-1)), golden)


def test_select_check_rejects_a_flipped_mask_bit() -> None:
    x, y, mask, golden = gen_golden_data_simple(2)
    mask[0, 70] ^= 1 << 4  # lane 141 now selects the other source than the golden's
    assert not CompareResult(main(x.reshape(-1), y.reshape(-1), mask.reshape(-1)), golden)
