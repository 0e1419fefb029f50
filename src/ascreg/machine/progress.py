r"""Progress of long launches on a terminal: blocks done, time spent, time left.

A launch that has run for :data:`SHOW_AFTER` seconds prints one line on standard error and
rewrites it as blocks finish (at most every :data:`INTERVAL` seconds)::

    ascreg: gelu_custom<<<256, 0, None>>>: 96/256 blocks, 2.1 s, about 3.5 s left

and ends it with the total when the launch ends. Short launches print nothing. The policy's
``progress`` setting decides where: ``"auto"`` (the default) only when standard error is a
terminal and the ``CI`` environment variable is unset, ``"on"`` always, ``"off"`` never.

Examples
--------
>>> import io
>>> out, now = io.StringIO(), iter([0.0, 3.0, 4.0, 4.0])
>>> bar = LaunchProgress("k<<<4, 0, None>>>", 4, stream=out, clock=lambda: next(now), show=True)
>>> bar.update(1); bar.update(4); bar.close()
>>> for line in out.getvalue().split("\r")[1:]:  # the line as rewritten
...     print(line.rstrip())
ascreg: k<<<4, 0, None>>>: 1/4 blocks, 3.0 s, about 9.0 s left
ascreg: k<<<4, 0, None>>>: 4/4 blocks, 4.0 s, about 0.0 s left
ascreg: k<<<4, 0, None>>>: 4/4 blocks in 4.0 s
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

from ascreg.errors import get_policy

SHOW_AFTER = 2.0
"""Seconds a launch runs before its progress line appears."""
INTERVAL = 0.5
"""Least seconds between two rewrites of the line."""


def shows_progress(stream: TextIO) -> bool:
    """Whether the policy lets a launch print its progress on *stream*.

    Examples
    --------
    >>> import io, ascreg
    >>> with ascreg.policy(progress="on"):
    ...     shows_progress(io.StringIO())
    True
    >>> shows_progress(io.StringIO())  # "auto": not a terminal
    False
    """
    mode = get_policy().progress
    if mode != "auto":
        return mode == "on"
    if os.environ.get("CI"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


class LaunchProgress:
    """The progress line of one launch (see the module docstring).

    Parameters
    ----------
    label
        The launch as written (``"k<<<256, 0, None>>>"``).
    total
        Its number of blocks.
    stream, clock
        Where the line goes (standard error) and the time source (``time.monotonic``).
    show
        Whether to print at all; None asks :func:`shows_progress`.
    """

    def __init__(
        self,
        label: str,
        total: int,
        *,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        show: bool | None = None,
    ) -> None:
        self.label, self.total = label, total
        self.stream = sys.stderr if stream is None else stream
        self.clock = clock
        self.show = shows_progress(self.stream) if show is None else show
        self.started = clock() if self.show else 0.0
        self.written = -INTERVAL  # when the line was last written (never)
        self.width = 0
        self.done = 0

    def update(self, done: int) -> None:
        """*done* blocks have finished; rewrite the line if it is time to."""
        self.done = done
        if not self.show:
            return
        now = self.clock()
        elapsed = now - self.started
        if elapsed < SHOW_AFTER or now - self.written < INTERVAL:
            return
        self.written = now
        left = f", about {elapsed / done * (self.total - done):.1f} s left" if done else ""
        self._write(f"{done}/{self.total} blocks, {elapsed:.1f} s{left}")

    def close(self) -> None:
        """End the line (if one was written) with the blocks done and the time taken."""
        if self.width:
            elapsed = self.clock() - self.started
            self._write(f"{self.done}/{self.total} blocks in {elapsed:.1f} s")
            self.stream.write("\n")
            self.stream.flush()

    def _write(self, status: str) -> None:
        line = f"ascreg: {self.label}: {status}"
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = max(self.width, len(line))
