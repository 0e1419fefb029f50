"""An error raised inside a block names the block and the launch, and says GM is partly written.

Issue 25: a launch runs its blocks one after another, so when block 2 of 4 fails, blocks 0 and
1 have written their part of the outputs, block 2 part of its own and block 3 nothing. The
error keeps its message and gets a note (PEP 678) saying so.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, GmPtr, int32_t
from ascreg.errors import OutOfBoundsError
from ascreg.simt import blockIdx, dim3, threadIdx


def _notes(error: BaseException) -> str:
    return "\n".join(getattr(error, "__notes__", []))


def test_a_vector_kernel_error_names_its_block_and_launch() -> None:
    out = GlobalMemory().alloc(int32_t, 32)
    out.write(np.zeros(32, np.int32))

    @C.__global__
    @C.__vector__
    def kernel(out: GmPtr[int32_t]) -> None:
        b = int(C.asc_get_block_idx())
        out[8 * b] = b + 1  # a scalar GM write: block 2's lands before its error
        if b == 2:
            (out + 40).read(1)  # past the 32-element buffer

    with pytest.raises(OutOfBoundsError, match="leaves the allocation") as info:
        kernel[4, 0, None](out)
    notes = _notes(info.value)
    assert "in block 2 of kernel<<<4, 0, None>>> (launch " in notes
    assert "blocks 0-1 had finished, block 3 never ran" in notes
    assert "Global Memory holds a partial result" in notes
    assert out.read(32)[::8].tolist() == [1, 2, 3, 0]  # what that partial result is


def test_the_first_block_and_the_last_say_so() -> None:
    @C.__global__
    @C.__vector__
    def kernel(fail: int) -> None:
        if C.asc_get_block_idx() == fail:
            raise ValueError("user error")

    with pytest.raises(ValueError, match="user error") as first:
        kernel[3, 0, None](0)
    assert "in block 0 of kernel<<<3, 0, None>>>" in _notes(first.value)
    assert "no block had finished, blocks 1-2 never ran" in _notes(first.value)
    with pytest.raises(ValueError) as last:
        kernel[3, 0, None](2)
    assert "blocks 0-1 had finished, and block 2 stopped" in _notes(last.value)


def test_launches_are_numbered() -> None:
    @C.__global__
    @C.__vector__
    def kernel() -> None:
        raise ValueError("again")

    numbers = []
    for _ in range(2):
        with pytest.raises(ValueError) as info:
            kernel[1, 0, None]()
        numbers.append(int(_notes(info.value).split("(launch ")[1].split()[0]))
    assert numbers[1] == numbers[0] + 1


def test_a_simt_kernel_error_names_its_block() -> None:
    out = GlobalMemory().alloc(int32_t, 16)

    def kernel(out: Any) -> None:
        if blockIdx.x == 1 and threadIdx.x == 3:
            out[100] = 1  # past the buffer
        out[threadIdx.x + 4 * blockIdx.x] = 1

    from ascreg.machine.kernel import Kernel

    with pytest.raises(OutOfBoundsError) as info:
        Kernel(kernel)[dim3(3), dim3(4), 0, None](out)
    assert "in block 1 of kernel<<<" in _notes(info.value)
    assert "block 0 had finished, block 2 never ran" in _notes(info.value)
