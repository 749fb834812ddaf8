"""The declaration of water jugs: title, options, levels and the daily pick."""

from __future__ import annotations

from pathlib import Path

from ..core.game import Game, Option
from ..core.packs import load_pack
from ..core.text import N_
from .domain import Jugs
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
    seed_searches = ("seed-bfs",)
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
