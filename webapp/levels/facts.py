"""Generated and graded levels for the play page: URL query -> level, and what is known of it.

``?seed=N`` (or ``?daily=1``, whose seed comes from the UTC date) with a game's
generator parameters (its declared ``generator`` options, read from the query)
opens the same puzzle for everyone. The game does the generating
(:meth:`~solver.core.game.Game.generate`); this module only reads the query and
says what the page should show (``min`` moves, level name).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from solver import catalogue
from solver.core.errors import BoardError
from solver.core.game import Game, Option
from solver.core.seeds import MAX_SEED, daily_seed
from solver.core.text import N_

SEED = Option("seed", int, None, "the generator's seed", low=0, high=MAX_SEED)


def _seed(query: Mapping[str, str], game: type[Game]) -> int | None:
    """The query's seed: explicit ``seed``, else today's when ``daily`` is set, else None."""
    seed = SEED.coerce(query.get("seed"))
    if seed is not None:
        return seed
    if query.get("daily") not in (None, "", "0"):
        return daily_seed(game.name)
    return None


Generate = Callable[[dict, int, bool], dict]


def generated_level(
    game: type[Game], query: Mapping[str, str], generate: Generate | None = None
) -> dict | None:
    """The level a seeded query asks for, or None; raises BoardError on bad parameters.

    Returns {board, seed, daily, params, options, min_moves, optimal, name?}.
    ``generate(params, seed, daily)`` makes it (default :meth:`Game.generate`
    here; the web app passes one that runs in a worker process).
    """
    seed = _seed(query, game)
    if seed is None:
        # a generator's own option (not also a game option, as water sort's capacity
        # is, read with the board) would be dropped without a word: refuse it
        own = [o for o in game.generator if game.option(o.name) is None]
        given = {o.name: o.coerce(query.get(o.name)) for o in own}
        given = {name: value for name, value in given.items() if value is not None}
        if given:
            names = ", ".join(f"{name}={value}" for name, value in given.items())
            raise BoardError(
                N_("%(names)s makes a new puzzle only with seed=N or daily=1"), names=names
            )
        return None
    params = {option.name: option.coerce(query.get(option.name)) for option in game.generator}
    params = {name: value for name, value in params.items() if value is not None}
    daily = query.get("seed") in (None, "")
    made = (generate or game.generate)(params, seed, daily)
    return {**made, "seed": seed, "daily": daily}


@cache
def _levels_by_board(game: type[Game]) -> dict[str, list[dict]]:
    """The game's graded levels by start board (several when only options differ)."""
    found: dict[str, list[dict]] = {}
    for level in game.levels():
        found.setdefault(level["board"], []).append(level)
    return found


def _same_puzzle(game: type[Game], level: dict, options: Mapping) -> bool:
    """True when ``options`` pose the level's puzzle: every option but the progress
    option as the level has it (a Klotski level with another goal is another puzzle),
    and a move count known for the progress option's value."""
    for option in game.options:
        if option.name == game.progress_option:
            continue
        given = options.get(option.name)
        wanted = level.get("options", {}).get(option.name)
        if (option.default if given is None else given) != (
            option.default if wanted is None else wanted
        ):
            return False
    return game.progress_value(options) in level["moves"]


def find_level(game: type[Game], board: str, options: Mapping) -> dict | None:
    """The game's graded level that starts at ``board`` (canonical) under ``options``."""
    return next(
        (
            level
            # type[Game] is hashable; mypy does not see it (python/mypy#11470)
            for level in _levels_by_board(game).get(board, ())  # type: ignore[arg-type]
            if _same_puzzle(game, level, options)
        ),
        None,
    )


def load_levels() -> None:
    """Import every game and index its levels now: at start-up, not on the event loop
    while the first players wait (the N-puzzle's modules alone take most of a second)."""
    for game in catalogue.games().values():
        _levels_by_board(game)  # type: ignore[arg-type]  # hashable, as in find_level


def level_ref(game: type[Game], level: dict) -> str:
    """A shipped level's own name in links, ``<pack>/<number>`` (the lobby's "No. N"):
    ``?level=`` opens it as a ranked puzzle, where ``?board=`` is free play."""
    pack = [other for other in game.levels() if other["pack"] == level["pack"]]
    return f"{level['pack']}/{pack.index(level) + 1}"


def level_by_ref(game: type[Game], ref: str) -> dict:
    """The shipped level :func:`level_ref` names; BoardError when there is none."""
    pack, _, number = str(ref).rpartition("/")
    levels = [level for level in game.levels() if level["pack"] == pack]
    if not number.isdigit() or not 1 <= int(number) <= len(levels):
        raise BoardError(
            N_("no %(game)s level %(level)s"), game=game.name, level=repr(str(ref)[:40])
        )
    return levels[int(number) - 1]


def level_min(game: type[Game], level: dict) -> int | None:
    """The level's fewest moves under its own options (the lobby's "min N moves")."""
    return level["moves"].get(game.progress_value(level.get("options", {})))


def _next_in_pack(game: type[Game], level: dict) -> dict | None:
    """The level after ``level`` in its pack ({ref, name}), None after the last."""
    pack = [other for other in game.levels() if other["pack"] == level["pack"]]
    number = pack.index(level) + 1
    if number >= len(pack):
        return None
    following = pack[number]
    return {"ref": f"{level['pack']}/{number + 1}", "name": following["name"]}


def level_facts(game: type[Game], board: str, options: Mapping, generated: dict | None) -> dict:
    """The page's ``min`` ({moves, optimal}) and ``level`` ({name, pack, moves: the fewest
    under each value of the progress option, next: the pack's next level or None}) for a
    start board."""
    facts: dict[str, Any] = {"min": None, "level": None}
    if generated is not None:
        facts["min"] = {"moves": generated["min_moves"], "optimal": generated["optimal"]}
    level = find_level(game, board, options)
    if level is not None:
        facts["min"] = {"moves": level["moves"][game.progress_value(options)], "optimal": True}
        facts["level"] = {
            "name": level["name"],
            "english": level.get("english"),  # beside a name in another language
            "pack": level["pack"],
            "moves": dict(level["moves"]),
            "next": _next_in_pack(game, level),  # the "Next level" link once solved
        }
    return facts
