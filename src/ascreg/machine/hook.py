"""The one place where the machine model reaches the execution engine (:mod:`ascreg.engine`).

The model runs every op eagerly, one call at a time, exactly as written. The execution engine
(batched VF loops, recorded plans, the SIMT rewrites and block batches) is a layer above the
model that the model never imports: the top package registers a *loader*
(:func:`register_loader`), and the model asks for the engine with :func:`engine` where it
starts a ``__simd_vf__`` function, a ``__global__`` kernel or a SIMT launch. The first request
runs the loader, which imports the engine package; the package fills this hook
(:func:`install`). ``import ascreg`` alone loads no engine module.

While a batched loop runs, :data:`~ascreg.machine.hook.ACTIVE` holds it: registers report their reads and writes to
it, and op calls go through the engine's ``batched``.

Examples
--------
>>> import sys
>>> engine().__class__.__name__, "ascreg.engine" in sys.modules
('Engine', True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

ACTIVE: list[Any] = []
"""The running batched loop, which registers report their reads and writes to; empty (the
common case, one test per access) when loops run eagerly."""
ENGINE: list[Any] = []
"""The engine once loaded (one object: its entry points as attributes), else empty."""
_LOADER: list[Callable[[], None]] = []


def register_loader(loader: Callable[[], None]) -> None:
    """Set the function that loads the engine (it must call :func:`install`).

    Examples
    --------
    >>> register_loader(_LOADER[0])  # the top package's, set again
    """
    _LOADER[:] = [loader]


def install(engine: Any) -> None:
    """Make *engine* the engine :func:`engine` returns (the engine package calls it once).

    Examples
    --------
    >>> install(ENGINE[0])
    """
    ENGINE[:] = [engine]


def engine() -> Any:
    """Return the engine, loading it on the first call.

    Raises
    ------
    RuntimeError
        When no loader is registered (the top package registers one).

    Examples
    --------
    >>> hasattr(engine(), "vf")
    True
    """
    if not ENGINE:
        if not _LOADER:
            raise RuntimeError("no execution-engine loader is registered (import ascreg)")
        _LOADER[0]()
    return ENGINE[0]


def loaded() -> bool:
    """Return True once the engine is loaded.

    Examples
    --------
    >>> loaded()
    True
    """
    return bool(ENGINE)
