"""The declaration of water sort: title, the capacity option and the seeded deal generator."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.game import Game, Option
from ..core.text import N_
from .domain import WaterSort
from .generate import CAPACITY, COLOURS, EMPTY, watersort_level
from .rules import MAX_CAPACITY, MAX_TUBES

DEFAULTS = {"colours": 6, "capacity": 4, "empty": 2}
DAILY = {"colours": 8, "capacity": 4, "empty": 2}


class WaterSortGame(Game):
    name = "watersort"
    title = N_("Water sort")
    order = 2
    summary = N_(
        "Pour the colours until every tube holds a single one. Each colour has its own symbol."
    )
    how_to_play = N_(
        "Click a tube, then the tube to pour into (or press its number). "
        "A colour pours onto an empty tube or onto the same colour."
    )
    default_board = "ABCD,DCBA,BADC,CDAB,,"
    domain = WaterSort
    options = (
        Option(
            "capacity",
            int,
            4,
            "water-sort tube capacity (default 4)",
            low=1,
            high=MAX_CAPACITY,
            label=N_("Capacity"),
        ),
    )
    generator = (
        Option(
            "colours",
            int,
            DEFAULTS["colours"],
            "colours to sort",
            low=COLOURS[0],
            high=COLOURS[1],
            label=N_("Colours"),
        ),
        Option(
            "capacity",
            int,
            DEFAULTS["capacity"],
            "units per tube",
            low=CAPACITY[0],
            high=CAPACITY[1],
            label=N_("Capacity"),
        ),
        Option(
            "empty",
            int,
            DEFAULTS["empty"],
            "empty tubes",
            low=EMPTY[0],
            high=EMPTY[1],
            label=N_("Empty tubes"),
        ),
    )
    progress_option = "capacity"
    original_searches = ("seed-bfs", "seed-astar")
    max_parts = MAX_TUBES
    part_name = "tubes"
    features = frozenset({"extra-tube"})
    #: the ladder's deals: about 3 moves a colour, 3 to 9 colours
    ladder_lengths = (6, 30)

    @classmethod
    def ladder_params(cls, length: int) -> dict[str, Any]:
        return {"colours": min(9, max(COLOURS[0], round((length + 1) / 3.2)))}

    @classmethod
    def generate(cls, params: dict[str, Any], seed: int, daily: bool) -> dict:
        """A deal proven solvable; the daily deal always has the same size."""
        params = dict(DAILY) if daily else {**DEFAULTS, **params}
        made = watersort_level(params["colours"], params["capacity"], params["empty"], seed)
        return {
            "board": made["board"],
            "options": {"capacity": params["capacity"]},
            "min_moves": made["pours"],
            "optimal": True,
            "params": params,
        }

    @classmethod
    def params_of(cls, board: str, options: dict[str, Any]) -> dict[str, Any]:
        """Colours, capacity and empty tubes of ``board``: a 4-colour deal picks 4."""
        tubes = board.split(",")
        colours = {ch for tube in tubes for ch in tube}
        capacity = options.get("capacity", DEFAULTS["capacity"])
        return {"colours": len(colours), "capacity": capacity, "empty": tubes.count("")}

    @classmethod
    def size_label(cls, board: str, options: Mapping[str, Any]) -> str:
        params = cls.params_of(board, dict(options))
        return f"{params['colours']} colours, {params['capacity']} a tube"

    @classmethod
    def choices(cls) -> dict:
        return {
            "colours": list(COLOURS),
            "capacity": list(CAPACITY),
            "empty": list(EMPTY),
            "defaults": dict(DEFAULTS),
        }
