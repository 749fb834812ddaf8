"""The compiled Klotski search (bit-plane keys, numba) against the pure-Python one and an oracle.

Every distance of a group must be equal: the compiled tables are compared key
by key with the pure-Python tables on small boards in every metric, and with
the plain string search of ``test_klotski_hardest`` (no solver code).
"""

import json
import os
import pickle
import random
import subprocess
import sys
import threading

import pytest
from helpers.klotski import CLASSIC, check_solution, goal_met, random_small_board
from helpers.klotski import group_distances as plain_group_distances

from solver.core.results import BUDGET, CANCELLED, SOLVED, UNSOLVABLE, Budget, Monitor
from solver.klotski import bitboard, tables
from solver.klotski.bench_c import c_reference, print_against_c, solve_row
from solver.klotski.board import parse_board
from solver.klotski.domain import Klotski
from solver.klotski.hardest import hardest_of_table, hardest_report
from solver.klotski.moves import state_key
from solver.klotski.packed import PackedDistances, build_packed, solve_packed

METRICS = ("piece", "straight", "step")
SMALL = ["AAB/AAC/DE./F.G", "BAAC/BAAC/D..E/FGHE", "AA../AABB/CDEE", CLASSIC]
#: proven unsolvable (the issue's reference group): 1,638,566 positions, no goal among them
UNSOLVABLE_6X5 = "CDDDIL/C.GGJE/C.HAAE/KFHAAN/MFBBBB"


@pytest.fixture(autouse=True)
def fresh_tables():
    tables.forget_tables()
    yield
    tables.forget_tables()


@pytest.fixture
def compiled_everywhere(monkeypatch):
    """Every board goes to the compiled search, however small."""
    monkeypatch.setattr(bitboard, "COMPILED_MIN_CELLS", 0)


def pure_table(layout, key, metric):
    return tables.build_table(layout, key, metric, Monitor(), limit=None, packed=False)


def test_packed_keys_round_trip_on_random_positions():
    rnd = random.Random(23)
    for board in SMALL + ["GGGGGGGG/" + "ABCDEF.H/" * 6 + "ABCDEF.H"]:
        domain = Klotski("step", goal="A@0,0")
        state = domain.parse(board)
        pack = bitboard.packing(state.layout, "step")
        assert pack.fits
        for _ in range(30):
            key = domain.key(state)
            lo, hi = pack.pack(key)
            assert pack.unpack(lo, hi) == key
            state = rnd.choice(domain.moves(state))[1]


def test_a_key_past_128_bits_is_left_to_the_python_search():
    # 8x8 with five shapes: 3 code planes x 64 cells = 192 bits
    board = "AABCDD../AAB...../EEE...../" + "......../" * 4 + "........"
    layout = parse_board(board).layout
    assert not bitboard.packing(layout, "piece").fits and not bitboard.pays(layout)
    result = Klotski("piece").solve(parse_board(board))
    assert result.status == SOLVED and result.optimal and result.length > 0


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("board", SMALL)
def test_every_distance_of_a_group_equals_the_python_search(board, metric, compiled_everywhere):
    domain = Klotski(metric)
    state = domain.parse(board)
    key = domain.key(state)
    packed = tables.build_table(state.layout, key, metric, Monitor(), limit=None)
    assert isinstance(packed.distance, PackedDistances)
    pure = pure_table(state.layout, key, metric)
    assert len(packed) == len(pure)
    assert dict(packed.distance.items()) == pure.distance
    assert tables.group_key(packed) == tables.group_key(pure)
    assert packed.solvable == pure.solvable
    assert hardest_of_table(state.layout, packed) == hardest_of_table(state.layout, pure)


@pytest.mark.parametrize("metric", METRICS)
def test_random_small_groups_match_a_plain_string_search(metric, compiled_everywhere):
    rnd = random.Random(7)
    for _ in range(6):
        board = random_small_board(rnd, 4, 4)
        found = hardest_report(board, metric)
        dist, xlat = plain_group_distances(board, metric)
        if not dist:
            assert found["hardest"]["distance"] is None
            continue
        assert found["distance"] == dist[board.translate(xlat)]
        assert found["hardest"]["distance"] == max(dist.values())
        assert found["positions"] == len(dist)


