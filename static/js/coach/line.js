// The line played: every position of the undo history (the start, then the one
// after each entry, redoable entries included) with what the solver proved about
// it. The graph, the review, the panel and the shared result all read this one list.

import { factsOf, mergeFacts, propagate } from "./bounds.js";

/** True when `point`'s distance (or its being unsolvable) is proven. */
export function exact(point) {
  return Boolean(point && point.optimal && (point.distance !== null || point.solvable === false));
}

/** What the page knows of the start's fewest moves without asking the solver: the
 * level's or the generator's, and the server's proven shortest once a result told it. */
function startFacts(ctrl) {
  const min = ctrl.config.min;
  const given = [min && Number.isInteger(min.moves) ? { distance: min.moves, optimal: min.optimal } : null,
                 Number.isInteger(ctrl.shortest) ? { distance: ctrl.shortest, optimal: true } : null]
    .filter(Boolean).map((known) => factsOf({ ...known, solvable: true }));
  return given.length ? given.reduce(mergeFacts) : null;
}

/**
 * The line of `ctrl`'s history: [{ply, board, distance, optimal, solvable, lower,
 * interim, entry, wasted}], each distance tightened by its neighbours' (bounds.js),
 * so two neighbouring points never differ by more than one once both are known.
 * `distance` is an upper bound unless `optimal`; `entry` led to the point (null at the start).
 */
export function lineOf(ctrl) {
  const entries = ctrl.history.entries;
  const boards = entries.length ? ctrl.history.boards() : [ctrl.initialBoard];
  const facts = boards.map((board, ply) => {
    const known = { board, ...ctrl.analyses.factsFor(board) };
    const given = ply === 0 || board === ctrl.initialBoard ? startFacts(ctrl) : null;
    return given ? { board, ...mergeFacts(known, given) } : known;
  });
  const kinds = entries.map((e) => (e.kind === "extra" ? "extra" : "move"));
  const bounded = propagate(facts, kinds, { reversible: Boolean(ctrl.info && ctrl.info.reversible) });
  const points = bounded.map((b, ply) => {
    const own = ctrl.analyses.get(b.board);
    return {
      ply,
      board: b.board,
      distance: b.unsolvable ? null : b.upper,
      optimal: b.exact,
      lower: b.lower,
      solvable: b.unsolvable ? false : b.upper !== null ? true : own ? own.solvable : null,
      interim: !b.exact && ctrl.analyses.interim(b.board),
      entry: ply > 0 ? entries[ply - 1] : null,
      wasted: false,
    };
  });
  points.forEach((point, i) => { if (i > 0) point.wasted = wasted(points[i - 1], point); });
  return points;
}

/** A move that did not bring the puzzle closer, judged on proven distances only. */
function wasted(before, after) {
  if (!after.entry || after.entry.kind === "extra") return false; // an extra tube is no move
  if (!exact(before) || !exact(after) || before.solvable === false) return false;
  return after.solvable === false || after.distance >= before.distance;
}

/** The text of a history entry's move. */
export function moveText(entry) {
  if (!entry) return "";
  const move = entry.move;
  return typeof move === "string" ? move : (move && move.text) || "";
}

/** "12", "≤ 12" for an unproven distance, "unsolvable", or "?" when nothing is known. */
export function distanceText(known) {
  if (known && known.solvable === false && known.optimal) return "unsolvable";
  if (!known || !Number.isInteger(known.distance)) return "?";
  return `${known.optimal ? "" : "≤ "}${known.distance}`;
}

/** The data-distance value: an integer, "unsolvable", or "" while not known. */
export function distanceData(known) {
  if (known && known.solvable === false && known.optimal) return "unsolvable";
  return known && Number.isInteger(known.distance) ? String(known.distance) : "";
}

/** The start's fewest moves as known from every source, from the line's `points`:
 * {moves, optimal, lower}, or null. */
export function fewestMoves(points) {
  const start = points[0];
  if (!start || !Number.isInteger(start.distance)) return null;
  return { moves: start.distance, optimal: start.optimal, lower: start.lower };
}
