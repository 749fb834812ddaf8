"""The Chinese fonts: the committed subsets draw every character of every Chinese level
name and of the Chinese catalogue, and each classic level has an English name beside its
Chinese one."""

import importlib.util
from pathlib import Path

from fontTools.ttLib import TTFont

from solver.klotski.levels import klotski_levels

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "make_level_font.py"


def load_script():
    spec = importlib.util.spec_from_file_location("make_level_font", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_fonts_have_a_glyph_for_every_chinese_character_shown():
    script = load_script()
    names, pages = script.level_name_characters(), script.page_characters()
    assert len(names) > 40  # the 24 classic names
    assert len(pages) > 300  # the catalogue's Chinese
    for _source, target in script.WEIGHTS.values():
        cmap = TTFont(target).getBestCmap()
        missing = [ch for ch in names + pages if ord(ch) not in cmap]
        assert not missing, f"run scripts/make_level_font.py: no glyph for {''.join(missing)}"
        assert target.stat().st_size < 120_000  # a subset, not the megabyte font


def test_every_classic_level_has_an_english_name():
    classic = [level for level in klotski_levels() if level["pack"] == "klotski-classic"]
    assert len(classic) == 24
    for level in classic:
        english = level.get("english", "")
        assert english and english.isascii(), level["name"]
    assert len({level["english"] for level in classic}) == 24


def test_the_level_regenerator_keeps_the_english_names(monkeypatch):
    spec = importlib.util.spec_from_file_location("make_levels", ROOT / "scripts/make_levels.py")
    make_levels = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_levels)
    level = dict(klotski_levels()[0])
    facts = {key: level[key] for key in ("moves", "traps", "group")}
    monkeypatch.setattr(
        make_levels,
        "grade",
        lambda board: dict(facts, moves={"piece": 1, "straight": 1, "step": 1}),
    )
    pack = {"levels": [level]}
    make_levels.regrade(pack)
    assert pack["levels"][0]["english"] == "Across the Saddle"
    assert pack["levels"][0]["moves"]["piece"] == 1  # the facts were rewritten
