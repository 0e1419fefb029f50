"""MaskReg loads and a pointer cast inside a VF loop run batched, with the eager result.

A ``MaskReg`` ``LoadAlign`` (Reg) or ``vector_bool`` ``asc_loadalign*`` (C API) loads one mask
per iteration (NORM / US / DS distributions; plain, offset and post-update forms, whose stride
counts bytes); ``param.cast(T)`` of a pointer parameter is allowed in a batched body. Each
program runs batched and eagerly and the results are compared byte for byte, with the
``ascreg.batch`` log saying which way the loop ran.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ascreg
from ascreg import (
    MaskDist,
    PostLiteral,
    Ref,
    Reg,
    UbPtr,
    UnifiedBuffer,
    __simd_vf__,
    float32_t,
    int16_t,
    int32_t,
    uint8_t,
    uint32_t,
)
from ascreg.c_api import (
    PAT_ALL,
    asc_create_mask_b32,
    asc_loadalign,
    asc_loadalign_downsample,
    asc_loadalign_postupdate,
    asc_loadalign_upsample,
    asc_select,
    asc_storealign,
    vector_bool,
    vector_float,
)
from helpers import batch_log

N = 8  # iterations
LANES = 64  # float32 lanes


def run(vf: Callable[..., None], eager: bool) -> tuple[bytes, list[str]]:
    ub = UnifiedBuffer()
    x, y, z = (ub.alloc(float32_t, N * LANES) for _ in range(3))
    masks = ub.alloc(uint8_t, N * 64 + 64)
    rng = np.random.default_rng(5)
    x.write(np.arange(N * LANES, dtype=np.float32))
    y.write(-np.arange(N * LANES, dtype=np.float32))
    z.write(np.zeros(N * LANES, np.float32))
    masks.write(rng.integers(0, 256, N * 64 + 64).astype(np.uint8))
    with batch_log() as records, ascreg.policy(execution="eager" if eager else "batched"):
        vf(z, x, y, masks.cast(uint32_t))
    return z.read(N * LANES).tobytes(), records


def both_ways(vf: Callable[..., None]) -> None:
    got, log = run(vf, eager=False)
    want, _ = run(vf, eager=True)
    assert got == want
    assert any(f"batched over {N} iterations" in line for line in log), log


@pytest.mark.parametrize("dist", [MaskDist.DIST_NORM, MaskDist.DIST_US, MaskDist.DIST_DS])
def test_reg_mask_load_post_update(dist: MaskDist) -> None:
    stride = {MaskDist.DIST_NORM: 32, MaskDist.DIST_US: 16, MaskDist.DIST_DS: 64}[dist]

    @__simd_vf__
    def vf(z: Any, x: Any, y: Any, m: UbPtr[uint32_t]) -> None:
        a, b, out = (Reg.RegTensor[float32_t]() for _ in range(3))
        sel, full = Reg.MaskReg(), Reg.CreateMask[float32_t]()
        at = Ref(m)
        for i in range(N):
            Reg.LoadAlign(a, x + i * LANES)
            Reg.LoadAlign(b, y + i * LANES)
            Reg.LoadAlign[uint32_t, PostLiteral.POST_MODE_UPDATE, dist](sel, at, stride)
            Reg.Select(out, a, b, sel)
            Reg.StoreAlign(z + i * LANES, out, full)

    both_ways(vf)


@pytest.mark.parametrize("dist", [MaskDist.DIST_NORM, MaskDist.DIST_US, MaskDist.DIST_DS])
def test_reg_mask_load_at_a_moving_address(dist: MaskDist) -> None:
    @__simd_vf__
    def vf(z: Any, x: Any, y: Any, m: UbPtr[uint32_t]) -> None:
        a, b, out = (Reg.RegTensor[float32_t]() for _ in range(3))
        sel, full = Reg.MaskReg(), Reg.CreateMask[float32_t]()
        for i in range(N):
            Reg.LoadAlign(a, x + i * LANES)
            Reg.LoadAlign(b, y + i * LANES)
            Reg.LoadAlign[uint32_t, dist](sel, m + i * 16)
            Reg.Select(out, a, b, sel)
            Reg.StoreAlign(z + i * LANES, out, full)

    both_ways(vf)


@__simd_vf__
def c_post(z: Any, x: Any, y: Any, m: UbPtr[uint32_t]) -> None:
    a, b, out, sel = vector_float(), vector_float(), vector_float(), vector_bool()
    full = asc_create_mask_b32(PAT_ALL)
    at = Ref(m)
    for i in range(N):
        asc_loadalign(a, x + i * LANES)
        asc_loadalign(b, y + i * LANES)
        asc_loadalign_postupdate(sel, at, 32)
        asc_select(out, a, b, sel)
        asc_storealign(z + i * LANES, out, full)


@__simd_vf__
def c_upsample(z: Any, x: Any, y: Any, m: UbPtr[uint32_t]) -> None:
    a, b, out, sel = vector_float(), vector_float(), vector_float(), vector_bool()
    full = asc_create_mask_b32(PAT_ALL)
    for i in range(N):
        asc_loadalign(a, x + i * LANES)
        asc_loadalign(b, y + i * LANES)
        asc_loadalign_upsample(sel, m + i * 4)
        asc_select(out, a, b, sel)
        asc_storealign(z + i * LANES, out, full)


@__simd_vf__
def c_downsample(z: Any, x: Any, y: Any, m: UbPtr[uint32_t]) -> None:
    a, b, out, sel = vector_float(), vector_float(), vector_float(), vector_bool()
    full = asc_create_mask_b32(PAT_ALL)
    for i in range(N):
        asc_loadalign(a, x + i * LANES)
        asc_loadalign(b, y + i * LANES)
        asc_loadalign_downsample(sel, m + i * 16, 0)
        asc_select(out, a, b, sel)
        asc_storealign(z + i * LANES, out, full)


@pytest.mark.parametrize("vf", [c_post, c_upsample, c_downsample])
def test_c_api_mask_loads(vf: Any) -> None:
    both_ways(vf)


def test_a_stride_of_part_of_an_element_keeps_the_loop_eager() -> None:
    """A post-update stride in bytes that is no whole number of the pointer's elements."""

    @__simd_vf__
    def vf(z: Any, x: Any, y: Any, m: UbPtr[uint32_t]) -> None:
        a, b, out = (Reg.RegTensor[float32_t]() for _ in range(3))
        sel, full = Reg.MaskReg(), Reg.CreateMask[float32_t]()
        at = Ref(m.cast(int16_t))
        for i in range(N):
            Reg.LoadAlign(a, x + i * LANES)
            Reg.LoadAlign(b, y + i * LANES)
            Reg.LoadAlign[int16_t, PostLiteral.POST_MODE_UPDATE, MaskDist.DIST_US](sel, at, 16)
            Reg.Select(out, a, b, sel)
            Reg.StoreAlign(z + i * LANES, out, full)

    both_ways(vf)  # 16 bytes = 8 int16_t: whole, batched


