"""Lane semantics of the vector constructors ``make_int2``, ``make_float4`` ...: assembling components.

Examples
--------
>>> import numpy as np
>>> assemble(np.int32(1), np.array([2, 3], np.int32))
array([[1, 2],
       [1, 3]], dtype=int32)
"""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = np.ndarray[Any, Any]


def assemble(*components: Any) -> Arr:
    """Stack same-typed *components* (broadcast per lane) along a new last axis.

    Examples
    --------
    >>> import numpy as np
    >>> assemble(np.float32(1), np.float32(2)).tolist()
    [1.0, 2.0]
    """
    parts = np.broadcast_arrays(*(np.asarray(c) for c in components))
    return np.stack(parts, axis=-1)
