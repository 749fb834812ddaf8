"""Installable and offline: the web app manifest, the service worker and its offline page.

The service worker (``templates/sw.js``, served at ``/sw.js`` so its scope is the
whole site) keeps every static file and the free pages (the lobby, each game's play
page and editor) from its install, and each page a player opens (a level, the daily)
as it is opened; offline, those open from the cache and play, and a page never
opened says so. Its cache is named after the static files' fingerprint, so a deploy
replaces it.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, current_app, jsonify, make_response, render_template, request
from flask_babel import force_locale, gettext

from solver import catalogue

from ..edge import asset_url
from ..i18n import LANGUAGES, browser_catalogue

offline = Blueprint("offline", __name__)

#: the page an offline player gets for a page the service worker never kept
OFFLINE_PAGE = "/offline"


def _static_files() -> list[str]:
    """Every static file's fingerprinted URL (a few hundred kB in all)."""
    folder = current_app.static_folder
    assert folder is not None  # the app is made with its static folder
    root = Path(folder)
    return sorted(
        asset_url(path.relative_to(root).as_posix()) for path in root.rglob("*") if path.is_file()
    )


def _free_pages() -> list[str]:
    """The pages that open no ranked attempt: kept from the install on."""
    games = list(catalogue.games())
    offline_pages = [f"{OFFLINE_PAGE}?lang={tag}" for tag in LANGUAGES]  # one per language
    return ["/", *offline_pages, *(f"/play/{g}" for g in games), *(f"/editor/{g}" for g in games)]


def _worker_script() -> str:
    """The worker's source with its settings line, made once per app (a deploy is a new
    process): it names every static file, and listing them is no work for each request."""
    made = current_app.extensions.get("offline_worker")
    if made is None:
        settings = {
            "version": current_app.extensions["static_fingerprint"],
            "precache": _free_pages() + _static_files(),
            "offlinePage": OFFLINE_PAGE,
            "languages": list(LANGUAGES),
        }
        folder = Path(current_app.root_path, current_app.template_folder or "templates")
        script = (folder / "sw.js").read_text(encoding="utf-8")
        made = current_app.extensions["offline_worker"] = (
            f"self.ARCADE_OFFLINE = {json.dumps(settings)};\n{script}"
        )
    return made


@offline.get("/sw.js")
def service_worker():
    response = make_response(_worker_script())
    response.mimetype = "text/javascript"
    response.cache_control.no_cache = True  # a new deploy's worker is seen at once
    return response


@offline.get("/manifest.webmanifest")
def manifest():
    response = jsonify(
        name="Puzzle Arcade",
        short_name="Arcade",
        description="Classic puzzles with a coach that knows the shortest way.",
        start_url="/",
        scope="/",
        display="standalone",
        background_color="#f7f1e5",
        theme_color="#e4572e",
        icons=[
            {
                "src": asset_url(f"icons/icon-{size}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any maskable",
            }
            for size in (192, 512)
        ],
    )
    response.mimetype = "application/manifest+json"
    return response


@offline.get(OFFLINE_PAGE)
def offline_page():
    """The page the worker shows for a page it never kept, in ``?lang=`` (the worker keeps
    one per language and shows the reader's), else the reader's language."""
    tag = request.args.get("lang")
    if tag not in LANGUAGES:
        return _offline_page()
    with force_locale(LANGUAGES[tag][0]):
        return _offline_page(language=tag, browser_catalogue=browser_catalogue(tag))


def _offline_page(**words):
    return render_template(
        "error.html",
        status=200,
        heading=gettext("Offline"),
        message=gettext(
            "This page was not opened on this device before the connection went. The lobby,"
            " the games' pages and every puzzle you opened still play offline."
        ),
        **words,
    )
