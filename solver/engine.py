"""One-call entry points shared by the CLI and the web app.

``solve_board`` and ``analyse_board`` take a puzzle name, board text and options,
pick the puzzle's own strategy (tables, heuristics) and return plain JSON-ready
dicts in the shape of the CLI's ``--json`` and the Socket.IO
``solution``/``analysis`` events.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from . import catalogue
from .core.domain import Analysis, Domain, QuickAnalyser
from .core.errors import BoardError
from .core.results import BUDGET, SOLVED, UNSOLVABLE, Budget, Cancel, SearchResult
from .core.search import ALGORITHMS, OnProgress, unfit_algorithm
from .core.text import N_
from .originals import ORIGINAL_SEARCHES, original_model, original_solve

if TYPE_CHECKING:  # the payloads' shapes; rating moves imports the coach when asked
    from .payloads import AnalysisPayload, MoveInfo, RatedMove, SolveReport

MAX_BOARD_CHARS = 2000

#: every algorithm by name: ours over the rules, then the originals' own as baselines
ALGORITHM_NAMES: tuple[str, ...] = (*ALGORITHMS, *ORIGINAL_SEARCHES)


def unfit(puzzle: str, name: str, **options: Any) -> str | None:
    """Why algorithm ``name`` cannot search ``puzzle`` with ``options`` (None when it
    can): an unknown name, a backward search over moves that cannot be undone, a
    seed that wrote no solver for this game."""
    if name in ORIGINAL_SEARCHES:
        game = catalogue.get(puzzle)
        if name not in game.original_searches_for(game.check_options(options)):
            return f"the seeds have no {name} for {puzzle}"
        return None
    if name not in ALGORITHMS:
        return f"unknown algorithm {name!r}; choose one of {', '.join(ALGORITHM_NAMES)}"
    return unfit_algorithm(make_domain(puzzle, **options), name)


def make_domain(puzzle: str, **options: Any) -> Domain[Any, Any]:
    """Build the domain for ``puzzle`` with ``options`` (``None`` values are ignored).

    The game's declaration checks the options, so every front end refuses a bad
    value with the same message.
    """
    game = catalogue.get(puzzle)
    return game.make_domain(**game.check_options(options))


def parse_board(puzzle: str, board: Any, **options: Any) -> tuple[Domain[Any, Any], Any]:
    """Return (domain, state) for ``board``; raises :class:`BoardError` on bad input."""
    if not isinstance(board, str):
        raise BoardError(N_("board must be text"))
    if len(board) > MAX_BOARD_CHARS:
        raise BoardError(
            N_("board is %(length)s characters long; the limit is %(most)s"),
            length=len(board),
            most=MAX_BOARD_CHARS,
        )
    domain = make_domain(puzzle, **options)
    return domain, domain.parse(board)


def solve_board(
    puzzle: str,
    board: str,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: OnProgress | None = None,
    algorithm: str | None = None,
    **options: Any,
) -> SolveReport:
    """Solve ``board`` and describe the outcome as a JSON-ready dict.

    ``algorithm`` names one of :data:`ALGORITHM_NAMES`: ours (``bfs``, ``dfs``,
    ``bidirectional``, ``astar``, ``idastar``) run over the game's rules and
    heuristic, or an original's own (``seed-bfs``, ``seed-bidirectional``, ``seed-astar``:
    :mod:`solver.originals`); None (the default) is the game's own best strategy (its
    tables and compiled searches). A name that cannot search the game raises
    :class:`BoardError`.

    Keys: puzzle, board, status, solvable (True/False/None), optimal, length,
    lower_bound (proven: no solution is shorter; None when unknown), moves
    (text), move_details (dicts for the page), states (board texts), stats
    {nodes, seconds}, message.
    """
    domain, state = parse_board(puzzle, board, **options)
    canonical_board = domain.format(state)
    search: Callable[..., SearchResult[Any, Any]] = domain.solve
    if algorithm is not None:
        problem = unfit(puzzle, algorithm, **options)
        if problem:
            raise BoardError(problem)
        if algorithm in ORIGINAL_SEARCHES:
            game = catalogue.get(puzzle)
            model = original_model(puzzle, canonical_board, game.check_options(options))
            search = functools.partial(original_solve, domain, model=model, name=algorithm)
        else:
            search = functools.partial(ALGORITHMS[algorithm], domain)

    report: SolveReport = {
        "puzzle": puzzle,
        "board": canonical_board,
        "status": None,
        "solvable": None,
        "optimal": False,
        "length": None,
        "lower_bound": None,
        "moves": [],
        "move_details": [],
        "states": [],
        "stats": {"nodes": 0, "seconds": 0.0},
        "message": "",
    }
    if domain.quick_solvable(state) is False:
        report.update(
            {
                "status": UNSOLVABLE,
                "solvable": False,
                "optimal": True,
                "message": f"unsolvable ({domain.quick_test})",
            }
        )
        return report
    result = search(state, budget=budget, cancel=cancel, progress=progress)
    report["status"] = result.status
    report["message"] = result.message
    report["stats"] = {"nodes": result.nodes, "seconds": round(result.seconds, 4)}
    if result.stored is not None and result.memory is not None:
        report["stats"]["stored"], report["stats"]["memory"] = result.stored, result.memory
    if result.status == SOLVED:
        bound = result.lower_bound
        if result.optimal:
            bound = result.length
        report.update(
            {
                "solvable": True,
                "optimal": result.optimal,
                "length": result.length,
                "lower_bound": bound,
                "moves": [domain.describe(m) for m in result.moves],
                "move_details": [domain.move_info(m) for m in result.moves],
                "states": [domain.format(s) for s in result.states],
            }
        )
    elif result.status == UNSOLVABLE:
        report.update({"solvable": False, "optimal": True})
    elif result.status == BUDGET:
        # what is known of a board the budget could not solve: no solution is shorter
        known: Analysis[Any, Any] = Analysis(None, None, False, lower_bound=result.lower_bound)
        report["lower_bound"] = _lower_bound(domain, state, known)
    return report


def analyse_board(
    puzzle: str,
    board: str,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: OnProgress | None = None,
    rate: bool = True,
    **options: Any,
) -> AnalysisPayload:
    """Distance to solved, best move and every move rated, as the ``analysis`` payload.

    ``rate`` False rates the moves only from what is known without a search
    (the editor's check asks for the distance alone).
    """
    started = time.monotonic()
    domain, state = parse_board(puzzle, board, **options)
    analysis = domain.analyse(state, budget=budget, cancel=cancel, progress=progress)
    return _analysis_payload(
        domain,
        state,
        analysis,
        final=True,
        cancel=cancel,
        rating=_remaining(budget, started) if rate else None,
    )


def analyse_stages(
    puzzle: str,
    board: str,
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    progress: OnProgress | None = None,
    **options: Any,
) -> Iterator[AnalysisPayload]:
    """Yield the ``analysis`` payloads for ``board``: an interim one, then the final one.

    A domain whose proven answer can take a while (the 15-puzzle) offers
    ``quick_analyse(state)`` (a :class:`~solver.core.domain.QuickAnalyser`): a hint
    within a second, maybe not shortest. The caller sends it at once, so the player
    is never left waiting, then sends the proven answer when it comes. Payloads carry
    ``final`` (False on the interim). Domains that answer by lookup yield one final
    payload.

    Every payload carries ``moves_rated``, each legal move rated
    (:func:`solver.core.coach.rate_moves`): the final one within what is left of
    ``budget`` (``moves_rated_complete`` False if it ran out), the interim one from
    what is known without a search.
    """
    started = time.monotonic()
    domain, state = parse_board(puzzle, board, **options)
    quick = domain if isinstance(domain, QuickAnalyser) else None
    if quick is not None:
        interim = quick.quick_analyse(state, cancel=cancel)
        if interim is not None:
            final = interim.optimal or interim.solvable is False
            yield _analysis_payload(
                domain,
                state,
                interim,
                final=interim.optimal,
                rating=_remaining(budget, started) if final else None,
                cancel=cancel,
            )
            if final:
                return
    analysis = domain.analyse(state, budget=budget, cancel=cancel, progress=progress)
    yield _analysis_payload(
        domain, state, analysis, final=True, rating=_remaining(budget, started), cancel=cancel
    )


def _remaining(budget: Budget | None, started: float) -> Budget:
    """What is left of ``budget`` since ``started``, for rating the moves."""
    if budget is None or budget.max_seconds is None:
        return Budget(budget.max_nodes if budget else None, None)
    return Budget(budget.max_nodes, max(budget.max_seconds - (time.monotonic() - started), 0.0))


def moves_rated_payload(
    domain: Domain[Any, Any],
    state: Any,
    analysis: Analysis[Any, Any],
    *,
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    search: bool = True,
) -> tuple[list[RatedMove], bool]:
    """(``moves_rated`` entries, complete) for ``state``: every legal move, best first."""
    from .core.coach import rate_moves  # analyses rate moves; a plain solve never does

    rated, complete = rate_moves(
        domain, state, analysis, budget=budget, cancel=cancel, search=search
    )
    return [
        {
            "move": _move_payload(domain, r.move),
            "board": domain.format(r.state),
            "distance": r.distance,
            "solvable": r.solvable,
            "optimal": r.optimal,
            "verdict": r.verdict,
        }
        for r in rated
    ], complete


def _move_payload(domain: Domain[Any, Any], move: Any) -> MoveInfo:
    info = domain.move_info(move)
    info["text"] = domain.describe(move)
    return info


def _lower_bound(domain: Domain, state: Any, analysis: Analysis) -> int | None:
    """Proven fewest moves left: the distance when proven, else the search's bound or
    the admissible heuristic (the page says "at least N%" from it)."""
    if analysis.solvable is False:
        return None
    if analysis.optimal and analysis.distance is not None:
        return analysis.distance
    bounds = [analysis.lower_bound or 0]
    if domain.heuristic_admissible:
        bounds.append(domain.heuristic(state))
    return max(bounds)


def _analysis_payload(
    domain: Domain[Any, Any],
    state: Any,
    analysis: Analysis[Any, Any],
    final: bool,
    rating: Budget | None = None,
    cancel: Cancel | None = None,
) -> AnalysisPayload:
    """The payload; ``rating`` is the budget for rating the moves (None: no search)."""
    best = _move_payload(domain, analysis.best_move) if analysis.best_move is not None else None
    rated, complete = moves_rated_payload(
        domain, state, analysis, budget=rating, cancel=cancel, search=rating is not None
    )
    payload: AnalysisPayload = {
        "board": domain.format(state),
        "solved": domain.is_goal(state),
        "solvable": analysis.solvable,
        "distance": analysis.distance,
        "optimal": analysis.optimal,
        "best_move": best,
        "next_board": domain.format(analysis.next_state)
        if analysis.next_state is not None
        else None,
        "message": analysis.message,
        "lower_bound": _lower_bound(domain, state, analysis),
        "final": final,
        "moves_rated": rated,
        "moves_rated_complete": complete,
    }
    if analysis.nodes is not None:
        payload["nodes"] = analysis.nodes
    return payload


def warm_judging() -> int:
    """Judge one move of each game's smallest generated puzzle (the ladder's, else a
    race's) in this process, so the kernels and tables a judged move needs are loaded
    before a streak, storm or race move waits on them (a small Klotski board's first
    judgement loads its kernels: up to a second). Returns how many games were warmed;
    one game's failure is logged and the rest go on."""
    import logging  # a server's concern: a one-shot CLI call never imports it

    from .core.judge import judge_move

    done = 0
    for game in catalogue.games().values():
        try:
            if game.ladder_lengths is not None:
                params = game.ladder_params(game.ladder_lengths[0])
            elif game.race_lengths is not None:
                params = game.race_params(game.race_lengths[0])
            else:
                continue
            made = game.generate(params, 0, False)
            domain = make_domain(game.name, **made["options"])
            _, after = next(iter(domain.legal_moves(domain.parse(made["board"]))))
            judge_move(domain, made["board"], domain.format(after))
            done += 1
        except Exception:  # warming is only a speed-up: the first move pays instead
            logging.getLogger(__name__).exception("could not warm the judging of %s", game.name)
    return done
