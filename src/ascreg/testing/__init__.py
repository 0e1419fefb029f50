"""Helpers for testing kernels: lane-by-lane comparisons, strategies, a pytest plugin.

* :func:`assert_lanes_equal` compares registers, masks, buffers or tensors with a golden and
  prints a lane-by-lane diff (the first differing lanes, their bits and ulp distance);
* :func:`assert_ulp_close` checks float lanes within a tolerance: ascreg computes Div, Sqrt,
  Exp and the logarithms correctly rounded, the chip's intrinsics are documented to be within
  1 ulp;
* :mod:`ascreg.testing.strategies`: hypothesis strategies for kernel inputs;
* :mod:`ascreg.testing.pytest_plugin`: fixtures and the ``ascreg_executions`` marker, loaded
  by pytest when ascreg is installed.

Examples
--------
>>> import numpy as np
>>> from ascreg.testing import assert_ulp_close
>>> assert_ulp_close(np.float32([1.0, 2.0]), np.float32([1.0000001, 2.0]), ulp=1)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import is_scalar_type
from ascreg.machine.memory import Pointer
from ascreg.machine.registers import MaskReg, RegTensor
from ascreg.machine.tensors import host_array, is_host_tensor

__all__ = ["assert_lanes_equal", "assert_ulp_close"]


def _ordered(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Map float bit patterns onto integers that count ulps (-0 and +0 both map to 0)."""
    bits = values.view(f"i{values.dtype.itemsize}").astype(np.int64)
    sign = np.int64(1) << (8 * values.dtype.itemsize - 1)
    ordered: np.ndarray[Any, Any] = np.where(bits < 0, -(bits & (sign - 1)), bits)
    return ordered


def assert_ulp_close(actual: Any, desired: Any, ulp: int = 1, *, dtype: Any = None) -> None:
    """Assert that *actual* and *desired* differ by at most *ulp* units in the last place.

    Both are array-likes of one float type (half, bfloat16, float32, float64; or pass *dtype*,
    a numpy dtype or an ascreg scalar type such as ``half``, to convert them). Lanes are
    compared as positions on the float line: neighbours differ by one, ``+0`` and ``-0`` are
    equal, the largest finite value and infinity are one apart. A NaN matches only a NaN
    (any payload). Integer arrays must be equal.

    Raises
    ------
    AssertionError
        Naming the first lanes that differ by more, with both values and the distance.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import half
    >>> from ascreg.testing import assert_ulp_close
    >>> assert_ulp_close([0.1, np.nan, -0.0], [0.1, np.nan, 0.0], dtype=half)
    >>> assert_ulp_close(np.float32([1.0]), np.float32([1.0000002]), ulp=1)
    Traceback (most recent call last):
    ...
    AssertionError: 1 of 1 lanes differ by more than 1 ulp; lane 0: 1.0 vs 1.0000002 (2 ulp)
    """
    if dtype is not None:
        dtype = dtype.np_dtype if is_scalar_type(dtype) else np.dtype(dtype)
    a = np.asarray(actual, dtype=dtype)
    d = np.asarray(desired, dtype=dtype)
    if a.shape != d.shape or a.dtype != d.dtype:
        raise AssertionError(f"shape/dtype differ: {a.shape} {a.dtype} vs {d.shape} {d.dtype}")
    if a.dtype.kind in "iub":
        distance = np.abs(a.astype(object) - d.astype(object)).astype(np.float64)
        bad = distance > 0
    else:
        nan_a, nan_d = np.isnan(a), np.isnan(d)
        distance = np.abs(_ordered(a) - _ordered(d)).astype(np.float64)
        distance = np.where(nan_a | nan_d, np.where(nan_a & nan_d, 0, np.inf), distance)
        bad = distance > ulp
    if bad.any():
        first = int(np.flatnonzero(bad.ravel())[0])
        lane = np.unravel_index(first, a.shape) if a.ndim > 1 else first
        gap = distance.ravel()[first]
        raise AssertionError(
            f"{int(bad.sum())} of {a.size} lanes differ by more than {ulp} ulp; lane {lane}: "
            f"{a.ravel()[first]!s} vs {d.ravel()[first]!s} "
            f"({'NaN vs number' if np.isinf(gap) else f'{int(gap)} ulp'})"
        )


