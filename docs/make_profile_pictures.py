"""Draw the two timelines of docs/profiling.md (needs matplotlib: ``pip install ascreg[plot]``).

Run from the repository root after a change to the profiler or the sigmoid example::

    python docs/make_profile_pictures.py

It profiles the bundled ``sigmoid_f32`` example (one block, 8 tiles of 8192 floats) with one
and with two buffers per queue and writes ``docs/_static/profile-sigmoid-1-buffer.png`` and
``docs/_static/profile-sigmoid-2-buffers.png``. The PNGs are committed, so building the docs
does not need matplotlib.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import matplotlib

import ascreg
from ascreg.examples import sigmoid_f32

STATIC = Path(__file__).resolve().parent / "_static"
SHAPE = {"blocks": 1, "tiles": 8, "tile": 8192}
"""The run the pictures show (the docs page quotes its numbers)."""
PICTURES = {1: "profile-sigmoid-1-buffer.png", 2: "profile-sigmoid-2-buffers.png"}


def main() -> None:
    matplotlib.use("Agg")
    profiles = {}
    for buffers in PICTURES:
        with contextlib.redirect_stdout(io.StringIO()), ascreg.profile() as prof:
            assert sigmoid_f32.main(buffer_num=buffers, **SHAPE)
        profiles[buffers] = prof
    longest = max(prof.makespan_us for prof in profiles.values())
    for buffers, name in PICTURES.items():
        prof = profiles[buffers]
        figure = prof.plot()
        figure.axes[0].set_xlim(0, longest)  # one scale: the two pictures compare at a glance
        figure.axes[0].set_title(
            f"sigmoid_f32, {buffers} buffer{'s' if buffers > 1 else ''} per queue: "
            f"{prof.makespan:,.0f} cycles ({prof.makespan_us:.1f} us), "
            f"bound: {prof.summary(show=False).bound}"
        )
        figure.savefig(STATIC / name, dpi=100)
        print(f"wrote {STATIC / name}: {prof.makespan:,.0f} cycles")


if __name__ == "__main__":
    main()
