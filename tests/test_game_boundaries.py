"""Each game lives in one place: code outside a game's own package names it in at most
four source files (comments and docstrings may mention it).

A game's own places are ``solver/<game>/``, ``static/js/games/<game>.js`` (and the
modules it is split into, ``static/js/games/<game>-<job>.js``) and
``static/css/games/<game>.css``; tests are free to name any game. Everything
else learns about games from their declarations (``solver.catalogue``).
"""

import io
import re
import tokenize
from pathlib import Path

import pytest

from solver import catalogue

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIRS = ("solver", "webapp", "static/js", "static/css", "templates", "scripts")
SUFFIXES = {".py", ".js", ".html", ".css", ".sh"}
MAX_FILES_NAMING_A_GAME = 4


def python_code(text: str) -> str:
    """The code of a Python file without comments and docstrings."""
    kept, previous = [], tokenize.INDENT
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        docstring = token.type == tokenize.STRING and previous in (
            tokenize.INDENT,
            tokenize.NEWLINE,
            tokenize.NL,
            tokenize.DEDENT,
        )
        if token.type not in (tokenize.COMMENT, tokenize.NL) and not docstring:
            kept.append(token.string)
        if token.type not in (tokenize.COMMENT, tokenize.NL):
            previous = token.type
    return " ".join(kept)


def other_code(text: str) -> str:
    """JS, CSS, HTML and shell without their comments."""
    text = re.sub(r"/\*.*?\*/|<!--.*?-->|\{#.*?#\}", " ", text, flags=re.S)
    return re.sub(r"(?m)(^|\s)(//|#(?![{}])).*$", " ", text)


def code_of(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return python_code(text) if path.suffix == ".py" else other_code(text)


def own_files(game: str):
    return (
        ROOT / "solver" / game,
        ROOT / "static/js/games" / f"{game}.js",
        *(ROOT / "static/js/games").glob(f"{game}-*.js"),
        ROOT / "static/css/games" / f"{game}.css",
    )


def files_naming(game: str):
    pattern = re.compile(rf"(?<![a-z]){re.escape(game)}(?![a-z])", re.I)
    own = own_files(game)
    found = []
    for folder in SOURCE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in SUFFIXES or "vendor" in path.parts:
                continue
            if any(path == mine or mine in path.parents for mine in own):
                continue
            if pattern.search(code_of(path)):
                found.append(str(path.relative_to(ROOT)))
    return found


def test_comment_and_docstring_stripping_keeps_code():
    code = python_code('"""klotski doc"""\nx = "klotski"  # klotski\n')
    assert code.count("klotski") == 1
    assert "klotski" not in other_code("// klotski\n/* klotski */ let a = 1;")
    assert "klotski" in other_code('const g = "klotski"; // no')


@pytest.mark.parametrize("game", list(catalogue.games()))
def test_a_game_is_named_in_at_most_four_files_outside_its_package(game):
    naming = files_naming(game)
    assert len(naming) <= MAX_FILES_NAMING_A_GAME, f"{game} is named in {naming}"


def test_every_game_has_its_one_page_module():
    for game in catalogue.games():
        assert (ROOT / "static/js/games" / f"{game}.js").is_file(), game


MAX_JS_LINES = 350


def test_no_javascript_module_is_over_350_lines():
    too_long = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "static/js").rglob("*.js")
        if "vendor" not in p.parts
        and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_JS_LINES
    }
    assert too_long == {}
