"""The VA address registers of ``asc_set_va_reg`` / ``asc_transto5hd_*`` (C ``ub_addr8_t``).

Examples
--------
>>> from ascreg.c_api import VA0, ub_addr8_t
>>> VA0 is ub_addr8_t.VA0
True
"""

from __future__ import annotations

import enum

__all__ = ["VA0", "VA1", "VA2", "VA3", "VA4", "VA5", "VA6", "VA7", "ub_addr8_t"]


class ub_addr8_t(enum.IntEnum):
    """The VA address registers ``VA0`` .. ``VA7`` (C ``ub_addr8_t``), eight UB addresses each.

    ``asc_set_va_reg`` fills one; ``asc_transto5hd_*`` reads the 16 addresses of a register and the
    next one (``VA0`` and ``VA1``, ...).

    Examples
    --------
    >>> from ascreg.c_api import VA2, ub_addr8_t
    >>> VA2 is ub_addr8_t.VA2, int(VA2)
    (True, 2)
    """

    VA0 = 0
    VA1 = 1
    VA2 = 2
    VA3 = 3
    VA4 = 4
    VA5 = 5
    VA6 = 6
    VA7 = 7


VA0 = ub_addr8_t.VA0
VA1 = ub_addr8_t.VA1
VA2 = ub_addr8_t.VA2
VA3 = ub_addr8_t.VA3
VA4 = ub_addr8_t.VA4
VA5 = ub_addr8_t.VA5
VA6 = ub_addr8_t.VA6
VA7 = ub_addr8_t.VA7
