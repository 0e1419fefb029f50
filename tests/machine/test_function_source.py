"""The engine's function trees (``ascreg.engine.source``): each file parsed once, copies handed out."""

from __future__ import annotations

import ast
import functools
import importlib.util
from pathlib import Path

import pytest

from ascreg.engine import source


def _decorated(func):  # type: ignore[no-untyped-def]
    @functools.wraps(func)
    def wrapper(*args):  # type: ignore[no-untyped-def]
        return func(*args)

    return wrapper


@_decorated
def _twice(x: int) -> int:
    return x + x


def test_a_decorated_function_is_found_at_its_first_decorator_with_its_file_lines() -> None:
    code = _twice.__wrapped__.__code__  # type: ignore[attr-defined]
    tree = source.definition(code)
    assert tree is not None and tree.name == "_twice"
    assert tree.lineno == code.co_firstlineno + 1  # the def line, after the decorator
    assert ast.unparse(tree.body[0]) == "return x + x"


def test_each_call_hands_out_a_fresh_copy() -> None:
    code = _twice.__wrapped__.__code__  # type: ignore[attr-defined]
    first = source.definition(code)
    assert first is not None
    first.body = []  # a caller rewrites its copy in place
    second = source.definition(code)
    assert second is not None and second is not first and len(second.body) == 1


def test_code_without_a_file_has_no_definition() -> None:
    space: dict[str, object] = {}
    exec("def made(x):\n    return x\n", space)
    assert source.definition(space["made"].__code__) is None  # type: ignore[attr-defined]


def test_a_file_edited_since_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "edited_module.py"
    path.write_text("def f(x):\n    return x\n")
    spec = importlib.util.spec_from_file_location("edited_module", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    code = module.f.__code__
    before = source.definition(code)
    assert before is not None and ast.unparse(before.body[0]) == "return x"
    path.write_text("def f(x):\n    return x * 3\n\n\n")  # another size: linecache reads it again
    after = source.definition(code)
    assert after is not None and ast.unparse(after.body[0]) == "return x * 3"
    path.write_text("x = 1\n")
    assert source.definition(code) is None  # no def of that name at that line any more


@pytest.mark.parametrize("name", ["<stdin>", "no_such_file.py"])
def test_unreadable_files_have_no_tree(name: str) -> None:
    assert source.module_tree(name) is None
