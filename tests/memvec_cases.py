"""Shared cases of the memory-level op tests (tests/basic/test_memvec_*.py): tensors of random
bit patterns, random repeat forms, the UB snapshot the reference runs on and the comparison."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st

from ascreg._dtypes import Scalar, bool_
from ascreg._spec import SPECS
from ascreg.basic import Hardware, LocalMemAllocator, LocalTensor
from ascreg.machine.block import BlockContext
from reference import memvec as ref
from reference.common import boundary_bits, elements, from_bits, same_lanes, width

Memory = bytearray
FEWER = settings(max_examples=max(4, settings.default.max_examples // 4))
"""Each example runs a whole op and its per-element reference: a quarter of the profile's count,
over some 120 parametrised tests."""


def legal(name: str, repeat: bool) -> list[type[Scalar]]:
    """The dtypes of the op's count form, or of its repeat forms."""
    spec = SPECS["basic." + name]
    forms = [f for f in spec.shape.forms if f.tag == ("mask bits" if repeat else "count")]  # type: ignore[union-attr]
    return [c[0] for c in spec.combos if forms and forms[0].applies(c)]


def bit_values(dtype: type[Scalar], n: int) -> st.SearchStrategy[list[int]]:
    """*n* bit patterns: random ones, a tenth of them the type's boundary values.

    One drawn seed makes them (drawing hundreds of integers one by one is slow).
    """
    full = 1 if dtype is bool_ else (1 << width(dtype)) - 1
    specials = boundary_bits(dtype)

    def make(seed: int) -> list[int]:
        rng = np.random.default_rng(seed)
        values = [int(v) for v in rng.integers(0, full, size=n, dtype=np.uint64, endpoint=True)]
        for i in rng.choice(n, size=n // 10, replace=False) if n else ():
            values[int(i)] = specials[int(rng.integers(len(specials)))]
        return values

    return st.integers(0, 2**32 - 1).map(make)


def tensor(dtype: type[Scalar], bits: list[int]) -> LocalTensor[Any]:
    t = LocalMemAllocator[Hardware.UB]().Alloc[dtype, len(bits)]()
    t.GetPhyAddr().write(from_bits(bits, dtype))
    return t


def snapshot(ctx: BlockContext) -> Memory:
    return bytearray(bytes(ctx.ub.data))


def assert_same(ctx: BlockContext, want: Memory, dst: LocalTensor[Any]) -> None:
    """dst's lanes equal (NaN for NaN); every byte outside dst exactly."""
    got = bytes(ctx.ub.data)
    dtype = dst._dtype()
    start, size = dst.GetPhyAddr().address, dst.GetSize()
    g = elements(got, start, size, dtype.size)
    w = elements(want, start, size, dtype.size)
    assert same_lanes(g, w, dtype), [
        (i, hex(a), hex(b)) for i, (a, b) in enumerate(zip(g, w, strict=True)) if a != b
    ][:4]
    end = start + size * dtype.size
    assert got[:start] == bytes(want[:start]) and got[end:] == bytes(want[end : len(got)])


def scalar_of(bits: int, dtype: type[Scalar]) -> Any:
    """A scalar argument of *dtype* with the bit pattern *bits*."""
    value = from_bits([bits], dtype)[0]
    return int(value) if dtype.np_dtype.kind in "iu" else value


@st.composite
def repeat_form(draw: st.DrawFn, dtype: type[Scalar], operands: int, bits: bool) -> dict[str, Any]:
    """mask (words or count), repeatTime and (block, repeat) strides for dst and each source."""
    lanes = 256 // dtype.size
    words = max(2, lanes // 64)
    mask: Any = (
        [draw(st.integers(0, (1 << 64) - 1)) for _ in range(words)]
        if bits
        else draw(st.integers(0, lanes + 3))
    )
    strides = [(draw(st.integers(1, 3)), draw(st.integers(0, 12))) for _ in range(operands)]
    return {"mask": mask, "repeat": draw(st.integers(0, 3)), "strides": strides}


def footprint(dtype: type[Scalar], repeat: int, stride: tuple[int, int]) -> int:
    """Elements an operand spans: (repeat-1) repeat strides and 8 blocks at the block stride."""
    blocks = max(repeat - 1, 0) * stride[1] + 7 * stride[0] + 1
    return blocks * 32 // dtype.size


def operand(t: LocalTensor[Any], stride: tuple[int, int] | None = None) -> ref.Operand:
    block, rep = stride or (1, 8)
    return (t.GetPhyAddr().address, t._dtype(), block, rep)
