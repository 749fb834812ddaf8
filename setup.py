"""Packaging hook: the wheel carries templates/ and static/ inside the webapp package.

The repository keeps them at the top level (where people look for them); a
non-editable install needs them next to the code, so the build copies them to
``webapp/templates`` and ``webapp/static``. Everything else is in pyproject.toml.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ASSET_FOLDERS = ("templates", "static")


class BuildWithAssets(build_py):
    """build_py that also copies the page assets into the built webapp package."""

    def run(self):
        super().run()
        for folder in ASSET_FOLDERS:
            self.copy_tree(folder, str(Path(self.build_lib) / "webapp" / folder))


setup(cmdclass={"build_py": BuildWithAssets})
