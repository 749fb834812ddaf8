"""Water sort: pour coloured liquid between tubes until every tube holds one colour.

Notation: tubes joined by ``,``, each written bottom to top, one
character per unit of colour (a colour is one ASCII letter or digit, case
matters); an empty tube is empty text. ``ABAB,BABA,,`` is two mixed tubes and
two empty ones. Each colour's count must be a multiple of the capacity.

A state is a tuple of tube strings in the player's order, so moves name real
tubes; :meth:`WaterSort.key` sorts the tubes, so the order of tubes never
multiplies the search. Solving (fewest pours, proven) lives in
:mod:`solver.watersort.search`; the lower bound it uses is :func:`lower_bound`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..core.domain import Domain
from ..core.errors import BoardError
from ..core.results import Budget, Cancel, SearchResult
from ..core.search import OnProgress
from ..core.text import N_
from .rules import COLOUR_SET, MAX_CAPACITY, MAX_TUBES, Pour, State, lower_bound, top_run
from .search import solve_fewest_pours


class WaterSort(Domain[State, Pour]):
    """Water sort with tubes of ``capacity`` units (default 4, at most 12).

    Moves are :class:`Pour` tuples with 0-based tube indices; :meth:`describe`
    writes them 1-based for people (``tube 1 -> 3`` pours the first tube into
    the third), :meth:`move_info` gives the 0-based indices the web page uses.
    """

    name = "watersort"
    heuristic_admissible = True
    reversible = False  # a pour onto a same-coloured top cannot always be undone

    def __init__(self, capacity: object = 4) -> None:
        self.capacity = self._check_capacity(capacity)

    @staticmethod
    def _check_capacity(capacity: object) -> int:
        if isinstance(capacity, bool):
            raise BoardError(N_("capacity must be a whole number"))
        if isinstance(capacity, str):
            text = capacity.strip()
            if not text.isdigit():
                raise BoardError(
                    N_("capacity %(capacity)s is not a whole number"), capacity=repr(capacity)
                )
            capacity = int(text)
        if not isinstance(capacity, int):
            raise BoardError(
                N_("capacity %(capacity)s is not a whole number"), capacity=repr(capacity)
            )
        if capacity < 1 or capacity > MAX_CAPACITY:
            raise BoardError(
                N_("capacity %(capacity)s is out of range; use 1 to %(most)s"),
                capacity=capacity,
                most=MAX_CAPACITY,
            )
        return capacity

    # -- notation ---------------------------------------------------------
    def parse(self, text: str) -> State:
        """Tubes from board text; every problem is named in one line (1-based tubes)."""
        if not isinstance(text, str):
            raise BoardError(N_("board must be text"))
        text = text.strip()
        if not text:
            raise BoardError(N_("empty board: write tubes bottom to top joined by ','"))
        tubes = text.split(",")
        if len(tubes) > MAX_TUBES:
            raise BoardError(
                N_("board has %(tubes)s tubes; the limit is %(most)s"),
                tubes=len(tubes),
                most=MAX_TUBES,
            )
        cap = self.capacity
        units: dict[str, int] = {}
        for index, tube in enumerate(tubes):
            for pos, ch in enumerate(tube):
                if ch not in COLOUR_SET:
                    raise BoardError(
                        N_(
                            "tube %(tube)s has %(char)s at position %(position)s; "
                            "colours are single letters or digits"
                        ),
                        tube=index + 1,
                        char=repr(ch),
                        position=pos + 1,
                    )
                units[ch] = units.get(ch, 0) + 1
            if len(tube) > cap:
                raise BoardError(
                    N_("tube %(tube)s holds %(units)s units, capacity is %(capacity)s"),
                    tube=index + 1,
                    units=len(tube),
                    capacity=cap,
                )
        if not units:
            raise BoardError(N_("board has no colour in any tube"))
        for colour in sorted(units):
            if units[colour] % cap:
                raise BoardError(
                    N_("colour %(colour)s has %(units)s units, tubes hold %(capacity)s"),
                    colour=colour,
                    units=units[colour],
                    capacity=cap,
                )
        return tuple(tubes)

    def format(self, state: State) -> str:
        return ",".join(state)

    # -- rules ------------------------------------------------------------
    def pour_amount(self, state: State, src: int, dst: int) -> int:
        """Units a pour from ``src`` to ``dst`` moves; 0 when the pour is not legal."""
        n = len(state)
        if not (0 <= src < n and 0 <= dst < n) or src == dst:
            return 0
        source, target = state[src], state[dst]
        room = self.capacity - len(target)
        if not source or room <= 0 or (target and target[-1] != source[-1]):
            return 0
        return min(top_run(source), room)

    def pour(self, state: State, src: int, dst: int) -> tuple[Pour, State]:
        """Apply the pour ``src -> dst`` (0-based) or raise :class:`BoardError` naming why not."""
        amount = self.pour_amount(state, src, dst)
        if amount == 0:
            template, params = self._why_illegal(state, src, dst)
            raise BoardError(template, **params)
        return self._apply(state, src, dst, amount)

    def _why_illegal(self, state: State, src: int, dst: int) -> tuple[str, dict[str, object]]:
        n = len(state)
        for index in (src, dst):
            if not isinstance(index, int) or not 0 <= index < n:
                return N_("there is no tube %(index)s; tubes are 0 to %(last)s"), {
                    "index": repr(index),
                    "last": n - 1,
                }
        if src == dst:
            return N_("pour into a different tube"), {}
        if not state[src]:
            return N_("tube %(tube)s is empty"), {"tube": src + 1}
        if len(state[dst]) >= self.capacity:
            return N_("tube %(tube)s is full"), {"tube": dst + 1}
        return N_("tube %(target)s has %(top)s on top, tube %(source)s pours %(colour)s"), {
            "target": dst + 1,
            "top": state[dst][-1],
            "source": src + 1,
            "colour": state[src][-1],
        }

    @staticmethod
    def _apply(state: State, src: int, dst: int, amount: int) -> tuple[Pour, State]:
        source = state[src]
        colour = source[-1]
        tubes = list(state)
        tubes[src] = source[:-amount]
        tubes[dst] = state[dst] + colour * amount
        return Pour(src, dst, amount, colour), tuple(tubes)

    def legal_pours(self, state: State) -> Iterator[tuple[Pour, State]]:
        """Every legal pour, including ones that only relabel tubes."""
        n = len(state)
        for src in range(n):
            for dst in range(n):
                amount = self.pour_amount(state, src, dst)
                if amount:
                    yield self._apply(state, src, dst, amount)

    def legal_moves(self, state: State) -> Iterator[tuple[Pour, State]]:
        return self.legal_pours(state)

    def moves(self, state: State) -> Iterator[tuple[Pour, State]]:
        """Legal pours, less the ones that cannot matter to any search.

        Pouring a tube that holds one colour only into an empty tube just swaps
        two tubes: same canonical key, so it is left out. Use
        :meth:`legal_pours` or :meth:`pour` to check a player's move.
        """
        for move, child in self.legal_pours(state):
            if not state[move.dst] and move.amount == len(state[move.src]):
                continue
            yield move, child

    def is_goal(self, state: State) -> bool:
        cap = self.capacity
        for tube in state:
            if tube and (len(tube) != cap or tube.count(tube[0]) != cap):
                return False
        return True

    def key(self, state: State) -> str:
        """Canonical key: the tubes sorted, joined (tube order does not matter)."""
        return ",".join(sorted(state))

    def heuristic(self, state: State) -> int:
        return lower_bound(state, self.capacity)

    # -- strategy -----------------------------------------------------------
    def solve(
        self,
        state: State,
        *,
        budget: Budget | None = None,
        cancel: Cancel | None = None,
        progress: OnProgress | None = None,
    ) -> SearchResult[State, Pour]:
        """Fewest pours: a specialised A* on canonical states (:mod:`solver.watersort.search`)."""
        return solve_fewest_pours(self, state, budget=budget, cancel=cancel, progress=progress)

    # -- presentation -----------------------------------------------------
    def describe(self, move: Pour) -> str:
        """``tube 1 -> 3``: 1-based tube numbers, as a player counts them."""
        return f"tube {move.src + 1} -> {move.dst + 1}"

    def move_info(self, move: Pour) -> dict[str, Any]:
        """0-based ``from``/``to`` (the page's ``data-tube``), amount, colour, text."""
        return {
            "from": move.src,
            "to": move.dst,
            "amount": move.amount,
            "colour": move.colour,
            "text": self.describe(move),
        }
