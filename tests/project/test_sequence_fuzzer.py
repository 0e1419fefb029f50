"""A sequence fuzzer: random programs of register, mask and UB ops checked step by step.

A hypothesis ``RuleBasedStateMachine`` keeps a model of four vector registers, four mask
registers and a 1 KiB UB region as plain bit lists and bytes, runs a random sequence of
``LoadAlign`` / ``StoreAlign``, binary arithmetic and logic, ``Not``, ``Compare``, ``Select``,
``ShiftRights`` / ``ShiftLefts`` and the mask ``And`` / ``Or`` / ``Xor`` / ``Not`` ops on
the emulator, and after every step compares the emulator's state with the scalar references of
``tests/reference`` (written from the spec, not from the vectorised core). Each sequence picks
one element type (single-register layout); operands, masks and UB data are random with boundary
values mixed in, so a later op consumes what an earlier one produced (NaNs, signed zeros,
masked-off zeros, stored lanes).

Short and derandomised under CI (the ``ci`` profile); ``HYPOTHESIS_PROFILE=thorough`` runs many
more and longer sequences. ``FUZZER_STATS`` counts the sequences and steps run.
"""

from __future__ import annotations

import os
from typing import Any

import hypothesis.strategies as st
import numpy as np
from hypothesis import settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ascreg import CMPMODE, Reg, UnifiedBuffer, bool_, int16_t, uint8_t
from ascreg._dtypes import Kind
from ascreg._spec import SPECS
from reference.arith import binary, bit_not
from reference.common import elements, mask_stride, zeroing
from reference.compare import compare, select
from reference.datamove import store_norm
from reference.masks import lanes_to_mask, mask_op, mask_to_lanes
from reference.shifts import shift_left, shift_right
from strategies import (
    assert_same_lanes,
    lane_bits,
    make_mask,
    make_reg,
    mask_bits,
    mask_list,
    reg_bits,
)

REGS = 4
MASKS = 4
BLOCKS = 4
VL = 256
UB_SIZE = BLOCKS * VL
BINARY_OPS = ("Add", "Sub", "Mul", "Max", "Min", "And", "Or", "Xor")
DTYPES = sorted(
    {d for (d,) in SPECS["Reg.Add"].combos} | {d for (d,) in SPECS["Reg.And"].combos},
    key=lambda d: d.cpp_name,
)
DTYPES = [d for d in DTYPES if d is not bool_]
"""Every element type of the binary rows (one register each, the TraitOne layout)."""
FUZZER_STATS = {"sequences": 0, "steps": 0}


def _legal(row: str, dtype: Any) -> bool:
    return any(combo[0] is dtype for combo in SPECS[row].combos)


