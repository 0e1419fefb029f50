"""The cube unit's data layouts and arithmetic: NZ fractals, Mmad's accumulation, Fixpipe's casts.

**Layouts.** A matrix in L1, L0A and L0C is stored *NZ*: column blocks of ``c0`` elements (32
bytes; 16 for the 16-by-16 L0C fractals of float / int32), each block ``c0_stride`` rows of
``c0`` elements, one row after the other (``n_stride`` rows apart). Element ``(r, c)`` is at
``(c // c0) * c0_stride * c0 + r * n_stride * c0 + c % c0`` (:func:`nz_offsets`). L0B holds the
right matrix ``B`` (K x N) *ZN*, which is the same bytes as ``Bᵀ`` (N x K) stored NZ.

**Accumulation model** (:func:`mmad`). The documents fix the formula ``C = A x B + C`` and the
dtype pairs, not the order or precision of the partial sums. ascreg's model:

* int8 x int8 -> int32: exact. The dot product of one Mmad (at most 4095 terms of at most
  2**14) fits int32; adding it to the old C wraps in 32 bits.
* floating inputs -> float: every product is exact (a float64 holds the product of two float32
  values, and of every narrower pair), the products are summed in float64 and the old C value
  (0, the bias row, or the L0C contents) is added in float64; the result is rounded once to
  float32 (round to nearest even). The float64 sum is within ``K * 2**-53 * sum|a*b|`` of the
  exact sum, so a result is within half a float32 ulp of the exactly rounded value plus that
  bound. Bit-exactness with the chip is not claimed: the documents leave the cube's internal
  precision open (docs/limitations.md).

Examples
--------
>>> import numpy as np
>>> nz_offsets(2, 3, 2, 4, 1).tolist()
[[0, 1, 8, 9], [2, 3, 10, 11]]
>>> a = np.array([[1, 2]], np.int8); bt = np.array([[3, 4], [5, 6]], np.int8)
>>> mmad(a, bt, np.zeros((1, 2), np.int32), np.int32).tolist()
[[11, 17]]
"""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = np.ndarray[Any, Any]

FRACTAL_ROWS = 16
"""Rows of one fractal (the cube's M and N block)."""


