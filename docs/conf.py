"""Sphinx configuration: the library's documentation, built by ``make docs``.

``make docs`` runs sphinx-build with ``-W`` (warnings are errors), so a module that
no longer imports or a broken docstring fails the build.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

project = "puzzle-arcade"
author = "the puzzle-arcade maintainers"
copyright = "the puzzle-arcade maintainers"  # the name Sphinx reads

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
]

exclude_patterns = ["_build"]
# No intersphinx: the build stays offline, so names from the standard library in type
# hints are shown as plain text rather than checked as links (hence no nitpicky mode).

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}

intersphinx_mapping = {"python": ("https://docs.python.org/3", None)}
intersphinx_disabled_reftypes = ["*"]

html_theme = "alabaster"
html_title = "puzzle-arcade"
# room for the tutorial's code at 88 columns
html_theme_options = {"page_width": "1200px"}
