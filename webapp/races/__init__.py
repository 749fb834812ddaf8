"""Live races: the same puzzles for up to ten racers, every move judged by the server."""
