"""Port of asc-devkit examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_move/move_reg_scenario_1.asc and move_reg_scenario_2.asc.

Line for line. Scenario 1 (``KernelScenario1<int32_t, 64, 32>``): ``MaskGenVF`` loads 64 int32
and turns the low 64 bits of the register into a b32-layout mask with Reg
``MaskGenWithRegTensor<T, 0>``, then stores the MaskReg (32 bytes). Scenario 2
(``KernelScenario2<float, 256, 32>``): ``SelectVF`` reads 8 mask bytes per repeat through an
unaligned load stream, makes a mask of them with ``MaskGenWithRegTensor`` and ``Select``\\ s x
or y. Inputs and goldens are made as scripts/gen_data.py makes them; scenario 1 is checked as
``CompareMaskResult`` (every byte), scenario 2 as ``CompareResult`` (``ae > 1e-4`` and ``re >
1e-4``, with ``re = ae / |b + 1e-4|``).

Differences from the C++: scenario 2's ``maskLocal`` holds 32 floats (128 bytes), but each
``LoadUnAlign`` reads a whole register from ``maskAddr + 2 i``: up to 142 bytes past the array;
ascreg rejects that read, so the port allocates :data:`MASK_SLACK` more floats. Its host side
reads 128 mask bytes from a 32-byte file (the rest is whatever the host buffer held); the port
zero-fills them. And the mask stream advances 8 bytes per ``LoadUnAlign`` while each load
consumes a whole register: ascreg's unaligned-stream model calls the next load undefined (the
``UnalignRegForLoad`` holds the block after the register, not the block of the new address), so
scenario 2 runs under ``policy(undefined="warn")``; the result then matches the golden.
"""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GmPtr, PostLiteral, Ref, Reg, UbPtr, acl, float32_t, int32_t, policy, uint8_t
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

POST = PostLiteral.POST_MODE_UPDATE
MASK_SLACK = 48
"""Floats allocated past scenario 2's ``maskLocal`` (not in the C++): its unaligned loads reach
them."""


def DivCeil(a: int, b: int) -> int:
    return (a + b - 1) // b


# ---- scenario 1 -------------------------------------------------------------------------------


@__simd_vf__
def MaskGenVF(condAddr: UbPtr[int32_t], maskOutAddr: UbPtr[uint8_t]) -> None:
    condReg = Reg.RegTensor[int32_t]()
    maskReg = Reg.MaskReg()
    Reg.LoadAlign(condReg, condAddr)
    Reg.MaskGenWithRegTensor[int32_t, 0](maskReg, condReg)
    Reg.StoreAlign(maskOutAddr, maskReg)


