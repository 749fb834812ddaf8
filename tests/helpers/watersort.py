"""Water sort's rules written out once for the tests, on tuples of tube strings.

Shares no code with ``solver/``: a pour moves the top colour's run onto an empty tube
or the same colour, as far as there is room (written as the original program does: one
unit at a time).
"""

import itertools


def tubes_of(text):
    return tuple(text.split(","))


def reference_pour(state, src, dst, capacity):
    """The rules written the original's way: move one unit at a time while it is legal."""
    tubes = [list(t) for t in state]
    moved = 0
    while (
        tubes[src]
        and len(tubes[dst]) < capacity
        and (not tubes[dst] or tubes[dst][-1] == tubes[src][-1])
        and (moved == 0 or tubes[src][-1] == tubes[dst][-1])
    ):
        tubes[dst].append(tubes[src].pop())
        moved += 1
    return moved, tuple("".join(t) for t in tubes)


def sorted_out(capacity):
    """Is every tube empty or full of one colour?"""
    return lambda tubes: all(len(set(t)) <= 1 and len(t) in (0, capacity) for t in tubes)


def pours(capacity):
    """neighbours(tubes): every deal one pour away, tubes kept in their places."""

    def neighbours(tubes):
        for src, dst in itertools.permutations(range(len(tubes)), 2):
            moved, after = reference_pour(tubes, src, dst, capacity)
            if moved:
                yield after

    return neighbours


def fewest_pours_by_bfs(board, capacity):
    """Fewest pours by a plain breadth-first search on :func:`reference_pour`, or None
    when no pour sequence sorts the deal. Tube order is ignored (tubes sorted), which
    cannot change a distance."""
    start = tuple(sorted(board.split(",")))
    done = sorted_out(capacity)
    seen, layer, depth = {start}, [start], 0
    while layer:
        if any(done(tubes) for tubes in layer):
            return depth
        depth += 1
        following = []
        for tubes in layer:
            for src, dst in itertools.permutations(range(len(tubes)), 2):
                top, under = tubes[src][-1:], tubes[dst][-1:]
                if not top or len(tubes[dst]) == capacity or under not in ("", top):
                    continue  # nothing moves: skip the slow rules
                moved, after = reference_pour(tubes, src, dst, capacity)
                after = tuple(sorted(after))
                if after not in seen:
                    seen.add(after)
                    following.append(after)
        layer = following
    return None
