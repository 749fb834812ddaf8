"""The ladder's rating maths, simulated: players of known skill climb it, no server.

A pool of puzzles graded by proven length (as the N-puzzle's 3x3 generator makes
them, 1-31 moves); four players take turns, each served the untried puzzle rated
nearest them and scored as the server scores them. Skill: always optimal, 2 moves
over, 6 over, and 6 over abandoning 30% of the time (the worst of the four).

What it shows (seeds 1-3): optimal 2709, +2 2453, +6 2073, the abandoner 1108-1665.
A fixed excess scores *higher* on a longer puzzle (20/26 beats 5/11), so play alone
would rank long puzzles as easy ones: the order of puzzles is the grade from their
proven length, kept (and corrected puzzle by puzzle) by play, not learnt from it.
"""

from __future__ import annotations

import random
import statistics

import pytest

from webapp.players.ratings import (
    NEW_DEVIATION,
    NEW_RATING,
    Rating,
    attempt_score,
    graded,
    nearest,
    rate,
    wanted,
)

LOW, HIGH = 1, 31  # a 3x3's proven lengths
PER_LENGTH = 12
PUZZLES_EACH = 30
SKILLS = {"optimal": (0, 0.0), "+2": (2, 0.0), "+6": (6, 0.0), "+6, abandons 30%": (6, 0.3)}


def climb(seed: int):
    rng = random.Random(seed)
    lengths = {f"p{n}-{i}": n for n in range(LOW, HIGH + 1) for i in range(PER_LENGTH)}
    puzzles = {key: graded(n, LOW, HIGH) for key, n in lengths.items()}
    players = {name: Rating() for name in SKILLS}
    tried: dict[str, set[str]] = {name: set() for name in SKILLS}
    scores: dict[str, list[float]] = {}
    for _turn in range(PUZZLES_EACH):
        for name, (over, abandons) in SKILLS.items():
            key = nearest(puzzles, wanted(players[name], None), tried[name])
            assert key is not None
            tried[name].add(key)
            shortest = lengths[key]
            length = None if rng.random() < abandons else shortest + over
            score = attempt_score(shortest, length, helped=False)
            players[name], puzzles[key] = rate(players[name], puzzles[key], score)
            scores.setdefault(key, []).append(score)
    return players, {key: (lengths[key], puzzles[key].rating, scores[key]) for key in scores}


def ranks(values):
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    for rank, index in enumerate(order):
        out[index] = float(rank)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_players_of_known_skill_end_in_skill_order(seed):
    players, played = climb(seed)
    ratings = [players[name].rating for name in SKILLS]
    print({name: round(players[name].rating) for name in SKILLS})
    assert ratings == sorted(ratings, reverse=True), ratings
    assert ratings[0] - ratings[-1] >= 150
    # every deviation shrank with play: 30 games say more than none
    assert all(players[name].deviation < NEW_DEVIATION / 2 for name in SKILLS)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_puzzle_ratings_rank_harder_puzzles_above_easier_ones(seed):
    _players, played = climb(seed)
    lengths = [n for n, _rating, _scores in played.values()]
    ratings = [rating for _n, rating, _scores in played.values()]
    spearman = statistics.correlation(ranks(lengths), ranks(ratings))
    assert spearman > 0.8, spearman
    by_length = sorted(played.values())
    third = len(by_length) // 3
    hardest = statistics.mean(rating for _n, rating, _scores in by_length[-third:])
    easiest = statistics.mean(rating for _n, rating, _scores in by_length[:third])
    assert hardest > easiest + 300
    # and the ratings are learnt, not only the grade: a puzzle always solved optimally
    # went down, one always abandoned went up
    for n, rating, scores in played.values():
        if set(scores) == {1.0}:
            assert rating < graded(n, LOW, HIGH).rating
        if set(scores) == {0.0}:
            assert rating > graded(n, LOW, HIGH).rating


def test_scores():
    assert attempt_score(20, 20, helped=False) == 1.0
    assert attempt_score(20, 26, helped=False) == pytest.approx(20 / 26)
    assert attempt_score(20, 20, helped=True) == 0.0
    assert attempt_score(20, None, helped=False) == 0.0


def test_one_game_moves_both_sides_apart():
    player, puzzle = rate(Rating(), Rating(NEW_RATING, 200.0), 1.0)
    assert player.rating > NEW_RATING > puzzle.rating
    player, puzzle = rate(Rating(), Rating(NEW_RATING, 200.0), 0.0)
    assert player.rating < NEW_RATING < puzzle.rating
    with pytest.raises(ValueError):
        rate(Rating(), Rating(), 1.5)


def test_glickmans_example_holds_wherever_the_ratings_sit():
    """The paper's example (1500/200 v 1400/30 won, 1550/100 and 1700/300 lost), and the
    same moved by 800: the corrected volatility step is the same wherever it sits."""
    from webapp.players.ratings import GlickoSide

    for offset in (0, 800):
        side = GlickoSide(1500 + offset, 200, 0.06)
        side._tau = 0.5  # the paper's
        side.update_player([1400 + offset, 1550 + offset, 1700 + offset], [30, 100, 300], [1, 0, 0])
        assert side.getRating() - offset == pytest.approx(1464.06, abs=0.05)
        assert side.getRd() == pytest.approx(151.52, abs=0.05)
        assert side.vol == pytest.approx(0.05999, abs=1e-5)
