"""The README's commands and snippet stay true."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def test_ci_runs_the_readme_check_command() -> None:
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"```bash\n(.+?)\n```", readme)
    assert len(commands) == 2, commands
    assert commands[1] in (ROOT / ".ci" / "run").read_text()


def test_readme_snippet_runs() -> None:
    readme = (ROOT / "README.md").read_text()
    snippet = re.search(r"```python\n(.+?)\n```", readme, re.S)
    assert snippet is not None
    namespace: dict[str, object] = {"print": lambda *_: None}
    exec(snippet.group(1), namespace)
    z = namespace["z"].read(256)  # type: ignore[attr-defined]
    x, y = np.arange(256), np.arange(256) % 7
    expected = np.where(x == y, x, y)[:200].astype(np.float16)
    assert np.array_equal(z[:200], expected)
    assert not z[200:].any()


def test_set_up_has_exactly_two_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    set_up = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    assert set_up.count("```") == 4  # two fenced commands, nothing else to paste


def test_readme_says_which_python_and_to_use_a_venv() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "Python 3.11 or newer" in readme
    assert "python3 -m venv .venv && . .venv/bin/activate" in readme
    assert "downloads its tools" in readme
    project = (ROOT / "pyproject.toml").read_text()
    assert 'requires-python = ">=3.11"' in project
