"""The shape of the code: no import cycles, a core that knows no game, games declared fully.

The import graph is read from the source with :mod:`ast`, so an import inside a
function counts (it is still a dependency, only a late one); imports under
``if TYPE_CHECKING:`` do not, since they never run.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from solver import catalogue
from solver.core.results import Budget
from solver.engine import parse_board, solve_board

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "webapp", "loadtest", "harness")


def module_name(path: Path) -> str:
    """``solver/core/search.py`` -> ``solver.core.search``; a package is its ``__init__``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_files() -> dict[str, Path]:
    """Every module of the project's packages by dotted name."""
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST):
    """Every Import/ImportFrom node, skipping ``if TYPE_CHECKING:`` blocks."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield from _imports_in(child)
            continue
        yield from _imports_in(node)


def _imports_in(node: ast.AST):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    else:
        yield from _imports(node)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from`` import names (relative ones resolved)."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(files: dict[str, Path]) -> dict[str, set[str]]:
    """module -> the project modules it imports (``from a import b``: a, and a.b if a module)."""
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                target = _resolve(module, is_package, node)
                names = [target] + [f"{target}.{alias.name}" for alias in node.names]
            edges.update(name for name in names if name in files)
        edges.discard(module)
        graph[module] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


# -- the cycle finder itself ---------------------------------------------------------


def test_cycle_finder_finds_a_cycle_and_passes_a_tree():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"a.b"}, "a.b": {"a"}}) == ["a", "a.b", "a"]


def test_graph_reads_function_level_imports_and_skips_type_checking(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "one.py").write_text("def f():\n    from . import two\n")
    (package / "two.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .one import f\n"
        "from .three import g\n"
    )
    (package / "three.py").write_text("import pkg.one\n")
    files = {
        "pkg": package / "__init__.py",
        "pkg.one": package / "one.py",
        "pkg.two": package / "two.py",
        "pkg.three": package / "three.py",
    }
    graph = import_graph(files)
    assert graph["pkg.one"] == {"pkg", "pkg.two"}
    assert graph["pkg.two"] == {"pkg.three"}
    assert graph["pkg.three"] == {"pkg.one"}
    assert find_cycle(graph) == ["pkg.one", "pkg.two", "pkg.three", "pkg.one"]


def test_relative_imports_of_a_package_resolve_inside_it(tmp_path):
    init = tmp_path / "__init__.py"
    init.write_text("from .domain import Thing\nfrom ..core import errors\nimport flask\n")
    assert _imported_names(init, "solver.game") == {
        "solver.game.domain",
        "solver.game.domain.Thing",
        "solver.core",
        "solver.core.errors",
        "flask",
    }


# -- the project ------------------------------------------------------------------------


def test_no_import_cycles_among_solver_and_webapp():
    cycle = find_cycle(import_graph(module_files()))
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def _imported_names(path: Path, module: str | None = None) -> set[str]:
    """Every name ``path`` imports, project or not (``from a import b``: a and a.b)."""
    names = set()
    module = module or module_name(path)
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        else:
            target = _resolve(module, path.name == "__init__.py", node)
            names.add(target)
            names.update(f"{target}.{alias.name}" for alias in node.names)
    return names


def test_core_imports_no_game_and_no_web_code():
    games = {game_module for game_module in _game_packages()}
    for path in sorted((ROOT / "solver" / "core").rglob("*.py")):
        for name in _imported_names(path):
            assert not any(name == g or name.startswith(g + ".") for g in games), (
                f"{path.name} imports the game {name}"
            )
            assert not name.startswith(("webapp", "flask")), f"{path.name} imports {name}"


def test_solver_never_imports_the_web_side():
    for path in sorted((ROOT / "solver").rglob("*.py")):
        for name in _imported_names(path):
            root = name.split(".")[0]
            assert root not in ("webapp", "flask", "flask_socketio"), (
                f"{path.relative_to(ROOT)} imports {name}"
            )


def _game_packages() -> list[str]:
    return [game.__module__.rpartition(".")[0] for game in catalogue.games().values()]


def test_the_known_games_are_found():
    assert {"klotski", "npuzzle", "watersort"} <= set(catalogue.games())
    assert all(module.startswith("solver.") for module in _game_packages())


@pytest.mark.parametrize("name", list(catalogue.games()))
def test_every_game_is_declared_and_its_default_board_solves(name):
    game = catalogue.get(name)
    assert game.name == name and game.title and game.default_board
    defaults = {option.name: option.default for option in game.options}
    domain, state = parse_board(name, game.default_board, **defaults)
    assert domain.format(state) == game.default_board
    report = solve_board(name, game.default_board, budget=Budget(max_seconds=20), **defaults)
    assert report["status"] == "solved" and report["length"] > 0


def test_a_game_declaration_holds_no_bench_code():
    """Bench rows live in ``solver/<game>/bench.py``, which only ``python -m solver bench``
    loads: no declaration, and no module a game imports, reaches bench or baseline code."""
    from solver.core.game import Game

    assert not any(hasattr(Game, hook) for hook in ("bench", "bench_arguments", "bench_alone"))
    files = module_files()
    graph = import_graph(files)
    for package in _game_packages():
        seen, todo = set(), [package, f"{package}.game"]
        while todo:
            module = todo.pop()
            if module not in seen:
                seen.add(module)
                todo.extend(graph.get(module, ()))
        reached = sorted(m for m in seen if m.rsplit(".", 1)[-1] in ("bench", "baseline"))
        assert reached == [], f"{package} reaches {reached}"


@pytest.mark.parametrize("name", list(catalogue.games()))
def test_every_game_package_has_the_same_roles(name):
    """The same file names for the same roles: ``game.py`` the declaration, ``domain.py``
    the search problem, ``bench.py`` the bench rows; ``levels.py`` only for player packs."""
    folder = ROOT / "solver" / name
    for role in ("game.py", "domain.py", "bench.py"):
        assert (folder / role).is_file(), f"solver/{name} has no {role}"
    if (folder / "levels.py").is_file():
        assert catalogue.get(name).levels(), f"solver/{name}/levels.py holds no player levels"


# -- the web app ----------------------------------------------------------------------------

#: the job core's modules: the rules, the model, the fair queue, escalation
JOB_CORE = (
    "webapp.jobs.core",
    "webapp.jobs.model",
    "webapp.jobs.fairness",
    "webapp.jobs.escalation",
)
#: the two back ends (and what runs inside their workers)
BACK_ENDS = (
    "webapp.jobs.pool",
    "webapp.jobs.process",
    "webapp.jobs.cluster",
    "webapp.jobs.cluster_job",
    "webapp.jobs.cluster_worker",
)


def test_webapp_keeps_at_most_a_dozen_modules_at_its_top():
    top = sorted(path.name for path in (ROOT / "webapp").glob("*.py"))
    assert len(top) <= 12, top
    packages = sorted(p.name for p in (ROOT / "webapp").iterdir() if (p / "__init__.py").exists())
    assert {"http", "live", "guard", "jobs", "serve"} <= set(packages)


def test_the_job_core_imports_neither_back_end():
    files = module_files()
    graph = import_graph(files)
    for module in JOB_CORE:
        reached, todo = set(), [module]
        while todo:  # everything the module needs, directly or not
            for name in graph[todo.pop()]:
                if name not in reached:
                    reached.add(name)
                    todo.append(name)
        assert not reached & set(BACK_ENDS), f"{module} reaches {sorted(reached & set(BACK_ENDS))}"
        outside = {name.split(".")[0] for name in _imported_names(files[module])}
        assert not outside & {"rq", "redis", "multiprocessing"}, f"{module} imports {outside}"


def test_load_tools_live_outside_the_app_package():
    for path in sorted((ROOT / "webapp").rglob("*.py")):
        roots = {name.split(".")[0] for name in _imported_names(path)}
        assert not roots & {"loadtest", "aiohttp"}, f"{path.relative_to(ROOT)} imports {roots}"
    assert not list((ROOT / "webapp").rglob("*load*.py")) and not list(
        (ROOT / "webapp").rglob("flood*.py")
    )


#: the tests of the load tool's own scenarios: the only test modules that import it
LOAD_SCENARIO_TESTS = (
    "test_attacks.py",
    "test_capacity.py",
    "test_capacity_full.py",
    "test_cluster.py",
    "test_crowd.py",
    "test_load.py",
    "test_load_results.py",
)


def test_the_tests_start_servers_through_the_harness_not_the_load_tool():
    """What both start (ports, a server, a cluster) lives in ``harness/``: conftest,
    the helpers and every test but those of the load tool's scenarios import no
    ``loadtest``; the harness imports neither the load tool nor the tests, and the
    packages the wheel ships import no harness."""
    tests = ROOT / "tests"
    leaning = [
        str(path.relative_to(ROOT))
        for path in sorted([*tests.glob("*.py"), *(tests / "helpers").glob("*.py")])
        if path.name not in LOAD_SCENARIO_TESTS
        and any(name.split(".")[0] == "loadtest" for name in _imported_names(path, "tests.x"))
    ]
    assert leaning == []
    for path in sorted((ROOT / "harness").glob("*.py")):
        roots = {name.split(".")[0] for name in _imported_names(path)}
        assert not roots & {"loadtest", "tests", "helpers"}, f"{path.name} imports {roots}"
    for package in ("solver", "webapp"):
        for path in sorted((ROOT / package).rglob("*.py")):
            roots = {name.split(".")[0] for name in _imported_names(path)}
            assert "harness" not in roots, f"{path.relative_to(ROOT)} imports the harness"


def test_tests_share_code_through_helpers_never_through_each_other():
    """A test module imports no other test module: shared code (page drivers, socket
    clients, each game's reference rules) lives in ``tests/helpers``, which imports
    no test module either."""
    tests = ROOT / "tests"
    test_modules = {path.stem for path in tests.glob("test_*.py")}
    assert len(test_modules) > 20
    crossing = []
    for path in sorted([*tests.glob("*.py"), *(tests / "helpers").glob("*.py")]):
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            crossing += [
                f"{path.relative_to(ROOT)}: {name}"
                for name in names
                if name.split(".")[-1] in test_modules or name.startswith("tests.")
            ]
    assert crossing == []


@pytest.mark.parametrize("name", list(catalogue.games()))
def test_each_game_has_one_reference_rule_set_for_the_tests(name):
    """The tests check the solver against each game's rules written out once, in
    ``tests/helpers/<game>.py``, which shares no code with ``solver/``."""
    path = ROOT / "tests" / "helpers" / f"{name}.py"
    assert path.is_file(), f"no reference rules for {name}"
    imported = {
        alias.name if isinstance(node, ast.Import) else node.module or ""
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")))
        for alias in node.names
    }
    # only a result checker may name the solver's result type; never its rules
    assert not [m for m in imported if m.startswith("solver") and m != "solver.core.results"]


#: the web framework's packages: only the HTTP and socket layers (and the app) import them
WEB = ("flask", "flask_socketio", "werkzeug")

#: arrows that run one way inside the web app: (package, packages it must never import,
#: the project's or a third party's). jobs shape their own replies and never reach the
#: sockets, the races or the server; players (the domain: its routes are in
#: webapp.http.players) import no web framework and, like levels, never reach the
#: pages; storage reads nothing from serving; live and races never import each other
#: (the app factory registers both), and races ask the job core, never a back end; the
#: cluster's transport (the Redis client, the message queue) is the lowest of all;
#: nothing but the app factory and the server reaches serve/
WEB_PARTS = (
    "webapp.http",
    "webapp.live",
    "webapp.races",
    "webapp.jobs",
    "webapp.players",
    "webapp.levels",
    "webapp.storage",
    "webapp.guard",
    "webapp.serve",
)
ONE_WAY = (
    (
        "webapp.jobs",
        ("webapp.live", "webapp.races", "webapp.serve", "webapp.http", "webapp.players"),
    ),
    ("webapp.players", ("webapp.http", "webapp.live", "webapp.serve", *WEB)),
    ("webapp.levels", ("webapp.http", "webapp.live", "webapp.players")),
    (
        "webapp.storage",
        (
            "webapp.http",
            "webapp.live",
            "webapp.jobs",
            "webapp.players",
            "webapp.races",
            "webapp.serve",
        ),
    ),
    ("webapp.live", ("webapp.races", "webapp.http", "webapp.serve")),
    ("webapp.races", ("webapp.live", "webapp.http", "webapp.serve", *BACK_ENDS)),
    ("webapp.transport", WEB_PARTS),
)


def _arrows_against(rules, files: dict[str, Path]) -> list[str]:
    """Every ``module -> import`` that breaks one of ``rules`` (a list of messages)."""
    broken = []
    for package, forbidden in rules:
        for module, path in files.items():
            if module != package and not module.startswith(package + "."):
                continue
            for name in sorted(_imported_names(path, module)):
                if any(name == f or name.startswith(f + ".") for f in forbidden):
                    broken.append(f"{module} imports {name}")
    return broken


def test_arrows_run_one_way():
    assert _arrows_against(ONE_WAY, module_files()) == []


def test_the_players_domain_reaches_no_web_framework():
    """Nor through another module: everything ``webapp.players`` imports, directly or
    not, imports no Flask, Flask-SocketIO or Werkzeug (its routes are webapp.http's)."""
    files = module_files()
    graph = import_graph(files)
    todo = [module for module in files if module.startswith("webapp.players")]
    reached = set(todo)
    while todo:
        for name in graph[todo.pop()]:
            if name not in reached:
                reached.add(name)
                todo.append(name)
    web = sorted(
        f"{module} imports {name}"
        for module in reached
        for name in _imported_names(files[module], module)
        if name.split(".")[0] in WEB
    )
    assert web == []


def test_the_one_way_rule_catches_a_backward_arrow(tmp_path):
    """The rule reads relative imports: a jobs module importing ``..live`` is caught."""
    path = tmp_path / "core.py"
    path.write_text("from ..live.replies import error_payload\nfrom .model import Job\n")
    assert _arrows_against(ONE_WAY, {"webapp.jobs.core": path}) == [
        "webapp.jobs.core imports webapp.live.replies",
        "webapp.jobs.core imports webapp.live.replies.error_payload",
    ]


def test_the_one_way_rule_catches_a_third_party_import(tmp_path):
    """A players module importing Flask, in any spelling, is caught; a package whose
    name only starts like a forbidden one (``flask_compress``) is not."""
    path = tmp_path / "ladder.py"
    path.write_text(
        "import flask_compress\nfrom flask import g\nimport werkzeug.exceptions\n"
        "def late():\n    from flask_socketio import emit\n"
    )
    assert _arrows_against(ONE_WAY, {"webapp.players.ladder": path}) == [
        "webapp.players.ladder imports flask",
        "webapp.players.ladder imports flask.g",
        "webapp.players.ladder imports flask_socketio",
        "webapp.players.ladder imports flask_socketio.emit",
        "webapp.players.ladder imports werkzeug.exceptions",
    ]


# -- the Socket.IO protocol's names ----------------------------------------------------

#: calls whose text names another library's events, never Socket.IO's: SQLAlchemy's
#: engine events (``connect``, ``begin``)
OTHER_LIBRARIES_EVENTS = {"listens_for"}
#: calls whose first argument is an event's name (a Socket.IO or Engine.IO handler, an
#: emit, a solver process's report): never text made on the spot
EVENT_CALLS = {"on", "emit", "emit_each", "send", "on_event"}


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _is_a_key(node: ast.AST, parent: ast.AST | None) -> bool:
    """A payload's field, not an event: a dict key, an index, ``.get``'s first argument,
    a docstring."""
    if isinstance(parent, ast.Dict):
        return node in parent.keys
    if isinstance(parent, ast.Subscript):
        return parent.slice is node
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute):
        return parent.func.attr in ("get", "pop", "setdefault") and parent.args[:1] == [node]
    return isinstance(parent, ast.Expr)


def spelled_event_names(path: Path, names: frozenset[str]) -> list[str]:
    """Every place ``path`` spells an event name as text (``file:line: 'name'``), or makes
    one on the spot where an event's name goes (an f-string passed to ``emit``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = _parents(tree)
    found = []
    for node in ast.walk(tree):
        parent = parents.get(node)
        if isinstance(node, ast.Constant) and node.value in names and not _is_a_key(node, parent):
            call = parent if isinstance(parent, ast.Call) else None
            func = call.func if call is not None else None
            called = getattr(func, "attr", None) or getattr(func, "id", None)
            if called not in OTHER_LIBRARIES_EVENTS:
                found.append((node.lineno, f"{path.name}:{node.lineno}: {node.value!r}"))
        if isinstance(node, ast.Call) and node.args:
            called = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if called in EVENT_CALLS and isinstance(node.args[0], ast.JoinedStr | ast.BinOp):
                found.append(
                    (node.lineno, f"{path.name}:{node.lineno}: {ast.unparse(node.args[0])}")
                )
    return [place for _, place in sorted(found)]


def _event_names() -> frozenset[str]:
    from webapp import protocol

    return protocol.EVENTS


def test_every_event_name_of_the_protocol_is_listed_once():
    """Each event constant of :mod:`webapp.protocol` is in ``EVENTS`` (which the next test
    reads), and every name the server hands Socket.IO is one of them."""
    from webapp import protocol

    spelled = {
        value for name, value in vars(protocol).items() if name.isupper() and isinstance(value, str)
    }
    # what an error names for no event, and the catch-all handler's name: no events
    assert spelled - {protocol.UNKNOWN, protocol.RESTART, protocol.ANY_EVENT} == set(
        protocol.EVENTS
    )


def test_no_event_name_is_spelled_outside_the_protocol():
    """Event names, in and out, are :mod:`webapp.protocol`'s constants: a literal
    ``"error"`` or ``"analysis"`` where an event's name goes, anywhere in the web app,
    is a second spelling of the contract."""
    names = _event_names()
    protocol = ROOT / "webapp" / "protocol.py"
    spelled = [
        f"{path.relative_to(ROOT).parent}/{place}"
        for path in sorted((ROOT / "webapp").rglob("*.py"))
        if path != protocol
        for place in spelled_event_names(path, names)
    ]
    assert spelled == []


def test_the_event_name_rule_catches_a_spelling_and_passes_a_payloads_fields(tmp_path):
    path = tmp_path / "handlers.py"
    path.write_text(
        '"""Says "error" in its docstring."""\n'
        'socketio.emit("error", {"error": payload["analysis"], "progress": 1}, to=sid)\n'
        'def reply():\n    return "analysis", payload.get("solution")\n'
        'socketio.emit(f"race_{what}", state)\n'
        'event.listens_for(engine, "connect")\n'
        "socketio.emit(ERROR, payload)\n"
    )
    assert spelled_event_names(path, _event_names()) == [
        "handlers.py:2: 'error'",
        "handlers.py:4: 'analysis'",
        "handlers.py:5: f'race_{what}'",
    ]


# -- the page's copy of the names: static/js/protocol.js ---------------------------------

PROTOCOL_JS = ROOT / "static" / "js" / "protocol.js"


def _protocol_js_script():
    """scripts/make_protocol_js.py, which writes the page's copy from webapp/protocol.py."""
    path = ROOT / "scripts" / "make_protocol_js.py"
    spec = importlib.util.spec_from_file_location("make_protocol_js", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pages_event_names_are_generated_from_the_protocol():
    """The committed ``static/js/protocol.js`` is what the script writes today: run
    ``scripts/make_protocol_js.py`` after changing an event's name."""
    script = _protocol_js_script()
    assert PROTOCOL_JS.read_text(encoding="utf-8") == script.render()
    names = script.names()
    # every event of the protocol, and the two an error names for no request
    assert set(names.values()) == set(_event_names()) | {"unknown", "restart"}
    assert names["RACE_STATE"] == "race_state" and "ANY_EVENT" not in names


#: event names that are also the page's own words: an element's id (``$("solve")``,
#: the play page's ``on("cancel", ...)`` buttons, ``$("progress")``) or a value of a
#: reply's field (a lab result's status ``"unsolvable"``, a move's verdict ``"unknown"``);
#: these are caught where an event's name goes, every other name anywhere at all
PAGE_WORDS = frozenset({"solve", "cancel", "restart", "progress", "unsolvable", "unknown"})
#: where a page module puts an event's name: first in a socket's emit/on/once/off or the
#: link's request/receive, beside ``===``/``!==`` with an ``event``, assigned to an ``event``
JS_EVENT_PLACES = (
    re.compile(r"""\.(?:emit|on|once|off|request|receive)\(\s*["'](\w+)["']"""),
    re.compile(r"""\bevent\s*[!=]==?\s*["'](\w+)["']"""),
    re.compile(r"""["'](\w+)["']\s*[!=]==?\s*[\w$.]*\bevent\b"""),
)
JS_EVENT_ASSIGNED = re.compile(r"""\bevent\s*=(?![=>])[^;\n]*""")
JS_LITERAL = re.compile(r"""["'](\w+)["']""")


def js_spelled_event_names(path: Path, names: frozenset[str]) -> list[str]:
    """Every place the page module ``path`` spells an event's name as text
    (``file:line: 'name'``); comments name events in backticks."""
    text = path.read_text(encoding="utf-8")
    found: set[tuple[int, str]] = set()

    def spelled(name: str, at: int) -> None:
        found.add((text.count("\n", 0, at) + 1, name))

    for match in JS_LITERAL.finditer(text):
        if match[1] in names and match[1] not in PAGE_WORDS:
            spelled(match[1], match.start())
    for pattern in JS_EVENT_PLACES:
        for match in pattern.finditer(text):
            if match[1] in names:
                spelled(match[1], match.start())
    for match in JS_EVENT_ASSIGNED.finditer(text):
        for literal in JS_LITERAL.finditer(match[0]):
            if literal[1] in names:
                spelled(literal[1], match.start())
    return [f"{path.name}:{line}: {name!r}" for line, name in sorted(found)]


def _page_event_names() -> frozenset[str]:
    return frozenset(_protocol_js_script().names().values())


def test_no_page_module_spells_an_event_name():
    """The page's modules name events by ``EVENT.*`` from ``static/js/protocol.js``,
    the protocol's copy: a literal ``"analysis"`` or ``socket.emit("solve")`` is a
    second spelling of the contract."""
    names = _page_event_names()
    spelled = [
        f"{path.relative_to(ROOT).parent}/{place}"
        for path in sorted((ROOT / "static" / "js").rglob("*.js"))
        if path != PROTOCOL_JS
        for place in js_spelled_event_names(path, names)
    ]
    assert spelled == []


def test_the_page_event_name_rule_catches_a_spelling_and_passes_the_pages_words(tmp_path):
    path = tmp_path / "page.js"
    path.write_text(
        "// a comment may say `analysis`\n"
        '$("solve").disabled = true; on("cancel", () => stop());\n'
        'socket.emit("solve", payload);\n'
        'if (reply.event === "restart") return;\n'
        'const event = current ? "lab_cancel" : "cancel";\n'
        'const word = status === "unsolvable" ? gettext("unsolvable") : "";\n'
        'socket.on(EVENT.ANALYSIS, show); renderer.on("clickNode", pick);\n'
        'const kind = "race_state";\n'
    )
    assert js_spelled_event_names(path, _page_event_names()) == [
        "page.js:3: 'solve'",
        "page.js:4: 'restart'",
        "page.js:5: 'cancel'",
        "page.js:5: 'lab_cancel'",
        "page.js:8: 'race_state'",
    ]


def test_the_clusters_redis_clients_are_made_in_the_transport_alone():
    """One low package makes the cluster's Redis connections (:mod:`webapp.transport`):
    the job back end, the races' store and the message queue take theirs from it."""
    making = []
    for path in sorted((ROOT / "webapp").rglob("*.py")):
        if path.is_relative_to(ROOT / "webapp" / "transport"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            named = (
                isinstance(node, ast.Attribute) and node.attr in ("Redis", "RedisManager")
            ) or (
                isinstance(node, ast.ImportFrom)
                and (node.module or "").split(".")[0] in ("redis", "socketio")
                and any(alias.name in ("Redis", "RedisManager") for alias in node.names)
            )
            if named:
                making.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert making == []


# -- private names stay private -------------------------------------------------------


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(files: dict[str, Path]) -> set[str]:
    """``module imports other._name`` for every private name a project module takes from
    another: ``from other import _name``, or ``other._name`` after ``import other``."""
    found = set()
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported: dict[str, str] = {}  # a local name -> the project module it is
        for node in _imports(tree):
            if isinstance(node, ast.ImportFrom):
                source = _resolve(module, path.name == "__init__.py", node)
                for alias in node.names:
                    if f"{source}.{alias.name}" in files:
                        imported[alias.asname or alias.name] = f"{source}.{alias.name}"
                    elif source in files and source != module and _is_private(alias.name):
                        found.add(f"{module} imports {source}.{alias.name}")
            else:
                for alias in node.names:
                    if alias.name in files and alias.asname:
                        imported[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and _is_private(node.attr)
                and isinstance(node.value, ast.Name)
                and node.value.id in imported
            ):
                found.add(f"{module} imports {imported[node.value.id]}.{node.attr}")
    return found


def test_no_module_imports_anothers_private_names():
    """The tests too: what a test needs of a module is part of its interface."""
    files = module_files()
    for path in sorted((ROOT / "tests").rglob("*.py")):
        files[module_name(path)] = path
    assert sorted(private_imports(files)) == []


def test_the_private_rule_reads_both_spellings_and_passes_a_modules_own(tmp_path):
    (tmp_path / "one.py").write_text(
        "from .two import _hidden, shown\nfrom . import two as other\nother._secret()\n"
        "def _own():\n    return _own\n"
    )
    (tmp_path / "two.py").write_text("_hidden = _secret = shown = 1\n")
    (tmp_path / "__init__.py").write_text("")
    files = {"pkg": tmp_path / "__init__.py", "pkg.one": tmp_path / "one.py"}
    files["pkg.two"] = tmp_path / "two.py"
    assert private_imports(files) == {
        "pkg.one imports pkg.two._hidden",
        "pkg.one imports pkg.two._secret",
    }
