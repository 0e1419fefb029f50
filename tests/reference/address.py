"""The generic address model of ``ascreg.core.address``, one Python int at a time."""

from __future__ import annotations

UB, LOCAL, GLOBAL = 0x80000, 0x100000, 0x200000
MASK64, MASK32 = 2**64 - 1, 2**32 - 1


def ref_space(generic: int) -> str | None:
    """The space a generic address is in: ``"ubuf"``, ``"local"``, ``"global"`` or None."""
    if generic >= GLOBAL:
        return "global"
    if generic >= LOCAL:
        return "local"
    return "ubuf" if generic >= UB else None


def ref_to_generic(space: str, raw: int) -> int:
    return (raw + {"global": 0, "ubuf": UB, "local": LOCAL}[space]) & MASK64


def ref_from_generic(space: str, generic: int) -> int:
    if space == "global":
        return generic
    return (generic - (UB if space == "ubuf" else LOCAL)) & MASK32


def addr_reg_bytes(pairs: list[tuple[int, int]], element_size: int) -> int:
    """Bytes an ``AddrReg`` moves its consumer's address by (the AddrReg page).

    ``CreateAddrReg<T>(i0, s0, ...)`` holds ``sum(i_k * s_k)`` with the strides "in elements"
    of ``T``; the consumers access ``base + offset`` elements, ``offset * sizeof(T)`` bytes.
    ``asc_update_addr_reg_b8/_b16/_b32`` count units of 1, 2, 4 bytes the same way.
    """
    return sum(index * stride for index, stride in pairs) * element_size
