"""Port of asc-devkit examples/03_simt_api/00_introduction/01_gather/general_gather/gather_v2.asc.

Line for line: ``gather_custom_v2<float, uint32_t, is_batch_dims_zero, is_axis_zero>``
(``__launch_bounds__(2048)``) walks the flattened output in a grid-stride loop, splits each
output index into (batch, outer, index, slice), reads the index and copies one input element,
or writes 0 when the index is outside the gathered axis. The two template flags become trailing
``bool`` arguments (Python has no ``if constexpr``; the branches they guard are uniform). The host part
re-expresses ``normalize_gather_dims``, ``compute_shape_size``, ``compute_gather_input``
(``GatherV2Params``), ``block_split`` (at most 2048 threads a block, at most the vector core
count of blocks: ``GetCoreNumAiv``, here the emulated device's 64), the four-way launch and
``compute_golden``; ``verify_result`` is ``std::equal`` after a size check.

The example's case is kept: ``axis = 1``, ``batch_dims = 1``, ``input[i] = float(i) * 1.2f``,
``indices[i] = i % 20000``. Smaller: input ``{4, 20000, 4}`` and indices ``{4, 2048}`` instead
of ``{128, 20000, 512}`` and ``{128, 2048}`` (the example's input is 1.3 G floats); the launch
is then 16 blocks of 2048 threads, two grid-stride steps each.

Beyond the example (its ``main`` runs only the case above, so three of the four kernels and
the out-of-range branch never run): ``axis = 0`` / ``batch_dims = 0`` on a ``{300, 8}`` input
with the same ``i % 20000`` indices, most of them past row 300 (zeros), and ``axis = 1``,
``batch_dims = 0`` on a ``{3, 50, 2}`` input; the kernel's golden is the example's
``compute_golden`` and, independently, ``numpy.take`` (with ``batch_dims`` done per batch).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np
import pytest

from ascreg import GmPtr, Ref, acl, float32_t, uint32_t
from ascreg.machine.kernel import __global__
from ascreg.simt import __launch_bounds__, blockDim, blockIdx, gridDim, threadIdx

MAX_THREAD_COUNT = 2048
MAX_BLOCK_COUNT = 65535


@__global__
@__launch_bounds__(MAX_THREAD_COUNT)
def gather_custom_v2(
    input: GmPtr[float32_t],
    indices: GmPtr[uint32_t],
    gather_output: GmPtr[float32_t],
    outer_size: int,
    gather_dim_size: int,
    indices_size: int,
    slice_size: int,
    output_total_size: int,
    is_batch_dims_zero: bool,
    is_axis_zero: bool,
) -> None:
    begin = uint32_t(blockIdx.x * blockDim.x + threadIdx.x)
    stride = uint32_t(gridDim.x * blockDim.x)

    i = begin
    while i < output_total_size:
        # the flat output index as [batch, outer, indices, slice]
        slices_count = i // slice_size
        slice_i = i - slices_count * slice_size

        entries_count = slices_count // indices_size
        indices_i = slices_count - entries_count * indices_size

        batch_i = uint32_t(0)
        outer_i = uint32_t(0)

        if not is_batch_dims_zero:
            batch_i = entries_count // outer_size
        if not is_axis_zero:
            outer_i = entries_count - batch_i * outer_size

        gather_idx = indices[batch_i * indices_size + indices_i]

        if gather_idx >= 0 and gather_idx < gather_dim_size:
            input_i = (
                (batch_i * outer_size + outer_i) * gather_dim_size + gather_idx
            ) * slice_size + slice_i
            gather_output[i] = input[input_i]
        else:
            gather_output[i] = float32_t(0)
        i += stride


def block_split(
    output_total_size: int, blocks_per_grid: Ref[int], threads_per_block: Ref[int]
) -> bool:
    real_core_num = acl.DEVICE_INFO[acl.ACL_DEV_ATTR_VECTOR_CORE_NUM]  # GetCoreNumAiv()
    threads_per_block.value = min(output_total_size, MAX_THREAD_COUNT)
    blocks_per_grid.value = (output_total_size + threads_per_block.value - 1) // (
        threads_per_block.value
    )
    if blocks_per_grid.value > real_core_num:
        blocks_per_grid.value = real_core_num
    return True


@dataclass
class GatherV2Params:
    outer_size: int = 1  # the dimensions before axis (batch excluded)
    gather_dim_size: int = 1  # the axis dimension
    indices_size: int = 1  # the indices' dimensions (batch excluded)
    slice_size: int = 1  # the dimensions after axis
    output_total_size: int = 0  # output elements


def normalize_gather_dims(
    input_rank: int, indices_rank: int, axis: Ref[int], batch_dims: Ref[int]
) -> bool:
    if axis.value < 0:
        axis.value += input_rank
    if batch_dims.value < 0:
        batch_dims.value += indices_rank
    if axis.value < 0 or axis.value >= input_rank:
        return False  # invalid axis
    if batch_dims.value < 0 or batch_dims.value > min(input_rank, indices_rank):
        return False  # invalid batch_dims
    return batch_dims.value <= axis.value  # batch_dims must be <= axis


def compute_shape_size(shape: list[int]) -> int:
    total_size = 1
    for dim in shape:
        total_size *= dim
    return total_size


def compute_gather_input(
    input_shape: list[int], indices_shape: list[int], axis: int, batch_dims: int
) -> GatherV2Params:
    params = GatherV2Params()
    input_rank = len(input_shape)
    indices_rank = len(indices_shape)

    batch_size = 1
    for i in range(batch_dims):
        batch_size *= input_shape[i]
    for i in range(batch_dims, axis):
        params.outer_size *= input_shape[i]
    params.gather_dim_size = input_shape[axis]
    for i in range(batch_dims, indices_rank):
        params.indices_size *= indices_shape[i]
    for i in range(axis + 1, input_rank):
        params.slice_size *= input_shape[i]

    params.output_total_size = (
        batch_size * params.outer_size * params.indices_size * params.slice_size
    )
    return params


def gather_v2(
    input: np.ndarray,
    input_shape: list[int],
    indices: np.ndarray,
    indices_shape: list[int],
    axis_arg: int,
    batch_dims_arg: int = 0,
) -> np.ndarray:
    empty = np.zeros(0, np.float32)
    if input.size == 0 or indices.size == 0:
        return empty  # empty input tensors
    axis, batch_dims = Ref(axis_arg), Ref(batch_dims_arg)
    if not normalize_gather_dims(len(input_shape), len(indices_shape), axis, batch_dims):
        return empty
    if compute_shape_size(input_shape) != input.size:
        return empty  # input size does not match its shape
    if compute_shape_size(indices_shape) != indices.size:
        return empty  # indices size does not match their shape

    params = compute_gather_input(input_shape, indices_shape, axis.value, batch_dims.value)
    for i in range(batch_dims.value):
        if input_shape[i] != indices_shape[i]:
            return empty  # batch dimensions mismatch
    if params.output_total_size == 0:
        return empty

    blocks_per_grid, threads_per_block = Ref(0), Ref(0)
    if not block_split(params.output_total_size, blocks_per_grid, threads_per_block):
        return empty

    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()

    input_total_byte_size = input.size * float32_t.size
    indices_total_byte_size = indices.size * uint32_t.size
    output_total_byte_size = params.output_total_size * float32_t.size

    input_device, _ = acl.rt.malloc(input_total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    indices_device, _ = acl.rt.malloc(indices_total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    output_device, _ = acl.rt.malloc(output_total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    output_host, _ = acl.rt.malloc_host(output_total_byte_size)

    h2d = acl.ACL_MEMCPY_HOST_TO_DEVICE
    acl.rt.memcpy(input_device, input_total_byte_size, input, input_total_byte_size, h2d)
    acl.rt.memcpy(indices_device, indices_total_byte_size, indices, indices_total_byte_size, h2d)

    dyn_ubuf_size = 0
    # the four template instances: one kernel, the flags as its last arguments
    gather_custom_v2[blocks_per_grid.value, threads_per_block.value, dyn_ubuf_size, stream](
        input_device.cast(float32_t),
        indices_device.cast(uint32_t),
        output_device.cast(float32_t),
        uint32_t(params.outer_size),
        uint32_t(params.gather_dim_size),
        uint32_t(params.indices_size),
        uint32_t(params.slice_size),
        uint32_t(params.output_total_size),
        batch_dims.value == 0,  # is_batch_dims_zero
        axis.value == 0,  # is_axis_zero
    )
    acl.rt.synchronize_stream(stream)
    d2h = acl.ACL_MEMCPY_DEVICE_TO_HOST
    acl.rt.memcpy(output_host, output_total_byte_size, output_device, output_total_byte_size, d2h)
    output = output_host.view(np.float32).copy()

    for buffer in (input_device, indices_device, output_device):
        acl.rt.free(buffer)
    acl.rt.free_host(output_host)
    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return output


def verify_result(output: np.ndarray, golden: np.ndarray) -> bool:
    """The sizes must match, then ``std::equal``."""
    if output.size != golden.size:
        return False
    return bool(np.array_equal(output, golden))


def compute_golden(
    input: np.ndarray,
    input_shape: list[int],
    indices: np.ndarray,
    indices_shape: list[int],
    axis_arg: int,
    batch_dims_arg: int,
) -> np.ndarray:
    """The example's ``compute_golden`` (its scalar loop, over every output index at once)."""
    axis, batch_dims = Ref(axis_arg), Ref(batch_dims_arg)
    if not normalize_gather_dims(len(input_shape), len(indices_shape), axis, batch_dims):
        return np.zeros(0, np.float32)
    params = compute_gather_input(input_shape, indices_shape, axis.value, batch_dims.value)
    i = np.arange(params.output_total_size, dtype=np.int64)
    slices_count = i // params.slice_size
    slice_i = i % params.slice_size
    entries_count = slices_count // params.indices_size
    indices_i = slices_count % params.indices_size
    batch_i = entries_count // params.outer_size if batch_dims.value != 0 else 0 * i
    outer_i = entries_count % params.outer_size if axis.value != 0 else 0 * i
    gather_idx = indices[batch_i * params.indices_size + indices_i].astype(np.int64)
    inside = (gather_idx >= 0) & (gather_idx < params.gather_dim_size)
    input_i = (
        (batch_i * params.outer_size + outer_i) * params.gather_dim_size + gather_idx
    ) * params.slice_size + slice_i
    return np.where(inside, input[np.where(inside, input_i, 0)], np.float32(0))


