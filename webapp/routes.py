"""HTTP routes: the lobby, a play page and an editor per game, the JSON API, a health check."""
from __future__ import annotations

from flask import Flask, abort, jsonify, redirect, render_template, request

from .api import api
from .games import GAMES, lobby_games, play_config

NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>Not found</h1><p>There is no such page or game.
<a href="/">Back to the lobby</a>.</p></body></html>
"""


def register_routes(app: Flask, levels: list) -> None:
    """Attach the page routes; ``levels`` are the lobby's graded Klotski layouts."""
    app.register_blueprint(api)

    @app.get("/", endpoint="lobby")
    def lobby():
        packs = {}
        for level in levels:
            packs.setdefault(level.get("pack", "klotski-classic"), []).append(level)
        return render_template("lobby.html", games=lobby_games(), levels=levels, packs=packs)

    def game_page(template: str, game: str):
        """A page about one game's position, opened from its shareable URL."""
        if game not in GAMES:
            abort(404)
        config = play_config(game, request.args)
        return render_template(template, game=game, config=config, title=GAMES[game]["title"])

    @app.get("/play/<game>", endpoint="play")
    def play(game: str):
        return game_page("play.html", game)

    @app.get("/editor", endpoint="editor_home")
    def editor_home():
        return redirect("/editor/klotski")

    @app.get("/editor/<game>", endpoint="editor")
    def editor(game: str):
        return game_page("editor.html", game)

    @app.get("/healthz", endpoint="healthz")
    def healthz():
        return jsonify(status="ok")

    @app.errorhandler(404)
    def not_found(_err):
        return NOT_FOUND_PAGE, 404
