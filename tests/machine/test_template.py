"""Function templates: ``template <typename T> __simd_vf__ void F(...)`` as ``F[T](...)``."""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import pytest

from ascreg import GlobalMemory, GmPtr, Reg, Scalar, UbPtr, half, template, uint16_t
from ascreg.c_api import (
    EVENT_ID0,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_S,
    PIPE_V,
    __global__,
    __simd_vf__,
    __ubuf__,
    __vector__,
    asc_copy_gm2ub_align,
    asc_copy_ub2gm_align,
    asc_sync_notify,
    asc_sync_wait,
    asc_vf_call,
)
from ascreg.errors import AscregTypeError
from ascreg.simt import __simt_vf__, threadIdx

T = TypeVar("T", bound=Scalar)
U = TypeVar("U", bound=Scalar)


@__simd_vf__
@template(T)
def AddOneVF(dst: UbPtr[T], src: UbPtr[T]) -> None:
    reg = Reg.RegTensor[T]()
    Reg.LoadAlign(reg, src)
    Reg.Adds(reg, reg, 1, Reg.CreateMask[T]())
    Reg.StoreAlign(dst, reg, Reg.CreateMask[T]())


@__global__
@__vector__
def add_one(x: GmPtr[half], y: GmPtr[uint16_t]) -> None:
    a, b = __ubuf__(half, 128), __ubuf__(uint16_t, 128)
    asc_copy_gm2ub_align(a, x, 256)
    asc_copy_gm2ub_align(b, y, 256)
    asc_sync_notify(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_sync_wait(PIPE_MTE2, PIPE_V, EVENT_ID0)
    asc_vf_call[AddOneVF[half]](a, a)
    AddOneVF[uint16_t](b, b)
    asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(x, a, 256)
    asc_copy_ub2gm_align(y, b, 256)


def test_template_vf_runs_per_binding_inside_a_kernel() -> None:
    gm = GlobalMemory()
    x, y = gm.alloc(half, 128), gm.alloc(uint16_t, 128)
    x.write(np.arange(128) / 2)
    y.write(np.arange(128))
    add_one[1, 0, None](x, y)
    assert np.array_equal(x.read(128), (np.arange(128) / 2 + 1).astype(np.float16))
    assert np.array_equal(y.read(128), np.arange(1, 129, dtype=np.uint16))


@template(T, U)
def sizes() -> tuple[int, int]:
    return T.size, U.size  # type: ignore[attr-defined]


def test_two_parameters_and_names() -> None:
    assert sizes[half, uint16_t]() == (2, 2)
    assert repr(sizes) == "<template <T, U> sizes>"
    assert AddOneVF[half].__name__ == "AddOneVF<half>"
    assert T is globals()["T"]  # binding leaves the module's TypeVar alone


@__simt_vf__
@template(T)
def fill_simt(out: GmPtr[T]) -> None:
    (out + threadIdx.x).write([T(threadIdx.x)])  # type: ignore[call-arg]


def test_simt_template_keeps_its_kind() -> None:
    assert fill_simt[uint16_t].__ascreg_kind__ == "simt_vf"  # type: ignore[attr-defined]


def test_template_errors() -> None:
    with pytest.raises(AscregTypeError, match="function template: give its template arguments"):
        AddOneVF(None, None)  # type: ignore[arg-type]
    with pytest.raises(AscregTypeError, match=r"has 2 template parameter\(s\) <T, U>, got 1"):
        sizes[half]
    with pytest.raises(AscregTypeError, match=r"are typing\.TypeVar objects"):
        template(half)  # type: ignore[arg-type]
    local = TypeVar("local")
    with pytest.raises(AscregTypeError, match="must be the module-level TypeVar named 'local'"):
        template(local)(lambda: None)
    with pytest.raises(AscregTypeError, match="takes a Python function"):
        template(T)(print)


SCH_MODE = TypeVar("SCH_MODE")  # a non-type template parameter: bound to a value


@__global__
@__vector__
@template(SCH_MODE, T)
def fill_kernel(out: GmPtr[uint16_t]) -> None:
    """``template <uint32_t schMode, typename T> __global__ void fill_kernel(...)``."""
    ub = __ubuf__(uint16_t, 128)
    ub.write(np.full(128, SCH_MODE * T.size, dtype=np.uint16))  # type: ignore[operator, attr-defined]
    asc_sync_notify(PIPE_S, PIPE_MTE3, EVENT_ID0)
    asc_sync_wait(PIPE_S, PIPE_MTE3, EVENT_ID0)
    asc_copy_ub2gm_align(out, ub, 256)


def test_a_kernel_template_is_launched_per_binding() -> None:
    out = GlobalMemory().alloc(uint16_t, 128)
    fill_kernel[3, half][1, 0, None](out)
    assert out.read(1)[0] == 6
    fill_kernel[5, uint16_t][1, 0, None](out)
    assert out.read(1)[0] == 10
    with pytest.raises(AscregTypeError, match=r"fill_kernel has 2 template parameter\(s\)"):
        fill_kernel[1, 0, None](out)  # the launch configuration is not the template's
    with pytest.raises(AscregTypeError, match="fill_kernel is a function template"):
        fill_kernel(out)
