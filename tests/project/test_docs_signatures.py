"""The API pages show the stubs' typed signatures and the C++ spellings the search indexes.

At run time the ops take ``Any``; the pages (``docs/_ext/ascreg_signatures.py``) read the
``@overload`` signatures of ``stubs/ascreg`` and show the dtypes as type variables where the
overloads differ only in dtype. The generated reST is checked here without building the docs.
"""

from __future__ import annotations

import pytest

from ascreg import Reg, c_api, simt
from docs_api import api

PAGES = {page.fullname: page for module in api.plan() for page in module.pages}


def page_text(fullname: str) -> str:
    return api.page_rst(PAGES[fullname])


@pytest.mark.parametrize(
    ("op", "first"),
    [
        (Reg.Add, "(dst: RegTensor[T], src0: RegTensor[T], src1: RegTensor[T], mask: MaskReg) -> None"),
        (Reg.Cast, "(dst: RegTensor[T], src: RegTensor[U], mask: MaskReg) -> None"),
        (Reg.Compare, "(dst: MaskReg, src0: RegTensor[T], src1: RegTensor[T], mask: MaskReg) -> None"),
        (c_api.asc_add, "(dst: RegTensor[T], src0: RegTensor[T], src1: RegTensor[T], mask: MaskReg, /) -> None"),
    ],
)  # fmt: skip
def test_register_operands_read_as_register_types(op: object, first: str) -> None:
    shown = api.signatures_of(op)
    assert shown[0] == first
    assert not any("Any" in text.split("->")[0] and "RegTensor" not in text for text in shown)


def test_overloads_that_do_not_differ_in_dtype_stay_concrete() -> None:
    shown = api.signatures_of(simt.__byte_perm)
    assert len(shown) == 4
    assert "T" not in shown[0].replace("NDArray", "")
    assert shown[0] == "(x: int, y: int, s: int) -> np.uint32"


def test_a_name_without_a_stub_keeps_its_own_signature() -> None:
    assert api.signatures_of(Reg.UpdateMask) == []
    assert ".. autofunction:: ascreg.Reg.UpdateMask" in page_text("ascreg.Reg.UpdateMask")


def test_the_page_lists_every_overload_under_one_directive() -> None:
    text = page_text("ascreg.Reg.Add")
    assert ".. py:function:: Add(dst: RegTensor[T]" in text
    assert "                 Add(carry: MaskReg, dst: RegTensor[T]" in text
    assert "Examples" in text  # the docstring follows the signatures


@pytest.mark.parametrize(
    ("fullname", "spelling"),
    [
        ("ascreg.Reg.Compare", "AscendC::Reg::Compare"),
        ("ascreg.Reg.Compare", "AscendC::MicroAPI::Compare"),
        ("ascreg.basic.DataCopy", "AscendC::DataCopy"),
    ],
)
def test_pages_carry_their_cpp_spelling_for_the_search(fullname: str, spelling: str) -> None:
    assert f"``{spelling}``" in page_text(fullname)


def test_names_spelled_alike_in_cpp_get_no_spelling_line() -> None:
    assert "C++ spelling" not in page_text("ascreg.c_api.asc_add")
