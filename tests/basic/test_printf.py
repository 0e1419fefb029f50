"""``AscendC::printf``: the page's conversions, the block prefix, the argument count."""

from __future__ import annotations

import numpy as np
import pytest

from ascreg import GlobalMemory, bfloat16_t, float32_t, half, int8_t, int16_t, int64_t, uint32_t
from ascreg.basic import printf
from ascreg.errors import AscregTypeError
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __global__


def test_the_page_conversions(capsys: pytest.CaptureFixture[str]) -> None:
    ptr = GlobalMemory().alloc(float32_t, 4) + 2
    printf("%d %i %ld %lli|", int16_t(-5), 7, int64_t(-(2**40)), 3)
    printf("%u %lu %x %lx %llx %X|", uint32_t(4000000000), -1, int8_t(-1), -1, 255, 171)
    printf("%f %F %.1f %f|", float32_t(3.14), half(0.5), bfloat16_t(2.5), 1)
    printf("%s %5d %-3d| %p %% %c\n", "AscendC", 42, 7, ptr, 65)
    assert capsys.readouterr().out == (
        "-5 7 -1099511627776 3|"
        "4000000000 18446744073709551615 ff ffffffffffffffff ff AB|"
        "3.140000 0.500000 2.5 1.000000|"
        f"AscendC    42 7  | {hex(ptr.address)} % A\n"
    )


def test_each_block_prefixes_its_output(capsys: pytest.CaptureFixture[str]) -> None:
    @__global__
    def hello() -> None:
        printf("hello world device\n")
        printf("fmt string float: %f\n", float32_t(3.14))

    hello[2, 0, None]()
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "[AIV Block 0/2] hello world device",
        "[AIV Block 0/2] fmt string float: 3.140000",
        "[AIV Block 1/2] hello world device",
        "[AIV Block 1/2] fmt string float: 3.140000",
    ]


def test_inside_a_simd_vf_there_is_no_prefix(capsys: pytest.CaptureFixture[str]) -> None:
    ctx = BlockContext(block_idx=3, block_num=4)
    with block(ctx):
        ctx.in_simd_vf = True
        printf("simd vf: int=%d, uint=%u, float=%f, string=%s\n", 1, 2, np.float32(5), "AscendC")
    assert capsys.readouterr().out == "simd vf: int=1, uint=2, float=5.000000, string=AscendC\n"


def test_bad_calls_are_refused() -> None:
    with pytest.raises(AscregTypeError, match="has 1 conversions, 0 arguments given"):
        printf("%d\n")
    with pytest.raises(AscregTypeError, match=r"%d takes an integer, got the float 1\.5"):
        printf("%d", 1.5)
    with pytest.raises(AscregTypeError, match="fmt must be a string"):
        printf(3)
