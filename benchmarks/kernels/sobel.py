"""sobel: asc-devkit ``examples/03_simt_api/02_features/01_api_features/03_warp_instruction/sobel_warp_shfl/sobel_warp_shfl.asc``.

The SIMT kernel of the line-for-line port (``tests/examples/simt/test_sobel_warp_shfl.py``,
imported from there): ``sobel_edge_detect<<<blocks, 2048>>>`` maps a warp to 32 pixels of a row,
gets the neighbours' columns with ``asc_shfl_up``/``asc_shfl_down`` (lanes 0 and 31 read GM),
computes ``|Gx| + |Gy|`` and compacts the edge pixels (strength >= 200) with ``asc_ballot``, one
``asc_atomic_add`` per warp and the lane masks. Size: a 1024-wide image of ``n / 1024`` rows
(the example's is 1023 x 1025). Input: the example's ``fill_input``; golden: its ``sobel_ref``
computed on whole numpy arrays; checked as its ``verify_result`` (the same edges, sorted).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ascreg import GlobalMemory, int32_t, uint8_t, uint16_t, uint32_t
from benchmarks.kernels import RealKernel, load_port

PORT = load_port("simt/test_sobel_warp_shfl.py", "_kernels_sobel")
WIDTH = 1024


def inputs(size: int, seed: int) -> tuple[Any]:
    """The example's ``fill_input`` image, 1024 wide (the pattern has no seed)."""
    return (PORT.fill_input(WIDTH, size // WIDTH),)


def launcher(size: int) -> Any:
    """Allocate GM once; return ``run(image) -> edges`` (sorted ``(x, y, strength)`` rows)."""
    height = size // WIDTH
    gm = GlobalMemory()
    image = gm.alloc(uint8_t, size)
    edges = gm.alloc(uint16_t, size * PORT.EDGE_PIXEL)
    count = gm.alloc(uint32_t, 1)
    tiles_x = (WIDTH + PORT.WARP_SIZE - 1) // PORT.WARP_SIZE
    blocks = (tiles_x * height * PORT.WARP_SIZE + PORT.THREAD_COUNT - 1) // PORT.THREAD_COUNT

    def run(pixels: Any) -> Any:
        image.write(pixels)
        count.write(np.zeros(1, np.uint32))
        PORT.sobel_edge_detect[blocks, PORT.THREAD_COUNT, 0, None](
            edges, count, image, int32_t(WIDTH), int32_t(height)
        )
        found = int(count.read(1)[0])
        rows = edges.read(found * PORT.EDGE_PIXEL).reshape(-1, PORT.EDGE_PIXEL)
        return _sorted(rows)

    return run


def _sorted(rows: Any) -> Any:
    """Edge rows ``(x, y, strength)`` ordered by y, x, strength (``edge_pixel_less``).

    The three 16-bit fields make one 48-bit key: one sort instead of ``lexsort``'s three.
    """
    rows = np.asarray(rows, dtype=np.int64).reshape(-1, 3)
    return rows[np.argsort((rows[:, 1] << 32) | (rows[:, 0] << 16) | rows[:, 2])]


def golden(pixels: Any) -> Any:
    """The example's ``sobel_ref`` on whole numpy arrays: sorted ``(x, y, strength)`` rows."""
    height = pixels.size // WIDTH
    image = pixels.reshape(height, WIDTH).astype(np.int32)

    def at(dy: int, dx: int) -> Any:  # the neighbour (dx, dy) of every inner pixel
        return image[1 + dy : height - 1 + dy, 1 + dx : WIDTH - 1 + dx]

    gx = -at(-1, -1) + at(-1, 1) - 2 * at(0, -1) + 2 * at(0, 1) - at(1, -1) + at(1, 1)
    gy = -at(-1, -1) - 2 * at(-1, 0) - at(-1, 1) + at(1, -1) + 2 * at(1, 0) + at(1, 1)
    strength = (np.abs(gx) + np.abs(gy)) & 0xFFFF  # static_cast<uint16_t>
    ys, xs = np.nonzero(strength >= PORT.THRESHOLD)  # row-major: already sorted by y, x
    return np.stack([xs + 1, ys + 1, strength[ys, xs]], axis=1).astype(np.int64)


def _check(output: Any, want: Any) -> bool:
    return bool(output.shape == want.shape and np.array_equal(output, want))


KERNEL = RealKernel(
    name="sobel",
    origin="asc-devkit 03_simt_api/.../03_warp_instruction/sobel_warp_shfl (SIMT, shuffles)",
    size=1 << 20,
    small=16 * WIDTH,
    inputs=inputs,
    launcher=launcher,
    golden=golden,
    check=_check,
)
