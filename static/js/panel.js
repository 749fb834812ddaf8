// The play page's panel: status line, move counts, distance meter, button states
// and the playback bar, all drawn from the controller's state. Nothing here
// changes the game; it only shows what the controller knows.

import { clockText } from "./clock.js";
import { Coach } from "./coach/coach.js";
import { positionLink } from "./share.js";

export const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

/** "12" for a proven minimum, "≤ 12" (with `space`) for an upper bound. */
function bound(min, space = " ") { return `${min.optimal ? "" : `≤${space}`}${min.moves}`; }

export class Panel {
  constructor(ctrl) {
    this.ctrl = ctrl;
    this.coach = new Coach(ctrl);
    this.refusal = null; // the server's reason while it refuses this player
  }

  /** Redraw everything from the controller's state. */
  refresh() {
    const ctrl = this.ctrl;
    if (!ctrl.initialBoard) {
      $("status").textContent = ctrl.notice;
      return;
    }
    const analysis = ctrl.analyses.get(ctrl.board);
    const start = ctrl.analyses.get(ctrl.initialBoard);
    const solved = ctrl.isSolved();
    const [moves, extra] = ctrl.counts();
    const min = ctrl.minimum();
    $("board").dataset.state = ctrl.board;
    $("moves").textContent = String(moves);
    $("moves-line").textContent = `Moves: ${moves}` + (min ? ` (min ${bound(min)})` : "")
      + (extra ? ` · ${plural(extra, ctrl.extra.noun)}` : "");
    if (ctrl.extra) $(ctrl.extra.feature).disabled = solved;
    $("undo").disabled = !ctrl.history.canUndo;
    $("redo").disabled = !ctrl.history.canRedo;
    $("hint").disabled = solved;
    $("solve").disabled = solved || ctrl.solving;
    $("status").textContent = this.statusText(analysis, solved, moves, extra);
    $("status").dataset.kind = solved ? "solved" : analysis && analysis.solvable === false ? "unsolvable"
      : ctrl.notice ? "notice" : "playing";
    this.showDistance(analysis, start, solved);
    $("cancel").hidden = !ctrl.solving;
    $("progress").textContent = ctrl.progressText || "";
    this.showPlayback(ctrl.playback);
    document.body.classList.toggle("is-solved", solved);
    $("copy-link").dataset.link = positionLink(ctrl.config.game, ctrl.board, ctrl.options, { absolute: true });
    $("best").textContent = min ? bound(min, "") : start && start.solvable === false ? "–" : "…";
    this.coach.refresh();
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

  statusText(analysis, solved, moves, extra) {
    const ctrl = this.ctrl;
    const judged = this.coach.judgement();
    if (solved) {
      if (moves === 0) return "Already solved: try another position from the lobby.";
      const min = ctrl.minimum();
      const extras = extra ? ` with ${plural(extra, ctrl.extra.noun)}` : "";
      const done = `Puzzle solved in ${plural(moves, "move")}${extras} (optimal ${min ? bound(min) : "?"})!`;
      return judged ? `${judged} ${done}` : done;
    }
    if (this.refusal) return this.refusal;
    if (judged) return judged;
    if (analysis && analysis.solvable === false) {
      return moves === 0 ? "This position is unsolvable: no sequence of moves reaches the goal."
        : "Now unsolvable: undo or restart.";
    }
    if (ctrl.notice) return ctrl.notice;
    if (ctrl.solving) return "Looking for the shortest solution…";
    if (ctrl.playback.playing) {
      return `Playing the solution: move ${ctrl.playback.position()} of ${ctrl.playback.length}`;
    }
    return moves === 0 ? "Your move." : "Keep going!";
  }

  /** The distance line (with the last move's verdict) and the meter. */
  showDistance(analysis, start, solved) {
    let text;
    let fill = 0;
    if (solved) {
      text = "solved";
      fill = 1;
    } else if (!analysis) {
      text = this.ctrl.evaluating ? "evaluating…" : "not evaluated yet (ask for a hint)";
    } else if (analysis.solvable === false) {
      text = "unsolvable";
    } else if (analysis.distance === null || analysis.distance === undefined) {
      text = "too far to evaluate quickly";
    } else {
      const d = analysis.distance;
      text = `${analysis.optimal ? "" : "≤ "}${plural(d, "move")} to solve`;
      if (start && start.distance) fill = Math.max(0, Math.min(1, 1 - d / start.distance));
    }
    const verdict = this.verdict(analysis, solved);
    const node = $("distance");
    node.replaceChildren(text);
    node.dataset.kind = verdict === "optimal move" ? "good" : verdict ? "bad" : "";
    if (verdict) {
      const span = document.createElement("span");
      span.className = "verdict";
      span.textContent = ` · ${verdict}`;
      node.append(span);
    }
    const meter = document.querySelector(".meter > span");
    if (meter) meter.style.width = `${Math.round(fill * 100)}%`;
  }

  /** How the last move did: "optimal move", "+N" or "that move made it unsolvable" ("" when unknown). */
  verdict(analysis, solved) {
    const last = this.ctrl.history.last;
    if (!last || !analysis) return "";
    const before = this.ctrl.analyses.get(last.before);
    if (!before) return "";
    if (before.solvable !== false && analysis.solvable === false) return "that move made it unsolvable";
    // only proven distances can judge a move (an unproven "≤ N" may shrink by more than one)
    if (before.optimal && Number.isInteger(before.distance)
        && (solved || (analysis.optimal && Number.isInteger(analysis.distance)))) {
      const extra = (solved ? 0 : analysis.distance) - (before.distance - 1);
      return extra <= 0 ? "optimal move" : `+${extra}`;
    }
    return "";
  }

  /** Twice a second: the clock, and the seconds of a search that has no progress yet. */
  tick() {
    const ctrl = this.ctrl;
    $("timer").textContent = clockText(ctrl.clock.ms);
    if (ctrl.solving && ctrl.progressText === "searching…") {
      $("progress").textContent = `searching… ${((performance.now() - ctrl.solveStarted) / 1000).toFixed(1)} s`;
    }
  }

  /** The link's state; `refusal` ("The server is full; trying again in N s") takes the status line. */
  connection(up, refusal = null) {
    const changed = refusal !== this.refusal;
    this.refusal = up ? null : refusal;
    const node = $("connection");
    if (node) {
      node.dataset.up = up ? "true" : "false";
      node.title = up ? "connected to the solver" : refusal || "solver offline, reconnecting…";
    }
    if (changed) this.refresh();
  }
}
