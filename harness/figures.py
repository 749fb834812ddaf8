"""Figures the tests and the load tool both read off a run."""

from __future__ import annotations


def percentile(values: list[float], q: float) -> float | None:
    """The ``q``-th percentile of ``values`` by the nearest rank (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[index]
