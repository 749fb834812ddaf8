// The play page's panel: status line, move counts, distance meter, button states
// and the playback bar, all drawn from the controller's state. Nothing here
// changes the game; it only shows what the controller knows.

import { Coach } from "./coach/coach.js";
import { fewestMoves, lineOf } from "./coach/line.js";
import { solverReachable } from "./online.js";
import { solvedWords } from "./finish.js";
import { boardLink } from "./share.js";
import { gettext, movesText, ngettext } from "./i18n.js";

export const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

/** "12" for a proven minimum, "≤ 12" (with `space`) for an upper bound. */
function bound(min, space = " ") { return `${min.optimal ? "" : `≤${space}`}${min.moves}`; }

/** The verdict on a shortest move. */
const OPTIMAL = () => gettext("optimal move");

/** The words that must stay on one line ("80 moves to solve"). */
function nowrap(text, className = "nowrap") {
  const span = document.createElement("span");
  span.className = className;
  span.textContent = text;
  return span;
}

export class Panel {
  constructor(ctrl) {
    this.ctrl = ctrl;
    this.coach = new Coach(ctrl);
    this.refusal = null; // the server's reason while it refuses this player
    this.up = null; // the solver link: null while it first connects
  }

  /** Redraw everything from the controller's state. */
  refresh() {
    const ctrl = this.ctrl;
    if (!ctrl.initialBoard) {
      $("status").textContent = ctrl.notice;
      return;
    }
    const points = lineOf(ctrl);
    const here = points[Math.min(ctrl.history.cursor, points.length - 1)];
    const solved = ctrl.isSolved();
    const [moves, extra] = ctrl.counts();
    const min = fewestMoves(points);
    $("board").dataset.state = ctrl.board;
    $("moves").textContent = String(moves);
    $("moves-line").textContent = gettext("Moves: %(moves)s", { moves })
      + (min ? ` (${gettext("min %(moves)s", { moves: bound(min) })})` : "")
      + (extra ? ` · ${ctrl.extra.counted(extra)}` : "");
    if (ctrl.extra) $(ctrl.extra.feature).disabled = solved;
    $("undo").disabled = !ctrl.history.canUndo;
    $("redo").disabled = !ctrl.history.canRedo;
    $("hint").disabled = solved;
    $("solve").disabled = solved || ctrl.solving;
    this.showRanked(solved);
    ctrl.showStatus($("status"), this.statusText(here, solved, moves, extra, ctrl.score(points)));
    $("status").dataset.kind = solved ? "solved" : here.solvable === false ? "unsolvable"
      : ctrl.notice ? "notice" : "playing";
    this.showDistance(here, points, solved);
    $("cancel").hidden = !ctrl.solving;
    $("solver-status").hidden = !ctrl.warming;
    $("progress").textContent = ctrl.progressText || "";
    this.showPlayback(ctrl.playback);
    document.body.classList.toggle("is-solved", solved);
    $("copy-link").dataset.link = boardLink(ctrl);
    $("copy-link").title = solved ? gettext("Copy a link to this puzzle's start") : gettext("Copy a link to this position");
    // a start too big to solve shows what is known ("≥1"), not "…" as if an answer were coming
    const tooBig = !min && ctrl.analyses.tooBig(ctrl.initialBoard);
    $("best").textContent = min ? bound(min, "") : points[0].solvable === false ? "–"
      : tooBig ? (points[0].lower ? `≥${points[0].lower}` : "?") : "…";
    $("best").dataset.optimal = String(Boolean(min && min.optimal));
    this.coach.refresh(points);
  }

  /** Ranked play: whether this attempt still counts, the coach closed while it does, and
   * Hint and Solve saying that they end it. */
  showRanked(solved) {
    const ctrl = this.ctrl;
    const closed = ctrl.coachClosed;
    document.body.classList.toggle("coach-closed", closed);
    $("open-coach").hidden = !closed;
    $("coach-closed").hidden = !closed;
    const state = $("ranked-state");
    if (state) {
      const attempt = ctrl.config.attempt;
      state.hidden = !attempt;
      state.dataset.ranked = String(Boolean(closed || (ctrl.ranked && !ctrl.helped)));
      state.textContent = !attempt ? ""
        : ctrl.ranked && !ctrl.helped ? (solved ? gettext("Ranked attempt: finished.") : gettext("Ranked attempt: the server's clock runs from the puzzle's opening."))
          : ctrl.ranked ? gettext("Unranked: you used help (the coach, Hint or Solve) on this attempt.")
            : attempt.finished ? gettext("Unranked: your ranked attempt at this puzzle is over; the coach is open.")
              : gettext("Unranked: help was asked about this puzzle while its attempt was open; the coach is open.");
    }
    const help = $("help-rule");
    if (help && ctrl.config.attempt) help.textContent = gettext("On a ranked puzzle, Hint, Solve and the coach before the finish make the result unranked; Solve also takes the stars.");
    $("hint").title = closed ? gettext("Show the best next move: this attempt then goes unranked")
      : gettext("Show the best next move (free: hints do not mark the line assisted)");
    $("solve").title = closed ? gettext("Find and play the shortest solution: this attempt then goes unranked, and no stars")
      : gettext("Find and play the shortest solution (the line then counts as assisted: no stars)");
  }

