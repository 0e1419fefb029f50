"""ascreg.emit: every bundled example emits C++ that g++ accepts with ascreg_decl.h, illegal C++
is rejected by the header, and Python that C++ cannot express is an error naming its line.

The examples are emitted once (a module fixture) and compiled in one ``g++ -fsyntax-only`` call.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ascreg
from ascreg import Ref, Reg, UbPtr, UnifiedBuffer, float32_t, uint16_t, uint32_t
from ascreg.basic import GetVecLen
from ascreg.c_api import __simd_callee__, __simd_vf__
from ascreg.emit import EmitError, emit, header_path, kernels_of
from ascreg.emit._tokens import api_names
from ascreg.examples import EXAMPLES, asc_shiftright, c_api_cast, shiftright_vf

COMPILER = shutil.which(os.environ.get("CXX", "g++")) or shutil.which("g++")
needs_gxx = pytest.mark.skipif(
    COMPILER is None, reason="g++ is not installed: emitted C++ is checked with g++ -fsyntax-only"
)


def syntax_errors(
    sources: dict[str, str], tmp_path: Path, header: Path | None = None
) -> dict[str, list[str]]:
    """Compile every source (``name -> C++``) in one g++ call; the error messages of each.

    With ``-fdiagnostics-format=json`` g++ writes one JSON array of diagnostics per input file,
    in order, so each message is attributed to its file (template errors point into the header).
    """
    assert COMPILER is not None
    paths = []
    for name, text in sources.items():
        path = tmp_path / f"{name}.asc"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    done = subprocess.run(
        [COMPILER, "-std=c++17", "-fsyntax-only", "-fdiagnostics-format=json",
         "-include", str(header or header_path()), "-x", "c++", *map(str, paths)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    decoder, raw, at, arrays = json.JSONDecoder(), done.stderr, 0, []
    while at < len(raw):
        if raw[at].isspace():
            at += 1
            continue
        found, at = decoder.raw_decode(raw, at)
        arrays.append(found)
    assert len(arrays) == len(sources), done.stderr[:2000]
    return {
        name: [d["message"] for d in diagnostics if d["kind"] == "error"]
        for name, diagnostics in zip(sources, arrays, strict=True)
    }


def emit_quietly(*functions: Any, run: Any = None) -> str:
    with contextlib.redirect_stdout(io.StringIO()):
        return emit(*functions, run=run)


@pytest.fixture(scope="module")
def emitted_examples() -> dict[str, str]:
    """The C++ of every bundled example's kernels and VFs (its main() is the run)."""
    out = {}
    for name in EXAMPLES:
        module = importlib.import_module(f"ascreg.examples.{name}")
        out[name] = emit_quietly(*kernels_of(module), run=module.main)
    return out


@needs_gxx
def test_every_bundled_example_emits_and_compiles(
    emitted_examples: dict[str, str], tmp_path: Path, declarations: Path
) -> None:
    errors = syntax_errors(emitted_examples, tmp_path, declarations)
    assert not {name: lines for name, lines in errors.items() if lines}
    assert set(emitted_examples) == set(EXAMPLES)


def test_emitted_seeds_read_as_their_cpp(emitted_examples: dict[str, str]) -> None:
    text = emitted_examples["select_vf"]
    assert "template <typename T>\n__simd_vf__ inline void SelectVF(__ubuf__ T* dstAddr" in text
    assert "for (uint16_t i = 0; i < repeatTimes; i++) {" in text
    assert "mask = AscendC::Reg::UpdateMask<T>(count);" in text  # Ref(count): count itself
    assert "AscendC::Reg::Compare<T, AscendC::CMPMODE::EQ>(cmpReg" in text
    kernel = emitted_examples["asc_shiftright"]
    assert "constexpr uint32_t BUFFER_BYTES = ELEMENT_COUNT * sizeof(uint16_t);" in kernel
    assert "__ubuf__ uint16_t output_local[ELEMENT_COUNT];" in kernel
    assert "vector_uint16_t dst = asc_shiftright(src, shift_reg, mask);" in kernel
    assert "for (uint16_t i = 0; i < repeat_time; ++i) {" in emitted_examples["c_api_muls"]
    simt = emitted_examples["byte_perm_simt"]
    assert "__simt_vf__ __launch_bounds__(1024) inline void KernelByte_perm" in simt
    assert "int32_t idx = threadIdx.x + blockIdx.x * blockDim.x;" in simt
    assert "asc_vf_call<KernelByte_perm>(dim3(1024), dst, x, y, s);" in simt


