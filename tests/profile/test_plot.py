"""``Profile.plot`` draws with matplotlib, an optional extra; without it, a clear error."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ascreg.errors import AscregError
from profile_kernels import record


def test_plot_draws_every_track(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    path = tmp_path / "timeline.png"
    figure = record(4, 2).plot(path=path)
    (axes,) = [a for a in figure.axes if a.get_yticklabels()]
    labels = [t.get_text() for t in axes.get_yticklabels()]
    assert {"SCALAR", "VECTOR", "MTE2", "MTE3", "VECTOR wait"} <= set(labels)
    assert "bound: MTE2" in axes.get_title()
    assert path.stat().st_size > 10_000


def test_plot_without_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(AscregError, match=r"pip install ascreg\[plot\]"):
        record(1, 1).plot()
