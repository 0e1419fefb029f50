"""``with __VEC_SCOPE__:`` blocks made nested functions (ascreg.engine.scopes).

Which blocks move (only those whose meaning the move keeps), what the moved code looks like,
and that an ``@__aicore__`` function with moved blocks computes what its code as written does,
errors included.
"""

from __future__ import annotations

import ast
import textwrap

import numpy as np
import pytest

from ascreg import MicroAPI, UbPtr, float32_t
from ascreg.basic import __VEC_SCOPE__
from ascreg.engine.scopes import as_functions, movable_scopes
from ascreg.machine.block import BlockContext, block
from ascreg.machine.kernel import __aicore__


def _moved(source: str) -> tuple[int, str]:
    """Return how many blocks of the function in *source* move, and the moved code."""
    definition = ast.parse(textwrap.dedent(source)).body[0]
    assert isinstance(definition, ast.FunctionDef)
    blocks = movable_scopes(definition, "__VEC_SCOPE__")
    as_functions(definition, blocks)
    return len(blocks), ast.unparse(definition)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("return 1", "a return leaves the function"),
        ("for i in x:\n    yield i", "a yield makes the function a generator"),
        ("y = 1", "y is read after the block"),
        ("for y in x:\n    pass", "the loop binds y, read after the block"),
        ("global g\ng = 1", "a global statement"),
        ("import y", "the import binds y"),
        ("try:\n    pass\nexcept Exception as y:\n    pass", "the handler binds y"),
        ("del y", "del unbinds y"),
        ("def y():\n    pass", "the def binds y"),
        ("super().f()", "super() needs the method's class cell"),
    ],
)
def test_a_block_whose_meaning_would_change_stays_inline(body: str, why: str) -> None:
    source = (
        "def f(x):\n    y = 0\n    with __VEC_SCOPE__:\n"
        + textwrap.indent(body, "        ")
        + "\n    return y\n"
    )
    assert _moved(source)[0] == 0, why


def test_a_break_leaving_the_block_keeps_it_inline_one_inside_a_loop_of_its_own_does_not() -> None:
    leaving = "def f(x):\n    for i in x:\n        with __VEC_SCOPE__:\n            break\n"
    assert _moved(leaving)[0] == 0
    own = "def f(x):\n    with __VEC_SCOPE__:\n        for i in x:\n            break\n"
    assert _moved(own)[0] == 1


def test_blocks_in_branches_move_and_those_of_nested_functions_do_not() -> None:
    source = """
    def f(x):
        if x:
            with __VEC_SCOPE__:
                a = x
        else:
            with MicroAPI.__VEC_SCOPE__:
                b = x
        def g():
            with __VEC_SCOPE__:
                c = 1
    """
    count, code = _moved(source)
    assert count == 2
    assert "MicroAPI.__VEC_SCOPE__.run(__ascreg_scope_" in code
    assert "with __VEC_SCOPE__:\n            c = 1" in code


def test_blocks_declaring_the_same_registers_move_each_with_its_own() -> None:
    source = """
    def f(x, wide):
        if wide:
            with __VEC_SCOPE__:
                a, b = (make() for _ in range(2))
                for i in range(x):
                    a = b
        else:
            with __VEC_SCOPE__:
                a = make()
                for i in range(x):
                    a = a
    """
    count, code = _moved(source)
    assert count == 2 and "nonlocal" not in code


@pytest.mark.parametrize("first", ["use(a)", "a += 1", "a.x = 1"])
def test_a_block_reading_what_another_left_keeps_both_inline_whatever_the_read(
    first: str,
) -> None:
    source = f"""
    def f(x):
        with __VEC_SCOPE__:
            a = make()
        with __VEC_SCOPE__:
            {first}
            a = make()
    """
    assert _moved(source)[0] == 0


def test_a_scope_inside_a_scope_moves_with_the_outer_one_only() -> None:
    source = """
    def f(x):
        with __VEC_SCOPE__:
            a = x
            with __VEC_SCOPE__:
                b = x
    """
    count, code = _moved(source)
    assert count == 1 and code.count("def __ascreg_scope_") == 1


def test_a_block_reading_what_another_left_keeps_both_inline() -> None:
    source = """
    def f(x):
        with __VEC_SCOPE__:
            a = make()
        with __VEC_SCOPE__:
            use(a)  # the first block's register (a C++ compiler would refuse it)
            a = make()
    """
    assert _moved(source)[0] == 0


