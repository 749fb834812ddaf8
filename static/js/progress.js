// Progress kept in the browser: the best result per level, keyed by game, the
// option that changes the count (metric or capacity) and the start board.

const STORE = "arcade-progress-v1";

export function levelKey(game, options, board) {
  const variant = game === "klotski" ? (options.metric || "piece")
    : game === "watersort" ? String(options.capacity || 4) : "";
  return `${game}|${variant}|${board}`;
}

function readAll() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || "{}") || {};
  } catch {
    return {};
  }
}

/** The stored best {moves, extra, min, at} for `key`, or null. */
export function best(key) { return readAll()[key] || null; }

/** Record a solve; keeps the fewest moves (then fewest extra tubes). Returns the best. */
export function record(key, { moves, extra = 0, min = null }) {
  const all = readAll();
  const old = all[key];
  const better = !old || extra < (old.extra || 0) || (extra === (old.extra || 0) && moves < old.moves);
  if (better) all[key] = { moves, extra, min, at: new Date().toISOString().slice(0, 10) };
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch { /* private mode: no memory */ }
  return all[key];
}
