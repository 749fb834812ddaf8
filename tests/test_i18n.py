"""English and Simplified Chinese: every message in the catalogue and translated, the
reader's language chosen by its cookie or Accept-Language, and the solver's errors
carried as a template with values for the page to translate."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from babel.support import Translations

from solver.core.errors import BoardError
from solver.core.text import N_
from webapp import i18n
from webapp.i18n import CATALOGUES, LANGUAGE_COOKIE, browser_messages, compile_catalogues
from webapp.jobs.replies import gave_up_error
from webapp.puzzle_request import RequestRefused

ROOT = Path(__file__).resolve().parent.parent
CHINESE = CATALOGUES / "zh_Hans" / "LC_MESSAGES" / "messages.po"
FIELD = re.compile(r"%\(\w+\)s")


def _forms(value) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


def test_every_message_the_sources_use_is_translated_to_chinese(tmp_path):
    """Extract as ``make translations`` does; each message must be in the Chinese
    catalogue, translated, not fuzzy, and with the same %(fields)s as the English."""
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-F", "babel.cfg"]
        + ["-k", "N_", "--add-location=file", "-o", str(pot), "."],
        cwd=ROOT,
        check=True,
    )
    with pot.open("rb") as file:
        wanted = [m for m in read_po(file) if m.id]
    with CHINESE.open("rb") as file:
        chinese = read_po(file, locale="zh_Hans")
    assert len(wanted) > 300, "the extraction found too few messages to be the whole site"
    problems = []
    for message in wanted:
        found = chinese.get(message.id)
        english = _forms(message.id)[0]
        if found is None:
            problems.append(f"missing: {english!r}")
        elif found.fuzzy or not all(_forms(found.string)):
            problems.append(f"untranslated: {english!r}")
        else:
            fields = set(FIELD.findall(english))
            for text in _forms(found.string):
                if set(FIELD.findall(text)) != fields:
                    problems.append(f"fields differ: {english!r} -> {text!r}")
    assert not problems, "run make translations, then translate:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("headers", "cookie", "lang"),
    [
        ({}, None, "en"),
        ({"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"}, None, "zh-Hans"),
        ({"Accept-Language": "zh-TW"}, None, "zh-Hans"),
        ({"Accept-Language": "fr-FR,en;q=0.5,zh;q=0.4"}, None, "en"),
        ({"Accept-Language": "fr"}, None, "en"),
        ({"Accept-Language": "zh-CN"}, "en", "en"),
        ({}, "zh-Hans", "zh-Hans"),
        ({"Accept-Language": "zh-CN"}, "klingon", "zh-Hans"),
    ],
)
def test_the_language_is_the_cookies_else_the_browsers(client, headers, cookie, lang):
    if cookie is not None:
        client.set_cookie(LANGUAGE_COOKIE, cookie)
    response = client.get("/play/klotski", headers=headers)
    page = response.get_data(as_text=True)
    assert f'<html lang="{lang}"' in page
    assert {"Cookie", "Accept-Language"} <= set(response.vary)  # no cache mixes languages
    chinese = lang == "zh-Hans"
    assert ('<h1 class="game-title">华容道</h1>' in page) is chinese
    assert ('<option value="zh-Hans" lang="zh-Hans" selected>' in page) is chinese
    # the page scripts' share of the catalogue, none for English
    block = re.search(r'<script id="translations" type="application/json">(.*?)</script>', page)
    assert block and (block.group(1) == "{}") is not chinese


def test_error_pages_and_their_json_speak_chinese(client):
    headers = {"Accept-Language": "zh-CN"}
    page = client.get("/no-such-page", headers=headers)
    assert page.status_code == 404
    assert "<h1>未找到</h1>" in page.get_data(as_text=True)
    english = client.get("/no-such-page").get_data(as_text=True)
    assert "<h1>Not found</h1>" in english


def test_the_browser_gets_the_scripts_the_solvers_and_the_refusals_messages_only():
    messages = browser_messages("zh-Hans")
    assert messages["Piece %(piece)s cannot move %(dir)s: the wall is in the way."]
    assert messages["row %(row)s is empty"] == "第 %(row)s 行是空的"  # the solver's
    assert messages["Klotski"] == "华容道"
    assert "Back to the lobby" not in messages  # a template's: rendered by the server
    assert browser_messages("en") == {}


def test_a_solver_error_keeps_its_english_and_carries_its_template(inbox):
    inbox.client.emit("analyse", {"game": "klotski", "board": "AA/A", "id": 7})
    _name, reply = inbox.wait("error")
    assert reply["message"] == "row 2 has 1 cells, expected 2"
    assert reply["template"] == "row %(row)s has %(cells)s cells, expected %(width)s"
    assert reply["params"] == {"row": 2, "cells": 1, "width": 2}
    err = BoardError("tube %(tube)s is full", tube=3)
    assert str(err) == "tube 3 is full" and err.params == {"tube": 3}


@pytest.mark.parametrize(("seconds", "bound"), [(5.2, None), (0.25, 7), (None, None), (None, 1)])
def test_a_search_out_of_budget_says_so_from_a_template_chinese_knows(seconds, bound):
    error = gave_up_error("solve", 1, "jugs", seconds, 24_321, bound)
    assert error["message"] == error["template"] % error["params"]
    assert error["message"].startswith("Too big to solve within the ")
    assert "about 24,000 positions" in error["message"]
    assert (f"{bound} or more moves" in error["message"]) == (bound is not None)
    chinese = Translations.load(str(compile_catalogues(CATALOGUES)), ["zh_Hans"])
    said = chinese.gettext(error["template"]) % error["params"]
    assert said != error["message"] and "24,000" in said


def test_catalogues_compile_elsewhere_when_their_folder_is_read_only(tmp_path, monkeypatch):
    source = tmp_path / "translations"
    shutil.copytree(CATALOGUES, source, ignore=shutil.ignore_patterns("*.mo", "*.part"))
    write = i18n.write_atomically

    def read_only(mo, catalog):  # as a wheel installed read-only (root ignores chmod)
        if source in mo.parents:
            raise PermissionError(13, "read-only", str(mo))
        write(mo, catalog)

    monkeypatch.setattr(i18n, "write_atomically", read_only)
    target = compile_catalogues(source)
    assert target != source and not list(source.rglob("*.mo"))
    translations = Translations.load(str(target), ["zh_Hans"])
    assert translations.gettext("Water sort") == "水排序"
    monkeypatch.undo()
    assert compile_catalogues(source) == source  # writable: in place
    assert (source / "zh_Hans" / "LC_MESSAGES" / "messages.mo").is_file()


def test_a_refusal_keeps_its_english_and_carries_a_template_chinese_knows(client):
    reply = client.post(
        "/api/player/restore", json={"code": "no-such-code"}, headers={"Origin": "http://localhost"}
    )
    assert reply.status_code == 404
    body = reply.get_json()
    assert body["error"] == "no player has that recovery code"  # API clients read this
    assert body["template"] == body["error"] and body["params"] == {}
    assert browser_messages("zh-Hans")[body["template"]] == "没有玩家使用这个恢复码"
    refused = client.post("/api/player/restore", json={}, headers={"Origin": "http://evil.test"})
    assert refused.status_code == 403
    assert browser_messages("zh-Hans")[refused.get_json()["template"]]


def test_a_refusal_with_values_fills_its_template_in_both_languages():
    err = RequestRefused(N_("too many writes; try again in %(seconds)s s"), 429, seconds=7)
    assert str(err) == "too many writes; try again in 7 s" and err.status == 429
    said = browser_messages("zh-Hans")[err.template] % err.params
    assert said == "写入太频繁；请在 7 秒后再试"
    solver = RequestRefused(BoardError("row %(row)s is empty", row=2))
    assert str(solver) == "row 2 is empty" and solver.template == "row %(row)s is empty"


def test_a_race_refusal_over_the_socket_carries_its_template(inbox):
    inbox.client.emit("race_move", {"board": "x"})
    _name, reply = inbox.wait("error")
    assert reply["message"] == "you are in no race under way"
    assert reply["template"] == reply["message"] and reply["event"] == "race_move"
    assert browser_messages("zh-Hans")[reply["template"]] == "你没有参加正在进行的比赛"
    inbox.client.emit("analyse", {"game": "nope", "board": "x", "id": 1})
    _name, reply = inbox.wait("error")
    assert reply["message"].startswith("unknown game 'nope'; choose one of ")
    assert reply["template"] == "unknown game %(name)s; choose one of %(games)s"
    assert reply["params"]["name"] == "'nope'"
