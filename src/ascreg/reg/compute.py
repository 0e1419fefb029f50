"""Compute ops: compare, select, shifts, element-wise arithmetic and logic, duplicate, move.

Every op writes its destination in place, as the C++ ``dst`` reference parameter does, checks
its dtypes against the op's row in ``_spec.py`` and applies its mask rule: masked-off lanes of
the destination become 0 (ZEROING) except for ``Select`` (the mask *is* the selector) and
``Move`` (MERGING).

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, uint16_t, int16_t
>>> src, shift, dst = Reg.RegTensor[uint16_t](), Reg.RegTensor[int16_t](), Reg.RegTensor[uint16_t]()
>>> src.set(np.arange(128)); shift.set(1)
>>> Reg.ShiftRight(dst, src, shift, Reg.CreateMask[uint16_t]())
>>> np.asarray(dst)[:5]
array([0, 0, 1, 1, 2], dtype=uint16)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

import numpy as np

from ascreg._dtypes import Kind, int16_t
from ascreg.core import compare as cmp
from ascreg.core import masks as mask_core
from ascreg.core import shifts
from ascreg.enums import CMPMODE, MaskMergeMode
from ascreg.errors import AscregTypeError
from ascreg.machine.memory import to_dtype
from ascreg.machine.registers import MaskReg, RegTensor
from ascreg.reg._template import Template, TemplateArgs, active_lanes, as_mask, as_reg, same_type

Lanes = np.ndarray[Any, Any]


class _Compare(Template):
    """``Compare<T, CMPMODE mode = EQ>(MaskReg& dst, U& src0, U& src1, MaskReg& mask)``.

    ``dst`` lane i is 1 when the mask selects lane i and ``src0[i] <mode> src1[i]`` holds;
    masked-off lanes are 0. Floats follow IEEE 754: a NaN makes every mode false except NE,
    and +0 == -0.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, CMPMODE, float32_t
    >>> a, b = Reg.RegTensor[float32_t](), Reg.RegTensor[float32_t]()
    >>> a.set(np.float32(np.nan)); b.set(np.float32(np.nan))
    >>> out = Reg.MaskReg()
    >>> Reg.Compare[float32_t, CMPMODE.NE](out, a, b, Reg.CreateMask[float32_t]())
    >>> out.count()
    64
    """

    name = "Reg.Compare"
    enum_kinds = (CMPMODE,)

    def __call__(self, dst: MaskReg, src0: Any, src1: Any, mask: MaskReg) -> None:
        _ascreg_call = self.name
        a = self.operands(src0, src1)
        self._finish(dst, a, src1.get(), mask)

    def _finish(self, dst: MaskReg, a: RegTensor[Any, Any], b: Any, mask: MaskReg) -> None:
        as_mask(dst, "dst")
        active = active_lanes(as_mask(mask, "mask"), a)
        predicate = cmp.compare(self.mode, a.get(), b)
        dst.set_bits(mask_core.predicate_bits(predicate, active, a.mask_stride))

    def _setup(self) -> None:
        self.mode = self.t.enum(CMPMODE, CMPMODE.EQ).name


class _Compares(_Compare):
    """``Compares<T, CMPMODE mode = EQ>(MaskReg& dst, U& src, T scalar, MaskReg& mask)``.

    :class:`Compare` against one scalar (converted to ``T``; a value that does not fit is an
    error rather than a silent wrap).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, CMPMODE, int32_t
    >>> a = Reg.RegTensor[int32_t](); a.set(np.arange(64) - 32)
    >>> out = Reg.MaskReg()
    >>> Reg.Compares[int32_t, CMPMODE.LT](out, a, 0, Reg.CreateMask[int32_t]())
    >>> print(out)
    MaskReg(b32: lanes 0-31 on, 32 of 64)
    """

    name = "Reg.Compares"

    def __call__(self, dst: MaskReg, src0: Any, scalar: Any, mask: MaskReg) -> None:
        _ascreg_call = self.name
        a = self.operands(src0)
        self._finish(dst, a, to_dtype(scalar, a.dtype), mask)


class _Select(Template):
    """``Select(U& dst, U& src0, U& src1, MaskReg& mask)``: ``dst[i] = mask[i] ? src0[i] : src1[i]``.

    Every lane is written (nothing is zeroed) and the copy is bit-exact, NaN payloads
    included. With MaskReg operands it is the bitwise ``(sel & src0) | (~sel & src1)``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, MaskPattern, half
    >>> a, b, d = Reg.RegTensor[half](), Reg.RegTensor[half](), Reg.RegTensor[half]()
    >>> a.set(np.float16(1)); b.set(np.float16(2))
    >>> Reg.Select(d, a, b, Reg.CreateMask[half, MaskPattern.VL1]())
    >>> np.asarray(d)[:3]
    array([1., 2., 2.], dtype=float16)
    """

    name = "Reg.Select"

    def __call__(self, dst: Any, src0: Any, src1: Any, mask: MaskReg) -> None:
        _ascreg_call = self.name
        selector = as_mask(mask, "mask")
        if isinstance(dst, MaskReg):
            bits = mask_core.mask_select(
                as_mask(src0, "src0").bits(), as_mask(src1, "src1").bits(), selector.bits()
            )
            dst.set_bits(bits)
            return
        d = self.operands(dst, src0, src1)
        d.put(cmp.select(active_lanes(selector, d), src0.get(), src1.get()))


class _Shift(Template):
    """Shared body of the four shifts (vector or scalar count, left or right)."""

    enum_kinds = (MaskMergeMode,)
    max_dtypes = 2
    left: bool = False
    scalar: bool = False

    def __call__(self, dst: Any, src: Any, count: Any, mask: MaskReg) -> None:
        _ascreg_call = self.name
        d = self.operands(dst, src)
        s: RegTensor[Any, Any] = src
        dtype = d.dtype
        if self.merge is not MaskMergeMode.ZEROING:
            raise AscregTypeError("shifts support MaskMergeMode.ZEROING only on dav-3510")
        counts = self._counts(dtype, count)
        active = active_lanes(as_mask(mask, "mask"), d)
        d.put(shifts.zeroing_shift(s.get(), counts, active, left=self.left))

    def _setup(self) -> None:
        self.merge = self.t.enum(MaskMergeMode, MaskMergeMode.ZEROING)

    def _counts(self, dtype: Any, count: Any) -> Lanes:
        assert self.spec is not None
        if self.scalar:
            if isinstance(count, RegTensor):
                raise AscregTypeError(f"{self.name} takes a scalar int16_t count, not a register")
            self.spec.check(dtype, int16_t)
            return to_dtype(count, int16_t)
        c = as_reg(count, "src1 (shift counts)")
        self.spec.check(dtype, c.dtype)
        counts = c.get()
        if counts.dtype.itemsize == 8:  # b64: only the low 32 bits, as int32 (spec §6.2)
            return counts.view(np.int32)[0::2]
        return counts


class _ShiftRight(_Shift):
    """``ShiftRight(S& dst, S& src0, V& src1, MaskReg& mask)``: per-lane counts from ``src1``.

    Logical for unsigned, arithmetic for signed lanes; counts at or above the width give 0
    (-1 for a negative signed value); masked-off lanes 0; negative counts are an error.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int16_t
    >>> s, c, d = Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t]()
    >>> s.set(np.int16(-21846)); c.set(np.int16(3))
    >>> Reg.ShiftRight(d, s, c, Reg.CreateMask[int16_t]())
    >>> hex(int(np.asarray(d)[0].view(np.uint16)))
    '0xf555'
    """

    name = "Reg.ShiftRight"


class _ShiftLeft(_Shift):
    """``ShiftLeft(S& dst, S& src0, V& src1, MaskReg& mask)``: per-lane counts from ``src1``.

    Logical for unsigned lanes; for signed lanes the sign bit is kept and the bit below it
    dropped (int16 0xAAAA << 1 = 0xD554); counts at or above the width give 0.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int16_t
    >>> s, c, d = Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t]()
    >>> s.set(np.int16(-21846)); c.set(np.int16(1))
    >>> Reg.ShiftLeft(d, s, c, Reg.CreateMask[int16_t]())
    >>> hex(int(np.asarray(d)[0].view(np.uint16)))
    '0xd554'
    """

    name = "Reg.ShiftLeft"
    left = True


class _ShiftRights(_Shift):
    """``ShiftRights(S& dst, S& src, int16_t scalar, MaskReg& mask)``: one count for all lanes.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, uint8_t
    >>> s, d = Reg.RegTensor[uint8_t](), Reg.RegTensor[uint8_t](); s.set(np.uint8(200))
    >>> Reg.ShiftRights(d, s, 3, Reg.CreateMask[uint8_t]())
    >>> int(np.asarray(d)[0])
    25
    """

    name = "Reg.ShiftRights"
    scalar = True


class _ShiftLefts(_Shift):
    """``ShiftLefts(S& dst, S& src, int16_t scalar, MaskReg& mask)``: one count for all lanes.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, uint32_t
    >>> s, d = Reg.RegTensor[uint32_t](), Reg.RegTensor[uint32_t](); s.set(np.uint32(3))
    >>> Reg.ShiftLefts(d, s, 31, Reg.CreateMask[uint32_t]())
    >>> int(np.asarray(d)[0])
    2147483648
    """

    name = "Reg.ShiftLefts"
    left = True
    scalar = True


def _float_minmax(
    pick: Callable[[Lanes, Lanes], Lanes], sign_merge: Callable[[Any, Any], Any]
) -> Callable[[Lanes, Lanes], Lanes]:
    """Max/Min with IEEE NaN propagation and the spec's signed-zero rule."""

    def op(a: Lanes, b: Lanes) -> Lanes:
        with np.errstate(all="ignore"):  # NaN operands are data here, not numpy warnings
            result = pick(a, b)
            if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
                both_zero = (a == 0) & (b == 0)
                if both_zero.any():
                    bits = a.view(f"u{a.itemsize}")
                    merged = sign_merge(bits, b.view(f"u{a.itemsize}")).view(a.dtype)
                    result = np.where(both_zero, merged, result)
        return result

    return op


