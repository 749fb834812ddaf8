"""The solver lab's page: ``/lab?game=G&board=B&algorithms=bfs,astar`` (plus the game's
options) races the algorithms on the board over Socket.IO (``lab_run``) and draws
the board's whole state space from ``GET /api/graph/<game>``.

Like a play page, a bad query never breaks the page: the page is a 400 showing
the solver's message, with the default board and algorithms in its place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, make_response, render_template, request

from solver import catalogue
from solver.core.errors import BoardError
from solver.core.search import ALGORITHMS, unfit_algorithm
from solver.engine import parse_board
from solver.race import MAX_RACERS, MIN_RACERS, check_algorithms

from .links import lobby_games

lab = Blueprint("lab", __name__)

#: the lab opens on the classic Klotski layout (a whole group of 25,955 positions)
DEFAULT_GAME = "klotski"
DEFAULT_ALGORITHMS = ("bfs", "astar")


def lab_config(query: Mapping[str, str]) -> dict[str, Any]:
    """The page's config from its URL: game, board (canonical), options, algorithms,
    every game's declaration, and ``error`` when the query was bad."""
    games = catalogue.games()
    name = query.get("game") or DEFAULT_GAME
    game = games.get(name) or games[DEFAULT_GAME]
    config: dict[str, Any] = {
        "game": game.name,
        "board": game.default_board,
        "options": {},
        "algorithms": list(DEFAULT_ALGORITHMS),
        "known": list(ALGORITHMS),
        "racers": [MIN_RACERS, MAX_RACERS],
        "error": None if name in games else f"unknown game {name[:40]!r}",
        "game_info": game.describe(),
    }
    try:
        options = game.check_options({o.name: query.get(o.name) for o in game.options})
        domain, state = parse_board(game.name, query.get("board") or game.default_board, **options)
        config["board"], config["options"] = domain.format(state), options
        asked = [n for n in (query.get("algorithms") or "").split(",") if n]
        config["algorithms"] = check_algorithms(game.name, asked or DEFAULT_ALGORITHMS, **options)
    except BoardError as err:
        config["error"] = config["error"] or str(err)
    # the algorithms that cannot search this game: the page greys their boxes
    domain = game.make_domain(**config["options"])
    config["unfit"] = [n for n in ALGORITHMS if unfit_algorithm(domain, n)]
    return config


@lab.get("/lab")
def lab_page():
    config = lab_config(request.args)
    page = render_template("lab.html", config=config, games=lobby_games())
    return make_response(page, 400 if config["error"] else 200)
