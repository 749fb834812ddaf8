"""The N-puzzle's rules written out once for the tests, on tuples of tiles (0 the blank).

Shares no code with ``solver/``: the reference searches here reproduce published
counts and check the solver's distances, parity and the coach's ratings.
"""

import functools

from hypothesis import strategies as st

GOAL_8 = (1, 2, 3, 4, 5, 6, 7, 8, 0)

#: the 24 tiles in threes, blocks turning round the board like the 6-6-6-6 split's
#: ((19, 20, 24) walls the blank's corner off, as (13, 18, 19, 20, 23, 24) does)
SPLIT_24 = (
    (1, 2, 3),
    (6, 7, 8),
    (4, 5, 10),
    (9, 14, 15),
    (11, 16, 21),
    (12, 17, 22),
    (13, 18, 23),
    (19, 20, 24),
)


def tiles_of(text):
    return tuple(int(t) for t in text.split())


def goal(n):
    return tuple(range(1, n * n)) + (0,)


def slides(tiles, n=3):
    """Every board one slide away (the blank swaps with a tile beside it)."""
    blank = tiles.index(0)
    row, col = divmod(blank, n)
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < n and 0 <= c < n:
            board = list(tiles)
            board[blank], board[r * n + c] = board[r * n + c], 0
            yield tuple(board)


@functools.cache
def reference_distances():
    """Every 8-puzzle position the goal reaches, with its distance: a plain breadth-first
    search on tuples (no solver code), about a second."""
    distance, layer = {GOAL_8: 0}, [GOAL_8]
    while layer:
        following = []
        for board in layer:
            for nxt in slides(board):
                if nxt not in distance:
                    distance[nxt] = distance[board] + 1
                    following.append(nxt)
        layer = following
    return distance


def neighbour(text, change):
    """An 8-puzzle board (text) one slide from ``text`` whose reference distance is its
    own plus ``change`` (-1: one closer, +1: one farther; a slide changes it by one)."""
    distance = reference_distances()
    here = tiles_of(text)
    found = next(b for b in slides(here) if distance[b] == distance[here] + change)
    return " ".join(map(str, found))


def _away(text):
    """A board one slide from ``text``: farther from the goal if a slide is, else closer."""
    try:
        return neighbour(text, +1)
    except StopIteration:
        return neighbour(text, -1)


def line_home(text, detour=False):
    """An 8-puzzle board's line (texts) to the goal, one slide closer each; ``detour``: one
    slide away and back first, two moves over the shortest (farther where a slide goes
    farther: from the 8-puzzle's farthest boards, a day's daily may be one, none does)."""
    line = [text, _away(text), text] if detour else [text]
    while reference_distances()[tiles_of(line[-1])]:
        line.append(neighbour(line[-1], -1))
    return line


def scramble(n, k, rng):
    """The goal after ``k`` random slides (never straight back)."""
    state, previous = goal(n), None
    for _ in range(k):
        options = [nxt for nxt in slides(state, n) if nxt != previous]
        previous, state = state, rng.choice(options)
    return state


def assert_replays(start, result, n=None):
    """A solver result: every move slides the tile it names into the blank, legally by
    these rules, and the last state is the goal."""
    from solver.core.results import SOLVED

    n = n or int(len(start) ** 0.5)
    assert result.status == SOLVED
    assert result.states[0] == tuple(start)
    assert len(result.states) == len(result.moves) + 1
    for move, before, after in zip(
        result.moves, result.states[:-1], result.states[1:], strict=True
    ):
        assert tuple(after) in set(slides(tuple(before), n))
        assert move.tile == before[tuple(after).index(0)]  # the tile that slid
    assert tuple(result.states[-1]) == goal(n)


def solvable_boards(n):
    """Random solvable n x n positions: a permutation, two tiles swapped if it cannot be
    solved. Which ones can is decided without the solver's parity rule (the rule under
    test): the 8-puzzle by the reference search, larger boards by sliding from the goal
    (a hypothesis strategy)."""
    if n != 3:
        return st.randoms(use_true_random=False).map(lambda rng: scramble(n, 400, rng))

    def fix(tiles):
        tiles = list(tiles)
        if tuple(tiles) not in reference_distances():
            i, j = [k for k, t in enumerate(tiles) if t][:2]
            tiles[i], tiles[j] = tiles[j], tiles[i]
        return tuple(tiles)

    return st.permutations(list(range(n * n))).map(fix)


def group_distances(group, n=4):
    """{cells of ``group``'s tiles: fewest moves home}, by one 0-1 breadth-first search
    on real boards backward from the goal (every move can be undone at the same cost):
    what a pattern database must hold, for every placement at once.

    Tiles outside the group are all alike (they may be shuffled freely), so the
    state is the group's cells plus the blank; moves of other tiles are free. A
    placement's distance is its best over where the blank may start.
    """
    from collections import deque

    size = n * n
    goal = (tuple(t - 1 for t in group), size - 1)
    best = {goal: 0}
    queue = deque([(0, goal)])
    while queue:
        d, (placed, blank) = queue.popleft()
        if best[(placed, blank)] < d:
            continue
        r, c = divmod(blank, n)
        for q in [
            blank + dq
            for dq, ok in ((-n, r > 0), (n, r < n - 1), (-1, c > 0), (1, c < n - 1))
            if ok
        ]:
            if q in placed:
                nxt, cost = (tuple(blank if p == q else p for p in placed), q), 1
            else:
                nxt, cost = (placed, q), 0
            if best.get(nxt, 1 << 30) > d + cost:
                best[nxt] = d + cost
                (queue.append if cost else queue.appendleft)((d + cost, nxt))
    placements: dict[tuple, int] = {}
    for (placed, _blank), d in best.items():
        placements[placed] = min(d, placements.get(placed, d))
    return placements
