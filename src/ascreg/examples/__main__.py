"""Run every bundled example kernel: ``python -m ascreg.examples``."""

import sys

from ascreg.examples import run_all

sys.exit(1 if run_all() else 0)