  showPlayback(pb) {
    const button = $("play-pause");
    button.disabled = !pb.playing && !pb.canForward();
    button.dataset.playing = pb.playing ? "true" : "false";
    button.setAttribute("aria-label", pb.playing ? gettext("pause") : gettext("play"));
    button.querySelector(".label").textContent = pb.playing ? gettext("Pause") : gettext("Play");
    $("step-back").disabled = !pb.canBack();
    $("step-forward").disabled = !pb.canForward();
    document.body.classList.toggle("has-solution", pb.loaded);
    $("playback").hidden = !pb.loaded; // nothing to play before a solution: no bar of disabled buttons
  }

  /** The status words; `score` is the finished board's (the middle end's), else null. */
  statusText(here, solved, moves, extra, score) {
    const ctrl = this.ctrl;
    const judged = this.coach.judgement();
    if (solved) {
      if (!score) return gettext("Already solved: try another position from the lobby.");
      const extras = extra ? gettext(" with %(extras)s", { extras: ctrl.extra.counted(extra) }) : "";
      const help = ctrl.assisted ? gettext(" Solve played moves for you: an assisted line earns no stars.") : "";
      const done = solvedWords(score, extras) + help;
      return judged ? `${judged} ${done}` : done;
    }
    if (this.refusal) return this.refusal;
    if (judged) return judged;
    if (here.solvable === false && here.optimal) {
      return moves === 0 ? gettext("This position is unsolvable: no sequence of moves reaches the goal.")
        : gettext("Now unsolvable: undo or restart.");
    }
    if (this.up === false && ctrl.hintWanted) return gettext("The hint waits for the solver: the connection is down. Keep playing meanwhile.");
    if (this.up === false && ctrl.solving) return gettext("Solve waits for the solver: the connection is down. It starts once the connection is back.");
    if (ctrl.notice) return ctrl.notice;
    if (ctrl.solving) return gettext("Looking for the shortest solution…");
    if (ctrl.playback.playing) {
      return gettext("Playing the solution: move %(move)s of %(moves)s", { move: ctrl.playback.position(), moves: ctrl.playback.length });
    }
    return moves === 0 ? gettext("Your move.") : this.moveWords(here);
  }

  /** The last move in words, read out by the status line (an aria-live region): what
   * moved, where the gap is now (a game that has one says), and the distance once known
   * ("Moved B down; 80 moves to solve."); the ranked coach's distance stays unsaid. */
  moveWords(here) {
    const ctrl = this.ctrl;
    const entry = ctrl.history.entries[ctrl.history.cursor - 1];
    if (!entry || entry.kind === "extra") return gettext("Keep going!");
    const parts = [gettext("Moved %(move)s", { move: ctrl.sayMove(entry.move) })];
    if (ctrl.game.where) parts.push(ctrl.game.where(ctrl.state));
    if (!ctrl.coachClosed && here.optimal && Number.isInteger(here.distance)) {
      parts.push(gettext("%(moves)s to solve", { moves: movesText(here.distance) }));
    }
    const between = gettext("; ");
    return gettext("%(words)s.", { words: parts.join(between) });
  }

