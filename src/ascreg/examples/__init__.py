"""Bundled example kernels; ``python -m ascreg.examples`` runs them all.

Each example module has a ``main() -> bool`` that runs the kernel, checks the result against a
plain numpy reference and prints one ``[Success] ...`` (or ``[Failed] ...``) line.

Examples
--------
>>> from ascreg.examples import EXAMPLES
>>> "select_vf" in EXAMPLES
True
"""

from __future__ import annotations

import importlib

EXAMPLES: tuple[str, ...] = (
    "asc_shiftright",
    "byte_perm_simt",
    "c_api_tail",
    "c_api_select",
    "c_api_duplicate",
    "c_api_abs",
    "c_api_mul",
    "c_api_muls",
    "c_api_div",
    "c_api_arange",
    "c_api_compare",
    "c_api_mergemode",
    "c_api_reduce",
    "c_api_reduce_block",
    "c_api_reduce_pair",
    "c_api_simd_add",
    "c_api_cast",
    "c_api_truncate",
    "select_vf",
    "shiftright_vf",
    "tail_vf",
    "vector_add",
    "sigmoid_f32",
    "scale",
)
"""Module names under :mod:`ascreg.examples`, in the order they run."""


def run_all() -> int:
    """Run every example; return the number that failed."""
    failed = 0
    for name in EXAMPLES:
        module = importlib.import_module(f"ascreg.examples.{name}")
        if not module.main():
            failed += 1
    return failed
