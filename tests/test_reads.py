"""Reads at scale (issue 29): leaderboards, ranks and "players chose" from tables kept on
write, on SQLite and PostgreSQL.

Results are seeded in bulk at the schema before the read tables (revision 0002), so
migration 0006 must fill them; more arrive through :func:`results.add` (the write
path). Every answer is checked against a ranking computed here from the results
themselves. The scale checks are not timed: SQLite's query plans must search indexes
(no scan, no sort of every row), and no read touches the results.
"""

import datetime as dt
import random
import threading
import time

from sqlalchemy import event, insert, select

from solver import catalogue
from solver.core.replay import Replay
from solver.core.seeds import daily_seed
from webapp import create_app
from webapp.players import choices, leaderboards, results, streaks
from webapp.players.attempts import AttemptRanking
from webapp.players.challenges import Challenge, daily_challenge
from webapp.players.identity import signer
from webapp.storage import Database
from webapp.storage.models import Best, BoardLength, Player, Result

NOW = dt.datetime(2026, 3, 1, 12, 0)
DAY = NOW.date()
PUZZLE = Challenge("npuzzle", "1 2 3 4 5 6 0 7 8", {"size": 3}, 2, DAY)
OTHER = Challenge("npuzzle", "1 2 3 4 5 6 7 0 8", {"size": 3}, 1, DAY - dt.timedelta(days=1))
#: a few positions, so that lines share moves (what "players chose" counts)
POSITIONS = [f"p{i}" for i in range(12)]


def _line(rng: random.Random) -> list[str]:
    return [rng.choice(POSITIONS) for _ in range(rng.randint(2, 9))]


def _result(rng: random.Random, player_id: int, puzzle: Challenge, n: int) -> dict:
    assisted = rng.random() < 0.1
    return {
        "player_id": player_id,
        "game": puzzle.game,
        "puzzle": puzzle.key,
        "board": puzzle.board,
        "options": puzzle.options_json,
        "day": puzzle.day,
        "length": puzzle.shortest + 2 * rng.randint(0, 4),
        "shortest": puzzle.shortest,
        # few distinct times: many ties, which must share a rank
        "seconds": rng.choice([5.25, 10.0, 12.5, 30.01, 61.5]),
        "assisted": assisted,
        "ranked": not assisted and rng.random() < 0.95,
        "line_hash": f"{n:064d}",
        "line": "\n".join(_line(rng)),
        "created": NOW,
    }


def seed(url: str, players: int, seed_value: int = 1, puzzles: tuple = (PUZZLE, OTHER)) -> Database:
    """``players`` players with 1-3 results each (some assisted or unranked), bulk-inserted
    at revision 0002, then migrated to the newest."""
    rng = random.Random(seed_value)
    db = Database(url)
    db.upgrade("0002")
    with db.writing() as session:
        session.execute(
            insert(Player),
            [
                {"id": i, "token": f"t{i}", "name": f"P{i}" if i % 7 else None, "created": NOW}
                for i in range(1, players + 1)
            ],
        )
        rows = []
        for i in range(1, players + 1):
            for _ in range(rng.randint(1, 3)):
                puzzle = puzzles[0] if rng.random() < 0.9 else puzzles[-1]
                rows.append(_result(rng, i, puzzle, len(rows)))
        session.execute(insert(Result), rows)
    db.upgrade()
    return db


def _store(
    db: Database, player_id: int, line, length: int, seconds: float, assisted: bool
) -> results.Stored:
    """:func:`results.add` of a line ranked as sent (no ranked attempt to end)."""
    ranking = AttemptRanking(PUZZLE.rankable and not assisted, seconds, assisted)
    replay = Replay(tuple(line), length)
    with db.writing() as session:
        return results.add(session, player_id, PUZZLE, replay, ranking, NOW)


