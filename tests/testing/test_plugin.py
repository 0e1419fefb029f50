"""The pytest plugin shipped in the wheel (ascreg.testing.pytest_plugin), used as a user would."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import GlobalMemory, UnifiedBuffer, float32_t, get_policy, uint16_t
from ascreg.examples import vector_add
from ascreg.machine.block import BlockContext, current_block
from ascreg.testing import pytest_plugin
from ascreg.testing.strategies import arrays


@pytest.mark.ascreg_executions
def test_vector_add_is_the_same_batched_and_eager(ascreg_device: Any) -> Any:
    rng = np.random.default_rng(7)
    x, y = (rng.uniform(-5, 5, vector_add.TOTAL_LENGTH).astype(np.float32) for _ in "xy")
    pz = ascreg_device.to_device(np.zeros_like(x))
    vector_add.add_custom[vector_add.BLOCKS, 0, None](
        ascreg_device.to_device(x), ascreg_device.to_device(y), pz
    )
    z = ascreg_device.from_device(pz, like=x)
    assert np.array_equal(z, x + y)
    return z  # compared lane by lane with the other policy's run


def fake_item(func: Any, *executions: str, **funcargs: Any) -> Any:
    """A stand-in for the pytest.Function the hook receives."""
    marker = SimpleNamespace(args=executions)
    return SimpleNamespace(
        get_closest_marker=lambda name: marker if name == pytest_plugin.MARKER else None,
        _fixtureinfo=SimpleNamespace(argnames=tuple(funcargs)),
        funcargs=funcargs,
        obj=func,
        nodeid="tests/fake.py::test",
    )


def test_the_marker_runs_every_policy_and_compares_the_results() -> None:
    seen: list[str] = []

    def body(values: Any) -> Any:
        seen.append(get_policy().execution)
        return np.asarray(values)

    assert pytest_plugin.pytest_pyfunc_call(fake_item(body, values=[1, 2])) is True
    assert seen == ["batched", "eager"]

    def differs() -> Any:
        return np.float32([1.0, 2.0 if get_policy().execution == "batched" else 2.5])

    with pytest.raises(AssertionError, match=r"under execution='eager' vs 'batched': 1 of 2 lanes"):
        pytest_plugin.pytest_pyfunc_call(fake_item(differs))
    with pytest.raises(pytest.UsageError, match="ascreg_executions\\('lazy'\\)"):
        pytest_plugin.pytest_pyfunc_call(fake_item(differs, "lazy"))
    unmarked = SimpleNamespace(get_closest_marker=lambda name: None)
    assert pytest_plugin.pytest_pyfunc_call(unmarked) is None  # type: ignore[arg-type]


def test_a_tuple_result_names_the_item_that_differs() -> None:
    results = {"batched": (np.float32([1]), [0, 1]), "eager": (np.float32([1]), [0, 2])}
    with pytest.raises(AssertionError, match="t: result 1 under execution='eager' vs 'batched'"):
        pytest_plugin._compare(results, "t")


def test_fixtures_are_fresh(ascreg_gm: GlobalMemory, ascreg_ub: UnifiedBuffer) -> None:
    assert ascreg_gm.free_bytes == 1 << 24 and ascreg_ub.free_bytes == ascreg_ub.capacity


def test_ascreg_block_runs_kernel_only_calls(ascreg_block: BlockContext) -> None:
    assert current_block() is ascreg_block
    buf = C.__ubuf__(uint16_t, 16)
    buf.write(np.arange(16))
    assert buf.memory is ascreg_block.ub and buf.read(16)[15] == 15


def test_strategies_with_the_plugin_fixtures(ascreg_device: Any) -> None:
    from hypothesis import given, settings

    @settings(max_examples=10, derandomize=True)
    @given(arrays(float32_t, 40))
    def round_trip(values: Any) -> None:
        back = ascreg_device.from_device(ascreg_device.to_device(values), like=values)
        assert np.array_equal(back.view(np.uint32), values.view(np.uint32))

    round_trip()
