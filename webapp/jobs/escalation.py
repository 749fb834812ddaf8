"""The one place that decides what a search's outcome means for the player.

A solver process (or RQ worker) reports what the search found, as it is: every
stage of an analysis, a solution, or ``gave_up`` when its budget ran out. Here
those outcomes become the events a player sees, or a move to the long lane:

* in the quick lane (a *try*, ``Limits.quick``) a search that ran out of time,
  a solution not proven shortest, a distance whose moves are not all rated yet
  and a final hint as unproven as the interim one already sent all *escalate*:
  the core queues the same request in the long lane with the full budget;
* in the long lane the same outcomes are final: running out of budget is an
  ``error`` that says so in words (too big to solve within the budget, how much was
  searched, what is known: :func:`webapp.jobs.replies.gave_up_error`);
* an analysis that moves on does not repeat its interim hint: the long lane's
  own first hint is dropped when the quick try sent one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..protocol import ANALYSIS, ERROR, PROGRESS, SOLUTION
from .model import ANALYSE, GAVE_UP, SOLVE, Payload
from .replies import gave_up_error


@dataclass
class Settled:
    """What to do with one reported event: emit these, then move the job or not."""

    emit: list[tuple[str, Payload]] = field(default_factory=list)
    escalate: bool = False


@dataclass
class Chain:
    """One request's state across its lanes."""

    interim_sent: bool = False


def settle(
    kind: str,
    quick: bool,
    event: str,
    payload: Payload,
    chain: Chain,
    seconds: float | None = None,
) -> Settled:
    """The player's events for ``event`` of a ``kind`` job (``quick``: a try; ``seconds``:
    its budget, which a search that gave up names)."""
    if kind == ANALYSE and event == ANALYSIS:
        return _analysis(payload, quick, chain, seconds)
    if kind == SOLVE and quick and event == PROGRESS:
        return Settled()  # a try is over in a moment; the long search reports its own
    if kind == SOLVE and event == GAVE_UP:
        return Settled(escalate=True) if quick else Settled([(ERROR, payload)])
    if kind == SOLVE and quick and event == SOLUTION and not payload.get("optimal"):
        return Settled(escalate=True)  # a fast fallback answer: the long lane may prove one
    return Settled([(event, payload)])


def _analysis(payload: Payload, quick: bool, chain: Chain, seconds: float | None) -> Settled:
    tagged = dict(payload)
    if not payload["final"]:
        if chain.interim_sent:
            return Settled()
        chain.interim_sent = True
        return Settled([(ANALYSIS, tagged)])
    if quick and chain.interim_sent and not payload["optimal"]:
        return Settled(escalate=True)  # as unproven as the hint sent: the proof needs time
    gave_up = payload["distance"] is None and payload["solvable"] is not False
    if gave_up:
        if quick and payload["solvable"] is None:
            return Settled(escalate=True)
        error = gave_up_error(
            ANALYSE,
            payload["id"],
            payload["game"],
            seconds,
            payload.get("nodes"),
            payload.get("lower_bound"),
        )
        return Settled([(ERROR, error)])
    if quick and not payload["moves_rated_complete"]:
        # the distance is proven, rating every move needs more time: what is known goes
        # out as an interim answer, and the long lane finishes it
        chain.interim_sent = True
        return Settled([(ANALYSIS, {**tagged, "final": False})], escalate=True)
    return Settled([(ANALYSIS, tagged)])
