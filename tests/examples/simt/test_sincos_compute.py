"""Port of asc-devkit examples/03_simt_api/03_best_practices/01_execution_conf_optimizations/max_thread_config/sincos_compute/sincos_compute.asc.

Line for line: two pure SIMT kernels, ``sincos_thread_1024`` (no ``__launch_bounds__``: the
default 1024) and ``sincos_thread_512`` (``__launch_bounds__(512)``), each launched
``<<<48, 512, 0, stream>>>``; every thread calls ``sincosf(input[idx], output_sin + idx,
output_cos + idx)`` for 16 indices ``blk_start_idx + i * 512 + threadIdx.x``. The host makes
``input[i] = i * 1.2f`` (48 * 512 * 16 floats) and the goldens with ``sin``/``cos`` of each
input (double, stored as float), and ``verify_result`` accepts ``fabs(x - y) < 0.0001`` per
element. Sizes are the example's own.

The example's ``main`` returns ``verify_result(sin) && verify_result(cos)``, which skips the cos
check when the sin check passes (returns 0); the test checks both results on their own too.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from ascreg import GmPtr, acl, float32_t, int32_t, uint64_t
from ascreg.machine.kernel import __global__
from ascreg.simt import __launch_bounds__, blockIdx, sincosf, threadIdx
from ascreg.testing import assert_ulp_close

PER_THREAD_LOOP = 16
BLOCKS_PER_GRID = 48
THREADS_PER_BLOCK = 512


@__global__
def sincos_thread_1024(
    input: GmPtr[float32_t],
    output_sin: GmPtr[float32_t],
    output_cos: GmPtr[float32_t],
    total_length: int,
) -> None:
    blk_start_idx = int32_t(blockIdx.x * THREADS_PER_BLOCK * PER_THREAD_LOOP)

    for i in range(PER_THREAD_LOOP):
        idx = blk_start_idx + i * THREADS_PER_BLOCK + threadIdx.x
        sincosf(input[idx], output_sin + idx, output_cos + idx)


@__global__
@__launch_bounds__(512)
def sincos_thread_512(
    input: GmPtr[float32_t],
    output_sin: GmPtr[float32_t],
    output_cos: GmPtr[float32_t],
    total_length: int,
) -> None:
    blk_start_idx = int32_t(blockIdx.x * THREADS_PER_BLOCK * PER_THREAD_LOOP)

    for i in range(PER_THREAD_LOOP):
        idx = blk_start_idx + i * THREADS_PER_BLOCK + threadIdx.x
        sincosf(input[idx], output_sin + idx, output_cos + idx)


def sincos_func(
    input: np.ndarray, output_sin: np.ndarray, output_cos: np.ndarray, case_name: str
) -> None:
    if input.size == 0:
        print("[ERROR] Empty input tensors.")
        return

    total_length = input.size
    total_byte_size = total_length * float32_t.size

    device_id = 0

    # Init
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()

    # Allocate host and device memory, and copy input data from host to device
    input_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    output_sin_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    output_cos_device, _ = acl.rt.malloc(total_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(
        input_device, total_byte_size, input, total_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE
    )

    # Configure kernel launch parameters
    dyn_ubuf_size = 0  # No dynamic memory required in this sample

    # Call kernel function with <<<...>>>
    # "1024": launch_bound was set to 1024 by default; otherwise it was set to 512
    kernel = sincos_thread_1024 if case_name == "1024" else sincos_thread_512
    kernel[BLOCKS_PER_GRID, THREADS_PER_BLOCK, dyn_ubuf_size, stream](
        input_device.cast(float32_t),
        output_sin_device.cast(float32_t),
        output_cos_device.cast(float32_t),
        uint64_t(total_length),
    )

    # Wait for the kernel to complete
    acl.rt.synchronize_stream(stream)

    # Copy the result from device memory to host memory
    acl.rt.memcpy(
        output_sin, total_byte_size, output_sin_device, total_byte_size,
        acl.ACL_MEMCPY_DEVICE_TO_HOST,
    )  # fmt: skip
    acl.rt.memcpy(
        output_cos, total_byte_size, output_cos_device, total_byte_size,
        acl.ACL_MEMCPY_DEVICE_TO_HOST,
    )  # fmt: skip

    # free memory
    acl.rt.free(input_device)
    acl.rt.free(output_sin_device)
    acl.rt.free(output_cos_device)

    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)

    # DeInit
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()


def print_tensor(tensor: np.ndarray, name: str) -> None:
    max_print_size = 20
    shown = " ".join(f"{v:g}" for v in tensor[:max_print_size])
    print(f"{name}: {shown} {'...' if tensor.size > max_print_size else ''}")


def verify_result(output: np.ndarray, golden: np.ndarray) -> int:
    print_tensor(output, "Output")
    print_tensor(golden, "Golden")
    eps = np.float32(0.0001)
    if np.all(np.abs(output - golden) < eps):
        print("[Success] Case accuracy is verification passed.")
        return 0
    print("[Failed] Case accuracy is verification failed!")
    return 1


total_length = BLOCKS_PER_GRID * THREADS_PER_BLOCK * PER_THREAD_LOOP


def make_data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The example's ``main``: ``input[i] = i * 1.2f``; goldens ``sin``/``cos`` of each input."""
    i = np.arange(total_length, dtype=np.uint32)
    input = i.astype(np.float32) * np.float32(1.2)
    golden_sin = np.sin(input.astype(np.float64)).astype(np.float32)
    golden_cos = np.cos(input.astype(np.float64)).astype(np.float32)
    return input, golden_sin, golden_cos


def main(case_name: str) -> tuple[int, np.ndarray, np.ndarray]:
    input, golden_sin, golden_cos = make_data()
    output_sin = np.zeros(total_length, dtype=np.float32)
    output_cos = np.zeros(total_length, dtype=np.float32)
    sincos_func(input, output_sin, output_cos, case_name)
    if output_sin.size == 0 or output_cos.size == 0:
        return 1, output_sin, output_cos
    status = verify_result(output_sin, golden_sin) and verify_result(output_cos, golden_cos)
    return status, output_sin, output_cos


@pytest.mark.parametrize("case_name", ["1024", "512"])
def test_sincos_compute_matches_the_examples_golden(
    case_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, output_sin, output_cos = main(case_name)
    assert status == 0
    assert "[Success] Case accuracy is verification passed." in capsys.readouterr().out
    _, golden_sin, golden_cos = make_data()
    assert verify_result(output_cos, golden_cos) == 0  # the check main's `&&` skips
    # sincosf is correctly rounded in ascreg: within one ulp of the double golden rounded again
    assert_ulp_close(output_sin, golden_sin, ulp=1)
    assert_ulp_close(output_cos, golden_cos, ulp=1)


def test_sincos_compute_fails_on_a_wrong_result() -> None:
    _, golden_sin, golden_cos = make_data()
    wrong = golden_sin.copy()
    wrong[12345] += np.float32(0.001)
    assert verify_result(wrong, golden_sin) == 1
    assert verify_result(golden_cos, golden_sin) == 1
