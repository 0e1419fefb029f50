"""torch CPU tensors through GM and a kernel (skipped when torch is not installed).

``nox -s torch`` installs a CPU build of torch and runs this file.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from ascreg import acl, bfloat16_t, float32_t, half
from ascreg.errors import AscregTypeError, HostTensorError
from ascreg.examples import vector_add

torch = pytest.importorskip("torch")

H2D, D2H = acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST


@pytest.fixture
def device() -> Iterator[None]:
    acl.finalize()
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    yield
    acl.rt.reset_device(0)
    acl.finalize()


def test_a_torch_round_trip_through_gm_and_a_kernel(device: None) -> None:
    gen = torch.Generator().manual_seed(30)
    x = torch.rand(vector_add.TOTAL_LENGTH, generator=gen) * 200 - 100
    y = torch.rand(vector_add.TOTAL_LENGTH, generator=gen) * 200 - 100
    z = torch.zeros_like(x)
    px, py, pz = (acl.to_device(t) for t in (x, y, z))
    assert px.dtype is float32_t
    vector_add.add_custom[vector_add.BLOCKS, 0, None](px, py, pz)
    assert acl.from_device(pz, out=z) is z  # in place
    assert torch.equal(z, x + y)
    fresh = acl.from_device(pz, like=x)
    assert isinstance(fresh, torch.Tensor) and torch.equal(fresh, x + y)


def test_memcpy_fills_a_torch_tensor_in_place(device: None) -> None:
    dev, _ = acl.rt.malloc(16)
    assert acl.rt.memcpy(dev, 16, torch.arange(4, dtype=torch.int32), 16, H2D) == 0
    back = torch.zeros(4, dtype=torch.int32)
    assert acl.rt.memcpy(back, 16, dev, 16, D2H) == 0
    assert back.tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("dtype", "scalar"),
    [(torch.float16, half), (torch.bfloat16, bfloat16_t), (torch.float32, float32_t)],
)
def test_float_tensors_keep_their_bits(device: None, dtype: object, scalar: type) -> None:
    values = torch.tensor([1.5, -0.0, float("inf"), 3.0e-39, 65504.0]).to(dtype)
    ptr = acl.to_device(values)
    assert ptr.dtype is scalar
    back = acl.from_device(ptr, like=values)
    assert back.dtype == dtype
    assert torch.equal(back.view(torch.int16 if scalar.size == 2 else torch.int32),
                       values.view(torch.int16 if scalar.size == 2 else torch.int32))  # fmt: skip
    ptr.write(values * 2)
    assert torch.equal(ptr.read(out=torch.empty_like(values)), values * 2)


def test_tensors_that_cannot_be_written_in_place_are_refused(device: None) -> None:
    ptr = acl.to_device(torch.zeros(4, 4))
    with pytest.raises(HostTensorError, match=r"not contiguous .*\.contiguous\(\)"):
        acl.from_device(ptr, out=torch.zeros(4, 4).T)
    dev, _ = acl.rt.malloc(64)
    assert acl.rt.memcpy(torch.zeros(4, 4).T, 64, dev, 64, D2H) == acl.ACL_ERROR_INVALID_PARAM
    assert "is not contiguous" in acl.get_recent_err_msg()
    with pytest.raises(HostTensorError, match=r"call \.detach\(\) first"):
        acl.to_device(torch.zeros(4, requires_grad=True))


def test_a_torch_tensor_as_a_kernel_argument_names_to_device(device: None) -> None:
    host = torch.zeros(vector_add.TOTAL_LENGTH)
    dev = acl.to_device(np.zeros(vector_add.TOTAL_LENGTH, np.float32))
    with pytest.raises(AscregTypeError, match=r"argument 'z' is a host Tensor: .*acl.to_device"):
        vector_add.add_custom[1, 0, None](dev, dev, host)  # type: ignore[arg-type]
