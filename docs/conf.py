"""Sphinx configuration: the manual and the library's reference, built by ``make docs``.

``make docs`` runs sphinx-build with ``-W`` (warnings are errors), so a module that
no longer imports or a broken docstring fails the build.
"""

import sys
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

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
html_static_path = ["_static"]


class ArcadeSettings(SphinxDirective):
    """``.. arcade-settings::``: every ``ARCADE_*`` setting as a table, read from
    :data:`webapp.config.SETTINGS` at build time, so the manual cannot list a setting
    the code no longer has (or miss a new one)."""

    def run(self) -> list[nodes.Node]:
        from webapp.config import PREFIX, SETTINGS

        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 30 15 55", ""]
        lines += ["   * - variable", "     - default", "     - what it is for"]
        for key, setting in SETTINGS.items():
            default = "none" if setting.default is None else f"``{setting.default!r}``"
            text = "".join("\\" + c if c in "\\*`|_" else c for c in setting.help)
            lines += [f"   * - ``{PREFIX}{key}``", f"     - {default}", f"     - {text}"]
        box = nodes.container()
        self.state.nested_parse(StringList(lines, source="webapp/config.py"), 0, box)
        return box.children


def setup(app):
    """Sphinx's hook for a local extension: the directive above."""
    app.add_directive("arcade-settings", ArcadeSettings)
    return {"parallel_read_safe": True}
