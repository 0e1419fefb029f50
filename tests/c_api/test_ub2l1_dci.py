"""``asc_ndim_copy_dci`` and ``asc_copy_ub2l1`` / ``asc_copy_ub2l1_sync`` (issue 25).

``asc_ndim_copy_dci`` invalidates the n-dimensional copy's data cache: ascreg has none, so an
n-dimensional copy after it reads GM as one before it (checked against ``reference.ndim_copy``).
The UB -> L1 copies need the cube unit, which ascreg does not emulate: every form raises
``UnsupportedError`` saying so, never a silent no-op.
"""

from __future__ import annotations

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, int16_t, uint8_t
from ascreg.errors import AscregError, UnsupportedError
from ascreg.machine.block import BlockContext, block
from reference.ndim_copy import ndim_copy


@pytest.mark.rows("asc_ndim_copy_dci", "asc_ndim_copy_gm2ub")
def test_ndim_copy_dci_between_copies_changes_nothing() -> None:
    values = (np.arange(48) % 31 + 1).astype(np.int16)
    src = GlobalMemory().alloc(int16_t, 48)
    src.write(values)
    loops = [(6, 1, 1, 1, 1), (4, 0, 0, 8, 12), (1, 0, 0, 0, 0), (1, 0, 0, 0, 0), (1, 0, 0, 0, 0)]
    want = ndim_copy(values.tolist(), [0] * 32, loops, 5)
    with block(BlockContext()):
        dst = C.__ubuf__(int16_t, 32)
        C.asc_ndim_copy_dci()  # before any copy, as kernels issue it
        for n, (_, _, _, dst_stride, src_stride) in enumerate(loops):
            getattr(C, f"asc_set_ndim_loop{n}_stride")(dst_stride, src_stride)
        C.asc_set_ndim_pad_value(5)
        for _ in range(2):
            C.asc_ndim_copy_gm2ub(dst, src, 6, 4, 1, 1, 1, 1, 1, True, 0)
            C.asc_sync()
            assert dst.read(32).tolist() == want
            C.asc_sync()  # the scalar read before the next copy's write
            C.asc_ndim_copy_dci()
    with pytest.raises(AscregError):
        C.asc_ndim_copy_dci()  # outside a kernel: no running block


@pytest.mark.rows("asc_copy_ub2l1", "asc_copy_ub2l1_sync")
@pytest.mark.parametrize(
    ("name", "sizes"),
    [("asc_copy_ub2l1", (64,)), ("asc_copy_ub2l1", (2, 1, 0, 0)), ("asc_copy_ub2l1_sync", (64,))],
    ids=["size", "burst", "sync"],
)
def test_ub_to_l1_needs_the_cube(name: str, sizes: tuple[int, ...]) -> None:
    with block(BlockContext()):
        src = C.__ubuf__(uint8_t, 64)
        with pytest.raises(UnsupportedError, match=f"{name}: copying UB -> L1 needs the cube"):
            getattr(C, name)(None, src, *sizes)
