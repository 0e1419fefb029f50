"""The host runtime (ascreg.acl): init, devices, malloc, memcpy, streams, and its error codes."""

from __future__ import annotations

import numpy as np

from ascreg import acl, uint16_t


def test_acl_error_codes() -> None:
    acl.finalize()
    assert acl.rt.malloc(32, acl.ACL_MEM_MALLOC_HUGE_FIRST) == (None, acl.ACL_ERROR_UNINITIALIZE)
    assert acl.init(None) == acl.ACL_SUCCESS
    assert acl.init(None) == acl.ACL_ERROR_REPEAT_INITIALIZE
    assert acl.rt.malloc(32)[1] == acl.ACL_ERROR_INVALID_DEVICE
    assert acl.rt.set_device(1) == acl.ACL_ERROR_INVALID_DEVICE
    assert acl.rt.set_device(0) == acl.ACL_SUCCESS
    dev, ret = acl.rt.malloc(64, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == acl.ACL_SUCCESS and dev is not None
    host = np.arange(32, dtype=np.uint16)
    assert acl.rt.memcpy(dev, 64, host, 64, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    assert (
        acl.rt.memcpy(dev, 64, host, 128, acl.ACL_MEMCPY_HOST_TO_DEVICE)
        == acl.ACL_ERROR_INVALID_PARAM
    )
    assert (
        acl.rt.memcpy(dev, 128, host, 128, acl.ACL_MEMCPY_HOST_TO_DEVICE)
        == acl.ACL_ERROR_INVALID_PARAM
    )
    assert (
        "leaves the allocation" in acl.get_recent_err_msg() or "exceed" in acl.get_recent_err_msg()
    )
    assert (
        acl.rt.memcpy(host, 64, dev, 64, acl.ACL_MEMCPY_HOST_TO_DEVICE)
        == acl.ACL_ERROR_INVALID_PARAM
    )
    assert acl.rt.memcpy(dev, 64, host, 64, 7) == acl.ACL_ERROR_INVALID_PARAM
    other, _ = acl.rt.malloc(64)
    assert acl.rt.memcpy(other, 64, dev, 64, acl.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    assert other.cast(uint16_t).read(3).tolist() == [0, 1, 2]
    h2, _ = acl.rt.malloc_host(64)
    assert acl.rt.memcpy(h2, 64, host, 64, acl.ACL_MEMCPY_HOST_TO_HOST) == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0 and acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == acl.ACL_ERROR_INVALID_RESOURCE_HANDLE
    assert acl.rt.free(dev) == 0 and acl.rt.free(dev) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.free_host(h2) == 0
    assert acl.rt.synchronize_device() == 0
    assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0
    assert acl.finalize() == acl.ACL_ERROR_REPEAT_FINALIZE
