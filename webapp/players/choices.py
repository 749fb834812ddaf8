"""What players chose: per position of a daily or a level, how many players took each move.

Kept on write from the verified lines of unassisted results only (a line that
used Solve shows the solver's choice, not the player's): each move of the line
is inserted once per player into ``choice_players`` (insert-if-absent), and only
the rows that were new add one to ``choice_counts``, so a player who takes a
move twice still counts once. A question is then one indexed read of a few rows
(the position's legal moves), whatever the number of lines stored; nothing is
rebuilt or held in memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from solver.core.domain import Domain

from ..storage import Database
from ..storage.derived import LEFT, add_choices, edges, position_hash
from ..storage.models import ChoiceCount


def record(connection: Connection, puzzle_key: str, player_id: int, states: Sequence[str]) -> None:
    """Count ``player_id``'s moves along ``states`` (canonical positions), in the
    result's own transaction."""
    add_choices(connection, puzzle_key, player_id, edges(states))


def moves(db: Database, domain: Domain, puzzle_key: str, position: str) -> dict:
    """{position, players: who left this position, moves: [{move, board, players}]}, most
    taken first; every legal move is listed (0 when nobody took it)."""
    state = domain.parse(position)
    here = domain.format(state)
    with db.session() as session:
        counted = dict(
            session.execute(
                select(ChoiceCount.next, ChoiceCount.players).where(
                    ChoiceCount.puzzle == puzzle_key,
                    ChoiceCount.position == position_hash(here),
                )
            ).all()
        )
    listed: list[dict[str, Any]] = []
    for move, after in domain.legal_moves(state):
        board = domain.format(after)
        listed.append(
            {
                "move": domain.describe(move),
                "board": board,
                "players": counted.get(position_hash(board), 0),
            }
        )
    listed.sort(key=lambda m: -m["players"])
    return {"position": here, "players": counted.get(LEFT, 0), "moves": listed}
