"""SIMT integer device functions: hypothesis properties and C++ goldens against the scalar
references (``reference.intrinsics``), and the argument rules."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.simt as simt
from ascreg.errors import AscregTypeError
from ascreg.simt.lanes import Lanes
from reference.intrinsics import (
    ref_brev,
    ref_byte_perm,
    ref_clz,
    ref_ffs,
    ref_mul24,
    ref_popc,
    s,
    u,
)

I32, U32, I64, U64 = np.int32, np.uint32, np.int64, np.uint64
I8, U8, I16, U16 = np.int8, np.uint8, np.int16, np.uint16

# name, parameter dtypes, return dtype, reference on Python ints
CASES: list[tuple[str, tuple[Any, ...], Any, Callable[..., int]]] = [
    ("__byte_perm", (U32, U32, U32), U32, ref_byte_perm),
    ("__mulhi", (I32, I32), I32, lambda x, y: (x * y) >> 32),
    ("__umulhi", (U32, U32), U32, lambda x, y: (x * y) >> 32),
    ("__mul64hi", (I64, I64), I64, lambda x, y: (x * y) >> 64),
    ("__umul64hi", (U64, U64), U64, lambda x, y: (x * y) >> 64),
    ("__mul_i32toi64", (I32, I32), I64, lambda x, y: x * y),
    ("__mul_i32toi64", (U32, U32), U64, lambda x, y: x * y),
    ("__brev", (U32,), U32, lambda x: ref_brev(x, 32)),
    ("__brev", (U64,), U64, lambda x: ref_brev(x, 64)),
    ("__clz", (I32,), I32, lambda x: ref_clz(x, 32)),
    ("__clz", (I64,), I32, lambda x: ref_clz(x, 64)),
    ("__ffs", (I32,), I32, lambda x: ref_ffs(x, 32)),
    ("__ffs", (I64,), I32, lambda x: ref_ffs(x, 64)),
    ("__popc", (U32,), I32, lambda x: ref_popc(x, 32)),
    ("__popc", (U64,), I32, lambda x: ref_popc(x, 64)),
    ("__sad", (I32, I32, U32), U32, lambda x, y, z: u(abs(x - y) + z, 32)),
    ("__usad", (U32, U32, U32), U32, lambda x, y, z: u(abs(x - y) + z, 32)),
    ("__mul24", (I32, I32), I32, lambda x, y: ref_mul24(x, y, True)),
    ("__umul24", (U32, U32), U32, lambda x, y: ref_mul24(x, y, False)),
    ("__hadd", (I32, I32), I32, lambda x, y: (x + y) >> 1),
    ("__rhadd", (I32, I32), I32, lambda x, y: (x + y + 1) >> 1),
    ("__uhadd", (U32, U32), U32, lambda x, y: (x + y) >> 1),
    ("__urhadd", (U32, U32), U32, lambda x, y: (x + y + 1) >> 1),
    ("umax", (U32, U32), U32, max),
    ("umin", (U32, U32), U32, min),
    ("llmax", (I64, I64), I64, max),
    ("llmin", (I64, I64), I64, min),
    ("ullmax", (U64, U64), U64, max),
    ("ullmin", (U64, U64), U64, min),
    ("labs", (I64,), I64, lambda x: s(abs(x), 64)),
    ("llabs", (I64,), I64, lambda x: s(abs(x), 64)),
    *[("max", (t, t), t, max) for t in (I8, U8, I16, U16, I32, U32, I64, U64)],
    *[("min", (t, t), t, min) for t in (I8, U8, I16, U16, I32, U32, I64, U64)],
]
CASE_ROWS = sorted({name for name, *_ in CASES})
"""The rows the CASES table covers (every integer device function)."""
IDS = [f"{name}-{'_'.join(np.dtype(t).name for t in params)}" for name, params, _, _ in CASES]


def boundary(dtype: Any) -> list[int]:
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max)
    picks = {lo, lo + 1, hi, hi - 1, 0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x8888}
    picks |= {0x7FFFFF, 0x800000, 0xFFFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, -1, -(2**31)}
    return sorted(v for v in picks if lo <= v <= hi)


def lane_values(dtype: Any) -> st.SearchStrategy[int]:
    info = np.iinfo(dtype)
    return st.one_of(st.sampled_from(boundary(dtype)), st.integers(int(info.min), int(info.max)))


def check_lanes(
    name: str, params: tuple[Any, ...], ret: Any, ref: Callable[..., int], columns: list[list[int]]
) -> None:
    arrays = [np.array(col, dtype=t) for col, t in zip(columns, params, strict=True)]
    got = getattr(simt, name)(*arrays)
    assert got.dtype == np.dtype(ret), (name, got.dtype)
    expected = [ref(*lane) for lane in zip(*columns, strict=True)]
    assert got.tolist() == expected


@pytest.mark.rows(*CASE_ROWS)
@pytest.mark.parametrize(("name", "params", "ret", "ref"), CASES, ids=IDS)
@given(data=st.data(), n=st.integers(1, 40))
def test_random_lanes_match_reference(
    name: str, params: Any, ret: Any, ref: Any, data: Any, n: int
) -> None:
    columns = [data.draw(st.lists(lane_values(t), min_size=n, max_size=n)) for t in params]
    check_lanes(name, params, ret, ref, columns)


@pytest.mark.rows(*CASE_ROWS)
@pytest.mark.parametrize(("name", "params", "ret", "ref"), CASES, ids=IDS)
def test_boundary_grid_matches_reference(name: str, params: Any, ret: Any, ref: Any) -> None:
    pairs = list(itertools.product(*[boundary(t) for t in params[:2]]))
    columns = [list(col) for col in zip(*pairs, strict=True)]
    if len(params) == 3:  # third operand: cycle through its boundary values
        third = boundary(params[2])
        columns.append([third[i % len(third)] for i in range(len(columns[0]))])
    check_lanes(name, params, ret, ref, columns)


@pytest.mark.parametrize(("name", "params", "ret", "ref"), CASES, ids=IDS)
def test_scalars_give_numpy_scalars(name: str, params: Any, ret: Any, ref: Any) -> None:
    args = [np.dtype(t).type(boundary(t)[-1]) for t in params]
    got = getattr(simt, name)(*args)
    assert isinstance(got, np.generic) and got.dtype == np.dtype(ret)
    assert int(got) == ref(*(int(a) for a in args))


# -- __byte_perm specifics ----------------------------------------------------------------------


def test_byte_perm_documented_values() -> None:
    assert int(simt.__byte_perm(0, 0, 0)) == 0
    assert int(simt.__byte_perm(1, 1, 1)) == 16843008


@given(x=st.integers(0, 2**32 - 1), y=st.integers(0, 2**32 - 1), sel=st.integers(0, 2**32 - 1))
def test_byte_perm_ignores_nibble_bit3_and_high_half(x: int, y: int, sel: int) -> None:
    cleaned = sel & 0x7777
    assert int(simt.__byte_perm(x, y, sel)) == int(simt.__byte_perm(x, y, cleaned))
    assert int(simt.__byte_perm(x, y, sel)) == ref_byte_perm(x, y, sel)


def test_byte_perm_int_min_and_all_ones() -> None:
    xs = np.array([-(2**31), -1, 0], dtype=np.int32)  # same-width signed: reinterpreted
    got = simt.__byte_perm(xs, np.uint32(0xFFFFFFFF), np.uint32(0x8888))
    assert got.tolist() == [ref_byte_perm(u(int(v), 32), 0xFFFFFFFF, 0x8888) for v in xs]


# -- argument rules -----------------------------------------------------------------------------


def test_python_int_picks_32_bit_unless_it_does_not_fit() -> None:
    assert simt.__clz(1).dtype == np.int32 and int(simt.__clz(1)) == 31
    assert int(simt.__clz(2**31)) == 32  # only fits long long: 64-bit overload
    assert int(simt.__popc(2**32)) == 1
    assert int(simt.__brev(1)) == 2**31 and int(simt.__brev(2**32)) == 2**31


def test_numpy_dtype_picks_overload() -> None:
    assert int(simt.__clz(np.int64(1))) == 63
    assert int(simt.__clz(np.uint32(1))) == 31
    assert int(simt.__clz(np.int16(-1))) == 0  # widened by value to int: 0xFFFFFFFF
    assert int(simt.__popc(np.int8(-1))) == 32  # C: (unsigned)(signed char)-1
    assert simt.max(np.int8(-1), np.int8(3)).dtype == np.int8
    assert simt.max(np.int8(-1), 3).dtype == np.int32  # a Python int is a C int


@pytest.mark.parametrize(
    ("call", "args", "pattern"),
    [
        (simt.__byte_perm, (-1, 0, 0), "no overload"),
        (simt.__byte_perm, (np.int64(1), 0, 0), "no overload"),
        (simt.__popc, (-1,), "no overload"),
        (simt.__clz, (2**64,), "no overload"),
        (simt.__mulhi, (1.5, 2), "does not convert floats"),
        (simt.__umulhi, (np.float32(1), 2), "does not convert floats"),
        (simt.max, (np.int32(1), np.uint32(1)), "ambiguous"),
        (simt.__mul_i32toi64, (np.array([1], np.int32), np.array([1], np.uint32)), "ambiguous"),
    ],
)
def test_bad_arguments_are_clear_errors(call: Any, args: Any, pattern: str) -> None:
    with pytest.raises(AscregTypeError, match=pattern) as info:
        call(*args)
    assert str(info.value).startswith(call.__name__ + ":")


def test_lanes_stay_lanes() -> None:
    lanes = np.arange(4, dtype=np.uint32).view(Lanes)
    assert isinstance(simt.__popc(lanes), Lanes)
    assert type(simt.__popc(np.arange(4, dtype=np.uint32))) is np.ndarray


def test_broadcast_scalar_with_array() -> None:
    got = simt.umax(np.array([1, 5, 9], np.uint32), 4)
    assert got.tolist() == [4, 5, 9] and got.dtype == np.uint32


# -- C++ golden ---------------------------------------------------------------------------------

CPP = Path(__file__).resolve().parents[1] / "cpp" / "simt_intrinsics.cpp"


@pytest.fixture(scope="module")
def cpp_simt(tmp_path_factory: pytest.TempPathFactory) -> Callable[[list[str]], list[str]]:
    compiler = shutil.which(os.environ.get("CXX", "g++")) or shutil.which("g++")
    if compiler is None:
        pytest.skip("g++ is not installed: the C++ reference checks need a C++17 compiler")
    exe = tmp_path_factory.mktemp("cpp_simt") / "simt_intrinsics"
    build = subprocess.run(
        [compiler, "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-o", str(exe), str(CPP)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr

    def run(lines: list[str]) -> list[str]:
        done = subprocess.run(
            [str(exe)], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True
        )
        return done.stdout.splitlines()

    return run


def _cpp_name(name: str, params: tuple[Any, ...]) -> str:
    wide = np.dtype(params[0]).itemsize == 8 and name in ("__brev", "__clz", "__ffs", "__popc")
    if wide:
        return name + "64"
    if name == "__mul_i32toi64" and np.dtype(params[0]).kind == "u":
        return name + "u"
    if name in ("max", "min") and np.dtype(params[0]).kind == "u":
        return name + "u"
    return name


@pytest.mark.rows(*CASE_ROWS)
@pytest.mark.parametrize(("name", "params", "ret", "ref"), CASES, ids=IDS)
def test_matches_cpp_golden(cpp_simt: Any, name: str, params: Any, ret: Any, ref: Any) -> None:
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    columns: list[np.ndarray[Any, Any]] = []
    for t in params:
        info = np.iinfo(t)
        random = rng.integers(int(info.min), int(info.max), 200, dtype=t, endpoint=True)
        edge = np.array(boundary(t), dtype=t)
        columns.append(np.concatenate([np.resize(edge, 60), random]))
    got = getattr(simt, name)(*columns)
    cname = _cpp_name(name, params)
    lines = [" ".join([cname, *(str(int(c[i])) for c in columns)]) for i in range(len(columns[0]))]
    expected = cpp_simt(lines)
    assert [str(v) for v in got.tolist()] == expected
