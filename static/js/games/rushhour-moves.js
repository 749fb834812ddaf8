// Rush Hour's rules without the page: the notation, where the vehicles stand, a slide
// applied or refused in words, and how far a vehicle can go. DOM-free, so Node's test
// runner checks it (tests/js/). The server's rules are solver/rushhour; these are the
// page's own, for instant moves.
//
// Notation: the 6x6 board's 36 characters, rows top to bottom, "o" (or ".") empty, "x"
// a wall, "A" the red car (horizontal, third row), "B"-"Z" the other vehicles, 2 or 3
// cells in a line. A move slides one vehicle along its line any distance: {piece,
// from, to, path, steps}, the top-left cells (path: after each one-cell step).

import { DIRECTIONS } from "../board.js";
import { directionText, gettext } from "../i18n.js";

export const SIDE = 6;
export const EMPTY = "o";
export const WALL = "x";
export const RED = "A";
/** The red car's row (0-based: the third); the exit is at its right end. */
export const EXIT_ROW = 2;

/** Board text -> {cells: 36 characters}, "." read as "o"; an Error naming what is wrong. */
export function parseBoard(text) {
  const board = String(text).trim();
  if (board.length !== SIDE * SIDE) throw new Error(`board "${board.slice(0, 40)}" has ${board.length} cells; a Rush Hour board has 36`);
  const cells = [...board].map((ch) => (ch === "." ? EMPTY : ch));
  const bad = cells.findIndex((ch) => ch !== EMPTY && ch !== WALL && !/^[A-Z]$/.test(ch));
  if (bad >= 0) throw new Error(`"${cells[bad]}" is not a vehicle (A-Z), a wall (x) or empty (o)`);
  const state = { cells };
  const vehicles = vehiclesOf(state);
  for (const [label, v] of vehicles) {
    if (!v.straight) throw new Error(`vehicle ${label} is not a straight line`);
    if (v.length !== 2 && v.length !== 3) throw new Error(`vehicle ${label} is ${v.length} cell(s) long; vehicles are 2 or 3`);
  }
  const red = vehicles.get(RED);
  if (!red) throw new Error("there is no red car A");
  if (!red.horizontal || red.r !== EXIT_ROW) throw new Error("the red car A must lie horizontally on the third row");
  return state;
}

export function formatBoard(state) { return state.cells.join(""); }

/** label -> {r, c, length, horizontal, straight}: each vehicle's first cell and line. */
export function vehiclesOf(state) {
  const spots = new Map();
  state.cells.forEach((ch, i) => {
    if (ch === EMPTY || ch === WALL) return;
    if (!spots.has(ch)) spots.set(ch, []);
    spots.get(ch).push(i);
  });
  const vehicles = new Map();
  for (const [label, at] of spots) {
    const [first, last] = [at[0], at[at.length - 1]];
    const r = Math.floor(first / SIDE);
    const c = first % SIDE;
    const horizontal = at.length < 2 || at[1] === first + 1;
    const step = horizontal ? 1 : SIDE;
    const straight = last - first === (at.length - 1) * step
      && (!horizontal || Math.floor(last / SIDE) === r);
    vehicles.set(label, { r, c, length: at.length, horizontal, straight });
  }
  return vehicles;
}

/** The cells a vehicle covers with its first cell at (r, c). */
export function cellsOf(v, r = v.r, c = v.c) {
  return Array.from({ length: v.length }, (_, k) => (v.horizontal ? [r, c + k] : [r + k, c]));
}

export function isSolved(state) {
  const red = vehiclesOf(state).get(RED);
  return Boolean(red) && red.c + red.length === SIDE;
}

/** What stops `label` going one cell past `offset` toward `sign` (+1 right/down):
 * null (free), "edge", "wall" or the label in the way. */
function blockedAt(state, label, v, offset, sign) {
  const next = sign > 0 ? offset + v.length : offset - 1;
  if (next < 0 || next >= SIDE) return "edge";
  const ch = state.cells[v.horizontal ? v.r * SIDE + next : next * SIDE + v.c];
  return ch === EMPTY || ch === label ? null : ch === WALL ? "wall" : ch;
}

/** How far `label` can slide: {low, high} offsets along its line (column if horizontal). */
export function reach(state, label) {
  const v = vehiclesOf(state).get(label);
  if (!v) return null;
  const at = v.horizontal ? v.c : v.r;
  let low = at;
  while (!blockedAt(state, label, v, low, -1)) low -= 1;
  let high = at;
  while (!blockedAt(state, label, v, high, 1)) high += 1;
  return { at, low, high };
}

