// Progress kept in the browser: the best result per level, keyed by game, the
// value of the option that changes the count (the game's declared progress
// option, e.g. Klotski's metric or water sort's capacity) and the start board.

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

/** The stored best {moves, extra, min, at, accuracy} for `key`, or null. */
export function best(key) { return readAll()[key] || null; }

/** The accuracy of a solve in `moves` when `min` is the proven shortest: a whole percentage. */
export function accuracy(min, moves) { return Math.round((100 * min) / moves); }

/**
 * Record a solve; keeps the fewest moves (then fewest extra tubes), and apart
 * from that the best accuracy ever reached (known only with a proven `min`).
 * Returns the best.
 */
export function record(key, { moves, extra = 0, min = null }) {
  const all = readAll();
  const old = all[key];
  const better = !old || extra < (old.extra || 0) || (extra === (old.extra || 0) && moves < old.moves);
  const score = min ? accuracy(min, moves) : null;
  const top = Math.max(score || 0, (old && old.accuracy) || 0) || null;
  if (better) all[key] = { moves, extra, min, at: new Date().toISOString().slice(0, 10) };
  all[key].accuracy = top;
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch { /* private mode: no memory */ }
  return all[key];
}
