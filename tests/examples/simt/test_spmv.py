"""Port of asc-devkit examples/03_simt_api/03_best_practices/02_control_flow/warp_divergence/spmv.asc.

Line for line, both scenarios of ``SCENARIO_NUM`` (``<<<8, 1024, 0, stream>>>``): a CSR sparse
matrix times a dense vector. Case 1, ``kernel_spmv_thread``, gives each thread one row and
loops over that row's nonzeros: rows have 1 .. 64 of them, so the threads of a warp run
different trip counts (the divergence the example is about). Case 2, ``kernel_spmv_warp``,
gives each warp one row at a time (rows strided by the grid's warp count), the lanes stride the
row by ``warpSize``, and ``asc_reduce_add`` sums the lanes; lane 0 writes the row.

Inputs as the example makes them: ``generate_sparse_matrix`` with ``std::mt19937(42)``
(``nnz`` in [1, 64] per row, distinct sorted columns in [0, 1023] drawn until there are
``nnz``, values in [-10, 10]) and ``x`` from ``std::mt19937(123)`` in [-10, 10]; libstdc++'s
generator and distribution are re-expressed in ``tests/stdrandom.py``. Golden from
``compute_spmv_cpu``, compared with ``std::equal`` (bit-exact: every value is a small integer,
so the sums are exact in any order). Full size: 8192 rows, 1024 columns.

Both kernels' loops have per-thread bounds (``range`` over lane values); they run vectorised
under active masks.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from ascreg import GmPtr, acl, float32_t, uint32_t
from ascreg.machine.kernel import __global__
from ascreg.simt import asc_reduce_add, blockDim, blockIdx, gridDim, laneid, threadIdx, warpSize
from stdrandom import Mt19937, uniform_int

THREAD_COUNT = 1024
NUM_ROWS = 8192
NUM_COLS = 1024
MAX_NNZ_PER_ROW = 64
USE_THREAD_PER_ROW = 1
USE_WARP_PER_ROW = 2


# Case 1: one thread per row (high divergence)
@__global__
def kernel_spmv_thread(
    values: GmPtr[float32_t],
    col_idx: GmPtr[uint32_t],
    row_ptr: GmPtr[uint32_t],
    x: GmPtr[float32_t],
    y: GmPtr[float32_t],
    num_rows: int,
) -> None:
    row = uint32_t(blockIdx.x * blockDim.x + threadIdx.x)
    if row >= num_rows:
        return
    sum = float32_t(0.0)
    row_start = row_ptr[row]
    row_end = row_ptr[row + 1]
    for j in range(row_start, row_end):
        sum += values[j] * x[col_idx[j]]
    y[row] = sum


# Case 2: one warp per row (low divergence), lanes summed by asc_reduce_add
@__global__
def kernel_spmv_warp(
    values: GmPtr[float32_t],
    col_idx: GmPtr[uint32_t],
    row_ptr: GmPtr[uint32_t],
    x: GmPtr[float32_t],
    y: GmPtr[float32_t],
    num_rows: int,
) -> None:
    lane_id = uint32_t(laneid())
    global_warp_id = uint32_t((blockIdx.x * blockDim.x + threadIdx.x) // warpSize)
    num_warps = (blockDim.x // warpSize) * gridDim.x

    for row in range(global_warp_id, num_rows, num_warps):
        sum = float32_t(0.0)
        row_start = row_ptr[row]
        row_end = row_ptr[row + 1]
        for j in range(row_start + lane_id, row_end, warpSize):
            sum += values[j] * x[col_idx[j]]
        sum = asc_reduce_add(sum)
        if lane_id == 0:
            y[row] = sum


def generate_sparse_matrix(
    num_rows: int, num_cols: int, max_nnz_per_row: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The example's ``generate_sparse_matrix``: returns values, col_idx, row_ptr."""
    gen = Mt19937(42)
    values: list[float] = []
    col_idx: list[int] = []
    row_ptr = [0] * (num_rows + 1)
    for i in range(num_rows):
        nnz = uniform_int(gen, 1, max_nnz_per_row)
        cols: list[int] = []
        col_set: set[int] = set()
        while len(cols) < nnz:
            c = uniform_int(gen, 0, num_cols - 1)
            if c not in col_set:  # col_set.insert(c).second
                col_set.add(c)
                cols.append(c)
        cols.sort()
        for c in cols:
            values.append(float(uniform_int(gen, -10, 10)))
            col_idx.append(c)
        row_ptr[i + 1] = row_ptr[i] + nnz
    return (
        np.array(values, dtype=np.float32),
        np.array(col_idx, dtype=np.uint32),
        np.array(row_ptr, dtype=np.uint32),
    )


