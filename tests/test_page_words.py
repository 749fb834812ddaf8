"""The pages' words for server facts (a storm's length and penalty, a race's quorum and
statuses, a name's longest) come from the server's own constants, rendered into each
page's config and words, never retyped in a page script or template."""

import json
import re
from pathlib import Path

import pytest

from webapp.http import links, pages
from webapp.players.runs import PENALTY_SECONDS, STORM_SECONDS
from webapp.races.model import COUNTDOWN, FINISHED, QUORUM, RACING, WAITING
from webapp.storage.names import MAX_NAME

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "static" / "js").rglob("*.js"))
TEMPLATES = sorted((ROOT / "templates").glob("*.html"))
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 10: "ten"}


def config_of(html: str) -> dict:
    found = re.search(r'<script id="config" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page has no config"
    return json.loads(found.group(1))


def test_the_play_storm_and_race_pages_carry_the_servers_facts(client):
    storm = client.get("/storm/npuzzle").get_data(as_text=True)
    config = config_of(storm)
    assert (config["storm_seconds"], config["penalty_seconds"]) == (STORM_SECONDS, PENALTY_SECONDS)
    assert f"costs {PENALTY_SECONDS} seconds" in storm
    play = config_of(client.get("/play/jugs?daily=1").get_data(as_text=True))
    assert play["name_limit"] == MAX_NAME
    race = config_of(client.get("/race").get_data(as_text=True))
    assert race["statuses"] == [WAITING, COUNTDOWN, RACING, FINISHED]
    assert race["quorum"] == QUORUM


def test_other_constants_make_other_words(client, monkeypatch):
    """The words follow the constants they are rendered from (patched where the pages
    read them): nothing in the page pins the old numbers."""
    monkeypatch.setattr(links, "PENALTY_SECONDS", PENALTY_SECONDS + 7)
    monkeypatch.setattr(links, "STORM_SECONDS", STORM_SECONDS + 120)
    monkeypatch.setattr(pages, "QUORUM", QUORUM + 2)
    client.application.extensions.pop("lobby_pages", None)  # the lobby is rendered once
    storm = client.get("/storm/npuzzle").get_data(as_text=True)
    assert f"costs {PENALTY_SECONDS + 7} seconds" in storm
    assert f'data-testid="storm-clock">{STORM_SECONDS + 120}<' in storm
    assert f"{(STORM_SECONDS + 120) / 60:g} minutes" in storm
    lobby = client.get("/").get_data(as_text=True)
    assert f"costs {PENALTY_SECONDS + 7} seconds" in lobby
    assert config_of(client.get("/race").get_data(as_text=True))["quorum"] == QUORUM + 2
    client.application.extensions.pop("lobby_pages", None)


@pytest.mark.parametrize("path", SCRIPTS + TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_retypes_a_server_fact(path):
    text = path.read_text(encoding="utf-8").lower()
    retyped = [
        f"{NUMBER_WORDS.get(STORM_SECONDS // 60, STORM_SECONDS // 60)} minutes",
        f"−{PENALTY_SECONDS} seconds",
        f"costs {PENALTY_SECONDS} seconds",
        f">{STORM_SECONDS}<",
        f"once {NUMBER_WORDS.get(QUORUM, QUORUM)} have joined",
        f'maxlength: "{MAX_NAME}"',
        *(
            f'"{status}"'
            for status in (WAITING, COUNTDOWN, RACING, FINISHED)
            if path.suffix == ".js"
        ),
    ]
    assert [words for words in retyped if words in text] == []
