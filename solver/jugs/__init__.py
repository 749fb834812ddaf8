"""Water jugs: pour between unmarked jugs until they hold the litres asked for."""

from .domain import Jugs
from .game import JugsGame as GAME
from .rules import Pour, format_goal, parse_goal, parse_jugs, pour

__all__ = ["GAME", "Jugs", "Pour", "format_goal", "parse_goal", "parse_jugs", "pour"]
