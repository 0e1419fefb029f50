"""Sphinx configuration of the ascreg docs (no network: no intersphinx; the furo theme)."""

from __future__ import annotations

import sys
from pathlib import Path

import ascreg

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

project = "ascreg"
author = "the ascreg authors"
copyright = "the ascreg authors"
release = version = ascreg.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "ascreg_api",  # docs/_ext: the API pages and dtype tables, generated from the code
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "api/generated/dtypes"]
nitpicky = True
suppress_warnings: list[str] = []
# ascreg.emit's recorded run (a private record type) appears in its public signatures
nitpick_ignore = [
    ("py:class", "FunctionRecord"),
    ("py:class", "ascreg.emit._record.FunctionRecord"),
    ("py:class", "ascreg.emit._record.Seen"),
    ("py:class", "ascreg._frontend.cube.MmadRun"),  # the checked sizes the MX internals take
]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# autodoc / autosummary / napoleon
autosummary_generate = False  # ascreg_api writes the pages (Template instances included)
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True  # defaults as the source spells them (`costs=DAV_3510`)
autodoc_inherit_docstrings = True
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_param = True
napoleon_use_rtype = True

# doctest: narrative pages use explicit doctest/testcode blocks; the docstring examples of the
# API pages run with their defining module's globals (a hidden testsetup on every page).
doctest_default_flags = 0
import doctest as _doctest  # noqa: E402

doctest_default_flags = (
    _doctest.ELLIPSIS | _doctest.NORMALIZE_WHITESPACE | _doctest.IGNORE_EXCEPTION_DETAIL
)
# hypothesis examples in docstrings: no deadline or slow-input health check (a loaded machine
# would fail them at random), as in the test suite's profiles
doctest_global_setup = """
import numpy as np
import ascreg
import hypothesis as _hypothesis
_hypothesis.settings.register_profile(
    "docs", deadline=None, suppress_health_check=list(_hypothesis.HealthCheck)
)
_hypothesis.settings.load_profile("docs")
"""
# Each page's examples start from a finalised host runtime (acl state is process-wide).
doctest_global_cleanup = """
try:
    from ascreg import acl as _acl
except ImportError:
    pass
else:
    _acl.finalize()
"""

html_theme = "furo"  # pinned in the docs dependency group of pyproject.toml
html_static_path = ["_static"]
html_css_files = ["ascreg.css"]
html_title = f"ascreg {release}"
html_theme_options = {"navigation_with_keys": True}
