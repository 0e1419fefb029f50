"""Histograms of uint8 lanes into uint16 counters (``Reg.Histograms``, ``asc_*_histogram_*``).

``counts`` has one uint16 lane per value of one half of the uint8 range (BIN0: 0-127, BIN1:
128-255). FREQUENCY adds to lane n the number of enabled source lanes equal to ``base + n``;
ACCUMULATE adds the number equal to any of ``base .. base + n`` (a running count within the
half). Counters wrap at 65536, as the uint16 lanes do.

Examples
--------
>>> import numpy as np
>>> src = np.array([0, 1, 1, 130], np.uint8); on = np.ones(4, bool)
>>> histogram(np.zeros(128, np.uint16), src, on, high=False, cumulative=False)[:3].tolist()
[1, 2, 0]
>>> histogram(np.zeros(128, np.uint16), src, on, high=True, cumulative=True)[:4].tolist()
[0, 0, 1, 1]
"""

from __future__ import annotations

from typing import Any

import numpy as np

Lanes = np.ndarray[Any, Any]

BIN_WIDTH = 128
"""Values counted per call: one half of the uint8 range, one uint16 lane each."""


def histogram(counts: Lanes, src: Lanes, enables: Lanes, *, high: bool, cumulative: bool) -> Lanes:
    """Return *counts* plus the histogram of the enabled *src* lanes in one half of 0-255."""
    base = BIN_WIDTH if high else 0
    shape = np.broadcast_shapes(src.shape, enables.shape)[:-1]  # rows of a batched loop, or ()
    rows = int(np.prod(shape))
    bins = 2 * BIN_WIDTH + 1  # the last bin takes the masked-off lanes, and is dropped
    keys = np.where(enables, src.astype(np.int64), 2 * BIN_WIDTH).reshape(rows, -1)
    keys = keys + np.arange(rows)[:, None] * bins  # each row counts in its own bins
    every = np.bincount(keys.ravel(), minlength=rows * bins).reshape(*shape, bins)
    found = every[..., base : base + BIN_WIDTH]
    if cumulative:
        found = np.cumsum(found, axis=-1)
    return ((counts.astype(np.int64) + found) & 0xFFFF).astype(np.uint16)