def _widened(op: Callable[[Lanes, Lanes], Lanes]) -> Callable[[Lanes, Lanes], Lanes]:
    """Compute bfloat16 in float32 and round to nearest even, as the hardware does."""

    def run(a: Lanes, b: Lanes) -> Lanes:
        with np.errstate(all="ignore"):  # IEEE overflow/NaN results are data, not warnings
            if a.dtype.name == "bfloat16":
                return op(a.astype(np.float32), b.astype(np.float32)).astype(a.dtype)
            return op(a, b)

    return run


BINARY_OPS: dict[str, Callable[[Lanes, Lanes], Lanes]] = {
    "Add": _widened(np.add),
    "Sub": _widened(np.subtract),
    "Mul": _widened(np.multiply),
    "Max": _float_minmax(np.maximum, np.bitwise_and),
    "Min": _float_minmax(np.minimum, np.bitwise_or),
    "And": np.bitwise_and,
    "Or": np.bitwise_or,
    "Xor": np.bitwise_xor,
}
"""Lane formula of each element-wise binary op (integers wrap; floats are IEEE)."""


class _Binary(Template):
    """Element-wise ``Op(U& dst, U& src0, U& src1, MaskReg& mask)``; masked-off lanes 0.

    ``And``/``Or``/``Xor`` with MaskReg operands are the bitwise mask ops, whose unselected
    bits are 0.
    """

    enum_kinds = (MaskMergeMode,)

    def __init__(self, name: str = "", doc: str = "", targs: Any = None) -> None:
        self.name = name  # type: ignore[misc]
        self.formula = BINARY_OPS[name.removeprefix("Reg.")] if name else None
        self.__doc__ = doc
        super().__init__(*(() if targs is None else (targs,)))

    def _derive(self, targs: TemplateArgs) -> Self:
        return type(self)(self.name, self.__doc__ or "", targs)

    def __call__(self, dst: Any, src0: Any, src1: Any, mask: MaskReg) -> None:
        _ascreg_call = self.name
        if isinstance(dst, MaskReg):
            op = self.name.removeprefix("Reg.")
            if op not in mask_core.MASK_LOGIC:
                raise AscregTypeError(f"{self.name} has no MaskReg form")
            dst.set_bits(
                mask_core.mask_logic(
                    op,
                    as_mask(src0, "src0").bits(),
                    as_mask(src1, "src1").bits(),
                    as_mask(mask, "mask").bits(),
                )
            )
            return
        d, a, b = as_reg(dst, "dst"), as_reg(src0, "src0"), as_reg(src1, "src1")
        same_type(d, a, b)
        assert self.spec is not None and self.formula is not None
        self.spec.check(self.template_dtype(d))
        merge = self.t.enum(MaskMergeMode, MaskMergeMode.ZEROING)
        active = active_lanes(as_mask(mask, "mask"), d)
        result = self.formula(a.get(), b.get())
        if merge is MaskMergeMode.MERGING and self.name in ("Reg.Add", "Reg.Max", "Reg.Min"):
            d.put(cmp.select(active, result, d.get()))
        elif merge is MaskMergeMode.ZEROING:
            d.put(cmp.zero_masked(result, active))
        else:
            raise AscregTypeError(f"{self.name} does not support MaskMergeMode.{merge.name}")


