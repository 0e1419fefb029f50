"""Port of asc-devkit examples/03_simt_api/02_features/01_api_features/03_warp_instruction/sobel_warp_shfl/sobel_warp_shfl.asc.

Line for line: ``sobel_edge_detect`` (``__launch_bounds__(2048)``, pure SIMT) maps one warp to
32 pixels of a row, reads the three rows of its column, gets the neighbours' columns with
``asc_shfl_up``/``asc_shfl_down`` (lanes 0 and 31 read GM instead), computes ``|Gx| + |Gy|``,
then compacts the edge pixels (strength >= 200): ``asc_ballot``, one ``asc_atomic_add`` of
``__popc(edge_mask)`` by lane 0, ``asc_shfl`` of the base, ``lanemask_eq``/``lanemask_lt`` for
each lane's slot. Input from the example's ``fill_input`` (``(x * 3 + y * 5 + (x ^ y) / 8) &
255``), golden from its ``sobel_ref``, checked as its ``verify_result`` does (same count, same
sorted list).

Full size: the example's 1023 x 1025 image (513 blocks of 2048 threads). The branches diverge
inside warps; they run vectorised under active masks (a few seconds).

Not line for line: ``EdgePixel`` (three ``uint16_t``) is stored as three consecutive
``uint16_t`` elements (ascreg pointers have scalar element types); ``abs`` is Python's.
"""

from __future__ import annotations

import sys

import numpy as np

from ascreg import GmPtr, acl, int32_t, uint8_t, uint16_t, uint32_t
from ascreg.machine.kernel import __global__
from ascreg.simt import (
    __launch_bounds__,
    __popc,
    asc_atomic_add,
    asc_ballot,
    asc_shfl,
    asc_shfl_down,
    asc_shfl_up,
    blockDim,
    blockIdx,
    laneid,
    lanemask_eq,
    lanemask_lt,
    threadIdx,
    warpSize,
)

IMAGE_WIDTH = 1023
IMAGE_HEIGHT = 1025
THRESHOLD = 200
WARP_SIZE = 32
THREAD_COUNT = 2048
EDGE_PIXEL = 3  # struct EdgePixel { uint16_t x, y, strength; }: three uint16_t


def store_edge(edge_list: GmPtr[uint16_t], i: int, x: int, y: int, strength: int) -> None:
    """``edge_list[i] = {x, y, strength}``."""
    edge_list[i * EDGE_PIXEL + 0] = x
    edge_list[i * EDGE_PIXEL + 1] = y
    edge_list[i * EDGE_PIXEL + 2] = strength