/** `label` slid to `offset` along its line; null when it cannot get there in one move. */
export function slideTo(state, label, offset) {
  const v = vehiclesOf(state).get(label);
  const range = reach(state, label);
  if (!v || offset < range.low || offset > range.high || offset === range.at) return null;
  const cells = state.cells.map((ch) => (ch === label ? EMPTY : ch));
  const [r, c] = v.horizontal ? [v.r, offset] : [offset, v.c];
  for (const [rr, cc] of cellsOf(v, r, c)) cells[rr * SIDE + cc] = label;
  return { cells };
}

/** The offset a move ends at, or null when it is no slide of its vehicle along its line:
 * {piece, dir} one cell, {piece, path} or {piece, to} (top-left cells), as the server
 * and the page write them. */
export function targetOffset(state, move) {
  const v = vehiclesOf(state).get(move.piece);
  if (!v) return null;
  if (move.from && (move.from[0] !== v.r || move.from[1] !== v.c)) return null;
  let to = move.to || (move.path && move.path[move.path.length - 1]);
  if (!to && move.dir) {
    const d = DIRECTIONS[move.dir];
    if (!d) return null;
    to = [v.r + d[0], v.c + d[1]];
  }
  if (!to) return null;
  if (v.horizontal ? to[0] !== v.r : to[1] !== v.c) return null;
  return v.horizontal ? to[1] : to[0];
}

export function applyMove(state, move) {
  const offset = targetOffset(state, move);
  return offset === null ? null : slideTo(state, move.piece, offset);
}

/** "right", "down 2": the slide from offset `at` to `to` of a vehicle, in the notation's words. */
export function slideWords(horizontal, at, to) {
  const dir = horizontal ? (to > at ? "right" : "left") : to > at ? "down" : "up";
  const n = Math.abs(to - at);
  return n > 1 ? `${dir} ${n}` : dir;
}

/** The move as the server describes it: {piece, from, to, path, steps, text} ("B left 2"). */
export function describe(state, move) {
  const v = vehiclesOf(state).get(move.piece);
  const offset = targetOffset(state, move);
  if (!v || offset === null || !slideTo(state, move.piece, offset)) return null;
  return describeSlide(move.piece, v, offset);
}

function describeSlide(piece, v, offset) {
  const at = v.horizontal ? v.c : v.r;
  const sign = Math.sign(offset - at);
  const path = [];
  for (let o = at + sign; sign && o !== offset + sign; o += sign) path.push(v.horizontal ? [v.r, o] : [o, v.c]);
  return { piece, from: [v.r, v.c], to: path.length ? path[path.length - 1] : [v.r, v.c], path,
           steps: offset - at, text: path.length ? `${piece} ${slideWords(v.horizontal, at, offset)}` : `${piece} back` };
}

/** A slide of the vehicle the last move slid continues that move: one slide from where it
 * began (a straight line's cells were all free on the way). */
export function continueSlide(last, move) {
  if (!last || last.piece !== move.piece || !move.path || !move.path.length) return null;
  const horizontal = move.path[0][0] === move.from[0];
  const v = { r: last.from[0], c: last.from[1], horizontal, length: 0 };
  const merged = describeSlide(move.piece, v, horizontal ? move.to[1] : move.to[0]);
  return { ...merged, turnsBack: Math.sign(move.steps) !== Math.sign(last.steps) };
}

/** Why `move` is refused, in words: the wrong way, the edge, a wall or a vehicle in the way. */
export function whyNot(state, move) {
  const v = vehiclesOf(state).get(move.piece);
  if (!v) return gettext("There is no vehicle %(piece)s.", { piece: move.piece });
  const d = DIRECTIONS[move.dir];
  if (!d) return gettext("Vehicle %(piece)s cannot get there in one move.", { piece: move.piece });
  if ((d[0] !== 0) === v.horizontal) {
    return v.horizontal ? gettext("Vehicle %(piece)s only moves left and right.", { piece: move.piece })
      : gettext("Vehicle %(piece)s only moves up and down.", { piece: move.piece });
  }
  const words = { piece: move.piece, dir: directionText(move.dir) };
  const sign = d[0] + d[1];
  const what = blockedAt(state, move.piece, v, v.horizontal ? v.c : v.r, sign);
  if (what === "edge") return gettext("Vehicle %(piece)s cannot move %(dir)s: the edge of the board is in the way.", words);
  if (what === "wall") return gettext("Vehicle %(piece)s cannot move %(dir)s: a wall is in the way.", words);
  if (what) return gettext("Vehicle %(piece)s cannot move %(dir)s: vehicle %(other)s is in the way.", { ...words, other: what });
  return gettext("Vehicle %(piece)s cannot move %(dir)s.", words);
}