class RegisterSequences(RuleBasedStateMachine):
    """Model and emulator side by side; every rule runs one op on both and compares."""

    def __init__(self) -> None:
        super().__init__()
        self.dtype: Any = uint8_t
        FUZZER_STATS["sequences"] += 1

    @initialize(dtype=st.sampled_from(DTYPES), data=st.data())
    def start(self, dtype: Any, data: Any) -> None:
        self.dtype = dtype
        self.lanes = VL // dtype.size
        self.stride = mask_stride(dtype)
        self.model = [data.draw(lane_bits(dtype, self.lanes)) for _ in range(REGS)]
        self.regs = [make_reg(dtype, bits) for bits in self.model]
        self.mask_model = [data.draw(mask_bits()) for _ in range(MASKS)]
        self.masks = [make_mask(bits) for bits in self.mask_model]
        raw = data.draw(st.binary(min_size=UB_SIZE, max_size=UB_SIZE))
        self.ub_model = bytearray(raw)
        self.ub = UnifiedBuffer().alloc(uint8_t, UB_SIZE)
        self.ub.write(np.frombuffer(raw, np.uint8))
        self.base = self.ub.cast(dtype)
        self.ops = [op for op in BINARY_OPS if _legal(f"Reg.{op}", dtype)]

    def _step(self) -> None:
        FUZZER_STATS["steps"] += 1

    def _active(self, m: int) -> list[bool]:
        return mask_to_lanes(self.mask_model[m], self.lanes, self.stride)

    def _check_reg(self, r: int) -> None:
        assert_same_lanes(reg_bits(self.regs[r]), self.model[r], self.dtype)
        self.model[r] = reg_bits(self.regs[r])  # NaN payloads: carry the emulator's on

    # -- memory -----------------------------------------------------------------------------

    @rule(r=st.integers(0, REGS - 1), block=st.integers(0, BLOCKS - 1))
    def load(self, r: int, block: int) -> None:
        self._step()
        Reg.LoadAlign(self.regs[r], self.base + block * self.lanes)
        self.model[r] = elements(self.ub_model, block * VL, self.lanes, self.dtype.size)
        self._check_reg(r)

    @rule(r=st.integers(0, REGS - 1), block=st.integers(0, BLOCKS - 1), m=st.integers(0, 3))
    def store(self, r: int, block: int, m: int) -> None:
        self._step()
        Reg.StoreAlign(self.base + block * self.lanes, self.regs[r], self.masks[m])
        store_norm(self.ub_model, block * VL, self.model[r], self._active(m), self.dtype.size)
        assert bytes(self.ub.read(UB_SIZE)) == bytes(self.ub_model)

    # -- arithmetic, logic, compare, select, shifts -------------------------------------------

    @rule(
        op=st.integers(0, len(BINARY_OPS) - 1),
        dst=st.integers(0, REGS - 1),
        a=st.integers(0, REGS - 1),
        b=st.integers(0, REGS - 1),
        m=st.integers(0, MASKS - 1),
    )
    def binary_op(self, op: int, dst: int, a: int, b: int, m: int) -> None:
        name = self.ops[op % len(self.ops)]
        self._step()
        getattr(Reg, name)(self.regs[dst], self.regs[a], self.regs[b], self.masks[m])
        lanes = [
            binary(name, self.dtype, x, y)
            for x, y in zip(self.model[a], self.model[b], strict=True)
        ]
        self.model[dst] = zeroing(lanes, self._active(m))
        self._check_reg(dst)

    @precondition(lambda self: _legal("Reg.Not", self.dtype))
    @rule(dst=st.integers(0, REGS - 1), a=st.integers(0, REGS - 1), m=st.integers(0, 3))
    def not_op(self, dst: int, a: int, m: int) -> None:
        self._step()
        Reg.Not(self.regs[dst], self.regs[a], self.masks[m])
        lanes = [bit_not(x, self.dtype) for x in self.model[a]]
        self.model[dst] = zeroing(lanes, self._active(m))
        self._check_reg(dst)

    @precondition(lambda self: _legal("Reg.Compare", self.dtype))
    @rule(
        mode=st.sampled_from(list(CMPMODE)),
        dst=st.integers(0, MASKS - 1),
        a=st.integers(0, REGS - 1),
        b=st.integers(0, REGS - 1),
        m=st.integers(0, MASKS - 1),
    )
    def compare_op(self, mode: Any, dst: int, a: int, b: int, m: int) -> None:
        self._step()
        Reg.Compare[self.dtype, mode](self.masks[dst], self.regs[a], self.regs[b], self.masks[m])
        lanes = compare(mode.name, self.dtype, self.model[a], self.model[b], self._active(m))
        self.mask_model[dst] = lanes_to_mask(lanes, self.stride)
        assert mask_list(self.masks[dst]) == self.mask_model[dst]

    @precondition(lambda self: _legal("Reg.Select", self.dtype))
    @rule(
        dst=st.integers(0, REGS - 1),
        a=st.integers(0, REGS - 1),
        b=st.integers(0, REGS - 1),
        m=st.integers(0, MASKS - 1),
    )
    def select_op(self, dst: int, a: int, b: int, m: int) -> None:
        self._step()
        Reg.Select(self.regs[dst], self.regs[a], self.regs[b], self.masks[m])
        self.model[dst] = select(self.model[a], self.model[b], self._active(m))
        self._check_reg(dst)

    @precondition(lambda self: _legal("Reg.ShiftRights", self.dtype))
    @rule(
        left=st.booleans(),
        dst=st.integers(0, REGS - 1),
        a=st.integers(0, REGS - 1),
        count=st.integers(0, 70),
        m=st.integers(0, MASKS - 1),
    )
    def shift_op(self, left: bool, dst: int, a: int, count: int, m: int) -> None:
        self._step()
        op = Reg.ShiftLefts if left else Reg.ShiftRights
        op(self.regs[dst], self.regs[a], int16_t.np_dtype.type(count), self.masks[m])
        shift = shift_left if left else shift_right
        lanes = [shift(x, count, self.dtype) for x in self.model[a]]
        self.model[dst] = zeroing(lanes, self._active(m))
        self._check_reg(dst)

    # -- mask ops -------------------------------------------------------------------------------

    @rule(
        op=st.sampled_from(["And", "Or", "Xor", "Not"]),
        dst=st.integers(0, MASKS - 1),
        a=st.integers(0, MASKS - 1),
        b=st.integers(0, MASKS - 1),
        pred=st.integers(0, MASKS - 1),
    )
    def mask_logic(self, op: str, dst: int, a: int, b: int, pred: int) -> None:
        self._step()
        masks, model = self.masks, self.mask_model
        if op == "Not":
            Reg.Not(masks[dst], masks[a], masks[pred])
            model[dst] = mask_op(op, model[a], None, model[pred])
        else:
            getattr(Reg, op)(masks[dst], masks[a], masks[b], masks[pred])
            model[dst] = mask_op(op, model[a], model[b], model[pred])
        assert mask_list(masks[dst]) == model[dst]

    @invariant()
    def registers_match(self) -> None:
        if self.dtype.kind is Kind.FLOAT or not hasattr(self, "regs"):
            return  # float registers were compared NaN-tolerantly by the rule that wrote them
        assert [reg_bits(r) for r in self.regs] == self.model


DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
RegisterSequences.TestCase.settings = settings(
    settings(),
    max_examples=settings().max_examples if DEEP else 150,
    stateful_step_count=100 if DEEP else 30,
)
test_register_sequences = RegisterSequences.TestCase
