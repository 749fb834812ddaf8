// The solver's answers by board text. Most come from the server's analyses; a
// found solution also bounds the distance of every board along it, and an
// unsolvable verdict is an answer too, so neither board is asked about again.
// Besides the latest answer per board, every bound ever learned about a board is
// kept (coach/bounds.js): a later answer that is worse than an earlier one (an
// anytime search that gave up sooner) never makes a shown number worse. A search
// that ran out of its budget is remembered too: the board is too big to solve
// within it, and the same budget would only say so again.

import { factsOf, mergeFacts, unknownFacts } from "./coach/bounds.js";

export class Analyses extends Map {
  constructor() {
    super();
    this.facts = new Map(); // board -> {upper, lower, unsolvable}
    this.gaveUp = new Map(); // board -> the server's error {message, budget_seconds, nodes, lower_bound}
  }

  /** A search about `board` ran out of its budget (`reply`: the error, `gave_up` true). */
  learnGaveUp(board, reply) {
    const known = this.gaveUp.get(board);
    // the longest search (Solve's budget) says the most
    if (!known || (reply.budget_seconds || 0) >= (known.budget_seconds || 0)) this.gaveUp.set(board, reply);
    this.learn(board, { distance: null, optimal: false, solvable: null, lower_bound: reply.lower_bound });
  }

  /** What the search that gave up on `board` said, or null. */
  tooBig(board) { return this.gaveUp.get(board) || null; }

  /** Remember a bound for `board` ({distance, optimal, solvable, lower_bound}). */
  learn(board, known) {
    if (!board) return;
    this.facts.set(board, mergeFacts(this.facts.get(board) || unknownFacts(), factsOf(known)));
  }

  set(board, reply) {
    super.set(board, reply);
    this.learn(board, reply);
    for (const option of (reply && reply.moves_rated) || []) this.learn(option.board, option);
    return this;
  }

  /** Every bound known for `board`: {upper, lower, unsolvable}. */
  factsFor(board) { return this.facts.get(board) || unknownFacts(); }

  /** True while `board`'s latest answer is an interim one (more is on its way or wanted). */
  interim(board) {
    const own = this.get(board);
    return Boolean(own && own.final === false && !own.optimal);
  }

  /** What is known of `board`'s distance: {distance, optimal, solvable} (distance may be a bound). */
  distanceOf(board) {
    const f = this.factsFor(board);
    if (f.unsolvable) return { distance: null, optimal: true, solvable: false };
    const own = this.get(board);
    return { distance: f.upper, optimal: f.upper !== null && f.lower === f.upper,
             solvable: f.upper !== null ? true : own ? own.solvable : null };
  }

  /** What `solution` ({moves, states, optimal, lower_bound}) tells about each board it passes:
   * at most its moves left, and (one move takes at most one off) at least the bound less its ply. */
  learnSolution({ moves, states, optimal, lower_bound: lower = null }) {
    const length = moves.length;
    states.forEach((board, i) => {
      const bound = Number.isInteger(lower) ? Math.max(0, lower - i) : null;
      this.learn(board, { distance: length - i, optimal: Boolean(optimal), solvable: true, lower_bound: bound });
      const known = this.get(board);
      if (known && known.distance !== null) return;
      super.set(board, { board, solved: i === length, solvable: true, distance: length - i,
                         optimal: Boolean(optimal), best_move: moves[i] || null, next_board: states[i + 1] || null });
    });
  }

  /** No solution exists from `board`. */
  learnUnsolvable(board) {
    this.set(board, { board, solved: false, solvable: false, distance: null, optimal: true, best_move: null });
  }
}
