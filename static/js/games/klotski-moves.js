// Klotski's moves without the page: where the pieces are, applying a path,
// why a move is refused, joining steps of one piece into one move, and the
// path a piece takes to an empty cell the player clicked. DOM-free, so Node's
// test runner checks it (tests/js/).

import { DIRECTIONS } from "../board.js";
import { directionText, gettext, language, N_ } from "../i18n.js";

export const EMPTY = ".";

/** Where each piece is: label -> {r, c, h, w} (its bounding rectangle). */
export function piecesOf(state) {
  const pieces = new Map();
  state.cells.forEach((label, i) => {
    if (label === EMPTY) return;
    const r = Math.floor(i / state.w);
    const c = i % state.w;
    const p = pieces.get(label);
    if (!p) pieces.set(label, { r, c, r2: r, c2: c });
    else {
      p.r = Math.min(p.r, r); p.c = Math.min(p.c, c);
      p.r2 = Math.max(p.r2, r); p.c2 = Math.max(p.c2, c);
    }
  });
  for (const p of pieces.values()) {
    p.h = p.r2 - p.r + 1;
    p.w = p.c2 - p.c + 1;
  }
  return pieces;
}

/** Move a piece along `move.path` (or one cell in `move.dir`); null if blocked. */
export function applyMove(state, move) {
  const piece = piecesOf(state).get(move.piece);
  if (!piece) return null;
  if (move.from && (move.from[0] !== piece.r || move.from[1] !== piece.c)) return null;
  let path = move.path;
  if (!path) {
    const d = DIRECTIONS[move.dir];
    if (!d) return null;
    path = [[piece.r + d[0], piece.c + d[1]]];
  }
  let cells = state.cells.slice();
  let [r, c] = [piece.r, piece.c];
  for (const [nr, nc] of path) {
    if (Math.abs(nr - r) + Math.abs(nc - c) !== 1) return null;
    if (nr < 0 || nc < 0 || nr + piece.h > state.h || nc + piece.w > state.w) return null;
    const next = cells.map((x) => (x === move.piece ? EMPTY : x));
    for (let i = 0; i < piece.h; i++) {
      for (let j = 0; j < piece.w; j++) {
        const k = (nr + i) * state.w + nc + j;
        if (next[k] !== EMPTY) return null;
        next[k] = move.piece;
      }
    }
    cells = next;
    [r, c] = [nr, nc];
  }
  return { h: state.h, w: state.w, cells };
}

/** Why `move` is refused, in words: the wall or the piece in the way. */
export function whyNot(state, move) {
  const piece = piecesOf(state).get(move.piece);
  if (!piece) return gettext("There is no piece %(piece)s.", { piece: move.piece });
  if (!DIRECTIONS[move.dir]) return gettext("Piece %(piece)s cannot get there in one move.", { piece: move.piece });
  const words = { piece: move.piece, dir: directionText(move.dir) };
  const [dr, dc] = DIRECTIONS[move.dir];
  const [r, c] = [piece.r + dr, piece.c + dc];
  if (r < 0 || c < 0 || r + piece.h > state.h || c + piece.w > state.w) {
    return gettext("Piece %(piece)s cannot move %(dir)s: the wall is in the way.", words);
  }
  for (let i = 0; i < piece.h; i++) {
    for (let j = 0; j < piece.w; j++) {
      const other = state.cells[(r + i) * state.w + c + j];
      if (other !== EMPTY && other !== move.piece) {
        return gettext("Piece %(piece)s cannot move %(dir)s: piece %(other)s is in the way.", { ...words, other });
      }
    }
  }
  return gettext("Piece %(piece)s cannot move %(dir)s.", words);
}

/** "down", "down 2", "left, down": the directions of a path, runs merged. */
export function pathWords(from, path) {
  const words = [];
  let [r, c] = from;
  for (const [nr, nc] of path) {
    const dir = nr < r ? "up" : nr > r ? "down" : nc < c ? "left" : "right";
    const last = words[words.length - 1];
    if (last && last.dir === dir) last.n += 1; else words.push({ dir, n: 1 });
    [r, c] = [nr, nc];
  }
  return words.map((w) => (w.n > 1 ? `${w.dir} ${w.n}` : w.dir)).join(", ");
}

/**
 * The path of `last` ({from, path}) followed by `move`'s steps, a step back
 * along the way cancelling the step it undoes: {path, turnsBack}.
 */
export function joinPaths(last, move) {
  const cells = [last.from, ...last.path];
  let turnsBack = false;
  for (const cell of move.path) {
    const before = cells.length > 1 ? cells[cells.length - 2] : null;
    if (before && before[0] === cell[0] && before[1] === cell[1]) {
      cells.pop();
      turnsBack = true;
    } else {
      cells.push(cell);
    }
  }
  return { path: cells.slice(1), turnsBack };
}

/**
 * The shortest path (top-left cells) by which piece `label` reaches, in one move
 * of `metric` ("piece": any path, "straight": one direction, "step": one cell),
 * a place covering cell (r, c); null when it cannot.
 */
export function pathTo(metric, state, label, r, c) {
  const start = piecesOf(state).get(label);
  if (!start) return null;
  const covers = ([pr, pc]) => pr <= r && r < pr + start.h && pc <= c && c < pc + start.w;
  const seen = new Set([`${start.r},${start.c}`]);
  let frontier = [{ at: [start.r, start.c], path: [], dir: null }];
  while (frontier.length) {
    const next = [];
    for (const { at, path, dir } of frontier) {
      for (const [name, [dr, dc]] of Object.entries(DIRECTIONS)) {
        if (metric === "straight" && dir && dir !== name) continue;
        const to = [at[0] + dr, at[1] + dc];
        const key = to.join(",");
        if (seen.has(key) || !applyMove(state, { piece: label, path: [...path, to] })) continue;
        seen.add(key);
        if (covers(to)) return [...path, to];
        if (metric !== "step") next.push({ at: to, path: [...path, to], dir: name });
      }
    }
    frontier = next;
  }
  return null;
}

const TOWARDS = N_("towards %(dir)s");
const CELLS = N_("towards %(dir)s, %(n)s cells");

/** A move's text ("G down 2, left", the notation the server and the CLI write) in the
 * reader's words; in English the notation is the words. */
export function sayMove(text) {
  const match = /^(\S) (.+)$/.exec(String(text));
  if (language === "en" || !match) return String(text);
  const [, piece, path] = match;
  if (path === "back") return gettext("%(piece)s back where it was", { piece });
  const parts = path.split(", ").map((part) => {
    const [dir, n] = part.split(" ");
    return n ? gettext(CELLS, { dir: directionText(dir), n }) : gettext(TOWARDS, { dir: directionText(dir) });
  });
  return gettext("%(piece)s %(path)s", { piece, path: parts.join(gettext(", ")) });
}
