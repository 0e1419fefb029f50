"""Port of asc-devkit examples/03_simt_api/03_best_practices/00_memory_optimizations/aligned_types/aligned_types.asc.

Line for line: ``aligned_type_kernel<TData>`` (one block of 2048 threads, a grid-stride loop)
copies an array of structs element by element, ``d_odata[pos] = d_idata[pos]``, for the
example's fourteen struct types: ``alignas`` and natural versions of 4 x ``unsigned char``, 2 x
``uint16_t``, 2, 4 and 8 x ``unsigned int``, ``uint8_t, uint8_t, uint16_t`` and ``uint8_t,
uint16_t`` (one padding byte at offset 1). ``main`` fills the input bytes with ``(i & 0xFF) +
1``, ``run_test`` zeroes the output (``aclrtMemset``), launches, copies back and checks with
``verify_packed`` (the first ``packed_size`` bytes of every element equal).

Not line for line: a C++ struct is a class with a structured ``np_dtype`` (its fields at their
offsets, ``itemsize`` = ``sizeof``) that ascreg pointers can be cast to, as its SIMT vector types
are; ``alignof`` changes only how the chip splits the loads (the example's point is the
bandwidth), which ascreg does not time, so each aligned / natural pair runs the same copy.
Smaller: 4 MiB instead of 512 MiB (``MEM_BYTES``): 64 .. 512 grid-stride steps.

Finding: ``verify_packed`` compares all 4 bytes of ``AlignU8PadU16`` and ``MisalignU8PadU16``,
padding byte included, but a struct assignment need not copy padding (C++ copies the members);
the check passes on the chip only because the copy is done as one 4-byte move. ascreg copies
whole elements, padding included.
"""

from __future__ import annotations

import sys
from typing import Any, ClassVar

import numpy as np
import pytest

from ascreg import acl, uint8_t
from ascreg._dtypes import Kind
from ascreg.machine.kernel import __global__
from ascreg.simt import __launch_bounds__, blockDim, blockIdx, gridDim, threadIdx

THREAD_COUNT = 2048  # threads per block
MEM_BYTES = 4 * 1024 * 1024  # the example: 512 MiB


class Struct(np.ndarray[Any, Any]):
    """A C struct as an element type: fields at their offsets, ``itemsize`` = ``sizeof``."""

    cpp_name: ClassVar[str]
    np_dtype: ClassVar[np.dtype[Any]]
    size: ClassVar[int]
    kind: ClassVar[Kind] = Kind.RAW


def struct(name: str, fields: list[tuple[str, Any]], offsets: list[int], size: int) -> Any:
    """``struct name { fields };`` with ``sizeof`` *size*."""
    names = [field for field, _ in fields]
    formats = [fmt for _, fmt in fields]
    dtype = np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": size})
    return type(name, (Struct,), {"cpp_name": name, "np_dtype": dtype, "size": size})


u8, u16, u32 = np.uint8, np.uint16, np.uint32
RGBA8 = [("r", u8), ("g", u8), ("b", u8), ("a", u8)]
TWO_U16 = [("a", u16), ("b", u16)]
TWO_U32 = [("l", u32), ("a", u32)]
RGBA32 = [("r", u32), ("g", u32), ("b", u32), ("a", u32)]
EIGHT_U32 = [("v", (u32, 8))]
U8_U8_U16 = [("a", u8), ("b", u8), ("c", u16)]
U8_PAD_U16 = [("a", u8), ("b", u16)]

Align4 = struct("Align4", RGBA8, [0, 1, 2, 3], 4)  # alignas(4)
Misalign4 = struct("Misalign4", RGBA8, [0, 1, 2, 3], 4)  # alignof 1
Align2U16 = struct("Align2U16", TWO_U16, [0, 2], 4)  # alignas(4)
Misalign2U16 = struct("Misalign2U16", TWO_U16, [0, 2], 4)  # alignof 2
Align8 = struct("Align8", TWO_U32, [0, 4], 8)  # alignas(8)
Misalign8 = struct("Misalign8", TWO_U32, [0, 4], 8)  # alignof 4
Align16 = struct("Align16", RGBA32, [0, 4, 8, 12], 16)  # alignas(16)
Misalign16 = struct("Misalign16", RGBA32, [0, 4, 8, 12], 16)  # alignof 4
Align32 = struct("Align32", EIGHT_U32, [0], 32)  # alignas(32)
Misalign32 = struct("Misalign32", EIGHT_U32, [0], 32)  # alignof 4
AlignU8U16 = struct("AlignU8U16", U8_U8_U16, [0, 1, 2], 4)  # alignas(4), no padding
MisalignU8U16 = struct("MisalignU8U16", U8_U8_U16, [0, 1, 2], 4)  # alignof 2
AlignU8PadU16 = struct("AlignU8PadU16", U8_PAD_U16, [0, 2], 4)  # alignas(4), pad at 1
MisalignU8PadU16 = struct("MisalignU8PadU16", U8_PAD_U16, [0, 2], 4)  # alignof 2, pad at 1