def _binary(name: str, summary: str) -> _Binary:
    doc = f"""``{name}(U& dst, U& src0, U& src1, MaskReg& mask)``: {summary}

    Masked-off lanes become 0 (``Add``, ``Max``, ``Min`` also accept
    ``MaskMergeMode.MERGING``). Integer results wrap; float results are IEEE 754 (bfloat16 is
    computed in float32 and rounded to nearest even).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, int16_t
    >>> a, b, d = Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t](), Reg.RegTensor[int16_t]()
    >>> a.set(np.int16(12)); b.set(np.int16(10))
    >>> Reg.{name}(d, a, b, Reg.CreateMask[int16_t]())
    >>> int(np.asarray(d)[0]) == int(BINARY_OPS["{name}"](np.int16([12]), np.int16([10]))[0])
    True
    """
    return _Binary(f"Reg.{name}", doc)


Add = _binary("Add", "lane-wise sum.")
Sub = _binary("Sub", "lane-wise difference.")
Mul = _binary("Mul", "lane-wise product (low bits for integers).")
Max = _binary("Max", "lane-wise maximum (NaN propagates; max(-0, +0) = +0).")
Min = _binary("Min", "lane-wise minimum (NaN propagates; min(-0, +0) = -0).")
And = _binary("And", "bitwise AND.")
Or = _binary("Or", "bitwise OR.")
Xor = _binary("Xor", "bitwise XOR.")