def store_more(db: Database, players: int, count: int, seed_value: int = 2) -> None:
    """``count`` more results through the write path, for random players."""
    rng = random.Random(seed_value)
    for _ in range(count):
        row = _result(rng, rng.randint(1, players), PUZZLE, 0)
        line = row["line"].split("\n")
        _store(db, row["player_id"], line, row["length"], row["seconds"], row["assisted"])


def brute_force(db: Database, puzzle: Challenge) -> dict:
    """The standings computed from every result, independently of the read tables."""
    with db.session() as session:
        rows = session.execute(
            select(Result.id, Result.player_id, Result.length, Result.seconds).where(
                Result.puzzle == puzzle.key, Result.ranked.is_(True)
            )
        ).all()
        names = dict(session.execute(select(Player.id, Player.name)).all())
    best: dict[int, tuple] = {}
    for rid, pid, length, seconds in rows:
        if pid not in best or (length, seconds, rid) < best[pid]:
            best[pid] = (length, seconds, rid)
    ordered = sorted(best.items(), key=lambda item: item[1])
    entries, ranks = [], {}
    for index, (pid, (length, seconds, _rid)) in enumerate(ordered):
        same = index and ordered[index - 1][1][:2] == (length, seconds)
        rank = entries[-1][0] if same else index + 1  # equal results share the first's rank
        ranks[pid] = rank
        entries.append((rank, names[pid] or f"Player {pid}", length, seconds))
    lengths: dict[int, int] = {}
    for length, _seconds, _rid in best.values():
        lengths[length] = lengths.get(length, 0) + 1
    return {"best": best, "entries": entries, "ranks": ranks, "lengths": lengths}


def test_5000_players_rank_as_a_brute_force_ranking_says(empty_database_url):
    db = seed(empty_database_url, 5000)
    store_more(db, 5000, 300)
    truth = brute_force(db, PUZZLE)
    read = leaderboards.leaderboard(db, PUZZLE.key, None)
    assert read["players"] == len(truth["best"]) > 4000
    assert [(e.rank, e.name, e.length, e.seconds) for e in read["entries"]] == truth["entries"][
        :100
    ]
    assert read["distribution"] == [
        {"length": k, "players": n} for k, n in sorted(truth["lengths"].items())
    ]
    assert len({e.rank for e in read["entries"]}) < 100  # ties did happen
    players = len(truth["best"])
    for pid in random.Random(3).sample(sorted(truth["best"]), 40) + [5001]:
        me = leaderboards.standing(db, pid, PUZZLE.key)
        if pid not in truth["best"]:
            assert (me["rank"], me["beat"], me["players"]) == (None, None, players)
            continue
        length, seconds, _rid = truth["best"][pid]
        worse = sum(1 for other in truth["best"].values() if other[:2] > (length, seconds))
        assert me == {
            "rank": truth["ranks"][pid],
            "players": players,
            "beat": round(100 * worse / (players - 1)),
            "best": {"length": length, "seconds": seconds},
        }
    # the other board's standings are its own
    other = brute_force(db, OTHER)
    assert leaderboards.leaderboard(db, OTHER.key, None)["players"] == len(other["best"])
    db.close()


def test_streaks_come_from_the_bests(empty_database_url):
    db = seed(empty_database_url, 300)
    with db.session() as session:
        days = {
            (pid, day)
            for pid, day in session.execute(
                select(Result.player_id, Result.day).where(Result.ranked.is_(True))
            )
        }
    for pid in range(1, 60):
        # today counts once solved; until then the streak up to yesterday stays alive
        day, expected = (DAY if (pid, DAY) in days else DAY - dt.timedelta(days=1)), 0
        while (pid, day) in days:
            expected, day = expected + 1, day - dt.timedelta(days=1)
        assert streaks.streak(db, pid, "npuzzle", DAY) == expected
    db.close()


