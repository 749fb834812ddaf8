"""The browser tests' page driver and the solver's own answers they expect.

Expected boards and distances always come from the solver itself (``solver.engine``),
never from numbers typed into a test.
"""

import functools
import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import expect

from solver.core.coach import accuracy
from solver.engine import analyse_board, solve_board

ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
#: axe-core from node_modules, served to the page as a file of its own origin (no CDN)
AXE = Path(__file__).resolve().parent.parent.parent / "node_modules" / "axe-core" / "axe.min.js"
#: what every test's browser context asks for: reduced motion (pieces jump and nothing
#: pulses, so Chromium paints a frame per move, not sixty a second; no test reads an
#: animation) and no service worker (page.route never sees what a worker fetches, and
#: a test expects the network it sees); the tests of motion and offline play opt in
CONTEXT = {"reduced_motion": "reduce", "service_workers": "block"}
DISTANCE = re.compile(r"(≤ )?(\d+) moves? to solve")
#: the page's score rules (accuracy, stars), run under Node to tell a test what a page shows
SCORE_JS = Path(__file__).resolve().parent.parent.parent / "static" / "js" / "score.js"


class Frames:
    """Every Socket.IO event the page received, in order (``events``: [(name, payload)])."""

    def __init__(self, page):
        self.events = []
        page.on("websocket", lambda ws: ws.on("framereceived", self.receive))

    def receive(self, frame):
        text = frame if isinstance(frame, str) else frame.decode("utf-8", "replace")
        match = re.match(r"^\d+(\[.*\])$", text, re.S)
        if not match:
            return
        event, *rest = json.loads(match.group(1))
        if rest and isinstance(rest[0], dict):
            self.events.append((event, rest[0]))

    def of(self, name):
        """The payloads of every ``name`` event, in order."""
        return [payload for event, payload in self.events if event == name]

    @property
    def analyses(self):
        return self.of("analysis")

    def bounds(self, board):
        """(lowest upper bound, highest lower bound) the server sent for ``board``."""
        uppers, lowers = [], [0]
        for a in self.analyses:
            if a["board"] == board and a["distance"] is not None:
                uppers.append(a["distance"])
                lowers.append(a["distance"] if a["optimal"] else a.get("lower_bound") or 0)
            for o in a.get("moves_rated") or []:
                if o["board"] == board and o["distance"] is not None:
                    uppers.append(o["distance"])
                    if o["optimal"]:
                        lowers.append(o["distance"])
        return (min(uppers) if uppers else None), max(lowers)


