"""The emitted seed kernels, compiled with ascreg_decl.h's CPU implementation, match ascreg.

``ascreg.emit`` writes the C++ of the seed examples (SelectVF, the Reg ShiftRight VF, the
``asc_shiftright`` kernel, the ``__byte_perm`` SIMT kernel); ``g++ -DASCREG_EXEC -include
ascreg_decl.h`` compiles each with a small driver (tests/emit/drivers/) into a program. The
program and the Python kernel then run on the same >= 10^4 random inputs and must agree bit for
bit: the emitted C++ computes what the Python computed.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ascreg import GlobalMemory, UnifiedBuffer, half, int16_t, uint16_t, uint32_t
from ascreg.emit import emit, header_path
from ascreg.examples import asc_shiftright, byte_perm_simt, select_vf, shiftright_vf

DRIVERS = Path(__file__).resolve().parent / "drivers"
COMPILER = shutil.which(os.environ.get("CXX", "g++")) or shutil.which("g++")
pytestmark = pytest.mark.skipif(
    COMPILER is None, reason="g++ is not installed: the emitted kernels are compiled with g++"
)


def quiet(run: Callable[[], Any]) -> Callable[[], Any]:
    """*run* with its printed success line swallowed."""

    def silent() -> Any:
        with contextlib.redirect_stdout(io.StringIO()):
            return run()

    return silent


def build(
    tmp_path: Path, name: str, *functions: Any, run: Callable[[], Any]
) -> Callable[[str], list[str]]:
    """Emit *functions*, compile them with the driver *name*, return ``run(stdin) -> lines``."""
    emitted = tmp_path / f"{name}.asc"
    emitted.write_text(emit(*functions, run=quiet(run)), encoding="utf-8")
    exe = tmp_path / name
    assert COMPILER is not None
    done = subprocess.run(
        [COMPILER, "-std=c++17", "-O1", "-DASCREG_EXEC", f'-DEMITTED="{emitted}"',
         "-include", str(header_path()), "-o", str(exe), str(DRIVERS / f"{name}.cpp")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, f"compiling the emitted {name} failed:\n{done.stderr}"

    def execute(stdin: str) -> list[str]:
        result = subprocess.run([str(exe)], input=stdin, capture_output=True, text=True, check=True)
        return result.stdout.split()

    return execute


def test_select_vf_runs_as_emitted(tmp_path: Path) -> None:
    rng = np.random.default_rng(27)
    count, lanes = 12_000 - 37, 128
    padded = -(-count // lanes) * lanes
    src0 = rng.integers(0, 2**16, padded, dtype=np.uint32).astype(np.uint16)
    src1 = rng.integers(0, 2**16, padded, dtype=np.uint32).astype(np.uint16)
    src1[::3] = src0[::3]  # equal bits (a NaN stays unequal)
    src1[1::7] = src0[1::7] ^ 0x8000  # +0 / -0 and sign flips
    ub = UnifiedBuffer()
    dst, a, b = (ub.alloc(half, padded) for _ in range(3))
    dst.write(np.zeros(padded, np.float16))
    a.write(src0.view(np.float16))
    b.write(src1.view(np.float16))
    select_vf.SelectVF(half, dst, a, b, count, lanes, uint16_t(padded // lanes))
    expected = dst.read(padded).view(np.uint16)
    run = build(tmp_path, "select_vf", select_vf.SelectVF, run=select_vf.main)
    stdin = "\n".join([f"{count} {padded}", *(f"{v:x}" for v in src0), *(f"{v:x}" for v in src1)])
    got = np.array([int(v, 16) for v in run(stdin)], dtype=np.uint16)
    assert np.array_equal(got, expected)
    assert (src0 == src1).sum() > 1000  # the equal branch ran as well as the other


def test_reg_shiftright_vf_runs_as_emitted(tmp_path: Path) -> None:
    rng = np.random.default_rng(28)
    count, lanes = 12_000 - 5, 128
    padded = -(-count // lanes) * lanes
    values = rng.integers(-(2**15), 2**15, count).astype(np.int16)
    counts = rng.integers(0, 18, count).astype(np.int16)
    ub = UnifiedBuffer()
    dst, src, shift = (ub.alloc(int16_t, padded) for _ in range(3))
    dst.write(np.full(padded, 0x5A5A, np.int16))
    src.write(np.concatenate([values, np.zeros(padded - count, np.int16)]))
    shift.write(np.concatenate([counts, np.zeros(padded - count, np.int16)]))
    shiftright_vf.ShiftRightVF(dst, src, shift, count)
    expected = dst.read(padded)
    run = build(tmp_path, "shiftright_vf", shiftright_vf.ShiftRightVF, run=shiftright_vf.main)
    got = np.array(
        run("\n".join([str(count), *map(str, values), *map(str, counts)])), dtype=np.int16
    )
    assert np.array_equal(got, expected)


def test_asc_shiftright_kernel_runs_as_emitted(tmp_path: Path) -> None:
    rng = np.random.default_rng(29)
    launches, n = 80, asc_shiftright.ELEMENT_COUNT  # 10240 elements
    inputs = rng.integers(0, 2**16, (launches, n)).astype(np.uint16)
    shifts = rng.integers(0, 20, (launches, n)).astype(np.int16)
    gm = GlobalMemory()
    out, src, shift = gm.alloc(uint16_t, n), gm.alloc(uint16_t, n), gm.alloc(int16_t, n)
    expected = []
    for launch in range(launches):
        src.write(inputs[launch])
        shift.write(shifts[launch])
        asc_shiftright.asc_shiftright_kernel[1, 0](out, src, shift)
        expected.append(out.read(n))
    run = build(
        tmp_path, "asc_shiftright", asc_shiftright.asc_shiftright_kernel, run=asc_shiftright.main
    )
    lines = [str(launches)]
    for launch in range(launches):
        lines += [*map(str, inputs[launch]), *map(str, shifts[launch])]
    got = np.array(run("\n".join(lines)), dtype=np.uint16).reshape(launches, n)
    assert np.array_equal(got, np.array(expected))


def test_byte_perm_kernel_runs_as_emitted(tmp_path: Path) -> None:
    rng = np.random.default_rng(30)
    blocks = 10  # 10240 threads
    n = blocks * 1024
    x, y, s = (rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32) for _ in range(3))
    gm = GlobalMemory()
    dst, gx, gy, gs = (gm.alloc(uint32_t, n) for _ in range(4))
    for ptr, values in zip((gx, gy, gs), (x, y, s), strict=True):
        ptr.write(values)
    byte_perm_simt.byte_perm_kernel[blocks, 0, None](dst, gx, gy, gs)
    expected = dst.read(n)
    run = build(
        tmp_path, "byte_perm_simt", byte_perm_simt.byte_perm_kernel, run=byte_perm_simt.main
    )
    stdin = "\n".join([str(blocks), *(f"{v:x}" for v in (*x, *y, *s))])
    got = np.array([int(v, 16) for v in run(stdin)], dtype=np.uint32)
    assert np.array_equal(got, expected)
