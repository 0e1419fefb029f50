"""Function templates (``template <typename T>``) type-check as generic functions.

The body uses the TypeVar as C++ uses ``T``; mypy and pyright check the body, and ``F[T](...)``
and ``asc_vf_call[F[T]](...)`` check the call's arguments against the signature.
"""

from typing import TypeVar

from ascreg import GlobalMemory, GmPtr, Reg, Scalar, UbPtr, UnifiedBuffer, half, template, uint16_t
from ascreg.basic import GlobalTensor
from ascreg.c_api import __simd_vf__, asc_vf_call

T = TypeVar("T", bound=Scalar)


@__simd_vf__
@template(T)
def CopyVF(dst: UbPtr[T], src: UbPtr[T], count: int) -> None:
    reg: Reg.RegTensor[T] = Reg.RegTensor[T]()
    pointers: list[UbPtr[T]] = [dst, src]
    del reg, pointers, count


@template(T)
def View(x: GmPtr[T], n: int) -> GlobalTensor[T]:
    tensor = GlobalTensor[T]()
    tensor.SetGlobalBuffer(x, n)
    return tensor


def main() -> None:
    ub, gm = UnifiedBuffer(), GlobalMemory()
    a, b = ub.alloc(half, 128), ub.alloc(half, 128)
    CopyVF[half](a, b, 128)
    asc_vf_call[CopyVF[half]](a, b, 128)
    c, d = ub.alloc(uint16_t, 128), ub.alloc(uint16_t, 128)
    CopyVF[uint16_t](c, d, 64)
    tensor: GlobalTensor[half] = View[half](gm.alloc(half, 16), 16)
    del tensor
