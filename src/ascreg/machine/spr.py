"""The special-purpose registers of a running block: the vector mask SPR and AR.

Both surfaces share them: the C API's ``asc_init`` and the Reg API's ``MoveMask`` read and
write the same block state, as both compile to the same registers.

* The mask SPR ``{MASK1, MASK0}`` (128 bits) is what ``SetVectorMask`` / ``asc_init`` write and
  ``Reg.MoveMask`` / ``asc_get_mask_spr_*`` read. Nothing sets it when a block starts: reading
  it before a write is an error (the value would be whatever the previous kernel left).
* AR counts the bytes ``Squeeze<T, GatherMaskMode::STORE_REG>`` kept; ``ClearSpr<AR>`` /
  ``asc_clear_ar_spr`` zero it. A block starts with AR = 0 (ascreg's decision: the chip's reset
  value is not documented, and every documented use clears it first).
* Each ``STORE_REG`` squeeze also leaves its byte count for the AR form of ``StoreUnAlign``
  (``StoreUnAlign(dst, src, ureg)``), which takes it: the two must alternate (the Squeeze page),
  so that store finds exactly one squeeze waiting.

Examples
--------
>>> from ascreg.machine.block import BlockContext, block
>>> with block(BlockContext()):
...     write_mask_spr(MASK_SPR_INIT); read_mask_spr() == (1 << 128) - 1
True
>>> with block(BlockContext()):
...     add_ar(64); clear_ar(); read_ar()
0
"""

from __future__ import annotations

from ascreg.errors import AscregError, UndefinedBehaviourError, undefined_behaviour
from ascreg.machine.block import current_block

MASK_SPR_STATE = "mask_spr"
"""Block-state key of the 128-bit mask special-purpose register."""
MASK_SPR_INIT = (1 << 128) - 1
"""What ``asc_init()`` writes into the mask SPR (``set_vector_mask(-1, -1)``)."""
AR_STATE = "ar_spr"
"""Block-state key of the AR special register (a byte count)."""
SQUEEZED_STATE = "ar_squeezed"
"""Block-state key of the byte counts of the ``STORE_REG`` squeezes no AR store has taken."""


def write_mask_spr(value: int) -> None:
    """Set the running block's mask SPR to the 128-bit *value*."""
    current_block().state[MASK_SPR_STATE] = int(value) & MASK_SPR_INIT


def read_mask_spr() -> int:
    """Return the running block's mask SPR; an error before anything wrote it."""
    value = current_block().state.get(MASK_SPR_STATE)
    if value is None:
        raise AscregError(
            "the mask SPR is read before asc_init() (or SetVectorMask) set it (its value "
            "would be whatever the previous kernel left there)"
        )
    return int(value)


def read_ar() -> int:
    """Return the running block's AR register (0 until something adds to it)."""
    return int(current_block().state.get(AR_STATE, 0))


def add_ar(nbytes: int) -> None:
    """Add *nbytes* to the running block's AR register."""
    state = current_block().state
    state[AR_STATE] = int(state.get(AR_STATE, 0)) + int(nbytes)


def clear_ar() -> None:
    """Zero the running block's AR register (``ClearSpr<AR>``, ``asc_clear_ar_spr``)."""
    current_block().state[AR_STATE] = 0


def note_squeeze(nbytes: int) -> None:
    """Record a ``STORE_REG`` squeeze that kept *nbytes*: add them to AR, leave them for the store.

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     note_squeeze(12); read_ar(), take_squeeze()
    (12, 12)
    """
    add_ar(nbytes)
    state = current_block().state
    state[SQUEEZED_STATE] = [*state.get(SQUEEZED_STATE, ()), int(nbytes)]


def take_squeeze() -> int:
    """Return the byte count of the one squeeze the AR form of ``StoreUnAlign`` follows.

    Squeeze and that store must alternate: none or two squeezes waiting is undefined behaviour
    (under a warning policy the last squeeze counts, 0 bytes when there is none).

    Examples
    --------
    >>> from ascreg.machine.block import BlockContext, block
    >>> with block(BlockContext()):
    ...     take_squeeze()
    Traceback (most recent call last):
    ...
    ascreg.errors.UndefinedBehaviourError: the AR form of StoreUnAlign must follow ...
    """
    state = current_block().state
    waiting = list(state.get(SQUEEZED_STATE, ()))
    state[SQUEEZED_STATE] = []
    if len(waiting) != 1:
        undefined_behaviour(
            UndefinedBehaviourError(
                "the AR form of StoreUnAlign must follow exactly one Squeeze<T, "
                f"GatherMaskMode::STORE_REG> (the two alternate); found {len(waiting)} since "
                "the last such store"
            )
        )
    return waiting[-1] if waiting else 0
