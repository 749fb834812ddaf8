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
