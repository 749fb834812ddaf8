// What the play page's controller does with each of the solver's answers (mixed into
// Controller, as ranked.js is): an analysis is kept, Solve says how its search goes (the
// bounds an anytime search has proven, the positions searched and the time; a search's
// own depth means nothing to a player), then the solution's length, proven shortest or
// not, and plays it; a search that ran out of budget is remembered as too big.

import { gettext, movesText, translateReply } from "./i18n.js";
import { EVENT } from "./protocol.js";

const TABLES_BUILDING = "the solver is still building the tables"; // the server's WARMING_MESSAGE begins so

/** "searching… best 141→121 moves, at least 79 · 1,234 positions · 1.3 s"; `bests`, the
 * ever shorter lengths found so far, takes this report's. */
function progressText(reply, bests) {
  const [nodes, seconds] = [Number(reply.nodes || 0).toLocaleString("en"), Number(reply.elapsed || 0).toFixed(1)];
  if (Number.isInteger(reply.best) && reply.best !== bests[bests.length - 1]) bests.push(reply.best);
  const shown = bests.length > 4 ? [bests[0], "…", ...bests.slice(-3)] : bests;
  const bounds = [bests.length ? gettext("best %(moves)s moves", { moves: shown.join("→") }) : "",
                  Number.isInteger(reply.lower_bound) ? gettext("at least %(moves)s", { moves: reply.lower_bound }) : ""].filter(Boolean);
  const known = bounds.length ? `${bounds.join(", ")} · ` : "";
  return gettext("searching… %(known)s%(nodes)s positions · %(seconds)s s", { known, nodes, seconds });
}

/** "shortest solution: 12 moves (0.01 s, 45 positions)"; a solution not proven shortest
 * says so, with the lower bound when the search proved one. */
function solutionText(reply) {
  const length = reply.moves.length;
  const stats = reply.stats || {};
  const facts = [stats.seconds !== undefined ? gettext("%(seconds)s s", { seconds: Number(stats.seconds).toFixed(2) }) : "",
                 stats.nodes ? gettext("%(nodes)s positions", { nodes: Number(stats.nodes).toLocaleString("en") }) : ""].filter(Boolean);
  const lower = reply.lower_bound;
  const unproven = reply.optimal ? "" : Number.isInteger(lower) && lower < length
    ? gettext(", at least %(moves)s: the best found, not proven shortest", { moves: lower }) : gettext(": not proven shortest");
  const moved = { moves: movesText(length) };
  return (reply.optimal ? gettext("shortest solution: %(moves)s", moved) : gettext("a solution: %(moves)s", moved))
    + unproven + (facts.length ? ` (${facts.join(", ")})` : "");
}

export const SolverAnswers = {
  gotAnalysis(reply, request) {
    this.warming = this.waitsForTables = false; // an answer came: the solver is up
    this.analyses.set(request.board, reply);
    if (request.board === this.board) {
      if (this.isSolved()) this.clock.stop();
      // a hint shown from an interim answer is replaced by the proven one's
      if (this.hintWanted || (this.hintShown && reply.final !== false)) this.showHint();
      this.changed();
    }
    this.backfill();
  },

  /** The server is starting (or done starting): a board still without its final
   * analysis, because the solver was not ready or its table was still being built, is
   * asked again. */
  gotSolverStatus({ warming, building }) {
    const waits = Boolean(warming) || (Boolean(building) && this.waitsForTables);
    this.warming = waits;
    if (!waits && !this.solving) { // evaluate() asks only when no final answer is known
      if (this.waitsForTables) this.notice = "";
      this.waitsForTables = false;
      this.evaluate();
    }
    this.changed();
  },

  /** How a solve is going. */
  gotProgress(reply) {
    this.progressText = progressText(reply, this.solveBests || (this.solveBests = []));
    this.changed();
  },

  gotSolution(reply, request) {
    this.solving = false;
    const { moves, states } = reply;
    this.analyses.learnSolution(reply);
    this.progressText = solutionText(reply);
    if (request.board !== this.board) { this.changed(); return; }
    this.playback.load({ moves, states, optimal: reply.optimal });
    this.playback.play();
  },

  gotUnsolvable(reply, request) {
    this.solving = false;
    this.analyses.learnUnsolvable(request.board);
    this.progressText = gettext("no solution exists");
    this.changed();
  },

  /** A refusal or a search that could not answer; one that ran out of its budget is
   * remembered as what it is: the board is too big to solve within it. */
  gotError(reply, request) {
    this.hintWanted = false;
    if (reply.gave_up && request && request.board) this.analyses.learnGaveUp(request.board, reply);
    this.notice = translateReply(reply) || gettext("the server could not handle that");
    // a table the new server is still building: asked again once it says they are built
    if (String(reply.message || "").startsWith(TABLES_BUILDING)) this.warming = this.waitsForTables = true;
    if (reply.event !== EVENT.ANALYSE) { // an analysis's answer, sent as Solve was pressed, leaves the solve going
      const stopped = this.solving && reply.event === EVENT.SOLVE;
      this.solving = false;
      this.progressText = stopped && reply.gave_up ? gettext("search stopped after %(seconds)s s", { seconds: reply.budget_seconds }) : "";
    }
    this.changed();
  },
};
