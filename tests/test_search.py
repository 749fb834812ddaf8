"""The generic algorithms, on small domains defined here so any bug is theirs."""
import threading
import time

import pytest
from hypothesis import given, settings, strategies as st

from solver import Budget, Domain, astar, bidirectional, breadth_first, depth_first, ida_star
from solver.core.results import BUDGET, CANCELLED, SOLVED, UNSOLVABLE
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


def replays(domain, start, result):
    """Every move of ``result`` is legal, in order, and ends on a goal."""
    state = start
    for move, nxt in zip(result.moves, result.states[1:]):
        assert (move, nxt) in list(domain.moves(state))
        state = nxt
    assert result.states[0] == start
    return domain.is_goal(state)


def random_maze(draw_bits, h, w):
    rows = ["".join("#" if bit else "." for bit in draw_bits[r * w:(r + 1) * w]) for r in range(h)]
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
def test_time_budget_stops_the_search(algorithm):
    started = time.monotonic()
    result = algorithm(Endless(), 0, budget=Budget(max_seconds=0.2))
    assert result.status == BUDGET
    assert 0.2 <= time.monotonic() - started < 0.5


@pytest.mark.parametrize("algorithm", ALL, ids=lambda a: a.__name__)
def test_cancelled_search_stops_within_100_ms(algorithm):
    cancel = threading.Event()
    out = {}

    def run():
        out["result"] = algorithm(Endless(), 0, cancel=cancel)
        out["stopped"] = time.monotonic()

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.3)
    assert worker.is_alive()
    cancelled_at = time.monotonic()
    cancel.set()
    worker.join(2)
    assert not worker.is_alive()
    assert out["result"].status == CANCELLED
    assert out["stopped"] - cancelled_at < 0.1


def test_cancel_may_be_a_plain_callable():
    calls = []
    result = breadth_first(Endless(), 0, cancel=lambda: calls.append(1) or len(calls) > 2)
    assert result.status == CANCELLED


def test_progress_reports_nodes_depth_frontier_and_time():
    seen = []
    result = breadth_first(Endless(), 0, budget=Budget(max_seconds=0.7), progress=seen.append)
    assert result.status == BUDGET
    assert len(seen) >= 2
    assert all(b.nodes > a.nodes and b.elapsed > a.elapsed for a, b in zip(seen, seen[1:]))
    assert seen[-1].depth >= 1 and seen[-1].frontier > 0
    assert set(seen[0].as_dict()) == {"nodes", "depth", "frontier", "elapsed"}


def test_astar_with_an_inadmissible_weight_does_not_claim_optimality():
    maze = Maze(["....", ".##.", "....", "...."])
    result = astar(maze, (0, 0), weight=3.0)
    assert result.solved and replays(maze, (0, 0), result)
    assert not result.optimal


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
