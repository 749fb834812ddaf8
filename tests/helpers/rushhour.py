"""Rush Hour's rules written out once for the tests, on 36-character board strings.

A referee that shares no code with ``solver/``: the board is read as a 6x6 grid of
characters (``o`` or ``.`` empty, ``x`` a wall, letters vehicles); a vehicle moves
one cell at a time along its own line into empty cells, and a move is any number of
such cells in one direction. Solved: ``A`` reaches the last column of the third row.
Searches built on it are the independent oracles the Rush Hour tests check the
solver against, and its placements are enumerated by plain recursion, not by the
solver's walk.
"""

import random
from collections import deque
from itertools import pairwise

SIDE = 6


def cells(board):
    """{letter: its cells, in reading order}"""
    found = {}
    for i, ch in enumerate(board):
        if ch.isupper():
            found.setdefault(ch, []).append(i)
    return found


def is_flat(spots):
    return len(spots) > 1 and spots[1] == spots[0] + 1


def solved(board):
    return board[2 * SIDE + SIDE - 1] == "A"


def one_cell(board, letter, spots, forward):
    """The board after ``letter`` moves one cell forward (right/down) or back, or None."""
    stride = 1 if is_flat(spots) else SIDE
    head = spots[-1] + stride if forward else spots[0] - stride
    if stride == 1 and (head < 0 or head // SIDE != spots[0] // SIDE):
        return None
    if not 0 <= head < SIDE * SIDE or board[head] not in "o.":
        return None
    tail = spots[0] if forward else spots[-1]
    out = list(board)
    out[head], out[tail] = letter, "o"
    return "".join(out)


def moves(board):
    """[(letter, signed cells, board after)] for every move (a slide of any length)."""
    out = []
    for letter, spots in sorted(cells(board).items()):
        stride = 1 if is_flat(spots) else SIDE
        for forward in (False, True):
            pos, here, count = board, list(spots), 0
            while True:
                pos = one_cell(pos, letter, here, forward)
                if pos is None:
                    break
                count += 1
                here = [p + (stride if forward else -stride) for p in here]
                out.append((letter, count if forward else -count, pos))
    return out


def neighbours(board):
    return [after for _letter, _steps, after in moves(board)]


def is_one_move(before, after):
    """Whether ``after`` is one legal move from ``before`` (both read with '.' as 'o')."""
    before, after = before.replace(".", "o"), after.replace(".", "o")
    return any(pos == after for pos in neighbours(before))


def replays(states):
    """Every step one legal move and the last position solved."""
    return all(is_one_move(a, b) for a, b in pairwise(states)) and solved(states[-1])


def bfs_length(board):
    """The fewest moves to solved, or None."""
    line = bfs_line(board)
    return None if line is None else len(line) - 1


def bfs_line(board):
    """A shortest solution's positions, ``board`` first and solved last, or None."""
    board = board.replace(".", "o")
    parent = {board: None}
    queue = deque([board])
    while queue:
        pos = queue.popleft()
        if solved(pos):
            line = [pos]
            while parent[line[-1]] is not None:
                line.append(parent[line[-1]])
            return line[::-1]
        for nxt in neighbours(pos):
            if nxt not in parent:
                parent[nxt] = pos
                queue.append(nxt)
    return None


def cluster(board):
    """Every position reachable from ``board``, ``board`` included."""
    board = board.replace(".", "o")
    seen = {board}
    todo = [board]
    while todo:
        for nxt in neighbours(todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def cluster_distances(board):
    """{position: moves to solved} over ``board``'s cluster; unsolvable ones left out.
    Measured backward from the solved positions (every move can be undone)."""
    members = cluster(board)
    dist = {pos: 0 for pos in members if solved(pos)}
    queue = deque(dist)
    while queue:
        pos = queue.popleft()
        for nxt in neighbours(pos):
            if nxt not in dist:
                dist[nxt] = dist[pos] + 1
                queue.append(nxt)
    return members, dist


# -- placements ------------------------------------------------------------------------


def kinds(board):
    """(red car's length, sorted list of (flat, length) of the other vehicles, walls)"""
    found = cells(board)
    others = sorted((is_flat(s), len(s)) for letter, s in found.items() if letter != "A")
    walls = frozenset(i for i, ch in enumerate(board) if ch == "x")
    return len(found["A"]), others, walls


def all_placements(red, others, walls):
    """Every placement of the vehicles, as boards lettered A (red), then B, C ... in
    reading order of first cells: vehicles of one kind are alike, so each placement
    comes once. Plain recursion over the vehicles, each kind's vehicles placed at
    increasing first cells."""
    boards = set()
    grid = ["x" if i in walls else "o" for i in range(SIDE * SIDE)]
    vehicles = [(True, red, True)] + [(flat, length, False) for flat, length in others]

    def spans(flat, length, red_car):
        for first in range(SIDE * SIDE):
            r, c = divmod(first, SIDE)
            if red_car and r != 2:
                continue
            if flat and c + length <= SIDE:
                yield [first + k for k in range(length)]
            if not flat and r + length <= SIDE:
                yield [first + SIDE * k for k in range(length)]

    def place(i, marks, last_of_kind):
        if i == len(vehicles):
            boards.add(letter_afresh(marks))
            return
        flat, length, red_car = vehicles[i]
        same = i > 0 and vehicles[i - 1] == vehicles[i]
        for span in spans(flat, length, red_car):
            if same and span[0] <= last_of_kind:
                continue
            if all(marks[p] == "o" for p in span):
                for p in span:
                    marks[p] = str(i)
                place(i + 1, marks, span[0])
                for p in span:
                    marks[p] = "o"

    place(0, grid, -1)
    return boards


def letter_afresh(marks):
    """A board from cells marked with vehicle numbers ('0' the red car)."""
    names = {"0": "A"}
    for mark in marks:
        if mark not in "ox" and mark not in names:
            names[mark] = chr(ord("B") + len(names) - 1)
    return "".join(names.get(m, m) for m in marks)


def relettered(board):
    """``board`` lettered A (red), then B, C ... in reading order."""
    names = {"A": "A"}
    for ch in board:
        if ch.isupper() and ch not in names:
            names[ch] = chr(ord("B") + len(names) - 1)
    return "".join(names.get(ch, ch) for ch in board)


def placements_by_cluster(board):
    """Every placement of ``board``'s vehicles grouped into clusters: a list of
    (size, hardest distance or None) per cluster, and the number of placements."""
    red, others, walls = kinds(board)
    everything = all_placements(red, others, walls)
    seen = set()
    groups = []
    for start in sorted(everything):
        if start in seen:
            continue
        members, dist = cluster_distances(start)
        seen |= {relettered(pos) for pos in members}
        groups.append((len(members), max(dist.values()) if dist else None))
    return groups, len(everything)


# -- random positions -----------------------------------------------------------------


def random_board(rnd: random.Random, vehicles: int, walls: int = 0):
    """A random legal board: the red car somewhere on its row, then up to ``vehicles``
    others (and ``walls`` walls) where they fit."""
    grid = ["o"] * (SIDE * SIDE)
    c = rnd.randrange(0, SIDE - 1)
    grid[2 * SIDE + c] = grid[2 * SIDE + c + 1] = "A"
    for n in range(vehicles):
        for _try in range(20):
            flat, length = rnd.random() < 0.5, rnd.choice((2, 2, 3))
            r = rnd.randrange(SIDE - (0 if flat else length - 1))
            c = rnd.randrange(SIDE - (length - 1 if flat else 0))
            span = [r * SIDE + c + (k if flat else SIDE * k) for k in range(length)]
            if all(grid[p] == "o" for p in span):
                for p in span:
                    grid[p] = chr(ord("B") + n)
                break
    for _ in range(walls):
        free = [i for i, ch in enumerate(grid) if ch == "o"]
        grid[rnd.choice(free)] = "x"
    return "".join(grid)
