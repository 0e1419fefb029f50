"""Run every benchmark: ``python -m benchmarks`` (optionally naming some: ``python -m benchmarks vf``).

Each module in ``BENCHMARKS`` has ``run() -> list[str]``, returning the lines it reports.
"""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = ("bench_vf", "bench_byte_perm")

chosen = [name for name in BENCHMARKS if not sys.argv[1:] or any(a in name for a in sys.argv[1:])]
for name in chosen:
    for line in importlib.import_module(f"benchmarks.{name}").run():
        print(line)
