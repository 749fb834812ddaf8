"""The one lookup for games: every package ``solver/<game>/`` that declares ``GAME``.

Nothing else in the project keeps a list of games. A package becomes a game by
exporting ``GAME``, a :class:`~solver.core.game.Game` subclass named like its
package, from its ``__init__``. :func:`names` lists the game packages without
importing any, :func:`get` imports the one asked for, and :func:`games` imports
them all (the web app and the bench need every one; a one-game CLI call does
not, so it starts in the time one game takes to import).
"""

from __future__ import annotations

import importlib
import os
from functools import cache

from solver.core.text import N_

from .core.errors import BoardError
from .core.game import Game

_HERE = __name__.rpartition(".")[0]  # "solver"
#: subpackages of ``solver`` that are not games
NOT_GAMES = frozenset({"core", "examples"})


@cache
def names() -> tuple[str, ...]:
    """The game packages' names, sorted, found on disk without importing them."""
    folder = os.path.dirname(os.path.realpath(__file__))
    # a directory listing, not pkgutil's walk (which imports inspect: milliseconds a call)
    return tuple(
        sorted(
            entry.name
            for entry in os.scandir(folder)
            if entry.is_dir()
            and entry.name.isidentifier()
            and entry.name not in NOT_GAMES
            and not entry.name.startswith("_")
            and os.path.isfile(os.path.join(entry.path, "__init__.py"))
        )
    )


@cache
def _load(name: str) -> type[Game]:
    """Import the package ``name`` and return its declaration (named like the package)."""
    module = importlib.import_module(f"{_HERE}.{name}")
    game = getattr(module, "GAME", None)
    if not (isinstance(game, type) and issubclass(game, Game)) or game.name != name:
        raise TypeError(f"{_HERE}.{name} must export GAME, a Game subclass named {name!r}")
    return game


@cache
def games() -> dict[str, type[Game]]:
    """Every declared game by name, in a stable order (declaration ``order``, then name)."""
    found = [_load(name) for name in names()]
    return {game.name: game for game in sorted(found, key=lambda g: (g.order, g.name))}


def get(name: object) -> type[Game]:
    """The game called ``name`` (importing only its package); a clear BoardError quoting
    ``name`` otherwise."""
    if not isinstance(name, str) or name not in names():
        raise BoardError(
            N_("unknown game %(name)s; choose one of %(games)s"),
            name=repr(str(name)[:40]),
            games=", ".join(names()),
        )
    return _load(name)


def warm_tables(first: bool = False) -> int:
    """Load (or build) every game's tables (:meth:`Game.warm`; with ``first``, only
    what a player's first minute needs, :meth:`Game.warm_first`) into this process and
    the disk cache; returns how many were warmed. One game's failure is logged and the
    rest go on: tables are only a speed-up, the solver builds them on demand."""
    import logging  # a server's concern: a one-shot CLI call never imports it

    done = 0
    for game in games().values():
        try:
            done += game.warm_first() if first else game.warm()
        except Exception:  # one bad table must not stop the rest
            logging.getLogger(__name__).exception("could not prebuild the tables of %s", game.name)
    return done
