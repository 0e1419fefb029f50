"""Ports of the asc-devkit C API cube examples, line for line.

Sources (examples/02_simd_c_api/03_c_api/):

- ``03_matrix_compute/mmad/mmad.asc`` with ``mmad_s1.h``, scenario 1: int8_t A (M x K), B
  (K x N) and an int32_t bias go GM -> L1 with ``asc_copy_gm2l1_nd2nz``; B goes L1 -> L0B
  in transposed 32 x 32 squares (``asc_copy_l12l0b_trans``, one call per 32 rows of K), the
  bias L1 -> BiasTable (``asc_copy_l12bt``), one ``asc_mmad`` starting at the bias row
  (``c_matrix_source``) and ``asc_copy_l0c2gm`` NZ2ND to GM.
- ``mmad_s2.h``, scenario 2: bfloat16_t A (M x K) and
  B stored transposed (N x K) go GM -> L1 with ``asc_set_gm2l1_nz_para`` +
  ``asc_copy_gm2l1_nd2nz``, L1 -> L0A / L0B with ``asc_copy_l12l0a`` / ``asc_copy_l12l0b``, two
  ``asc_mmad`` calls (the second accumulating) and ``asc_copy_l0c2gm`` NZ2ND to GM, ordered by
  the example's ``asc_sync_notify`` / ``asc_sync_wait`` flags.
- ``00_data_movement/data_copy_gm2l1/data_copy_gm2l1.asc``, scenarios 1 (NZ input copied with
  ``asc_copy_gm2l1``), 2 (``asc_copy_gm2l1_nd2nz``) and 3 (``asc_copy_gm2l1_dn2nz``), then
  ``asc_copy_l12l0b_transpose``, ``asc_mmad`` and ``asc_copy_l0c2gm``; scenario 4 is scenario
  2 with a vector quantisation to int8_t: the words go GM -> L1 (``asc_copy_gm2l1``) -> the
  fixpipe buffer (``asc_copy_l12fb``), ``asc_set_l0c2gm_config`` points at them and
  ``asc_copy_l0c2gm`` quantises with ``VQF322B8_PRE``.

The C kernels' local arrays (``__cbuf__ T a_l1[...]``) are placed back to back in each buffer.
The goldens are computed here with numpy (float64 products of the same inputs, as the
scripts' float32 matmul describes them) and compared as scripts/verify_result.py compares
(``np.isclose``, rtol 1e-6 / atol 1e-9 for mmad, at most 1e-4 of the elements off).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from ascreg import (
    GlobalMemory,
    GmPtr,
    bfloat16_t,
    float32_t,
    half,
    int8_t,
    int32_t,
    uint8_t,
    uint64_t,
)
from ascreg.basic import QuantMode_t, __cube__
from ascreg.c_api import (
    EVENT_ID0,
    EVENT_ID1,
    EVENT_ID2,
    PIPE_ALL,
    PIPE_FIX,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    __global__,
    asc_copy_gm2l1,
    asc_copy_gm2l1_dn2nz,
    asc_copy_gm2l1_nd2nz,
    asc_copy_l0c2gm,
    asc_copy_l12bt,
    asc_copy_l12fb,
    asc_copy_l12l0a,
    asc_copy_l12l0b,
    asc_copy_l12l0b_trans,
    asc_copy_l12l0b_transpose,
    asc_init,
    asc_mmad,
    asc_set_gm2l1_nz_para,
    asc_set_l0c2gm_config,
    asc_set_l0c2gm_nz2nd,
    asc_sync_notify,
    asc_sync_pipe,
    asc_sync_wait,
)
from ascreg.machine.cube import cube_buffers

# ========== mmad.asc, shared ==========
BLOCK_CUBE = 16
M, N, K = 30, 40, 70


def ceil_div(a: int, b: int) -> int:
    return (a + b - 1) // b


def ceil_align(a: int, b: int) -> int:
    return ceil_div(a, b) * b


def nz_para(c0_stride: int) -> int:
    """The ``asc_set_gm2l1_nz_para`` word of one matrix, fractal rows 1 apart."""
    return (0 << 48) | (c0_stride << 32) | (1 << 16) | 1


# ========== mmad_s1.h ==========
S1_C0_SIZE = 32
S1_FRACTAL_NUM = 2
S1_FRACTAL_SIZE = BLOCK_CUBE * S1_C0_SIZE
S1_A_L1_SIZE = ceil_align(M, BLOCK_CUBE) * ceil_align(K, S1_C0_SIZE)
S1_A_L0_SIZE = ceil_align(M, BLOCK_CUBE) * ceil_align(K, S1_C0_SIZE)
S1_B_L1_SIZE = ceil_align(K, BLOCK_CUBE * S1_FRACTAL_NUM) * ceil_align(N, S1_C0_SIZE)
S1_B_L0_SIZE = ceil_align(K, S1_C0_SIZE) * ceil_align(N, BLOCK_CUBE * S1_FRACTAL_NUM)
S1_BIAS_BYTES = ceil_align(ceil_div(N * int32_t.size, 32), 2) * 32
S1_BIAS_ELEMS = S1_BIAS_BYTES // int32_t.size


def s1_copy_matrix_a_to_l1(dst: Any, src: Any) -> None:
    asc_set_gm2l1_nz_para(nz_para(ceil_align(M, BLOCK_CUBE)))
    loop1_src_stride = K * int8_t.size
    l2_cache_ctl = 0
    n_value = M
    d_value = K
    loop4_src_stride = 0
    smallc0_en = False
    asc_copy_gm2l1_nd2nz(
        dst, src, loop1_src_stride, l2_cache_ctl, n_value, d_value, loop4_src_stride, smallc0_en
    )
    asc_sync_notify(PIPE_MTE2, PIPE_MTE1, EVENT_ID0)


def s1_copy_matrix_b_to_l1(dst: Any, src: Any) -> None:
    asc_set_gm2l1_nz_para(nz_para(ceil_align(K, BLOCK_CUBE * S1_FRACTAL_NUM)))
    loop1_src_stride = N * int8_t.size
    l2_cache_ctl = 0
    n_value = K
    d_value = N
    loop4_src_stride = 0
    smallc0_en = False
    asc_copy_gm2l1_nd2nz(
        dst, src, loop1_src_stride, l2_cache_ctl, n_value, d_value, loop4_src_stride, smallc0_en
    )
    asc_sync_notify(PIPE_MTE2, PIPE_MTE1, EVENT_ID1)


def s1_copy_bias_to_l1(dst: Any, src: Any) -> None:
    asc_set_gm2l1_nz_para(nz_para(1))
    loop1_src_stride = N * int32_t.size
    l2_cache_ctl = 0
    n_value = 1
    d_value = N
    loop4_src_stride = 0
    smallc0_en = False
    asc_copy_gm2l1_nd2nz(
        dst, src, loop1_src_stride, l2_cache_ctl, n_value, d_value, loop4_src_stride, smallc0_en
    )
    asc_sync_notify(PIPE_MTE2, PIPE_MTE1, EVENT_ID2)


def s1_split_matrix_a_to_l0a(dst: Any, src: Any) -> None:
    asc_sync_wait(PIPE_MTE2, PIPE_MTE1, EVENT_ID0)
    m_start_position = 0
    k_start_position = 0
    m_step = ceil_div(M, BLOCK_CUBE)
    k_step = ceil_div(K, S1_C0_SIZE)
    src_stride = ceil_div(M, BLOCK_CUBE)
    dst_stride = ceil_div(M, BLOCK_CUBE)
    asc_copy_l12l0a(
        dst, src, m_start_position, k_start_position, m_step, k_step, src_stride, dst_stride
    )
    asc_sync_notify(PIPE_MTE1, PIPE_M, EVENT_ID0)


def s1_split_matrix_b_to_l0b_trans(dst: Any, src: Any) -> None:
    asc_sync_wait(PIPE_MTE2, PIPE_MTE1, EVENT_ID1)
    k_blocks = ceil_div(K, BLOCK_CUBE * S1_FRACTAL_NUM)
    dst_offset = ceil_div(N, BLOCK_CUBE * S1_FRACTAL_NUM) * S1_FRACTAL_SIZE * S1_FRACTAL_NUM
    src_offset = S1_FRACTAL_SIZE * S1_FRACTAL_NUM
    index_id = 0
    repeat = ceil_div(N, S1_C0_SIZE)
    src_stride = ceil_div(K, BLOCK_CUBE * S1_FRACTAL_NUM) * 2
    dst_gap = 1
    dst_frac_gap = 0
    src_frac_gap = 0
    for i in range(k_blocks):
        asc_copy_l12l0b_trans(dst + i * dst_offset, src + i * src_offset, index_id, repeat,
                              src_stride, dst_gap, dst_frac_gap, src_frac_gap)  # fmt: skip
    asc_sync_notify(PIPE_MTE1, PIPE_M, EVENT_ID1)


def s1_split_bias_to_bt(src: Any) -> None:
    asc_sync_wait(PIPE_MTE2, PIPE_MTE1, EVENT_ID2)
    dst = 0
    conv_control = 0
    n_burst = 1
    len_burst = S1_BIAS_BYTES // 32
    source_gap = 0
    dst_gap = 0
    asc_copy_l12bt(dst, src, conv_control, n_burst, len_burst, source_gap, dst_gap)
    asc_sync_notify(PIPE_MTE1, PIPE_M, EVENT_ID2)


def s1_compute_mmad(c_matrix: Any, a_matrix: Any, b_matrix: Any) -> None:
    asc_sync_wait(PIPE_MTE1, PIPE_M, EVENT_ID0)
    asc_sync_wait(PIPE_MTE1, PIPE_M, EVENT_ID1)
    asc_sync_wait(PIPE_MTE1, PIPE_M, EVENT_ID2)
    left_height = M
    n_dim = K
    right_width = ceil_align(N, BLOCK_CUBE * S1_FRACTAL_NUM)
    unit_flag = 0
    disable_gemv = True
    c_matrix_source = True
    c_matrix_init_val = False
    asc_mmad(c_matrix, a_matrix, b_matrix, left_height, n_dim, right_width, unit_flag,
             disable_gemv, c_matrix_source, c_matrix_init_val)  # fmt: skip
    asc_sync_notify(PIPE_M, PIPE_FIX, EVENT_ID0)


# ========== mmad_s2.h ==========
S2_C0_SIZE = 16
S2_A_L1_SIZE = ceil_align(M, BLOCK_CUBE) * ceil_align(K, S2_C0_SIZE)
S2_A_L0_SIZE = ceil_align(M, BLOCK_CUBE) * ceil_align(K, S2_C0_SIZE)
S2_B_L1_SIZE = ceil_align(N, BLOCK_CUBE) * ceil_align(K, S2_C0_SIZE)


def s2_copy_matrix_a_to_l1(dst: Any, src: Any) -> None:
    config = (0 << 48) | (ceil_align(M, BLOCK_CUBE) << 32) | (1 << 16) | 1
    asc_set_gm2l1_nz_para(config)
    loop1_src_stride = K * bfloat16_t.size
    l2_cache_ctl = 0
    n_value = M
    d_value = K
    loop4_src_stride = 0
    smallc0_en = False
    asc_copy_gm2l1_nd2nz(
        dst, src, loop1_src_stride, l2_cache_ctl, n_value, d_value, loop4_src_stride, smallc0_en
    )
    asc_sync_notify(PIPE_MTE2, PIPE_MTE1, EVENT_ID0)


def s2_copy_matrix_b_to_l1(dst: Any, src: Any) -> None:
    config = (0 << 48) | (ceil_align(N, BLOCK_CUBE) << 32) | (1 << 16) | 1
    asc_set_gm2l1_nz_para(config)
    loop1_src_stride = K * bfloat16_t.size
    l2_cache_ctl = 0
    n_value = N
    d_value = K
    loop4_src_stride = 0
    smallc0_en = False
    asc_copy_gm2l1_nd2nz(
        dst, src, loop1_src_stride, l2_cache_ctl, n_value, d_value, loop4_src_stride, smallc0_en
    )
    asc_sync_notify(PIPE_MTE2, PIPE_MTE1, EVENT_ID1)


def s2_split_matrix_a_to_l0a(dst: Any, src: Any) -> None:
    asc_sync_wait(PIPE_MTE2, PIPE_MTE1, EVENT_ID0)
    m_start_position = 0
    k_start_position = 0
    m_step = ceil_div(M, BLOCK_CUBE)
    k_step = ceil_div(K, S2_C0_SIZE)
    src_stride = ceil_div(M, BLOCK_CUBE)
    dst_stride = ceil_div(M, BLOCK_CUBE)
    asc_copy_l12l0a(
        dst, src, m_start_position, k_start_position, m_step, k_step, src_stride, dst_stride
    )
    asc_sync_notify(PIPE_MTE1, PIPE_M, EVENT_ID0)


def s2_split_matrix_b_to_l0b(dst: Any, src: Any) -> None:
    asc_sync_wait(PIPE_MTE2, PIPE_MTE1, EVENT_ID1)
    m_start_position = 0
    k_start_position = 0
    m_step = ceil_div(N, BLOCK_CUBE)
    k_step = ceil_div(K, S2_C0_SIZE)
    src_stride = ceil_div(N, BLOCK_CUBE)
    dst_stride = ceil_div(N, BLOCK_CUBE)
    asc_copy_l12l0b(
        dst, src, m_start_position, k_start_position, m_step, k_step, src_stride, dst_stride
    )
    asc_sync_notify(PIPE_MTE1, PIPE_M, EVENT_ID1)


def s2_compute_mmad(c_matrix: Any, a_matrix: Any, b_matrix: Any) -> None:
    asc_sync_wait(PIPE_MTE1, PIPE_M, EVENT_ID0)
    asc_sync_wait(PIPE_MTE1, PIPE_M, EVENT_ID1)
    left_height = M
    n_dim = K
    right_width = N
    unit_flag = 0
    disable_gemv = True
    c_matrix_source = False
    c_matrix_init_val = True
    asc_mmad(c_matrix, a_matrix, b_matrix, left_height, n_dim, right_width, unit_flag,
             disable_gemv, c_matrix_source, c_matrix_init_val)  # fmt: skip
    c_matrix_source = False
    c_matrix_init_val = False
    asc_mmad(c_matrix, a_matrix, b_matrix, left_height, n_dim, right_width, unit_flag,
             disable_gemv, c_matrix_source, c_matrix_init_val)  # fmt: skip
    asc_sync_notify(PIPE_M, PIPE_FIX, EVENT_ID0)


def copy_result_to_gm(dst: Any, src: Any, n: int, m: int) -> None:
    """``s2_copy_result_to_gm`` (and data_copy_gm2l1's last step): NZ2ND to GM."""
    asc_sync_wait(PIPE_M, PIPE_FIX, EVENT_ID0)
    nd_num = 1
    src_nd_stride = 0
    dst_nd_stride = 0
    asc_set_l0c2gm_nz2nd(nd_num, src_nd_stride, dst_nd_stride)
    n_size = n
    m_size = m
    loop_dst_stride = n
    loop_src_stride = ceil_align(m, BLOCK_CUBE)
    l2_cache_ctl = 0
    clip_relu_pre = 0
    unit_flag_ctl = 0
    quant_pre = 0
    relu_pre = 0
    split_en = False
    nz2nd_en = True
    quant_post = 0
    relu_post = 0
    clip_relu_post = False
    eltwise_op = 0
    eltwise_antq_en = False
    c0_pad_en = False
    broadcast_en = False
    nz2dn_en = False
    asc_copy_l0c2gm(
        dst, src, n_size, m_size, loop_dst_stride, loop_src_stride, l2_cache_ctl, clip_relu_pre,
        unit_flag_ctl, quant_pre, relu_pre, split_en, nz2nd_en, quant_post, relu_post,
        clip_relu_post, eltwise_op, eltwise_antq_en, c0_pad_en, broadcast_en, nz2dn_en,
    )  # fmt: skip


def make_mmad_kernel(scenario: int) -> Any:
    @__global__
    @__cube__
    def mmad_custom(
        a: GmPtr[uint8_t], b: GmPtr[uint8_t], bias: GmPtr[uint8_t], c: GmPtr[uint8_t]
    ) -> None:
        asc_init()
        cb = cube_buffers()  # the C arrays, back to back in each buffer
        if scenario == 1:  # int8_t, with a bias
            a_l1 = cb.pointer("l1", int8_t, 0)
            b_l1 = cb.pointer("l1", int8_t, S1_A_L1_SIZE)
            bias_l1 = cb.pointer("l1", int32_t, S1_A_L1_SIZE + S1_B_L1_SIZE)
            s1_copy_matrix_a_to_l1(a_l1, a.cast(int8_t))
            s1_copy_matrix_b_to_l1(b_l1, b.cast(int8_t))
            s1_copy_bias_to_l1(bias_l1, bias.cast(int32_t))
            a_l0 = cb.pointer("l0a", int8_t, 0)
            b_l0 = cb.pointer("l0b", int8_t, 0)
            s1_split_matrix_a_to_l0a(a_l0, a_l1)
            s1_split_matrix_b_to_l0b_trans(b_l0, b_l1)
            s1_split_bias_to_bt(bias_l1)
            c_l0 = cb.pointer("l0c", int32_t, 0)
            s1_compute_mmad(c_l0, a_l0, b_l0)
            copy_result_to_gm(c.cast(int32_t), c_l0, N, M)
        else:  # bfloat16, no bias, two Mmads accumulating
            a_l1 = cb.pointer("l1", bfloat16_t, 0)
            b_l1 = cb.pointer("l1", bfloat16_t, S2_A_L1_SIZE * bfloat16_t.size)
            s2_copy_matrix_a_to_l1(a_l1, a.cast(bfloat16_t))
            s2_copy_matrix_b_to_l1(b_l1, b.cast(bfloat16_t))
            a_l0 = cb.pointer("l0a", bfloat16_t, 0)
            b_l0 = cb.pointer("l0b", bfloat16_t, 0)
            s2_split_matrix_a_to_l0a(a_l0, a_l1)
            s2_split_matrix_b_to_l0b(b_l0, b_l1)
            c_l0 = cb.pointer("l0c", float32_t, 0)
            s2_compute_mmad(c_l0, a_l0, b_l0)
            copy_result_to_gm(c.cast(float32_t), c_l0, N, M)
        asc_sync_pipe(PIPE_ALL)

    return mmad_custom


def within_verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """scripts/verify_result.py: isclose(rtol 1e-6, atol 1e-9), at most 1e-4 of them off."""
    close = np.isclose(output.reshape(-1), golden.reshape(-1), rtol=1e-6, atol=1e-9)
    return bool((~close).sum() / golden.size <= 1e-4)


def run_mmad_scenario_1(x1: np.ndarray, x2: np.ndarray, bias: np.ndarray) -> np.ndarray:
    gm = GlobalMemory()
    inputs = []
    for array in (x1, x2, bias):
        ptr = gm.alloc(uint8_t, array.nbytes)
        ptr.write(array.view(np.uint8).reshape(-1))
        inputs.append(ptr)
    c = gm.alloc(uint8_t, 4 * M * N)
    make_mmad_kernel(1)[1, 0, None](*inputs, c)
    return c.read(4 * M * N).view(np.int32).reshape(M, N)


def test_mmad_scenario_1_against_a_numpy_golden() -> None:
    rng = np.random.default_rng(1)
    x1 = rng.integers(1, 10, (M, K)).astype(np.int8)
    x2 = rng.integers(1, 10, (K, N)).astype(np.int8)
    bias = rng.integers(1, 10, N).astype(np.int32)
    golden = x1.astype(np.int32) @ x2.astype(np.int32) + bias
    output = run_mmad_scenario_1(x1, x2, bias)
    assert within_verify_result(output.astype(np.float64), golden.astype(np.float64))
    assert np.array_equal(output, golden)  # integer arithmetic: exact


def test_mmad_scenario_1_sees_a_wrong_bias() -> None:
    rng = np.random.default_rng(1)
    x1 = rng.integers(1, 10, (M, K)).astype(np.int8)
    x2 = rng.integers(1, 10, (K, N)).astype(np.int8)
    bias = rng.integers(1, 10, N).astype(np.int32)
    golden = x1.astype(np.int32) @ x2.astype(np.int32) + bias
    output = run_mmad_scenario_1(x1, x2, bias + 1)
    assert not within_verify_result(output.astype(np.float64), golden.astype(np.float64))


def test_mmad_scenario_2_against_a_numpy_golden() -> None:
    rng = np.random.default_rng(2)
    x1 = rng.uniform(1, 10, (M, K)).astype(ml_dtypes.bfloat16)
    x2 = rng.uniform(1, 10, (K, N)).astype(ml_dtypes.bfloat16)
    golden = 2 * (x1.astype(np.float64) @ x2.astype(np.float64))  # exact in float64
    gm = GlobalMemory()
    a = gm.alloc(uint8_t, x1.nbytes)
    a.write(x1.view(np.uint8).reshape(-1))
    b = gm.alloc(uint8_t, x2.nbytes)
    b.write(np.ascontiguousarray(x2.T).view(np.uint8).reshape(-1))  # B stored N x K
    bias, c = gm.alloc(uint8_t, 4 * N), gm.alloc(uint8_t, 4 * M * N)
    make_mmad_kernel(2)[1, 0, None](a, b, bias, c)
    output = c.read(4 * M * N).view(np.float32).reshape(M, N)
    assert within_verify_result(output, golden.astype(np.float32))
    assert np.allclose(output, golden, rtol=2e-6)  # float accumulation of exact products


# ========== data_copy_gm2l1.asc, scenarios 1-3 ==========
DM, DK, DN = 128, 128, 256
C0_BYTES = 32
C0_ELEMENTS = C0_BYTES // half.size
A_L1_ELEMENTS = ceil_align(DM, BLOCK_CUBE) * ceil_align(DK, C0_BYTES)
B_L1_ELEMENTS = ceil_align(DK, C0_BYTES) * ceil_align(DN, C0_BYTES)
B1_OFFSET_BYTES = 64 * 1024
FIXPIPE_QUANT_ADDR_GRANULARITY = 128
FIXPIPE_L1_TO_FB_BURST_BYTES = 64
QUANT_ELEMENTS = DN
QUANT_TRANSFER_BYTES = ceil_align(QUANT_ELEMENTS * uint64_t.size, FIXPIPE_QUANT_ADDR_GRANULARITY)
C1_OFFSET_BYTES = 128 * 1024
MTE2_NZ_N_STRIDE, MTE2_NZ_MATRIX_NUM, MTE2_NZ_LOOP4_DST_STRIDE = 1, 1, 0
A_MTE2_NZ_PARA = (MTE2_NZ_LOOP4_DST_STRIDE << 48 | ceil_align(DM, BLOCK_CUBE) << 32
                  | MTE2_NZ_N_STRIDE << 16 | MTE2_NZ_MATRIX_NUM)  # fmt: skip
B_MTE2_NZ_PARA = (MTE2_NZ_LOOP4_DST_STRIDE << 48 | ceil_align(DK, BLOCK_CUBE) << 32
                  | MTE2_NZ_N_STRIDE << 16 | MTE2_NZ_MATRIX_NUM)  # fmt: skip


def make_data_copy_kernel(scenario: int) -> Any:
    @__global__
    @__cube__
    def data_copy_gm2l1(
        a: GmPtr[half], b: GmPtr[half], c: GmPtr[uint8_t], quant_pre: GmPtr[uint64_t]
    ) -> None:
        asc_init()
        cb = cube_buffers()
        a_l1 = cb.pointer("l1", half, 0)
        b_l1 = cb.pointer("l1", half, B1_OFFSET_BYTES)
        a_l0 = cb.pointer("l0a", half, 0)
        b_l0 = cb.pointer("l0b", half, 0)
        c_l0 = cb.pointer("l0c", float32_t, 0)
        if scenario == 1:  # the input is already NZ
            asc_copy_gm2l1(a_l1, a, 1, DM * DK * half.size // C0_BYTES, 0, 0, 0)
            asc_copy_gm2l1(b_l1, b, 1, DK * DN * half.size // C0_BYTES, 0, 0, 0)
        elif scenario == 3:  # DN -> NZ
            asc_set_gm2l1_nz_para(A_MTE2_NZ_PARA)
            asc_copy_gm2l1_dn2nz(a_l1, a, DM * half.size, 0, DM, DK, 0, False)
            asc_set_gm2l1_nz_para(B_MTE2_NZ_PARA)
            asc_copy_gm2l1_dn2nz(b_l1, b, DK * half.size, 0, DK, DN, 0, False)
        else:  # ND -> NZ
            asc_set_gm2l1_nz_para(A_MTE2_NZ_PARA)
            asc_copy_gm2l1_nd2nz(a_l1, a, DK * half.size, 0, DM, DK, 0, False)
            asc_set_gm2l1_nz_para(B_MTE2_NZ_PARA)
            asc_copy_gm2l1_nd2nz(b_l1, b, DN * half.size, 0, DK, DN, 0, False)
        asc_sync_notify(PIPE_MTE2, PIPE_MTE1, EVENT_ID0)
        asc_sync_wait(PIPE_MTE2, PIPE_MTE1, EVENT_ID0)
        asc_copy_l12l0a(a_l0, a_l1, 0, 0, ceil_div(DM, BLOCK_CUBE), ceil_div(DK, C0_ELEMENTS),
                        ceil_div(DM, BLOCK_CUBE), ceil_div(DM, BLOCK_CUBE))  # fmt: skip
        asc_copy_l12l0b_transpose(b_l0, b_l1, 0, 0, ceil_div(DK, BLOCK_CUBE),
                                  ceil_div(DN, C0_ELEMENTS), ceil_div(DK, BLOCK_CUBE),
                                  ceil_div(DN, BLOCK_CUBE))  # fmt: skip
        asc_sync_notify(PIPE_MTE1, PIPE_M, EVENT_ID0)
        asc_sync_wait(PIPE_MTE1, PIPE_M, EVENT_ID0)
        asc_mmad(c_l0, a_l0, b_l0, DM, DK, ceil_align(DN, C0_ELEMENTS), 0, False, False, True)
        if scenario == 4:
            quant_l1 = cb.pointer("l1", uint64_t, C1_OFFSET_BYTES)
            quant_fb = cb.pointer("fb", uint64_t, 0)
            asc_copy_gm2l1(quant_l1, quant_pre, 1, QUANT_TRANSFER_BYTES // C0_BYTES, 0, 0, 0)
            asc_sync_notify(PIPE_MTE2, PIPE_FIX, EVENT_ID0)
            asc_sync_wait(PIPE_MTE2, PIPE_FIX, EVENT_ID0)
            asc_copy_l12fb(quant_fb, quant_l1, 1,
                           QUANT_TRANSFER_BYTES // FIXPIPE_L1_TO_FB_BURST_BYTES, 0, 0)  # fmt: skip
            quant_fb_addr = quant_fb.address // FIXPIPE_QUANT_ADDR_GRANULARITY
            asc_set_l0c2gm_config(0, quant_fb_addr, False)
            asc_sync_pipe(PIPE_FIX)
        asc_sync_notify(PIPE_M, PIPE_FIX, EVENT_ID0)
        asc_sync_wait(PIPE_M, PIPE_FIX, EVENT_ID0)
        asc_set_l0c2gm_nz2nd(1, 0, 0)
        no_conv = 0  # QuantMode_post::NoConv
        if scenario == 4:
            asc_copy_l0c2gm(c.cast(int8_t), c_l0, DN, DM, DN, ceil_align(DM, BLOCK_CUBE), 0, 0, 0,
                            QuantMode_t.VQF322B8_PRE, 0, False, True, no_conv, 0, False, 0,
                            False, False, False, False)  # fmt: skip
        else:
            asc_copy_l0c2gm(c.cast(float32_t), c_l0, DN, DM, DN, ceil_align(DM, BLOCK_CUBE), 0, 0,
                            0, QuantMode_t.NoQuant, 0, False, True, no_conv, 0, False, 0, False,
                            False, False, False)  # fmt: skip
        asc_sync_pipe(PIPE_ALL)

    return data_copy_gm2l1


def nz_of(matrix: np.ndarray, c0: int) -> np.ndarray:
    """The NZ layout of *matrix* (rows a multiple of 16, columns of c0): column blocks of rows."""
    rows, cols = matrix.shape
    return matrix.reshape(rows, cols // c0, c0).transpose(1, 0, 2).reshape(-1)


def run_data_copy(scenario: int, a: np.ndarray, b: np.ndarray, quant: np.ndarray) -> Any:
    """Run scenario *scenario* on the ND matrices *a*, *b*; return GM's C (bytes)."""
    stored = {1: (nz_of(a, C0_ELEMENTS), nz_of(b, C0_ELEMENTS)),
              3: (a.T.reshape(-1), b.T.reshape(-1))}.get(scenario, (a, b))  # fmt: skip
    gm = GlobalMemory()
    a_gm, b_gm = gm.alloc(half, a.size), gm.alloc(half, b.size)
    a_gm.write(np.reshape(stored[0], -1))
    b_gm.write(np.reshape(stored[1], -1))
    c_gm = gm.alloc(uint8_t, 4 * DM * DN)
    quant_gm = gm.alloc(uint64_t, QUANT_TRANSFER_BYTES // uint64_t.size)
    quant_gm.write(quant)
    make_data_copy_kernel(scenario)[1, 0, None](a_gm, b_gm, c_gm, quant_gm)
    return c_gm


def inputs(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1, 3, (DM, DK)).astype(np.float16),
            rng.uniform(-1, 3, (DK, DN)).astype(np.float16))  # fmt: skip


@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_data_copy_gm2l1_against_a_numpy_golden(scenario: int) -> None:
    a, b = inputs(10 + scenario)
    c_gm = run_data_copy(scenario, a, b, np.zeros(QUANT_TRANSFER_BYTES // 8, np.uint64))
    golden = a.astype(np.float64) @ b.astype(np.float64)
    output = c_gm.read(4 * DM * DN).view(np.float32).reshape(DM, DN)
    assert within_verify_result(output, golden.astype(np.float32))
    assert np.allclose(output, golden, rtol=1e-5, atol=1e-5)


def quant_words(scale: float) -> np.ndarray:
    """gen_data.py's words: the float scale's bits, bit 46 (signed int8), zero padded."""
    words = np.zeros(QUANT_TRANSFER_BYTES // uint64_t.size, np.uint64)
    words[:DN] = np.uint64(np.float32(scale).view(np.uint32)) | np.uint64(1 << 46)
    return words


def quantised_golden(values: np.ndarray, scale: float) -> np.ndarray:
    """gen_data.py's quantisation: scale, round half to even in [-256, 255], then int8."""
    scaled = np.round(np.clip(values * scale, -256, 255))
    return np.clip(scaled, -128, 127).astype(np.int8)


@pytest.mark.parametrize("scale", [2.0, 0.25])
def test_data_copy_gm2l1_scenario_4_quantises_bit_exactly(scale: float) -> None:
    """The example's scale 2 saturates most results at 127; 0.25 keeps them in range."""
    a, b = inputs(14)
    c_gm = run_data_copy(4, a, b, quant_words(scale))
    golden = quantised_golden(a.astype(np.float64) @ b.astype(np.float64), scale)
    assert len(np.unique(golden)) > 20
    output = c_gm.read(DM * DN).view(np.int8).reshape(DM, DN)
    assert np.array_equal(output, golden)  # verify_result.py: int8 must match exactly


def test_data_copy_gm2l1_scenario_4_sees_a_wrong_scale() -> None:
    a, b = inputs(14)
    c_gm = run_data_copy(4, a, b, quant_words(1.0))
    golden = quantised_golden(a.astype(np.float64) @ b.astype(np.float64), 2.0)
    output = c_gm.read(DM * DN).view(np.int8).reshape(DM, DN)
    assert not np.array_equal(output, golden)
