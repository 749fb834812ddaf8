"""Runnable examples of the seed-style :class:`solver.Puzzle` API."""
