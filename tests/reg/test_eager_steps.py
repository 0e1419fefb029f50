"""Eager steps: the second eager call of a validated form skips the front end's layers.

For every op with lane steps (``ascreg.engine.steps.EAGER``), a call made through the step
must give what the same call through the implementation gives: the same registers, masks, UB
bytes and ``Ref`` values, and for bad operands (an unwritten register or mask, a misaligned or
foreign pointer, a negative shift count) the same error with the same message. Each case runs
the call twice with the op's step cache cleared (the implementation) and twice with it filled
(the step), on fresh identical state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ascreg
from ascreg import CMPMODE, Ref, Reg, UnifiedBuffer, int16_t, uint16_t, uint32_t
from ascreg.c_api import (
    asc_gt,
    asc_loadalign,
    asc_select,
    asc_shiftright,
    asc_storealign,
    asc_update_mask_b16,
    vector_bool,
    vector_int16_t,
    vector_uint16_t,
)
from ascreg.engine import steps

Case = Callable[[UnifiedBuffer], Any]


def state(ub: UnifiedBuffer, c_api: bool, *, counts: Any = None) -> dict[str, Any]:
    """Registers, masks and pointers of one case (fresh and identical every time)."""
    reg = vector_uint16_t if c_api else Reg.RegTensor[uint16_t]
    shifts = vector_int16_t if c_api else Reg.RegTensor[int16_t]
    mask = vector_bool if c_api else Reg.MaskReg
    src, dst = ub.alloc(uint16_t, 512), ub.alloc(uint16_t, 512)
    src.write(np.arange(512) * 37 % 65536)
    dst.write(np.full(512, 9))
    a, b, out, s = reg(), reg(), reg(), shifts()
    a.set(np.arange(128) * 3)
    b.set(np.arange(128)[::-1].copy())
    s.set(np.arange(128) % 19 if counts is None else counts)
    full = asc_update_mask_b16(Ref(100)) if c_api else Reg.UpdateMask[uint16_t](Ref(100))
    return {"a": a, "b": b, "out": out, "s": s, "full": full, "gt": mask(), "unset": mask(),
            "fresh": reg(), "src": src, "dst": dst}  # fmt: skip


def _ops(c_api: bool) -> dict[str, Any]:
    if c_api:
        return {
            "load": asc_loadalign, "store": asc_storealign, "mask": asc_update_mask_b16,
            "compare": asc_gt, "select": asc_select, "shift": asc_shiftright,
        }  # fmt: skip
    return {
        "load": Reg.LoadAlign, "store": Reg.StoreAlign, "mask": Reg.UpdateMask[uint16_t],
        "compare": Reg.Compare[uint16_t, CMPMODE.GT], "select": Reg.Select,
        "shift": Reg.ShiftRight,
    }  # fmt: skip


CALLS: dict[str, Callable[[dict[str, Any], dict[str, Any]], Any]] = {
    "load": lambda o, v: o["load"](v["out"], v["src"] + 128),
    "load misaligned": lambda o, v: o["load"](v["out"], v["src"] + 3),
    "load other type": lambda o, v: o["load"](v["out"], v["src"].cast(uint32_t)),
    "load out of bounds": lambda o, v: o["load"](v["out"], v["src"] + 512),
    "load past the end": lambda o, v: o["load"](v["out"], v["src"] + 448),  # tail: undefined
    "store": lambda o, v: o["store"](v["dst"] + 128, v["a"], v["full"]),
    "store unwritten": lambda o, v: o["store"](v["dst"], v["fresh"], v["full"]),
    "store unset mask": lambda o, v: o["store"](v["dst"], v["a"], v["unset"]),
    "store misaligned": lambda o, v: o["store"](v["dst"] + 1, v["a"], v["full"]),
    "mask": lambda o, v: o["mask"](Ref(300)),
    "mask tail": lambda o, v: o["mask"](Ref(7)),
    "mask too big": lambda o, v: o["mask"](Ref(1 << 33)),
    "mask numpy count": lambda o, v: o["mask"](Ref(np.uint32(40))),
    "compare": lambda o, v: o["compare"](v["gt"], v["a"], v["b"], v["full"]),
    "compare unwritten": lambda o, v: o["compare"](v["gt"], v["fresh"], v["b"], v["full"]),
    "compare unset mask": lambda o, v: o["compare"](v["gt"], v["a"], v["b"], v["unset"]),
    "select": lambda o, v: o["select"](v["out"], v["a"], v["b"], v["full"]),
    "select unwritten": lambda o, v: o["select"](v["out"], v["a"], v["fresh"], v["full"]),
    "shift": lambda o, v: o["shift"](v["out"], v["a"], v["s"], v["full"]),
    "shift unset mask": lambda o, v: o["shift"](v["out"], v["a"], v["s"], v["unset"]),
}
"""Each case: the first line of its group is the good call that makes the step."""
FINE = {"load", "store", "mask", "mask tail", "mask numpy count", "compare", "select", "shift",
        "load past the end"}  # fmt: skip
"""The cases that succeed (the others raise)."""


def outcome(c_api: bool, case: str, *, stepped: bool, counts: Any = None) -> Any:
    """Run *case* (after its group's good call, which makes the step) on fresh state."""
    ops = _ops(c_api)
    good = CALLS[case.split()[0]]
    _clear(ops)
    ub = UnifiedBuffer()
    values = state(ub, c_api, counts=counts)
    if stepped:
        good(ops, state(UnifiedBuffer(), c_api))  # validates the form and makes its step
    try:
        result = CALLS[case](ops, values)
        error = ""
    except ascreg.errors.AscregError as exc:
        result, error = None, f"{type(exc).__name__}: {exc}"
    registers = [
        np.asarray(v).tolist() for k, v in values.items() if k in ("out", "gt") and v.written
    ]
    return ub.data.tobytes(), registers, _value(result), error


def _value(result: Any) -> Any:
    return None if result is None else np.asarray(result).tolist()


def _steps_of(op: Any) -> dict[Any, Any]:
    """Return the eager step cache of a Reg op or a C API function."""
    found: dict[Any, Any] | None = getattr(op, "_eager_steps", None)
    return op.__globals__["steps"] if found is None else found  # a C function's forwarder


def _clear(ops: dict[str, Any]) -> None:
    for op in ops.values():
        _steps_of(op).clear()


@pytest.mark.parametrize("c_api", [False, True], ids=["Reg", "C API"])
@pytest.mark.parametrize("case", list(CALLS))
def test_a_step_gives_what_the_implementation_gives(case: str, c_api: bool) -> None:
    direct = outcome(c_api, case, stepped=False)
    stepped = outcome(c_api, case, stepped=True)
    assert stepped == direct
    assert bool(stepped[3]) == (case not in FINE), stepped[3]  # the bad calls fail


@pytest.mark.parametrize("c_api", [False, True], ids=["Reg", "C API"])
def test_a_negative_shift_count_is_the_same_error(c_api: bool) -> None:
    counts = np.where(np.arange(128) == 5, -2, 1)
    direct = outcome(c_api, "shift", stepped=False, counts=counts)
    stepped = outcome(c_api, "shift", stepped=True, counts=counts)
    assert stepped == direct and "NegativeShiftError" in stepped[3]


@pytest.mark.parametrize("c_api", [False, True], ids=["Reg", "C API"])
def test_the_second_call_of_a_form_takes_its_step(c_api: bool) -> None:
    ops = _ops(c_api)
    for name, op in ops.items():
        cache = _steps_of(op)
        cache.clear()
        values = state(UnifiedBuffer(), c_api)
        CALLS[name](ops, values)
        made = list(cache.values())
        assert made and made[0].__qualname__.startswith(f"_{_kind(name)}_lanes"), name


def _kind(name: str) -> str:
    return {"mask": "update_mask"}.get(name, name)


def test_every_op_with_row_steps_has_lane_steps() -> None:
    assert set(steps.EAGER) == set(steps.MAKERS)
