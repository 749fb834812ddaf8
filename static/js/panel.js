// The play page's panel: status line, move counts, distance meter, button states
// and the playback bar, all drawn from the controller's state. Nothing here
// changes the game; it only shows what the controller knows.

import { clockText } from "./clock.js";
import { Coach } from "./coach/coach.js";
import { fewestMoves, lineOf } from "./coach/line.js";
import { solverReachable } from "./online.js";
import { positionLink } from "./share.js";

export const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

/** "12" for a proven minimum, "≤ 12" (with `space`) for an upper bound. */
function bound(min, space = " ") { return `${min.optimal ? "" : `≤${space}`}${min.moves}`; }

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
    this.shownRefusals = 0;
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
    $("moves-line").textContent = `Moves: ${moves}` + (min ? ` (min ${bound(min)})` : "")
      + (extra ? ` · ${plural(extra, ctrl.extra.noun)}` : "");
    if (ctrl.extra) $(ctrl.extra.feature).disabled = solved;
    $("undo").disabled = !ctrl.history.canUndo;
    $("redo").disabled = !ctrl.history.canRedo;
    $("hint").disabled = solved;
    $("solve").disabled = solved || ctrl.solving;
    this.showRanked(solved);
    this.showStatus(this.statusText(here, solved, moves, extra, min));
    $("status").dataset.kind = solved ? "solved" : here.solvable === false ? "unsolvable"
      : ctrl.notice ? "notice" : "playing";
    this.showDistance(here, points, solved);
    $("cancel").hidden = !ctrl.solving;
    $("progress").textContent = ctrl.progressText || "";
    this.showPlayback(ctrl.playback);
    document.body.classList.toggle("is-solved", solved);
    $("copy-link").dataset.link = positionLink(ctrl.config.game, ctrl.board, ctrl.options, { absolute: true });
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
        : ctrl.ranked && !ctrl.helped ? (solved ? "Ranked attempt: finished." : "Ranked attempt: the server's clock runs from the puzzle's opening.")
          : ctrl.ranked ? "Unranked: you used help (the coach, Hint or Solve) on this attempt."
            : attempt.finished ? "Unranked: your ranked attempt at this puzzle is over; the coach is open."
              : "Unranked: help was asked about this puzzle while its attempt was open; the coach is open.";
    }
    const help = $("help-rule");
    if (help && ctrl.config.attempt) help.textContent = "On a ranked puzzle, Hint, Solve and the coach before the finish make the result unranked; Solve also takes the stars.";
    $("hint").title = closed ? "Show the best next move: this attempt then goes unranked"
      : "Show the best next move (free: hints do not mark the line assisted)";
    $("solve").title = closed ? "Find and play the shortest solution: this attempt then goes unranked, and no stars"
      : "Find and play the shortest solution (the line then counts as assisted: no stars)";
  }

  /** The status words; a refusal repeated in the same words is still announced (aria-live). */
  showStatus(text) {
    const ctrl = this.ctrl;
    const again = (ctrl.refusals || 0) !== this.shownRefusals && $("status").textContent.replace(/\u200b/g, "") === text;
    this.shownRefusals = ctrl.refusals || 0;
    $("status").textContent = again && !$("status").textContent.endsWith("\u200b") ? `${text}\u200b` : text;
  }

  showPlayback(pb) {
    const button = $("play-pause");
    button.disabled = !pb.playing && !pb.canForward();
    button.dataset.playing = pb.playing ? "true" : "false";
    button.setAttribute("aria-label", pb.playing ? "pause" : "play");
    button.querySelector(".label").textContent = pb.playing ? "Pause" : "Play";
    $("step-back").disabled = !pb.canBack();
    $("step-forward").disabled = !pb.canForward();
    document.body.classList.toggle("has-solution", pb.loaded);
  }

  statusText(here, solved, moves, extra, min) {
    const ctrl = this.ctrl;
    const judged = this.coach.judgement();
    if (solved) {
      if (moves === 0) return "Already solved: try another position from the lobby.";
      const extras = extra ? ` with ${plural(extra, ctrl.extra.noun)}` : "";
      const shortest = !min ? "shortest not known" : min.optimal ? `optimal ${min.moves}` : `shortest ≤ ${min.moves}, not proven`;
      const help = ctrl.assisted ? " Solve played moves for you: an assisted line earns no stars." : "";
      const done = `Puzzle solved in ${plural(moves, "move")}${extras} (${shortest})!${help}`;
      return judged ? `${judged} ${done}` : done;
    }
    if (this.refusal) return this.refusal;
    if (judged) return judged;
    if (here.solvable === false && here.optimal) {
      return moves === 0 ? "This position is unsolvable: no sequence of moves reaches the goal."
        : "Now unsolvable: undo or restart.";
    }
    if (this.up === false && ctrl.hintWanted) return "The hint waits for the solver: the connection is down. Keep playing meanwhile.";
    if (this.up === false && ctrl.solving) return "Solve waits for the solver: the connection is down. It starts once the connection is back.";
    if (ctrl.notice) return ctrl.notice;
    if (ctrl.solving) return "Looking for the shortest solution…";
    if (ctrl.playback.playing) {
      return `Playing the solution: move ${ctrl.playback.position()} of ${ctrl.playback.length}`;
    }
    return moves === 0 ? "Your move." : "Keep going!";
  }

  /** The distance line (with the last move's verdict) and the meter, from the line's point `here`. */
  showDistance(here, points, solved) {
    const node = $("distance");
    // an unproven number is interim while a better answer is on its way or was cut off
    const interim = !solved && !here.optimal && here.distance !== null && (here.interim || this.ctrl.evaluating);
    const parts = [];
    let fill = 0;
    if (solved) {
      parts.push("solved");
      fill = 1;
    } else if (this.ctrl.coachClosed) {
      parts.push("hidden in ranked play: finish, or open the coach");
    } else if (here.solvable === false && here.optimal) {
      parts.push("unsolvable");
    } else if (here.distance === null) {
      const asked = this.ctrl.analyses.has(this.ctrl.board);
      const tooBig = this.ctrl.analyses.tooBig(this.ctrl.board);
      if (this.ctrl.evaluating) parts.push("evaluating…");
      else if (tooBig) {
        // what is known of a board the budget could not solve: its proven lower bound
        parts.push(nowrap("too big to solve"), " ",
                   nowrap(`within ${tooBig.budget_seconds} s${here.lower ? `: at least ${plural(here.lower, "move")}` : ""}`, "interim"));
      } else parts.push(asked ? "too far to evaluate quickly" : "not evaluated yet (ask for a hint)");
    } else {
      const d = here.distance;
      const low = here.optimal ? d : here.lower;
      // the final bounds of a search that ended without proof, in words; while it still
      // searches, the upper bound first ("≤ N"), as the interim answer it is
      const bounded = !here.optimal && low > 0 && low < d;
      // spaces between the unbreakable parts, so the words wrap inside a narrow panel
      if (bounded && !interim) parts.push(nowrap(`between ${low} and`), " ", nowrap(`${plural(d, "move")} to solve`));
      else parts.push(nowrap(`${here.optimal ? "" : "≤ "}${plural(d, "move")} to solve${bounded ? "," : ""}`));
      if (bounded && interim) parts.push(" ", nowrap(`at least ${low}`));
      if (interim) parts.push(" ", nowrap("(interim: still searching)", "interim"));
      else if (!here.optimal) parts.push(" ", nowrap("(best found; not proven)", "interim"));
      const start = points[0].distance;
      if (start) fill = Math.max(0, Math.min(1, 1 - d / start));
    }
    node.dataset.interim = String(interim);
    node.dataset.optimal = String(Boolean(solved || here.optimal));
    const verdict = this.verdict(points, solved);
    node.replaceChildren(...parts);
    const point = points[this.ctrl.history.cursor];
    const extraStep = Boolean(point && point.entry && point.entry.kind === "extra");
    node.dataset.kind = verdict === "optimal move" ? "good" : verdict && !extraStep ? "bad" : "";
    if (verdict) node.append(" ", nowrap(`· ${verdict}`, "verdict"));
    const meter = document.querySelector(".meter > span");
    if (meter) meter.style.width = `${Math.round(fill * 100)}%`;
  }

  /** How the last move did: "optimal move", "+N", "that move made it unsolvable", or what an extra
   * tube saved ("" when unknown). */
  verdict(points, solved) {
    const cursor = this.ctrl.history.cursor;
    if (cursor === 0 || !points[cursor]) return "";
    const [before, after] = [points[cursor - 1], points[cursor]];
    if (before.solvable !== false && after.solvable === false && after.optimal) return "that move made it unsolvable";
    // only proven distances can judge a move (an unproven "≤ N" may shrink by more than one)
    if (before.optimal && Number.isInteger(before.distance)
        && (solved || (after.optimal && Number.isInteger(after.distance)))) {
      const saved = before.distance - (solved ? 0 : after.distance);
      // an extra tube is no move: not "+1", but what it saved
      if (after.entry && after.entry.kind === "extra") return `the ${after.entry.move} saves ${plural(saved, "move")}`;
      const extra = (solved ? 0 : after.distance) - (before.distance - 1);
      return extra <= 0 ? "optimal move" : `+${extra}`;
    }
    return "";
  }

  /** Twice a second: the clock, and the seconds of a search that has no progress yet. */
  tick() {
    const ctrl = this.ctrl;
    $("timer").textContent = clockText(ctrl.clock.ms);
    if (ctrl.solving && this.up === false) {
      $("progress").textContent = "waiting for the connection to the solver…";
    } else if (ctrl.solving && ctrl.progressText === "searching…") {
      $("progress").textContent = `searching… ${((performance.now() - ctrl.solveStarted) / 1000).toFixed(1)} s`;
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
      node.title = up ? "connected to the solver" : refusal || "solver offline, reconnecting…";
    }
    if (changed) this.refresh();
  }
}
