"""Discrete UB accesses by index: ``GatherB`` (DataBlocks into a register) and ``Scatter``.

``Gather``'s UB form lives with the register ``Gather`` (one op, two forms) in
:mod:`ascreg.reg.rearrange`.

Examples
--------
>>> import numpy as np
>>> from ascreg import Reg, UnifiedBuffer, uint16_t
>>> ub = UnifiedBuffer(); out = ub.alloc(uint16_t, 128); out.write([0] * 128)
>>> src, idx = Reg.RegTensor[uint16_t](), Reg.RegTensor[uint16_t]()
>>> src.set(np.arange(128)); idx.set(np.arange(128)[::-1])
>>> Reg.Scatter(out, src, idx, Reg.CreateMask[uint16_t]())
>>> out.read(3).tolist()
[127, 126, 125]
"""

from __future__ import annotations

from typing import Any

from ascreg._frontend import movement
from ascreg._frontend.template import define


@define("Reg.GatherB")
def GatherB(op: Any, dst: Any, base: Any, index: Any, mask: Any) -> None:
    """``GatherB<T>(U& dst, __ubuf__ T* base, S& index, MaskReg& mask)``: gather 8 DataBlocks.

    DataBlock k of ``dst`` (32 bytes, k < 8) is read from ``base + index[k]`` **bytes**; only
    the first 8 uint32 index lanes count, each a multiple of 32 (repeats allowed). ``mask`` is
    read in the b32 layout: bit ``4 * k`` enables block k; a disabled block becomes 0
    (decision: the page says only whether a block "is updated"; ascreg zeroes, the project's
    default mask rule, as ``asc_gather_datablock`` documents) and its index is not read.
    ``base`` is 32-byte aligned; b8/b16/b32/b64 data, RegTraitNumOne registers. Older name
    ``DataCopyGatherB``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, UnifiedBuffer, uint32_t, float32_t
    >>> base = UnifiedBuffer().alloc(float32_t, 128); base.write(np.arange(128))
    >>> dst, idx = Reg.RegTensor[float32_t](), Reg.RegTensor[uint32_t]()
    >>> idx.set(np.arange(64) * 0 + 96)  # every block reads DataBlock 3
    >>> Reg.GatherB(dst, base, idx, Reg.CreateMask[uint32_t]())
    >>> np.asarray(dst)[:10].tolist()
    [24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 24.0, 25.0]
    """
    movement.gather_blocks(op, dst, base, index, mask)


@define("Reg.Scatter", max_dtypes=2)
def Scatter(op: Any, base: Any, src: Any, index: Any, mask: Any) -> None:
    """``Scatter<T, U>(__ubuf__ T* base, S& src, V& index, MaskReg& mask)``: ``base[index[i]] = src[i]``.

    Indices count elements; only the lanes ``mask`` selects are written, every other UB byte
    is left as it was. ``base`` is 32-byte aligned. b8 data uses uint16 indices and writes the
    even source lanes (lane ``2 * i`` to ``base[index[i]]``); 64-bit data takes uint32 or
    uint64 indices (a RegTraitNumOne register uses the first 32). Indices must be unique among
    the selected lanes: a repeat is undefined behaviour (the chip keeps one value, which one
    is undocumented), an error by default; under ``policy(undefined="warn")`` the highest lane
    wins. Older name ``DataCopyScatter``.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import Reg, UnifiedBuffer, int32_t, uint32_t
    >>> base = UnifiedBuffer().alloc(int32_t, 64); base.write([0] * 64)
    >>> src, idx = Reg.RegTensor[int32_t](), Reg.RegTensor[uint32_t]()
    >>> src.set(np.arange(64) + 1); idx.set(np.arange(64) * 0 + 5)
    >>> Reg.Scatter(base, src, idx, Reg.CreateMask[int32_t, Reg.MaskPattern.VL2]())
    Traceback (most recent call last):
    ...
    ascreg.errors.UndefinedBehaviourError: Reg.Scatter: index 5 is written by more than one selected lane: ...
    """
    movement.scatter(op, base, src, index, mask)


# The older spellings (each row's ``aliases``): the same op objects.
DataCopyGatherB, DataCopyScatter = GatherB, Scatter
