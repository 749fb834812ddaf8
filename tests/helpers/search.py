"""A plain breadth-first search over any rules in ``tests/helpers`` (no solver code)."""

from collections import deque


def bfs_distance(start, neighbours, is_goal):
    """Fewest moves from ``start`` to a goal, or None when no goal is reachable."""
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        state, depth = queue.popleft()
        if is_goal(state):
            return depth
        for nxt in neighbours(state):
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, depth + 1))
    return None


def bfs_path(start, neighbours, is_goal):
    """The states of a shortest way from ``start`` to a goal (start first), or None."""
    parent = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if is_goal(state):
            path = []
            while state is not None:
                path.append(state)
                state = parent[state]
            return path[::-1]
        for nxt in neighbours(state):
            if nxt not in parent:
                parent[nxt] = state
                queue.append(nxt)
    return None
