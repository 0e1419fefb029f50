"""Hand-written type tests: every marked line must be rejected by mypy and pyright (never run).

Each bad call carries `# type: ignore[<code>]` (mypy, warn_unused_ignores) and `# pyright: ignore`
(reportUnnecessaryTypeIgnoreComment), so a call that stops being rejected fails the run.
"""

from ascreg import (
    CMPMODE,
    GlobalMemory,
    MaskMergeMode,
    MaskPattern,
    PostLiteral,
    Ref,
    Reg,
    RegTraitNumTwo,
    UnifiedBuffer,
    float32_t,
    half,
    int16_t,
    int64_t,
    uint16_t,
)


def main() -> None:
    ub, gm = UnifiedBuffer(), GlobalMemory()
    u16 = Reg.RegTensor[uint16_t]()
    f32, h = Reg.RegTensor[float32_t](), Reg.RegTensor[half]()
    m = Reg.CreateMask[uint16_t]()
    p16 = ub.alloc(uint16_t, 128)

    # The five examples.
    Reg.ShiftRight(u16, u16, u16, m)  # type: ignore[arg-type]  # pyright: ignore
    Reg.Select(f32, f32, h, m)  # type: ignore[arg-type]  # pyright: ignore
    Reg.Compare[half, CMPMODE.EQ](m, f32, f32, m)  # type: ignore[arg-type]  # pyright: ignore
    Reg.StoreAlign(p16, f32, m)  # type: ignore[arg-type]  # pyright: ignore
    Reg.UpdateMask[uint16_t](128)  # type: ignore[arg-type]  # pyright: ignore

    # Templates C++ cannot deduce, and template arguments in the wrong place.
    Reg.CreateMask()  # type: ignore[operator]  # pyright: ignore
    Reg.UpdateMask(Ref(128))  # type: ignore[operator]  # pyright: ignore
    Reg.CreateMask[uint16_t, RegTraitNumTwo]  # type: ignore[index]  # pyright: ignore
    Reg.CreateMask[uint16_t, MaskPattern.ALL, RegTraitNumTwo]  # type: ignore[index]  # pyright: ignore
    Reg.Compare[CMPMODE.EQ, half]  # type: ignore[index]  # pyright: ignore
    Reg.Muls[half, MaskMergeMode.ZEROING]  # type: ignore[index]  # pyright: ignore

    # Ref and pointers.
    Reg.LoadAlign[uint16_t, PostLiteral.POST_MODE_UPDATE](u16, p16, 128)  # type: ignore[call-overload]  # pyright: ignore
    Reg.LoadAlign(u16, Ref(p16))  # type: ignore[call-overload]  # pyright: ignore
    Reg.LoadAlign(u16, gm.alloc(uint16_t, 128))  # type: ignore[call-overload]  # pyright: ignore
    Reg.LoadAlign(u16, p16.cast(int16_t))  # type: ignore[arg-type]  # pyright: ignore
    Reg.UpdateMask[uint16_t](Ref(1.5))  # type: ignore[arg-type]  # pyright: ignore

    # RegTraitNumTwo: only for 64-bit registers, and never mixed with RegTraitNumOne.
    a2, a1 = Reg.RegTensor[int64_t, RegTraitNumTwo](), Reg.RegTensor[int64_t]()
    Reg.Add(a2, a2, a1, m)  # type: ignore[arg-type]  # pyright: ignore
    Reg.LoadAlign(a2, a2, ub.alloc(int64_t, 128))  # type: ignore[arg-type]  # pyright: ignore

    # Scalars of the wrong kind.
    Reg.Duplicate(u16, 1.5)  # type: ignore[arg-type]  # pyright: ignore
    Reg.ShiftRights(u16, u16, 1.0, m)  # type: ignore[call-overload]  # pyright: ignore
