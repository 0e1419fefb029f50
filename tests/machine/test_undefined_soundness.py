"""Soundness of the undefined-lane tracking: a lane loaded past an allocation never leaks silently.

A whole-register load that runs past the end of its UB allocation reads the bytes there and
marks those lanes undefined (``ascreg.machine.undefined``; docs/semantics.md, "Tail
over-read"); using one in an active lane of a store, a reduction or a scalar read is an
``UndefinedLaneError``. An op that builds its result in a fresh plain array (``out =
np.empty(...); out[...] = lanes``, a table indexed by the lanes, ...) drops the mask, and the
garbage then reaches UB with no error. This property test looks for such leaks in every row.

For every Reg and C API row, one generated call form per operand dtype combination
(:func:`cases`) is wrapped by ``tests/vf_rows.py`` in a VF that loads each register operand from
UB, makes the call and stores every register and mask operand back. One buffer the call reads is
allocated short, followed directly by a garbage buffer, so one load runs past its end:

* a register operand's input buffer: the last iteration's load keeps 32 bytes of its own (the
  rest of the register is undefined), or all but its last 96 bytes;
* a UB pointer operand of a non-storing row (the loads, gathers ...): 32 or 128 bytes of it
  are kept (128 keeps the start of every ``AddrReg`` iteration, 32 bytes apart, inside it).

The VF runs twice with different garbage, everything else equal (data seeded by the call's
text, so every run of the test is the same). Sound: a run raises ``UndefinedLaneError``, or
both complete and every byte of every buffer the VF sees is the same in both. A run that
raises another error is skipped: it says whether the program raises without the over-read too
(a precondition of the generated program) or only with it (a load that is not a whole-register
``LoadAlign``, e.g. ``Reg.Load`` / ``asc_load``, which stays an ``OutOfBoundsError``).

The known leaks are :data:`LEAKS` (strict xfails: fixing one turns its xfail into a failure
until it is removed there); any other case that leaks fails. It found two, both fixed: the half
forms of Sqrt/Exp/Ln/Log* (a table indexed by the lanes) and Interleave (lanes written into a
fresh array).
"""

from __future__ import annotations

import functools
import re
import warnings
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import ascreg
import vf_rows
from ascreg import UnifiedBuffer, uint8_t
from ascreg.errors import UndefinedLaneError

REGISTER = re.compile(r"^(r2|r|v)_")
POINTER = re.compile(r"^(p|pr)_")
STORING = re.compile(r"store|scatter", re.IGNORECASE)
"""Rows whose pointer operand is written: a short allocation there is an out-of-bounds store."""
GARBAGE = 512
"""Bytes of the garbage buffer after the short one (a dual load reads 512 bytes)."""


@dataclass(frozen=True)
class Case:
    """One generated call with one of its buffers allocated *short* bytes short."""

    call: vf_rows.RowCall
    target: str
    """The VF parameter (buffer) allocated short."""
    short: int

    @property
    def id(self) -> str:
        return f"{self.call.text} [{self.target} -{self.short}B]"


def _dtypes(call: vf_rows.RowCall) -> tuple[str, ...]:
    names = (n for n in call.names if REGISTER.match(n) or POINTER.match(n))
    return tuple(sorted({n.split("_", 1)[1] for n in names}))


def targets(call: vf_rows.RowCall) -> list[tuple[str, int]]:
    """The buffers of *call*'s VF to allocate short, and by how many bytes (module docstring)."""
    buffers = vf_rows.program(call).buffers
    found: list[tuple[str, int]] = []
    for name in call.names:
        if REGISTER.match(name):
            dtype, count = buffers[f"in_{name}"]
            load = count * dtype.size // vf_rows.ITERATIONS  # bytes of one iteration's load
            found += [(f"in_{name}", load - 32), (f"in_{name}", 96)]
        elif POINTER.match(name) and not STORING.search(call.row):
            param = f"p_{name.split('_', 1)[1]}"
            dtype, count = buffers[param]
            size = max(count, 256) * dtype.size
            if "ar" not in call.names:  # (an AddrReg load starts 32 bytes further each time)
                found.append((param, size - 32))
            found.append((param, size - 128))
    return list(dict.fromkeys(found))


def cases() -> list[Case]:
    """One call per row and operand dtype combination (the first generated), with its targets."""
    chosen: dict[tuple[str, tuple[str, ...]], vf_rows.RowCall] = {}
    for row, calls in vf_rows.row_calls().items():
        for call in calls:
            chosen.setdefault((row, _dtypes(call)), call)
    return [Case(call, *target) for call in chosen.values() for target in targets(call)]


CASES = cases()