def compute_spmv_cpu(
    values: np.ndarray, col_idx: np.ndarray, row_ptr: np.ndarray, x: np.ndarray, num_rows: int
) -> np.ndarray:
    golden = np.zeros(num_rows, dtype=np.float32)
    for i in range(num_rows):
        j = slice(row_ptr[i], row_ptr[i + 1])
        golden[i] = np.float32(np.sum(values[j] * x[col_idx[j]], dtype=np.float32))
    return golden


def launch_kernel(
    values: np.ndarray,
    col_idx: np.ndarray,
    row_ptr: np.ndarray,
    x: np.ndarray,
    num_rows: int,
    num_cols: int,
    kernel_type: int,
) -> np.ndarray:
    nnz = values.size
    values_bytes = nnz * float32_t.size
    col_idx_bytes = nnz * uint32_t.size
    row_ptr_bytes = (num_rows + 1) * uint32_t.size
    x_bytes = num_cols * float32_t.size
    y_bytes = num_rows * float32_t.size
    blocks_per_grid = 8
    device_id = 0

    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()
    y_host, _ = acl.rt.malloc_host(y_bytes)
    huge = acl.ACL_MEM_MALLOC_HUGE_FIRST
    values_device, _ = acl.rt.malloc(values_bytes, huge)
    col_idx_device, _ = acl.rt.malloc(col_idx_bytes, huge)
    row_ptr_device, _ = acl.rt.malloc(row_ptr_bytes, huge)
    x_device, _ = acl.rt.malloc(x_bytes, huge)
    y_device, _ = acl.rt.malloc(y_bytes, huge)

    h2d = acl.ACL_MEMCPY_HOST_TO_DEVICE
    acl.rt.memcpy(values_device, values_bytes, values, values_bytes, h2d)
    acl.rt.memcpy(col_idx_device, col_idx_bytes, col_idx, col_idx_bytes, h2d)
    acl.rt.memcpy(row_ptr_device, row_ptr_bytes, row_ptr, row_ptr_bytes, h2d)
    acl.rt.memcpy(x_device, x_bytes, x, x_bytes, h2d)

    kernel = kernel_spmv_thread if kernel_type == USE_THREAD_PER_ROW else kernel_spmv_warp
    kernel[blocks_per_grid, THREAD_COUNT, 0, stream](
        values_device.cast(float32_t),
        col_idx_device.cast(uint32_t),
        row_ptr_device.cast(uint32_t),
        x_device.cast(float32_t),
        y_device.cast(float32_t),
        uint32_t(num_rows),
    )
    acl.rt.synchronize_stream(stream)

    acl.rt.memcpy(y_host, y_bytes, y_device, y_bytes, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    output = y_host.view(np.float32)[:num_rows].copy()
    for buffer in (values_device, col_idx_device, row_ptr_device, x_device, y_device):
        acl.rt.free(buffer)
    acl.rt.free_host(y_host)
    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return output


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """``std::equal``."""
    return bool(np.array_equal(output, golden))


def make_data() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``main``'s data: the matrix, ``x`` from ``mt19937(123)``, the golden."""
    values, col_idx, row_ptr = generate_sparse_matrix(NUM_ROWS, NUM_COLS, MAX_NNZ_PER_ROW)
    gen = Mt19937(123)
    x = np.array([float(uniform_int(gen, -10, 10)) for _ in range(NUM_COLS)], dtype=np.float32)
    golden = compute_spmv_cpu(values, col_idx, row_ptr, x, NUM_ROWS)
    return values, col_idx, row_ptr, x, golden


@pytest.mark.parametrize("kernel_kind", [USE_THREAD_PER_ROW, USE_WARP_PER_ROW])
def test_spmv_matches_the_cpu_golden(kernel_kind: int) -> None:
    values, col_idx, row_ptr, x, golden = make_data()
    assert int(np.diff(row_ptr).min()) >= 1 and int(np.diff(row_ptr).max()) == MAX_NNZ_PER_ROW
    output = launch_kernel(values, col_idx, row_ptr, x, NUM_ROWS, NUM_COLS, kernel_kind)
    assert verify_result(output, golden)
    wrong = output.copy()
    wrong[NUM_ROWS - 1] += 1  # the last row (lane 31 of the last warp, or the last warp)
    assert not verify_result(wrong, golden)
