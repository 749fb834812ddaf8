"""Command line: ``python -m solver solve PUZZLE BOARD [...]``, ``hardest PUZZLE BOARD
[--placements]``, ``tables [build|clean]`` and ``bench``.

Exit codes: 0 solved, 1 proven unsolvable, 2 bad input (one line on stderr, no
traceback), 3 the search gave up within its budget.

A call about one puzzle imports that game alone (its flags come from its
declaration), so ``solve npuzzle`` starts as fast as the 8-puzzle allows; ``bench``
loads every game's ``bench`` module, which no other command imports.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import sys
import time
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn

from . import catalogue
from .core.errors import BoardError
from .core.game import Option
from .core.results import SOLVED, UNSOLVABLE, Budget, Progress
from .engine import ALGORITHM_NAMES, solve_board

if TYPE_CHECKING:
    from .payloads import SolveReport

EXIT_SOLVED, EXIT_UNSOLVABLE, EXIT_BAD_INPUT, EXIT_GAVE_UP = 0, 1, 2, 3


class UsageError(Exception):
    """Bad command-line usage; reported in one line like a bad board."""


class _Parser(argparse.ArgumentParser):
    """argparse prints usage and exits on error; we want one line and exit code 2."""

    def error(self, message: str) -> NoReturn:  # argparse's hook
        raise UsageError(message)

    def _get_formatter(self) -> argparse.HelpFormatter:  # argparse's hook
        """The help formatter at the terminal's width, found without :mod:`shutil`:
        argparse makes a formatter for every flag it adds, and the default one imports
        shutil (with bz2, lzma and zlib) for the width, 2 ms of a one-shot call."""
        return argparse.HelpFormatter(prog=self.prog, width=_columns() - 2)


def _columns() -> int:
    """:func:`shutil.get_terminal_size`'s columns: ``COLUMNS``, else the terminal's, else 80."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]  # None: caught below
    except (AttributeError, ValueError, OSError):
        return 80


