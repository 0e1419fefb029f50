"""A basic-API kernel from scratch: each block doubles its slice of ``x`` into ``z``.

The shape of most Ascend C kernels: the kernel body (scalar code, ``__global__ __vector__``) wraps
its GM slice in ``GlobalTensor``, copies it into UB with ``DataCopy`` (pipe MTE2), orders the
pipes with ``SetFlag`` / ``WaitFlag``, runs a ``__simd_vf__`` on the UB data (pipe V) and copies
the result out (MTE3). The host copies tensors in and out with ``acl.to_device`` /
``acl.from_device``. The "Getting started with ascreg.basic" docs page walks through it.

Examples
--------
>>> from ascreg.examples import scale
>>> scale.main()
[Success] scale on 4 blocks (4096 floats) matches numpy.
True
"""

from __future__ import annotations

import numpy as np

from ascreg import VL, GmPtr, Ref, Reg, UbPtr, acl, float32_t
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

BLOCKS = 4
BLOCK_LENGTH = 1024


@__simd_vf__
def scale_vf(dst: UbPtr[float32_t], src: UbPtr[float32_t], count: int) -> None:
    """``__simd_vf__ void scale_vf(__ubuf__ float* dst, __ubuf__ float* src, uint32_t count)``."""
    lanes = VL // float32_t.size  # 64 lanes of 4 bytes in a 256-byte register
    reg, twice = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    remaining = Ref(count)  # uint32_t count, which UpdateMask counts down
    for i in range(-(-count // lanes)):
        mask = Reg.UpdateMask[float32_t](remaining)
        Reg.LoadAlign(reg, src + i * lanes)
        Reg.Add(twice, reg, reg, mask)
        Reg.StoreAlign(dst + i * lanes, twice, mask)


@__global__
@__vector__
def scale_kernel(x: GmPtr[float32_t], z: GmPtr[float32_t], block_length: int) -> None:
    """``__global__ __vector__ void scale_kernel(GM_ADDR x, GM_ADDR z, uint32_t blockLength)``."""
    xGm, zGm = GlobalTensor[float32_t](), GlobalTensor[float32_t]()
    xGm.SetGlobalBuffer(x + GetBlockIdx() * block_length, block_length)
    zGm.SetGlobalBuffer(z + GetBlockIdx() * block_length, block_length)
    ub = LocalMemAllocator[Hardware.UB]()
    xLocal = ub.Alloc[float32_t](block_length)
    zLocal = ub.Alloc[float32_t](block_length)
    DataCopy(xLocal, xGm, block_length)  # MTE2: GM -> UB
    SetFlag[HardEvent.MTE2_V](EVENT_ID0)  # V waits for the copy in
    WaitFlag[HardEvent.MTE2_V](EVENT_ID0)
    asc_vf_call[scale_vf](zLocal.GetPhyAddr(), xLocal.GetPhyAddr(), block_length)
    SetFlag[HardEvent.V_MTE3](EVENT_ID0)  # MTE3 waits for the VF
    WaitFlag[HardEvent.V_MTE3](EVENT_ID0)
    DataCopy(zGm, zLocal, block_length)  # MTE3: UB -> GM


def main() -> bool:
    """Host side: copy ``x`` in, launch ``scale_kernel<<<4, 0>>>``, copy ``z`` out, compare."""
    x = np.random.default_rng(30).uniform(-100, 100, BLOCKS * BLOCK_LENGTH).astype(np.float32)
    acl.init()
    acl.rt.set_device(0)
    px, pz = acl.to_device(x), acl.to_device(np.zeros_like(x))
    scale_kernel[BLOCKS, 0, None](px, pz, BLOCK_LENGTH)
    z = acl.from_device(pz, like=x)
    acl.rt.reset_device(0)
    acl.finalize()
    ok = bool(np.array_equal(z, x * 2))
    print(
        f"{'[Success]' if ok else '[Failed]'} scale on {BLOCKS} blocks ({x.size} floats) matches numpy."
    )
    return ok
