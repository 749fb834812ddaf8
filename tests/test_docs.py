"""The code in the README and the tutorial runs as written (doctest), so neither drifts
from the library it documents."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ["README.md", "docs/tutorial.rst"]


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
