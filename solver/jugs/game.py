"""The declaration of water jugs: title, options, levels, the daily pick and race puzzles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.game import Game, Option
from ..core.packs import load_pack
from ..core.text import N_
from .domain import Jugs
from .generate import jugs_puzzle
from .rules import MAX_JUGS

PACK = "jugs-classic"
LEVELS_FILE = Path(__file__).resolve().parent / "levels.json"


def _pack() -> list[dict]:
    return load_pack(LEVELS_FILE)["levels"]


class JugsGame(Game):
    name = "jugs"
    title = N_("Water jugs")
    order = 4
    summary = N_("Measure exact litres with unmarked jugs, pouring until one is empty or full.")
    how_to_play = N_(
        "Click a jug, then the jug to pour into (or press their numbers). "
        "A pour stops when the first jug is empty or the second is full. "
        "Reach the litres marked under each jug."
    )
    default_board = "0/3,0/5,8/8"
    domain = Jugs
    options = (
        Option(
            "goal",
            str,
            None,
            "jugs: target litres per jug, * for any, e.g. *,4,* "
            "(default: the water shared equally by the two largest jugs)",
            label=N_("Goal"),
        ),
    )
    progress_option = "goal"
    original_searches = ("seed-bfs",)
    max_parts = MAX_JUGS
    part_name = "jugs"
    features = frozenset()

    @classmethod
    def levels(cls) -> list[dict]:
        return [
            {
                "name": level["name"],
                "board": level["board"],
                "pack": PACK,
                "size": cls.size_label(level["board"], {}),
                "options": {"goal": level["goal"]},
                "moves": {level["goal"]: level["pours"]},
            }
            for level in _pack()
        ]

    #: races' small jugs: three jugs, 2 to 12 pours (proven by a search of every state)
    race_lengths = (2, 12)

    @classmethod
    def race_params(cls, length: int) -> dict[str, Any]:
        return {"pours": length}

    @classmethod
    def generate(cls, params: dict[str, Any], seed: int, daily: bool) -> dict:
        """A race's puzzle ``pours`` long (:mod:`solver.jugs.generate`); without
        ``pours`` (the New game button, the daily), the level the seed picks."""
        if "pours" not in params:
            return super().generate(params, seed, daily)
        made = jugs_puzzle(params["pours"], seed)
        return {
            "board": made["board"],
            "options": {"goal": made["goal"]},
            "min_moves": made["pours"],
            "optimal": True,
            "params": {"pours": made["pours"]},
        }