@pytest.mark.parametrize("metric", METRICS)
def test_compiled_solve_is_shortest_and_replays_legally(metric, compiled_everywhere):
    domain = Klotski(metric)
    state = domain.parse(CLASSIC)
    chain, _reached = solve_packed(state.layout, domain.key(state), metric, Monitor())
    assert len(chain) - 1 == {"piece": 81, "straight": 90, "step": 116}[metric]
    result = domain.solve(state)
    assert result.status == SOLVED and result.optimal and result.length == len(chain) - 1
    infos = [domain.move_info(m) for m in result.moves]
    check_solution(CLASSIC, infos, [domain.format(s) for s in result.states], metric)


def test_a_big_unsolvable_group_is_proven_by_exhausting_it():
    domain = Klotski("piece")
    result = domain.solve(domain.parse(UNSOLVABLE_6X5))
    assert result.status == UNSOLVABLE and result.optimal
    assert "1638566" in result.message


def test_a_group_past_the_limit_stops_as_too_big(compiled_everywhere):
    layout = parse_board(CLASSIC).layout
    with pytest.raises(bitboard.TooManyPositions):
        build_packed(layout, state_key(parse_board(CLASSIC)), "piece", Monitor(), limit=1000)
    with pytest.raises(tables.TooBig):
        tables.build_table(layout, state_key(parse_board(CLASSIC)), "piece", Monitor(), 1000)


def test_the_compiled_search_honours_cancel_and_budget():
    domain = Klotski("piece")
    state = domain.parse(UNSOLVABLE_6X5)
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    assert domain.solve(state, cancel=stop).status == CANCELLED
    result = domain.solve(state, budget=Budget(max_nodes=50_000))
    assert result.status == BUDGET and result.nodes < 200_000


def test_a_packed_table_survives_pickling(compiled_everywhere):
    domain = Klotski("piece")
    state = domain.parse(CLASSIC)
    table = tables.build_table(state.layout, domain.key(state), "piece", Monitor(), None)
    again = pickle.loads(pickle.dumps(table))
    assert again.distance[domain.key(state)] == 81
    assert dict(again.distance.items()) == dict(table.distance.items())
    assert domain.key(state) + 1 not in again.distance


def test_big_boards_search_compiled_small_ones_in_python_and_tables_always_pack():
    assert bitboard.pays(parse_board(UNSOLVABLE_6X5).layout)
    assert not bitboard.pays(parse_board(CLASSIC).layout)
    assert bitboard.packs(parse_board(CLASSIC).layout)
    domain = Klotski("piece")
    table = domain.warm(domain.parse(CLASSIC), disk="off")
    assert isinstance(table.distance, PackedDistances)


def test_a_wide_open_board_checks_cancel_within_a_few_hundred_positions():
    """Hundreds of moves a position: a compiled slice is bounded by children looked up,
    not positions expanded, so the monitor (cancel, budget) runs every few milliseconds."""
    board = "AA....../AA....../" + "......../" * 5 + "BCDEFGHI"
    domain = Klotski("piece")
    state = domain.parse(board)
    assert bitboard.pays(state.layout)
    checks = []
    result = domain.solve(state, cancel=lambda: checks.append(1) or len(checks) > 3)
    assert result.status == CANCELLED
    assert result.nodes < 4 * bitboard.SLICE // 100  # at least 100 children a position


@pytest.mark.parametrize("metric,length", [("piece", 81), ("straight", 90), ("step", 116)])
def test_the_c_reference_agrees_with_the_known_lengths(metric, length):
    """The bench's C BFS is a fair reference only if it searches the same moves."""
    ref = c_reference(CLASSIC, metric)
    assert ref is not None, "the C reference did not build (this machine has gcc)"
    assert ref["distance"] == length and ref["positions"] > 20_000


