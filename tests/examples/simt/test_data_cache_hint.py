"""Port of asc-devkit examples/03_simt_api/03_best_practices/00_memory_optimizations/cache_hint/data_cache_hint.asc.

Line for line: one 1024-thread block of ``sin_table_lookup_baseline`` (scenario 0, plain loads
and stores) or ``sin_table_lookup_optimized`` (scenario 1: ``asc_ldcg`` for the streamed input,
``asc_ldca`` for the table, ``asc_stcg`` for the output), each a grid-stride loop ``for (int idx
= threadIdx.x; idx < input_length; idx += blockDim.x)`` that folds ``x`` into ``[0, pi)`` and
interpolates linearly in a 8192-entry sine table; launched ``<<<1, 1024, 216 KiB, stream>>>``.
Data as the example makes them: ``input[i] = 2 * PI * i / TABLE_SIZE`` (float arithmetic),
golden ``sinf(input[i])``, ``sin_table[i] = sin(i / table_length * PI)``; checked as its
``verify_result`` does (every ``|output - golden| <= 1e-3``).

Full size: ``INPUT_SIZE`` is the example's 65536 (inputs over eight periods, so the ``x >= PI``
fold is taken by half the threads). The fold is a divergent branch; it runs vectorised under
active masks.

The device ``fmodf`` and ``floorf`` are ascreg's SIMT math functions; the host golden ``sinf``
and the table's ``sin`` are numpy's ``sin`` in float32 and float64.

Finding: input 4096 is ``2 * PI * 4096 / 8192 == PI`` exactly; ``x >= PI`` folds it to
``2 * PI - PI == PI``, so ``index_float`` is 8192.0 and the kernel reads ``sin_table[8192]``,
one float past the 8192-entry table (in both kernels, at the example's size too). ascreg
reports the out-of-bounds read; the numeric check runs with a zeroed 32-byte pad after the
table, which is what makes the example pass when the chip's allocation is padded with zeros.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from ascreg import GmPtr, acl, float32_t, int32_t, uint32_t
from ascreg.errors import OutOfBoundsError
from ascreg.machine.kernel import __global__
from ascreg.simt import asc_ldca, asc_ldcg, asc_stcg, blockDim, floorf, fmodf, threadIdx

PI = np.float32(np.pi)  # ASCRT_PI_F
INPUT_SIZE = 256 * 1024 // float32_t.size
TABLE_SIZE = 32 * 1024 // float32_t.size
THREAD_COUNT = 1024
UB_SIZE = 216 * 1024

USE_BASELINE, USE_OPTIMIZED = 0, 1  # enum KernelKind


@__global__
def sin_table_lookup_baseline(
    input: GmPtr[float32_t],
    sin_table: GmPtr[float32_t],
    output: GmPtr[float32_t],
    input_length: int,
    table_length: int,
) -> None:
    idx = int32_t(threadIdx.x)
    while idx < input_length:
        x = input[idx]
        sign = float32_t(1.0)
        if x < 0.0:
            sign = float32_t(-1.0)
            x = -x
        two_pi = float32_t(2.0) * PI
        x = fmodf(x, two_pi)
        if x >= PI:
            x = two_pi - x
            sign = -sign

        index_float = x * float32_t(table_length) / PI
        n = uint32_t(floorf(index_float))
        frac = index_float - float32_t(n)

        low_val = sin_table[n]
        high_val = float32_t(0.0)
        if n + 1 >= table_length:  # noqa: SIM108 (the example's if/else)
            high_val = sin_table[0]
        else:
            high_val = sin_table[n + 1]
        output[idx] = sign * (low_val + frac * (high_val - low_val))
        idx += blockDim.x


@__global__
def sin_table_lookup_optimized(
    input: GmPtr[float32_t],
    sin_table: GmPtr[float32_t],
    output: GmPtr[float32_t],
    input_length: int,
    table_length: int,
) -> None:
    idx = int32_t(threadIdx.x)
    while idx < input_length:
        x = asc_ldcg(input + idx)
        sign = float32_t(1.0)
        if x < 0.0:
            sign = float32_t(-1.0)
            x = -x
        two_pi = float32_t(2.0) * PI
        x = fmodf(x, two_pi)
        if x >= PI:
            x = two_pi - x
            sign = -sign

        index_float = x * float32_t(table_length) / PI
        n = uint32_t(floorf(index_float))
        frac = index_float - float32_t(n)

        low_val = asc_ldca(sin_table + n)
        high_val = float32_t(0.0)
        if n + 1 >= table_length:
            high_val = asc_ldca(sin_table + 0)
        else:
            high_val = asc_ldca(sin_table + (n + 1))
        y = sign * (low_val + frac * (high_val - low_val))
        asc_stcg(output + idx, y)
        idx += blockDim.x


def generate_input_and_golden_data(input_length: int) -> tuple[np.ndarray, np.ndarray]:
    index = np.arange(input_length, dtype=np.int32)
    input = np.float32(2) * PI * index.astype(np.float32) / np.float32(TABLE_SIZE)
    golden = np.sin(input)  # sinf
    return input, golden


def generate_sin_table(table_length: int) -> np.ndarray:
    i = np.arange(table_length, dtype=np.uint32)
    angle = i.astype(np.float32) / np.float32(table_length) * PI
    return np.sin(angle.astype(np.float64)).astype(np.float32)


def launch_kernel(
    input: np.ndarray,
    sin_table: np.ndarray,
    input_length: int,
    table_length: int,
    kernel_type: int,
    table_padding: int = 0,
) -> np.ndarray:
    input_bytes = input_length * float32_t.size
    table_bytes = table_length * float32_t.size
    output_bytes = input_length * float32_t.size

    blocks_per_grid = 1

    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()
    output_host, _ = acl.rt.malloc_host(output_bytes)
    input_device, _ = acl.rt.malloc(input_bytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    table_device, _ = acl.rt.malloc(table_bytes + table_padding, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    if table_padding:  # zeros after the table, as a padded allocation on the chip may hold
        acl.rt.memset(table_device, table_bytes + table_padding, 0, table_bytes + table_padding)
    output_device, _ = acl.rt.malloc(output_bytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(input_device, input_bytes, input, input_bytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    acl.rt.memcpy(table_device, table_bytes, sin_table, table_bytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)

    kernel = (
        sin_table_lookup_baseline if kernel_type == USE_BASELINE else sin_table_lookup_optimized
    )
    kernel[blocks_per_grid, THREAD_COUNT, UB_SIZE, stream](
        input_device.cast(float32_t),
        table_device.cast(float32_t),
        output_device.cast(float32_t),
        uint32_t(input_length),
        uint32_t(table_length),
    )

    acl.rt.synchronize_stream(stream)

    acl.rt.memcpy(
        output_host, output_bytes, output_device, output_bytes, acl.ACL_MEMCPY_DEVICE_TO_HOST
    )
    output = output_host.view(np.float32).copy()

    acl.rt.free(input_device)
    acl.rt.free(table_device)
    acl.rt.free(output_device)
    acl.rt.free_host(output_host)

    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)

    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()

    return output


def verify_result(output: np.ndarray, golden: np.ndarray, abs_tolerance: float = 1e-3) -> bool:
    """The example's check: same size, every ``fabs(output - golden) <= abs_tolerance``."""
    if output.size != golden.size:
        return False
    return bool(np.all(np.abs(output - golden) <= np.float32(abs_tolerance)))