def test_a_class_named_only_as_a_type_is_declared(emitted_examples: dict[str, str]) -> None:
    # sigmoid_f32's tiling dataclass: the kernel only passes it on and reads its fields, so its
    # members come from the instances the run held; declared as a struct before its users
    text = emitted_examples["sigmoid_f32"]
    struct = text.index("struct SigmoidTilingData {\n    uint32_t blockFormer = 0;\n")
    assert "    uint32_t bufferNum = DOUBLE_BUFFER;\n};" in text
    assert struct < text.index("class SigmoidF32 {") < text.index("SigmoidTilingData tilingData)")
    assert "    AscendC::TQue<AscendC::TPosition::VECIN, 1> queIn0_;" in text  # TQue, not TQueBind
    # GetPhyAddr() is a uint64_t in some builds: the pointer is cast, as kernels write it
    assert "= reinterpret_cast<__ubuf__ float*>(bufferIn0_.GetPhyAddr());" in text


# -- the header rejects what the compiler rejects ------------------------------------------------

LEGAL_BODY = """
__simd_vf__ inline void f(__ubuf__ uint16_t* p, __ubuf__ int16_t* q, __ubuf__ half* h, uint32_t n)
{{
    AscendC::Reg::RegTensor<uint16_t> a;
    AscendC::Reg::RegTensor<int16_t> s;
    AscendC::Reg::RegTensor<uint16_t> u;
    AscendC::Reg::RegTensor<half> x;
    AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<uint16_t>(n);
    vector_uint16_t va;
    vector_int16_t vs;
    vector_uint16_t vu;
    {body}
}}
"""
LEGAL = """
    AscendC::Reg::LoadAlign(a, p);
    AscendC::Reg::LoadAlign(s, q);
    AscendC::Reg::ShiftRight(a, a, s, m);
    AscendC::Reg::ShiftRight<uint16_t, int16_t, AscendC::Reg::MaskMergeMode::ZEROING>(a, a, s, m);
    AscendC::Reg::Compare<uint16_t, AscendC::CMPMODE::GT>(m, a, a, m);
    asc_loadalign(va, p);
    asc_loadalign(vs, q);
    vector_uint16_t vd = asc_shiftright(va, vs, asc_create_mask_b16(PAT_ALL));
    asc_storealign(p, vd, asc_create_mask_b16(PAT_ALL));
"""
ILLEGAL = {
    "reg_unsigned_shift_count": "AscendC::Reg::ShiftRight(a, a, u, m);",
    "reg_template_dtype_mismatch": "AscendC::Reg::Compare<half>(m, a, a, m);",
    "reg_wrong_template_token": "AscendC::Reg::Compare<uint16_t, AscendC::Reg::LoadDist::DIST_NORM>(m, a, a, m);",
    "reg_illegal_dtype": "AscendC::Reg::ShiftRight(x, x, s, m);",
    "reg_arity": "AscendC::Reg::Select(a, a, a);",
    "reg_count_not_uint32": "int32_t k = 3; m = AscendC::Reg::UpdateMask<uint16_t>(k);",
    "c_api_unsigned_shift_count": "vector_uint16_t vd = asc_shiftright(va, vu, asc_create_mask_b16(PAT_ALL));",
    "c_api_arity": "vector_uint16_t vd = asc_shiftright(va, vs);",
    "c_api_pointer_dtype": "asc_loadalign(va, q);",
    "misspelled_name": "asc_shiftrigth(va, va, vs, asc_create_mask_b16(PAT_ALL));",
    "simt_warp_value_type": "int8_t c = 1; int8_t y = asc_reduce_add(c);",
}
"""Calls the real compiler rejects: names, arity, template arguments, illegal dtype pairs."""