def numpy_gather(
    input: np.ndarray,
    input_shape: list[int],
    indices: np.ndarray,
    indices_shape: list[int],
    axis: int,
    batch_dims: int,
) -> np.ndarray:
    """An independent golden: ``numpy.take`` per batch, zeros for out-of-range indices."""
    data = input.reshape(input_shape)
    idx = indices.reshape(indices_shape).astype(np.int64)
    batches = [(data, idx)] if batch_dims == 0 else list(zip(data, idx, strict=True))
    parts = []
    for batch_data, batch_idx in batches:
        axis_in_batch = axis - batch_dims
        size = batch_data.shape[axis_in_batch]
        taken = np.take(batch_data, np.clip(batch_idx, 0, size - 1), axis=axis_in_batch)
        keep = (batch_idx < size).reshape(
            (1,) * axis_in_batch + batch_idx.shape + (1,) * (batch_data.ndim - axis_in_batch - 1)
        )
        parts.append(np.where(keep, taken, np.float32(0)).reshape(-1))
    return np.concatenate(parts)


def make_data(input_shape: list[int], indices_shape: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The example's ``main``: ``input[i] = float(i) * 1.2f``, ``indices[i] = i % 20000``."""
    input_size = compute_shape_size(input_shape)
    input = np.arange(input_size, dtype=np.uint32).astype(np.float32) * np.float32(1.2)
    indices = (np.arange(compute_shape_size(indices_shape)) % 20000).astype(np.uint32)
    return input, indices


CASES = [
    pytest.param([4, 20000, 4], [4, 2048], 1, 1, id="the-example-axis1-batch1"),
    pytest.param([300, 8], [2, 256], 0, 0, id="axis0-batch0-out-of-range"),
    pytest.param([3, 50, 2], [7, 11], -2, 0, id="axis1-batch0"),
    pytest.param([2, 3, 50], [2, 40], 2, 1, id="axis2-batch1-out-of-range"),
]


@pytest.mark.parametrize(("input_shape", "indices_shape", "axis", "batch_dims"), CASES)
def test_gather_v2_matches_the_golden(
    input_shape: list[int], indices_shape: list[int], axis: int, batch_dims: int
) -> None:
    input, indices = make_data(input_shape, indices_shape)
    golden = compute_golden(input, input_shape, indices, indices_shape, axis, batch_dims)
    assert verify_result(golden, numpy_gather(input, input_shape, indices, indices_shape,
                                              axis % len(input_shape), batch_dims))  # fmt: skip
    output = gather_v2(input, input_shape, indices, indices_shape, axis, batch_dims)
    assert verify_result(output, golden)
    wrong = output.copy()
    wrong[output.size // 3] += 1
    assert not verify_result(wrong, golden)  # one wrong element fails
    assert not verify_result(output[1:], golden)  # so does a lost one
