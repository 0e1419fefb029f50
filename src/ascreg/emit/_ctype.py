"""The C++ type of each value a kernel holds, as :func:`ascreg.emit.emit` spells it.

A recorded run (:mod:`ascreg.emit._record`) sees Python values; :func:`ctype_of` turns each into
a :class:`CType`: a register of a dtype, a ``__ubuf__``/``__gm__`` pointer, a scalar of a C type, a
reference, a class of the basic API, a user class. A Python ``int`` has no width: it is a
:data:`PY_INT` whose C type :func:`int_type` picks from the values it held in the run.

Examples
--------
>>> from ascreg import Reg, UnifiedBuffer, half
>>> ctype_of(Reg.RegTensor[half]()).spell({})
'AscendC::Reg::RegTensor<half>'
>>> ctype_of(UnifiedBuffer().alloc(half, 4)).spell({half: "T"})
'__ubuf__ T*'
>>> int_type(0, 1000), int_type(-1, 5), int_type(0, 2**40)
('uint32_t', 'int32_t', 'int64_t')
"""

from __future__ import annotations

import enum
from typing import Any

import attrs
import numpy as np

from ascreg._dtypes import ALL_SCALARS, Kind, Scalar

Subst = dict[type[Scalar], str]
"""A template-parameter substitution: the dtype a parameter stands for, and its name."""


@attrs.frozen
class CType:
    """One C++ type.

    Attributes
    ----------
    kind
        ``"scalar"`` (a C arithmetic type: ``dtype``, or ``name`` for ``bool``), ``"int"`` (a Python
        integer, width chosen from its values), ``"float"`` (a Python float: C ``float``),
        ``"reg"``, ``"mask"``, ``"ptr"``, ``"ref"`` (a ``Ref``: C++ reference to ``inner``),
        ``"typename"`` (a scalar type used as a template argument), ``"class"`` (a named C++
        class, ``args`` its template arguments), ``"none"``, ``"unsupported"`` (``name`` says what).
    name
        The C++ spelling for ``class``, C API registers and ``scalar`` types without a dtype.
    dtype
        The element type of a register or pointer, the type of a scalar.
    space
        ``"__ubuf__"`` or ``"__gm__"`` for a pointer.
    inner
        What a ``Ref`` holds.
    args
        The template arguments of a class: dtypes, integers or C++ spellings.
    pyclass
        The Python class of a user class instance.
    """

    kind: str
    name: str = ""
    dtype: Any = None  # a Scalar marker, or a SIMT vector type (half2) for a typename
    space: str = ""
    inner: CType | None = None
    args: tuple[Any, ...] = ()
    pyclass: type | None = attrs.field(default=None, eq=True, hash=True)

    def spell(self, subst: Subst, reg_ns: str = "AscendC::Reg::", ints: str = "") -> str:
        """Return the C++ spelling, with the dtypes in *subst* written as their template parameter.

        *ints* spells a Python ``int`` (the caller decides its width from the run).
        """
        if self.kind == "scalar":
            return self.name or dtype_name(self.dtype, subst)
        if self.kind == "int":
            return ints or "int32_t"
        if self.kind == "float":
            return "float"
        if self.kind == "reg":
            if self.name:
                return self.name
            trait = ", " + reg_ns + "RegTraitNumTwo" if self.args else ""
            return f"{reg_ns}RegTensor<{dtype_name(self.dtype, subst)}{trait}>"
        if self.kind == "mask":
            return self.name or f"{reg_ns}MaskReg"
        if self.kind == "ptr":
            return f"{self.space} {dtype_name(self.dtype, subst)}*"
        if self.kind == "ref":
            assert self.inner is not None
            return self.inner.spell(subst, reg_ns, ints) + "&"
        if self.kind == "class":
            if not self.args:
                return self.name
            return f"{self.name}<{', '.join(_argument(a, subst) for a in self.args)}>"
        raise ValueError(f"no C++ spelling for {self.describe()}")

    def describe(self) -> str:
        """Return a short English description (for error messages)."""
        if self.kind == "unsupported":
            return self.name
        if self.kind == "typename":
            return f"the type {dtype_name(self.dtype, {})}"
        if self.kind == "none":
            return "None"
        return self.spell({})

    @property
    def is_integer(self) -> bool:
        """A Python int or a C integer scalar."""
        if self.kind == "int":
            return True
        return self.kind == "scalar" and self.dtype is not None and self.dtype.kind in _INTS

    @property
    def is_unsigned(self) -> bool:
        """A C unsigned integer scalar."""
        return self.kind == "scalar" and self.dtype is not None and self.dtype.kind is Kind.UINT

    @property
    def is_float(self) -> bool:
        """A Python float or a C floating scalar."""
        if self.kind == "float":
            return True
        return self.kind == "scalar" and self.dtype is not None and self.dtype.kind is Kind.FLOAT


