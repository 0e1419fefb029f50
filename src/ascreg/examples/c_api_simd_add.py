"""asc-devkit ``examples/02_simd_c_api/00_introduction/04_reg_base_add_compute/c_api_simd_add/c_api_add.asc``, line for line.

The register-based "hello add" of the C API: 8 blocks of 2048 floats, each copied in on MTE2,
added by ``add_vf`` (``asc_load``, ``asc_add`` under an ``asc_update_mask_b32`` tail mask,
``asc_store``) on V and copied out on MTE3, the three stages ordered by ``asc_lock`` /
``asc_unlock`` of one mutex instead of flags. The host makes ``x[i] = y[i] = i * 0.1f`` and the
golden ``x[i] + y[i]`` in float, and compares with ``std::equal``.

Differences from the C++: ``asc_update_mask_b32(data_len)`` updates its ``uint32_t&``
argument, so the VF keeps ``data_len`` in a :class:`~ascreg.Ref`; the host returns the
comparison instead of printing both tensors.

Examples
--------
>>> main()
[Success] C API register-based add (asc-devkit c_api_simd_add, 8 x 2048 float32) matches the golden.
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GmPtr, Ref, UbPtr, acl, float32_t, uint16_t
from ascreg.c_api import (
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_add,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_get_vf_len,
    asc_init,
    asc_load,
    asc_load_l2_cache_mode,
    asc_lock,
    asc_store,
    asc_store_l2_cache_mode,
    asc_unlock,
    asc_update_mask_b32,
    block_idx,
    vector_bool,
    vector_float,
)

Arr = np.ndarray[Any, Any]

TOTAL_LENGTH = 8 * 2048
NUM_BLOCKS = 8
BLK_NUM = 1


@__simd_vf__
def add_vf(
    x_local: UbPtr[float32_t], y_local: UbPtr[float32_t], z_local: UbPtr[float32_t], data_len: int
) -> None:
    """``add_vf``: ``z = x + y`` one register a repeat, the last repeat under a tail mask."""
    one_rep_size = uint16_t(asc_get_vf_len() // float32_t.size)
    repeat_time = uint16_t((data_len + one_rep_size - 1) // one_rep_size)

    remaining = Ref(data_len)  # uint32_t& of asc_update_mask_b32
    vmask = vector_bool()
    reg_src0 = vector_float()
    reg_src1 = vector_float()
    reg_dst = vector_float()
    for i in range(repeat_time):
        vmask = asc_update_mask_b32(remaining)
        asc_load(reg_src0, x_local + i * one_rep_size)
        asc_load(reg_src1, y_local + i * one_rep_size)
        asc_add(reg_dst, reg_src0, reg_src1, vmask)
        asc_store(z_local + i * one_rep_size, reg_dst)


@__global__
@__vector__
def add_custom(x: GmPtr[float32_t], y: GmPtr[float32_t], z: GmPtr[float32_t]) -> None:
    """``add_custom``: copy in, add, copy out, each stage under mutex 1 on its pipe."""
    asc_init()

    block_length = TOTAL_LENGTH // NUM_BLOCKS
    mutex_id = 1

    x_gm = x + block_idx * block_length
    y_gm = y + block_idx * block_length
    z_gm = z + block_idx * block_length

    x_local = __ubuf__(float32_t, block_length)
    y_local = __ubuf__(float32_t, block_length)
    z_local = __ubuf__(float32_t, block_length)

    burst_length = block_length * 4
    src_stride = 0
    dst_stride = 0

    asc_lock(PIPE_MTE2, mutex_id)
    asc_copy_gm2ub_align(
        x_local, x_gm, BLK_NUM, burst_length, 0, 0, True, asc_load_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_copy_gm2ub_align(
        y_local, y_gm, BLK_NUM, burst_length, 0, 0, True, asc_load_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_unlock(PIPE_MTE2, mutex_id)

    asc_lock(PIPE_V, mutex_id)
    add_vf(x_local, y_local, z_local, block_length)
    asc_unlock(PIPE_V, mutex_id)

    asc_lock(PIPE_MTE3, mutex_id)
    asc_copy_ub2gm_align(
        z_gm, z_local, BLK_NUM, burst_length, asc_store_l2_cache_mode.NORMAL_FIRST_VICTIM,
        src_stride, dst_stride,
    )  # fmt: skip
    asc_unlock(PIPE_MTE3, mutex_id)


def kernel_add(x: Arr, y: Arr) -> Arr:
    """Run the host side: copy in, launch ``add_custom<<<8, 0>>>``, copy out."""
    num_blocks = NUM_BLOCKS
    total_length = x.size
    total_byte_size = total_length * float32_t.size
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)

    z_host, _ = acl.rt.malloc_host(total_byte_size)
    x_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    y_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    z_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(x_device, total_byte_size, x, total_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(y_device, total_byte_size, y, total_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)

    add_custom[num_blocks, 0](
        x_device.cast(float32_t), y_device.cast(float32_t), z_device.cast(float32_t)
    )
    acl.rt.synchronize_device()

    acl.rt.memcpy(z_host, total_byte_size, z_device, total_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    z: Arr = z_host.view(np.float32).copy()

    acl.rt.free(x_device)
    acl.rt.free(y_device)
    acl.rt.free(z_device)
    acl.rt.free_host(z_host)

    acl.rt.reset_device(device_id)
    acl.finalize()

    return z


def verify_result(output: Arr, golden: Arr) -> bool:
    """``verify_result``: ``std::equal`` of the golden and the output."""
    return bool(np.array_equal(golden, output))


def main() -> bool:
    """Make ``x[i] = y[i] = i * 0.1f`` and the golden ``x[i] + y[i]``, run, compare (``main``)."""
    total_length = TOTAL_LENGTH
    i = np.arange(total_length)
    x = (i.astype(np.float32) * np.float32(0.1)).astype(np.float32)  # i * 0.1f in float
    y = (i.astype(np.float32) * np.float32(0.1)).astype(np.float32)
    output = kernel_add(x, y)
    golden = (x + y).astype(np.float32)
    ok = verify_result(output, golden)
    verdict = "[Success]" if ok else "[Failed]"
    print(
        f"{verdict} C API register-based add (asc-devkit c_api_simd_add, 8 x 2048 float32) "
        "matches the golden."
    )
    return ok
