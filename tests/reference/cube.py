"""Scalar references of the cube core's moves and Mmad, one element at a time, from the pages.

Written from the asc-devkit pages (DataCopy GMToL1 ND2NZ, LoadData 2D V2 / 2D, Mmad, Fixpipe
L0C -> GM) and the NZ / ZN layouts of the architecture page, never from ``ascreg.core.cube``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

C0_BYTES = 32
FRACTAL = 512


def nd2nz(dst: np.ndarray, src: np.ndarray, p: Any, c0: int) -> None:
    """ND2NZ into the flat element array *dst* from the flat GM array *src*."""
    for i in range(p.ndNum):
        for r in range(p.nValue):
            for c in range(-(-p.dValue // c0) * c0):
                at = (
                    i * p.dstNzMatrixStride
                    + (c // c0) * p.dstNzC0Stride * c0
                    + r * p.dstNzNStride * c0
                    + c % c0
                )
                if c < p.dValue:
                    dst[at] = src[i * p.srcNdMatrixStride + r * p.srcDValue + c]
                else:
                    dst[at] = 0


def dn2nz(dst: np.ndarray, src: np.ndarray, p: Any, c0: int, small_c0: bool = False) -> None:
    """DN2NZ: element (r, c) of DN matrix i is GM ``i * srcDnMatrixStride + c * srcDValue + r``.

    Its NZ place is ND2NZ's; with SmallC0 each row holds 4 elements (``dValue <= 4``, zero
    padded), rows back to back, and the matrix is zero-padded to a whole 32-byte block.
    """
    size = C0_BYTES // c0
    width = 4 if small_c0 else -(-p.dValue // c0) * c0

    def place(r: int, c: int) -> int:
        if small_c0:
            return r * 4 + c
        return (c // c0) * p.dstNzC0Stride * c0 + r * p.dstNzNStride * c0 + c % c0

    for i in range(p.dnNum):
        base = i * p.dstNzMatrixStride
        if small_c0:
            tail = -(-p.nValue * 4 * size // C0_BYTES) * C0_BYTES // size
            dst[base : base + tail] = 0
        for r in range(p.nValue):
            for c in range(width):
                value = src[i * p.srcDnMatrixStride + c * p.srcDValue + r] if c < p.dValue else 0
                dst[base + place(r, c)] = value


def load_v2(dst: np.ndarray, src: np.ndarray, p: Any) -> None:
    """A non-transposing LoadData2DParamsV2 on flat byte arrays."""
    for k in range(p.kStep):
        for m in range(p.mStep):
            s = ((p.kStartPosition + k) * p.srcStride + p.mStartPosition + m) * FRACTAL
            d = (k * p.dstStride + m) * FRACTAL
            dst[d : d + FRACTAL] = src[s : s + FRACTAL]


def load_v1(dst: np.ndarray, src: np.ndarray, p: Any) -> None:
    """A LoadData2DParams load on flat byte arrays (no transpose)."""
    for i in range(p.repeatTimes):
        s = (p.startIndex + i * p.srcStride) * FRACTAL
        d = i * (1 + p.dstGap) * FRACTAL
        dst[d : d + FRACTAL] = src[s : s + FRACTAL]


def nz_index(r: int, c: int, c0: int, rows: int) -> int:
    """Element (r, c) of an NZ matrix whose column blocks hold *rows* rows of *c0* elements."""
    return (c // c0) * rows * c0 + r * c0 + c % c0


def exact_dot(a: list[float], b: list[float]) -> Fraction:
    """The exact sum of products (every input is a finite float)."""
    return sum((Fraction(x) * Fraction(y) for x, y in zip(a, b, strict=True)), Fraction(0))


def mmad_int(a: np.ndarray, bt: np.ndarray, c: np.ndarray) -> np.ndarray:
    """int8 Mmad: the exact dot product plus C, wrapped to int32."""
    out = np.zeros((a.shape[0], bt.shape[0]), np.int32)
    for i in range(a.shape[0]):
        for j in range(bt.shape[0]):
            total = sum(int(x) * int(y) for x, y in zip(a[i], bt[j], strict=True)) + int(c[i, j])
            out[i, j] = (total + 2**31) % 2**32 - 2**31
    return out


def mmad_float_bound(a: np.ndarray, bt: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exact float Mmad value and the model's error bound per element.

    The bound: half a float32 ulp of the result plus ``K * 2**-53 * (sum |a b| + |c|)``.
    """
    rows, cols = a.shape[0], bt.shape[0]
    exact = np.zeros((rows, cols), np.float64)
    bound = np.zeros((rows, cols), np.float64)
    k = a.shape[1]
    for i in range(rows):
        for j in range(cols):
            total = exact_dot(list(a[i]), list(bt[j])) + Fraction(float(c[i, j]))
            value = float(total)
            mags = math.fsum(abs(float(x) * float(y)) for x, y in zip(a[i], bt[j], strict=True))
            exact[i, j] = value
            ulp = float(np.spacing(np.float32(abs(value)))) if math.isfinite(value) else 0.0
            bound[i, j] = ulp / 2 + (k + 1) * 2.0**-53 * (mags + abs(float(c[i, j])))
    return exact, bound