def test_a_pointer_cast_of_a_parameter_runs_batched() -> None:
    """``y.cast(T)`` of an annotated pointer parameter (C's ``(__ubuf__ T*)y``) in the body."""

    @__simd_vf__
    def vf(z: UbPtr[float32_t], x: UbPtr[float32_t], y: Any, m: Any) -> None:
        a, full = Reg.RegTensor[int32_t](), Reg.CreateMask[int32_t]()
        for i in range(N):
            Reg.LoadAlign(a, x.cast(int32_t) + i * LANES)
            Reg.StoreAlign(z.cast(int32_t) + i * LANES, a, full)

    both_ways(vf)


def test_a_pure_method_of_an_unknown_object_is_checked_when_it_runs() -> None:
    """``z`` is reassigned, so its annotation says nothing: the batched run checks ``z.cast``."""

    @__simd_vf__
    def vf(z: UbPtr[float32_t], x: UbPtr[float32_t], y: Any, m: Any) -> None:
        a, full = Reg.RegTensor[int32_t](), Reg.CreateMask[int32_t]()
        z = z + 0
        for i in range(N):
            Reg.LoadAlign(a, x.cast(int32_t) + i * LANES)
            Reg.StoreAlign(z.cast(int32_t) + i * LANES, a, full)

    both_ways(vf)


class _Caster:
    """An object whose ``cast`` is not ascreg's (it counts its calls: not pure)."""

    def __init__(self, ptr: Any) -> None:
        self.ptr, self.calls = ptr, 0

    def cast(self, dtype: Any) -> Any:
        self.calls += 1
        return self.ptr.cast(dtype)


def test_a_method_that_is_not_pure_sends_the_loop_back_to_eager_order() -> None:
    @__simd_vf__
    def vf(z: Any, x: UbPtr[float32_t], y: Any, m: Any) -> None:
        a, full = Reg.RegTensor[int32_t](), Reg.CreateMask[int32_t]()
        caster = _Caster(z)
        for i in range(N):
            Reg.LoadAlign(a, x.cast(int32_t) + i * LANES)
            Reg.StoreAlign(caster.cast(int32_t) + i * LANES, a, full)
        assert caster.calls == N  # called in every iteration, as written

    with pytest.warns(ascreg.errors.EagerLoopWarning, match=r"_Caster\.cast is not an ascreg"):
        got, _ = run(vf, eager=False)
    assert got == run(vf, eager=True)[0]
