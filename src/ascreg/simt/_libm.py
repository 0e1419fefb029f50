"""The one implementation behind every math library row and conversion row (``SimtKind.LIBM``).

A call converts each argument to its C parameter type (:func:`argument`), resolves the output
pointers, runs the row's core function once on all lanes and stores the outputs. The functions
are made by :func:`define_row` in a loop over the rows (:mod:`ascreg.simt.floatmath`,
:mod:`ascreg.simt.conversions`); their docstrings come from the row and a short table entry.

Examples
--------
>>> from ascreg.simt import sinf
>>> float(sinf(0.0))
0.0
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from ascreg._dtypes import Scalar, bool_, float32_t, int32_t
from ascreg._frontend import operands
from ascreg._frontend.operands import Signature
from ascreg._frontend.template import define
from ascreg._spec import SPECS, SimtShape
from ascreg.core import access
from ascreg.core.fpenv import quiet
from ascreg.machine.simt.engine import LanePointer
from ascreg.machine.simt.lanes import Lanes, apply_lanewise

ACCURACY = (
    "Accuracy: the asc-devkit documentation states no error bound for this function; ascreg "
    "returns the correctly rounded float32 result (within 0.5 ulp; float64 evaluation, and an "
    "exact decimal recomputation for the rare lanes near a rounding midpoint)."
)
"""The accuracy note of the transcendental functions' docstrings."""
EXACT = "Exact: the result is representable, so there is no rounding error."
"""The accuracy note of the exact functions' docstrings."""


def _shape(op: Any) -> SimtShape:
    shape = op.spec.shape
    assert isinstance(shape, SimtShape)
    return shape


def argument(op: Any, role: str, dtype: type[Scalar], value: Any) -> Any:
    """Convert one input to its C parameter type (``float``: :func:`~operands.c_float`).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from ascreg import int32_t
    >>> argument(SimpleNamespace(name="ldexpf"), "exp", int32_t, 3)
    array(3, dtype=int32)
    """
    if dtype.np_dtype.kind == "f":
        return operands.c_float(op.name, role, value)
    arg = operands.c_integer(op.name, role, value)
    sig = operands.c_overload(op.name, (role,), [arg], (Signature(dtype),))
    return operands.c_convert(arg, sig.dtypes[0])


def call_row(op: Any, *values: Any) -> Any:
    """Run the row of *op*: convert, compute once, store outputs, return the C result."""
    shape = _shape(op)
    roles, params = op.spec.roles, op.spec.combos[0]
    count = len(roles) - shape.pointers
    inputs = values[:count]
    converted = [
        argument(op, r, d, v) for r, d, v in zip(roles[:count], params[:count], inputs, strict=True)
    ]
    targets = [
        operands.simt_address(op.name, address, (dtype,))[1]
        for address, dtype in zip(values[count:], params[count:], strict=True)
    ]
    with quiet():  # a signalling NaN operand gives a quiet NaN: an IEEE result, not a warning
        parts = op.formula(*(np.atleast_1d(c) for c in converted))
    parts = parts if isinstance(parts, tuple) else (parts,)
    shaped = [apply_lanewise(inputs, converted, _constant(part)) for part in parts]
    results, outputs = shaped[: len(shaped) - len(targets)], shaped[len(shaped) - len(targets) :]
    for target, value in zip(targets, outputs, strict=True):
        access.store(target, value)
    return results[0] if results else None


def _constant(part: Any) -> Callable[..., Any]:
    """Return a formula that gives *part* (already computed), for :func:`apply_lanewise`."""

    def formula(*_: Any) -> Any:
        return part

    return formula


def c_signature(name: str) -> str:
    """Return the C prototype of row *name*, as the documentation writes it.

    Examples
    --------
    >>> c_signature("frexpf")
    'float frexpf(float x, int *exp)'
    """
    spec = SPECS[name]
    shape = spec.shape
    assert isinstance(shape, SimtShape)
    c_names = {**operands.C_NAMES, float32_t: "float", bool_: "bool"}
    count = len(spec.roles) - shape.pointers
    params = [
        f"{c_names[d]} {'*' if i >= count else ''}{r}"
        for i, (r, d) in enumerate(zip(spec.roles, spec.combos[0], strict=True))
    ]
    result = c_names[shape.results[0]] if shape.results else "void"
    return f"{result} {name}({', '.join(params)})"


def _rows_of(target: Any, count: Any) -> tuple[Any, Any]:
    """Read ``target[k]`` for ``k < count`` of each lane: ``(k, lanes)`` values and the lanes' shape.

    Only the elements a lane uses are read (a lane with a smaller n reads nothing past it).
    """
    offsets = target.offsets if isinstance(target, LanePointer) else np.zeros((), np.int64)
    shape = np.broadcast_shapes(np.shape(count), np.shape(offsets))
    counts = np.broadcast_to(np.maximum(np.asarray(count).astype(np.int64), 1), shape).ravel()
    starts = np.broadcast_to(offsets, shape).ravel()
    base = target.base if isinstance(target, LanePointer) else target
    rows = np.zeros((int(counts.max(initial=1)), counts.size), np.float32)
    for k in range(rows.shape[0]):
        active = counts > k
        rows[k, active] = np.asarray(base[(starts[active] + k).view(Lanes)], np.float32)
    return rows, shape


def norm_call(op: Any, n: Any, a: Any) -> Any:
    """``normf`` / ``rnormf``: read each lane's first n elements of ``a`` and apply the row."""
    count = argument(op, "n", int32_t, n)
    target = operands.simt_address(op.name, a, (float32_t,))[1]
    rows, shape = _rows_of(target, count)
    result = np.asarray(op.formula(np.broadcast_to(count, shape).ravel(), rows)).reshape(shape)
    if isinstance(n, Lanes) or isinstance(target, LanePointer):
        return result.view(Lanes)
    return result[()] if result.ndim == 0 else result


ARRAY_CALLS: dict[str, Callable[..., Any]] = {"normf": norm_call, "rnormf": norm_call}
"""The rows whose pointer parameter is an input array (not an output): their implementation."""


def define_row(
    name: str, doc: str, module: str, impl: Callable[..., Any] | None = None
) -> Callable[..., Any]:
    """Define the function of row *name* in *module*: :func:`call_row` with the row's parameters.

    The lane formula is the row's core function; the signature lists the row's roles.

    Examples
    --------
    >>> from ascreg.simt import ldexpf
    >>> str(inspect.signature(ldexpf)), ldexpf.__module__
    ('(x, exp)', 'ascreg.simt.floatmath')
    """
    formula = SPECS[name].core_function()
    implementation = call_row if impl is None else impl
    function: Callable[..., Any] = define(name, doc=doc, formula=staticmethod(formula))(
        implementation
    )
    parameters = [
        inspect.Parameter(role, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        for role in SPECS[name].roles
    ]
    function.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    function.__module__ = module
    return function
