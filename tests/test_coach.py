"""The move rater (solver.core.coach) on toy domains: it proves or it says unknown.

The toy domains are written here, so the expected distances are plain arithmetic.
"""

from solver.core.coach import rate_moves
from solver.core.domain import Analysis, Domain
from solver.core.results import Budget
from solver.engine import make_domain


class Ring(Domain):
    """Positions 0..n-1 on a ring, one step either way; the goal is 0. Distance: min(i, n-i)."""

    name = "ring"

    def __init__(self, n, bipartite=False):
        self.n = n
        self.bipartite = bipartite

    def moves(self, state):
        yield "+1", (state + 1) % self.n
        yield "-1", (state - 1) % self.n

    def is_goal(self, state):
        return state == 0

    def distance(self, state):
        return min(state, self.n - state)


class OneWay(Ring):
    """Steps only go up, as pours cannot be undone; the goal is 0. From 2 on, an even
    position may jump to the goal and an odd one only to the top, n-1, a dead end."""

    reversible = False

    def moves(self, state):
        if state < self.n - 1:
            yield "+1", state + 1
            if state >= 2:
                yield "jump", 0 if state % 2 == 0 else self.n - 1


def proven(domain, state):
    return Analysis(solvable=True, distance=domain.distance(state), optimal=True)


def rated(domain, state, analysis, **kwargs):
    moves, complete = rate_moves(domain, state, analysis, **kwargs)
    return {r.move: (r.distance, r.optimal, r.verdict) for r in moves}, complete


def test_reversible_children_are_decided_by_bounded_searches():
    ring = Ring(9)  # odd ring: 4 and 5 are both 4 away
    got, complete = rated(ring, 4, proven(ring, 4))
    assert complete
    assert got == {"+1": (4, True, "equal"), "-1": (3, True, "best")}
    got, _ = rated(ring, 2, proven(ring, 2))
    assert got == {"+1": (3, True, "worse"), "-1": (1, True, "best")}


def test_a_bipartite_puzzle_needs_one_bounded_search_per_child():
    calls = []

    class Counted(Ring):
        def within(self, state, bound, *, budget=None, cancel=None):
            calls.append(bound)
            return super().within(state, bound, budget=budget, cancel=cancel)

    ring = Counted(10, bipartite=True)
    got, _ = rated(ring, 3, proven(ring, 3))
    assert got == {"+1": (4, True, "worse"), "-1": (2, True, "best")}
    assert calls == [2, 2]  # d-1 only: d is impossible, so "no" means d+1


def test_without_the_parents_proof_children_get_bounds_and_no_verdict():
    ring = Ring(9)
    unproven = Analysis(solvable=True, distance=5, optimal=False, best_move="-1", next_state=3)
    got, _ = rated(ring, 4, unproven)
    assert got == {"+1": (6, False, "unknown"), "-1": (4, False, "unknown")}


def test_interim_rating_searches_nothing():
    ring = Ring(9)
    got, complete = rated(ring, 4, proven(ring, 4), search=False)
    assert not complete
    assert got["+1"] == (5, False, "unknown")  # d+1 bound, not the true 4


def test_moves_that_cannot_be_undone_are_solved_one_by_one_and_dead_ends_found():
    line = OneWay(7)
    analysis = Analysis(solvable=True, distance=1, optimal=True, best_move="jump", next_state=0)
    got, complete = rated(line, 4, analysis)
    assert complete
    assert got == {"jump": (0, True, "best"), "+1": (None, True, "dead")}  # 5 leads only to 6
    got, _ = rated(line, 3, Analysis(solvable=True, distance=2, optimal=True))
    assert got == {"+1": (1, True, "best"), "jump": (None, True, "dead")}


def test_when_the_budget_is_spent_the_rest_stays_unknown():
    domain = make_domain("watersort", capacity=4)
    state = domain.parse("ABCA,BCAB,CABC,,")
    analysis = domain.analyse(state)
    moves, complete = rate_moves(domain, state, analysis, budget=Budget(max_seconds=0.0))
    assert not complete
    nearer = domain.key(analysis.next_state)  # pours into either empty tube are one
    best = [r for r in moves if domain.key(r.state) == nearer]
    assert best and {(r.distance, r.verdict) for r in best} == {(analysis.distance - 1, "best")}
    others = [r for r in moves if domain.key(r.state) != nearer]
    assert others and all(r.verdict == "unknown" and r.distance is None for r in others)
