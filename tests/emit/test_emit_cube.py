"""ascreg.emit on cube kernels: the ported matmul examples emit C++ that g++ accepts.

``__global__ __cube__`` and ``__global__ __mix__(1, 2)`` kernels (the asc-devkit matmul_basic_api
and matmul_leakyrelu_basic_api ports) are emitted from a run of each and compiled against the
shipped header: the cube allocators, ``Nd2NzParams`` copies, ``LoadData2DParamsV2``, ``Mmad``,
``FixpipeParamsV220`` and the cross-core flags.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from tests.emit.test_emit import emit_quietly, needs_gxx, syntax_errors

from ascreg import GlobalMemory, GmPtr, uint8_t
from ascreg.basic import PIPE_ALL, PipeBarrier
from ascreg.emit import EmitError
from ascreg.machine.kernel import __global__, __vector__

PORT = Path(__file__).resolve().parents[1] / "basic" / "test_port_matmul_basic_api.py"


def _port() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_emit_matmul_port", PORT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # inspect finds a class's source through its module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def emitted() -> dict[str, str]:
    port = _port()
    cube = port.mmad_custom(**port.MATMUL)
    x1, x2, _ = port.gen_golden_data(256, 64, 256, 0)
    mix = port.mmad_vec_custom(**port.FUSION)
    y1, y2, _ = port.fusion_golden(512, 128, 128, 0)
    return {
        "matmul_basic_api": emit_quietly(cube, run=lambda: port.launch(cube, 2, x1, x2)),
        "matmul_leakyrelu": emit_quietly(mix, run=lambda: port.launch(mix, 2, y1, y2)),
    }


def test_the_kernels_keep_their_qualifiers(emitted: dict[str, str]) -> None:
    assert "__global__ __cube__ void mmad_custom(" in emitted["matmul_basic_api"]
    assert "__global__ __mix__(1, 2) void mmad_vec_custom(" in emitted["matmul_leakyrelu"]
    text = emitted["matmul_leakyrelu"]
    assert "AscendC::LocalMemAllocator<AscendC::Hardware::L0C> l0cAllocator;" in text
    assert "AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(0);" in text
    assert "AscendC::QuantMode_t::F322F16" in text


@needs_gxx
def test_the_cube_ports_compile(
    emitted: dict[str, str], tmp_path: Path, declarations: Path
) -> None:
    errors = syntax_errors(emitted, tmp_path, declarations)
    assert not {name: lines for name, lines in errors.items() if lines}


class Holder:
    def __init__(self, n: int, m: int = 2) -> None:
        self.n = n
        self.m = m

    def Run(self) -> None:
        PipeBarrier[PIPE_ALL]()


HOLDER_ARGS = {"n": 3}


@__global__
@__vector__
def keyword_kernel(x: GmPtr[uint8_t]) -> None:
    h = Holder(n=4, m=5)
    h.Run()


@__global__
@__vector__
def double_star_kernel(x: GmPtr[uint8_t]) -> None:
    h = Holder(**HOLDER_ARGS)
    h.Run()


def _launch(kernel: object) -> None:
    kernel[1, 0, None](GlobalMemory().alloc(uint8_t, 32))  # type: ignore[index]


def test_keyword_construction_passes_the_arguments_in_order() -> None:
    text = emit_quietly(keyword_kernel, run=lambda: _launch(keyword_kernel))
    assert "Holder h(4, 5);" in text


def test_a_double_star_construction_names_the_line() -> None:
    """``Holder(**params)`` has no C++ spelling: an error, not a constructor without arguments."""
    with pytest.raises(EmitError, match=r"a \*\* argument has no C\+\+ counterpart"):
        emit_quietly(double_star_kernel, run=lambda: _launch(double_star_kernel))
