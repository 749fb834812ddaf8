"""Water jugs' rules written out once for the tests, on tuples of contents.

Shares no code with ``solver/``: a pour empties the source jug or fills the target,
whichever comes first.
"""


def capacities_of(board):
    return tuple(int(jug.split("/")[1]) for jug in board.split(","))


def contents_of(board):
    return tuple(int(jug.split("/")[0]) for jug in board.split(","))


def jug_pours(capacities):
    """neighbours(contents): every state one pour away."""

    def neighbours(contents):
        for i in range(len(contents)):
            for j in range(len(contents)):
                amount = min(contents[i], capacities[j] - contents[j])
                if i != j and amount > 0:
                    after = list(contents)
                    after[i] -= amount
                    after[j] += amount
                    yield tuple(after)

    return neighbours


def goal_met(goal):
    """is_goal(contents) for a goal like ``0,4,4`` (``*``: any amount)."""
    want = [None if g == "*" else int(g) for g in goal.split(",")]
    return lambda contents: all(w is None or w == h for w, h in zip(want, contents, strict=True))