def _lanes(value: Any, count: int | None) -> np.ndarray[Any, Any]:
    """Return the lanes of a register, the bits of a mask, *count* elements at a pointer, a tensor."""
    if isinstance(value, RegTensor | MaskReg):
        return np.asarray(value)
    if isinstance(value, Pointer):
        if count is None:
            raise TypeError("compare a pointer with an array-like golden (its size is the count)")
        return value.read(count)
    if is_host_tensor(value):
        return np.array(host_array(value, call="assert_lanes_equal")).reshape(-1)
    return np.asarray(value).reshape(-1)


def _hex(bits: Any, width: int) -> str:
    return f"0x{int(bits):0{2 * width}x}"


def assert_lanes_equal(
    actual: Any, desired: Any, *, ulp: int = 0, show: int = 8, name: str = "lanes"
) -> None:
    """Assert that *actual* holds *desired* lane by lane; on failure print a lane diff.

    Either side is a register (``RegTensor``), a mask (``MaskReg``: its 256 bits), a host
    tensor (numpy, torch, DLPack) or any array-like; *actual* may also be a pointer, read for
    as many elements as *desired* has. *desired* is converted to *actual*'s element type
    (numpy rounding: a float64 golden rounds to nearest even). Lanes must match bit for bit,
    except that a NaN matches any NaN and, with *ulp* > 0, float lanes may be that many
    units in the last place apart (``+0`` and ``-0`` are then 0 apart).

    Raises
    ------
    AssertionError
        Listing the first *show* differing lanes with both values, their bit patterns and
        (floats) their ulp distance.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, half
    >>> reg = Reg.RegTensor[half](); reg.set(np.arange(128) / 4)
    >>> assert_lanes_equal(reg, np.arange(128) / 4)
    >>> golden = np.arange(128) / 4; golden[[3, 70]] = [0.7, -1]
    >>> assert_lanes_equal(reg, golden, name="reg")
    Traceback (most recent call last):
    ...
    AssertionError: reg: 2 of 128 lanes differ (half, bit-exact)
      lane  actual  desired  actual bits  desired bits    ulp
         3    0.75      0.7       0x3a00        0x399a    102
        70    17.5     -1.0       0x4c60        0xbc00  34912
    """
    want = _lanes(desired, None)
    got = _lanes(actual, want.size)
    if got.shape != want.shape:
        raise AssertionError(f"{name}: {got.size} lanes vs {want.size} expected")
    if want.dtype != got.dtype:
        with np.errstate(all="ignore"):
            want = want.astype(got.dtype)
    width = got.dtype.itemsize
    unsigned = f"u{width}"
    gbits, wbits = got.view(unsigned), want.view(unsigned)
    distance: np.ndarray[Any, Any] | None = None
    if got.dtype.kind in "iub":
        bad = gbits != wbits
    else:
        nan_g, nan_w = np.isnan(got), np.isnan(want)
        distance = np.abs(_ordered(got) - _ordered(want))
        bad = ((gbits != wbits) if ulp == 0 else (distance > ulp)) & ~(nan_g & nan_w)
        bad |= nan_g != nan_w
    if not bad.any():
        return
    type_name = getattr(actual, "dtype", None)
    label = getattr(type_name, "cpp_name", None) or str(got.dtype)
    rule = "bit-exact" if ulp == 0 else f"within {ulp} ulp"
    rows: list[tuple[str, ...]] = [("lane", "actual", "desired", "actual bits", "desired bits")]
    rows[0] += ("ulp",) if distance is not None else ()
    first = np.flatnonzero(bad)
    for lane in first[:show]:
        row: tuple[str, ...] = (str(lane), str(got[lane]), str(want[lane]), _hex(gbits[lane], width),
               _hex(wbits[lane], width))  # fmt: skip
        if distance is not None:
            nan = bool(np.isnan(got[lane]) or np.isnan(want[lane]))
            row += ("NaN" if nan else str(int(distance[lane])),)
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  " + "  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    more = f"\n  ... and {first.size - show} more" if first.size > show else ""
    raise AssertionError(
        f"{name}: {first.size} of {got.size} lanes differ ({label}, {rule})\n"
        + "\n".join(lines)
        + more
    )
