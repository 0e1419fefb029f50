"""Port of asc-devkit examples/02_simd_c_api/03_c_api/00_data_movement/reg_load_store_mask/reg_load_store_mask.asc.

Line for line, both scenarios of the compile-time ``SCENARIO_NUM`` (here the module global
``scenarioNum``, set per test):

1. ``load_store_mask_register``: zero the 1024-byte output, load a ``vector_bool`` from the
   input bytes (``asc_loadalign`` through a ``uint32_t*``), ``asc_duplicate_scalar`` 2 under it,
   store the result under it, and store the all-true mask itself (``asc_storealign`` of a
   ``vector_bool``) one register further on;
2. ``select_with_mask_register``: ``asc_select`` between two float streams under masks loaded
   from a 128-byte mask stream with ``asc_loadalign_postupdate``, 32 bytes per repeat.

Inputs and goldens are made as scripts/gen_data.py makes them (scenario 1: bytes 0 and 31 set,
golden 2 at bytes 0 and 248 and 255 at 256..287; scenario 2: two ``linspace`` streams, mask
bytes ``arange(128)``, each float lane reading bit ``4 * lane`` of the mask stream) and checked
as scripts/verify_result.py checks them: the output's bytes equal to the golden's. ``main``'s
``check_acl_status`` / ``goto cleanup`` error path is left out (ascreg's ``acl`` raises).

The example confirms ascreg's rule for the ``vector_bool`` post-update (``c_api.datamove``): the
offset counts bytes whatever the pointer type, here ``mask_bytes_per_vf = 32`` on a
``uint32_t*``; counted in uint32 elements the second repeat would leave the 128-byte mask.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from ascreg import GmPtr, Ref, UbPtr, acl, float32_t, uint8_t, uint32_t
from ascreg.c_api import (
    EVENT_ID0,
    PAT_ALL,
    PIPE_ALL,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_V,
    __aicore__,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub,
    asc_copy_ub2gm,
    asc_create_mask_b8,
    asc_create_mask_b32,
    asc_duplicate_scalar,
    asc_get_vf_len,
    asc_init,
    asc_loadalign,
    asc_loadalign_postupdate,
    asc_select,
    asc_storealign,
    asc_storealign_postupdate,
    asc_sync_notify,
    asc_sync_pipe,
    asc_sync_wait,
    asc_vf_call,
    vector_bool,
    vector_float,
    vector_uint8_t,
)

scenarioNum = 1  # SCENARIO_NUM, a compile-time define in the example
SCENARIO1_LENGTH = 1024
SCENARIO2_LENGTH = 256
SCENARIO2_MASK_LENGTH = 128


@__aicore__
def ceil_division(numerator: int, denominator: int) -> int:
    return (numerator + denominator - 1) // denominator


@__simd_vf__
def load_store_mask_register(dst: UbPtr[uint8_t], src: UbPtr[uint8_t], repeat_times: int, one_repeat_size: int) -> None:  # fmt: skip
    input_mask = vector_bool()
    zero_reg = vector_uint8_t()
    result_reg = vector_uint8_t()
    all_mask = asc_create_mask_b8(PAT_ALL)
    asc_duplicate_scalar(zero_reg, uint8_t(0), all_mask)
    for i in range(repeat_times):
        asc_storealign(dst + i * one_repeat_size, zero_reg, all_mask)
    asc_loadalign(input_mask, src.cast(uint32_t))
    asc_duplicate_scalar(result_reg, uint8_t(2), input_mask)
    asc_storealign(dst, result_reg, input_mask)
    asc_storealign(dst + one_repeat_size, all_mask)


@__simd_vf__
def select_with_mask_register(dst: UbPtr[float32_t], src0: UbPtr[float32_t], src1: UbPtr[float32_t], mask: UbPtr[uint8_t], one_repeat_size: int, mask_repeat_size: int, repeat_times: int) -> None:  # fmt: skip
    src0_reg = vector_float()
    src1_reg = vector_float()
    dst_reg = vector_float()
    select_mask = vector_bool()
    store_mask = asc_create_mask_b32(PAT_ALL)
    mask_ptr = Ref(mask.cast(uint32_t))  # reinterpret_cast<__ubuf__ uint32_t*>, passed as T*&
    d, s0, s1 = Ref(dst), Ref(src0), Ref(src1)  # the by-value pointers the postupdates advance
    for _ in range(repeat_times):
        asc_loadalign_postupdate(src0_reg, s0, one_repeat_size)
        asc_loadalign_postupdate(src1_reg, s1, one_repeat_size)
        asc_loadalign_postupdate(select_mask, mask_ptr, mask_repeat_size)
        asc_select(dst_reg, src0_reg, src1_reg, select_mask)
        asc_storealign_postupdate(d, dst_reg, one_repeat_size, store_mask)


@__global__
@__vector__
def reg_load_store_mask(src0: GmPtr[uint8_t], src1: GmPtr[uint8_t] | None, mask: GmPtr[uint8_t] | None, dst: GmPtr[uint8_t]) -> None:  # fmt: skip
    asc_init()
    byte_elements_per_vf = asc_get_vf_len() // uint8_t.size
    float_elements_per_vf = asc_get_vf_len() // float32_t.size
    mask_bytes_per_vf = asc_get_vf_len() // 8
    if scenarioNum == 1:
        src_ub = __ubuf__(uint8_t, SCENARIO1_LENGTH)
        dst_ub = __ubuf__(uint8_t, SCENARIO1_LENGTH)
        asc_copy_gm2ub(src_ub, src0, SCENARIO1_LENGTH * uint8_t.size)
        asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
        asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
        asc_vf_call[load_store_mask_register](
            dst_ub,
            src_ub,
            ceil_division(SCENARIO1_LENGTH, byte_elements_per_vf),
            byte_elements_per_vf,
        )
        asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
        asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
        asc_copy_ub2gm(dst, dst_ub, SCENARIO1_LENGTH * uint8_t.size)
    else:
        assert src1 is not None and mask is not None
        src0_ub = __ubuf__(float32_t, SCENARIO2_LENGTH)
        src1_ub = __ubuf__(float32_t, SCENARIO2_LENGTH)
        mask_ub = __ubuf__(uint8_t, SCENARIO2_MASK_LENGTH)
        dst_ub_f = __ubuf__(float32_t, SCENARIO2_LENGTH)
        asc_copy_gm2ub(src0_ub, src0.cast(float32_t), SCENARIO2_LENGTH * float32_t.size)
        asc_copy_gm2ub(src1_ub, src1.cast(float32_t), SCENARIO2_LENGTH * float32_t.size)
        asc_copy_gm2ub(mask_ub, mask, SCENARIO2_MASK_LENGTH * uint8_t.size)
        asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
        asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
        float_repeat_times = ceil_division(SCENARIO2_LENGTH, float_elements_per_vf)
        asc_vf_call[select_with_mask_register](
            dst_ub_f, src0_ub, src1_ub, mask_ub, float_elements_per_vf, mask_bytes_per_vf,
            float_repeat_times,
        )  # fmt: skip
        asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
        asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
        asc_copy_ub2gm(dst.cast(float32_t), dst_ub_f, SCENARIO2_LENGTH * float32_t.size)
    asc_sync_pipe(PIPE_ALL)


def main(src0_host: np.ndarray, src1_host: np.ndarray | None, mask_host: np.ndarray | None) -> np.ndarray:  # fmt: skip
    """``main`` without its file I/O: the output bytes (``WriteFile``) are returned."""
    is_scenario1 = scenarioNum == 1
    src0_size = SCENARIO1_LENGTH * uint8_t.size if is_scenario1 else SCENARIO2_LENGTH * float32_t.size  # fmt: skip
    src1_size = 0 if is_scenario1 else SCENARIO2_LENGTH * float32_t.size
    mask_size = 0 if is_scenario1 else SCENARIO2_MASK_LENGTH * uint8_t.size
    output_size = SCENARIO1_LENGTH * uint8_t.size if is_scenario1 else SCENARIO2_LENGTH * float32_t.size  # fmt: skip
    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()
    src0_device, _ = acl.rt.malloc(src0_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(src0_device, src0_size, src0_host, src0_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    src1_device = mask_device = None
    if not is_scenario1:
        src1_device, _ = acl.rt.malloc(src1_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        acl.rt.memcpy(src1_device, src1_size, src1_host, src1_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
        mask_device, _ = acl.rt.malloc(mask_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        acl.rt.memcpy(mask_device, mask_size, mask_host, mask_size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    dst_host, _ = acl.rt.malloc_host(output_size)
    dst_device, _ = acl.rt.malloc(output_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    reg_load_store_mask[1, 0, stream](src0_device, src1_device, mask_device, dst_device)
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(dst_host, output_size, dst_device, output_size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    output: np.ndarray = dst_host.view(np.uint8).copy()
    for device in (dst_device, mask_device, src1_device, src0_device):
        if device is not None:
            acl.rt.free(device)
    acl.rt.free_host(dst_host)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return output


def generate_scenario1() -> tuple[np.ndarray, np.ndarray]:
    """scripts/gen_data.py scenario 1: bits 0 and 248 of the mask set."""
    src = np.zeros(1024, dtype=np.uint8)
    src[0] = 1
    src[31] = 1
    golden = np.zeros(1024, dtype=np.uint8)
    golden[0] = 2
    golden[248] = 2
    golden[256:288] = 255
    return src, golden


def generate_scenario2() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """scripts/gen_data.py scenario 2: float lane ``i`` selects by bit ``4 i`` of the mask bytes."""
    src0 = np.linspace(0.0, 2.0, 256, dtype=np.float32)
    src1 = np.linspace(2.0, 4.0, 256, dtype=np.float32)
    mask = np.arange(128, dtype=np.uint8)
    golden = np.empty(256, dtype=np.float32)
    for index in range(256):
        mask_bit = (mask[index // 2] >> ((index % 2) * 4)) & 1
        golden[index] = src0[index] if mask_bit else src1[index]
    return src0, src1, mask, golden


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: same byte count, every byte equal."""
    output_bytes = output.view(np.uint8).reshape(-1)
    golden_bytes = golden.view(np.uint8).reshape(-1)
    return output_bytes.size == golden_bytes.size and bool(np.all(output_bytes == golden_bytes))


