"""The kernel-source macros and the advanced (高阶) API of ``ascreg.basic``.

Gathered here for one star import in :mod:`ascreg.basic`.
"""

from __future__ import annotations

from ascreg.basic import _adv_math, _adv_misc, _adv_norm, _adv_sort, _kernel_source
from ascreg.basic._adv_math import *  # noqa: F403
from ascreg.basic._adv_misc import *  # noqa: F403
from ascreg.basic._adv_norm import *  # noqa: F403
from ascreg.basic._adv_sort import *  # noqa: F403
from ascreg.basic._kernel_source import *  # noqa: F403
from ascreg.machine import tiling_template
from ascreg.machine.tiling_template import *  # noqa: F403

__all__ = [
    *_kernel_source.__all__,
    *_adv_sort.__all__,
    *_adv_math.__all__,
    *_adv_norm.__all__,
    *_adv_misc.__all__,
    *tiling_template.__all__,
]
