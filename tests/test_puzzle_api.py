"""The original's Puzzle API and its two examples."""

import runpy
from itertools import pairwise

from solver import Budget, Puzzle
from solver.examples.jugs import JugFill
from solver.examples.quzzle import PaPuzzle


def legal_path(path):
    """Each position follows from the previous one by the puzzle's own __iter__."""
    return all(any(nxt.canonical() == m.canonical() for m in prev) for prev, nxt in pairwise(path))


def test_jugs_take_seven_pours():
    path = JugFill().solve()
    assert len(path) - 1 == 7
    assert path[0].pos == (0, 0, 8) and path[-1].pos == (0, 4, 4)
    assert legal_path(path)


def test_jugs_breadth_first_is_shortest_and_flagged_optimal():
    jug = JugFill()
    jug.solve()
    assert jug.last_result.optimal
    # no solution in 6 pours: a depth-limited check by brute force
    frontier = {JugFill().pos}
    for _ in range(6):
        frontier |= {m.pos for p in frontier for m in JugFill(p)}
        assert (0, 4, 4) not in frontier


def test_jugs_depth_first_finds_a_legal_solution():
    path = JugFill().solve(depthFirst=True)
    assert path[-1].isgoal() and legal_path(path)


def test_quzzle_solution_replays_to_the_goal():
    puzzle = PaPuzzle()
    path = puzzle.solve()
    assert path[-1].isgoal()
    assert legal_path(path)
    assert all(path[-1].pos[i] == "1" for i in (12, 13, 16, 17))
    assert puzzle.last_result.optimal


def test_unsolvable_puzzle_gives_empty_list():
    class Stuck(Puzzle):
        pos = "a"
        goal = "z"

        def __iter__(self):
            yield Stuck("b" if self.pos == "a" else "a")

    puzzle = Stuck()
    assert puzzle.solve() == []
    assert puzzle.last_result.status == "unsolvable"


def test_budget_passes_through():
    class Count(Puzzle):
        pos = 0
        goal = -1

        def __iter__(self):
            yield Count(self.pos + 1)

        def canonical(self):
            return self.pos

    puzzle = Count()
    assert puzzle.solve(budget=Budget(max_nodes=500)) == []
    assert puzzle.last_result.status == "budget"


def test_examples_run_as_scripts(capsys):
    import solver.examples.jugs as jugs

    runpy.run_path(jugs.__file__, run_name="__main__")
    out = capsys.readouterr().out
    assert "(0, 4, 4)" in out and "(0, 0, 8)" in out