@pytest.fixture
def scenario(request: pytest.FixtureRequest) -> Iterator[int]:
    """Build the example for one scenario, as ``-DSCENARIO_NUM=n`` does."""
    global scenarioNum
    scenarioNum = request.param
    yield request.param
    scenarioNum = 1


@pytest.mark.parametrize("scenario", [1], indirect=True)
def test_scenario1_matches_the_golden(scenario: int) -> None:
    src, golden = generate_scenario1()
    assert verify_result(main(src, None, None), golden)


@pytest.mark.parametrize("scenario", [1], indirect=True)
def test_scenario1_check_rejects_a_moved_bit(scenario: int) -> None:
    """Byte 30 set instead of byte 31 (bit 240, not 248) must fail the golden."""
    src, golden = generate_scenario1()
    src[31], src[30] = 0, 1
    assert not verify_result(main(src, None, None), golden)


@pytest.mark.parametrize("scenario", [2], indirect=True)
def test_scenario2_matches_the_golden(scenario: int) -> None:
    src0, src1, mask, golden = generate_scenario2()
    assert verify_result(main(src0, src1, mask), golden)


@pytest.mark.parametrize("scenario", [2], indirect=True)
def test_scenario2_check_rejects_an_inverted_mask(scenario: int) -> None:
    """The mask bytes inverted select the other stream and must fail the golden."""
    src0, src1, mask, golden = generate_scenario2()
    assert not verify_result(main(src0, src1, ~mask), golden)
