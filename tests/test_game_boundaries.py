"""Each game lives in one place: code outside a game's own package names it in at most
four source files (comments and docstrings may mention it).

A game's own places are ``solver/<game>/``, ``static/js/games/<game>.js`` (and the
modules it is split into, ``static/js/games/<game>-<job>.js``) and
``static/css/games/<game>.css``; tests are free to name any game. Everything
else learns about games from their declarations (``solver.catalogue``).
"""

import pytest
from helpers.sources import ROOT, files_naming, other_code, python_code

from solver import catalogue

MAX_FILES_NAMING_A_GAME = 4


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
