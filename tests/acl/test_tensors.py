"""Host tensors of other libraries at every host entry point: DLPack and the buffer protocol.

The torch versions of these checks are in test_torch.py (skipped without torch); here a small
DLPack-only wrapper stands in for a foreign tensor, so the DLPack path runs everywhere.
"""

from __future__ import annotations

import array
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ascreg import GmPtr, acl, float32_t, half, uint8_t
from ascreg.errors import AddressSpaceError, AscregError, AscregTypeError, HostTensorError
from ascreg.examples import vector_add
from ascreg.machine.tensors import host_array, is_host_tensor

H2D, D2H = acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST


class Foreign:
    """A tensor known only through DLPack (no __array__, no buffer protocol), like CuPy's."""

    def __init__(self, values: np.ndarray[Any, Any], device: int = 1) -> None:
        self.values, self.device = values, device

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.values.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        return (self.device, 0)


@pytest.fixture
def device() -> Iterator[None]:
    acl.finalize()
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    yield
    acl.rt.reset_device(0)
    acl.finalize()


def test_memcpy_takes_buffer_protocol_objects_both_ways(device: None) -> None:
    dev, _ = acl.rt.malloc(8)
    assert acl.rt.memcpy(dev, 8, array.array("H", [1, 2, 3, 4]), 8, H2D) == 0
    back = bytearray(8)
    assert acl.rt.memcpy(back, 8, dev, 8, D2H) == 0
    assert np.frombuffer(back, np.uint16).tolist() == [1, 2, 3, 4]
    view = memoryview(bytearray(8))
    assert acl.rt.memcpy(view, 8, dev, 4, D2H) == 0
    assert bytes(view[:4]) == bytes(back[:4])


def test_memcpy_writes_a_dlpack_destination_in_place(device: None) -> None:
    dev, _ = acl.rt.malloc(16)
    assert acl.rt.memcpy(dev, 16, Foreign(np.float32([1, 2, 3, 4])), 16, H2D) == 0
    dest = Foreign(np.zeros(4, np.float32))
    assert acl.rt.memcpy(dest, 16, dev, 16, D2H) == 0
    assert dest.values.tolist() == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("dest", "rule"),
    [
        (b"12345678", "destination bytes is read-only"),
        (np.zeros(8, np.uint16)[::2], "destination ndarray is not contiguous"),
        (Foreign(np.zeros(8, np.uint8), device=2), "lives on a CUDA device"),
        (Foreign(np.zeros(8, np.uint8)[::2]), "destination Foreign is not contiguous"),
        ("text", "cannot write into str"),
    ],
    ids=["bytes", "strided", "cuda", "strided-dlpack", "str"],
)
def test_memcpy_refuses_a_destination_it_cannot_write_in_place(
    device: None, dest: Any, rule: str
) -> None:
    dev, _ = acl.rt.malloc(8)
    assert acl.rt.memcpy(dest, 8, dev, 8, D2H) == acl.ACL_ERROR_INVALID_PARAM
    message = acl.get_recent_err_msg()
    assert message.startswith("aclrtMemcpy: ") and rule in message, message


def test_memcpy_refuses_a_strided_source(device: None) -> None:
    dev, _ = acl.rt.malloc(8)
    assert acl.rt.memcpy(dev, 8, np.zeros(8, np.uint16)[::2], 8, H2D) != 0
    assert "source ndarray is not contiguous" in acl.get_recent_err_msg()


def test_to_device_and_from_device_round_trip_a_kernel(device: None) -> None:
    rng = np.random.default_rng(30)
    x, y = (rng.uniform(-9, 9, vector_add.TOTAL_LENGTH).astype(np.float32) for _ in "xy")
    z = Foreign(np.zeros_like(x))
    px, py, pz = acl.to_device(Foreign(x)), acl.to_device(y), acl.to_device(z)
    assert isinstance(px, GmPtr) and px.dtype is float32_t
    vector_add.add_custom[vector_add.BLOCKS, 0, None](px, py, pz)
    assert acl.from_device(pz, out=z) is z
    assert np.array_equal(z.values, x + y)
    fresh = acl.from_device(pz, like=x)
    assert isinstance(fresh, np.ndarray) and np.array_equal(fresh, x + y)


def test_from_device_checks_its_arguments(device: None) -> None:
    ptr = acl.to_device(np.zeros((2, 2), np.float16))
    assert ptr.dtype is half
    with pytest.raises(AscregTypeError, match=r"acl.from_device: pass exactly one of like="):
        acl.from_device(ptr)
    with pytest.raises(AscregTypeError, match="the tensor holds float32, the pointer half"):
        acl.from_device(ptr, like=np.zeros(4, np.float32))
    with pytest.raises(AscregTypeError, match="is not a __gm__ pointer"):
        acl.from_device(np.zeros(2), like=np.zeros(2))
    with pytest.raises(HostTensorError, match=r"acl.from_device: the destination .* read-only"):
        frozen = np.zeros(4, np.float16)
        frozen.flags.writeable = False
        acl.from_device(ptr, out=frozen)
    raw, _ = acl.rt.malloc(8)  # the void* of malloc reads into any element type
    assert acl.from_device(raw, like=np.ones(2, np.float32)).tolist() == [0.0, 0.0]


def test_to_device_names_what_it_cannot_copy(device: None) -> None:
    with pytest.raises(AscregTypeError, match="a tensor of complex64 has no ascreg element type"):
        acl.to_device(np.zeros(2, np.complex64))
    with pytest.raises(AddressSpaceError, match=r"acl.to_device: the source Foreign lives on a"):
        acl.to_device(Foreign(np.zeros(2, np.float32), device=10))


def test_to_device_without_a_device_raises_the_acl_message() -> None:
    acl.finalize()
    with pytest.raises(AscregError, match=r"acl.to_device: call acl.init\(\) first"):
        acl.to_device(np.zeros(2, np.float32))


def test_pointer_write_and_read_take_foreign_tensors(device: None) -> None:
    ptr = acl.to_device(np.zeros(4, np.float32))
    ptr.write(Foreign(np.float32([1, 2, 3, 4])))
    out = Foreign(np.zeros(4, np.float32))
    assert ptr.read(out=out) is out and out.values.tolist() == [1, 2, 3, 4]
    two = np.zeros(2, np.float32)
    ptr.read(2, out=two)
    assert two.tolist() == [1, 2]
    with pytest.raises(AscregTypeError, match=r"Pointer.read: out holds uint8, the pointer float"):
        ptr.read(out=np.zeros(4, np.uint8))


def test_a_kernel_argument_that_is_a_host_tensor_says_how_to_copy_it(device: None) -> None:
    dev = acl.to_device(np.zeros(vector_add.TOTAL_LENGTH, np.float32))
    host = Foreign(np.zeros(vector_add.TOTAL_LENGTH, np.float32))
    with pytest.raises(AscregTypeError, match=r"argument 'x' is a host Foreign: .*acl.to_device"):
        vector_add.add_custom[1, 0, None](host, dev, dev)  # type: ignore[arg-type]


def test_host_array_views_without_copying() -> None:
    values = np.arange(4, dtype=np.uint8)
    assert np.shares_memory(host_array(Foreign(values), call="t"), values)
    buffer = bytearray(4)
    host_array(buffer, writes=True, call="t")[:] = 7
    assert buffer == bytearray([7] * 4)
    assert host_array([1, 2], call="t").tolist() == [1, 2]  # read-only sides take any array-like
    assert is_host_tensor(Foreign(values)) and not is_host_tensor(uint8_t)