  /** The distance line (with the last move's verdict) and the meter, from the line's point `here`. */
  showDistance(here, points, solved) {
    const node = $("distance");
    // an unproven number is interim while a better answer is on its way or was cut off
    const interim = !solved && !here.optimal && here.distance !== null && (here.interim || this.ctrl.evaluating);
    const parts = [];
    let fill = 0;
    if (solved) {
      parts.push(gettext("solved"));
      fill = 1;
    } else if (this.ctrl.coachClosed) {
      parts.push(gettext("hidden in ranked play: finish, or open the coach"));
    } else if (here.solvable === false && here.optimal) {
      parts.push(gettext("unsolvable"));
    } else if (here.distance === null) {
      const asked = this.ctrl.analyses.has(this.ctrl.board);
      const tooBig = this.ctrl.analyses.tooBig(this.ctrl.board);
      if (this.ctrl.evaluating) parts.push(gettext("evaluating…"));
      else if (tooBig) {
        // what is known of a board the budget could not solve: its proven lower bound
        const within = here.lower
          ? gettext("within %(seconds)s s: at least %(moves)s", { seconds: tooBig.budget_seconds, moves: movesText(here.lower) })
          : gettext("within %(seconds)s s", { seconds: tooBig.budget_seconds });
        parts.push(nowrap(gettext("too big to solve")), " ", nowrap(within, "interim"));
      } else parts.push(asked ? gettext("too far to evaluate quickly") : gettext("not evaluated yet (ask for a hint)"));
    } else {
      const d = here.distance;
      const low = here.optimal ? d : here.lower;
      // the final bounds of a search that ended without proof, in words; while it still
      // searches, the upper bound first ("≤ N"), as the interim answer it is
      const bounded = !here.optimal && low > 0 && low < d;
      const toSolve = gettext("%(moves)s to solve", { moves: movesText(d) });
      // plain words between the unbreakable parts, so they wrap inside a narrow panel
      if (bounded && !interim) parts.push(gettext("between %(low)s and %(moves)s to solve", { low, moves: movesText(d) }));
      else parts.push(nowrap(`${here.optimal ? "" : "≤ "}${toSolve}${bounded ? "," : ""}`));
      if (bounded && interim) parts.push(" ", nowrap(gettext("at least %(moves)s", { moves: low })));
      if (interim) parts.push(" ", nowrap(gettext("(interim: still searching)"), "interim"));
      else if (!here.optimal) parts.push(" ", nowrap(gettext("(best found; not proven)"), "interim"));
      const start = points[0].distance;
      if (start) fill = Math.max(0, Math.min(1, 1 - d / start));
    }
    node.dataset.interim = String(interim);
    node.dataset.optimal = String(Boolean(solved || here.optimal));
    const verdict = this.verdict(points, solved);
    node.replaceChildren(...parts);
    const point = points[this.ctrl.history.cursor];
    const extraStep = Boolean(point && point.entry && point.entry.kind === "extra");
    node.dataset.kind = verdict === OPTIMAL() ? "good" : verdict && !extraStep ? "bad" : "";
    if (verdict) node.append(" ", nowrap(`· ${verdict}`, "verdict"));
    const meter = document.querySelector(".meter > span");
    if (meter) meter.style.width = `${Math.round(fill * 100)}%`;
  }

  /** How the last move did: "optimal move", "that move cost N extra moves", "that move made it unsolvable", or what an extra
   * tube saved ("" when unknown). */
  verdict(points, solved) {
    const cursor = this.ctrl.history.cursor;
    if (cursor === 0 || !points[cursor]) return "";
    const [before, after] = [points[cursor - 1], points[cursor]];
    if (before.solvable !== false && after.solvable === false && after.optimal) return gettext("that move made it unsolvable");
    // only proven distances can judge a move (an unproven "≤ N" may shrink by more than one)
    if (before.optimal && Number.isInteger(before.distance)
        && (solved || (after.optimal && Number.isInteger(after.distance)))) {
      const saved = before.distance - (solved ? 0 : after.distance);
      // an extra tube is no move: not "+1", but what it saved
      if (after.entry && after.entry.kind === "extra") {
        return gettext("the %(what)s saves %(moves)s", { what: gettext(after.entry.move), moves: movesText(saved) });
      }
      const extra = (solved ? 0 : after.distance) - (before.distance - 1);
      // plain words, not "+2": how many moves longer the line is than the best move's
      return extra <= 0 ? OPTIMAL() : ngettext("that move cost %(n)s extra move", "that move cost %(n)s extra moves", extra);
    }
    return "";
  }

  /** Twice a second: the clock, and the seconds of a search that has no progress yet. */
  tick() {
    const ctrl = this.ctrl;
    $("timer").textContent = ctrl.clock.text();
    if (ctrl.solving && this.up === false) {
      $("progress").textContent = gettext("waiting for the connection to the solver…");
    } else if (ctrl.solving && ctrl.progressText === gettext("searching…")) {
      $("progress").textContent = gettext("searching… %(seconds)s s", { seconds: ((performance.now() - ctrl.solveStarted) / 1000).toFixed(1) });
    }
  }

  /** The link's state; `refusal` ("The server is full; trying again in N s") takes the status line. */
  connection(up, refusal = null) {
    const changed = refusal !== this.refusal || up !== this.up;
    this.refusal = up ? null : refusal;
    this.up = up;
    solverReachable(up || Boolean(refusal)); // a full server is reachable: it said why
    const node = $("connection");
    if (node) {
      node.dataset.up = up ? "true" : "false";
      node.title = up ? gettext("connected to the solver") : refusal || gettext("solver offline, reconnecting…");
    }
    if (changed) this.refresh();
  }
}
