"""Run the examples in the docstrings of op *instances* (pytest's doctest collection sees only
functions and classes, and most ops are module-level Template or BasicOp instances)."""

from __future__ import annotations

import doctest
import sys

import pytest

import ascreg.basic
import ascreg.c_api
import ascreg.reg
from ascreg._frontend.template import Template
from ascreg.basic._op import BasicOp

OPS = sorted(
    {
        (module.__name__, name): obj
        for module in (ascreg.reg, ascreg.c_api, ascreg.basic)
        for name in getattr(module, "__all__", ())
        if isinstance(obj := getattr(module, name), Template | BasicOp) and obj.__doc__
    }.items()
)


@pytest.mark.parametrize(("where", "op"), OPS, ids=[f"{m}.{n}" for (m, n), _ in OPS])
def test_op_docstring_examples_run(where: tuple[str, str], op: Template | BasicOp) -> None:
    module, name = where
    globs = dict(
        vars(sys.modules[op.__module__ if isinstance(op, BasicOp) else type(op).__module__])
    )
    test = doctest.DocTestParser().get_doctest(op.__doc__ or "", globs, f"{module}.{name}", None, 0)
    assert test.examples, f"{module}.{name} has no example"
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) of {module}.{name} failed"