@needs_gxx
def test_the_header_rejects_illegal_calls(tmp_path: Path, declarations: Path) -> None:
    sources = {"legal": LEGAL_BODY.format(body=LEGAL)}
    sources |= {name: LEGAL_BODY.format(body=body) for name, body in ILLEGAL.items()}
    errors = syntax_errors(sources, tmp_path, declarations)
    assert errors["legal"] == []
    assert [name for name in ILLEGAL if not errors[name]] == []
    assert any("illegal dtype combination" in line for line in errors["reg_illegal_dtype"])
    assert any(
        "does not match the register" in line for line in errors["reg_template_dtype_mismatch"]
    )


@needs_gxx
def test_an_illegal_pair_in_emitted_code_fails_to_compile(
    emitted_examples: dict[str, str], tmp_path: Path, declarations: Path
) -> None:
    # the asc_shiftright seed with an unsigned shift register: no asc_shiftright overload takes it
    legal = emitted_examples["asc_shiftright"]
    illegal = legal.replace("vector_int16_t shift_reg;", "vector_uint16_t shift_reg;").replace(
        "__ubuf__ int16_t* shift)", "__ubuf__ uint16_t* shift)"
    )
    assert illegal != legal
    errors = syntax_errors({"legal": legal, "illegal": illegal}, tmp_path, declarations)
    assert errors["legal"] == []
    assert any("asc_shiftright" in line for line in errors["illegal"])


def test_the_header_declares_every_public_name() -> None:
    declared = api_names(header_path().read_text(encoding="utf-8"))
    python_only = {
        # Python spellings of C++ syntax, types of the C library, ascreg's own machinery
        "GmPtr", "UbPtr", "Ref", "VECTOR_TYPES", "vector_of", "hw_range", "Lanes", "LanePointer",
        "GenericPointer", "PairValue", "CodePairValue", "VectorValue", "Vector2", "Vector3",
        "Vector4", "DivergentBranchError", "run_simt_kernel", "run_simt_vf", "TBufHandle",
        "MAX_ALLOCATED_PER_POSITION", "MAX_BUFFERS", "bool_", "float32_t", "int8_t", "uint8_t",
        "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "module_getattr",
    }  # fmt: skip
    missing = {}
    for module_name in ("ascreg.reg", "ascreg.c_api", "ascreg.simt", "ascreg.basic"):
        module = importlib.import_module(module_name)
        names = [n for n in module.__all__ if not inspect.ismodule(getattr(module, n, None))]
        gaps = [n for n in names if n not in declared and n not in python_only]
        if gaps:
            missing[module_name] = gaps
    assert missing == {}


# -- Python that C++ cannot express: an error naming the line ------------------------------------


@__simd_vf__
def prints(dst: UbPtr[float32_t]) -> None:
    reg = Reg.RegTensor[float32_t]()
    Reg.Duplicate(reg, 1.0)
    print("debugging", dst)  # inexpressible: print
    Reg.StoreAlign(dst, reg, Reg.CreateMask[float32_t]())


@__simd_vf__
def true_division(a: int, b: int) -> int:
    return int(a / b)  # inexpressible: / of integers


@__simd_vf__
def floor_of_negative(a: int, b: int) -> int:
    return a // b  # inexpressible: // of a negative value


@__simd_vf__
def listed(n: int) -> int:
    values = [1, 2, 3]  # inexpressible: a list
    return values[n]


@__simd_vf__
def chained(a: int) -> bool:
    return 0 < a < 10  # inexpressible: chained comparison


@__simd_vf__
def loop_variable_after(n: int) -> int:
    for i in range(n):
        n += i
    return i  # inexpressible: the loop variable after the loop


@__simd_vf__
def numpy_call(n: int) -> int:
    return int(np.sum(np.arange(n)))  # inexpressible: numpy


