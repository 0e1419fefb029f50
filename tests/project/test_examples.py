"""The bundled example kernels (ascreg.examples) run end to end and print their success line."""

from __future__ import annotations

from typing import Any

import pytest

from ascreg.examples import asc_shiftright, c_api_duplicate, c_api_select, c_api_tail, vector_add


@pytest.mark.parametrize(
    "module", [asc_shiftright, vector_add, c_api_tail, c_api_select, c_api_duplicate]
)
def test_examples_end_to_end(module: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert module.main() is True
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("[Success]")


def test_seed_prints_its_success_line(capsys: pytest.CaptureFixture[str]) -> None:
    asc_shiftright.main()
    assert capsys.readouterr().out == "[Success] asc_shiftright completed.\n"