@__global__
@__launch_bounds__(THREAD_COUNT)
def sobel_edge_detect(
    edge_list: GmPtr[uint16_t],
    edge_count: GmPtr[uint32_t],
    input: GmPtr[uint8_t],
    width: int,
    height: int,
) -> None:
    idx = blockIdx.x * blockDim.x + threadIdx.x
    lane_id = int32_t(laneid())  # the lane in its warp (0..31)
    warp_id = int32_t(idx // warpSize)  # the warp of this thread
    tiles_x = (width + warpSize - 1) // warpSize  # 32-column warp tiles per row
    x = (warp_id % tiles_x) * warpSize + lane_id  # a warp covers 32 columns of one row
    y = warp_id // tiles_x  # the row

    in_image = x < width and y < height

    strength = uint16_t(0)
    if y > 0 and y < height - 1:  # not the first or last row
        # each thread reads its column in the rows above, at and below
        top = input[(y - 1) * width + x] if in_image else 0
        mid = input[y * width + x] if in_image else 0
        bot = input[(y + 1) * width + x] if in_image else 0

        # the neighbours' columns through warp shuffles instead of more GM reads
        shfl_top_left = asc_shfl_up(top, 1, warpSize)
        shfl_top_right = asc_shfl_down(top, 1, warpSize)
        shfl_mid_left = asc_shfl_up(mid, 1, warpSize)
        shfl_mid_right = asc_shfl_down(mid, 1, warpSize)
        shfl_bot_left = asc_shfl_up(bot, 1, warpSize)
        shfl_bot_right = asc_shfl_down(bot, 1, warpSize)

        if in_image and x > 0 and x < width - 1:  # not the first or last column
            # lanes 0 and 31 have no neighbour in the warp: read GM
            top_left = input[(y - 1) * width + (x - 1)] if lane_id == 0 else shfl_top_left
            top_right = input[(y - 1) * width + (x + 1)] if lane_id == 31 else shfl_top_right
            mid_left = input[y * width + (x - 1)] if lane_id == 0 else shfl_mid_left
            mid_right = input[y * width + (x + 1)] if lane_id == 31 else shfl_mid_right
            bot_left = input[(y + 1) * width + (x - 1)] if lane_id == 0 else shfl_bot_left
            bot_right = input[(y + 1) * width + (x + 1)] if lane_id == 31 else shfl_bot_right

            gx = -top_left + top_right - 2 * mid_left + 2 * mid_right - bot_left + bot_right
            gy = -top_left - 2 * top - top_right + bot_left + 2 * bot + bot_right
            strength = uint16_t(abs(gx) + abs(gy))

    # bit i: lane i's pixel is an edge
    edge_mask = asc_ballot(strength >= THRESHOLD)

    # no edge in this warp: no atomic add
    if edge_mask == 0:
        return

    # lane 0 reserves the warp's slots with one atomic add
    warp_base = uint32_t(0)
    if lane_id == 0:
        warp_base = asc_atomic_add(edge_count, uint32_t(__popc(edge_mask)))
    # broadcast lane 0's base to the warp
    warp_base = asc_shfl(warp_base, 0, warpSize)

    if edge_mask & lanemask_eq():  # this lane's pixel is an edge
        # its slot: the edge lanes below it
        lower_mask = edge_mask & lanemask_lt()
        local_idx = __popc(lower_mask)
        store_edge(edge_list, warp_base + local_idx, uint16_t(x), uint16_t(y), strength)


def sobel_ref(input: np.ndarray, width: int, height: int) -> list[tuple[int, int, int]]:
    """The example's ``sobel_ref`` over every inner pixel at once (row by row, as its loops)."""
    image = input.reshape(height, width).astype(np.int64)

    def at(dy: int, dx: int) -> np.ndarray:  # the neighbour (dx, dy) of every inner pixel
        return image[1 + dy : height - 1 + dy, 1 + dx : width - 1 + dx]

    gx = -at(-1, -1) + at(-1, 1) - 2 * at(0, -1) + 2 * at(0, 1) - at(1, -1) + at(1, 1)
    gy = -at(-1, -1) - 2 * at(-1, 0) - at(-1, 1) + at(1, -1) + 2 * at(1, 0) + at(1, 1)
    strength = (np.abs(gx) + np.abs(gy)) % 2**16  # static_cast<uint16_t>
    ys, xs = np.nonzero(strength >= THRESHOLD)
    return [(int(x) + 1, int(y) + 1, int(strength[y, x])) for y, x in zip(ys, xs, strict=True)]


def launch_sobel(
    input: np.ndarray, width: int, height: int
) -> tuple[list[tuple[int, int, int]], int]:
    pixels = width * height
    tiles_x = (width + WARP_SIZE - 1) // WARP_SIZE
    total_threads = tiles_x * height * WARP_SIZE
    input_byte_size = pixels * uint8_t.size
    list_byte_size = pixels * EDGE_PIXEL * uint16_t.size
    count_byte_size = uint32_t.size

    device_id = 0
    acl.init(None)
    acl.rt.set_device(device_id)
    stream, _ = acl.rt.create_stream()

    list_host, _ = acl.rt.malloc_host(list_byte_size)
    input_device, _ = acl.rt.malloc(input_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    list_device, _ = acl.rt.malloc(list_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    count_device, _ = acl.rt.malloc(count_byte_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)

    acl.rt.memcpy(
        input_device, input_byte_size, input, input_byte_size, acl.ACL_MEMCPY_HOST_TO_DEVICE
    )
    acl.rt.memset(count_device, count_byte_size, 0, count_byte_size)

    threads_per_block = THREAD_COUNT
    blocks_per_grid = (total_threads + threads_per_block - 1) // threads_per_block

    sobel_edge_detect[blocks_per_grid, threads_per_block, 0, stream](
        list_device.cast(uint16_t),
        count_device.cast(uint32_t),
        input_device,
        int32_t(width),
        int32_t(height),
    )
    acl.rt.synchronize_stream(stream)

    count_host = np.zeros(1, np.uint32)
    acl.rt.memcpy(
        count_host, count_byte_size, count_device, count_byte_size, acl.ACL_MEMCPY_DEVICE_TO_HOST
    )
    edge_count = int(count_host[0])
    if edge_count > 0:
        nbytes = edge_count * EDGE_PIXEL * uint16_t.size
        acl.rt.memcpy(list_host, nbytes, list_device, nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST)

    entries = list_host.view(np.uint16)[: edge_count * EDGE_PIXEL].reshape(-1, EDGE_PIXEL)
    result = [(int(x), int(y), int(s)) for x, y, s in entries]

    acl.rt.free(input_device)
    acl.rt.free(list_device)
    acl.rt.free(count_device)
    acl.rt.free_host(list_host)

    err = acl.get_recent_err_msg()
    if err:
        print(err, file=sys.stderr)

    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return result, edge_count


def edge_pixel_key(pixel: tuple[int, int, int]) -> tuple[int, int, int]:
    """``edge_pixel_less``: by y, then x, then strength."""
    x, y, strength = pixel
    return (y, x, strength)


def verify_result(
    edge_list: list[tuple[int, int, int]], edge_count: int, golden: list[tuple[int, int, int]]
) -> bool:
    if edge_count != len(golden):
        return False
    actual = sorted(edge_list[:edge_count], key=edge_pixel_key)
    expected = sorted(golden, key=edge_pixel_key)
    return actual == expected


def fill_input(width: int, height: int) -> np.ndarray:
    y, x = np.mgrid[0:height, 0:width]
    return ((x * 3 + y * 5 + (x ^ y) // 8) & 255).astype(np.uint8).reshape(-1)


def test_sobel_edge_list_matches_the_reference() -> None:
    width, height = IMAGE_WIDTH, IMAGE_HEIGHT
    input = fill_input(width, height)
    golden = sobel_ref(input, width, height)
    assert golden  # the threshold keeps some edges
    edge_list, edge_count = launch_sobel(input, width, height)
    assert verify_result(edge_list, edge_count, golden)
    moved = [(x, y, s + 1) for x, y, s in edge_list]
    assert not verify_result(moved, edge_count, golden)  # the check fails on a wrong strength
    assert not verify_result(edge_list[1:], edge_count - 1, golden)  # and on a lost edge
