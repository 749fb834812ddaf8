// The coach beside the board: every move rated, the distance graph of the line
// played, the result when solved and the review of mistakes. It draws from the
// controller's history and the solver's analyses, and acts only through the
// controller (play an option, jump to a ply), so it never names a game.

import { factsOf, mergeFacts } from "./bounds.js";
import { drawGraph } from "./graph.js";
import { lineOf } from "./line.js";
import { drawMovesRated } from "./moves-rated.js";
import { Review } from "./review.js";
import { bindShare, drawResult } from "./share.js";
import { gettext } from "../i18n.js";

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

export class Coach {
  constructor(ctrl) {
    this.ctrl = ctrl;
    this.review = new Review(ctrl, $("review"), $("mistakes"));
    this.result = { box: $("result"), accuracy: $("accuracy"), stars: $("stars"),
                    best: $("best-accuracy"), share: $("share-result") };
    bindShare(this.result.share);
  }

  /** Redraw everything from the controller's state; `points` is lineOf(ctrl) when at hand. */
  refresh(points = lineOf(this.ctrl)) {
    const ctrl = this.ctrl;
    if (!ctrl.initialBoard) return;
    if (ctrl.coachClosed) { this.close(); return; }
    const here = points[Math.min(ctrl.history.cursor, points.length - 1)];
    const tooBig = ctrl.analyses.tooBig(ctrl.board);
    drawMovesRated($("options"), ctrl.analyses.get(ctrl.board),
                { solved: ctrl.isSolved(), evaluating: ctrl.evaluating, play: (o) => ctrl.playOption(o),
                  last: ctrl.history.last, continues: (o) => this.continuesLastMove(o),
                  ceiling: ctrl.info.reversible && Number.isInteger(here.distance) ? here.distance + 1 : null,
                  bounds: this.boundsOf(here), tooBig, say: (text) => ctrl.sayMove(text) });
    drawGraph($("graph"), points, ctrl.history.cursor, (ply) => ctrl.jumpTo(ply),
              tooBig && gettext("No graph yet: no distance is known on this line (the board is too big to solve within %(seconds)s s).", { seconds: tooBig.budget_seconds }),
              (text) => ctrl.sayMove(text));
    this.review.draw(points);
    drawResult(ctrl, points, this.result);
  }

  /** What the rated moves may be judged by: the bounds of the current point `here` and of
   * the position after each option (its own answer and everything learned about it). */
  boundsOf(here) {
    const analyses = this.ctrl.analyses;
    const at = { upper: here.distance, lower: here.optimal ? here.distance : here.lower };
    return { key: `${at.lower}/${at.upper}`,
             of: (option) => ({ here: at, after: mergeFacts(factsOf(option), analyses.factsFor(option.board)) }) };
  }

  /** Ranked play: nothing of the coach is drawn (redrawn in full once it opens). */
  close() {
    for (const box of [$("options"), $("graph")]) {
      box.replaceChildren();
      box.coachKey = undefined;
    }
  }

  /**
   * How playing `option` joins the last move, as the controller merges moves:
   * "extends" it, "takes back" it (back where it started) or "changes" it (the
   * same piece turning back part of the way); null when it is a move of its own.
   */
  continuesLastMove(option) {
    const { history, game, state, board } = this.ctrl;
    const last = history.last;
    if (!last || last.kind !== "player" || last.after !== board || history.canRedo) return null;
    const described = game.describeMove(state, option.move);
    const merged = described && game.continues(last.move, described);
    if (!merged) return null;
    if (option.board === last.before) return "takes back";
    return merged.turnsBack ? "changes" : "extends";
  }

  /** What the status line says while a mistake is being retried, else "". */
  judgement() { return this.review.judgement(); }
}
