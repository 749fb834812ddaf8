"""Klotski's rules written out once for the tests, on plain board strings.

A referee that shares no code with ``solver/``: a piece moves one cell at a time into
free cells; a move in the ``piece`` metric is one piece moved any distance, in
``straight`` any distance in one direction, in ``step`` one cell. Searches built on
it are the independent oracles the Klotski, levels, hardest-start and coach tests
check the solver against.
"""

import functools
from collections import deque
from itertools import pairwise

DIRS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def grid(board):
    return [list(row) for row in board.split("/")]


def cells_of(g, label):
    return sorted((r, c) for r, row in enumerate(g) for c, ch in enumerate(row) if ch == label)


@functools.lru_cache(maxsize=1 << 16)
def _pieces(board):
    """(height, width, {label: its cells' indices in ``board``, in reading order}): one
    scan of a board string serves every piece's steps from it."""
    rows = board.split("/")
    cells: dict[str, list[int]] = {}
    for i, ch in enumerate(board):
        if ch not in "./":
            cells.setdefault(ch, []).append(i)
    return len(rows), len(rows[0]), cells


def step(board, label, dr, dc):
    """The board after moving ``label`` one cell, or None if the rules forbid it."""
    height, width, cells = _pieces(board)
    mine = cells.get(label)
    assert mine, f"no piece {label}"
    stride = width + 1  # each row and its "/"
    shift = dr * stride + dc
    for i in mine:
        r, c = divmod(i, stride)
        if not (0 <= r + dr < height and 0 <= c + dc < width) or board[i + shift] not in (
            ".",
            label,
        ):
            return None
    out = list(board)
    for i in mine:
        out[i] = "."
    for i in mine:
        out[i + shift] = label
    return "".join(out)


def moves(pos, labels, metric):
    """Boards one move away in ``metric`` (labels kept)."""
    for lab in labels:
        if metric == "straight":
            for dr, dc in DIRS.values():
                q = step(pos, lab, dr, dc)
                while q is not None:
                    yield q
                    q = step(q, lab, dr, dc)
            continue
        frontier, seen = [pos], {pos}
        while frontier:
            nxt = []
            for p in frontier:
                for dr, dc in DIRS.values():
                    q = step(p, lab, dr, dc)
                    if q is not None and q not in seen:
                        seen.add(q)
                        yield q
                        if metric == "piece":
                            nxt.append(q)
            frontier = nxt


def shapes_of(board):
    """(labels, {label: (height, width)}, a str.translate table writing pieces of one
    shape alike): two boards are one position when their translations are equal."""
    g = grid(board)
    labels = sorted({ch for row in g for ch in row} - {"."})
    shape = {}
    for lab in labels:
        cs = cells_of(g, lab)
        shape[lab] = (cs[-1][0] - cs[0][0] + 1, cs[-1][1] - cs[0][1] + 1)
    names = {}
    xlat = str.maketrans(
        {lab: chr(65 + names.setdefault(shape[lab], len(names))) for lab in labels}
    )
    return labels, shape, xlat


def goal_met(board, label, row, col):
    return cells_of(grid(board), label)[0] == (row, col)


