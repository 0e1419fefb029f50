"""From prototype to kernel: the Ascend C source of a Python kernel.

``ascreg.emit(fn, run=...)`` writes the Ascend C++ of a ``__simd_vf__``, ``__simt_vf__`` or
``__global__`` function and of every function, class and constant it uses, in the spelling of
the surface the Python used (``AscendC::Reg::`` for ``Reg.``, the C API's global names, the SIMT
builtins, the basic API's ``AscendC::`` classes). The C++ types of parameters and locals come
from a recorded run: *run* is a function that runs the kernel (an example's ``main``), or a
:class:`Recording` made with :func:`record`. Python that C++ cannot express raises
:class:`EmitError` naming the line.

The output compiles against ``ascreg_decl.h``, the declarations header generated from the same
table as the typing stubs (:func:`header_path`)::

    g++ -std=c++17 -fsyntax-only -include $(python -m ascreg.emit --header-path) kernel.asc

``python -m ascreg.emit module:function [-o file.asc]`` does the same from the command line.

Examples
--------
>>> import ascreg
>>> from ascreg.examples import shiftright_vf
>>> print(ascreg.emit(shiftright_vf.ShiftRightVF, run=shiftright_vf.main))  # doctest: +ELLIPSIS
[Success] Reg.ShiftRight VF ...
__simd_vf__ inline void ShiftRightVF(__ubuf__ int16_t* dstAddr, ...)
{
    constexpr uint32_t oneRepeatSize = AscendC::GetVecLen() / sizeof(int16_t);
...
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ascreg.emit._record import Recording, record
from ascreg.emit._translate import EmitError, Program, emit_program

__all__ = ["EmitError", "Recording", "emit", "header_path", "kernels_of", "record"]

HEADER = "ascreg_decl.h"
"""The file name of the declarations header inside the package (``ascreg/include/``)."""


def header_path() -> Path:
    """Return the path of ``ascreg_decl.h``, the C++ declarations the emitted code compiles against.

    Examples
    --------
    >>> header_path().name
    'ascreg_decl.h'
    >>> header_path().is_file()
    True
    """
    return Path(__file__).resolve().parent.parent / "include" / HEADER


def emit(
    *functions: Callable[..., Any],
    run: Callable[[], Any] | Recording | None = None,
) -> str:
    """Return the Ascend C source of *functions* (kernels, VFs) and everything they use.

    Parameters
    ----------
    functions
        One or more ``__global__``, ``__simd_vf__`` or ``__simt_vf__`` functions (or any
        function they call); each is emitted after what it uses.
    run
        What shows the C++ types: a function of no arguments that runs the kernel (it is
        called once, traced), or a :class:`Recording`. Without it only what the source spells
        (annotated pointers, constructed registers) is typed and anything else is an error.

    Raises
    ------
    EmitError
        For Python that Ascend C cannot express, naming the line.

    Examples
    --------
    >>> from ascreg.examples import byte_perm_simt
    >>> text = emit(byte_perm_simt.byte_perm_kernel, run=lambda: byte_perm_simt.main())
    [Success] __byte_perm SIMT VF (1024 threads, random x/y/s) matches numpy.
    >>> print(text)  # doctest: +NORMALIZE_WHITESPACE
    __simt_vf__ __launch_bounds__(1024) inline void KernelByte_perm(__gm__ uint32_t* dst,
        __gm__ uint32_t* x, __gm__ uint32_t* y, __gm__ uint32_t* s)
    {
        int32_t idx = threadIdx.x + blockIdx.x * blockDim.x;
        dst[idx] = __byte_perm(x[idx], y[idx], s[idx]);
    }
    <BLANKLINE>
    __global__ __vector__ void byte_perm_kernel(__gm__ uint32_t* dst, __gm__ uint32_t* x,
        __gm__ uint32_t* y, __gm__ uint32_t* s)
    {
        asc_vf_call<KernelByte_perm>(dim3(1024), dst, x, y, s);
    }
    """
    return program(*functions, run=run).text()


def program(
    *functions: Callable[..., Any], run: Callable[[], Any] | Recording | None = None
) -> Program:
    """Like :func:`emit`, but return the :class:`~ascreg.emit._translate.Program` (its parts)."""
    if not functions:
        raise EmitError("give ascreg.emit at least one function", call="ascreg.emit")
    recording = run if isinstance(run, Recording) or run is None else _run(functions, run)
    return emit_program(list(functions), recording)


def _run(functions: tuple[Callable[..., Any], ...], run: Callable[[], Any]) -> Recording:
    targets = [*functions, *_modules_of(run)]
    with record(*targets) as seen:
        run()
    return seen


def _modules_of(run: Callable[[], Any]) -> list[Any]:
    """Return the module of *run* too (a ``main`` defined next to the kernels it calls)."""
    module = sys.modules.get(getattr(run, "__module__", "") or "")
    return (
        [module]
        if isinstance(module, types.ModuleType)
        and module.__name__ != "__main__"
        and getattr(module, "__file__", None)
        else []
    )


class _CallableModule(types.ModuleType):
    """``ascreg.emit(fn)`` calls :func:`emit`: the package is also the function."""

    def __call__(self, *functions: Callable[..., Any], run: Any = None) -> str:
        return emit(*functions, run=run)


sys.modules[__name__].__class__ = _CallableModule


def kernels_of(module: types.ModuleType, ran: Recording | None = None) -> list[Callable[..., Any]]:
    """Return the ``__global__`` kernels and VFs a module defines, in source order.

    With *ran*, only those the recorded run called.

    Examples
    --------
    >>> from ascreg.examples import asc_shiftright
    >>> [f.__name__ for f in kernels_of(asc_shiftright)]
    ['shiftright_vf', 'asc_shiftright_kernel']
    """
    from ascreg.emit._record import _unwrap

    found = []
    for value in vars(module).values():
        target = _unwrap(value)
        code = getattr(target, "__code__", None)
        if code is None or code.co_filename != module.__file__:
            continue
        kind = getattr(value, "__ascreg_kind__", None) or getattr(target, "__ascreg_kind__", None)
        entry = type(value).__name__ == "Kernel" or kind in ("simd_vf", "simt_vf")
        if entry and (ran is None or ran.merged(code.co_filename, target.__qualname__).calls):
            found.append((code.co_firstlineno, value))
    return [value for _, value in sorted(found, key=lambda item: item[0])]
