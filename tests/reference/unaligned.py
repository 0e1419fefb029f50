"""The unaligned load / store streams (spec §3.7): what UB holds after a store stream."""

from __future__ import annotations

from reference.datamove import DATA_BLOCK


def unaligned_store_visible(
    original: bytes, stream_start: int, written: bytes, flushed: bool
) -> bytes:
    """UB after a contiguous StoreUnAlign stream that wrote *written* from *stream_start*.

    Before ``StoreUnAlignPost`` only the bytes up to the last 32-byte boundary at or before the
    stream's end are in UB (the rest wait in the register); after it, all of them are.
    """
    end = stream_start + len(written)
    visible_end = end if flushed else max(end - end % DATA_BLOCK, stream_start)
    out = bytearray(original)
    out[stream_start:visible_end] = written[: visible_end - stream_start]
    return bytes(out)


def squeezed_bytes(src: list[int], mask: list[int], size: int) -> bytes:
    """The bytes ``Squeeze<T, STORE_REG>`` keeps (lanes whose mask bit ``i * size`` is 1, in order).

    The AR form of ``StoreUnAlign`` that follows writes exactly these bytes, after the bytes of
    the earlier squeezes of the stream.
    """
    kept = [value for i, value in enumerate(src) if mask[i * size]]
    return b"".join(value.to_bytes(size, "little") for value in kept)


def mask_store_bytes(mask: list[int], size: int) -> bytes:
    """The bytes a MaskReg ``StoreUnAlign`` streams for ``size``-byte elements.

    Element i's bit is mask bit ``i * size`` (the lowest of its ``size`` bits); bit i goes to
    bit ``i % 8`` of byte ``i // 8``: 16 bytes for b16, 8 for b32.
    """
    kept = mask[::size]
    return bytes(
        sum(kept[8 * byte + bit] << bit for bit in range(8)) for byte in range(len(kept) // 8)
    )
