"""Port of asc-devkit examples/02_simd_c_api/03_c_api/03_matrix_compute/mmad_mx, line for line.

``mmad_mx_custom`` (one ``__cube__`` block, M, N, K = 40, 50, 70): A (M x K) and B (stored
N x K) go GM -> L1 with ``asc_copy_gm2l1_nd2nz`` as bytes, their ``fp8_e8m0_t`` scales (one per
32 elements of K, ``SCALE_K`` = 4 a row) as pairs read as ``half`` with
``asc_copy_gm2l1_dn2nz``; ``asc_copy_l12l0a`` / ``asc_copy_l12l0b`` and ``asc_copy_l12l0a_mx`` /
``asc_copy_l12l0b_mx`` move them to L0A / L0B and L0A_MX / L0B_MX (the MX address is the L0
address / 16); ``asc_mmad_mx`` multiplies over ``ALIGN_K`` = 128; ``asc_copy_l0c2gm`` writes C
row-major. Scenarios: 1 (``fp4x2_e1m2_t`` x ``fp4x2_e2m1_t``), 2 (``fp4x2_e2m1_t`` x
``fp4x2_e1m2_t``, C from the bias table filled by ``asc_copy_l12bt``) and 3 (``fp8_e4m3fn_t`` x
``fp8_e5m2_t``, K's last 32 bytes of L1 zeroed with ``asc_fill_l1``, two accumulating
multiply-adds).

Scenario 3 as written races: ``asc_fill_l1`` runs on ``PIPE_MTE2`` after the example's only
MTE2 -> MTE1 flag, and the ``asc_sync_pipe(PIPE_MTE1)`` that follows does not wait for MTE2,
so the L1 -> L0 loads may read the padding before it is zeroed. A test keeps the example's
order and asserts ascreg's report; the result is checked with the fill moved before the flag.

The C kernel's local arrays are placed back to back in each buffer. The golden is computed
here: each code decoded (the OCP MX 4-bit tables written out below, ml_dtypes for fp8), each
32-element K block times ``2 ** (scale - 127)``, the float64 product rounded to float32 once
(twice the product for scenario 3), as scripts/gen_data.py describes it; scripts/verify_result.py
accepts a largest difference under 0.01, and the result is also compared bit for bit.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from ascreg import (
    GlobalMemory,
    GmPtr,
    float32_t,
    fp4x2_e1m2_t,
    fp4x2_e2m1_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    fp8_e8m0_t,
    half,
    uint8_t,
    uint16_t,
)
from ascreg.basic import __cube__
from ascreg.c_api import (
    EVENT_ID0,
    PIPE_ALL,
    PIPE_FIX,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    __global__,
    asc_copy_gm2l1_dn2nz,
    asc_copy_gm2l1_nd2nz,
    asc_copy_l0c2gm,
    asc_copy_l12bt,
    asc_copy_l12l0a,
    asc_copy_l12l0a_mx,
    asc_copy_l12l0b,
    asc_copy_l12l0b_mx,
    asc_fill_l1,
    asc_fill_value_config,
    asc_init,
    asc_mmad_mx,
    asc_set_gm2l1_nz_para,
    asc_set_l0c2gm_nz2nd,
    asc_sync_notify,
    asc_sync_pipe,
    asc_sync_wait,
)
from ascreg.errors import SyncError
from ascreg.machine.cube import cube_buffers


def CEIL_DIV(a: int, b: int) -> int:
    return (a + b - 1) // b


def CEIL_ALIGN(a: int, b: int) -> int:
    return CEIL_DIV(a, b) * b


BLOCK_CUBE = 16
SCALE_BLOCK = 32
SCALE_EVEN_NUMBER = 2
M, N, K = 40, 50, 70
TYPES = {
    1: (fp4x2_e1m2_t, fp4x2_e2m1_t),
    2: (fp4x2_e2m1_t, fp4x2_e1m2_t),
    3: (fp8_e4m3fn_t, fp8_e5m2_t),
}


class Sizes:
    """The example's constants of one scenario (element counts of the C arrays)."""

    def __init__(self, scenario: int) -> None:
        self.FRACTAL_K = 64 if scenario <= 2 else 32
        self.PACKED_K = CEIL_DIV(K, 2) if scenario <= 2 else K
        self.SCALE_K = CEIL_DIV(K, 64) * SCALE_EVEN_NUMBER
        self.ALIGN_K = CEIL_ALIGN(K, 64)
        self.M_ALIGN = CEIL_ALIGN(M, BLOCK_CUBE)
        self.N_ALIGN = CEIL_ALIGN(N, BLOCK_CUBE)
        self.A_L1_SIZE = self.M_ALIGN * self.ALIGN_K
        self.B_L1_SIZE = self.N_ALIGN * self.ALIGN_K
        self.SCALE_A_L1_SIZE = self.M_ALIGN * self.SCALE_K
        self.SCALE_B_L1_SIZE = self.N_ALIGN * self.SCALE_K
        self.BIAS_BYTES = CEIL_ALIGN(CEIL_DIV(N * float32_t.size, 32), 2) * 32
        self.BIAS_SIZE = self.BIAS_BYTES // float32_t.size


