"""The command line contract: output, exit codes, one-line errors."""

import json
import subprocess
import sys

import pytest

from solver import catalogue
from solver.cli import build_parser, main
from solver.engine import parse_board

CLASSIC = "BAAC/BAAC/DEEF/DGHF/I..J"


def run_cli(*args):
    """Run ``python -m solver`` for real: exit code, stdout, stderr."""
    proc = subprocess.run(
        [sys.executable, "-m", "solver", *args], capture_output=True, text=True, timeout=120
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_klotski_classic_json_piece_metric():
    code, out, err = run_cli("solve", "klotski", CLASSIC, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["solvable"] is True and report["optimal"] is True
    assert report["length"] == 81 == len(report["moves"]) == len(report["states"]) - 1
    assert report["states"][0] == CLASSIC
    assert report["puzzle"] == "klotski" and report["board"] == CLASSIC
    assert set(report["stats"]) >= {"nodes", "seconds"}


def test_klotski_classic_step_metric_states_replay(capsys):
    assert main(["solve", "klotski", CLASSIC, "--metric", "step", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["length"] == 116
    domain, state = parse_board("klotski", CLASSIC, metric="step")
    for text in report["states"][1:]:
        nxt = domain.parse(text)
        assert any(domain.key(s) == domain.key(nxt) for _, s in domain.moves(state))
        state = nxt
    assert domain.is_goal(state)


def test_npuzzle_hardest_is_31(capsys):
    assert main(["solve", "npuzzle", "8 6 7 2 5 4 3 0 1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["length"] == 31 and report["optimal"] is True
    assert report["states"][-1] == "1 2 3 4 5 6 7 8 0"


def test_human_output_lists_numbered_moves(capsys):
    assert main(["solve", "npuzzle", "1 2 3 4 5 6 7 0 8"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("solved in 1 moves, optimal")
    assert out[1].strip().startswith("1.") and "8" in out[1]


def test_unsolvable_exits_1_with_solvable_false(capsys):
    assert main(["solve", "npuzzle", "2 1 3 4 5 6 7 8 0", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["solvable"] is False and report["moves"] == []


def test_watersort_solves_with_capacity(capsys):
    assert main(["solve", "watersort", "AB,BA,,", "--capacity", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["solvable"] and report["optimal"] and report["length"] >= 2


def test_gave_up_exits_3_with_a_message():
    # a fresh process: no level table built by another test can answer for free
    code, out, err = run_cli("solve", "klotski", CLASSIC, "--metric", "step", "--nodes", "50")
    assert code == 3
    assert "gave up" in err and "Traceback" not in err


BAD = [
    (["solve", "klotski", "BAAC/BAAC/DEEF/DGHF/I..JK"], "row 5"),
    (["solve", "klotski", "AAB/ABB/..."], "not a rectangle"),
    (["solve", "klotski", "AB./CD./..."], "2x2"),
    (["solve", "npuzzle", "1 2 3 4 5 6 7 7 0"], "7"),
    (["solve", "npuzzle", "1 2 3 4 5 0"], "square"),
    (["solve", "npuzzle", "1 2 x 0"], "x"),
    (["solve", "watersort", "AAB,BB,,"], "A"),
    (["solve", "watersort", "AAAAA,,", "--capacity", "4"], "5"),
    (["solve", "chess", "e4"], "unknown game"),
    (
        ["solve", "klotski", "/".join(["A" * 200] * 200)],
        "board is 40199 characters long; the limit is 2000",
    ),
    (
        ["solve", "npuzzle", " ".join(str(i) for i in range(400))],
        "a 20x20 board is too large: the largest is 10x10",
    ),
    (
        ["solve", "watersort", ",".join(["AAAA"] * 500)],
        "board is 2499 characters long; the limit is 2000",
    ),
    (["solve", "watersort", "AB,BA", "--capacity", "0"], "capacity"),
    (["solve", "klotski", CLASSIC, "--goal", "Z@9,9"], "Z"),
    (["solve", "klotski", CLASSIC, "--capacity", "3"], "capacity"),
    (["solve", "klotski", CLASSIC, "--metric", "jump"], "metric"),
    (["solve"], "required"),
    (["frobnicate"], "invalid choice"),
    (["solve", "npuzzle", ""], "board is empty"),
    (["solve", "klotski", CLASSIC, "--seconds", "nan"], "--seconds"),
    (["solve", "klotski", CLASSIC, "--seconds", "inf"], "--seconds"),
    (["solve", "klotski", CLASSIC, "--seconds", "0"], "--seconds"),
    (["solve", "jugs", "0/3,0/5,8/8", "--capacity", "4"], "capacity"),
    (["bench", "--only", "chess"], "invalid choice"),
]


@pytest.mark.parametrize("argv,fragment", BAD, ids=lambda v: str(v)[:40])
def test_bad_input_exits_2_with_one_clear_line(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and len(lines[0]) < 300
    assert fragment in lines[0]
    assert "Traceback" not in err


def test_no_command_prints_the_usage_and_every_command():
    """``python -m solver`` alone: the usage and what each command does, exit 2."""
    code, out, err = run_cli()
    assert code == 2 and out == ""
    assert err.startswith("usage: python -m solver") and "Traceback" not in err
    for command in ("solve", "hardest", "tables", "bench"):
        assert f"    {command} " in err, err


def test_bad_input_from_a_real_process_has_no_traceback():
    code, out, err = run_cli("solve", "klotski", "AB/A")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err


def test_option_flags_come_from_every_game_declaration():
    solve = build_parser()._subparsers._group_actions[0].choices["solve"]
    flags = {action.dest: action for action in solve._actions}
    for game in catalogue.games().values():
        for option in game.options:
            assert option.name in flags and option.help in flags[option.name].help
    assert (
        flags["metric"].choices == ["piece", "straight", "step"] and flags["capacity"].type is int
    )


def test_a_game_without_an_option_refuses_it(capsys):
    assert main(["solve", "npuzzle", "1 2 3 0", "--metric", "step"]) == 2
    assert "does not apply to npuzzle" in capsys.readouterr().err


def test_bench_flags_come_from_the_games_and_a_game_can_take_the_run(monkeypatch, capsys):
    bench = build_parser()._subparsers._group_actions[0].choices["bench"]
    args = bench.parse_args(["--deals", "2", "--fifteen"])
    assert args.deals == 2 and args.fifteen == "1-100"
    ranges = []
    monkeypatch.setattr(
        "solver.npuzzle.bench.bench_fifteen", lambda args: ranges.append(args.fifteen) or 7
    )
    assert main(["bench", "--fifteen", "3-4"]) == 7
    assert ranges == ["3-4"] and capsys.readouterr().out == ""  # no usual rows


def test_a_one_game_call_imports_that_game_alone():
    """``solve npuzzle`` on a 3x3 loads no other game, no bench or baseline code, no
    numba and none of the 4x4 and larger searches, nor what only analyses, generators
    and the original's API use (the coach, the payloads' shapes, :class:`solver.Puzzle`, the
    calendar), nor what a one-shot call paid for before its first line: dataclasses (and
    the inspect module they import), OpenSSL's hashes (a table's fingerprint is SHA-1 all
    the same), pkgutil's walk of the packages, shutil (argparse's width), threading (the
    tables' locks) and the editable install's import hook (a path in a .pth file
    instead). Read from ``python -X importtime``, which lists every module a process
    imports."""
    proc = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "solver",
            "solve",
            "npuzzle",
            "1 2 3 4 5 6 7 0 8",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    loaded = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines() if "|" in line}
    assert "solver.npuzzle.domain" in loaded
    others = {name for name in catalogue.names() if name != "npuzzle"}
    unwanted = sorted(
        module
        for module in loaded
        if module.split(".")[0] == "numba"
        or (module.startswith("solver.") and module.split(".")[1] in others)
        or module.rsplit(".", 1)[-1] in ("bench", "baseline")
        or module in ("solver.npuzzle.pdb", "solver.npuzzle.anytime", "solver.npuzzle.reduce")
        or module in ("solver.core.coach", "solver.payloads", "solver.puzzle", "datetime")
        or module in ("dataclasses", "inspect", "hashlib", "_hashlib", "pkgutil")
        or module in ("shutil", "threading")
        or module.startswith("__editable__")
    )
    assert unwanted == []


def test_a_finished_call_leaves_its_objects_to_the_exit_not_the_collector():
    """``python -m solver`` freezes what it made before exiting: the interpreter's last
    collections walked every object (a tenth of a second once numba was loaded). The
    answer and the exit code are the call's own."""
    code = (
        "import atexit, gc, runpy, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0, file=sys.stderr))\n"
        "sys.argv = ['solver', 'solve', 'npuzzle', '1 2 3 4 5 6 7 8 0 9']\n"
        "runpy.run_module('solver', run_name='__main__')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines()[-1] == "frozen True"
    assert proc.stderr.splitlines()[0].startswith("error: ")


def test_the_game_names_are_the_package_names_and_listing_them_imports_none():
    code = (
        "import sys; from solver import catalogue; names = catalogue.names(); "
        "print(','.join(names), any(m.startswith(tuple(f'solver.{n}' for n in names)) "
        "for m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [",".join(sorted(catalogue.games())), "False"]
    assert all(game.__module__ == f"solver.{name}.game" for name, game in catalogue.games().items())


def test_an_option_of_another_game_is_one_clear_line(capsys):
    assert main(["solve", "npuzzle", "1 2 3 0", "--capacity=4"]) == 2
    assert capsys.readouterr().err == "error: --capacity does not apply to npuzzle\n"


def test_the_help_wraps_at_the_terminal_width(monkeypatch):
    """The help formatter reads ``COLUMNS`` as argparse's own does (less two), found
    without importing shutil."""
    widest = {}
    for columns in (50, 120):
        monkeypatch.setenv("COLUMNS", str(columns))
        widest[columns] = max(map(len, build_parser().format_help().splitlines()))
        assert widest[columns] <= columns - 2
    assert widest[120] > widest[50]