def mmad_model(a: np.ndarray, bt: np.ndarray, c: np.ndarray, out: Any) -> np.ndarray:
    """The accumulation model as first written: float64 products and sums, then one rounding.

    ``a`` (M x K) and ``bt`` (N x K) are the element values, ``c`` the start (M x N); the
    float64 matrix product is numpy's (the model fixes no summation order), the sum with C is
    float64 and the result is cast to *out* once (int32: exact, wrapped to 32 bits).
    """
    products = np.matmul(a.astype(np.float64), bt.astype(np.float64).T)
    if np.dtype(out) == np.int32:
        total = products.astype(np.int64) + c.astype(np.int64)
        return total.astype(np.uint32).view(np.int32)
    return (products + c.astype(np.float64)).astype(np.float32)


SQUARE = {1: (2, (16, 32), (32, 32)), 2: (1, (16, 16), (16, 16)), 4: (2, (16, 8), (16, 16))}
"""Per element size: fractals per square, the fractal's and the square's shape (the page)."""


def load_with_transpose(dst: np.ndarray, src: np.ndarray, p: Any, size: int) -> None:
    """LoadDataWithTranspose (LoadData2dTransposeParams) on flat element arrays.

    b8: two stacked 16 x 32 fractals form a 32 x 32 square; b16: one 16 x 16 fractal; b32: two
    16 x 8 fractals side by side form a 16 x 16 square. The transposed square is split again
    into fractals (row halves for b8, column halves for b32).
    """
    count, (fr, fc), (sr, sc) = SQUARE[size]
    frac = fr * fc
    for i in range(p.repeatTimes):
        base = (p.startIndex + i * p.srcStride) * count * frac
        square = np.zeros((sr, sc), src.dtype)
        for j in range(count):
            block = src[base + j * frac : base + (j + 1) * frac].reshape(fr, fc)
            if size == 4:
                square[:, j * fc : (j + 1) * fc] = block
            else:
                square[j * fr : (j + 1) * fr, :] = block
        out = square.T
        for j in range(count):
            at = (i * (1 + p.dstGap) + j * (1 + p.dstFracGap)) * frac
            part = out[:, j * fc : (j + 1) * fc] if size == 4 else out[j * fr : (j + 1) * fr, :]
            dst[at : at + frac] = part.reshape(-1)


def qf322b8_pre(data: float, word: int, relu_alpha: float) -> int:
    """One element of the float -> 8-bit quantisation (the fixpipe example's golden script).

    The scale is bits [31:13] as a 1-8-10 float, the shift switch bit 36 with shift bits
    [35:32], the offset bits [45:37], the signed flag bit 46; a negative value is multiplied
    by *relu_alpha* (the scale without ReLU, 0 with it).
    """
    bits = (word >> 13) & 0xFFFFF
    sign_bit, exponent, mantissa = (bits >> 18) & 1, (bits >> 10) & 0xFF, bits & 0x3FF
    alpha = (-1) ** sign_bit * (1 + mantissa / 1024) * 2.0 ** (exponent - 127)
    offset, signed = (word >> 37) & 0x1FF, (word >> 46) & 1
    if (word >> 36) & 1:
        data = np.round(np.clip(data / 2 ** ((word >> 32) & 0xF), -32768, 32767)).astype(np.int16)
    value = np.float32(data)
    value = value * np.float32(alpha) if value >= 0 else value * np.float32(relu_alpha)
    quant = int(np.round(np.clip(value, -256, 255))) + offset
    low, high = (-128, 127) if signed else (0, 255)
    return int(np.clip(quant, low, high))


def img2col_nz(
    dst: np.ndarray, fmap: np.ndarray, p: Any, pad: Any, dst_stride: int, transpose: bool = False
) -> None:
    """The img2col load into L0A: window element (m, k) of the expanded matrix, NZ in *dst*.

    *transpose*: the L1 -> L0B load, or an L0A load with enTranspose, which writes the
    window's transpose: element (m, k) at row k, column m of an NZ matrix whose column blocks
    (C0 pixels wide) are *dst_stride* fractals apart.

    *fmap* is the flat NC1HWC0 feature map (one image); row m is output pixel
    (m // Wo, m % Wo); column k is (channel block, kernel row, kernel column, channel); a tap
    outside the image reads *pad*. Fractals are 16 rows of C0; K column blocks are
    *dst_stride* fractals apart.
    """
    c0 = C0_BYTES // fmap.itemsize
    left, right, top, bottom = p.padList
    fh, fw = p.filterH, p.filterW
    ho = (p.l1H + top + bottom - ((fh - 1) * p.dilationFilterH + 1)) // p.strideH + 1
    wo = (p.l1W + left + right - ((fw - 1) * p.dilationFilterW + 1)) // p.strideW + 1
    assert ho > 0 and wo > 0
    for m in range(p.mStartPt, p.mStartPt + p.mExtension):
        oh, ow = divmod(m, wo)
        for k in range(p.kStartPt, p.kStartPt + p.kExtension):
            block, rest = divmod(k, fh * fw * c0)
            tap, lane = divmod(rest, c0)
            kh, kw = divmod(tap, fw)
            y = oh * p.strideH + kh * p.dilationFilterH - top
            x = ow * p.strideW + kw * p.dilationFilterW - left
            if 0 <= y < p.l1H and 0 <= x < p.l1W:
                value = fmap[((block * p.l1H + y) * p.l1W + x) * c0 + lane]
            else:
                value = pad
            i, j = m - p.mStartPt, k - p.kStartPt
            if transpose:
                i, j = j, i
            fractal = (j // c0) * dst_stride + i // 16
            dst[fractal * 16 * c0 + (i % 16) * c0 + j % c0] = value
