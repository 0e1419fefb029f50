"""Function templates: mistakes mypy and pyright reject (never run).

Each bad line carries `# type: ignore[<code>]` (mypy, warn_unused_ignores) and
`# pyright: ignore` (reportUnnecessaryTypeIgnoreComment), so a line that stops being rejected
fails the run.
"""

from typing import TypeVar

from ascreg import Reg, Scalar, UbPtr, UnifiedBuffer, half, template, uint16_t
from ascreg.c_api import __simd_vf__

T = TypeVar("T", bound=Scalar)


@__simd_vf__
@template(T)
def CopyVF(dst: UbPtr[T], src: UbPtr[T], count: int) -> None:
    reg: Reg.RegTensor[T] = Reg.RegTensor[T]()
    wrong: Reg.RegTensor[half] = reg  # type: ignore[assignment]  # pyright: ignore
    del wrong, dst, src, count


def main() -> None:
    ub = UnifiedBuffer()
    a, c = ub.alloc(half, 128), ub.alloc(uint16_t, 128)
    CopyVF[half](a, c, 128)  # type: ignore[misc]  # pyright: ignore
    CopyVF[half](a, a)  # type: ignore[call-arg]  # pyright: ignore
    CopyVF[half](a, a, "128")  # type: ignore[arg-type]  # pyright: ignore
