"""Generated and graded levels for the play page: URL query -> level, and what is known of it.

``?seed=N`` (or ``?daily=1``, whose seed comes from the UTC date) with a game's
generator parameters opens the same puzzle for everyone:

* npuzzle: ``size`` (3-5) and ``distance`` (moves from solved);
* watersort: ``colours`` (3-14), ``capacity`` (3-6), ``empty`` (1-3);
* klotski: a graded pack level picked by the seed.

The solver does the generating (:mod:`solver.generate`); this module only
reads the query and says what the page should show (``min`` moves, level name).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Mapping, Optional

from solver import generate
from solver.errors import BoardError

NPUZZLE_DEFAULT = {"size": 3, "distance": 20}
WATERSORT_DEFAULT = {"colours": 6, "capacity": 4, "empty": 2}
DAILY_NPUZZLE_SIZE = 3


def _whole(query: Mapping[str, str], name: str, default: int) -> int:
    value = query.get(name)
    if value is None or value == "":
        return default
    text = str(value).strip()
    if not text.isdigit() or len(text) > 12:
        raise BoardError(f"{name} must be a whole number, not {value[:20]!r}")
    return int(text)


def _seed(query: Mapping[str, str], game: str) -> Optional[int]:
    """The query's seed: explicit ``seed``, else today's when ``daily`` is set, else None."""
    if query.get("seed") not in (None, ""):
        return generate.check_seed(_whole(query, "seed", 0))
    if query.get("daily") not in (None, "", "0"):
        return generate.daily_seed(game)
    return None


def generated_level(game: str, query: Mapping[str, str]) -> Optional[dict]:
    """The level a seeded query asks for, or None; raises BoardError on bad parameters.

    Returns {board, seed, daily, params, options, min_moves, optimal, name}.
    """
    seed = _seed(query, game)
    if seed is None:
        return None
    daily = query.get("seed") in (None, "")
    if game == "npuzzle":
        size = _whole(query, "size", DAILY_NPUZZLE_SIZE if daily else NPUZZLE_DEFAULT["size"])
        default_distance = 20 + seed % 12 if daily else NPUZZLE_DEFAULT["distance"]
        distance = _whole(query, "distance", min(default_distance,
                                                  generate.npuzzle_max_distance(size)))
        made = generate.npuzzle_at_distance(size, distance, seed)
        params = {"size": size, "distance": distance}
        found = {"min_moves": made["distance"], "optimal": made["optimal"], "options": {}}
    elif game == "watersort":
        params = {name: _whole(query, name, default) for name, default in WATERSORT_DEFAULT.items()}
        if daily:
            params = {"colours": 8, "capacity": 4, "empty": 2}
        made = generate.watersort_level(params["colours"], params["capacity"], params["empty"], seed)
        found = {"min_moves": made["pours"], "optimal": True,
                 "options": {"capacity": params["capacity"]}}
    else:
        made = generate.klotski_daily(list(_pack_by_board().values()), seed)
        params = {}
        found = {"min_moves": made["moves"]["piece"], "optimal": True,
                 "options": {"metric": "piece"}, "name": made["name"]}
    return {"board": made["board"], "seed": seed, "daily": daily, "params": params, **found}


@lru_cache(maxsize=1)
def _pack_by_board() -> dict:
    return {level["board"]: level for level in generate.klotski_levels()}


def find_level(board: str) -> Optional[dict]:
    """The graded Klotski pack level whose start is ``board`` (canonical text), if any."""
    return _pack_by_board().get(board)


def level_facts(game: str, board: str, options: dict, generated: Optional[dict]) -> dict:
    """The page's ``min`` ({moves, optimal}) and ``level`` ({name, pack}) for a start board."""
    facts = {"min": None, "level": None}
    if generated is not None:
        facts["min"] = {"moves": generated["min_moves"], "optimal": generated["optimal"]}
    if game == "klotski" and not options.get("goal"):
        level = find_level(board)
        if level is not None:
            metric = options.get("metric") or "piece"
            facts["min"] = {"moves": level["moves"][metric], "optimal": True}
            facts["level"] = {"name": level["name"], "pack": level["pack"]}
    return facts


def new_game_choices(game: str) -> dict:
    """What the "New game" pickers offer for ``game`` (ranges and defaults)."""
    if game == "npuzzle":
        return {"sizes": {str(n): generate.npuzzle_max_distance(n)
                          for n in generate.NPUZZLE_SIZES},
                "exact_sizes": [3], **NPUZZLE_DEFAULT}
    if game == "watersort":
        return {"colours": list(generate.WATERSORT_COLOURS),
                "capacity": list(generate.WATERSORT_CAPACITY),
                "empty": list(generate.WATERSORT_EMPTY), "defaults": WATERSORT_DEFAULT}
    return {"levels": len(_pack_by_board())}