@__simd_vf__
def while_else(n: int) -> int:
    total = 0
    while total < n:
        total += 1
    else:
        total = 0  # inexpressible: the else branch of a while loop
    return total


@__simd_vf__
def keywords(dst: UbPtr[float32_t]) -> None:
    reg = Reg.RegTensor[float32_t]()
    mask = Reg.CreateMask[float32_t]()
    Reg.Duplicate(reg, 1.0, mask=mask)  # inexpressible: keyword arguments of an API call
    Reg.StoreAlign(dst, reg, mask)


@__simd_vf__
def picks(n: int) -> int:
    helper = chained if n > 0 else listed  # inexpressible: a function picked at run time
    return int(helper(n))


class Filler:
    """A class template over its element type: ``Filler(float32_t)`` is ``Filler<float>``."""

    def __init__(self, T: Any) -> None:
        self.T = T

    def Run(self) -> None:
        reg = Reg.RegTensor[self.T]()
        mask = Reg.CreateMask[self.T]()
        Reg.Duplicate(reg, self.T(1), mask)


@__simd_vf__
def fill_outside(wide: int) -> None:
    if wide:  # noqa: SIM108 (the ternary is fill_picked)
        filler = Filler(float32_t)  # inexpressible: its instantiation is its C++ type
    else:
        filler = Filler(uint16_t)
    filler.Run()


@__simd_vf__
def fill_picked(wide: int) -> None:
    filler = Filler(float32_t) if wide else Filler(uint16_t)  # inexpressible: two C++ types
    filler.Run()


@__simd_vf__
def fill_inside(wide: int) -> None:
    if wide:
        filler = Filler(float32_t)
        filler.Run()
    else:
        filler = Filler(uint16_t)
        filler.Run()


@__simd_vf__
def never_bound(n: int) -> int:
    total = 0
    for i in range(n):
        total += i  # inexpressible: the run ran no iteration, so i has no type
    return total


CASES = {
    prints: lambda: prints(UnifiedBuffer().alloc(float32_t, 64)),
    true_division: lambda: true_division(7, 2),
    floor_of_negative: lambda: floor_of_negative(-7, 2),
    listed: lambda: listed(1),
    chained: lambda: chained(3),
    loop_variable_after: lambda: loop_variable_after(3),
    numpy_call: lambda: numpy_call(4),
    while_else: lambda: while_else(3),
    keywords: lambda: keywords(UnifiedBuffer().alloc(float32_t, 64)),
    picks: lambda: picks(1),
    never_bound: lambda: never_bound(0),
    fill_outside: lambda: (fill_outside(1), fill_outside(0)),
    fill_picked: lambda: (fill_picked(1), fill_picked(0)),
}


@pytest.mark.parametrize("function", list(CASES), ids=lambda f: f.__name__)
def test_inexpressible_python_names_the_line(function: Any) -> None:
    lines, first = inspect.getsourcelines(inspect.unwrap(function))
    offset = next(i for i, line in enumerate(lines) if "inexpressible" in line)
    with contextlib.redirect_stdout(io.StringIO()), pytest.raises(EmitError) as raised:
        emit(function, run=CASES[function])
    message = str(raised.value)
    assert f"test_emit.py:{first + offset}:" in message
    assert lines[offset].split("#")[0].strip() in message


@__simd_vf__
def ordered(n: int) -> int:
    return positional(n, scale=3)


@__simd_callee__
def positional(n: int, offset: int = 1, *, scale: int) -> int:
    return n * scale + offset


@__simd_vf__
def copy_any(dst: UbPtr[float32_t], src: UbPtr[float32_t], n: int) -> None:
    for i in range(n):
        dst[i] = src[i]


def run_copy_any() -> None:
    ub = UnifiedBuffer()
    copy_any(ub.alloc(float32_t, 4), ub.alloc(float32_t, 4), 4)
    copy_any(ub.alloc(uint16_t, 4), ub.alloc(uint16_t, 4), 4)