@pytest.mark.parametrize("kernel_kind", [USE_BASELINE, USE_OPTIMIZED])
def test_the_example_reads_one_past_the_sine_table(kernel_kind: int) -> None:
    """A finding: input 4096 is exactly PI, folds to PI, and reads ``sin_table[8192]``."""
    input, _ = generate_input_and_golden_data(INPUT_SIZE)
    sin_table = generate_sin_table(TABLE_SIZE)
    table = INPUT_SIZE * float32_t.size
    with pytest.raises(
        OutOfBoundsError,
        match=(  # the table is allocated right after the input
            rf"aclrtMalloc\(32768\)' \[{table:#x}, {table + 32768:#x}\)\); "
            rf"the access \[0x\w+, {table + 32768 + 4:#x}\)"
        ),
    ):
        launch_kernel(input, sin_table, INPUT_SIZE, TABLE_SIZE, kernel_kind)
    acl.rt.reset_device(0)
    acl.finalize()


@pytest.mark.parametrize("kernel_kind", [USE_BASELINE, USE_OPTIMIZED])
def test_sin_table_lookup_matches_sinf(kernel_kind: int) -> None:
    """With one zero float after the table (what the chip reads there decides the example)."""
    input, golden = generate_input_and_golden_data(INPUT_SIZE)
    sin_table = generate_sin_table(TABLE_SIZE)
    output = launch_kernel(input, sin_table, INPUT_SIZE, TABLE_SIZE, kernel_kind, 32)
    assert verify_result(output, golden)
    assert not verify_result(np.abs(output), golden)  # a lost sign (the x >= PI fold) fails
