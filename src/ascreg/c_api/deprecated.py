"""Deprecated C API spellings the dav-3510 headers still declare, as warning aliases.

Each alias calls the current function with the same arguments (the headers declare the same
parameters) after a :class:`DeprecationWarning` that names the current spelling, as the C++
compiler's ``[[deprecated]]`` notice does. Python shows a ``DeprecationWarning`` once per
calling line under its default filters.

Examples
--------
>>> import warnings
>>> from ascreg.c_api import asc_create_iter_reg_b16, hw_range
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     for i in hw_range(2):
...         offset = asc_create_iter_reg_b16(128)
>>> str(caught[0].message)
'asc_create_iter_reg_b16 is deprecated: use asc_update_addr_reg_b16'
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

from ascreg.c_api import addr, compute, datamove, kernel, movement

__all__ = [
    "DEPRECATED",
    "asc_create_iter_reg_b8",
    "asc_create_iter_reg_b16",
    "asc_create_iter_reg_b32",
    "asc_get_ar_spr",
    "asc_loadalign_brc_postupdate_v2",
    "asc_loadalign_brc_postupdate_v3",
    "asc_loadalign_brc_v2",
    "asc_loadalign_brc_v3",
    "asc_loadalign_unpack_postupdate_v2",
    "asc_loadalign_unpack_v2",
    "asc_pack",
    "asc_pack_v2",
    "asc_set_gm2ub_pad",
    "asc_squeeze_v2",
    "asc_storealign_pack_postupdate_v2",
    "asc_storealign_pack_v2",
]

DEPRECATED: dict[str, str] = {
    "asc_create_iter_reg_b8": "asc_update_addr_reg_b8",
    "asc_create_iter_reg_b16": "asc_update_addr_reg_b16",
    "asc_create_iter_reg_b32": "asc_update_addr_reg_b32",
    "asc_loadalign_brc_v2": "asc_loadalign_brc_datablock",
    "asc_loadalign_brc_postupdate_v2": "asc_loadalign_brc_datablock_postupdate",
    "asc_loadalign_brc_v3": "asc_loadalign_brc_elem2datablock",
    "asc_loadalign_brc_postupdate_v3": "asc_loadalign_brc_elem2datablock_postupdate",
    "asc_loadalign_unpack_v2": "asc_loadalign_unpack4",
    "asc_loadalign_unpack_postupdate_v2": "asc_loadalign_unpack4_postupdate",
    "asc_pack": "asc_pack_to_low",
    "asc_pack_v2": "asc_pack_to_high",
    "asc_storealign_pack_v2": "asc_storealign_pack_quarter",
    "asc_storealign_pack_postupdate_v2": "asc_storealign_pack_quarter_postupdate",
    "asc_set_gm2ub_pad": "asc_set_copy_pad_val",
    # issue 11 (C API complete): the dav-3510 impl of each current function calls the old one
    "asc_get_ar_spr": "asc_get_squeeze_status",
    "asc_squeeze_v2": "asc_squeeze_with_status",
}
"""Each deprecated spelling and the current function the header's notice names (the header
also deprecates ``asc_set_store_atomic_config_v2``, whose notice names no drop-in replacement:
it is a function of its own in :mod:`ascreg.c_api.coresync`)."""


def _current(name: str) -> Callable[..., Any]:
    for module in (addr, compute, datamove, kernel, movement):
        if hasattr(module, name):
            found: Callable[..., Any] = getattr(module, name)
            return found
    raise LookupError(name)  # pragma: no cover (the table names existing functions)


def _alias(old: str) -> Callable[..., Any]:
    new = DEPRECATED[old]
    current = _current(new)

    @functools.wraps(current)
    def deprecated(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(f"{old} is deprecated: use {new}", DeprecationWarning, stacklevel=2)
        return current(*args, **kwargs)

    deprecated.__name__ = deprecated.__qualname__ = old
    deprecated.__doc__ = f"""``{old}``: deprecated spelling of :func:`{new}` (warns, then calls it).

    Examples
    --------
    >>> from ascreg.c_api.deprecated import DEPRECATED
    >>> DEPRECATED["{old}"]
    '{new}'
    """
    return deprecated


(asc_create_iter_reg_b8, asc_create_iter_reg_b16, asc_create_iter_reg_b32, asc_loadalign_brc_v2,
 asc_loadalign_brc_postupdate_v2, asc_loadalign_brc_v3, asc_loadalign_brc_postupdate_v3,
 asc_loadalign_unpack_v2, asc_loadalign_unpack_postupdate_v2, asc_pack, asc_pack_v2,
 asc_storealign_pack_v2, asc_storealign_pack_postupdate_v2, asc_set_gm2ub_pad, asc_get_ar_spr,
 asc_squeeze_v2) = (
    _alias(old) for old in DEPRECATED
)  # fmt: skip
