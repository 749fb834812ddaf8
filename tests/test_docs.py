"""The code in the README and the tutorial runs as written (doctest), so neither drifts
from the library it documents; and the README stays a front page whose links reach the
manual's pages."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [
    "README.md",
    "docs/tutorial.rst",
    "docs/tutorial-bidirectional.rst",
    "docs/tutorial-astar.rst",
]


@pytest.mark.parametrize("name", DOCUMENTS)
def test_examples_run_as_written(name: str) -> None:
    path = ROOT / name
    parser = doctest.DocTestParser()
    test = parser.get_doctest(path.read_text(encoding="utf-8"), {}, name, str(path), 0)
    assert test.examples, f"{name} has no examples to run"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    failed, tried = runner.summarize(verbose=False)
    assert tried == len(test.examples)
    assert failed == 0, f"{failed} of {tried} examples in {name} failed (see the output above)"


def test_readme_stays_a_front_page() -> None:
    """The manual lives in docs/; the README says what the arcade is, how to play and
    the two commands, and links to the rest."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines; move the detail into docs/"


def test_readme_links_reach_files() -> None:
    """Every relative link of the README (the docs pages, the screenshot) names a file
    of the repository, so a page moved or renamed breaks this test, not the front page."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [t for t in re.findall(r"\]\(([^)\s#]+)", text) if "://" not in t]
    assert any(t.startswith("docs/") for t in targets), "README.md links to no docs page"
    missing = [t for t in targets if not (ROOT / t).is_file()]
    assert missing == [], f"README.md links to missing files: {missing}"


def test_every_make_command_the_docs_name_is_a_target() -> None:
    """A ``make x`` in the README or the manual is a target of the Makefile, so a
    renamed target breaks this test, not a newcomer's first command."""
    targets = set(re.findall(r"^([a-z][a-z0-9-]*):", (ROOT / "Makefile").read_text(), re.M))
    named = {}
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.rst"))]:
        for target in re.findall(r"`make ([a-z][a-z0-9-]*)", path.read_text(encoding="utf-8")):
            named.setdefault(target, path.name)
    missing = {target: where for target, where in named.items() if target not in targets}
    assert missing == {}, f"make targets the docs name that the Makefile lacks: {missing}"


def _layout_names(text: str) -> list[tuple[Path, str]]:
    """Every folder and ``.py`` file the layout page's tree names: (the folder it is named
    under, the name). A line's first words at its indentation are entries (several
    folders may share a line); a ``.py`` word in a description names a file under the
    entry it describes."""
    block = text.split(".. code-block:: text", 1)[1].split("\n\n", 2)[1]
    named: list[tuple[Path, str]] = []
    parents: list[tuple[int, Path]] = []  # (indentation, folder) of the open entries
    here = ROOT
    for line in block.splitlines():
        indent = len(line) - len(line.lstrip())
        words = line.split()
        entries = []
        if indent in (3, 5):  # an entry's line: its name(s) first
            while words and re.fullmatch(r"[\w.-]+/|[\w-]+\.py", words[0]):
                entries.append(words.pop(0))
            while parents and parents[-1][0] >= indent:
                parents.pop()
            base = parents[-1][1] if parents else ROOT
            for entry in entries:
                named.append((base, entry))
            folders = [e for e in entries if e.endswith("/")]
            here = base / folders[0] if len(folders) == 1 else base
            if len(folders) == 1:
                parents.append((indent, here))
        for word in words:
            for name in re.findall(r"[\w-]+\.py\b", word):
                named.append((here, name))
    return named


def _missing(text: str) -> list[str]:
    return [
        f"{base.relative_to(ROOT)}/{name}"
        for base, name in _layout_names(text)
        if not (base / name).exists() and not any(base.rglob(name.rstrip("/")))
    ]


LAYOUT = ROOT / "docs" / "layout.rst"


def test_the_layout_page_names_files_that_exist():
    text = LAYOUT.read_text(encoding="utf-8")
    assert len(_layout_names(text)) > 40  # the tree was read, not skipped
    assert _missing(text) == []


def test_the_layout_check_catches_a_name_that_is_gone():
    text = LAYOUT.read_text(encoding="utf-8")
    assert "engine.py " in text and "  transport/" in text
    gone = text.replace("engine.py ", "enjine.py ", 1).replace("  transport/", "  transit/", 1)
    assert _missing(gone) == ["solver/enjine.py", "webapp/transit/"]
