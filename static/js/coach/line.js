// The line played: every position of the undo history (the start, then the one
// after each entry, redoable entries included) with what the solver proved about
// it. The graph, the review and the shared result all read this one list.

/** True when `point`'s distance (or its being unsolvable) is proven. */
export function exact(point) {
  return Boolean(point && point.optimal && (point.distance !== null || point.solvable === false));
}

/**
 * The line of `ctrl`'s history: [{ply, board, distance, optimal, solvable, entry, wasted}].
 * `entry` is the history entry that led to the point (null at the start).
 */
export function lineOf(ctrl) {
  const entries = ctrl.history.entries;
  const boards = entries.length ? ctrl.history.boards() : [ctrl.initialBoard];
  const points = boards.map((board, ply) => {
    const known = ctrl.analyses.distanceOf(board);
    return {
      ply,
      board,
      distance: known && Number.isInteger(known.distance) ? known.distance : null,
      optimal: Boolean(known && known.optimal),
      solvable: known ? known.solvable : null,
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
