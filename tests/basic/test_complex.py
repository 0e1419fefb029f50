"""complex32 / complex64 / Complex<T>: the page's constructors, the struct layout, the moves.

Reference: the page (辅助数据结构/complex32-complex64.md) lays a value out as the struct
``{T real; T imag;}``; numpy's ``complex64`` is the same two float32 parts in the same order,
so it is an independent golden for ``complex64`` bytes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ascreg import GlobalMemory, float32_t, half, int32_t
from ascreg.basic import (
    PIPE_ALL,
    Abs,
    Add,
    Cast,
    Complex,
    DataCopy,
    DataCopyExtParams,
    DataCopyPad,
    GlobalTensor,
    LocalTensor,
    Muls,
    PipeBarrier,
    RoundMode,
    TPosition,
    complex32,
    complex64,
)
from ascreg.errors import AscregTypeError, UnsupportedError
from ascreg.machine.block import BlockContext, block

finite32 = st.floats(width=32, allow_nan=False, allow_infinity=False)


def test_the_pages_constructors_and_aliases() -> None:
    assert Complex[half] is complex32 and Complex[float32_t] is complex64
    assert (complex32.size, complex64.size) == (4, 8)
    v = complex32(1, 2)
    assert (v.real, v.imag) == (1.0, 2.0) and v.real.dtype == np.float16
    assert complex32(3).imag == 0 and complex64(4).real == np.float32(4)
    assert np.isinf(complex32(70000).real)  # converted as C assigns: rounds to +inf
    w = complex64(1, 1)
    w.imag = -2.5
    assert repr(w) == "complex64(real=1.0, imag=-2.5)"


def test_complex_of_another_part_type_or_no_part_type_is_refused() -> None:
    with pytest.raises(AscregTypeError, match=r"Complex\[int32_t\]: .* half or float only"):
        Complex[int32_t]
    with pytest.raises(AscregTypeError, match="Complex needs its part type"):
        Complex(1, 2)


@given(parts=st.lists(st.tuples(finite32, finite32), min_size=1, max_size=24))
def test_gm_ub_gm_moves_keep_the_struct_bytes(parts: list[tuple[float, float]]) -> None:
    n = len(parts)
    golden = np.array([complex(r, i) for r, i in parts], dtype=np.complex64)
    gm = GlobalMemory()
    src, dst = gm.alloc(complex64, n), gm.alloc(complex64, n)
    src.write(golden.view(complex64.np_dtype))
    with block(BlockContext()):
        g_src, g_dst = GlobalTensor[complex64](), GlobalTensor[complex64]()
        g_src.SetGlobalBuffer(src, n)
        g_dst.SetGlobalBuffer(dst, n)
        t = LocalTensor[complex64](TPosition.VECIN, 0, 32)
        DataCopyPad(t, g_src, DataCopyExtParams(1, n * 8, 0, 0, 0), _no_pad())
        PipeBarrier[PIPE_ALL]()
        k = n // 2
        t.SetValue(k, complex64(-1, 0.5))  # a scalar store of a whole value
        parts_view = t.ReinterpretCast[float32_t]()  # the kernels' view: real, imag, real ...
        assert parts_view.GetSize() == 64
        assert parts_view.GetValue(2 * k + 1) == np.float32(0.5)
        PipeBarrier[PIPE_ALL]()
        DataCopyPad(g_dst, t, DataCopyExtParams(1, n * 8, 0, 0, 0))
        PipeBarrier[PIPE_ALL]()
    golden[k] = complex(-1, 0.5)
    got = np.asarray(dst.read(n)).view(np.ndarray).view(np.complex64)
    np.testing.assert_array_equal(got.view(np.uint32), golden.view(np.uint32))


def _no_pad() -> Any:
    from ascreg.basic import DataCopyPadExtParams

    return DataCopyPadExtParams[complex64](False, 0, 0, complex64(0))


def test_datacopy_of_complex32_blocks() -> None:
    values = np.arange(16, dtype=np.float16).view(complex32.np_dtype)  # 8 values, 32 bytes
    gm = GlobalMemory()
    src = gm.alloc(complex32, 8)
    src.write(values)
    with block(BlockContext()):
        g = GlobalTensor[complex32]()
        g.SetGlobalBuffer(src, 8)
        t = LocalTensor[complex32](TPosition.VECIN, 0, 8)
        DataCopy(t, g, 8)
        PipeBarrier[PIPE_ALL]()
        assert (t.GetValue(3).real, t.GetValue(3).imag) == (6.0, 7.0)


@pytest.mark.parametrize(
    "call",
    [
        lambda c, f: Add(c, c, c, 8),
        lambda c, f: Muls(c, c, complex64(2), 8),
        lambda c, f: Abs(f, c, 8),
        lambda c, f: Cast(
            LocalTensor[complex32](TPosition.VECOUT, 1024, 8), c, RoundMode.CAST_RINT, 8
        ),
    ],
)
def test_computing_on_complex_tensors_is_unsupported_naming_the_page(call: Any) -> None:
    with block(BlockContext()):
        c = LocalTensor[complex64](TPosition.VECCALC, 0, 8)
        f = LocalTensor[float32_t](TPosition.VECCALC, 512, 8)
        with pytest.raises(
            UnsupportedError, match=r"complex32-complex64\.md; docs/limitations\.md"
        ):
            call(c, f)
