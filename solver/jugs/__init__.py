"""Water jugs: pour between unmarked jugs until they hold the litres asked for."""

from .game import JugsGame as GAME
from .rules import Jugs, Pour, format_goal, parse_goal, parse_jugs, pour

__all__ = ["GAME", "Jugs", "Pour", "format_goal", "parse_goal", "parse_jugs", "pour"]
