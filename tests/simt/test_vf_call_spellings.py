"""SIMT VFs started as production kernels start them (issue 25): ``asc_vf_call<f>(dim3(n), ...)``
on ``__ubuf__`` pointers (ops-nn activation/erfinv, arch35) and ``Simt::VF_CALL<f>(Simt::Dim3(n),
...)`` (ops-nn foreach, arch35); both run the same SIMT VF the same way."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ascreg import UbPtr, float32_t
from ascreg.basic import PIPE_ALL, PipeBarrier
from ascreg.c_api import asc_vf_call
from ascreg.errors import AscregTypeError
from ascreg.machine.block import BlockContext, block
from ascreg.simt import Simt, __launch_bounds__, __simt_vf__, blockDim, dim3, erfinvf, threadIdx

THREAD_NUM = 256


@__simt_vf__
@__launch_bounds__(THREAD_NUM)
def ErfinvSimtCompute(x: UbPtr[float32_t], y: UbPtr[float32_t], totalNum: int) -> None:
    for i in range(threadIdx.x, totalNum, blockDim.x):
        y[i] = erfinvf(x[i])


@pytest.mark.parametrize("start", ["asc_vf_call", "Simt::VF_CALL"])
def test_simt_vf_on_ub_pointers(start: str) -> None:
    count = 1000
    with block(BlockContext()) as ctx:
        x, y = ctx.ub.alloc(float32_t, count), ctx.ub.alloc(float32_t, count)
        values = np.linspace(-0.99, 0.99, count, dtype=np.float32)
        x.write(values)
        PipeBarrier[PIPE_ALL]()
        if (
            start == "asc_vf_call"
        ):  # asc_vf_call<ErfinvSimtCompute<T>>(dim3(THREAD_NUM), src, dst, count)
            asc_vf_call[ErfinvSimtCompute](dim3(THREAD_NUM), x, y, count)
        else:  # Simt::VF_CALL<...>(Simt::Dim3(THREAD_NUM), ...)
            Simt.VF_CALL[ErfinvSimtCompute](Simt.Dim3(THREAD_NUM), x, y, count)
        PipeBarrier[PIPE_ALL]()
        got = y.read(count)
    back = np.array([math.erf(float(v)) for v in got])
    assert np.allclose(back, values, rtol=0, atol=2e-6)


def test_vf_call_needs_its_thread_count() -> None:
    with block(BlockContext()) as ctx, pytest.raises(AscregTypeError, match="Simt::Dim3"):
        x = ctx.ub.alloc(float32_t, 8)
        Simt.VF_CALL[ErfinvSimtCompute](THREAD_NUM, x, x, 8)
