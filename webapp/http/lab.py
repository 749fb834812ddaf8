"""The solver lab's page: ``/lab?game=G&board=B&algorithms=bfs,astar`` (plus the game's
options) runs the algorithms side by side on the board over Socket.IO (``lab_run``) and draws
the board's whole state space from ``GET /api/graph/<game>``.

Like a play page, a bad query never breaks the page: the page is a 400 showing
the solver's message, with the default board and algorithms in its place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, make_response, render_template, request
from flask_babel import gettext

from solver import catalogue
from solver.comparison import MAX_ALGORITHMS, MIN_ALGORITHMS, check_algorithms
from solver.core.errors import BoardError
from solver.core.text import N_
from solver.engine import ALGORITHM_NAMES, parse_board, unfit

from ..i18n import translated
from .links import lobby_games

lab = Blueprint("lab", __name__)

DEFAULT_ALGORITHMS = ("bfs", "astar")
#: what each algorithm is, in a few words: the set-up's boxes and the cards' subtitles
#: (the algorithms' own names are the CLI's, the same in every language)
KINDS = {
    "bfs": N_("breadth-first"),
    "dfs": N_("depth-first"),
    "bidirectional": N_("bidirectional breadth-first"),
    "astar": N_("A* (shortest guided by a lower bound)"),
    "idastar": N_("IDA* (A* in iterative deepening)"),
    "seed-bfs": N_("the original generic solver's breadth-first search"),
    "seed-bidirectional": N_("the original 8-puzzle program's bidirectional search"),
    "seed-astar": N_("the original water-sort program's A*"),
}


def lab_config(query: Mapping[str, str]) -> dict[str, Any]:
    """The page's config from its URL: game, board (canonical), options, algorithms,
    every game's declaration, and ``error`` when the query was bad."""
    games = catalogue.games()
    first = next(iter(games))  # the lobby's first game (its default board: a classic)
    name = query.get("game") or first
    game = games.get(name) or games[first]
    config: dict[str, Any] = {
        "game": game.name,
        "board": game.default_board,
        "options": {},
        "algorithms": list(DEFAULT_ALGORITHMS),
        "known": list(ALGORITHM_NAMES),
        # in the reader's language (the page's script shows them as they are)
        "kinds": {name: gettext(KINDS[name]) if name in KINDS else "" for name in ALGORITHM_NAMES},
        "algorithm_count": [MIN_ALGORITHMS, MAX_ALGORITHMS],
        "error": None if name in games else gettext("unknown game %(name)s", name=repr(name[:40])),
        "game_info": game.describe(),
    }
    try:
        options = game.check_options({o.name: query.get(o.name) for o in game.options})
        domain, state = parse_board(game.name, query.get("board") or game.default_board, **options)
        config["board"], config["options"] = domain.format(state), options
        asked = [n for n in (query.get("algorithms") or "").split(",") if n]
        config["algorithms"] = check_algorithms(game.name, asked or DEFAULT_ALGORITHMS, **options)
    except BoardError as err:
        config["error"] = config["error"] or translated(err)
    # the algorithms that cannot search this game: the page greys their boxes
    config["unfit"] = [n for n in ALGORITHM_NAMES if unfit(game.name, n, **config["options"])]
    return config


@lab.get("/lab")
def lab_page():
    config = lab_config(request.args)
    page = render_template("lab.html", config=config, games=lobby_games())
    return make_response(page, 400 if config["error"] else 200)
