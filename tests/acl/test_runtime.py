"""The host runtime (ascreg.acl): init, devices, malloc, memcpy, streams, and its error codes."""

from __future__ import annotations

import numpy as np
import pytest

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


def test_acl_never_raises_and_names_the_argument() -> None:
    acl.finalize()
    assert acl.init() == acl.ACL_SUCCESS
    assert acl.rt.set_device(np.int32(0)) == acl.ACL_SUCCESS  # numpy integers are sizes and ids
    dev, ret = acl.rt.malloc(np.int64(64), np.int32(acl.ACL_MEM_MALLOC_HUGE_ONLY))
    assert ret == acl.ACL_SUCCESS and dev is not None
    host, ret = acl.rt.malloc_host(np.uint32(64))
    assert ret == acl.ACL_SUCCESS and host is not None
    assert acl.rt.memcpy(dev, np.int64(64), host, np.int64(64), acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0

    assert acl.rt.malloc(0, acl.ACL_MEM_MALLOC_HUGE_FIRST)[1] == acl.ACL_ERROR_INVALID_PARAM
    assert acl.get_recent_err_msg().startswith("aclrtMalloc: size 0 must be a positive integer")
    assert acl.rt.malloc(64, 7)[1] == acl.ACL_ERROR_INVALID_PARAM
    message = acl.get_recent_err_msg()
    assert "policy 7" in message and "ACL_MEM_MALLOC_NORMAL_ONLY = 2" in message
    assert acl.rt.malloc(True)[1] == acl.ACL_ERROR_INVALID_PARAM  # bool is not a size
    assert acl.rt.malloc_host(-1)[1] == acl.ACL_ERROR_INVALID_PARAM
    assert "aclrtMallocHost: size -1" in acl.get_recent_err_msg()

    readonly = np.zeros(16, np.uint32)
    readonly.flags.writeable = False
    code = acl.rt.memcpy(readonly, 64, dev, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    assert code == acl.ACL_ERROR_INVALID_PARAM
    assert "read-only" in acl.get_recent_err_msg()
    assert acl.rt.memcpy(dev, 64, host, 64, 9) == acl.ACL_ERROR_INVALID_PARAM
    assert "kind 9 is not an aclrtMemcpyKind" in acl.get_recent_err_msg()
    assert "ACL_MEMCPY_DEVICE_TO_DEVICE = 3" in acl.get_recent_err_msg()
    assert acl.rt.memcpy(dev, 32, host, 64, acl.ACL_MEMCPY_HOST_TO_DEVICE) != 0
    assert "count 64 exceeds destMax 32" in acl.get_recent_err_msg()
    assert acl.rt.memcpy(dev, 64, host, "64", acl.ACL_MEMCPY_HOST_TO_DEVICE) != 0
    assert "count '64' must be a non-negative integer" in acl.get_recent_err_msg()
    assert acl.rt.free("p") == acl.ACL_ERROR_INVALID_PARAM
    assert acl.get_recent_err_msg().startswith("aclrtFree: devPtr 'p'")
    assert acl.rt.destroy_stream(object()) == acl.ACL_ERROR_INVALID_RESOURCE_HANDLE
    assert acl.get_recent_err_msg().startswith("aclrtDestroyStream: stream <object")
    assert acl.rt.free(dev) == 0 and acl.rt.reset_device(0) == 0 and acl.finalize() == 0


def test_an_unexpected_failure_is_an_error_code(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise ValueError("boom")

    acl.finalize()
    acl.init()
    acl.rt.set_device(0)
    dev, _ = acl.rt.malloc(64)
    monkeypatch.setattr(acl, "_side", broken)
    host = np.zeros(16, np.uint32)
    assert acl.rt.memcpy(host, 64, dev, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST) == (
        acl.ACL_ERROR_INVALID_PARAM
    )
    assert acl.get_recent_err_msg() == "memcpy: ValueError: boom"
    monkeypatch.setattr(acl, "_memory", broken)
    assert acl.rt.malloc(64) == (None, acl.ACL_ERROR_INVALID_PARAM)
    monkeypatch.undo()
    acl.rt.reset_device(0)
    acl.finalize()
