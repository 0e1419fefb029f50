"""asc_bitsort / asc_mrgsort4 (memory-level region-proposal sorting) against the scalar
references of tests/reference/sort.py."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ascreg.c_api as C  # noqa: N812 (short alias for the C namespace)
from ascreg import float32_t, half, int32_t, uint32_t
from ascreg.errors import AlignmentError, AscregTypeError, IllegalDtypeError, SyncError
from ascreg.machine.kernel import BlockContext, block
from reference.sort import merge4, sort32

SCORE_TYPES = [half, float32_t]
# Few distinct scores, so ties (and +-0.0, NaN) are common.
SCORE_POOL = [0.0, -0.0, 1.0, -1.0, 2.5, 1e-3, float("inf"), float("-inf"), float("nan")]


def score_lists(size: int) -> st.SearchStrategy[list[float]]:
    return st.lists(st.sampled_from(SCORE_POOL), min_size=size, max_size=size)


def record_image(scores: Any, indices: Any, dtype: Any) -> list[tuple[int, int]]:
    """(score bits, index word) of each record, the half score zero-extended (reserved = 0)."""
    bits = np.asarray(scores, dtype.np_dtype).view(np.uint16 if dtype is half else np.uint32)
    return [(int(b), int(i)) for b, i in zip(bits, indices, strict=True)]


def read_records(ptr: Any, count: int) -> list[tuple[int, int]]:
    words = ptr.cast(uint32_t).read(2 * count).reshape(-1, 2)
    return [(int(w[0]), int(w[1])) for w in words]


def as_records(scores: list[float], indices: list[int], dtype: Any) -> list[tuple[float, int]]:
    """The scores rounded to *dtype*, paired with their indices (the reference's records)."""
    rounded = np.asarray(scores, dtype.np_dtype).astype(np.float64).tolist()
    return list(zip(rounded, indices, strict=True))


@pytest.mark.rows("asc_bitsort", "asc_bitsort_sync")
@pytest.mark.parametrize("dtype", SCORE_TYPES, ids=str)
@pytest.mark.parametrize("name", ["asc_bitsort", "asc_bitsort_sync"])
@given(data=st.data(), repeat=st.integers(0, 3))
def test_bitsort_matches_the_reference(dtype: Any, name: str, data: Any, repeat: int) -> None:
    count = 32 * repeat
    scores = data.draw(score_lists(count))
    indices = data.draw(st.lists(st.integers(0, 2**32 - 1), min_size=count, max_size=count))
    want = sort32(*zip(*as_records(scores, indices, dtype), strict=True)) if count else []
    with block(BlockContext()):
        dst = C.__ubuf__(dtype, 3 * 256 // dtype.size + 8)
        src0, src1 = C.__ubuf__(dtype, 96), C.__ubuf__(uint32_t, 96)
        dst.write(np.full(3 * 256 // dtype.size + 8, 7, dtype.np_dtype))
        src0.write(np.asarray(scores, dtype.np_dtype)), src1.write(np.asarray(indices, np.uint32))
        C.asc_sync()
        getattr(C, name)(dst, src0, src1, repeat)
        if name == "asc_bitsort":
            C.asc_sync_vec()
        got = read_records(dst, count)
        untouched = dst.offset_bytes(count * 8).read(4).tolist()
    assert got == record_image([s for s, _ in want], [i for _, i in want], dtype)
    assert untouched == [7, 7, 7, 7]


def queue_records(dtype: Any) -> st.SearchStrategy[list[tuple[float, int]]]:
    """One queue: sorted (as asc_bitsort leaves them) or not (the merge is still defined)."""
    records = st.lists(
        st.tuples(st.sampled_from(SCORE_POOL), st.integers(0, 2**32 - 1)), max_size=12
    )

    def shape(pairs: list[tuple[float, int]], ordered: bool) -> list[tuple[float, int]]:
        rounded = as_records([s for s, _ in pairs], [i for _, i in pairs], dtype)
        return sort32([s for s, _ in rounded], [i for _, i in rounded]) if ordered else rounded

    return st.builds(shape, records, st.booleans())


@pytest.mark.rows("asc_mrgsort4", "asc_mrgsort4_sync")
@pytest.mark.parametrize("dtype", SCORE_TYPES, ids=str)
@pytest.mark.parametrize("name", ["asc_mrgsort4", "asc_mrgsort4_sync"])
@given(data=st.data(), valid_bit=st.sampled_from([3, 7, 15]), stop=st.booleans())
def test_mrgsort4_matches_the_reference(
    dtype: Any, name: str, data: Any, valid_bit: int, stop: bool
) -> None:
    n = {3: 2, 7: 3, 15: 4}[valid_bit]
    queues = [data.draw(queue_records(dtype)) for _ in range(n)]
    want = merge4(queues, stop)
    lengths = [len(q) for q in queues] + [0] * (4 - n)
    with block(BlockContext()):
        dst = C.__ubuf__(dtype, 8 * 64 // dtype.size)
        sources = [C.__ubuf__(dtype, 8 * 16 // dtype.size) for _ in range(n)]
        for ptr, queue in zip(sources, queues, strict=True):
            words = np.asarray(record_image([s for s, _ in queue], [i for _, i in queue], dtype))
            ptr.cast(uint32_t).write(words.reshape(-1) if queue else np.zeros(2, np.uint32))
        C.asc_sync()
        src = [*sources, *[None] * (4 - n)]
        getattr(C, name)(dst, src, 1, *lengths, stop, valid_bit)
        if name == "asc_mrgsort4":
            C.asc_sync_vec()
        got = read_records(dst, len(want))
    assert got == record_image([s for s, _ in want], [i for _, i in want], dtype)


@pytest.mark.parametrize("dtype", SCORE_TYPES, ids=str)
def test_mrgsort4_repeats_over_back_to_back_queues(dtype: Any) -> None:
    """asc_mrgsort4.md's example: 8 queues of 32 (bitsorted), merged 4 at a time, twice."""
    rng = np.random.default_rng(5)
    scores = rng.integers(-50, 50, 256).astype(dtype.np_dtype)
    per = 32 * 8 // dtype.size  # elements of one 32-record queue
    with block(BlockContext()):
        src0, src1 = C.__ubuf__(dtype, 256), C.__ubuf__(uint32_t, 256)
        sorted_queues, tmp, dst = (C.__ubuf__(dtype, 8 * per) for _ in range(3))
        src0.write(scores), src1.write(np.arange(256))
        C.asc_sync()
        C.asc_bitsort(sorted_queues, src0, src1, 8)
        C.asc_mrgsort4(
            tmp, [sorted_queues + i * per for i in range(4)], 2, 32, 32, 32, 32, False, 15
        )
        C.asc_mrgsort4_sync(dst, [tmp, tmp + 4 * per, None, None], 1, 128, 128, 0, 0, False, 3)
        got = read_records(dst, 256)
    order = np.argsort(-scores.astype(np.float64), kind="stable")
    assert got == record_image(scores[order], order, dtype)


def test_sorts_check_operands_alignment_and_ordering() -> None:
    with block(BlockContext()):
        dst, src0 = C.__ubuf__(float32_t, 64), C.__ubuf__(float32_t, 32)
        src1 = C.__ubuf__(uint32_t, 32)
        src0.write(np.zeros(32, np.float32)), src1.write(np.zeros(32, np.uint32))
        with pytest.raises(SyncError):
            C.asc_bitsort(dst, src0, src1, 1)  # PIPE_V reads what PIPE_S wrote, unordered
        C.asc_sync()
        with pytest.raises(AlignmentError):
            C.asc_bitsort(dst + 1, src0, src1, 1)
        with pytest.raises(IllegalDtypeError, match="asc_bitsort: illegal dtypes"):
            C.asc_bitsort(C.__ubuf__(int32_t, 64), C.__ubuf__(int32_t, 32), src1, 1)
        with pytest.raises(AscregTypeError, match="one score type"):
            C.asc_bitsort(dst, C.__ubuf__(half, 32), src1, 1)
        with pytest.raises(AscregTypeError, match="repeat 256"):
            C.asc_bitsort(dst, src0, src1, 256)
        queues = [dst, dst + 16, dst + 32, dst + 48]
        with pytest.raises(AscregTypeError, match="valid_bit 5"):
            C.asc_mrgsort4(src0, queues, 1, 1, 1, 1, 1, False, 5)
        with pytest.raises(AscregTypeError, match="element_length_1 4096"):
            C.asc_mrgsort4(src0, queues, 1, 1, 4096, 1, 1, False, 15)
        with pytest.raises(AscregTypeError, match="holds 2 pointers"):
            C.asc_mrgsort4(src0, queues[:2], 1, 1, 1, 0, 0, False, 3)
        with pytest.raises(AscregTypeError, match="src\\[2\\] must be an UbPtr"):
            C.asc_mrgsort4(src0, [dst, dst, None, None], 1, 1, 1, 1, 0, False, 7)
        with pytest.raises(AscregTypeError, match="back to back"):
            C.asc_mrgsort4(src0, queues, 2, 4, 4, 4, 4, False, 15)
        with pytest.raises(AscregTypeError, match="repeat > 1 needs valid_bit 15"):
            C.asc_mrgsort4(src0, queues, 2, 8, 8, 8, 8, True, 15)
        with pytest.raises(AscregTypeError, match="if_exhausted_suspension must be a bool"):
            C.asc_mrgsort4(src0, queues, 1, 8, 8, 8, 8, 0, 15)
