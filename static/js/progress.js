// Progress kept in the browser: the best result per level, keyed by game, the
// value of the option that changes the count (the game's declared progress
// option, e.g. Klotski's metric or water sort's capacity) and the start board.

import { accuracy } from "./score.js";

const STORE = "arcade-progress-v1";

/** The value of `info`'s progress option in `options` (its default when not given), as text. */
function variant(info, options) {
  const name = info.progress_option;
  if (!name) return "";
  const given = options ? options[name] : undefined;
  if (given !== undefined && given !== null && given !== "") return String(given);
  const declared = (info.options || []).find((option) => option.name === name);
  return declared && declared.default !== null && declared.default !== undefined ? String(declared.default) : "";
}

/** The store key of a level: `${game}|${variant}|${board}`; `info` is the game's declaration. */
export function levelKey(info, options, board) {
  return `${info.name}|${variant(info, options)}|${board}`;
}

function readAll() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || "{}") || {};
  } catch {
    return {};
  }
}

/** The stored best {moves, extra, min, at, accuracy, assisted} for `key`, or null. */
export function best(key) { return readAll()[key] || null; }


/** True when a stored result may be called perfect: unassisted, in the proven fewest moves. */
export function isPerfect(result) {
  return Boolean(result && !result.assisted && Number.isInteger(result.min) && result.moves <= result.min);
}

/**
 * Record a solve; keeps the fewest moves (then fewest extra tubes), and apart
 * from that the best accuracy ever reached (known only with a proven `min`).
 * An `assisted` solve (Solve played moves) is kept only while the level has no
 * solve of the player's own, and never counts for the best or the accuracy.
 * Returns the best.
 */
export function record(key, { moves, extra = 0, min = null, assisted = false }) {
  const all = readAll();
  const old = all[key];
  const own = old && !old.assisted ? old : null;
  if (assisted) {
    if (!own) all[key] = { moves, extra, min, assisted: true, accuracy: null, at: today() };
  } else {
    const better = !own || extra < (own.extra || 0) || (extra === (own.extra || 0) && moves < own.moves);
    const score = min ? accuracy(min, moves) : null;
    const top = Math.max(score || 0, (own && own.accuracy) || 0) || null;
    if (better) all[key] = { moves, extra, min, at: today() };
    all[key].accuracy = top;
  }
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch { /* private mode: no memory */ }
  return all[key];
}

function today() { return new Date().toISOString().slice(0, 10); }