def seconds(text: str) -> float:
    """A positive, finite number of seconds (``nan``/``inf`` would switch a limit off)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text[:20]!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive, finite number, not {text[:20]}")
    return value


PUZZLE_COMMANDS = ("solve", "hardest")


def _declared_options(scope: Sequence[str] | None = None) -> dict[str, list[Option]]:
    """The options of the games in ``scope`` (every game when None) by name: a name
    several games share becomes one flag."""
    games = [catalogue.get(name) for name in scope] if scope else catalogue.games().values()
    flags: dict[str, list[Option]] = {}
    for game in games:
        for option in game.options:
            flags.setdefault(option.name, []).append(option)
    return flags


def _add_option_flag(parser: argparse.ArgumentParser, name: str, options: list[Option]) -> None:
    """``--name`` typed and limited as declared, its help joined over the games that use it."""
    kwargs: dict[str, Any] = {"help": "; ".join(option.help for option in options)}
    if all(option.kind is int for option in options):
        kwargs["type"] = int
    if all(option.choices for option in options):
        kwargs["choices"] = list(
            dict.fromkeys(c for option in options for c in option.choices or ())
        )
    parser.add_argument(f"--{name}", **kwargs)


def _joined(names: list[str], last: str = "or") -> str:
    """``a, b or c`` (or ``a, b and c``)"""
    return f" {last} ".join(filter(None, (", ".join(names[:-1]), names[-1])))


def bench_modules() -> dict[str, ModuleType]:
    """Each game's ``bench`` module (its rows of ``python -m solver bench``), found the way
    the games are: ``solver/<game>/bench.py``."""
    found = {}
    for name in catalogue.names():
        try:
            found[name] = importlib.import_module(f"{catalogue.__package__}.{name}.bench")
        except ModuleNotFoundError as err:  # a game without bench rows
            if err.name != f"{catalogue.__package__}.{name}.bench":
                raise
    return found


def _scope(argv: Sequence[str]) -> list[str] | None:
    """The one game a ``solve``/``hardest`` call is about, when its name comes first
    after the command; else None (every game's flags, and argparse's own messages)."""
    words = [word for word in argv if not word.startswith("-")]
    if len(words) >= 2 and words[0] in PUZZLE_COMMANDS and words[1] in catalogue.names():
        return [words[1]]
    return None


COMMANDS = ("solve", "hardest", "tables", "bench")


def build_parser(
    scope: Sequence[str] | None = None, bench: bool = True, command: str | None = None
) -> argparse.ArgumentParser:
    """The command line; ``scope`` names the games whose option flags ``solve`` and
    ``hardest`` take (every game when None), ``bench`` False leaves out the flags of the
    games' bench modules (no bench code is imported then), ``command`` names the one
    subcommand to build (None: all of them, for the help and usage messages)."""
    names = list(catalogue.names())
    parser = _Parser(
        prog="python -m solver",
        description=f"Optimal solver for the puzzles {_joined(names, 'and')}.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    if command in (None, "solve"):
        _add_solve(sub, names, scope)
    if command in (None, "hardest"):
        _add_hardest(sub, names, scope)
    if command in (None, "tables"):
        _add_tables(sub)
    if command in (None, "bench"):
        _add_bench(sub, names, bench)
    return parser


def _add_solve(sub: Any, names: list[str], scope: Sequence[str] | None) -> None:
    solve = sub.add_parser("solve", help="solve one board")
    solve.add_argument("puzzle", help=_joined(names))
    solve.add_argument("board", help="the board in the puzzle's notation (see docs/notation.rst)")
    for name, options in _declared_options(scope).items():
        _add_option_flag(solve, name, options)
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.add_argument("--seconds", type=seconds, help="give up after this many seconds")
    solve.add_argument("--nodes", type=int, help="give up after this many positions")
    solve.add_argument(
        "--algorithm",
        choices=list(ALGORITHM_NAMES),
        help="search with this algorithm over the rules, or with an original's own solver"
        " (seed-*) (default: the game's best: its tables and compiled searches)",
    )
    solve.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="report search progress on stderr (default: when it is a terminal)",
    )


def _add_hardest(sub: Any, names: list[str], scope: Sequence[str] | None) -> None:
    hardest = sub.add_parser(
        "hardest",
        help="the position of a layout's group farthest "
        "from solved (or over every placement of its pieces), proven",
    )
    hardest.add_argument("puzzle", help=_joined(names))
    hardest.add_argument("board", help="the layout in the puzzle's notation")
    for name, options in _declared_options(scope).items():
        _add_option_flag(hardest, name, options)
    hardest.add_argument(
        "--placements",
        action="store_true",
        help="search every placement of the layout's pieces, group by group",
    )
    hardest.add_argument("--json", action="store_true", help="print one JSON object")
    hardest.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="report progress on stderr (default: on)",
    )


def _add_tables(sub: Any) -> None:
    tables = sub.add_parser(
        "tables",
        help="list the tables each game builds once per machine; 'build' makes the missing "
        "ones (the 15-puzzle's 7-8 databases only so), 'clean' deletes stale files",
    )
    tables.add_argument("action", nargs="?", default="list", choices=("list", "build", "clean"))
    tables.add_argument("names", nargs="*", metavar="NAME", help="only these tables")


def _add_bench(sub: Any, names: list[str], bench: bool) -> None:
    bench_parser = sub.add_parser("bench", help="compare the solver with a plain BFS baseline")
    bench_parser.add_argument(
        "--quick", action="store_true", help="a smaller, faster set of boards"
    )
    bench_parser.add_argument("--only", choices=names, help="bench one puzzle only")
    bench_parser.add_argument(
        "--baseline-seconds",
        type=seconds,
        default=120.0,
        help="stop a baseline run after this long (reported as gave up)",
    )
    bench_parser.add_argument(
        "--memory",
        action="store_true",
        help="start the production server, warm every game's tables, and sum its memory",
    )
    if bench:
        for module in bench_modules().values():
            if hasattr(module, "arguments"):
                module.arguments(bench_parser)


def _print_progress(p: Progress) -> None:
    tail = ""
    if p.best is not None:
        tail = f"  best {p.best} moves, at least {p.lower_bound}"
    print(
        f"\r{p.nodes:>12,} positions  depth {p.depth:>4}  open {p.frontier:>10,}  "
        f"{p.elapsed:7.1f} s{tail}",
        end="",
        file=sys.stderr,
        flush=True,
    )


class _StderrProgress:
    """Progress on stderr: a table build always (one line per stage: it is a one-time wait
    the user should hear about), the search itself only when asked."""

    def __init__(self, show_search: bool):
        self.show_search = show_search
        self.stage = ""
        self.dirty = False

    def __call__(self, p: Progress) -> None:
        if p.stage:
            if p.stage != self.stage:
                self.finish()
                self.stage = p.stage
                print(f"{p.stage}...", file=sys.stderr, flush=True)
            return
        if self.stage:
            print("tables ready", file=sys.stderr, flush=True)
            self.stage = ""
        if self.show_search:
            _print_progress(p)
            self.dirty = True

    def finish(self) -> None:
        if self.dirty:
            print(file=sys.stderr)
            self.dirty = False


def run_solve(args: argparse.Namespace) -> int:
    if args.nodes is not None and args.nodes <= 0:
        raise UsageError("--nodes must be positive")
    budget = Budget(max_nodes=args.nodes, max_seconds=args.seconds)
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    progress = _StderrProgress(show)
    options = {name: getattr(args, name, None) for name in _declared_options([args.puzzle])}
    report = solve_board(
        args.puzzle,
        args.board,
        budget=budget,
        progress=progress,
        algorithm=args.algorithm,
        **options,
    )
    progress.finish()
    if args.json:
        import json  # only for --json: a few ms of start-up otherwise

        print(
            json.dumps(
                {
                    k: report[k]
                    for k in (
                        "puzzle",
                        "board",
                        "solvable",
                        "optimal",
                        "length",
                        "lower_bound",
                        "moves",
                        "states",
                        "stats",
                        "status",
                        "message",
                    )
                },
                ensure_ascii=False,
            )
        )
    else:
        _print_human(report)
    if report["status"] == SOLVED:
        return EXIT_SOLVED
    if report["status"] == UNSOLVABLE:
        return EXIT_UNSOLVABLE
    if not args.json:
        print(report["message"] or "gave up", file=sys.stderr)
    return EXIT_GAVE_UP


def run_hardest(args: argparse.Namespace) -> int:
    """Exit 0 with the hardest start found, 1 when no position of the group is solved."""
    game = catalogue.get(args.puzzle)
    options = game.check_options(
        {name: getattr(args, name, None) for name in _declared_options([args.puzzle])}
    )
    game.check_size(args.board)
    report = (lambda line: print(line, file=sys.stderr, flush=True)) if args.progress else None
    found = game.hardest(args.board, options, args.placements, report)
    if args.json:
        import json

        print(json.dumps(found, ensure_ascii=False))
    else:
        _print_hardest(found)
    best = found.get("hardest")
    return EXIT_SOLVED if best and best["distance"] is not None else EXIT_UNSOLVABLE


def _print_hardest(found: dict) -> None:
    # "piece moves" where a game has several metrics, plain "moves" where it has one
    moves = " ".join(filter(None, (found.get("metric", ""), "moves")))
    own = found["distance"]
    print(
        f"{found['board']}: {'unsolvable' if own is None else f'{own} {moves}'}; "
        f"its group has {found['positions']:,} positions"
    )
    group = found["group_hardest"]
    if group["distance"] is not None:
        print(
            f"hardest start of its group: {group['board']} needs {group['distance']} "
            f"{moves} ({group['ties']} position(s) that far; proven by breadth-first "
            "search from every solved position)"
        )
    if "placements" in found:
        print(
            f"every placement of its pieces: {found['placements']:,} placements in "
            f"{found['groups']:,} groups, {found['solvable_groups']:,} solvable"
        )
        for rank, h in enumerate(found["top"], 1):
            print(
                f"{rank:4}. {h['board']}  {h['distance']} moves  (group of {h['positions']:,}, "
                f"{h['ties']} tie(s))"
            )
    best = found.get("hardest")
    if best and best["distance"] is not None and found["beats_by"] is not None:
        print(
            f"hardest start: {best['board']} needs {best['distance']} {moves}, "
            f"{found['beats_by']} more than this layout's {own}"
        )


def _print_human(report: SolveReport) -> None:
    stats = report["stats"]
    tail = f"({stats['nodes']:,} positions, {stats['seconds']:.3f} s)"
    if report["status"] == SOLVED:
        kind = "optimal" if report["optimal"] else "not proven optimal"
        if not report["optimal"] and report["lower_bound"] is not None:
            kind += f", at least {report['lower_bound']}"
        print(f"solved in {report['length']} moves, {kind} {tail}")
        for i, move in enumerate(report["moves"], 1):
            print(f"{i:4}. {move}")
    elif report["status"] == UNSOLVABLE:
        print(f"unsolvable: {report['message'] or 'no position reachable is solved'} {tail}")


def run_bench(args: argparse.Namespace) -> int:
    """Every game's rows (or ``--only`` one game's), or the run a game's own flag asks for
    (``--fifteen`` replaces the usual rows: a bench module's ``alone(args)``)."""
    from .bench import print_header  # the measuring kit, only for this command

    if args.memory:
        from .bench_memory import bench_memory  # starts the web app as a separate process

        return bench_memory(args)
    modules = bench_modules()
    for module in modules.values():
        code = module.alone(args) if hasattr(module, "alone") else None
        if code is not None:
            return code
    started = time.perf_counter()
    print_header()
    for name in catalogue.games():
        if args.only in (None, name) and name in modules:
            modules[name].rows(args)
    print(f"bench finished in {time.perf_counter() - started:.1f} s")
    return 0


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """Parse ``argv``, importing no more games than it is about. An option of another
    game is one clear line, as it is when every game's flags are known."""
    scope = _scope(argv)
    # a call naming its command first builds that command's parser alone (a one-shot
    # call pays for no other flags); anything else builds them all, for argparse's messages
    command = argv[0] if argv and argv[0] in COMMANDS else None
    parser = build_parser(scope, bench=command == "bench", command=command)
    args, extra = parser.parse_known_args(argv)
    if extra:
        flags = [word for word in extra if word.startswith("--")]
        if scope and flags:
            raise UsageError(f"{flags[0].split('=')[0]} does not apply to {scope[0]}")
        raise UsageError(f"unrecognized arguments: {' '.join(extra)[:100]}")
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        # no command at all: what the commands are, not only that one is missing
        print(build_parser().format_help(), end="", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        args = parse(argv)
        if args.command == "solve":
            return run_solve(args)
        if args.command == "hardest":
            return run_hardest(args)
        if args.command == "tables":
            from .tables_cli import run_tables

            return run_tables(args.action, args.names)
        return run_bench(args)
    except (BoardError, UsageError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (``| head``): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