class KernelScenario1:  # KernelScenario1<int32_t, totalLength, maskOutSize>
    def Init(self, cond: GmPtr[uint8_t], maskOut: GmPtr[uint8_t]) -> None:
        self.condGm, self.maskOutGm = GlobalTensor[int32_t](), GlobalTensor[uint8_t]()
        self.condGm.SetGlobalBuffer(cond.cast(int32_t))
        self.maskOutGm.SetGlobalBuffer(maskOut.cast(uint8_t))

    def Process(self, totalLength: int, maskOutSize: int) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        condLocal = ubAllocator.Alloc[int32_t](totalLength)
        maskOutLocal = ubAllocator.Alloc[uint8_t](maskOutSize)
        DataCopy(condLocal, self.condGm, totalLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        condAddr, maskOutAddr = condLocal.GetPhyAddr(), maskOutLocal.GetPhyAddr()
        asc_vf_call[MaskGenVF](condAddr, maskOutAddr)
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        DataCopy(self.maskOutGm, maskOutLocal, maskOutSize)


@__global__
@__vector__
def move_reg_scenario_1(cond: GmPtr[uint8_t], maskOut: GmPtr[uint8_t]) -> None:
    InitSocState()
    kernel = KernelScenario1()
    kernel.Init(cond, maskOut)
    kernel.Process(64, 32)
    PipeBarrier[PIPE_ALL]()


# ---- scenario 2 -------------------------------------------------------------------------------


@__simd_vf__
def SelectVF(xAddr: UbPtr[float32_t], yAddr: UbPtr[float32_t], maskAddr: UbPtr[float32_t], zAddr: UbPtr[float32_t], repeatTimes: int, oneRepeatSize: int, maskRepeatSize: int) -> None:  # fmt: skip
    x, y, m, z = Ref(xAddr), Ref(yAddr), Ref(maskAddr), Ref(zAddr)  # the advanced parameters
    xReg = Reg.RegTensor[float32_t]()
    yReg = Reg.RegTensor[float32_t]()
    mReg = Reg.RegTensor[float32_t]()
    maskReg = Reg.CreateMask[float32_t]()
    ureg = Reg.UnalignRegForLoad()
    zReg = Reg.RegTensor[float32_t]()
    storeMask = Reg.CreateMask[float32_t, Reg.MaskPattern.ALL]()
    Reg.LoadUnAlignPre(ureg, m)
    for _ in range(repeatTimes):
        Reg.LoadAlign[float32_t, POST](xReg, x, oneRepeatSize)
        Reg.LoadAlign[float32_t, POST](yReg, y, oneRepeatSize)
        Reg.LoadUnAlign(mReg, ureg, m, maskRepeatSize)
        Reg.MaskGenWithRegTensor[float32_t, 0](maskReg, mReg)
        Reg.Select(zReg, xReg, yReg, maskReg)
        Reg.StoreAlign[float32_t, POST](z, zReg, oneRepeatSize, storeMask)


class KernelScenario2:  # KernelScenario2<float, totalLength, maskLength>
    def Init(self, x: GmPtr[uint8_t], y: GmPtr[uint8_t], mask: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:  # fmt: skip
        self.xGm, self.yGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
        self.maskGm, self.zGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
        self.xGm.SetGlobalBuffer(x.cast(float32_t))
        self.yGm.SetGlobalBuffer(y.cast(float32_t))
        self.maskGm.SetGlobalBuffer(mask.cast(float32_t))
        self.zGm.SetGlobalBuffer(z.cast(float32_t))

    def Process(self, totalLength: int, maskLength: int) -> None:
        ubAllocator = LocalMemAllocator[Hardware.UB]()
        xLocal = ubAllocator.Alloc[float32_t](totalLength)
        yLocal = ubAllocator.Alloc[float32_t](totalLength)
        maskLocal = ubAllocator.Alloc[float32_t](maskLength + MASK_SLACK)
        zLocal = ubAllocator.Alloc[float32_t](totalLength)
        DataCopy(xLocal, self.xGm, totalLength)
        DataCopy(yLocal, self.yGm, totalLength)
        DataCopy(maskLocal, self.maskGm, maskLength)
        SetFlag[HardEvent.MTE2_V](EVENT_ID0)
        WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
        xAddr, yAddr = xLocal.GetPhyAddr(), yLocal.GetPhyAddr()
        maskAddr, zAddr = maskLocal.GetPhyAddr(), zLocal.GetPhyAddr()
        oneRepeatSize = GetVecLen() // float32_t.size
        maskRepeatSize = oneRepeatSize // (float32_t.size * 8)
        repeatTimes = DivCeil(totalLength, oneRepeatSize)
        asc_vf_call[SelectVF](xAddr, yAddr, maskAddr, zAddr, repeatTimes, oneRepeatSize, maskRepeatSize)  # fmt: skip
        SetFlag[HardEvent.V_MTE3](EVENT_ID0)
        WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
        DataCopy(self.zGm, zLocal, totalLength)


@__global__
@__vector__
def move_reg_scenario_2(x: GmPtr[uint8_t], y: GmPtr[uint8_t], mask: GmPtr[uint8_t], z: GmPtr[uint8_t]) -> None:  # fmt: skip
    InitSocState()
    kernel = KernelScenario2()
    kernel.Init(x, y, mask, z)
    kernel.Process(256, 32)
    PipeBarrier[PIPE_ALL]()


# ---- host side --------------------------------------------------------------------------------


def _run(kernel: object, inputs: list[np.ndarray], out_bytes: int) -> np.ndarray:
    """aclInit .. aclFinalize around one launch on one block: copy in, run, copy out."""
    acl.init(None)
    deviceId = 0
    acl.rt.set_device(deviceId)
    stream, _ = acl.rt.create_stream()
    devices = []
    for host in inputs:
        device, _ = acl.rt.malloc(host.nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        acl.rt.memcpy(device, host.nbytes, host, host.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
        devices.append(device)
    outDevice, _ = acl.rt.malloc(out_bytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    kernel[1, 0, stream](*devices, outDevice)  # type: ignore[index]
    acl.rt.synchronize_stream(stream)
    outHost = np.zeros(out_bytes, dtype=np.uint8)
    acl.rt.memcpy(outHost, out_bytes, outDevice, out_bytes, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    for device in [*devices, outDevice]:
        acl.rt.free(device)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(deviceId)
    acl.finalize()
    return outHost


def CompareMaskResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    return int(np.count_nonzero(outputData != goldenData)) == 0


def CompareResult(outputData: np.ndarray, goldenData: np.ndarray) -> bool:
    EPS = np.float32(1e-4)
    a, b = outputData.astype(np.float32), goldenData.reshape(-1).astype(np.float32)
    ae = np.abs(a - b)
    re = ae / np.abs(b + EPS)
    return int(np.count_nonzero((ae > EPS) & (re > EPS))) == 0


def gen_data_1() -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py scenario 1: cond[0] = 1, cond[1] = ~0; each of the 64 low bits x4."""
    cond = np.zeros([1, 64], dtype=np.uint32)
    cond[0, 0] = 0x00000001
    cond[0, 1] = 0xFFFFFFFF
    src_bytes = cond.flatten().view(np.uint8)[0:8]
    src_bits = [(int(byte) >> bit) & 1 for byte in src_bytes for bit in range(8)]
    mask_bytes = [0] * 32
    for src_bit_idx in range(64):
        for j in range(4):
            mask_bit_idx = src_bit_idx * 4 + j
            if src_bits[src_bit_idx]:
                mask_bytes[mask_bit_idx // 8] |= 1 << (mask_bit_idx % 8)
    return cond.flatten(), np.array(mask_bytes, dtype=np.uint8)


def gen_data_2(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py scenario 2: x, y uniform in [0, 2); 32 random mask bytes."""
    rng = np.random.default_rng(seed)
    total_length = 256
    mask_length = total_length // 8 // 4
    x = rng.uniform(0, 2, [1, total_length]).astype(np.float32)
    y = rng.uniform(0, 2, [1, total_length]).astype(np.float32)
    mask = rng.integers(0, 255, [1, mask_length * 4]).astype(np.uint8)
    golden = np.zeros([1, total_length]).astype(np.float32)
    for i in range(total_length):
        mask_i = (mask[0, i // 8] >> (i % 8)) & 1
        golden[0, i] = x[0, i] if mask_i == 1 else y[0, i]
    return x.flatten(), y.flatten(), mask.flatten(), golden


def test_move_reg_scenario_1_matches_the_golden() -> None:
    cond, golden = gen_data_1()
    assert CompareMaskResult(_run(move_reg_scenario_1, [cond], 32), golden)
    assert not CompareMaskResult(_run(move_reg_scenario_1, [cond[::-1].copy()], 32), golden)


@pytest.mark.parametrize("seed", [0, 1])
def test_move_reg_scenario_2_matches_the_golden(seed: int) -> None:
    x, y, mask, golden = gen_data_2(seed)
    mask_host = np.zeros(32 * 4, dtype=np.uint8)  # maskByteSize = 128; the file has 32
    mask_host[: mask.size] = mask
    with policy(undefined="warn"), pytest.warns(UserWarning, match="UnalignRegForLoad holds"):
        z = _run(move_reg_scenario_2, [x, y, mask_host], 256 * 4).view(np.float32)
    assert CompareResult(z, golden)
    assert not CompareResult(z, np.where(golden == x, y, x))  # the other choice everywhere