def set_gm2l1_nz_config(dst_c0_stride: int) -> None:
    asc_set_gm2l1_nz_para((dst_c0_stride << 32) | (1 << 16) | 1)


def copy_matrix_to_l1(s: Sizes, dst: Any, src: Any, rows: int, align: int) -> None:
    """``copy_matrix_a_to_l1`` (rows M) and ``copy_matrix_b_to_l1`` (rows N)."""
    set_gm2l1_nz_config(align)
    asc_copy_gm2l1_nd2nz(dst.cast(uint8_t), src.cast(uint8_t), s.PACKED_K, 0, rows, s.PACKED_K,
                         0, False)  # fmt: skip


def copy_scale_to_l1(s: Sizes, dst: Any, src: Any, rows: int) -> None:
    """``copy_scale_a_to_l1`` (rows M) and ``copy_scale_b_to_l1`` (rows N)."""
    set_gm2l1_nz_config(s.SCALE_K // 2)
    asc_copy_gm2l1_dn2nz(dst.cast(half), src.cast(half), s.SCALE_K, 0, s.SCALE_K // 2, rows, 0,
                         False)  # fmt: skip


def copy_bias_to_l1(dst: Any, src: Any) -> None:
    set_gm2l1_nz_config(1)
    asc_copy_gm2l1_nd2nz(dst, src, N * float32_t.size, 0, 1, N, 0, False)


def fill_zero_in_l1(s: Sizes, dst: Any, rows_align: int) -> None:
    """``fill_zero_in_a_l1`` (``M_ALIGN``) and ``fill_zero_in_b_l1`` (``N_ALIGN``)."""
    dst_offset = rows_align * (CEIL_ALIGN(s.PACKED_K, SCALE_BLOCK) // 2)
    config = asc_fill_value_config()
    config.repeat = rows_align
    config.blk_num = 1
    config.dst_gap = 0
    asc_fill_l1(dst.cast(uint16_t) + dst_offset, 0, config)


def copy_to_l0(s: Sizes, load: Any, load_mx: Any, dst: Any, src: Any, scale_src: Any,
               rows_align: int) -> None:  # fmt: skip
    """``copy_a_to_l0`` (``asc_copy_l12l0a[_mx]``) and ``copy_b_to_l0`` (``..l0b..``)."""
    load(dst, src, 0, 0, CEIL_DIV(rows_align, BLOCK_CUBE), CEIL_DIV(s.ALIGN_K, s.FRACTAL_K),
         CEIL_DIV(rows_align, BLOCK_CUBE), CEIL_DIV(rows_align, BLOCK_CUBE))  # fmt: skip
    mx_dst_addr = dst.address // 16
    load_mx(mx_dst_addr, scale_src, 0, 0, CEIL_DIV(rows_align, BLOCK_CUBE), s.SCALE_K // 2,
            s.SCALE_K // 2, s.SCALE_K // 2)  # fmt: skip


def compute_mmad_mx(scenario: int, s: Sizes, c_matrix: Any, a_matrix: Any, b_matrix: Any) -> None:
    left_height = M
    n_dim = s.ALIGN_K
    right_width = N
    unit_flag = 0
    disable_gemv = False
    # (c_matrix_source, c_matrix_init_val) of each multiply-add
    calls = {1: [(False, True)], 2: [(True, False)], 3: [(False, True), (False, False)]}
    for c_matrix_source, c_matrix_init_val in calls[scenario]:
        asc_mmad_mx(c_matrix, a_matrix, b_matrix, left_height, n_dim, right_width, unit_flag,
                    disable_gemv, c_matrix_source, c_matrix_init_val)  # fmt: skip


def copy_result_to_gm(s: Sizes, dst_addr: Any, src_addr: Any) -> None:
    asc_set_l0c2gm_nz2nd(1, 0, 0)
    n_size, m_size, loop_dst_stride, loop_src_stride = N, M, N, s.M_ALIGN
    asc_copy_l0c2gm(dst_addr, src_addr, n_size, m_size, loop_dst_stride, loop_src_stride, 0, 0,
                    0, 0, 0, False, True, 0, 0, False, 0, False, False, False, False)  # fmt: skip


def make_kernel(scenario: int, *, fill_before_flag: bool = False) -> Any:
    """The example's kernel; *fill_before_flag* moves scenario 3's fill ahead of MTE2 -> MTE1."""
    AType, BType = TYPES[scenario]
    s = Sizes(scenario)
    has_bias_tensor = scenario == 2

    @__global__
    @__cube__
    def mmad_mx_custom(
        a: GmPtr[uint8_t], scale_a: GmPtr[uint8_t], b: GmPtr[uint8_t], scale_b: GmPtr[uint8_t],
        bias: GmPtr[uint8_t], c: GmPtr[uint8_t],
    ) -> None:  # fmt: skip
        asc_init()
        cb = cube_buffers()  # the C arrays, back to back in L1
        at = 0
        a_l1 = cb.pointer("l1", AType, at)
        at += s.A_L1_SIZE * AType.size
        scale_a_l1 = cb.pointer("l1", fp8_e8m0_t, at)
        at += s.SCALE_A_L1_SIZE
        b_l1 = cb.pointer("l1", BType, at)
        at += s.B_L1_SIZE * BType.size
        scale_b_l1 = cb.pointer("l1", fp8_e8m0_t, at)
        at += s.SCALE_B_L1_SIZE
        copy_matrix_to_l1(s, a_l1, a.cast(AType), M, s.M_ALIGN)
        copy_scale_to_l1(s, scale_a_l1, scale_a.cast(fp8_e8m0_t), M)
        copy_matrix_to_l1(s, b_l1, b.cast(BType), N, s.N_ALIGN)
        copy_scale_to_l1(s, scale_b_l1, scale_b.cast(fp8_e8m0_t), N)
        bias_l1 = cb.pointer("l1", float32_t, at)
        if has_bias_tensor:
            copy_bias_to_l1(bias_l1, bias.cast(float32_t))
        if scenario == 3 and fill_before_flag:
            fill_zero_in_l1(s, a_l1, s.M_ALIGN)
            fill_zero_in_l1(s, b_l1, s.N_ALIGN)
        asc_sync_notify(PIPE_MTE2, PIPE_MTE1, EVENT_ID0)
        asc_sync_wait(PIPE_MTE2, PIPE_MTE1, EVENT_ID0)
        if scenario == 3 and not fill_before_flag:
            fill_zero_in_l1(s, a_l1, s.M_ALIGN)
            fill_zero_in_l1(s, b_l1, s.N_ALIGN)
            asc_sync_pipe(PIPE_MTE1)
        a_l0 = cb.pointer("l0a", AType, 0)
        b_l0 = cb.pointer("l0b", BType, 0)
        copy_to_l0(s, asc_copy_l12l0a, asc_copy_l12l0a_mx, a_l0, a_l1, scale_a_l1, s.M_ALIGN)
        copy_to_l0(s, asc_copy_l12l0b, asc_copy_l12l0b_mx, b_l0, b_l1, scale_b_l1, s.N_ALIGN)
        if has_bias_tensor:
            asc_copy_l12bt(0, bias_l1, s.BIAS_BYTES)
        asc_sync_notify(PIPE_MTE1, PIPE_M, EVENT_ID0)
        asc_sync_wait(PIPE_MTE1, PIPE_M, EVENT_ID0)
        c_l0 = cb.pointer("l0c", float32_t, 0)
        compute_mmad_mx(scenario, s, c_l0, a_l0, b_l0)
        asc_sync_notify(PIPE_M, PIPE_FIX, EVENT_ID0)
        asc_sync_wait(PIPE_M, PIPE_FIX, EVENT_ID0)
        copy_result_to_gm(s, c.cast(float32_t), c_l0)
        asc_sync_pipe(PIPE_ALL)

    return mmad_mx_custom


# -- inputs and the golden --------------------------------------------------------------------------

E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
E1M2 = [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75]
"""The OCP MX 4-bit magnitudes of codes 0..7 (code + 8 is the negative)."""
FP4_TABLES = {fp4x2_e2m1_t: E2M1, fp4x2_e1m2_t: E1M2}
FP8_NUMPY = {fp8_e4m3fn_t: ml_dtypes.float8_e4m3fn, fp8_e5m2_t: ml_dtypes.float8_e5m2}


def fp4_operand(rng: np.random.Generator, shape: tuple[int, int], dtype: Any) -> Any:
    """Random 4-bit codes: (their values, the bytes GM holds, two codes a byte, low first)."""
    codes = rng.integers(0, 16, shape, dtype=np.uint8)
    magnitude = np.asarray(FP4_TABLES[dtype])[codes & 7]
    values = np.where(codes & 8, -magnitude, magnitude)
    return values, codes


def pack(codes: np.ndarray) -> np.ndarray:
    return (codes[..., 0::2] | (codes[..., 1::2] << 4)).astype(np.uint8)


def operands(scenario: int, seed: int) -> dict[str, np.ndarray]:
    """gen_data.py's inputs: A, B (values and GM bytes, B stored N x K), scales, bias."""
    AType, BType = TYPES[scenario]
    rng = np.random.default_rng(seed)
    scale_k = Sizes(scenario).SCALE_K
    if scenario <= 2:
        a, a_codes = fp4_operand(rng, (M, K), AType)
        b, b_codes = fp4_operand(rng, (K, N), BType)
        a_gm, b_gm = pack(a_codes), pack(np.ascontiguousarray(b_codes.T))
    else:
        a8 = rng.uniform(-10, 10, (M, K)).astype(FP8_NUMPY[AType])
        b8 = rng.uniform(-10, 10, (K, N)).astype(FP8_NUMPY[BType])
        a, b = a8.astype(np.float64), b8.astype(np.float64)
        a_gm, b_gm = a8.view(np.uint8), np.ascontiguousarray(b8.T).view(np.uint8)
    sa = rng.integers(127, 130, (M, scale_k), dtype=np.uint8)
    sb = rng.integers(127, 130, (scale_k, N), dtype=np.uint8)
    bias = rng.integers(-10, 10, N).astype(np.float32) if scenario == 2 else np.zeros(N, np.float32)
    return {"a": a, "b": b, "a_gm": a_gm, "b_gm": b_gm, "sa": sa, "sb": sb, "bias": bias}


def golden(scenario: int, x: dict[str, np.ndarray]) -> np.ndarray:
    block = np.arange(K) // SCALE_BLOCK
    left = x["a"] * np.exp2(x["sa"][:, block].astype(np.float64) - 127)
    right = x["b"] * np.exp2(x["sb"][block, :].astype(np.float64) - 127)
    product = left @ right
    if scenario == 2:
        product = product + x["bias"]
    rounded = product.astype(np.float32)
    return rounded * 2 if scenario == 3 else rounded


def run(kernel: Any, x: dict[str, np.ndarray]) -> np.ndarray:
    gm = GlobalMemory()
    arrays = [x["a_gm"], x["sa"], x["b_gm"], np.ascontiguousarray(x["sb"].T),
              x["bias"].view(np.uint8), np.zeros(M * N * 4, np.uint8)]  # fmt: skip
    ptrs = []
    for array in arrays:
        ptr = gm.alloc(uint8_t, array.size)
        ptr.write(array.reshape(-1))
        ptrs.append(ptr)
    kernel[1, 0, None](*ptrs)
    return np.asarray(ptrs[-1].read(M * N * 4)).view(np.float32).reshape(M, N)


def within_verify_result(output: np.ndarray, want: np.ndarray) -> bool:
    """scripts/verify_result.py: the largest difference under 0.01."""
    return bool(np.max(np.abs(output - want)) < 0.01)


@pytest.mark.parametrize("scenario", [1, 2, 3])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_example_matches_the_independent_golden(scenario: int, seed: int) -> None:
    x = operands(scenario, seed)
    want = golden(scenario, x)
    got = run(make_kernel(scenario, fill_before_flag=True), x)
    assert within_verify_result(got, want)
    np.testing.assert_array_equal(got, want)


def test_a_wrong_scale_fails_the_check() -> None:
    x = operands(3, 0)
    want = golden(3, x)
    x["sa"] = x["sa"].copy()
    x["sa"][0, 0] += 1
    got = run(make_kernel(3, fill_before_flag=True), x)
    assert not within_verify_result(got, want)


def test_scenario_3_as_written_races_the_fill_against_the_l0_loads() -> None:
    x = operands(3, 0)
    with pytest.raises(SyncError, match=r"asc_copy_l12l0a: PIPE_MTE1 reads L1 .* PIPE_MTE2 wrote"):
        run(make_kernel(3), x)
