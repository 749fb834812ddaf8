// Honest numbers: what is proven about each position's distance to solved, as an
// upper and a lower bound, and how the bounds of one position bound its
// neighbours along the line played. A move from a to b means d(a) <= d(b) + 1 and
// d(b) >= d(a) - 1; when moves can be undone, also the other way round. An extra
// (an added empty tube) only helps: d(after) <= d(before). A distance is proven
// when the two bounds meet. DOM-free, so Node's test runner checks it.

/** Nothing known: no upper bound, lower bound 0, not proven unsolvable. */
export function unknownFacts() { return { upper: null, lower: 0, unsolvable: false }; }

/** Merge `more` into `facts` (both {upper, lower, unsolvable}): the tighter bound wins. */
export function mergeFacts(facts, more) {
  const upper = [facts.upper, more.upper].filter(Number.isInteger);
  return {
    upper: upper.length ? Math.min(...upper) : null,
    lower: Math.max(facts.lower || 0, more.lower || 0),
    unsolvable: Boolean(facts.unsolvable || more.unsolvable),
  };
}

/**
 * The facts a solver answer gives: `known` is an analysis, a rated option or a
 * solution step ({distance, optimal, solvable, lower_bound}).
 */
export function factsOf(known) {
  if (!known) return unknownFacts();
  if (known.solvable === false && known.optimal) return { upper: null, lower: 0, unsolvable: true };
  const distance = Number.isInteger(known.distance) ? known.distance : null;
  if (distance !== null && known.optimal) return { upper: distance, lower: distance, unsolvable: false };
  const lower = Number.isInteger(known.lower_bound) ? known.lower_bound : 0;
  return { upper: distance, lower: distance === null ? lower : Math.min(lower, distance), unsolvable: false };
}

function lowerTo(point, value) {
  if (point.unsolvable || value <= point.lower) return false;
  point.lower = value;
  return true;
}

function upperTo(point, value) {
  if (point.unsolvable || value === null || (point.upper !== null && value >= point.upper)) return false;
  point.upper = value;
  return true;
}

/** Apply the step from `a` to `b` (`kind` "move" or "extra") once; true if anything tightened. */
function step(a, b, kind, reversible) {
  if (a.unsolvable || b.unsolvable) return false;
  let changed = false;
  const plus = (u, n) => (u === null ? null : u + n);
  if (kind === "extra") {
    changed = upperTo(b, a.upper) || changed;
    changed = lowerTo(a, b.lower) || changed;
    return changed;
  }
  changed = upperTo(a, plus(b.upper, 1)) || changed;
  changed = lowerTo(b, a.lower - 1) || changed;
  if (reversible) {
    changed = upperTo(b, plus(a.upper, 1)) || changed;
    changed = lowerTo(a, b.lower - 1) || changed;
  }
  return changed;
}

/**
 * Tighten the bounds of a line of positions. `facts[i]` = {board, upper, lower,
 * unsolvable} for ply i; `kinds[i]` is how ply i+1 was reached from ply i ("move"
 * or "extra"). Plies with the same board share their bounds. Returns new objects
 * {board, upper, lower, unsolvable, exact}; `exact` when the bounds meet.
 */
export function propagate(facts, kinds, { reversible = false } = {}) {
  const points = facts.map((f) => ({ board: f.board, upper: Number.isInteger(f.upper) ? f.upper : null,
                                     lower: Math.max(0, f.lower || 0), unsolvable: Boolean(f.unsolvable) }));
  const same = new Map();
  points.forEach((p) => same.set(p.board, [...(same.get(p.board) || []), p]));
  for (let round = 0; round < points.length + 2; round++) {
    let changed = false;
    for (let i = 0; i + 1 < points.length; i++) changed = step(points[i], points[i + 1], kinds[i], reversible) || changed;
    for (let i = points.length - 2; i >= 0; i--) changed = step(points[i], points[i + 1], kinds[i], reversible) || changed;
    for (const group of same.values()) {
      if (group.length < 2) continue;
      const merged = group.reduce((a, b) => mergeFacts(a, b));
      for (const p of group) {
        changed = upperTo(p, merged.upper) || changed;
        changed = lowerTo(p, merged.lower) || changed;
        if (merged.unsolvable && !p.unsolvable) { p.unsolvable = true; changed = true; }
      }
    }
    if (!changed) break;
  }
  return points.map((p) => {
    if (p.upper !== null && p.lower > p.upper) p.lower = p.upper; // a solver bug must not show as a contradiction
    return { ...p, exact: p.unsolvable || (p.upper !== null && p.lower === p.upper) };
  });
}

/**
 * A move's verdict from bounds alone, when they prove one: `here` and `after` are
 * {upper, lower} of the position and of the position after the move. Any move
 * takes at most one move off, so an `after` whose upper bound is below `here`'s
 * lower bound is exactly one nearer ("best"), and one whose lower bound is above
 * `here`'s upper bound is farther ("worse"). Null when the bounds overlap.
 */
export function verdictByBounds(here, after) {
  if (!here || !after) return null;
  if (Number.isInteger(after.upper) && here.lower > 0 && after.upper < here.lower) return "best";
  if (Number.isInteger(here.upper) && after.lower > here.upper) return "worse";
  return null;
}
