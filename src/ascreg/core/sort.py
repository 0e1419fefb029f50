"""Lane semantics of ``asc_bitsort`` and ``asc_mrgsort4``: region proposals sorted by score.

A region proposal is one 8-byte record: the score in the low bytes (a ``float`` in bytes 0-3, or a
``half`` in bytes 0-1 with bytes 2-3 reserved) and a ``uint32_t`` index in bytes 4-7. Here a run of
records is an ``(n, 2)`` array of ``uint32`` words (word 0 holds the score bits, word 1 the
index), which is their little-endian byte image.

* :func:`bitsort32` sorts groups of 32 (score, index) pairs into records, highest score first;
  equal scores keep their input order.
* :func:`merge_queues` merges up to four queues of records into one, highest score first, the way
  a merge that repeatedly takes the larger queue head does (ties: the lower-numbered queue), and
  can stop when the first queue runs out.

Examples
--------
>>> import numpy as np
>>> records = bitsort32(np.array([1.0, 3.0, 2.0] + [0.0] * 29, np.float32), np.arange(32, dtype=np.uint32))
>>> scores(records, np.dtype(np.float32))[:3].tolist(), records[:3, 1].tolist()
([3.0, 2.0, 1.0], [1, 2, 0])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

Arr = np.ndarray[Any, Any]

SORT_GROUP = 32
"""Pairs one ``asc_bitsort`` iteration sorts."""

RECORD_BYTES = 8
"""Bytes of one region proposal (score, reserved bytes for ``half``, index)."""


def descending_order(keys: Arr) -> Arr:
    """Return the stable order of *keys* along the last axis, largest first (NaN last).

    Equal keys (``-0.0`` and ``0.0`` among them) keep their input order.
    """
    return np.argsort(-keys, axis=-1, kind="stable")


def records(score_values: Arr, index_values: Arr) -> Arr:
    """Pack scores (``float16`` or ``float32``) and ``uint32`` indices into ``(n, 2)`` record words.

    A ``half`` score fills bytes 0-1 and the reserved bytes 2-3 are written as zero.
    """
    out = np.zeros((score_values.size, 2), np.uint32)
    unsigned = np.uint16 if score_values.dtype.itemsize == 2 else np.uint32
    out[:, 0] = score_values.reshape(-1).view(unsigned)
    out[:, 1] = index_values.reshape(-1)
    return out


def scores(record_words: Arr, dtype: np.dtype[Any]) -> Arr:
    """Return the scores (of *dtype*, ``float16`` or ``float32``) of ``(n, 2)`` record words."""
    words = record_words[:, 0]
    if dtype.itemsize == 2:
        return (words & 0xFFFF).astype(np.uint16).view(np.float16)
    return words.view(np.float32)


def bitsort32(score_values: Arr, index_values: Arr) -> Arr:
    """Sort each group of 32 (score, index) pairs by score, highest first, into record words.

    *score_values* and *index_values* hold ``repeat * 32`` elements; groups are sorted on their
    own (nothing moves between groups), equal scores keep their input order, NaN sorts last.
    """
    grouped = score_values.reshape(-1, SORT_GROUP)
    order = descending_order(grouped)
    sorted_scores = np.take_along_axis(grouped, order, axis=1)
    sorted_indices = np.take_along_axis(index_values.reshape(-1, SORT_GROUP), order, axis=1)
    return records(sorted_scores, sorted_indices)


def merge_queues(queues: Sequence[Arr], dtype: np.dtype[Any], stop_on_exhaustion: bool) -> Arr:
    """Merge queues of record words into one, the way a head-by-head merge does.

    Each step takes the queue head with the highest score (ties: the lower-numbered queue). For
    sorted queues this is their sorted union; for any queues it equals sorting every record by the
    running minimum of its queue's scores up to it, highest first, ties by queue then position.
    With *stop_on_exhaustion* the merge stops right after the first queue runs out (an empty queue
    stops it before anything is taken).
    """
    if stop_on_exhaustion and any(len(q) == 0 for q in queues):
        return np.zeros((0, 2), np.uint32)
    joined = np.concatenate([np.asarray(q, np.uint32).reshape(-1, 2) for q in queues])
    keys = np.concatenate([np.minimum.accumulate(scores(q, dtype)) for q in queues])
    order = descending_order(keys.astype(np.float32))
    merged = joined[order]
    if not stop_on_exhaustion:
        return merged
    ends = np.cumsum([len(q) for q in queues]) - 1  # the last record of each queue
    rank = np.empty(order.size, np.int64)
    rank[order] = np.arange(order.size)
    return merged[: int(rank[ends].min()) + 1]
