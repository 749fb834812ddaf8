"""The generic algorithms, on small domains defined here so any bug is theirs."""

import threading
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import Budget, Domain, astar, bidirectional, breadth_first, depth_first, ida_star
from solver.core.results import BUDGET, CANCELLED, SOLVED, UNSOLVABLE, Monitor
from solver.core.search import replay_keys

ALL = [breadth_first, depth_first, bidirectional, astar, ida_star]
OPTIMAL = [breadth_first, bidirectional, astar, ida_star]


class Maze(Domain):
    """Walk a grid from the top-left to the bottom-right around walls ('#')."""

    name = "maze"

    def __init__(self, rows):
        self.rows = rows
        self.h, self.w = len(rows), len(rows[0])
        self.goal = (self.h - 1, self.w - 1)

    def free(self, r, c):
        return 0 <= r < self.h and 0 <= c < self.w and self.rows[r][c] != "#"

    def moves(self, state):
        r, c = state
        for name, dr, dc in (("up", -1, 0), ("down", 1, 0), ("left", 0, -1), ("right", 0, 1)):
            if self.free(r + dr, c + dc):
                yield name, (r + dr, c + dc)

    def is_goal(self, state):
        return state == self.goal

    def heuristic(self, state):
        return abs(self.goal[0] - state[0]) + abs(self.goal[1] - state[1])

    def goal_states(self, start):
        yield self.goal


class Endless(Domain):
    """Integers forever, never a goal: only a budget or a cancel can stop a search."""

    def moves(self, state):
        yield "+1", state + 1
        yield "+2", state + 2
        yield "*3", state * 3 + 1

    def is_goal(self, state):
        return False

    def goal_states(self, start):
        yield -1

    def predecessors(self, state):
        yield "-1", state - 1


class Detour(Domain):
    """S-A-G is two moves, S-B-C-G three; the heuristic calls A five moves from the goal.

    It overestimates (``heuristic_admissible`` False), so A* and IDA* take the long way
    round, and even a path that happens to be shortest is not proven so.
    """

    heuristic_admissible = False
    EDGES = {"S": "AB", "A": "G", "B": "C", "C": "G", "G": ""}
    GUESS = {"S": 2, "A": 5, "B": 2, "C": 1, "G": 0}

    def moves(self, state):
        for nxt in self.EDGES[state]:
            yield f"to {nxt}", nxt

    def is_goal(self, state):
        return state == "G"

    def heuristic(self, state):
        return self.GUESS[state]


class FakeClock:
    """A clock for :class:`Monitor` that moves ``tick`` seconds each time it is read."""

    def __init__(self, tick):
        self.now, self.tick = 0.0, tick

    def __call__(self):
        self.now += self.tick
        return self.now


def replays(domain, start, result):
    """Every move of ``result`` is legal, in order, and ends on a goal."""
    state = start
    for move, nxt in zip(result.moves, result.states[1:], strict=True):
        assert (move, nxt) in list(domain.moves(state))
        state = nxt
    assert result.states[0] == start
    return domain.is_goal(state)


def random_maze(draw_bits, h, w):
    rows = [
        "".join("#" if bit else "." for bit in draw_bits[r * w : (r + 1) * w]) for r in range(h)
    ]
    rows[0] = "." + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "."
    return rows


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.data())
def test_optimal_algorithms_agree_on_random_mazes(h, w, data):
    bits = data.draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    maze = Maze(random_maze(bits, h, w))
    results = {alg.__name__: alg(maze, (0, 0)) for alg in ALL}
    reference = results["breadth_first"]
    for name, result in results.items():
        assert result.status == reference.status, name
        if result.status == SOLVED:
            assert replays(maze, (0, 0), result), name
            if name != "depth_first":
                assert result.length == reference.length, name
                assert result.optimal, name
        else:
            assert result.status == UNSOLVABLE and result.optimal


def test_walled_off_goal_is_proven_unsolvable():
    maze = Maze(["..#", "###", "#.."])
    for alg in ALL:
        result = alg(maze, (0, 0))
        assert result.status == UNSOLVABLE, alg.__name__
        assert result.moves == []


def test_start_on_goal_is_zero_moves():
    maze = Maze(["."])
    for alg in ALL:
        result = alg(maze, (0, 0))
        assert result.solved and result.length == 0 and result.states == [(0, 0)]


@pytest.mark.parametrize("algorithm", ALL, ids=lambda a: a.__name__)
def test_node_budget_stops_the_search(algorithm):
    result = algorithm(Endless(), 0, budget=Budget(max_nodes=2000))
    assert result.status == BUDGET
    assert 2000 <= result.nodes < 2000 + 300
    assert "gave up after" in result.message and not result.optimal


@pytest.mark.parametrize("algorithm", ALL, ids=lambda a: a.__name__)
def test_time_budget_stops_the_search(algorithm, monkeypatch):
    """Each check reads the (fake) clock once, a quarter second later each time: the
    fourth check is one second in, so the search stops there, after 4 x CHECK_EVERY
    positions. The node budget is only a backstop for a search that ignores the clock."""
    monkeypatch.setattr(Monitor, "clock", staticmethod(FakeClock(0.25)))
    result = algorithm(
        Endless(), 0, budget=Budget(max_nodes=100 * Monitor.CHECK_EVERY, max_seconds=1.0)
    )
    assert result.status == BUDGET and not result.optimal
    assert result.message == f"gave up after {result.nodes} positions (1 s budget)"
    assert 4 * Monitor.CHECK_EVERY <= result.nodes < 5 * Monitor.CHECK_EVERY


