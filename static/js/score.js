// The score of a finished board, the same on every page that drives one: accuracy
// (the shortest from the start against the moves made) and the stars it earns.
// `accuracy` is the server's rule (solver/core/coach.py `accuracy`), mirrored here
// and held equal to it by a test on every pair up to 200. DOM-free, so Node's test
// runner checks it.

import { gettext } from "./i18n.js";

/** A solve's accuracy: 100 * shortest / length as a whole percentage, rounded half up
 * and never over 100; integers only, as the server computes it (no float decides a half). */
export function accuracy(shortest, length) {
  const [top, bottom] = [200 * shortest + length, 2 * length];
  return Math.min(100, (top - (top % bottom)) / bottom);
}

/** 3 stars for a perfect solve, 2 from 80%, 1 from 50%. */
export function starsFor(percent) { return percent >= 100 ? 3 : percent >= 80 ? 2 : percent >= 50 ? 1 : 0; }

export function starText(stars) { return "★".repeat(stars) + "☆".repeat(3 - stars); }

/**
 * Accuracy of a solve in `moves` moves when the shortest from the start lies in
 * [lower, upper]: {percent, proven} when proven, {atLeast} when only bounded (a whole
 * percentage rounded down, so it stays true), or null.
 */
export function accuracyOf({ upper, lower, exact }, moves) {
  if (!Number.isInteger(moves) || moves <= 0) return null;
  if (exact && Number.isInteger(upper)) return { percent: accuracy(upper, moves), proven: true };
  const low = Math.min(lower || 0, moves);
  return low > 0 ? { atLeast: Math.floor((100 * low) / moves), proven: false } : null;
}

/**
 * The score of a board solved in `moves` moves, when `start` = {upper, lower, exact} is
 * what is known of the shortest from its start (null: nothing): {moves, shortest (an
 * upper bound unless proven), proven, percent (proven) or atLeast (bounded), assisted}.
 */
export function scoreOf(start, moves, assisted = false) {
  const known = start || { upper: null, lower: 0, exact: false };
  const shortest = Number.isInteger(known.upper) ? known.upper : null;
  const rated = accuracyOf({ upper: shortest, lower: known.lower, exact: known.exact }, moves);
  return { moves, shortest, proven: Boolean(known.exact && shortest !== null), assisted: Boolean(assisted),
           percent: rated && rated.proven ? rated.percent : null,
           atLeast: rated && !rated.proven ? rated.atLeast : null };
}

/** "87%", "at least 62%" or "" (nothing known). */
export function accuracyText(score) {
  return score.percent !== null ? `${score.percent}%` : score.atLeast !== null ? gettext("at least %(percent)s%%", { percent: score.atLeast }) : "";
}

/** The stars a score earns (none when assisted). */
export function starsOf(score) {
  if (score.assisted) return 0;
  return starsFor(score.percent !== null ? score.percent : score.atLeast || 0);
}