def nz_offsets(rows: int, cols: int, c0: int, c0_stride: int, n_stride: int) -> Arr:
    """Return the element offsets of an NZ matrix, ``(rows, ceil(cols / c0) * c0)``.

    Column ``c`` of row ``r`` lies in column block ``c // c0``; blocks are ``c0_stride`` rows
    of ``c0`` elements apart and rows ``n_stride`` rows apart (sizes in ``c0``-element rows).
    The columns past *cols* up to the block boundary are the zero pad ND2NZ writes.

    Examples
    --------
    >>> nz_offsets(1, 3, 2, 1, 1).tolist()
    [[0, 1, 2, 3]]
    """
    width = -(-cols // c0) * c0
    col = np.arange(width, dtype=np.int64)
    block, lane = col // c0, col % c0
    row = np.arange(rows, dtype=np.int64)[:, None]
    return np.asarray(block * (c0_stride * c0) + row * (n_stride * c0) + lane)


def nd_to_nz(matrix: Arr, c0: int) -> Arr:
    """Return *matrix* (rows x cols) with its columns zero-padded to a multiple of *c0*.

    These are the values :func:`nz_offsets` places: ND2NZ pads each row's last block with 0.

    Examples
    --------
    >>> nd_to_nz(np.array([[1, 2, 3]], np.int16), 2).tolist()
    [[1, 2, 3, 0]]
    """
    rows, cols = matrix.shape
    width = -(-cols // c0) * c0
    out = np.zeros((rows, width), dtype=matrix.dtype)
    out[:, :cols] = matrix
    return out


def fractal_indices(
    m_start: int, k_start: int, m_step: int, k_step: int, src_stride: int, dst_stride: int
) -> tuple[Arr, Arr]:
    """Return the source and destination fractal numbers of a ``LoadData`` 2D V2 copy.

    Fractal ``(mi, ki)`` of the ``m_step x k_step`` window comes from fractal
    ``(k_start + ki) * src_stride + m_start + mi`` and goes to ``ki * dst_stride + mi``
    (``startAddr = srcAddr + (kStartPosition * srcStride + mStartPosition) * 512B``).

    Examples
    --------
    >>> [a.tolist() for a in fractal_indices(1, 0, 2, 2, 4, 2)]
    [[1, 2, 5, 6], [0, 1, 2, 3]]
    """
    mi = np.arange(m_step, dtype=np.int64)
    ki = np.arange(k_step, dtype=np.int64)[:, None]
    src = (k_start + ki) * src_stride + m_start + mi
    dst = ki * dst_stride + mi
    return src.reshape(-1), dst.reshape(-1)


def nz_read(
    flat: Arr,
    row_blocks: int,
    col_blocks: int,
    c0: int,
    block_stride: int,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    """Return the logical matrix ``(row_blocks * 16, col_blocks * c0)`` of an NZ buffer.

    Column block ``j`` starts at element ``j * block_stride * c0`` (``block_stride`` in rows).
    The values are converted to *dtype* (default: the buffer's) in the same pass, into *out*
    (a scratch array of that size and dtype) when given.

    Examples
    --------
    >>> nz_read(np.arange(64), 1, 2, 2, 16)[:2].tolist()
    [[0, 1, 32, 33], [2, 3, 34, 35]]
    """
    rows = row_blocks * FRACTAL_ROWS
    shape = (rows, col_blocks, c0)
    if out is None:
        out = np.empty(shape, flat.dtype if dtype is None else dtype)
    out = out.reshape(shape)
    if block_stride == rows:  # the blocks are back to back: one strided copy
        out[...] = flat[: col_blocks * rows * c0].reshape(col_blocks, rows, c0).transpose(1, 0, 2)
    else:
        for j in range(col_blocks):
            start = j * block_stride * c0
            out[:, j] = flat[start : start + rows * c0].reshape(rows, c0)
    return out.reshape(rows, col_blocks * c0)


HALF_SPECIAL = 0x7C00
"""The exponent bits of a half code; all of them set is an infinity or a NaN."""
HALF_SHIFT, HALF_SCALE = 42, 2.0**1008
"""A half's 15 low bits shifted by 42 are the float64 with its exponent 1008 less (its value
times ``2**-1008``, subnormals too: the float64 is then a subnormal of the same mantissa)."""
HALF_BITS_FROM = 10 * 1024
"""The buffer size (elements) from which the bit path is faster: below it, numpy's one cast wins
over the bit path's four calls."""
HALF_KEEP = np.int64(-0x7E00000000000001)
"""``0x81FF_FFFF_FFFF_FFFF``: the sign and the 57 low bits of a sign-extended half shifted by 42."""


def nz_read_half(flat: Arr, row_blocks: int, col_blocks: int, out: Arr) -> Arr:
    """Return :func:`nz_read` of a half NZ buffer (blocks back to back) widened to float64.

    The same values as ``nz_read(flat, row_blocks, col_blocks, 16, row_blocks * 16, np.float64,
    out)`` in fewer passes (numpy's half cast is scalar): each code sign-extended to 64 bits and
    shifted by :data:`HALF_SHIFT` is, with the six bits above the exponent cleared, a float64
    ``2**1008`` times smaller than the half, then scaled exactly in place. A buffer holding an
    infinity or a NaN takes numpy's cast, and so does one under :data:`HALF_BITS_FROM` elements
    (one call: faster there).

    Examples
    --------
    >>> codes = np.float16([[1.5, -2.0 ** -24] * 8] * 16 * 40)  # 40 column blocks
    >>> nz_read_half(codes.reshape(-1), 1, 40, np.empty((16, 640)))[0, :2].tolist()
    [1.5, -5.960464477539063e-08]
    """
    rows = row_blocks * FRACTAL_ROWS
    codes = flat[: col_blocks * rows * 16].view(np.int16)
    if codes.size < HALF_BITS_FROM or np.bitwise_and(codes, HALF_SPECIAL).max() == HALF_SPECIAL:
        return nz_read(flat, row_blocks, col_blocks, 16, rows, np.float64, out)
    bits = out.view(np.int64).reshape(rows, col_blocks, 16)
    logical = codes.reshape(col_blocks, rows, 16).transpose(1, 0, 2)
    np.left_shift(logical, HALF_SHIFT, out=bits, dtype=np.int64)
    np.bitwise_and(bits, HALF_KEEP, out=bits)
    np.multiply(out, HALF_SCALE, out=out)
    return out.reshape(rows, col_blocks * 16)


def nz_write(flat: Arr, matrix: Arr, c0: int, block_stride: int) -> None:
    """Store *matrix* (a multiple of 16 rows and of *c0* columns) NZ into *flat*, in place.

    Examples
    --------
    >>> flat = np.zeros(64, np.int32)
    >>> nz_write(flat, np.arange(64).reshape(16, 4), 2, 16)
    >>> flat[:4].tolist(), flat[32:34].tolist()
    ([0, 1, 4, 5], [2, 3])
    """
    rows, cols = matrix.shape
    for j in range(cols // c0):
        start = j * block_stride * c0
        flat[start : start + rows * c0] = matrix[:, j * c0 : (j + 1) * c0].reshape(-1)


def nz_blocks(flat: Arr, rows: int, col_blocks: int, c0: int) -> Arr:
    """Return the ``(rows, col_blocks, c0)`` view of an NZ matrix whose blocks are back to back.

    Element ``[r, j, l]`` is column ``j * c0 + l`` of row ``r``: a write through the view is
    :func:`nz_write` with ``block_stride == rows``.

    Examples
    --------
    >>> flat = np.zeros(8, np.int32)
    >>> nz_blocks(flat, 2, 2, 2)[...] = np.arange(8).reshape(2, 2, 2)
    >>> flat.tolist()
    [0, 1, 4, 5, 2, 3, 6, 7]
    """
    return flat[: rows * col_blocks * c0].reshape(col_blocks, rows, c0).transpose(1, 0, 2)


def mmad(
    a: Arr, bt: Arr, c: Arr, out: Any, scratch: Arr | None = None, into: Arr | None = None
) -> Arr:
    """Return ``a @ bt.T + c`` in the accumulation model of the module docstring.

    *a* is M x K, *bt* is N x K (the right matrix transposed, as L0B holds it), *c* the old
    value (M x N, 1 x N for a bias row, or 1 x 1 for one value of every element); *out* is
    ``np.int32`` or ``np.float32``; *scratch* is an optional float64 M x N array for the sums.
    With *into* (an array of *out*, M rows of N elements in any shape, e.g. the
    ``(M, N / 16, 16)`` view of :func:`nz_blocks`) the result is stored there in the same pass
    and *into* returned.

    Examples
    --------
    >>> a = np.array([[1.0, 2.0]], np.float16); bt = np.array([[0.5, 0.25]], np.float16)
    >>> mmad(a, bt, np.array([[1.0]], np.float32), np.float32).tolist()
    [[2.0]]
    """
    # float64 sums of int8 products are exact (|sum| < 2**27); float64 holds any product exactly
    products = np.matmul(
        a.astype(np.float64, copy=False), bt.astype(np.float64, copy=False).T, out=scratch
    )
    if into is None:
        into = np.empty(products.shape, out)
    products = products.reshape(into.shape)
    # one start value (a zero start) broadcasts as a scalar: numpy's faster loop, the same sums
    c = c.reshape(()) if c.size == 1 else c.reshape(c.shape[0], *into.shape[1:])
    if into.dtype == np.int32:
        total = products.astype(np.int64) + c.astype(np.int64)
        into[...] = total.astype(np.uint32).view(np.int32)  # wraps in 32 bits
    else:  # one float64 addition, rounded once to float32 (the cast of the ufunc's output)
        np.add(products, c, out=into, dtype=np.float64, casting="same_kind")
    return into


QUANT_TARGETS = {"NoQuant": None, "F322F16": np.float16, "F322BF16": "bfloat16"}
"""The Fixpipe conversions ascreg models: the name of each ``QuantMode_t`` and its target."""


def fixpipe_convert(values: Arr, target: Any, relu: bool) -> Arr:
    """Apply Fixpipe's optional ReLU, then its cast (round to nearest even) to *target*.

    ReLU maps a negative value and -0.0 to +0.0 (``max(x, 0)``) before the cast.

    Examples
    --------
    >>> fixpipe_convert(np.array([-1.5, 2.0004], np.float32), np.float16, True).tolist()
    [0.0, 2.0]
    """
    if relu:
        values = np.where(values > 0, values, np.zeros((), values.dtype))
    return values if target is None else values.astype(target)


def deq_fields(deq: Arr) -> tuple[Arr, Arr, Arr, Arr, Arr]:
    """Split ``uint64`` quantisation words into (scale, shift, shift on, offset, signed).

    The scale is bits [31:13] read as a float32 with its 13 low mantissa bits cleared (the
    cube's 1-8-10 format), the shift ``n`` bits [35:32], the shift switch bit 36, the offset
    bits [45:37] and the signed-result flag bit 46 (the fixpipe example's golden script).

    Examples
    --------
    >>> scale, *_ , signed = deq_fields(np.array([0x4000_0000 | 1 << 46], np.uint64))
    >>> scale.tolist(), signed.tolist()
    ([2.0], [True])
    """
    deq = deq.astype(np.uint64)
    bits = (deq & np.uint64(0xFFFFE000)).astype(np.uint32)
    scale = bits.view(np.float32)
    shift = ((deq >> np.uint64(32)) & np.uint64(0xF)).astype(np.int64)
    shift_on = ((deq >> np.uint64(36)) & np.uint64(1)).astype(bool)
    offset = ((deq >> np.uint64(37)) & np.uint64(0x1FF)).astype(np.int64)
    signed = ((deq >> np.uint64(46)) & np.uint64(1)).astype(bool)
    return scale, shift, shift_on, offset, signed


def quantize_b8(values: Arr, deq: Arr, relu: bool, signed: bool) -> Arr:
    """Quantise float32 *values* to int8 (*signed*) or uint8 with the words *deq* (per column).

    With the shift switch on, a value is first divided by ``2**n`` and saturated to int16; then
    multiplied by the scale in float32 (ReLU: a negative value by 0), rounded half to even and
    saturated to [-256, 255], the offset added, and the result rounded and saturated to the
    8-bit range (the fixpipe example's ``qf322b8_pre``).

    Examples
    --------
    >>> quantize_b8(np.float32([[1.3, -70.0, 0.25]]), np.uint64([0x4000_0000]), False, True).tolist()
    [[3, -128, 0]]
    """
    scale, shift, shift_on, offset, _ = deq_fields(deq)
    data = values.astype(np.float32)
    shifted = np.round(np.clip(data / np.exp2(shift).astype(np.float32), -32768, 32767))
    data = np.where(shift_on, shifted.astype(np.int16).astype(np.float32), data)
    factor = np.where(data >= 0, scale, np.float32(0) if relu else scale).astype(np.float32)
    scaled = np.round(np.clip(data * factor, -256, 255)).astype(np.int16).astype(np.int64)
    low, high = (-128, 127) if signed else (0, 255)
    return np.asarray(np.clip(scaled + offset, low, high).astype(np.int8 if signed else np.uint8))