@pytest.mark.parametrize("algorithm", ALL, ids=lambda a: a.__name__)
def test_cancel_is_noticed_at_the_next_check(algorithm):
    """Cancel is polled every CHECK_EVERY positions (a few milliseconds of search; the
    bench measures the real delay), so a cancel seen by the third poll stops the search
    within three checks' worth of positions."""
    polls = []
    result = algorithm(Endless(), 0, cancel=lambda: polls.append(1) or len(polls) >= 3)
    assert result.status == CANCELLED and not result.optimal and result.moves == []
    assert len(polls) == 3
    assert 3 * Monitor.CHECK_EVERY <= result.nodes < 4 * Monitor.CHECK_EVERY


@pytest.mark.parametrize("algorithm", ALL, ids=lambda a: a.__name__)
def test_an_event_set_while_searching_cancels(algorithm, monkeypatch):
    """A threading.Event works as the cancel flag: the first progress report sets it, and
    the next check (at most CHECK_EVERY positions on) stops the search."""
    monkeypatch.setattr(Monitor, "clock", staticmethod(FakeClock(Monitor.PROGRESS_EVERY)))
    cancel = threading.Event()
    reports = []
    result = algorithm(
        Endless(), 0, cancel=cancel, progress=lambda report: reports.append(report) or cancel.set()
    )
    assert result.status == CANCELLED
    assert 0 < result.nodes - reports[0].nodes <= Monitor.CHECK_EVERY


def test_cancel_may_be_a_plain_callable():
    calls = []
    result = breadth_first(Endless(), 0, cancel=lambda: calls.append(1) or len(calls) > 2)
    assert result.status == CANCELLED


def test_progress_reports_nodes_depth_frontier_and_time(monkeypatch):
    monkeypatch.setattr(Monitor, "clock", staticmethod(FakeClock(0.1)))
    seen = []
    result = breadth_first(Endless(), 0, budget=Budget(max_seconds=2.0), progress=seen.append)
    assert result.status == BUDGET
    assert len(seen) >= 2
    assert all(b.nodes > a.nodes and b.elapsed > a.elapsed for a, b in pairwise(seen))
    assert seen[-1].depth >= 1 and seen[-1].frontier > 0
    assert set(seen[0].as_dict()) == {"nodes", "depth", "frontier", "elapsed", "stored", "memory"}
    # breadth-first holds every position it found: more with each report, each the same size
    assert all(b.stored > a.stored for a, b in pairwise(seen))
    assert len({r.memory // r.stored for r in seen}) == 1 and seen[0].memory % seen[0].stored == 0


def test_astar_with_an_inadmissible_weight_does_not_claim_optimality():
    maze = Maze(["....", ".##.", "....", "...."])
    result = astar(maze, (0, 0), weight=3.0)
    assert result.solved and replays(maze, (0, 0), result)
    assert not result.optimal


@pytest.mark.parametrize("algorithm", [astar, ida_star], ids=lambda a: a.__name__)
def test_an_inadmissible_heuristic_is_never_called_optimal(algorithm):
    shortest = breadth_first(Detour(), "S")
    assert shortest.length == 2 and shortest.optimal
    result = algorithm(Detour(), "S")
    assert result.solved and replays(Detour(), "S", result)
    assert result.states == ["S", "B", "C", "G"] and not result.optimal
    lucky = algorithm(Detour(), "A")  # shortest by luck, but nothing proves it
    assert lucky.states == ["A", "G"] and not lucky.optimal


def test_depth_first_never_claims_optimality_for_a_nonempty_path():
    maze = Maze(["...", "...", "..."])
    result = depth_first(maze, (0, 0))
    assert result.solved and replays(maze, (0, 0), result) and not result.optimal


def test_replay_keys_rebuilds_moves_from_keys():
    maze = Maze(["...", "...", "..."])
    moves, states = replay_keys(maze, (0, 0), [(0, 1), (1, 1), (2, 1), (2, 2)])
    assert moves == ["right", "down", "down", "right"]
    assert states[-1] == (2, 2)
    with pytest.raises(RuntimeError):
        replay_keys(maze, (0, 0), [(2, 2)])


def test_records_compare_by_value_copy_with_changes_and_frozen_ones_stay_put():
    """The library's records behave as the dataclasses they replaced: equal by value
    (and only to their own class), shown with their fields, copied with changes, and a
    frozen one (a game's option) hashable and unchangeable."""
    from solver.core.game import Option
    from solver.core.results import Progress, SearchResult

    assert Budget(5, 1.0) == Budget(max_nodes=5, max_seconds=1.0) != Budget(5)
    assert Budget() != Progress(0, 0, 0, 0.0) and repr(Budget(5)) == (
        "Budget(max_nodes=5, max_seconds=None)"
    )
    found = SearchResult(SOLVED, ["a"], ["s", "t"], optimal=True, nodes=7, message="m")
    copy = found.replace(moves=[], states=[])
    assert (copy.moves, copy.states, copy.status, copy.optimal, copy.nodes, copy.message) == (
        [],
        [],
        SOLVED,
        True,
        7,
        "m",
    )
    fresh = SearchResult(SOLVED)  # its own empty lists, as default_factory gave
    assert found.moves == ["a"] and fresh.moves == [] and fresh.moves is not fresh.states
    assert fresh.moves is not SearchResult(SOLVED).moves
    with pytest.raises(TypeError):
        found.replace(colour="red")
    with pytest.raises(TypeError):
        hash(found)
    option = Option("size", int, 3, "tiles per side", low=2, high=9)
    assert hash(option) == hash(Option("size", int, 3, "tiles per side", low=2, high=9))
    with pytest.raises(AttributeError):
        option.low = 1  # type: ignore[misc]