def chosen_by_brute_force(db: Database, puzzle: Challenge) -> tuple[dict, dict]:
    """Per position: the players who left it, and per move the players who took it."""
    left: dict[str, set] = {}
    took: dict[tuple, set] = {}
    with db.session() as session:
        lines = session.execute(
            select(Result.player_id, Result.line).where(
                Result.puzzle == puzzle.key, Result.assisted.is_(False)
            )
        ).all()
    for pid, line in lines:
        states = line.split("\n")
        for before, after in zip(states, states[1:], strict=False):
            left.setdefault(before, set()).add(pid)
            took.setdefault((before, after), set()).add(pid)
    return left, took


class Walk:
    """A stand-in domain whose every position leads to every position (the seeded lines
    jump freely between :data:`POSITIONS`)."""

    def parse(self, text):
        return text

    def format(self, state):
        return state

    def legal_moves(self, state):
        return [(f"to {p}", p) for p in POSITIONS]

    def describe(self, move):
        return move


def test_players_chose_counts_each_player_once_per_move(empty_database_url):
    db = seed(empty_database_url, 400)
    store_more(db, 400, 200)
    left, took = chosen_by_brute_force(db, PUZZLE)
    for position in POSITIONS:
        reply = choices.moves(db, Walk(), PUZZLE.key, position)
        assert reply["players"] == len(left.get(position, ()))
        counted = {m["board"]: m["players"] for m in reply["moves"]}
        assert counted == {p: len(took.get((position, p), ())) for p in POSITIONS}
        shown = [m["players"] for m in reply["moves"]]
        assert shown == sorted(shown, reverse=True)
    db.close()