def test_the_bench_row_holds_our_solve_against_the_c_reference(capsys, isolated_cache):
    # (isolated_cache: the row points the table cache at a fresh folder; restored after)
    ours = solve_row(UNSOLVABLE_6X5, "piece")
    assert ours["status"] == "unsolvable" and ours["nodes"] == 1_638_566
    print_against_c("6x5", ours, UNSOLVABLE_6X5, "piece")
    line = capsys.readouterr().out
    assert "ratio" in line and "1,638,566 positions" in line and "same answer: yes" in line


@pytest.mark.parametrize("metric", METRICS)
def test_a_64_cell_board_packs_and_agrees_with_the_python_search(metric):
    """8x8: occupancy masks use all 64 bits, the key both words."""
    board = "BBBBCCCC/FFFFGGGG/HHHHIIII/JJJJKKKK/LLLLMMMM/NNNNOOOO/AA..PPPP/AAQQQQRR"
    domain = Klotski(metric, goal="R@6,6")
    state = domain.parse(board)
    assert state.layout.cells == 64 and bitboard.pays(state.layout)
    key = domain.key(state)
    packed = tables.build_table(state.layout, key, metric, Monitor(), limit=None)
    pure = pure_table(state.layout, key, metric)
    assert isinstance(packed.distance, PackedDistances) and packed.solvable
    assert dict(packed.distance.items()) == pure.distance
    result = domain.solve(state)
    assert result.status == SOLVED and result.length == pure.distance[key]


def test_where_the_compiled_kernels_cannot_load_the_python_search_answers(monkeypatch):
    """A solver worker under a tight memory cap may fail to map LLVM's library."""

    def fails():
        raise OSError("Could not find/load shared object file 'libllvmlite.so'")

    monkeypatch.setattr(bitboard, "compiled", fails)
    monkeypatch.setattr(bitboard, "_loadable", [])
    layout = parse_board(UNSOLVABLE_6X5).layout
    assert not bitboard.pays(layout) and not bitboard.packs(layout)
    monkeypatch.setattr(bitboard, "_loadable", [])  # and under a tight memory cap
    monkeypatch.setattr(bitboard, "_address_space", lambda: 160 << 20)
    monkeypatch.setattr(bitboard, "compiled", lambda: pytest.fail("tried to load numba"))
    assert not bitboard.pays(layout)
    domain = Klotski("piece")
    result = domain.solve(domain.parse(CLASSIC))
    assert result.status == SOLVED and result.length == 81
    table = domain.warm(domain.parse(CLASSIC), disk="off")
    assert not isinstance(table.distance, PackedDistances) and len(table) == 25955


def test_a_process_loads_its_compiled_search_without_numbas_compiler(tmp_path, monkeypatch):
    """A one-shot search on a big board (the CLI's) loads bfs_run's cached machine code
    alone: numba's compiler set-up, whose refresh imports every implementation numba has
    (linear algebra among them) and took 0.3-0.5 s of every such call, never runs. Its
    answer replays legally and is as short as the pure-Python search's."""
    board = "ABBC/ABBC/D..E/FGHE/I..J/KLMN"  # 24 cells: the compiled search takes it
    script = (
        "import json, sys\n"
        "from solver.engine import solve_board\n"
        f"report = solve_board('klotski', {board!r}, metric='piece')\n"
        "print(json.dumps({'states': report['states'], 'moves': report['move_details'],\n"
        "    'compiled': 'solver.klotski.kernels' in sys.modules,\n"
        "    'compiler': 'numba.np.linalg' in sys.modules}))\n"
    )
    env = {**os.environ, "PUZZLE_ARCADE_CACHE": str(tmp_path)}

    def run() -> dict:
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
        )
        return json.loads(done.stdout)

    run()  # compiles and caches the kernels where this checkout has not yet
    found = run()
    assert found["compiled"] and not found["compiler"]
    final = check_solution(board, found["moves"], found["states"], "piece")
    assert goal_met(final, "B", 4, 1)
    monkeypatch.setattr(bitboard, "COMPILED_MIN_CELLS", 64)  # the pure-Python search
    domain = Klotski("piece")
    plain = domain.solve(domain.parse(board))
    assert plain.status == SOLVED and plain.length == len(found["moves"])
