"""Every row of the op table is complete: surface, family, shape and core are filled and resolve."""

from __future__ import annotations

import pytest

from ascreg._spec import (
    BASIC_NAMES,
    C_API_NAMES,
    SIMT_NAMES,
    SPECS,
    BasicShape,
    CShape,
    OpSpec,
    RegShape,
    SimtShape,
    family_rows,
)

SHAPE_OF_SURFACE = {"reg": RegShape, "c_api": CShape, "simt": SimtShape, "basic": BasicShape}


@pytest.mark.parametrize("row", SPECS.values(), ids=lambda row: row.name)
def test_core_resolves_to_a_callable(row: OpSpec) -> None:
    assert callable(row.core_function()), row.core


@pytest.mark.parametrize("row", SPECS.values(), ids=lambda row: row.name)
def test_shape_belongs_to_the_surface(row: OpSpec) -> None:
    assert isinstance(row.shape, SHAPE_OF_SURFACE[row.surface])
    if isinstance(row.shape, RegShape):
        assert row.name == f"Reg.{row.shape.attr}" and row.shape.cls == f"_{row.shape.attr}"


def test_surfaces_partition_the_table() -> None:
    assert {n for n, r in SPECS.items() if r.surface == "c_api"} == C_API_NAMES
    assert {n for n, r in SPECS.items() if r.surface == "simt"} == SIMT_NAMES
    assert {n for n, r in SPECS.items() if r.surface == "basic"} == BASIC_NAMES
    assert all(n.startswith("basic.") for n in BASIC_NAMES)
    assert all(r.surface == "reg" for r in SPECS.values() if r.name.startswith("Reg."))


def test_every_c_api_family_has_its_reg_twin() -> None:
    # Kernel-level functions of the scalar unit (asc_clz, asc_sync_block_arrive, ...) have no
    # twin: the Reg API is vector-only. A memory-level basic-API op may share the family too.
    for name in sorted(n for n in C_API_NAMES if not getattr(SPECS[n].shape, "kernel", False)):
        surfaces = {row.surface for row in family_rows(SPECS[name].family)}
        assert surfaces - {"basic"} == {"reg", "c_api"}, name


def test_twins_share_a_family() -> None:
    assert [r.name for r in family_rows("ShiftRight")] == [
        "Reg.ShiftRight",
        "asc_shiftright",
        "basic.ShiftRight",
    ]
    assert SPECS["asc_eq_scalar"].family == "Compares"
    assert {r.name for r in family_rows("max")} == {"max", "umax", "llmax", "ullmax"}


def test_aliases_are_spellings_no_row_uses() -> None:
    aliases = [a for row in SPECS.values() for a in row.aliases]
    assert len(aliases) == len(set(aliases)) and not set(aliases) & set(SPECS)


def test_a_dict_step_in_core_is_a_key() -> None:
    from ascreg.reg.compute import BINARY_OPS

    assert SPECS["Reg.Adds"].core_function() is BINARY_OPS["Add"]


def test_a_core_that_is_not_callable_is_an_error() -> None:
    import attrs

    row = attrs.evolve(SPECS["Reg.Add"], core="ascreg.core.compare:CMP_MODES")
    with pytest.raises(TypeError, match="not callable"):
        row.core_function()


@pytest.mark.parametrize("name", sorted(SIMT_NAMES), ids=str)
def test_simt_result_types_are_what_the_runtime_returns(name: str) -> None:
    """The table's C return type of each intrinsic overload (the stubs read it) is the runtime's."""
    import ascreg.simt as simt
    import ascreg.simt.intrinsics as intrinsics

    shape = SPECS[name].shape
    assert isinstance(shape, SimtShape)
    if shape.kind == "libm":
        _check_libm_result_type(name, shape)
        return
    if shape.kind == "address":  # the predicates and generic_to_* of nullptr; to_generic: void*
        role, result = SPECS[name].roles[0], shape.results[0]
        argument, want = (None, result.np_dtype) if role == "ptr" else (0, None)
        got = getattr(simt, name)(argument)
        assert got.dtype == want if want else isinstance(got, simt.GenericPointer)
        return
    if shape.kind not in ("int", "half"):
        assert shape.results == ()
        return
    runtime = getattr(intrinsics if shape.kind == "int" else simt, name)
    for combo, result in zip(SPECS[name].combos, shape.results, strict=True):
        assert runtime(*(d.np_dtype.type(0) for d in combo)).dtype == result.np_dtype, combo


def _check_libm_result_type(name: str, shape: SimtShape) -> None:
    """A math library or conversion row: the runtime returns its one C return type (or None)."""
    import ascreg.simt as simt
    from ascreg import GlobalMemory

    (combo,) = SPECS[name].combos
    count = len(combo) - shape.pointers
    gm = GlobalMemory()
    outputs = [gm.alloc(d, 1) for d in combo[count:]]
    got = getattr(simt, name)(*(d.np_dtype.type(1) for d in combo[:count]), *outputs)
    if not shape.results:
        assert got is None
    else:
        assert got.dtype == shape.results[0].np_dtype


def test_the_table_makes_the_c_api_and_simt_rows_on_first_use() -> None:
    """A Reg look-up loads only the Reg rows; any other look-up, ``len`` or iteration all rows,
    the Reg rows first (the order users and the generated tables see)."""
    import subprocess
    import sys

    script = "\n".join(
        (
            "import sys",
            "from ascreg._spec import SPECS",
            "later = ('ascreg._spec.c_api', 'ascreg._spec.simt')",
            "print(SPECS['Reg.Add'].name, any(m in sys.modules for m in later))",
            "print('asc_add' in SPECS, all(m in sys.modules for m in later))",
            "names = list(SPECS)",
            "from ascreg._spec import REG_ROWS",
            "print(names[: len(REG_ROWS)] == [row.name for row in REG_ROWS])",
            "print(len(SPECS) == len(names) == len(set(names)), SPECS.get('nope', 7))",
        )
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["Reg.Add False", "True True", "True", "True 7"], out.stderr


def test_rows_added_to_the_table_are_kept_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    row = SPECS["Reg.Add"]
    monkeypatch.setitem(SPECS, "Reg.TestOnlyAdd", row)
    monkeypatch.setitem(SPECS, "asc_test_only_add", SPECS["asc_add"])
    names = list(SPECS)
    assert names[-2:] == ["Reg.TestOnlyAdd", "asc_test_only_add"]
    assert SPECS["Reg.TestOnlyAdd"] is row and "asc_test_only_add" in SPECS
    assert len(SPECS) == len(names)
