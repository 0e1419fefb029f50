"""Lane semantics of the advanced API's quantisation (量化操作) on the dav-3510.

``AscendQuant`` (``impl/adv_api/detail/quantization/quant/ascend_quant_3510_impl.h`` of
asc-devkit), re-expressed with the core functions of the register ops it is built from, in the
same order:

* an 8-bit integer or ``hifloat8_t`` destination is computed on half registers: the source, a
  scale or offset tensor are ``Cast`` to half (``CAST_RINT``, saturating; bfloat16 and float
  sources), a scalar scale / offset is the C cast ``static_cast<half>`` of its float value;
  then ``Mul`` / ``Muls`` by the scale and ``Add`` / ``Adds`` of the offset, each rounded to
  half; then ``Cast`` to int8_t rounding to nearest even, or to hifloat8_t rounding half away
  from zero (``CAST_ROUND``), both saturating;
* an fp8 destination (``fp8_e4m3fn_t``, ``fp8_e5m2_t``) is computed on float registers (the
  16-bit sources and parameters widen exactly), then ``Cast`` to the fp8 type rounding to
  nearest even, saturating.

Examples
--------
>>> import numpy as np
>>> from ascreg import half, int8_t
>>> quant(np.float16([1.0, 100.0, -3.0]), half, int8_t, np.float16(2.0), np.float16(0.5)).tolist()
[2, 127, -6]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg._dtypes import (
    Scalar,
    float32_t,
    fp8_e4m3fn_t,
    fp8_e5m2_t,
    half,
    hifloat8_t,
    int16_t,
    int32_t,
)
from ascreg.core import advmath, convert
from ascreg.enums import RoundMode

Lanes = np.ndarray[Any, Any]


def on_half(dst: type[Scalar]) -> bool:
    """Return whether the 950 quantises to *dst* on half registers (int8_t, hifloat8_t).

    Examples
    --------
    >>> from ascreg import fp8_e5m2_t, int8_t
    >>> on_half(int8_t), on_half(fp8_e5m2_t)
    (True, False)
    """
    return dst not in (fp8_e4m3fn_t, fp8_e5m2_t)


def widen(values: Lanes, src: type[Scalar], dst: type[Scalar]) -> Lanes:
    """Return source or parameter lanes in the type *dst* is computed in (half or float).

    The vector ``Cast`` the implementation uses: to half rounding to nearest even, saturating;
    to float exactly.
    """
    work = half if on_half(dst) else float32_t
    if src is work:
        return values
    return convert.convert(values, src, work, RoundMode.CAST_RINT, True)


def quant(src: Lanes, src_t: type[Scalar], dst_t: type[Scalar], scale: Any, offset: Any) -> Lanes:
    """Return ``cast(src * scale + offset)`` as the 950 computes it (see the module doc).

    *src* holds source elements; *scale* and *offset* are already in the working type (half
    for int8_t / hifloat8_t, float for fp8), each a scalar or lanes that broadcast to *src*.
    """
    work = widen(src, src_t, dst_t)
    scales = np.broadcast_to(np.asarray(scale, dtype=work.dtype), work.shape)
    offsets = np.broadcast_to(np.asarray(offset, dtype=work.dtype), work.shape)
    scaled = advmath.add(advmath.mul(work, scales), offsets)
    rounding = RoundMode.CAST_ROUND if dst_t is hifloat8_t else RoundMode.CAST_RINT
    return convert.convert(scaled, half if on_half(dst_t) else float32_t, dst_t, rounding, True)


def dequant(src: Lanes, scale: Any, dst_t: type[Scalar]) -> Lanes:
    """Return ``AscendDequant``'s ``cast(float(src) * scale)`` as the 950 computes it.

    *src* holds int32 elements; *scale* float32 lanes (or a scalar) that broadcast to it. The
    int32 -> float ``Cast`` rounds half away from zero (``CAST_ROUND``); the float product
    (``Mul`` / ``Muls``) is stored as is for a float destination, else ``Cast`` to half or
    bfloat16 rounding to nearest even, saturating (``ascend_dequant_3510_impl.h``).

    Examples
    --------
    >>> import numpy as np
    >>> dequant(np.int32([16777217, 3]), np.float32(0.5), float32_t).tolist()
    [8388609.0, 1.5]
    """
    wide = convert.convert(src, int32_t, float32_t, RoundMode.CAST_ROUND, False)
    product = advmath.mul(wide, np.broadcast_to(np.asarray(scale, np.float32), wide.shape))
    if dst_t is float32_t:
        return product
    return convert.convert(product, float32_t, dst_t, RoundMode.CAST_RINT, True)


def antiquant(
    src: Lanes, src_t: type[Scalar], dst_t: type[Scalar], offset: Any, scale: Any
) -> Lanes:
    """Return the PER_TENSOR ``AscendAntiQuant``'s ``cast((src + offset) * scale)`` on the 950.

    *offset* and *scale* are values of *dst_t* (half or bfloat16). An fp8 source is widened to
    float, offset added and scale multiplied in float (``Adds`` then ``Muls``), then ``Cast``
    to dst_t rounding to nearest even, saturating. An int8_t or hifloat8_t source is widened to
    half (exactly); for a half destination ``Adds`` / ``Muls`` run in half, for bfloat16 the
    half values widen to float, the float sum and product are cast to bfloat16 as above
    (``ascend_antiquant_3510_impl.h``, ``PerTensorProcessFor*``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import int8_t
    >>> antiquant(np.int8([-128, 3]), int8_t, half, np.float16(1.0), np.float16(0.5)).tolist()
    [-63.5, 2.0]
    """
    if src_t in (fp8_e4m3fn_t, fp8_e5m2_t):
        work = convert.convert(src, src_t, float32_t, RoundMode.CAST_RINT, False)
    else:
        work = convert.convert(src, src_t, half, RoundMode.CAST_RINT, False)
        if dst_t is not half:
            work = work.astype(np.float32)
    shifted = advmath.adds(work, float(offset))
    scaled = advmath.muls(shifted, float(scale))
    if scaled.dtype == dst_t.np_dtype:
        return scaled
    return convert.convert(scaled, float32_t, dst_t, RoundMode.CAST_RINT, True)


def antiquant_channel(src: Lanes, src_t: type[Scalar], dst_t: type[Scalar], offset: Lanes,
                      scale: Lanes) -> Lanes:  # fmt: skip
    """Return the PER_CHANNEL ``AscendAntiQuant`` (no transpose, rows of 32 or more) on the 950.

    *src* is ``[k, n]``, *offset* and *scale* ``[n]`` lanes of *dst_t*. An fp8 source
    computes in float as :func:`antiquant`; an int8_t or hifloat8_t source is cast to half
    (exact), for bfloat16 then to bfloat16 (``CAST_RINT``), and ``Add`` / ``Mul`` run in
    dst_t (``PerchannelNoTransposeFor*``).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import int8_t
    >>> antiquant_channel(np.int8([[1, 2], [3, 4]]), int8_t, half, np.float16([1, 0]),
    ...                   np.float16([2, 3])).tolist()
    [[4.0, 6.0], [8.0, 12.0]]
    """
    if src_t in (fp8_e4m3fn_t, fp8_e5m2_t):
        work = convert.convert(src, src_t, float32_t, RoundMode.CAST_RINT, False)
        offsets, scales = offset.astype(np.float32), scale.astype(np.float32)
        result = advmath.mul(advmath.add(work, _rows(offsets, work)), _rows(scales, work))
        return convert.convert(result, float32_t, dst_t, RoundMode.CAST_RINT, True)
    work = convert.convert(src, src_t, half, RoundMode.CAST_RINT, False)
    if dst_t is not half:
        work = convert.convert(work, half, dst_t, RoundMode.CAST_RINT, False)
    return advmath.mul(advmath.add(work, _rows(offset, work)), _rows(scale, work))


def antiquantize(
    src: Lanes, src_t: type[Scalar], dst_t: type[Scalar], scale: Lanes, offset: Lanes | None
) -> Lanes:
    """Return ``AntiQuantize``'s ``cast((src + offset) * scale)`` on the 950, all in float.

    Every policy of the 8-bit sources computes alike (``antiquantize_3510_impl.h``): the
    source widens to float exactly (fp8 directly, int8_t and hifloat8_t through half); the
    float *offset* (None: ``hasOffset`` false) is added and the float *scale* multiplied, each
    rounded to float (``Add`` / ``Adds`` then ``Mul`` / ``Muls``); a float destination takes the
    product as is, half or bfloat16 a ``Cast`` rounding to nearest even, saturating.
    *scale* and *offset* are float32 lanes that broadcast to *src* (the policy picks them).

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import int8_t
    >>> antiquantize(np.int8([-128, 3]), int8_t, half, np.float32(0.5), np.float32(1.0)).tolist()
    [-63.5, 2.0]
    """
    if src_t in (fp8_e4m3fn_t, fp8_e5m2_t):
        work = convert.convert(src, src_t, float32_t, RoundMode.CAST_RINT, False)
    else:
        work = convert.convert(src, src_t, half, RoundMode.CAST_RINT, False).astype(np.float32)
    if offset is not None:
        work = advmath.add(work, _rows(np.asarray(offset, np.float32), work))
    work = advmath.mul(work, _rows(np.asarray(scale, np.float32), work))
    if dst_t is float32_t:
        return work
    return convert.convert(work, float32_t, dst_t, RoundMode.CAST_RINT, True)


INT8_ROUNDINGS = (RoundMode.CAST_RINT, RoundMode.CAST_ROUND, RoundMode.CAST_FLOOR,
                  RoundMode.CAST_CEIL, RoundMode.CAST_TRUNC)  # fmt: skip
"""The round modes ``Quantize`` takes for an int8_t destination (others fall back to CAST_RINT)."""
HIF8_ROUNDINGS = (RoundMode.CAST_ROUND, RoundMode.CAST_HYBRID)
"""The round modes ``Quantize`` takes for hifloat8_t (others fall back to CAST_ROUND)."""


def quantize(src: Lanes, src_t: type[Scalar], dst_t: type[Scalar], scale: Lanes,
             offset: Lanes | None, rounding: RoundMode) -> Lanes:  # fmt: skip
    """Return ``Quantize``'s ``cast(src * scale + offset)`` on the 950, computed in float.

    ``quantize_impl.h``, every policy alike for the 8-bit destinations: the source widens to
    float exactly; the float *scale* is multiplied, then the float *offset* (None:
    ``hasOffset`` false) added, each rounded to float (``Mul`` then ``Add``); the result is cast
    saturating: to fp8 to nearest even whatever *rounding* says; to hifloat8_t with *rounding*
    if it is CAST_ROUND or CAST_HYBRID, else CAST_ROUND; to int8_t through int16_t with
    *rounding* if it is CAST_RINT, _ROUND, _FLOOR, _CEIL or _TRUNC (else CAST_RINT), then half
    and int8_t to nearest even. *scale* and *offset* broadcast to *src*.

    Examples
    --------
    >>> import numpy as np
    >>> from ascreg import int8_t
    >>> quantize(np.float16([2.5, -2.5, 300]), half, int8_t, np.float32(1), None,
    ...          RoundMode.CAST_FLOOR).tolist()
    [2, -3, 127]
    """
    work = (
        np.asarray(src, np.float32)
        if src_t is float32_t
        else convert.convert(src, src_t, float32_t, RoundMode.CAST_RINT, False)
    )
    work = advmath.mul(work, _rows(np.asarray(scale, np.float32), work))
    if offset is not None:
        work = advmath.add(work, _rows(np.asarray(offset, np.float32), work))
    if dst_t in (fp8_e4m3fn_t, fp8_e5m2_t):
        return convert.convert(work, float32_t, dst_t, RoundMode.CAST_RINT, True)
    if dst_t is hifloat8_t:
        mode = rounding if rounding in HIF8_ROUNDINGS else RoundMode.CAST_ROUND
        return convert.convert(work, float32_t, dst_t, mode, True)
    mode = rounding if rounding in INT8_ROUNDINGS else RoundMode.CAST_RINT
    wide = convert.convert(work, float32_t, int16_t, mode, True)
    narrow = convert.convert(wide, int16_t, half, RoundMode.CAST_RINT, True)
    return convert.convert(narrow, half, dst_t, RoundMode.CAST_RINT, True)


def _rows(lanes: Lanes, like: Lanes) -> Lanes:
    return np.broadcast_to(lanes, like.shape)
