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

from solver.engine import parse_board
from solver.errors import BoardError
from solver.generate import klotski_levels

from .levels import generated_level, level_facts, new_game_choices

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
    """Every graded Klotski layout (classic first), with its play link and progress key.

    Keys: name, board, url, size, moves {piece, step}, pack, min (piece moves).
    """
    return [{**level, "url": play_url("klotski", level["board"]),
             "min": level["moves"]["piece"]} for level in klotski_levels()]


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

    ``?seed=`` or ``?daily=1`` (with the generator's own parameters) opens a
    generated level; ``?board=`` any position. A bad board or option never
    breaks the page: ``error`` carries the solver's message and the default
    position is served instead. ``min`` is the start's known shortest solution
    ({moves, optimal}) when a pack or generator graded it; ``level`` names a
    pack level; ``choices`` fills the page's "New game" pickers.
    """
    info = GAMES[game]
    config = {"game": game, "board": info["board"], "options": dict(info["options"]),
              "speed": _speed_from_query(query), "error": None, "min": None,
              "level": None, "generated": None, "choices": new_game_choices(game)}
    try:
        generated = generated_level(game, query)
        options = _options_from_query(game, query)
        board = query.get("board")
        if generated is not None:
            board = generated["board"]
            options.update(generated.get("options", {}))
            config["generated"] = generated
        if board is None or board == "":
            board = info["board"]
        domain, state = parse_board(game, board, **options)
        config["board"] = domain.format(state)
        config["options"] = options
        config.update(level_facts(game, config["board"], options, generated))
    except BoardError as err:
        config["error"] = str(err)
    return config