def test_keyword_arguments_of_own_functions_and_generic_pointers(tmp_path: Path) -> None:
    text = emit(ordered, run=lambda: ordered(2))
    assert "return positional(n, 1, 3);" in text  # in order, the default filled in
    generic = emit(copy_any, run=run_copy_any)  # the element type changed: a template
    assert "template <typename T>\n__simd_vf__ inline void copy_any(__ubuf__ T* dst" in generic
    if COMPILER is not None:
        assert syntax_errors({"ordered": text, "generic": generic}, tmp_path) == {
            "ordered": [],
            "generic": [],
        }


@__simd_vf__
def as_written(dst: UbPtr[uint32_t], n: int) -> None:
    a, b = Reg.RegTensor[uint32_t](), Reg.RegTensor[uint32_t]()
    mask = Reg.CreateMask[uint32_t]()
    i = 0
    while i < n:
        Reg.Duplicate(a, uint32_t(1), mask)
        Reg.Adds(b, a, uint32_t((i >> 1) & 3), mask)
        Reg.StoreAlign(dst + (i * 64), b, mask)
        i += 2
    if LANES > 32:
        Reg.StoreAlign(dst, a, mask)


@__simd_vf__
def counted(dst: UbPtr[uint32_t], repeatTimes: int) -> None:
    reg = Reg.RegTensor[uint32_t]()
    mask = Reg.CreateMask[uint32_t]()
    Reg.Duplicate(reg, uint32_t(7), mask)
    for i in range(repeatTimes):
        Reg.StoreAlign(dst + i * 64, reg, mask)


def test_a_vf_loop_count_is_uint16(tmp_path: Path) -> None:
    text = emit(counted, run=lambda: counted(UnifiedBuffer().alloc(uint32_t, 256), 4))
    assert "uint16_t repeatTimes)" in text  # a VF's hardware loop counts 16 bits
    assert "for (uint16_t i = 0; i < repeatTimes; i++) {" in text
    if COMPILER is not None:
        assert syntax_errors({"counted": text}, tmp_path) == {"counted": []}


def test_spellings_of_the_source(tmp_path: Path) -> None:
    def run() -> None:
        as_written(UnifiedBuffer().alloc(uint32_t, 256), 4)

    text = emit(as_written, run=run)
    assert "AscendC::Reg::RegTensor<uint32_t> a, b;" in text  # one tuple: one declaration
    assert "for (uint32_t i = 0; i < n; i += 2) {" in text  # init, while, step: a for loop
    assert "AscendC::Reg::Duplicate(a, 1U, mask);" in text  # uint32_t(1): the literal 1U
    assert "static_cast<uint32_t>((i >> 1) & 3)" in text  # the source's parentheses kept
    assert "dst + (i * 64)" in text
    assert "if constexpr (LANES > 32) {" in text  # a test of the module's constants only
    if COMPILER is not None:
        assert syntax_errors({"as_written": text}, tmp_path) == {"as_written": []}


def test_without_a_run_an_untyped_parameter_is_an_error() -> None:
    with pytest.raises(EmitError, match=r"give ascreg\.emit a run"):
        emit(shiftright_vf.ShiftRightVF)


def test_an_undecorated_root_is_an_error() -> None:
    with pytest.raises(EmitError, match=r"not a __global__, __simd_vf__ or __simt_vf__"):
        emit(asc_shiftright.main)


# -- the package and the command line ---------------------------------------------------------


def test_ascreg_emit_is_the_function_and_loads_lazily() -> None:
    code = (
        "import sys, ascreg; before = 'ascreg.emit' in sys.modules; emit = ascreg.emit; "
        "print(before, 'ascreg.emit' in sys.modules, callable(emit))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True", "True"]
    assert callable(ascreg.emit)


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ascreg.emit.__main__ import main

    out = tmp_path / "kernel.asc"
    assert main(["ascreg.examples.asc_shiftright", "-o", str(out)]) == 0
    assert "[Success]" in capsys.readouterr().err  # the run's own output goes to stderr
    assert re.search(r"__global__ __vector__ void asc_shiftright_kernel\(", out.read_text())
    assert main(["ascreg.examples.byte_perm_simt:KernelByte_perm"]) == 0
    assert "inline void KernelByte_perm(" in capsys.readouterr().out
    assert main(["--header-path"]) == 0
    assert Path(capsys.readouterr().out.strip()) == header_path()
    assert main(["ascreg.examples.asc_shiftright:main"]) == 1  # not a kernel: an error, no C++
    assert "not a __global__" in capsys.readouterr().err