def test_one_player_submitting_at_once_from_many_threads_is_counted_once(empty_database_url):
    db = seed(empty_database_url, 5)
    rng = random.Random(9)
    lines = [(_line(rng), PUZZLE.shortest + 2 * rng.randint(0, 3), 1 + n) for n in range(16)]
    start = threading.Barrier(len(lines))
    failures = []

    def submit(line, length, seconds):
        start.wait()
        try:
            _store(db, 1, line, length, seconds, False)
        except Exception as err:  # noqa: BLE001 -- any failure is the test's finding
            failures.append(err)

    threads = [threading.Thread(target=submit, args=line) for line in lines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    truth = brute_force(db, PUZZLE)
    with db.session() as session:
        kept = session.execute(select(Best.length, Best.seconds).where(Best.player_id == 1)).all()
        lengths = dict(
            session.execute(
                select(BoardLength.length, BoardLength.players).where(
                    BoardLength.puzzle == PUZZLE.key, BoardLength.players != 0
                )
            ).all()
        )
    assert [tuple(k) for k in kept] == [truth["best"][1][:2]]
    assert lengths == truth["lengths"]
    left, took = chosen_by_brute_force(db, PUZZLE)
    for position in POSITIONS:
        assert choices.moves(db, Walk(), PUZZLE.key, position)["players"] == len(
            left.get(position, ())
        )
    db.close()


def _statements(db: Database, work) -> list[tuple[str, tuple]]:
    """Every SQL statement ``work()`` runs on ``db``, with its parameters."""
    seen: list[tuple[str, tuple]] = []

    def note(_conn, _cursor, statement, parameters, _context, _many):
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        work()
    finally:
        event.remove(db.engine, "before_cursor_execute", note)
    return seen


def _plans(db: Database, statements) -> list[str]:
    lines = []
    with db.engine.connect() as connection:
        for statement, parameters in statements:
            plan = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
            lines.extend(row[-1] for row in plan)
    return lines


def _make_daily(game, day):
    return catalogue.get(game).generate({}, daily_seed(game, day), True)


def _reads_of_a_player(folder, url: str) -> list[tuple[str, tuple]]:
    """The SELECTs of player ``t17``'s leaderboard and "players chose" requests."""
    app = create_app(testing=True, DATABASE_URL=url, DATA_DIR=str(folder), CLOCK=lambda: NOW)
    state = app.extensions["players"]
    state.daily = _make_daily
    daily = daily_challenge(catalogue.get("npuzzle"), DAY, _make_daily)
    client = app.test_client()
    client.set_cookie("arcade_player", signer(str(app.secret_key)).dumps("t17"))

    def reads():
        board = client.get("/api/leaderboard/npuzzle").get_json()
        assert board["players"] > 1 and board["me"]["rank"] is not None
        chose = client.get("/api/choices/npuzzle", query_string={"board": daily.board})
        assert chose.status_code == 200

    statements = _statements(state.db, reads)
    state.db.close()
    return statements


def test_reads_search_indexes_and_never_touch_the_results(tmp_path):
    """SQLite's plans for a player's leaderboard and "players chose": each table reached
    through an index (a SEARCH, not a SCAN), nothing sorted in a temporary b-tree, no
    read of the results; and the same statements whatever the number of players."""
    daily = daily_challenge(catalogue.get("npuzzle"), DAY, _make_daily)
    urls = [f"sqlite:///{tmp_path / name}" for name in ("big.sqlite3", "small.sqlite3")]
    for url, players in zip(urls, (2000, 50), strict=True):
        seed(url, players, puzzles=(daily,)).close()
    big = _reads_of_a_player(tmp_path, urls[0])
    plans = _plans(Database(urls[0]), big)
    assert plans and not any(line.startswith("SCAN") for line in plans), plans
    assert not any("TEMP B-TREE" in line for line in plans), plans
    assert not any(" results" in line for line in plans), plans
    small = _reads_of_a_player(tmp_path, urls[1])
    assert [s for s, _p in small] == [s for s, _p in big]


def test_a_crowd_reading_one_board_costs_one_read_and_a_write_here_shows_at_once(monkeypatch):
    """Sixteen players opening one leaderboard at once cost the database one board read
    (the loop serves everyone else meanwhile); a result stored by this process forgets
    its board, and another process's shows within the freshness."""
    reads = []
    monkeypatch.setattr(leaderboards, "board_view", lambda db, key: reads.append(key) or {"k": key})
    now = [0.0]
    views = leaderboards.BoardViews(clock=lambda: now[0])
    assert [views.get(None, "a") for _ in range(16)] == [{"k": "a"}] * 16
    assert reads == ["a"]
    views.get(None, "b")
    views.forget("a")  # a result stored here
    views.get(None, "a")
    assert reads == ["a", "b", "a"]
    now[0] += leaderboards.BoardViews.FRESH_SECONDS  # another process's result shows by now
    views.get(None, "b")
    assert reads == ["a", "b", "a", "b"]
    views.forget()  # a name changed: every board shows it
    views.get(None, "a")
    views.get(None, "b")
    assert reads == ["a", "b", "a", "b", "a", "b"]


def test_ranks_from_the_kept_scores_are_the_database_counts(empty_database_url, monkeypatch):
    """:meth:`BoardViews.standing` (a binary search in the board's kept scores) answers
    what :func:`leaderboards.standing` counts in the database, ties included: for the players
    read, after results stored here (patched in: the scores are not read again), and for
    a best stored elsewhere since they were read (counted in the database then, read
    with the scores once the board's version moved, and not read again while it stays)."""
    db = seed(empty_database_url, 700)  # some players only on OTHER: their first result here
    reads = []
    read = leaderboards.board_scores
    monkeypatch.setattr(leaderboards, "board_scores", lambda *a: reads.append(a) or read(*a))
    now = [0.0]
    views = leaderboards.BoardViews(clock=lambda: now[0])

    def agree(pid: int) -> dict:
        kept = views.standing(db, pid, PUZZLE.key)
        assert kept == leaderboards.standing(db, pid, PUZZLE.key), pid
        return kept

    seen = [agree(pid) for pid in range(1, 701, 3)]
    ranks = [me["rank"] for me in seen if me["rank"] is not None]
    assert len(set(ranks)) < len(ranks) / 4  # ties did happen, and share a rank
    assert any(me["rank"] is None for me in seen)
    rng = random.Random(5)
    for _ in range(80):
        row = _result(rng, rng.randint(1, 700), PUZZLE, 0)
        line, length = row["line"].split("\n"), row["length"]
        stored = _store(db, row["player_id"], line, length, row["seconds"], row["assisted"])
        views.stored(PUZZLE.key, stored.change)
        agree(row["player_id"])
    for pid in range(1, 701, 5):
        agree(pid)
    assert len(reads) == 1
    # another process's result, an unheard-of time: not in the scores kept here
    elsewhere = _store(db, 4, ["p0", "p1"], PUZZLE.shortest, 1.23, False)
    assert elsewhere.change is not None
    assert agree(4)["rank"] == 1
    now[0] += leaderboards.BoardViews.FRESH_SECONDS  # read again: then in the scores
    agree(4)
    assert len(reads) == 2
    # no result since: past the freshness the board's version is checked, not its scores
    for _ in range(3):
        now[0] += leaderboards.BoardViews.FRESH_SECONDS
        agree(7)
    assert len(reads) == 2
    now[0] += leaderboards.BoardViews.SCORES_LONGEST  # read again however still the board is
    agree(7)
    assert len(reads) == 3
    db.close()


def test_a_boards_version_moves_with_its_bests_and_only_then(empty_database_url):
    """Whichever process stores, a new player's best or a better one moves the board's
    version (what a kept board's freshness checks); a worse or assisted result, or
    another board's, leaves it. A migrated board starts at 0."""
    db = seed(empty_database_url, 30)
    with db.writing() as session:
        session.execute(insert(Player), [{"id": 31, "token": "t31", "name": "New", "created": NOW}])
    versions = [leaderboards.board_version(db, PUZZLE.key)]
    for player_id, seconds, assisted in [
        (31, 99.0, False),  # a new player's first result: moves
        (31, 50.0, False),  # better: moves
        (31, 70.0, False),  # worse: stays
        (12, 0.5, True),  # assisted, however fast: stays
        (12, 0.5, False),  # better than anyone: moves
    ]:
        line = [f"p{n}-{seconds}-{assisted}" for n in range(PUZZLE.shortest + 1)]  # a new line
        _store(db, player_id, line, PUZZLE.shortest, seconds, assisted)
        versions.append(leaderboards.board_version(db, PUZZLE.key))
    assert versions == [0, 1, 2, 2, 2, 3]
    assert leaderboards.board_version(db, OTHER.key) == 0
    assert leaderboards.board_version(db, "no-such-board") == 0
    db.close()


def test_a_board_is_read_by_one_reader_at_a_time():
    """Readers arriving while a board is read wait for that read when nothing is kept,
    or take what is kept when it only expired; a read begun before a forget is not kept."""
    now = [0.0]
    kept = leaderboards.Kept(lambda: now[0], 1.0, 8)
    started, release, reads = threading.Event(), threading.Event(), []

    def slow(value):
        def read():
            reads.append(value)
            started.set()
            release.wait(5)
            return value

        return read

    def crowd(value, count=8):
        answers = []
        threads = [
            threading.Thread(target=lambda: answers.append(kept.get("a", slow(value))))
            for _ in range(count)
        ]
        for thread in threads:
            thread.start()
        return threads, answers

    threads, answers = crowd("first")
    assert started.wait(5)
    release.set()
    for thread in threads:
        thread.join(5)
    assert reads == ["first"] and answers == ["first"] * 8
    now[0] += 1.0  # expired: one reader reads it again, the others take the kept one
    started.clear()
    release.clear()
    threads, answers = crowd("second")
    assert started.wait(5)
    deadline = time.monotonic() + 5
    while len(answers) < 7 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert answers == ["first"] * 7  # nobody waited for the reader
    kept.forget("a")  # a result stored meanwhile: the read under way is not kept
    release.set()
    for thread in threads:
        thread.join(5)
    assert answers[-1] == "second" and reads == ["first", "second"]
    assert kept.get("a", lambda: "third") == "third"
