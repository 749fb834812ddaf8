"""The one lookup for games: every package ``solver/<game>/`` that declares ``GAME``.

Nothing else in the project keeps a list of games. A package becomes a game by
exporting ``GAME``, a :class:`~solver.core.game.Game` subclass, from its
``__init__``; :func:`games` finds it by scanning this package's subpackages.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from .core.errors import BoardError
from .core.game import Game

_HERE = __name__.rpartition(".")[0]  # "solver"


@lru_cache(maxsize=1)
def games() -> dict[str, type[Game]]:
    """Every declared game by name, in a stable order (declaration ``order``, then name)."""
    found = {}
    package = importlib.import_module(_HERE)
    for info in pkgutil.iter_modules(package.__path__):
        if not info.ispkg or info.name in ("core",):
            continue
        module = importlib.import_module(f"{_HERE}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, type) and issubclass(game, Game) and game.name:
            found[game.name] = game
    order = sorted(found.values(), key=lambda g: (getattr(g, "order", 100), g.name))
    return {g.name: g for g in order}


def get(name: object) -> type[Game]:
    """The game called ``name``; a clear BoardError (quoting it) otherwise."""
    known = games()
    if not isinstance(name, str) or name not in known:
        raise BoardError(f"unknown puzzle {str(name)[:40]!r}; choose one of {', '.join(known)}")
    return known[name]