@__simd_vf__
def post_update(src: UbPtr[float32_t], dst: UbPtr[float32_t]) -> None:
    reg = Reg.RegTensor[float32_t]()
    at = Ref(src)  # the parameter itself in C++ (LoadAlign's T*&)
    Reg.LoadAlign[float32_t, Reg.PostLiteral.POST_MODE_UPDATE, Reg.LoadDist.DIST_NORM](reg, at, 64)
    mask = Reg.CreateMask[float32_t]()  # a MaskReg& parameter takes a variable, not a temporary
    Reg.StoreAlign(dst, reg, mask)


def run_post_update() -> None:
    ub = UnifiedBuffer()
    src, dst = ub.alloc(float32_t, 128), ub.alloc(float32_t, 64)
    src.write(np.arange(128, dtype=np.float32))
    post_update(src, dst)


def test_template_arguments_are_the_cpp_list(tmp_path: Path) -> None:
    # ascreg takes a C++ template argument list only, in its order; the header declares each
    # list as one overload (here LoadAlign<T, POST, LoadDist> of the post-update form)
    text = emit(post_update, run=run_post_update)
    assert (
        "LoadAlign<float, AscendC::Reg::PostLiteral::POST_MODE_UPDATE, "
        "AscendC::Reg::LoadDist::DIST_NORM>(reg, src, 64);" in text
    )
    if COMPILER is not None:
        assert syntax_errors({"post_update": text}, tmp_path) == {"post_update": []}


@__simd_vf__
def sign_bits(src: UbPtr[float32_t], dst: UbPtr[float32_t]) -> None:
    reg = Reg.RegTensor[float32_t]()
    Reg.LoadAlign(reg, src)
    bits = Reg.RegTensor[uint32_t](reg)  # a view: writes through it change reg
    mask = Reg.CreateMask[uint32_t]()
    Reg.ShiftRights(bits, bits, uint16_t(31), mask)
    Reg.StoreAlign(dst, reg, mask)


def run_sign_bits() -> None:
    ub = UnifiedBuffer()
    src, dst = ub.alloc(float32_t, 64), ub.alloc(float32_t, 64)
    src.write(np.linspace(-2, 2, 64, dtype=np.float32))
    sign_bits(src, dst)


def test_a_register_view_is_a_reference_cast(tmp_path: Path) -> None:
    text = emit(sign_bits, run=run_sign_bits)
    assert (
        "AscendC::Reg::RegTensor<uint32_t>& bits = (AscendC::Reg::RegTensor<uint32_t>&)reg;" in text
    )
    if COMPILER is not None:
        assert syntax_errors({"sign_bits": text}, tmp_path) == {"sign_bits": []}
    cast = emit_quietly(*kernels_of(c_api_cast), run=c_api_cast.main)
    assert "(vector_int32_t)dst_reg" in cast  # the C API's value cast


T32 = uint32_t
LANES = 64


def div_ceil(a: int, b: int) -> int:
    return (a + b - 1) // b


@__simd_callee__
def copy_reg(dst: Any, src: Any, mask: Any) -> None:
    Reg.Copy(dst, src, mask)


@__simd_vf__
def kernel_style(src: UbPtr[T32], dst: UbPtr[T32], count: int) -> None:
    oneRepeatSize = GetVecLen() // T32.size
    repeatTimes = div_ceil(count, oneRepeatSize)
    offset = np.uint32(LANES).view(np.int32)
    reg, out = Reg.RegTensor[T32](), Reg.RegTensor[T32]()
    mask = Reg.CreateMask[T32]()
    for i in range(repeatTimes):
        Reg.LoadAlign(reg, src + i * oneRepeatSize + int(offset) - LANES)
        copy_reg(out, reg, mask)
        Reg.StoreAlign(dst + i * oneRepeatSize, out, mask)


