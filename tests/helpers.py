"""Small helpers shared by tests in several folders: error-message checks, filled registers,
a one-line vector-kernel launch, the batching log of a block."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import Reg
from ascreg.errors import AscregError


def raises_naming(
    error: type[Exception], call: str, *fragments: str
) -> Callable[[Callable[[], Any]], AscregError]:
    """Run a thunk; assert it raises *error* whose message starts with *call* and contains
    every fragment (the value and the rule)."""

    def check(thunk: Callable[[], Any]) -> AscregError:
        with pytest.raises(error) as info:
            thunk()
        message = str(info.value)
        assert message.startswith(f"{call}: "), message
        for fragment in fragments:
            assert re.search(fragment, message), (fragment, message)
        assert isinstance(info.value, AscregError)
        return info.value

    return check


def filled_reg(dtype: Any, fill: int = 0) -> Any:
    """A Reg register of *dtype* with every lane set to *fill*."""
    reg = Reg.RegTensor[dtype]()
    reg.set(np.full(reg.lanes, fill, dtype=dtype.np_dtype))
    return reg


def launch(body: Callable[..., None], *args: Any, blocks: int = 1, dyn_ub: int = 0) -> None:
    """Run *body* as a vector kernel: ``__global__ __vector__ body<<<blocks, dyn_ub>>>(args)``."""
    C.__global__(C.__vector__(body))[blocks, dyn_ub, None](*args)


def assert_batched_is_eager(run: Callable[..., tuple[Any, Any, list[str]]], case: Any) -> list[str]:
    """Run *case* batched and eagerly; assert the same error and state; return the batched log.

    ``run(case, eager=...)`` returns ``(state, error, log)`` (a differential test's runner).
    """
    batched_state, batched_error, log = run(case, eager=False)
    eager_state, eager_error, _ = run(case, eager=True)
    assert batched_error == eager_error
    assert batched_state == eager_state
    return log


@contextlib.contextmanager
def batch_log() -> Iterator[list[str]]:
    """Collect the ``ascreg.batch`` log messages (DEBUG: how each VF loop ran) of the block."""
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logger = logging.getLogger("ascreg.batch")
    handler, level = Keep(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield records
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
