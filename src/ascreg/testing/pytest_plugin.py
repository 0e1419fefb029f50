"""The ascreg pytest plugin: fixtures for a fresh device, GM, UB and block, and a policy marker.

pytest loads it by itself once ascreg is installed (the ``pytest11`` entry point ``ascreg``);
``-p no:ascreg`` turns it off. It provides:

* ``ascreg_device``: a fresh host runtime on device 0 (``acl.init`` + ``acl.rt.set_device``,
  undone after the test); the fixture's value is the :mod:`ascreg.acl` module;
* ``ascreg_gm``: a fresh :class:`~ascreg.machine.memory.GlobalMemory`;
* ``ascreg_ub``: a fresh :class:`~ascreg.machine.memory.UnifiedBuffer`;
* ``ascreg_block``: the test runs as block 0 of 1 (a :class:`~ascreg.machine.block.BlockContext`,
  its UB as ``ascreg_block.ub``), so kernel-only calls (``__ubuf__``, pipes) work in the body;
* the marker ``@pytest.mark.ascreg_executions`` runs the test once under each execution
  policy (``batched`` then ``eager``, or the ones named: ``ascreg_executions("eager")``)
  and, when the test returns a value (a register, mask, array or tuple of them), asserts
  that every run returned the same lanes (:func:`~ascreg.testing.assert_lanes_equal`).
  Build the inputs inside the test: fixture values are shared by the runs.

A test file using them (no import needed)::

    @pytest.mark.ascreg_executions
    def test_add_kernel(ascreg_device):
        ptr = ascreg_device.to_device(np.arange(64, dtype=np.float32))
        add_one[1, 0, None](ptr)
        return ascreg_device.from_device(ptr, like=np.zeros(64, np.float32))

Examples
--------
>>> EXECUTIONS
('batched', 'eager')
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal, cast

import pytest

from ascreg import acl
from ascreg.errors import policy
from ascreg.machine.block import BlockContext, block
from ascreg.machine.memory import GlobalMemory, UnifiedBuffer
from ascreg.testing import assert_lanes_equal

__all__ = [
    "EXECUTIONS",
    "ascreg_block",
    "ascreg_device",
    "ascreg_gm",
    "ascreg_ub",
    "pytest_configure",
    "pytest_pyfunc_call",
]

EXECUTIONS: tuple[Literal["batched", "eager"], ...] = ("batched", "eager")
"""The execution policies ``ascreg_executions`` runs a test under by default, in order."""

MARKER = "ascreg_executions"


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``ascreg_executions`` marker (``--strict-markers`` rejects unknown ones).

    Examples
    --------
    >>> MARKER
    'ascreg_executions'
    """
    config.addinivalue_line(
        "markers",
        f"{MARKER}(*policies): run the test under each execution policy ('batched', 'eager' by "
        "default) and assert that the values it returns are the same lane for lane",
    )


@pytest.fixture
def ascreg_device() -> Iterator[Any]:
    """Yield :mod:`ascreg.acl` on a fresh runtime: initialised, device 0 set, reset afterwards.

    Examples
    --------
    >>> ascreg_device.__name__
    'ascreg_device'
    """
    acl.finalize()  # a runtime a previous test left initialised
    for code in (acl.init(), acl.rt.set_device(0)):
        if code:
            raise RuntimeError(f"ascreg_device: {acl.get_recent_err_msg()} (aclError {code})")
    try:
        yield acl
    finally:
        acl.rt.reset_device(0)
        acl.finalize()


@pytest.fixture
def ascreg_gm() -> GlobalMemory:
    """Return a fresh, empty Global Memory (16 MiB; it grows only as far as it is used).

    Examples
    --------
    >>> ascreg_gm.__name__
    'ascreg_gm'
    """
    return GlobalMemory(capacity=1 << 24)


@pytest.fixture
def ascreg_ub() -> UnifiedBuffer:
    """Return a fresh, empty Unified Buffer (248 KiB).

    Examples
    --------
    >>> ascreg_ub.__name__
    'ascreg_ub'
    """
    return UnifiedBuffer()


@pytest.fixture
def ascreg_block() -> Iterator[BlockContext]:
    """Run the test as block 0 of 1 and yield its context (``.ub`` is the block's UB).

    Examples
    --------
    >>> ascreg_block.__name__
    'ascreg_block'
    """
    with block(BlockContext(block_idx=0, block_num=1)) as ctx:
        yield ctx


def _compare(results: dict[str, Any], nodeid: str) -> None:
    """Assert that every policy's run returned the same lanes as the first."""
    (first, reference), *others = results.items()
    for execution, value in others:
        pairs = (
            zip(reference, value, strict=True) if isinstance(value, tuple) else [(reference, value)]
        )
        for index, (want, got) in enumerate(pairs):
            where = f"{nodeid}: result {index}" if isinstance(value, tuple) else nodeid
            assert_lanes_equal(
                got, want, name=f"{where} under execution={execution!r} vs {first!r}"
            )


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run a test marked ``ascreg_executions`` under each policy and compare what it returns.

    Examples
    --------
    >>> pytest_pyfunc_call.__name__
    'pytest_pyfunc_call'
    """
    marker = pyfuncitem.get_closest_marker(MARKER)
    if marker is None:
        return None
    executions = marker.args or EXECUTIONS
    for execution in executions:
        if execution not in EXECUTIONS:
            raise pytest.UsageError(
                f"{pyfuncitem.nodeid}: {MARKER}({execution!r}): the policies are {EXECUTIONS}"
            )
    names = pyfuncitem._fixtureinfo.argnames
    kwargs = {name: pyfuncitem.funcargs[name] for name in names}
    results: dict[str, Any] = {}
    for execution in executions:
        with policy(execution=cast(Literal["batched", "eager"], execution)):
            results[execution] = pyfuncitem.obj(**kwargs)
    if len(results) > 1 and any(value is not None for value in results.values()):
        _compare(results, pyfuncitem.nodeid)
    return True