def run_kernel_style() -> None:
    ub = UnifiedBuffer()
    src, dst = ub.alloc(uint32_t, 128), ub.alloc(uint32_t, 128)
    src.write(np.arange(128, dtype=np.uint32))
    kernel_style(src, dst, 128)


def test_kernel_spellings(tmp_path: Path) -> None:
    text = emit(kernel_style, run=run_kernel_style)
    assert "constexpr uint32_t oneRepeatSize = AscendC::GetVecLen() / sizeof(T32);" in text
    assert "__aicore__ inline constexpr uint32_t div_ceil(uint32_t a, uint32_t b)" in text
    assert "uint32_t count)" in text  # a count, not the dtype alias T32 of uint32_t
    assert "int32_t offset = static_cast<int32_t>(static_cast<T32>(LANES));" in text
    assert (
        "copy_reg(AscendC::Reg::RegTensor<uint32_t>& dst, AscendC::Reg::RegTensor<uint32_t>& src"
        in text
    )
    if COMPILER is not None:
        assert syntax_errors({"kernel_style": text}, tmp_path) == {"kernel_style": []}


def test_a_class_constructed_with_dtypes_is_a_class_template(tmp_path: Path) -> None:
    # the cast port: Kernel(half, int32_t, n) in one branch, Kernel(float32_t, int16_t, n) in
    # the other; C++'s Kernel<SrcT, DstT, totalLength>, declared in each branch
    path = Path(__file__).resolve().parent.parent / "examples" / "reg" / "test_cast.py"
    spec = importlib.util.spec_from_file_location("emit_class_template_cast", path)
    assert spec is not None and spec.loader is not None
    port = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = port  # inspect finds the class's source through its module
    sys.path.insert(0, str(path.parent.parent.parent))  # the port imports example_checks
    try:
        spec.loader.exec_module(port)
    finally:
        sys.path.remove(str(path.parent.parent.parent))

    def both_scenarios() -> None:
        for scenario in (1, 2):
            port.scenarioNum = scenario
            port.main(port.gen_golden_data_simple(scenario, 0)[0].reshape(-1))
        port.scenarioNum = 1

    text = emit_quietly(port.cast, run=both_scenarios)
    assert "template <typename SrcT, typename DstT, uint32_t totalLength>\nclass Kernel {" in text
    assert "    AscendC::GlobalTensor<SrcT> xGm;\n    AscendC::GlobalTensor<DstT> yGm;\n" in text
    assert "AscendC::LocalTensor<DstT> yLocal = ubAllocator.Alloc<DstT, totalLength>();" in text
    assert "Kernel(" not in text  # the constructor only stored the template arguments
    assert "constexpr uint32_t totalLength = 256;" in text
    assert "        Kernel<half, int32_t, totalLength> kernel;\n        kernel.Init(x, y);" in text
    assert "        Kernel<float, int16_t, totalLength> kernel;\n        kernel.Init(x, y);" in text
    if COMPILER is not None:
        assert syntax_errors({"cast": text}, tmp_path) == {"cast": []}


def test_a_class_template_is_declared_in_each_branch(tmp_path: Path) -> None:
    # fill_outside (above) uses the variable after the branches: an error naming its line
    inside = emit_quietly(fill_inside, run=lambda: (fill_inside(1), fill_inside(0)))
    assert "template <typename T>\nclass Filler {" in inside
    assert "AscendC::Reg::Duplicate(reg, static_cast<T>(1), mask);" in inside
    assert "        Filler<float> filler;\n        filler.Run();" in inside
    assert "        Filler<uint16_t> filler;\n        filler.Run();" in inside
    if COMPILER is not None:
        assert syntax_errors({"fill_inside": inside}, tmp_path) == {"fill_inside": []}