def test_a_name_the_rewritten_block_binds_and_the_function_uses_is_shared() -> None:
    # the loop rewrite may rebind a parameter (a flattened loop's rows) and put it back
    definition = ast.parse("def f(p):\n    with __VEC_SCOPE__:\n        q = p\n    return p\n")
    function = definition.body[0]
    assert isinstance(function, ast.FunctionDef)
    blocks = movable_scopes(function, "__VEC_SCOPE__")
    with_block = function.body[0]
    assert isinstance(with_block, ast.With)
    with_block.body.append(ast.parse("p = p").body[0])  # what such a rewrite adds
    as_functions(function, blocks)
    assert "nonlocal p\n" in ast.unparse(function)


@pytest.mark.parametrize(
    ("source", "signature"),
    [
        ("n = x\nwith __VEC_SCOPE__:\n    n -= 1\n    use(n)", "(n=n)"),
        ("n = x\nif x:\n    with __VEC_SCOPE__:\n        use(n)\n        n = 2", "(n=n)"),
        ("n = x\nwith __VEC_SCOPE__:\n    n = 2\n    use(n)\nn = 3", "()"),
    ],
)
def test_a_name_the_function_only_binds_is_copied_into_the_block(
    source: str, signature: str
) -> None:
    """Bound before the block, changed in it, never read after (the production rms_norm's
    ``lastNum``): each run of the block starts from its value at the block."""
    count, code = _moved("def f(x):\n" + textwrap.indent(source, "    "))
    assert count == 1 and "nonlocal" not in code
    assert f"__{signature}:" in code, code


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("n = x\nwith __VEC_SCOPE__:\n    n -= 1\nuse(n)", "read after the block"),
        ("n = x\nwith __VEC_SCOPE__:\n    n -= 1\nn += 1", "x += 1 reads x"),
        (
            "n = x\nfor i in x:\n    with __VEC_SCOPE__:\n        n -= 1",
            "the next run sees the change",
        ),
        ("n = x\ng = lambda: n\nwith __VEC_SCOPE__:\n    n -= 1", "a nested function reads it"),
        (
            "n = x\nwith __VEC_SCOPE__:\n    n -= 1\nwith __VEC_SCOPE__:\n    n = 1",
            "another block binds it",
        ),
    ],
)
def test_a_name_read_outside_or_changed_in_a_loop_is_not_copied(source: str, why: str) -> None:
    assert _moved("def f(x):\n" + textwrap.indent(source, "    "))[0] == 0, why


@__aicore__
def fill(addr: UbPtr[float32_t], value: float, count: int) -> float:
    """A moved block with a loop, reading the function's values; the code after it too."""
    total = 0.0
    with __VEC_SCOPE__:
        reg = MicroAPI.RegTensor[float32_t]()
        mask = MicroAPI.CreateMask[float32_t]()
        MicroAPI.Duplicate(reg, value)
        for i in range(count // 64):
            MicroAPI.StoreAlign(addr + i * 64, reg, mask)
    total = value * count
    return total


@__aicore__
def fail(addr: UbPtr[float32_t]) -> None:
    with __VEC_SCOPE__:
        reg = MicroAPI.RegTensor[float32_t]()
        MicroAPI.LoadAlign(reg, addr + 3)  # misaligned: the block's own error


def test_a_moved_block_runs_as_written_and_leaves_the_scope_on_an_error() -> None:
    with block(BlockContext()) as ctx:
        out = ctx.ub.alloc(float32_t, 256)
        assert fill(out, 2.5, 256) == 640.0
        assert ctx.pipe.name == "PIPE_S" and not ctx.in_simd_vf
        ctx.mem_bar()
        np.testing.assert_array_equal(out.read(256), np.full(256, 2.5, np.float32))
        runner = fill.__ascreg_runner__[0]  # type: ignore[attr-defined]
        moved = [c for c in runner.__code__.co_consts if getattr(c, "co_name", "") == "fill"]
        assert len(moved) == 1  # the block's function, named after its function
        with pytest.raises(Exception, match="aligned") as raised:
            fail(out)
        assert ctx.pipe.name == "PIPE_S" and not ctx.in_simd_vf
        names = [entry.name for entry in raised.traceback]
        assert "fail" in names and not any(n.startswith("__ascreg") for n in names)
