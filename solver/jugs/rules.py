"""Water jugs, the pouring puzzle of the seed talk: measure a quantity with unmarked jugs.

Notation: jugs joined by ``,``, each ``contents/capacity`` in whole litres, so
``0/3,0/5,8/8`` is an empty 3-litre jug, an empty 5-litre jug and a full
8-litre one. The goal (option ``goal``) gives the target contents per jug,
``*`` for "any": ``0,4,4`` or ``*,4,*`` (some 4 litres in the middle jug).
Without a goal the classic one applies: the water shared equally between the
two largest jugs, the rest empty (``0,4,4`` for the jugs above).

A pour empties the source or fills the target, whichever comes first; water
is never added or thrown away, so pours cannot always be undone.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..core.domain import require
from ..core.errors import BoardError
from ..core.text import N_

MAX_JUGS = 6
MAX_CAPACITY = 99
ANY = None  # a goal entry that accepts any contents

_JUG = re.compile(r"(\d{1,3})/(\d{1,3})")
_GOAL_ENTRY = re.compile(r"\*|\d{1,3}")

State = tuple[int, ...]
Goal = tuple[int | None, ...]


class Pour(NamedTuple):
    """``amount`` litres from jug ``src`` into jug ``dst`` (0-based)."""

    src: int
    dst: int
    amount: int


def parse_jugs(text: str) -> tuple[State, tuple[int, ...]]:
    """(contents, capacities) from board text; errors name the jug (1-based)."""
    require(isinstance(text, str), N_("board must be text"))
    text = text.strip()
    require(bool(text), N_("empty board: write jugs as contents/capacity joined by ','"))
    parts = text.split(",")
    require(
        2 <= len(parts) <= MAX_JUGS,
        f"board has {len(parts)} jug{'s' if len(parts) != 1 else ''}; use 2 to {MAX_JUGS}",
    )
    contents, capacities = [], []
    for number, part in enumerate(parts, 1):
        match = _JUG.fullmatch(part.strip())
        if match is None:
            raise BoardError(
                N_("jug %(jug)s is %(text)s; write it as contents/capacity, e.g. 0/5"),
                jug=number,
                text=repr(part),
            )
        held, capacity = int(match.group(1)), int(match.group(2))
        require(
            1 <= capacity <= MAX_CAPACITY,
            N_("jug %(jug)s holds %(capacity)s litres; capacities run from 1 to %(most)s"),
            jug=number,
            capacity=capacity,
            most=MAX_CAPACITY,
        )
        require(
            held <= capacity,
            N_("jug %(jug)s has %(held)s litres in a %(capacity)s-litre jug"),
            jug=number,
            held=held,
            capacity=capacity,
        )
        contents.append(held)
        capacities.append(capacity)
    return tuple(contents), tuple(capacities)


def format_jugs(contents: State, capacities: tuple[int, ...]) -> str:
    return ",".join(
        f"{held}/{capacity}" for held, capacity in zip(contents, capacities, strict=True)
    )


def parse_goal(text: str, jugs: int) -> Goal:
    """Target contents per jug (``None`` for ``*``) from ``0,4,4`` or ``*,4,*``."""
    require(isinstance(text, str), N_("goal must be text like 0,4,4 or *,4,*"))
    parts = [p.strip() for p in text.split(",")]
    require(
        len(parts) == jugs,
        f"goal {text!r} names {len(parts)} jug{'s' if len(parts) != 1 else ''}; "
        f"the board has {jugs}",
    )
    goal = []
    for number, part in enumerate(parts, 1):
        if _GOAL_ENTRY.fullmatch(part) is None:
            raise BoardError(
                N_("goal entry %(entry)s is %(text)s; write litres or *"),
                entry=number,
                text=repr(part),
            )
        goal.append(ANY if part == "*" else int(part))
    require(
        any(g is not ANY for g in goal),
        N_("goal %(goal)s asks for nothing; give some litres"),
        goal=repr(text),
    )
    return tuple(goal)


def format_goal(goal: Goal) -> str:
    return ",".join("*" if g is ANY else str(g) for g in goal)


def shared_goal(contents: State, capacities: tuple[int, ...]) -> Goal:
    """The classic goal: the water split equally between the two largest jugs."""
    total = sum(contents)
    require(
        total % 2 == 0,
        f"the jugs hold {total} litres, which cannot be shared equally; give a goal, e.g. *,4,*",
    )
    largest = sorted(range(len(capacities)), key=lambda i: (-capacities[i], -i))[:2]
    return tuple(total // 2 if i in largest else 0 for i in range(len(capacities)))


def pour(contents: State, capacities: tuple[int, ...], src: int, dst: int) -> State | None:
    """The contents after pouring ``src`` into ``dst``, or None when nothing would flow."""
    if src == dst:
        return None
    amount = min(contents[src], capacities[dst] - contents[dst])
    if amount <= 0:
        return None
    after = list(contents)
    after[src] -= amount
    after[dst] += amount
    return tuple(after)