class GamePage:
    """A play page driven like a person would, with console errors collected."""

    def __init__(self, page, base_url):
        self.page = page
        self.base = base_url
        self.errors = []
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))

    # -- navigation ------------------------------------------------------------
    def open(self, game, board=None, wait_analysis=True, **params):
        query = {"speed": 30, **params}
        if board is not None:
            query["board"] = board
        self.game = game
        self.page.goto(f"{self.base}/play/{game}?{urlencode(query)}")
        self.wait_for_controller()
        if wait_analysis:
            expect(self.testid("distance")).not_to_have_text("evaluating…", timeout=10_000)
        return self

    def wait_for_controller(self):
        """The board served and the page's controller running: the board's state is in
        the served HTML, and a click (or ``window.arcade``) before the module has wired
        the controls finds nothing."""
        expect(self.board).to_have_attribute("data-state", re.compile(".+"))
        self.page.wait_for_function("() => window.arcade !== undefined")

    # -- reading -------------------------------------------------------------
    def testid(self, name):
        return self.page.locator(f'[data-testid="{name}"]')

    @property
    def board(self):
        return self.testid("board")

    def state(self):
        return self.board.get_attribute("data-state")

    def moves(self):
        return int(self.testid("moves").inner_text())

    def distance(self):
        """The distance the page shows, or None when it shows none."""
        match = DISTANCE.search(self.testid("distance").inner_text())
        return int(match.group(2)) if match else None

    # -- waiting ---------------------------------------------------------------
    def wait_state(self, expected, timeout=5_000):
        expect(self.board).to_have_attribute("data-state", expected, timeout=timeout)

    def wait_distance(self, n, timeout=10_000):
        pattern = re.compile(rf"(^|\D){n} moves? to solve") if n else re.compile("solved")
        expect(self.testid("distance")).to_have_text(pattern, timeout=timeout)

    def wait_status(self, pattern, timeout=10_000):
        expect(self.testid("status")).to_contain_text(pattern, timeout=timeout)

    # -- acting ---------------------------------------------------------------
    def click(self, name):
        self.testid(name).click()

    def follow_two_click_hint(self, attr):
        """Ask for a hint and play it: the marked source, then the marked target
        (containers carrying ``data-<attr>``, as water-sort tubes or jugs do)."""
        self.click("hint")
        source = self.page.locator(f"[data-{attr}][data-hint]")
        target = self.page.locator(f"[data-{attr}][data-hint-target]")
        expect(source).to_have_count(1)
        expect(target).to_have_count(1)
        source.click()
        target.click()

    def solve_then_undo_and_redo(self, moves, states):
        """Solve plays the solution back to the goal; its moves undo and redo like a player's."""
        self.click("solve")
        self.wait_state(states[-1], timeout=15_000)
        self.wait_status("solved")
        assert self.moves() == len(moves)
        self.click("undo")
        self.wait_state(states[-2])
        self.click("redo")
        self.wait_state(states[-1])

    def screenshot(self, name):
        ARTIFACTS.mkdir(exist_ok=True)
        # nothing to settle: reduced motion (conftest) switches slides and the meter's
        # transition off; the level-name font is the one thing that may still be loading
        self.page.evaluate("document.fonts.ready")
        self.page.screenshot(path=str(ARTIFACTS / name), full_page=True)

    def assert_no_errors(self):
        assert self.errors == [], f"console errors: {self.errors}"


def serious(violations: list[dict]) -> list[str]:
    """One line per serious or critical axe violation: rule, impact, first nodes."""
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(" ".join(n["target"]) for n in v["nodes"][:3])
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def pour(view, move, after):
    """Play one water-jugs pour by clicking its two jugs, and wait for ``after``."""
    view.page.locator(f'[data-jug="{move["from"]}"]').click()
    view.page.locator(f'[data-jug="{move["to"]}"]').click()
    view.wait_state(after)


def slide_to(view, after, wait=True):
    """Play the N-puzzle slide that reaches ``after`` (the tile now where the gap was)
    by clicking its tile, and (``wait``) wait for it."""
    gap = view.state().split().index("0")
    view.page.locator(f'[data-tile="{after.split()[gap]}"]').click()
    if wait:
        view.wait_state(after)


def engine_distance(game, board, **options):
    """The solver's own proven distance for ``board`` (None when unsolvable)."""
    return analyse_board(game, board, **options)["distance"]


def engine_solution(game, board, **options):
    """(move dicts, states) of the solver's shortest solution for ``board``."""
    report = solve_board(game, board, **options)
    assert report["status"] == "solved", report
    return report["move_details"], report["states"]


@functools.cache
def _star_texts() -> dict[int, str]:
    """The stars the page's one rule (``static/js/score.js``) gives each percentage."""
    node = shutil.which("node")
    assert node, "node is not installed"
    script = (
        f"const m = await import({json.dumps(SCORE_JS.as_uri())});\n"
        "console.log(JSON.stringify([...Array(101).keys()].map((p) => m.starText(m.starsFor(p)))));\n"
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    return dict(enumerate(json.loads(done.stdout)))


def finish_shown(shortest, length):
    """(accuracy text, stars text) a finish in ``length`` moves of a puzzle whose proven
    fewest are ``shortest`` must show, on any page: the server's accuracy rule, the
    page's stars for it."""
    percent = accuracy(shortest, length)
    return f"{percent}%", _star_texts()[percent]
