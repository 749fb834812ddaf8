"""The games as pages: shareable links, the lobby's cards and levels, a play page's config.

A play page is opened from a URL (``/play/<game>?board=...``), so every
position has a shareable link. This module turns the URL's query into the
``config`` object the page reads: the board in canonical notation, the game's
options, the playback speed, the game's declaration (``game_info``) and, when
the URL's board is bad, the solver's one-line error (the page then falls back
to the default board). Every game comes from :mod:`solver.catalogue`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from solver import catalogue
from solver.core.errors import BoardError
from solver.core.game import Game
from solver.engine import parse_board

from ..i18n import translated
from ..levels.facts import (
    Generate,
    generated_level,
    level_by_ref,
    level_facts,
    level_min,
    level_ref,
)
from ..players.runs import PENALTY_SECONDS, STORM_SECONDS
from ..players.runs import offered as runs_offered
from ..storage.names import MAX_NAME

DEFAULT_SPEED_MS = 400
MIN_SPEED_MS, MAX_SPEED_MS = 20, 5000


def play_url(game: str, board: str | None = None, **options: Any) -> str:
    """The shareable link for ``board`` (``None`` options are left out)."""
    query = {"board": board, **options}
    query = {k: v for k, v in query.items() if v is not None}
    return f"/play/{game}" + (f"?{urlencode(query)}" if query else "")


def lobby_games() -> list[dict]:
    """One card per game for the lobby: its declaration plus the link to play it."""
    return [
        {**game.describe(), "url": play_url(name), "runs": runs_offered(game)}
        for name, game in catalogue.games().items()
    ]


def run_rules() -> dict:
    """A storm's length and the seconds a longer move costs, as the server keeps them, for
    the words the lobby and the run page show (never retyped in a page)."""
    return {
        "storm_seconds": STORM_SECONDS,
        "storm_minutes": f"{STORM_SECONDS / 60:g}",
        "penalty_seconds": PENALTY_SECONDS,
    }


def lobby_packs() -> dict[str, list[dict]]:
    """Every game's graded levels by pack, each with its ``game``, play ``url``, ``min``
    and ``variants``: the same level under the progress option's other values."""
    packs: dict[str, list[dict]] = {}
    for name, game in catalogue.games().items():
        for level in game.levels():
            packs.setdefault(level["pack"], []).append(
                {
                    **level,
                    "game": name,
                    "url": play_url(name, level=level_ref(game, level)),
                    "min": level_min(game, level),
                    "variants": level_variants(game, level),
                    **level_hardness(game, level),
                }
            )
    return packs


def level_hardness(game: type[Game], level: dict) -> dict:
    """What a pack knows beyond the length, under the level's own options: ``traps``
    (positions on the shortest solution with a single best move) and ``farthest``
    (its group's hardest start; equal to ``min`` when the level is that start)."""
    value = game.progress_value(level.get("options", {}))
    return {
        "traps": level.get("traps", {}).get(value),
        "farthest": level.get("group", {}).get("farthest", {}).get(value),
    }


def level_variants(game: type[Game], level: dict) -> list[dict]:
    """The level under each other value of a choice-type progress option (Klotski's
    metrics) whose fewest moves the pack knows: {value, label, min, url} each."""
    option = game.option(game.progress_option) if game.progress_option else None
    if option is None or not option.choices:
        return []
    options = level.get("options", {})
    own = game.progress_value(options)
    return [
        {
            "value": value,
            "label": option.label or option.name,
            "min": level["moves"][value],
            "url": play_url(game.name, level=level_ref(game, level), **{option.name: value}),
        }
        for value in option.choices
        if value != own and value in level["moves"]
    ]


def _speed_from_query(query: Mapping[str, str]) -> int:
    """Playback speed in ms per move; nonsense falls back to the default quietly."""
    try:
        speed = int(query.get("speed", DEFAULT_SPEED_MS))
    except (TypeError, ValueError):
        return DEFAULT_SPEED_MS
    return max(MIN_SPEED_MS, min(MAX_SPEED_MS, speed))


def play_config(
    game: type[Game], query: Mapping[str, str], generate: Generate | None = None
) -> dict:
    """The play (and editor) page's config for ``game`` opened with URL ``query``.

    ``?seed=`` or ``?daily=1`` (with the generator's own parameters) opens a
    generated level; ``?level=<pack>/<n>`` a shipped level (with the progress
    option, e.g. ``metric``, as a further parameter); ``?board=`` any position. A bad board or option never
    breaks the page: ``error`` carries the solver's message and the default
    position is served instead. ``min`` is the start's known shortest solution
    ({moves, optimal}) when a pack or generator graded it; ``level`` names a
    pack level; ``choices`` fills the page's "New game" pickers. ``generate``
    makes a seeded level (see :func:`~webapp.levels.facts.generated_level`).
    """
    defaults = game.default_options()
    config: dict[str, Any] = {
        "game": game.name,
        "board": game.default_board,
        "options": dict(defaults),
        "speed": _speed_from_query(query),
        "error": None,
        "min": None,
        "level": None,
        "generated": None,
        "params": {},  # the generator's parameters of the board on screen (the pickers' start)
        "level_link": None,  # ``?level=``: a shipped level opened as such (ranked)
        # ``?ladder=1``: with a board, a ladder puzzle opened as such (ranked); without,
        # the page asks the ladder for the player's next puzzle ("next")
        "ladder": None,
        "choices": game.choices(),
        "game_info": game.describe(),
        "name_limit": MAX_NAME,  # a player name's most characters, as the server checks
    }
    try:
        generated = generated_level(game, query, generate)
        options = {
            **defaults,
            **game.check_options({o.name: query.get(o.name) for o in game.options}),
        }
        board = query.get("board")
        if generated is not None:
            board = generated["board"]
            options.update(generated["options"])
            config["generated"] = generated
        elif query.get("level"):
            level = level_by_ref(game, query["level"])
            board = level["board"]
            progress = game.progress_option
            own = {**defaults, **level.get("options", {})}
            if progress is not None and query.get(progress):
                own[progress] = options.get(progress)  # a variant: the same level, step metric
            options = own
            config["level_link"] = query["level"]
        if query.get("ladder") == "1" and generated is None and not query.get("level"):
            config["ladder"] = "play" if board else "next"
        if board is None or board == "":
            board = game.default_board
        domain, state = parse_board(game.name, board, **options)
        config["board"] = domain.format(state)
        config["options"] = options
        config["params"] = (
            generated["params"] if generated else game.params_of(config["board"], options)
        )
        config.update(level_facts(game, config["board"], options, generated))
    except BoardError as err:
        config["error"] = translated(err)
    return config
