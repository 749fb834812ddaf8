"""The compiled pattern-database searches checked against IDA* in plain Python.

Apart from :mod:`helpers.npuzzle` (the reference rules, which share no code with
``solver/``): this reads a search's own bounds and neighbour table, and replays its
answers through the library's result type.
"""

from helpers.npuzzle import assert_replays
from solver.core.results import Budget, Monitor
from solver.npuzzle.rules import replay_cells


def plain_ida_nodes(search, board):
    """IDA* in plain Python over ``search``'s bound, each child's bound taken afresh from
    its whole board (:meth:`PackedSearch.bounds`), children in the compiled search's order
    (the blank's neighbours in the neighbour table's order, least bound first, ties kept
    in that order): the nodes it enters, counted as the compiled search counts them."""
    nb = [[int(q) for q in row if q >= 0] for row in search.nb]
    hd, hm = search.bounds(board)
    bound, total = max(hd, hm), 0

    def visit(state, z, parent, g):
        nonlocal least, total
        children = []
        for q in nb[z]:
            if q == parent:
                continue
            child = list(state)
            child[z], child[q] = child[q], 0
            cd, cm = search.bounds(child)
            f = g + 1 + max(cd, cm)
            if f > bound:
                least = min(least, f)
                continue
            children.append((max(cd, cm), len(children), q, child, cd))
        for _h, _order, q, child, cd in sorted(children):
            if cd == 0:
                return True
            total += 1
            if visit(child, q, z, g + 1):
                return True
        return False

    while True:
        least = 10**9
        if visit(list(board), list(board).index(0), -1, 0):
            return total
        bound = least


def assert_enters_plain_ida_nodes(search, board, n):
    """The compiled ``search`` from ``board`` enters exactly the nodes
    :func:`plain_ida_nodes` enters, and its answer replays; returns its cells."""
    expected = plain_ida_nodes(search, board)
    mon = Monitor(Budget(max_nodes=expected + 1000))  # a wrong bound stops, not hangs
    cells = search.search(board, mon)
    assert mon.count == expected
    assert_replays(board, Monitor().result("solved", *replay_cells(board, cells)), n=n)
    return cells