class _Not(Template):
    """``Not(U& dst, U& src, MaskReg& mask)``: bitwise NOT; masked-off lanes (bits) are 0.

    Examples
    --------
    >>> from ascreg import Reg, MaskPattern, uint8_t
    >>> out = Reg.MaskReg()
    >>> Reg.Not(out, Reg.CreateMask[uint8_t, MaskPattern.ALLF](), Reg.CreateMask[uint8_t, MaskPattern.VL8]())
    >>> out.count()
    8
    """

    name = "Reg.Not"

    def __call__(self, dst: Any, src: Any, mask: MaskReg) -> None:
        _ascreg_call = self.name
        if isinstance(dst, MaskReg):
            dst.set_bits(
                mask_core.mask_logic(
                    "Not", as_mask(src, "src").bits(), None, as_mask(mask, "mask").bits()
                )
            )
            return
        d, s = as_reg(dst, "dst"), as_reg(src, "src")
        same_type(d, s)
        assert self.spec is not None
        self.spec.check(self.template_dtype(d))
        bits = s.get().view(f"u{d.dtype.size}")
        d.put(
            cmp.zero_masked(
                np.invert(bits).view(d.dtype.np_dtype), active_lanes(as_mask(mask, "mask"), d)
            )
        )


class _Move(Template):
    """``Move(dst, src[, mask])`` on registers (MERGING) or masks (unselected bits 0).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, MaskPattern, int32_t
    >>> s, d = Reg.RegTensor[int32_t](), Reg.RegTensor[int32_t](); s.set(1); d.set(2)
    >>> Reg.Move(d, s, Reg.CreateMask[int32_t, MaskPattern.VL1]())
    >>> np.asarray(d)[:3]
    array([1, 2, 2], dtype=int32)
    """

    name = "Reg.Move"
    enum_kinds = (MaskMergeMode,)

    def __call__(self, dst: Any, src: Any, mask: MaskReg | None = None) -> None:
        _ascreg_call = self.name
        if isinstance(dst, MaskReg):
            predicate = None if mask is None else as_mask(mask, "mask").bits()
            dst.set_bits(mask_core.mask_move(as_mask(src, "src").bits(), predicate))
            return
        d, s = as_reg(dst, "dst"), as_reg(src, "src")
        same_type(d, s)
        assert self.spec is not None
        self.spec.check(self.template_dtype(d))
        if self.t.enum(MaskMergeMode, MaskMergeMode.MERGING) is not MaskMergeMode.MERGING:
            raise AscregTypeError("Move supports MaskMergeMode.MERGING only")
        if mask is None:
            d.put(s.get().copy())
        else:
            d.put(cmp.select(active_lanes(as_mask(mask, "mask"), d), s.get(), d.get()))