# -- the known leaks -------------------------------------------------------------------------------

LEAKS: dict[str, tuple[str, str]] = {}
"""Row -> (a pattern of the call texts that leak, why): the cases marked as expected to fail."""


def known_leak(case: Case) -> str | None:
    found = LEAKS.get(case.call.row)
    if found is None or not re.search(found[0], case.call.text):
        return None
    return found[1]


def _param(case: Case) -> Any:
    reason = known_leak(case)
    marks = [] if reason is None else [pytest.mark.xfail(strict=True, reason=reason)]
    return pytest.param(case, id=case.id, marks=marks)


# -- running one case ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def compiled(call: vf_rows.RowCall) -> tuple[vf_rows.Program, Any]:
    program = vf_rows.program(call)
    return program, vf_rows.compile_vf(program)


def run(
    case: Case | None, call: vf_rows.RowCall, garbage: int, **policy: Any
) -> tuple[dict[str, bytes], Exception | None]:
    """Run *call*'s VF (*case*'s target short, or none) with garbage number *garbage* after it.

    Returns every VF buffer's bytes and the error raised (None: none).
    """
    program, vf = compiled(call)
    seed = zlib.crc32(call.text.encode())
    rng = np.random.default_rng(seed)
    ub = UnifiedBuffer()
    pointers = {}
    for name, (dtype, count) in program.buffers.items():
        nbytes = max(count, 256) * dtype.size
        short = case is not None and name == case.target
        if short:
            nbytes -= case.short  # type: ignore[union-attr]
        pointer = ub.alloc_bytes(dtype, nbytes)
        pointer.cast(uint8_t).write(rng.integers(0, 256, nbytes, dtype=np.uint8))
        pointers[name] = pointer
        if short:  # right after it (its end is 32-byte aligned): what the last load reads
            noise = np.random.default_rng([seed, garbage]).integers(0, 256, GARBAGE, np.uint8)
            ub.alloc(uint8_t, GARBAGE).write(noise)
    error: Exception | None = None
    try:
        with warnings.catch_warnings(), ascreg.policy(**policy):
            warnings.simplefilter("ignore")  # (numpy's overflow warnings on random data)
            vf(*pointers.values())
    except Exception as exc:  # (classified by the caller)
        error = exc
    return {
        name: p.cast(uint8_t).read(vf_rows.pointer_bytes(p)).tobytes()
        for name, p in pointers.items()
    }, error


def check(case: Case, **policy: Any) -> list[str]:
    """Run *case* with two garbages; return the buffers that differ (skip on another error)."""
    first, error = run(case, case.call, 1, **policy)
    if error is None:
        second, error = run(case, case.call, 2, **policy)
    if isinstance(error, UndefinedLaneError):
        return []  # sound: the undefined lanes were caught
    if error is not None:
        _, baseline = run(None, case.call, 1, **policy)
        if baseline is not None and type(baseline) is type(error):
            pytest.skip(f"precondition: the program raises {type(error).__name__} anyway")
        pytest.skip(f"{case.call.row}: raises {type(error).__name__} only when over-reading")
    return [name for name in first if first[name] != second[name]]


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_an_overread_lane_never_reaches_ub_silently(case: Case) -> None:
    differ = check(case)
    assert not differ, (
        f"{case.id}: no UndefinedLaneError, yet {', '.join(differ)} depend on the bytes past "
        f"the allocation of {case.target}:\n{compiled(case.call)[0].source}"
    )


# -- the harness itself ----------------------------------------------------------------------------


def _case(text: str, short: int | None = None) -> Case:
    found = [c for c in CASES if c.call.text == text and short in (None, c.short)]
    assert found, text
    return found[0]


def test_the_cases_cover_every_row_with_a_register_operand() -> None:
    rows = {c.call.row for c in CASES}
    expected = {
        row
        for row, calls in vf_rows.row_calls().items()
        if any(REGISTER.match(name) for call in calls for name in call.names)
    }
    assert expected <= rows
    assert len(rows) > 500


def test_the_short_allocation_makes_the_stored_lanes_undefined() -> None:
    case = _case("Reg.Add(r_float32_t, r_float32_t, r_float32_t, m)", 96)
    _, error = run(case, case.call, 1)
    assert isinstance(error, UndefinedLaneError)
    _, error = run(None, case.call, 1)
    assert error is None


def test_a_leak_is_seen() -> None:
    """Under ``undefined="warn"`` the garbage is stored (with a warning): the check sees it."""
    case = _case("Reg.Add(r_float32_t, r_float32_t, r_float32_t, m)", 96)
    assert check(case, undefined="warn") == ["out_r_float32_t"]
    assert check(case) == []