TESTS = [
    (Align4, 4),
    (Misalign4, 4),
    (Align2U16, 4),
    (Misalign2U16, 4),
    (Align8, 8),
    (Misalign8, 8),
    (Align16, 16),
    (Misalign16, 16),
    (Align32, 32),
    (Misalign32, 32),
    (AlignU8U16, 4),
    (MisalignU8U16, 4),
    (AlignU8PadU16, 4),
    (MisalignU8PadU16, 4),
]
"""``run_test<TData>(name, packed_size, ...)``, in ``main``'s order."""


@__global__
@__launch_bounds__(THREAD_COUNT)
def aligned_type_kernel(d_odata, d_idata, num_elements: int) -> None:  # type: ignore[no-untyped-def]
    # template <class TData>: d_odata and d_idata are TData* (unannotated: any struct type)
    tid = blockIdx.x * blockDim.x + threadIdx.x
    num_threads = blockDim.x * gridDim.x
    for pos in range(tid, num_elements, num_threads):
        d_odata[pos] = d_idata[pos]


def verify_packed(
    data_type: Any, h_odata: np.ndarray, h_idata: np.ndarray, num_elements: int, packed_size: int
) -> bool:
    """Every element's first *packed_size* bytes equal (all elements at once)."""
    src = h_idata[: num_elements * data_type.size].reshape(num_elements, data_type.size)
    dst = h_odata[: num_elements * data_type.size].reshape(num_elements, data_type.size)
    return bool(np.array_equal(src[:, :packed_size], dst[:, :packed_size]))


def run_test(
    data_type: Any,
    packed_size: int,
    d_idata: Any,
    d_odata: Any,
    h_idata: np.ndarray,
    h_odata: np.ndarray,
    stream: Any,
) -> bool:
    num_elements = MEM_BYTES // data_type.size
    acl.rt.memset(d_odata, MEM_BYTES, 0, MEM_BYTES)
    aligned_type_kernel[1, THREAD_COUNT, 0, stream](
        d_odata.cast(data_type), d_idata.cast(data_type), num_elements
    )
    acl.rt.synchronize_stream(stream)
    acl.rt.memcpy(h_odata, MEM_BYTES, d_odata, MEM_BYTES, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    return verify_packed(data_type, h_odata, h_idata, num_elements, packed_size)


def run_all(tests: list[tuple[Any, int]]) -> tuple[int, np.ndarray, np.ndarray]:
    """``main``: returns the failure count and the last run's input and output bytes."""
    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()
    h_idata = (np.arange(MEM_BYTES) & 0xFF).astype(np.uint16) + 1  # (i & 0xFF) + 1 as uint8_t
    h_idata = h_idata.astype(np.uint8)
    h_odata = np.zeros(MEM_BYTES, dtype=np.uint8)
    d_idata, _ = acl.rt.malloc(MEM_BYTES, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    d_odata, _ = acl.rt.malloc(MEM_BYTES, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    acl.rt.memcpy(d_idata, MEM_BYTES, h_idata, MEM_BYTES, acl.ACL_MEMCPY_HOST_TO_DEVICE)

    failures = 0
    for data_type, packed_size in tests:
        passed = run_test(
            data_type,
            packed_size,
            d_idata.cast(uint8_t),
            d_odata.cast(uint8_t),
            h_idata,
            h_odata,
            stream,
        )
        failures += not passed

    acl.rt.free(d_idata)
    acl.rt.free(d_odata)
    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return failures, h_idata, h_odata


def test_every_struct_copy_passes_verify_packed() -> None:
    failures, h_idata, h_odata = run_all(TESTS)
    assert failures == 0
    assert h_idata[255] == 0 and h_idata[256] == 1  # (255 & 0xFF) + 1 wraps to 0 as uint8_t
    assert np.array_equal(h_odata, h_idata)  # the last copy (MisalignU8PadU16) moved every byte


@pytest.mark.parametrize("data_type", [Align8, AlignU8PadU16])
def test_verify_packed_catches_a_wrong_byte(data_type: Any) -> None:
    num_elements = 16
    h_idata = np.arange(num_elements * data_type.size, dtype=np.uint8)
    h_odata = h_idata.copy()
    assert verify_packed(data_type, h_odata, h_idata, num_elements, data_type.size)
    h_odata[5 * data_type.size + 1] ^= 1  # element 5, byte 1 (the padding of *U8PadU16)
    assert not verify_packed(data_type, h_odata, h_idata, num_elements, data_type.size)
