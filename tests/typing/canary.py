"""The type tests' canary: a legal call marked as one the checkers must reject.

``run.py`` checks this file last and requires mypy and pyright each to *fail* on it, naming the
needless ignore. A reject line whose call became legal (a rejection gone missing from the
stubs) looks exactly like this one, so the canary proves that such a line fails the run: that
the configurations still report an ignore comment nothing needed.
"""

from __future__ import annotations

from ascreg.c_api import (
    PAT_ALL,
    asc_create_mask_b16,
    asc_shiftright,
    vector_int16_t,
    vector_uint16_t,
)


def check_canary() -> None:
    mask = asc_create_mask_b16(PAT_ALL)
    asc_shiftright(vector_uint16_t(), vector_int16_t(), mask)  # type: ignore[arg-type]  # pyright: ignore
