"""English and Simplified Chinese: the reader's language, and the catalogue for it.

One catalogue per language (``webapp/translations/<locale>/LC_MESSAGES/messages.po``),
extracted by ``pybabel`` from the templates, the Python and the page scripts
(``make translations``). Only the ``.po`` is kept in git: the app compiles the
``.mo`` Flask-Babel reads at start-up, so a fresh clone and a wheel both work.
The page scripts' messages and the solver's (game titles, the errors a player
reads) travel with the page as JSON, for ``static/js/i18n.js`` to translate in
the browser.
"""

from __future__ import annotations

import json
import os
import tempfile
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, has_request_context, request
from flask_babel import Babel, gettext
from markupsafe import Markup

from solver.core.errors import BoardError

#: the cookie ``js/language.js`` keeps the reader's choice in (as ``arcade_theme``)
LANGUAGE_COOKIE = "arcade_lang"
#: the languages, by their ``<html lang>`` tag: Babel's locale and the control's label
LANGUAGES = {"en": ("en", "English"), "zh-Hans": ("zh_Hans", "简体中文")}
DEFAULT_LANGUAGE = "en"
#: the catalogues' folder, beside this module
CATALOGUES = Path(__file__).resolve().parent / "translations"
#: messages from these files are the browser's to translate: the page scripts', the
#: solver's, and the server's refusals and errors (a reply's ``template``)
_BROWSER_SOURCES = (
    "static/js/",
    "solver/",
    "webapp/players/",
    "webapp/http/",  # the API's refusals (the players' routes, the bodies, the page tasks)
    "webapp/guard/",
    "webapp/races/",
    "webapp/live/",
    "webapp/jobs/",
    "webapp/levels/",
    "webapp/storage/names.py",
    "webapp/storage/checks.py",
    "webapp/puzzle_request.py",
)


def chosen_language() -> str:
    """The reader's language tag: the control's cookie, else the first of the
    browser's ``Accept-Language`` we have (``zh-CN`` or ``zh-TW``: Chinese), else English."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    kept = request.cookies.get(LANGUAGE_COOKIE)
    if kept in LANGUAGES:
        return kept
    for value, _quality in request.accept_languages:
        primary = value.split("-")[0].lower()
        if primary == "zh":
            return "zh-Hans"
        if primary == "en":
            return "en"
    return DEFAULT_LANGUAGE


def _locale() -> str:
    return LANGUAGES[chosen_language()][0]


def compile_catalogues(source: Path = CATALOGUES) -> Path:
    """Each ``.po`` under ``source`` compiled to its ``.mo`` where it is stale; returns the
    folder holding them (a temporary one when ``source`` cannot be written, as in a wheel
    installed read-only). Written then renamed: servers starting together never read half."""
    target = source
    for po in sorted(source.glob("*/LC_MESSAGES/*.po")):
        mo = target / po.relative_to(source).with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as file:
            catalog = read_po(file, locale=po.parent.parent.name)
        try:
            write_atomically(mo, catalog)
        except OSError:
            if target == source:
                target = Path(tempfile.mkdtemp(prefix="arcade-translations-"))
            mo = target / po.relative_to(source).with_suffix(".mo")
            write_atomically(mo, catalog)
    return target


def write_atomically(mo: Path, catalog) -> None:
    mo.parent.mkdir(parents=True, exist_ok=True)
    part = mo.with_name(f"{mo.name}.{os.getpid()}.part")
    with part.open("wb") as file:
        write_mo(file, catalog)
    os.replace(part, mo)


@cache
def browser_messages(language: str) -> dict[str, str]:
    """The translations the page scripts need in ``language`` (none for English), read
    once from its ``.po``: the scripts' own messages and the solver's."""
    locale = LANGUAGES[language][0]
    po = CATALOGUES / locale / "LC_MESSAGES" / "messages.po"
    if language == DEFAULT_LANGUAGE or not po.exists():
        return {}
    with po.open("rb") as file:
        catalog = read_po(file, locale=locale)
    found: dict[str, str] = {}
    for message in catalog:
        if not message.id or not any(
            path.startswith(_BROWSER_SOURCES) for path, _line in message.locations
        ):
            continue
        # a plural's forms (Chinese has one) under both English forms
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        text = message.string[0] if isinstance(message.string, tuple) else message.string
        if text:
            found.update({str(english): str(text) for english in ids})
    return found


def translated(err: BoardError) -> str:
    """A solver's error in the reader's language (its template translated, then filled)."""
    return gettext(err.template, **err.params) if err.params else gettext(err.template)


def extract_pack_words(fileobj, keywords, comment_tags, options):
    """pybabel's extractor for the level packs (``solver/*/*.json``, see babel.cfg): each
    pack's title and summary, the lobby's heading for it, and each level's name written
    in English (a name in another language carries its ``english`` and stays as it is);
    yields what Babel's extractors do."""
    pack = json.load(fileobj)
    if not isinstance(pack, dict):
        return
    for key in ("title", "summary"):
        if isinstance(pack.get(key), str):
            yield 1, "N_", pack[key], []
    for level in pack.get("levels") or []:
        if (
            isinstance(level, dict)
            and isinstance(level.get("name"), str)
            and "english" not in level
        ):
            yield 1, "N_", level["name"], ["a level's name: translate its meaning"]


@cache
def browser_catalogue(language: str) -> Markup:
    """:func:`browser_messages` as JSON for a ``<script type="application/json">``: the
    Chinese as it is (half the bytes of ``\\uXXXX`` escapes), the few characters that could end
    the script escaped."""
    text = json.dumps(browser_messages(language), ensure_ascii=False, sort_keys=True)
    for char, escaped in _SCRIPT_SAFE.items():
        text = text.replace(char, escaped)
    return Markup(text)


_SCRIPT_SAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "'": "\\u0027"}


def install(app: Flask) -> None:
    """Flask-Babel choosing the reader's language; the pages get its tag, the control's
    choices and the browser's share of the catalogue."""
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(compile_catalogues())
    Babel(app, locale_selector=_locale)
    for tag in LANGUAGES:  # read now, not on the event loop when a first reader asks
        browser_catalogue(tag)

    @app.after_request
    def vary(response):
        if response.mimetype == "text/html":  # a page's words follow these two headers
            response.vary.update(("Cookie", "Accept-Language"))
        return response

    @app.context_processor
    def language() -> dict:
        chosen = chosen_language()
        return {
            "language": chosen,
            "languages": {tag: label for tag, (_locale, label) in LANGUAGES.items()},
            "browser_catalogue": browser_catalogue(chosen),
        }
