"""Hand-written C API type tests: every marked line must be rejected by mypy and pyright (never run).

Each bad call carries `# type: ignore[<code>]` (mypy, warn_unused_ignores) and `# pyright: ignore`
(reportUnnecessaryTypeIgnoreComment), so a call that stops being rejected fails the run.
"""

from ascreg import GlobalMemory, UnifiedBuffer, bfloat16_t, float32_t, int16_t, uint16_t
from ascreg.c_api import (
    PAT_ALL,
    asc_create_mask_b16,
    asc_loadalign,
    asc_loadalign_postupdate,
    asc_ne,
    asc_shiftright,
    asc_storealign,
    asc_update_mask_b16,
    vector_bfloat16_t,
    vector_bool,
    vector_float,
    vector_int16_t,
    vector_uint16_t,
)


class my_vector(vector_uint16_t):  # type: ignore[misc]  # pyright: ignore
    """vector_* classes are final, as C's builtin vector types cannot be derived from."""


def wants_int16(reg: vector_int16_t) -> None:
    """The returning form's result is the source's vector type (vector_uint16_t here)."""


def main() -> None:
    ub, gm = UnifiedBuffer(), GlobalMemory()
    u16, s16, f32 = vector_uint16_t(), vector_int16_t(), vector_float()
    m = asc_create_mask_b16(PAT_ALL)
    p16 = ub.alloc(uint16_t, 128)

    # Shift counts are signed: (uint16_t, uint16_t) is not a combination, in either form.
    asc_shiftright(u16, u16, m)  # type: ignore[arg-type]  # pyright: ignore
    asc_shiftright(u16, u16, u16, m)  # type: ignore[arg-type]  # pyright: ignore
    wants_int16(asc_shiftright(u16, s16, m))  # type: ignore[arg-type]  # pyright: ignore
    asc_shiftright(u16, s16)  # type: ignore[call-overload]  # pyright: ignore

    # Vector asc_ne has no bfloat16_t (asc_ne_scalar has); compares write a vector_bool.
    bf = vector_bfloat16_t()
    asc_ne(vector_bool(), bf, bf, m)  # type: ignore[arg-type]  # pyright: ignore
    asc_ne(u16, u16, u16, m)  # type: ignore[call-overload]  # pyright: ignore

    # Pointers: the element type must match the register, UB only, Ref for post-update.
    asc_storealign(p16, f32, m)  # type: ignore[arg-type]  # pyright: ignore
    asc_loadalign(u16, gm.alloc(uint16_t, 128))  # type: ignore[call-overload]  # pyright: ignore
    asc_loadalign(u16, p16.cast(int16_t))  # type: ignore[arg-type]  # pyright: ignore
    asc_loadalign_postupdate(u16, p16, 128)  # type: ignore[call-overload]  # pyright: ignore
    asc_loadalign(vector_bool(), ub.alloc(float32_t, 64))  # type: ignore[arg-type]  # pyright: ignore
    asc_loadalign(u16, ub.alloc(bfloat16_t, 64))  # type: ignore[arg-type]  # pyright: ignore

    # Masks: uint32_t& needs a Ref; a pattern is a PAT_* constant, not a register.
    asc_update_mask_b16(128)  # type: ignore[arg-type]  # pyright: ignore
    asc_create_mask_b16(m)  # type: ignore[arg-type]  # pyright: ignore
    asc_shiftright(u16, s16, u16)  # type: ignore[call-overload]  # pyright: ignore