class _Duplicate(Template):
    """``Duplicate(dst, scalar[, mask])``: broadcast a scalar; masked-off lanes 0.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, MaskPattern, half
    >>> d = Reg.RegTensor[half]()
    >>> Reg.Duplicate(d, 1.5, Reg.CreateMask[half, MaskPattern.VL2]())
    >>> np.asarray(d)[:3]
    array([1.5, 1.5, 0. ], dtype=float16)
    """

    name = "Reg.Duplicate"
    enum_kinds = (MaskMergeMode,)

    def __call__(self, dst: Any, scalar: Any, mask: MaskReg | None = None) -> None:
        _ascreg_call = self.name
        d = as_reg(dst, "dst")
        assert self.spec is not None
        self.spec.check(self.template_dtype(d))
        if d.dtype.kind is Kind.RAW:
            raise AscregTypeError(
                f"Duplicate of raw-bit type {d.dtype.cpp_name} is not emulated yet"
            )
        value = np.full(d.lanes, to_dtype(scalar, d.dtype), dtype=d.dtype.np_dtype)
        if mask is None:
            d.put(value)
            return
        active = active_lanes(as_mask(mask, "mask"), d)
        if self.t.enum(MaskMergeMode, MaskMergeMode.ZEROING) is MaskMergeMode.MERGING:
            d.put(cmp.select(active, value, d.get()))
        else:
            d.put(cmp.zero_masked(value, active))


Compare = _Compare()
Compares = _Compares()
Select = _Select()
ShiftRight = _ShiftRight()
ShiftLeft = _ShiftLeft()
ShiftRights = _ShiftRights()
ShiftLefts = _ShiftLefts()
Not = _Not()
Move = _Move()
Duplicate = _Duplicate()
