"""The seed examples round-trip exactly: their emitted kernels are the seed pages' kernels.

``tools/emit_roundtrip.py`` reads the originals (the asc-devkit pages and the seed pages) and
records, per definition, the token count and digest of the normalised original in
``tests/emit/roundtrip.json``; nothing of the originals is in the project. This test emits the
seeds again and checks that each normalised definition has that digest: the emitted C++ is,
token for token after normalisation, the original.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from ascreg.emit import emit, header_path, kernels_of
from ascreg.emit._tokens import api_names, definitions, digest, normalise
from ascreg.examples import asc_shiftright, byte_perm_simt, select_vf

RECORD = json.loads(
    (Path(__file__).resolve().parent / "roundtrip.json").read_text(encoding="utf-8")
)
SEEDS = {
    "src/ascreg/examples/select_vf.py": (select_vf, ["SelectVF"]),
    "src/ascreg/examples/asc_shiftright.py": (
        asc_shiftright,
        ["ELEMENT_COUNT", "BUFFER_BYTES", "shiftright_vf", "asc_shiftright_kernel"],
    ),
    "src/ascreg/examples/byte_perm_simt.py": (byte_perm_simt, ["KernelByte_perm"]),
}


@pytest.mark.parametrize("port", sorted(SEEDS))
def test_the_seed_round_trips_exactly(port: str) -> None:
    module, names = SEEDS[port]
    with contextlib.redirect_stdout(io.StringIO()):
        text = emit(*kernels_of(module), run=module.main)
    api = api_names(header_path().read_text(encoding="utf-8"))
    emitted = definitions(text)
    recorded = RECORD[port]
    assert sorted(recorded) == sorted(names)  # every definition the original has, compared
    for name in names:
        tokens = normalise(emitted[name], api)
        assert (len(tokens), digest(tokens)) == (
            recorded[name]["tokens"],
            recorded[name]["digest"],
        ), name
