"""The HTML pages: the lobby, a play page and an editor per game, and the 404 page."""
from __future__ import annotations

from typing import Type

from flask import Blueprint, abort, redirect, render_template, request, url_for

from solver import catalogue
from solver.core.game import Game

from .games import lobby_games, lobby_packs, play_config

pages = Blueprint("pages", __name__)

NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>Not found</h1><p>There is no such page or game.
<a href="/">Back to the lobby</a>.</p></body></html>
"""


def _game_or_404(name: str) -> Type[Game]:
    game = catalogue.games().get(name)
    if game is None:
        abort(404)
    return game


def _game_page(template: str, name: str):
    """A page about one game's position, opened from its shareable URL.

    ``games`` (every declaration) lets the editor link to the other games' editors.
    A bad query (board, option, seed) still shows the page, with the message and
    the default position, but as a 400 so the link is known to be wrong.
    """
    game = _game_or_404(name)
    config = play_config(game, request.args)
    page = render_template(template, game=game.name, title=game.title, config=config,
                           games=lobby_games())
    return page, 400 if config["error"] else 200


@pages.get("/")
def lobby():
    return render_template("lobby.html", games=lobby_games(), packs=lobby_packs())


@pages.get("/play/<game>")
def play(game: str):
    return _game_page("play.html", game)


@pages.get("/editor")
def editor_home():
    first = next(iter(catalogue.games()))
    return redirect(url_for(".editor", game=first))


@pages.get("/editor/<game>")
def editor(game: str):
    return _game_page("editor.html", game)


@pages.app_errorhandler(404)
def not_found(_err):
    return NOT_FOUND_PAGE, 404