def solved(board, shape, goal_shape=(2, 2), at=None):
    """Some piece of ``goal_shape`` has its top-left cell at ``at`` (default: the
    bottom centre, the classic exit)."""
    height, width, cells = _pieces(board)
    row, col = at if at is not None else (height - 2, (width - 2) // 2)
    top_left = row * (width + 1) + col
    return any(shape[lab] == goal_shape and cells[lab][0] == top_left for lab in shape)


def string_bfs(board, label, row, col, metric):
    """Breadth-first search over board strings; the optimal length or None. Any piece
    of ``label``'s shape may meet the goal (pieces of one shape are interchangeable)."""
    labels, shape, xlat = shapes_of(board)
    queue, depth = deque([(board, 0)]), {board.translate(xlat): 0}
    while queue:
        pos, d = queue.popleft()
        if solved(pos, shape, shape[label], (row, col)):
            return d
        for q in moves(pos, labels, metric):
            k = q.translate(xlat)
            if k not in depth:
                depth[k] = d + 1
                queue.append((q, d + 1))
    return None


def reachable(board):
    """{canonical board: a labelled board} for every position ``board`` reaches."""
    return dict(_group(board)[0])


@functools.lru_cache(maxsize=32)
def _group(board):
    """(members, steps): :func:`reachable`'s members and every one-cell step among
    them, ``steps[board][first cell of a piece, direction]`` the canonical board after.

    A piece is named by its first cell, not its label: a board's member may label pieces
    of one shape otherwise, but cells of one shape cut into its rectangles one way only
    (the first cell left is always a top-left corner). Kept: every metric walks these steps.
    """
    labels, _shape, xlat = shapes_of(board)
    members, steps, todo = {board.translate(xlat): board}, {}, [board]
    while todo:
        pos = todo.pop()
        here = steps[pos.translate(xlat)] = {}
        cells = _pieces(pos)[2]
        for lab in labels:
            for way, (dr, dc) in DIRS.items():
                q = step(pos, lab, dr, dc)
                if q is not None:
                    key = here[cells[lab][0], way] = q.translate(xlat)
                    if key not in members:
                        members[key] = q
                        todo.append(q)
    return members, steps


def group_distances(board, metric, goal_shape=(2, 2), at=None):
    """({canonical board: moves to solved} over ``board``'s whole group, positions that
    cannot be solved left out; the translate table). Distances run backward from the
    solved positions: every move can be undone, so the forward moves serve. A move of
    ``metric`` chains one piece's steps (any, or all one way), or is one step."""
    _labels, shape, xlat = shapes_of(board)
    members, steps = _group(board)
    stride = board.index("/") + 1 if "/" in board else len(board) + 1
    shift = {way: dr * stride + dc for way, (dr, dc) in DIRS.items()}

    def straight(key):
        for (first, way), there in steps[key].items():
            yield there
            first += shift[way]
            while (there := steps[there].get((first, way))) is not None:
                yield there
                first += shift[way]

    def piece(key):
        for start in {first for first, _way in steps[key]}:
            seen, todo = {(key, start)}, [(key, start)]
            while todo:
                here, first = todo.pop()
                for way in DIRS:
                    there = steps[here].get((first, way))
                    moved = (there, first + shift[way])
                    if there is not None and moved not in seen:
                        seen.add(moved)
                        todo.append(moved)
                        yield there

    neighbours = {"piece": piece, "straight": straight, "step": lambda key: steps[key].values()}
    dist = {k: 0 for k, pos in members.items() if solved(pos, shape, goal_shape, at)}
    queue = deque(dist)
    while queue:
        key = queue.popleft()
        for there in neighbours[metric](key):
            if there not in dist:
                dist[there] = dist[key] + 1
                queue.append(there)
    return dist, xlat


def check_solution(board, report_moves, states, metric):
    """Replay every reported move with the referee; returns the last board."""
    assert states[0] == board
    current = board
    for info, expected in zip(report_moves, states[1:], strict=True):
        path = [info["from"]] + info["path"]
        assert info["to"] == path[-1]
        top = cells_of(grid(current), info["piece"])[0]
        assert list(top) == info["from"]
        if metric == "step":
            assert len(info["path"]) == 1
        if metric == "straight":  # every step the same direction
            assert len({(r2 - r1, c2 - c1) for (r1, c1), (r2, c2) in pairwise(path)}) == 1
        for (r1, c1), (r2, c2) in pairwise(path):
            current = step(current, info["piece"], r2 - r1, c2 - c1)
            assert current is not None, f"illegal step in {info}"
        assert current == expected
    return current


def coach_rules(board):
    """(neighbours, is_goal, to_state) in the piece metric for the coach's checks: the
    2x2 piece's top-left cell at the bottom centre solves (labels are kept)."""
    labels, shape, _xlat = shapes_of(board)
    big = next(lab for lab in labels if shape[lab] == (2, 2))
    g = grid(board)
    at = (len(g) - 2, (len(g[0]) - 2) // 2)

    def neighbours(pos):
        return moves(pos, labels, "piece")

    def is_goal(pos):
        return goal_met(pos, big, *at)

    return neighbours, is_goal, str


#: the classic Huarong Dao layout (81 piece moves, 90 straight, 116 steps)
CLASSIC = "BAAC/BAAC/DEEF/DGHF/I..J"


def random_small_board(rnd, height=3, width=4):
    """A random board with one 2x2 goal piece 'A' and assorted smaller pieces."""
    g = [["."] * width for _ in range(height)]

    def place(label, h, w):
        spots = [
            (r, c)
            for r in range(height - h + 1)
            for c in range(width - w + 1)
            if all(g[r + i][c + j] == "." for i in range(h) for j in range(w))
        ]
        if not spots:
            return
        r, c = rnd.choice(spots)
        for i in range(h):
            for j in range(w):
                g[r + i][c + j] = label

    place("A", 2, 2)
    for label in "BCDEFG":
        free = sum(row.count(".") for row in g)
        if free <= rnd.choice([1, 2, 3]):
            break
        place(label, *rnd.choice([(1, 1), (1, 1), (1, 2), (2, 1)]))
    return "/".join("".join(row) for row in g)


#: 35 labels besides the goal piece "A": a board with the most pieces the game allows (36)
CROWD_LABELS = "BCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def crowded_board(rnd, side=10):
    """A ``side`` x ``side`` board with 36 pieces (the game's limit): the 2x2 'A' in the
    top-left corner (far from its goal) and 35 dominoes and squares placed at random."""
    g = [["."] * side for _ in range(side)]
    for r in (0, 1):
        for c in (0, 1):
            g[r][c] = "A"
    labels = iter(CROWD_LABELS)
    cells = [(r, c) for r in range(side) for c in range(side)]
    rnd.shuffle(cells)
    for r, c in cells:
        if g[r][c] != ".":
            continue
        h, w = rnd.choice([(1, 2), (2, 1), (1, 1)])
        if (
            r + h > side
            or c + w > side
            or any(g[r + i][c + j] != "." for i in range(h) for j in range(w))
        ):
            h = w = 1
        label = next(labels, None)
        if label is None:
            break
        for i in range(h):
            for j in range(w):
                g[r + i][c + j] = label
    return "/".join("".join(row) for row in g)


def random_walk(board, positions, rnd):
    """A legal line of ``positions`` boards from ``board`` (start included): each one
    piece moved one cell, by these rules, never back to the position just left."""
    line = [board]
    labels = sorted(set(board) - {".", "/"})
    while len(line) < positions:
        here = line[-1]
        nexts = [
            q
            for lab in labels
            for dr, dc in DIRS.values()
            if (q := step(here, lab, dr, dc)) is not None and (len(line) < 2 or q != line[-2])
        ]
        line.append(rnd.choice(nexts))
    return line
