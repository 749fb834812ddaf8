"""The three games the arcade serves: their default boards and the play page's config.

A play page is opened from a URL (``/play/npuzzle?board=...``), so every
position has a shareable link. This module turns the URL's query into the
``config`` object the page reads: the board in canonical notation, the options
that apply to that game, the playback speed and, when the URL's board is bad,
the solver's one-line error (the page then falls back to the default board).
"""
from __future__ import annotations

from typing import Any, Mapping, Optional
from urllib.parse import urlencode

from solver import levels as solver_levels
from solver.engine import parse_board
from solver.errors import BoardError

#: title and default position per game; each default is solvable (tests prove it)
GAMES = {
    "klotski": {
        "title": "Klotski",
        "board": "BAAC/BAAC/DEEF/DGHF/I..J",
        "options": {"metric": "piece", "goal": None},
    },
    "watersort": {
        "title": "Water sort",
        "board": "ABCD,DCBA,BADC,CDAB,,",
        "options": {"capacity": 4},
    },
    "npuzzle": {
        "title": "8-puzzle",
        "board": "4 1 2 0 8 7 6 3 5",
        "options": {},
    },
}

DEFAULT_SPEED_MS = 400
MIN_SPEED_MS, MAX_SPEED_MS = 20, 5000


def play_url(game: str, board: Optional[str] = None, **options: Any) -> str:
    """The shareable link for ``board`` (``None`` options are left out)."""
    query = {"board": board, **options}
    query = {k: v for k, v in query.items() if v is not None}
    return f"/play/{game}" + (f"?{urlencode(query)}" if query else "")


def load_levels() -> list[dict]:
    """The named classic Klotski layouts (shipped with the solver), each with its play link."""
    levels = solver_levels.load("klotski-classic")["levels"]
    return [{"name": level["name"], "board": level["board"],
             "url": play_url("klotski", level["board"])} for level in levels]


def lobby_games() -> list[dict]:
    """One entry per game for the lobby: name, title and link."""
    return [{"game": name, "title": info["title"], "url": play_url(name)}
            for name, info in GAMES.items()]


def _options_from_query(game: str, query: Mapping[str, str]) -> dict:
    """The options that apply to ``game``, typed; raises BoardError on bad values."""
    options = dict(GAMES[game]["options"])
    if game == "klotski":
        for name in ("metric", "goal"):
            value = query.get(name)
            if value:
                options[name] = value
    elif game == "watersort":
        value = query.get("capacity")
        if value:
            if not value.strip().isdigit():
                raise BoardError(f"capacity must be a whole number, not {value!r}")
            options["capacity"] = int(value)
    return options


def _speed_from_query(query: Mapping[str, str]) -> int:
    """Playback speed in ms per move; nonsense falls back to the default quietly."""
    try:
        speed = int(query.get("speed", DEFAULT_SPEED_MS))
    except (TypeError, ValueError):
        return DEFAULT_SPEED_MS
    return max(MIN_SPEED_MS, min(MAX_SPEED_MS, speed))


def play_config(game: str, query: Mapping[str, str]) -> dict:
    """The play page's config for ``game`` opened with URL ``query``.

    A bad board or option never breaks the page: ``error`` carries the solver's
    message and the default position is served instead.
    """
    info = GAMES[game]
    config = {"game": game, "board": info["board"], "options": dict(info["options"]),
              "speed": _speed_from_query(query), "error": None}
    try:
        options = _options_from_query(game, query)
        board = query.get("board")
        if board is None or board == "":
            board = info["board"]
        domain, state = parse_board(game, board, **options)
        config["board"] = domain.format(state)
        config["options"] = options
    except BoardError as err:
        config["error"] = str(err)
    return config
