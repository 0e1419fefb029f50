"""Run the docstring examples of the advanced API's and the kernel-source names' *instances*
(``Sort``, ``GetBitCount``, ...: pytest's doctest collection sees only functions and classes)."""

from __future__ import annotations

import doctest
import inspect
import sys

import pytest

from ascreg.basic import _advanced

NAMES = sorted(
    name
    for name in _advanced.__all__
    if not inspect.isfunction(obj := getattr(_advanced, name))
    and not inspect.isclass(obj)
    and isinstance(getattr(obj, "__doc__", None), str)
    and ">>>" in obj.__doc__
    and type(obj).__module__.startswith("ascreg.basic")
)


def test_every_instance_is_found() -> None:
    assert {"Sort", "Concat", "Extract", "GetBitCount", "GetSortLen"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_instance_docstring_examples_run(name: str) -> None:
    obj = getattr(_advanced, name)
    home = sys.modules[type(obj).__module__]
    globs = {**vars(sys.modules["ascreg.basic"]), **vars(home)}
    test = doctest.DocTestParser().get_doctest(obj.__doc__, globs, name, None, 0)
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) of {name} failed"
