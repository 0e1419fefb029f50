"""The host calls beyond malloc/memcpy: memset, last error, device info, contexts, events."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from ascreg import acl


@pytest.fixture(autouse=True)
def _device() -> Iterator[None]:
    acl.finalize()
    assert acl.init(None) == acl.ACL_SUCCESS
    assert acl.rt.set_device(0) == acl.ACL_SUCCESS
    yield
    acl.rt.reset_device(0)
    acl.finalize()


def test_memset_device_and_host() -> None:
    dev, _ = acl.rt.malloc(16)
    assert acl.rt.memset(dev, 16, 0x1FF, 16) == acl.ACL_SUCCESS
    assert dev.read(16).tolist() == [0xFF] * 16
    host = np.ones(4, np.uint32)
    assert acl.rt.memset(host, 16, 0, 8) == acl.ACL_SUCCESS
    assert host.tolist() == [0, 0, 1, 1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((16, 0, 32), "exceeds maxCount"),
        ((64, 0, 64), "leaves the allocation"),
        ((16, 1.5, 16), "memset takes integers"),
    ],
)
def test_memset_errors(args: tuple[object, ...], message: str) -> None:
    dev, _ = acl.rt.malloc(16)
    assert acl.rt.memset(dev, *args) == acl.ACL_ERROR_INVALID_PARAM
    assert message in acl.get_recent_err_msg()
    assert acl.rt.memset("ptr", 4, 0, 4) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.memset_async(dev, 16, 0, 16, "s") == acl.ACL_ERROR_INVALID_RESOURCE_HANDLE


def test_memset_before_init() -> None:
    acl.finalize()
    assert acl.rt.memset(np.zeros(4, np.uint8), 4, 0, 4) == acl.ACL_ERROR_UNINITIALIZE


def test_last_error_is_read_once_and_peek_keeps_it() -> None:
    acl.rt.get_last_error(acl.ACL_RT_THREAD_LEVEL)  # clear what the fixture's finalize left
    assert acl.rt.get_last_error(acl.ACL_RT_THREAD_LEVEL) == acl.ACL_SUCCESS
    assert acl.rt.free("not a pointer") == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.peek_at_last_error(acl.ACL_RT_THREAD_LEVEL) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.get_last_error(acl.ACL_RT_THREAD_LEVEL) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.rt.get_last_error(acl.ACL_RT_THREAD_LEVEL) == acl.ACL_SUCCESS
    assert acl.rt.get_last_error(5) == acl.ACL_ERROR_INVALID_PARAM
    assert "ACL_RT_THREAD_LEVEL" in acl.get_recent_err_msg()


def test_device_info() -> None:
    cores, ret = acl.rt.get_device_info(0, acl.ACL_DEV_ATTR_VECTOR_CORE_NUM)
    assert ret == acl.ACL_SUCCESS and cores == acl.DEVICE_INFO[acl.ACL_DEV_ATTR_VECTOR_CORE_NUM]
    assert acl.rt.get_device_info(0, acl.ACL_DEV_ATTR_WARP_SIZE) == (32, 0)
    assert acl.rt.get_device_info(1, acl.ACL_DEV_ATTR_WARP_SIZE) == (
        None,
        acl.ACL_ERROR_INVALID_DEVICE,
    )
    assert acl.rt.get_device_info(0, 12345) == (None, acl.ACL_ERROR_INVALID_PARAM)
    acl.finalize()
    assert acl.rt.get_device_info(0, acl.ACL_DEV_ATTR_WARP_SIZE) == (
        None,
        acl.ACL_ERROR_UNINITIALIZE,
    )


def test_contexts() -> None:
    context, ret = acl.rt.create_context(0)
    assert ret == acl.ACL_SUCCESS and acl.rt.get_current_context() == (context, 0)
    assert acl.rt.create_context(2) == (None, acl.ACL_ERROR_INVALID_DEVICE)
    assert acl.rt.set_current_context("ctx") == acl.ACL_ERROR_INVALID_RESOURCE_HANDLE
    assert acl.rt.destroy_context(context) == acl.ACL_SUCCESS
    assert acl.rt.destroy_context(context) == acl.ACL_ERROR_INVALID_RESOURCE_HANDLE
    assert "is not a live aclrtContext" in acl.get_recent_err_msg()
    assert acl.rt.get_current_context() == (None, acl.ACL_ERROR_INVALID_RESOURCE_HANDLE)


def test_events_and_async_copies() -> None:
    main, _ = acl.rt.create_stream()
    other, _ = acl.rt.create_stream()
    ready, ret = acl.rt.create_event_ex_with_flag(acl.ACL_EVENT_SYNC)
    assert ret == acl.ACL_SUCCESS
    dev, _ = acl.rt.malloc(8)
    host = np.arange(8, dtype=np.uint8)
    assert acl.rt.memcpy_async(dev, 8, host, 8, acl.ACL_MEMCPY_HOST_TO_DEVICE, main) == 0
    assert acl.rt.record_event(ready, main) == 0 and ready.recorded
    assert acl.rt.stream_wait_event(other, ready) == 0
    assert acl.rt.synchronize_event(ready) == 0
    assert dev.read(8).tolist() == list(range(8))
    assert acl.rt.destroy_event(ready) == 0
    assert acl.rt.record_event(ready, main) == acl.ACL_ERROR_INVALID_RESOURCE_HANDLE
    assert acl.rt.stream_wait_event(other, ready) == acl.ACL_ERROR_INVALID_RESOURCE_HANDLE
    assert acl.rt.create_event_ex_with_flag(0x40) == (None, acl.ACL_ERROR_INVALID_PARAM)
    assert acl.rt.destroy_stream(main) == 0
    assert (
        acl.rt.memcpy_async(dev, 8, host, 8, acl.ACL_MEMCPY_HOST_TO_DEVICE, main)
        == acl.ACL_ERROR_INVALID_RESOURCE_HANDLE
    )