_INTS = (Kind.INT, Kind.UINT)
PY_INT = CType("int")
"""A Python ``int``."""
PY_FLOAT = CType("float")
"""A Python ``float``."""
BOOL = CType("scalar", name="bool")
"""C++ ``bool``."""


def dtype_name(dtype: type[Scalar] | None, subst: Subst) -> str:
    """Return the C++ name of *dtype*, or the template parameter standing for it."""
    if dtype is None:
        return "void"
    return subst.get(dtype) or dtype.cpp_name


def _argument(value: Any, subst: Subst) -> str:
    if isinstance(value, type) and issubclass(value, Scalar):
        return dtype_name(value, subst)
    return str(value)


def scalar(dtype: type[Scalar]) -> CType:
    """Return the scalar type *dtype*."""
    return CType("scalar", dtype=dtype)


INT_TYPES = ("uint32_t", "int32_t", "int64_t", "uint64_t")
"""The C types a Python ``int`` may get, narrowest first (see :func:`int_type`)."""


def int_type(low: int, high: int) -> str:
    """Return the C type of a Python ``int`` that held values in ``[low, high]`` during the run.

    The first of ``uint32_t``, ``int32_t``, ``int64_t``, ``uint64_t`` that holds them all: a
    count or an offset that was never negative is ``uint32_t``, as kernels write it.
    """
    if low >= 0 and high < 2**32:
        return "uint32_t"
    if low >= -(2**31) and high < 2**31:
        return "int32_t"
    if low >= -(2**63) and high < 2**63:
        return "int64_t"
    return "uint64_t"


_BY_NUMPY: dict[np.dtype[Any], type[Scalar]] = {}
for _s in ALL_SCALARS:  # the first marker of each numpy dtype: uint8 is uint8_t, not hifloat8_t
    _BY_NUMPY.setdefault(_s.np_dtype, _s)


def scalar_of_numpy(dtype: np.dtype[Any]) -> type[Scalar] | None:
    """Return the scalar marker whose values numpy holds as *dtype* (None: no C type)."""
    return _BY_NUMPY.get(np.dtype(dtype))


def int_range(value: Any) -> tuple[int, int] | None:
    """``(min, max)`` of an integer value (a Python or numpy int, or integer lanes), else None."""
    if isinstance(value, bool | np.bool_):
        return None
    if isinstance(value, int | np.integer):
        return int(value), int(value)
    if isinstance(value, np.ndarray) and value.dtype.kind in "iu" and value.size:
        return int(value.min()), int(value.max())
    if type(value).__name__ == "BuiltinIndex":
        number = int(value)
        return number, number
    return None


def ctype_of(value: Any) -> CType:
    """Return the C++ type of a value a kernel holds (``"unsupported"`` when C++ has none)."""
    kind = type(value)
    found = _CACHE.get(kind)
    if found is not None:
        return found
    if kind.__name__ in _BY_DTYPE or isinstance(value, np.generic):
        key = (kind, value.dtype)
        cached = _LANES.get(key)
        if cached is None:
            cached = _LANES[key] = _ctype_of(value)
        return cached
    made = _ctype_of(value)
    if kind in _CACHEABLE:
        _CACHE[kind] = made
    return made


_CACHE: dict[type, CType] = {}
_LANES: dict[tuple[type, Any], CType] = {}
_BY_DTYPE = frozenset(
    {"Lanes", "UbPtr", "GmPtr", "SimtGmPtr", "SimtUbPtr", "LanePointer", "BlockLocalPtr"}
)
"""Value classes whose C++ type depends on their class and dtype only (cached by both)."""
_CACHEABLE = {bool, int, float, type(None)}


def _ctype_of(value: Any) -> CType:
    from ascreg.machine.memory import Pointer
    from ascreg.machine.ref import Ref
    from ascreg.machine.registers import MaskReg, RegTensor, RegTraitNumTwo

    if value is None:
        return CType("none")
    if isinstance(value, enum.Enum):  # before int: an IntEnum member is an int
        from ascreg.emit._spell import enum_spelling

        return CType("class", name=enum_spelling(type(value)))
    if isinstance(value, bool | np.bool_):
        return BOOL
    if isinstance(value, int) or type(value).__name__ == "BuiltinIndex":
        return PY_INT
    if isinstance(value, float):
        return PY_FLOAT
    if isinstance(value, np.generic | np.ndarray) and value.dtype.kind in "iufb":
        if isinstance(value, np.ndarray) and type(value).__name__ != "Lanes":
            return CType("unsupported", name="a numpy array")
        found = scalar_of_numpy(value.dtype)
        return scalar(found) if found else CType("unsupported", name=f"numpy {value.dtype}")
    if isinstance(value, type) and (issubclass(value, Scalar) or hasattr(value, "cpp_name")):
        return CType("typename", dtype=value)  # a scalar type, or a SIMT vector type (half2)
    if isinstance(value, RegTensor):
        if type(value).__module__ == "ascreg.c_api._types":
            return CType("reg", name=type(value).__name__, dtype=value.dtype)
        trait = (RegTraitNumTwo,) if value.trait is RegTraitNumTwo else ()
        return CType("reg", dtype=value.dtype, args=trait)
    if isinstance(value, MaskReg):
        c_api = type(value).__module__ == "ascreg.c_api._types"
        return CType("mask", name="vector_bool" if c_api else "")
    if type(value).__name__ == "BlockLocalPtr":  # a UB pointer of SIMT blocks run side by side
        return CType("ptr", dtype=value.dtype, space="__ubuf__")
    if isinstance(value, Pointer) or type(value).__name__ == "LanePointer":
        base = getattr(value, "base", value)
        return CType("ptr", dtype=value.dtype, space=base.space)
    if isinstance(value, Ref):
        return CType("ref", inner=ctype_of(value.value))
    return _class_type(value)


