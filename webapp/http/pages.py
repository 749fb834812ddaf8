"""The HTML pages: the lobby, the player's page, a play page and an editor per game
(error pages: :mod:`webapp.edge`).

A seeded level comes from the app's level maker (:mod:`webapp.levels.maker`,
``app.extensions["levels"]``), which generates it in a solver process; a busy or
slow generator is a 503 saying so.
"""

from __future__ import annotations

import contextlib

from flask import (
    Blueprint,
    abort,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

from solver import catalogue
from solver.core.game import Game

from ..edge import chosen_theme, error_page
from ..i18n import LANGUAGE_COOKIE, LANGUAGES, chosen_language
from ..jobs.model import TaskRefused
from ..jobs.outcomes import refusal
from ..players.attempts import page_puzzle
from ..players.identity import TooManyPlayers
from ..players.runs import offered as runs_offered
from ..races.draw import race_games
from ..races.model import COUNTDOWN, FINISHED, QUORUM, RACING, WAITING
from ..storage.names import MAX_NAME
from .links import lobby_games, lobby_packs, play_config, run_rules
from .players.context import current_player, open_ranked, remember, state, today

pages = Blueprint("pages", __name__)


@pages.app_context_processor
def name_limit() -> dict:
    """Every page's header has the name box: a name's most characters, as the server checks."""
    return {"name_limit": MAX_NAME}


def _game_or_404(name: str) -> type[Game]:
    game = catalogue.games().get(name)
    if game is None:
        abort(404)
    return game


def _game_page(template: str, name: str, ranked: bool = False):
    """A page about one game's position, opened from its shareable URL.

    ``games`` (every declaration) lets the editor link to the other games' editors.
    A bad query (board, option, seed) still shows the page, with the message and
    the default position, but as a 400 so the link is known to be wrong.
    """
    game = _game_or_404(name)
    config = play_config(game, request.args, current_app.extensions["levels"].generator(game))
    # a ranked puzzle's play page opens the player's attempt: its clock starts now
    config["attempt"] = _opened_attempt(config) if ranked else None
    page = render_template(
        template, game=game.name, title=game.title, config=config, games=lobby_games()
    )
    # the cookie of a player made now, or of an old cookie's new session
    return remember(make_response(page, 400 if config["error"] else 200))


def _opened_attempt(config: dict) -> dict | None:
    """Open the attempt of a play page opened as a ranked puzzle: the page's
    ``attempt`` ({ranked, assisted, finished, seconds}), None for free play or when this
    address made its hour's share of new players (the page is then unranked)."""
    players = state()
    puzzle = page_puzzle(players.db, config, today(), players.daily)
    if puzzle is None:
        return None
    try:
        player = current_player(create=True)
    except TooManyPlayers:
        return None
    return open_ranked(puzzle, player).page(players.now())


@pages.get("/")
def lobby():
    """The lobby, rendered once per language and theme: its hundreds of level cards took
    some 50 ms to render, too long for the event loop, and change only with a deploy."""
    rendered = current_app.extensions.setdefault("lobby_pages", {})
    key = (chosen_language(), chosen_theme())
    if key not in rendered:
        rendered[key] = render_template(
            "lobby.html", games=lobby_games(), packs=lobby_packs(), runs=run_rules()
        )
    return rendered[key]


def render_lobbies(app) -> None:
    """Each language's lobby in the system's theme (a first visit's), rendered at
    start-up before the first player; a chosen theme's, at its first request."""
    for language in LANGUAGES:
        cookie = f"{LANGUAGE_COOKIE}={language}"
        with app.test_request_context("/", headers={"Cookie": cookie}):
            lobby()


@pages.get("/player")
def player():
    """The player's page: its figures come from the players' API (player-page.js)."""
    return render_template("player.html", games=lobby_games())


@pages.get("/play/<game>")
def play(game: str):
    return _game_page("play.html", game, ranked=True)


@pages.get("/streak/<game>")
def streak(game: str):
    return _run_page(game, "streak")


@pages.get("/storm/<game>")
def storm(game: str):
    return _run_page(game, "storm")


def _run_page(name: str, mode: str):
    """A streak or a storm: the page starts or resumes the run through the players' API,
    which judges every move; nothing here opens or scores anything."""
    game = _game_or_404(name)
    if not runs_offered(game):
        abort(404)
    config = {"game": game.name, "mode": mode, "game_info": game.describe(), **run_rules()}
    return render_template("run.html", game=game.name, mode=mode, config=config)


@pages.get("/race")
@pages.get("/race/<race>")
def race(race: str | None = None):
    """A race: the public lobby's, a private one by its shared id, or ``new`` (a private
    race the visitor owns). The page joins it over the socket, which judges every move."""
    if race is not None and (
        len(race) > 32 or not race.replace("-", "").replace("_", "").isalnum()
    ):
        abort(404)
    games = [game.describe() for game in race_games()]
    # the race's words for its server facts: its statuses in order, the lobby's quorum
    statuses = [WAITING, COUNTDOWN, RACING, FINISHED]
    config = {"race": race, "games": games, "statuses": statuses, "quorum": QUORUM}
    # a racer is a player: a guest kept in the cookie, so a reload or a second tab
    # resumes the same racer (within the address's hourly share of new players)
    with contextlib.suppress(TooManyPlayers):
        current_player(create=True)
    return remember(make_response(render_template("race.html", config=config, games=games)))


@pages.get("/editor")
def editor_home():
    first = next(iter(catalogue.games()))
    return redirect(url_for(".editor", game=first))


@pages.get("/editor/<game>")
def editor(game: str):
    return _game_page("editor.html", game)


@pages.app_errorhandler(TaskRefused)
def busy(err: TaskRefused):
    """A page's search could not run now: 503 with the reason, in JSON for the API."""
    refused = refusal(err)  # the one mapping (webapp.jobs.outcomes)
    return error_page(refused.status, str(refused), refused.headers)