def _class_type(value: Any) -> CType:
    """Return a class instance: an API class (by its module) or a user class."""
    kind = type(value)
    module = kind.__module__
    base = next((k for k in kind.__mro__ if k.__name__ in API_CLASSES), None)
    if base is not None and module.startswith("ascreg."):
        spelled = API_CLASSES[base.__name__]
        if base.__name__ == "TQueBind" and value._src is value._dst:
            spelled = "AscendC::TQue"
        return CType("class", name=spelled, args=tuple(_class_args(value, base.__name__)))
    if module.startswith("ascreg.") and not module.startswith("ascreg.examples"):
        return CType("unsupported", name=f"an ascreg {kind.__name__}")
    if callable(value) or kind.__module__ in ("builtins", "numpy"):
        return CType("unsupported", name=f"a Python {kind.__name__}")
    return CType("class", name=kind.__name__, pyclass=kind)


API_CLASSES = {
    "AddrReg": "AscendC::Reg::AddrReg",
    "addr_reg": "addr_reg",
    "UnalignRegForLoad": "AscendC::Reg::UnalignRegForLoad",
    "UnalignRegForStore": "AscendC::Reg::UnalignRegForStore",
    "vector_load_unalign": "vector_load_unalign",
    "vector_store_unalign": "vector_store_unalign",
    "dim3": "dim3",
    "CastTrait": "AscendC::Reg::CastTrait",
    "DivSpecificMode": "AscendC::Reg::DivSpecificMode",
    "SqrtSpecificMode": "AscendC::Reg::SqrtSpecificMode",
    "ExpSpecificMode": "AscendC::Reg::ExpSpecificMode",
    "GlobalTensor": "AscendC::GlobalTensor",
    "LocalTensor": "AscendC::LocalTensor",
    "TPipe": "AscendC::TPipe",
    "TQue": "AscendC::TQue",
    "TQueBind": "AscendC::TQueBind",
    "TBufHandle": "AscendC::TBuf",
    "LocalMemAllocator": "AscendC::LocalMemAllocator",
    "DataCopyParams": "AscendC::DataCopyParams",
    "DataCopyExtParams": "AscendC::DataCopyExtParams",
    "DataCopyPadExtParams": "AscendC::DataCopyPadExtParams",
    "asc_store_atomic_config": "asc_store_atomic_config",
    "asc_ndim_pad_count_config": "asc_ndim_pad_count_config",
    "asc_fill_value_config": "asc_fill_value_config",
    "asc_l13d_fmatrix_config": "asc_l13d_fmatrix_config",
    "asc_load3d_v2_config": "asc_load3d_v2_config",
}
"""The C++ spelling of each ascreg class whose instances a kernel may hold, by class name."""
MODE_STRUCTS = frozenset({"CastTrait", "DivSpecificMode", "SqrtSpecificMode", "ExpSpecificMode"})
"""The mode structs: ``static constexpr`` values passed as template arguments."""


def _class_args(value: Any, name: str) -> list[Any]:
    """Return the template arguments of an API class instance (its dtype, queue position and depth)."""
    if name in ("GlobalTensor", "LocalTensor", "DataCopyPadExtParams"):
        return [value.dtype] if getattr(value, "dtype", None) is not None else []
    if name == "LocalMemAllocator":
        return [f"AscendC::Hardware::{value.hard.name}"]
    if name == "TQue":  # TQue<VECIN, d> is TQueBind<GM, VECIN, d>: its one position
        return [f"AscendC::TPosition::{value._position.name}", int(value._depth)]
    if name == "TQueBind":
        src, dst, depth = value._src, value._dst, value._depth
        positions = [src] if src is dst else [src, dst]
        return [*(f"AscendC::TPosition::{p.name}" for p in positions), int(depth)]
    if name == "TBufHandle":
        return [f"AscendC::TPosition::{value._position.name}"]
    return []
