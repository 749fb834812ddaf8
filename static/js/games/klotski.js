// Klotski (Huarong Dao): rules and view (moves: klotski-moves.js, editor: klotski-editor.js).
// Notation: rows top to bottom joined by "/", one character per piece on every
// cell of that piece, "." empty. A move is {piece, from, to, path}: top-left
// cells, path = the top-left after each unit step. Moving the same piece again
// continues the move in the "piece" metric (the classic's 81), and in "straight"
// (90) while it keeps its direction; in "step" (116) every cell is a move.

import { el, shake, clearHintMarks, setDuration, ARROWS, DIRECTIONS } from "../board.js";
import { EMPTY, applyMove, joinPaths, pathTo, pathWords, piecesOf, sayMove, whyNot } from "./klotski-moves.js";
import { gettext, N_ } from "../i18n.js";

/** The goal: {label|null, r, c, h, w}; default the 2x2 piece at the bottom centre. */
function goalOf(state, options) {
  const pieces = piecesOf(state);
  const spec = options.goal && /^(.)@(\d+),(\d+)$/.exec(String(options.goal).trim());
  if (spec) {
    const p = pieces.get(spec[1]);
    return p ? { label: spec[1], r: Number(spec[2]), c: Number(spec[3]), h: p.h, w: p.w } : null;
  }
  for (const [label, p] of pieces) {
    if (p.h === 2 && p.w === 2) return { label, r: state.h - 2, c: Math.floor((state.w - 2) / 2), h: 2, w: 2 };
  }
  return null;
}

export function createGame(options = {}) {
  let goal = null; // fixed by the first parsed board (pieces keep their shapes)
  const game = {
    metric: ["straight", "step"].includes(options.metric) ? options.metric : "piece",

    parse(text) {
      const rows = String(text).trim().split("/");
      const w = rows[0].length;
      if (!w || rows.some((row) => row.length !== w)) throw new Error(`rows of "${text}" differ in length`);
      const state = { h: rows.length, w, cells: rows.join("").split("") };
      if (!goal) goal = goalOf(state, options);
      return state;
    },

    format(state) {
      const rows = [];
      for (let r = 0; r < state.h; r++) rows.push(state.cells.slice(r * state.w, (r + 1) * state.w).join(""));
      return rows.join("/");
    },

    goal() { return goal; },

    /** Solved when a piece of the goal piece's shape has its top-left on the goal cell. */
    isGoal(state) {
      if (!goal) return false;
      for (const p of piecesOf(state).values()) {
        if (p.r === goal.r && p.c === goal.c && p.h === goal.h && p.w === goal.w) return true;
      }
      return false;
    },

    /** Move a piece along `move.path` (or one cell in `move.dir`); null if blocked. */
    apply(state, move) { return applyMove(state, move); },

    /** The move as the server would describe it (from, to, path, text). */
    describeMove(state, move) {
      const piece = piecesOf(state).get(move.piece);
      const next = game.apply(state, move);
      if (!piece || !next) return null;
      const path = move.path || [[piece.r + DIRECTIONS[move.dir][0], piece.c + DIRECTIONS[move.dir][1]]];
      return { piece: move.piece, from: [piece.r, piece.c], to: path[path.length - 1], path,
               text: `${move.piece} ${pathWords([piece.r, piece.c], path)}` };
    },

    /** Why `move` is refused, in words: the wall or the piece in the way. */
    whyNot(state, move) { return whyNot(state, move); },

    /** A move's text in the reader's words. */
    say(text) { return sayMove(text); },

    /** The shortest path by which `label` covers cell (r, c) in one move of the metric, or null. */
    pathTo(state, label, r, c) { return pathTo(game.metric, state, label, r, c); },

    /**
     * Another step of the same piece continues the last move (straight: in one
     * line). A step back along the way shortens the path; `turnsBack` says so.
     */
    continues(last, move) {
      if (game.metric === "step" || !last || last.piece !== move.piece) return null;
      const { path, turnsBack } = joinPaths(last, move);
      if (game.metric === "straight" && pathWords(last.from, path).includes(",")) return null;
      return { piece: move.piece, from: last.from, to: move.to, path, turnsBack,
               text: `${move.piece} ${path.length ? pathWords(last.from, path) : "back"}` };
    },

    createView(board, ctrl) { return new KlotskiView(board, ctrl, game); },
  };
  return game;
}

/** A piece's name for a screen reader: its letter, its size and where it is (its top-left
 * cell, counted from 1), and for the goal's shape that it goes to the exit. */
export function pieceName(label, p, goal) {
  const name = gettext("piece %(piece)s, %(height)s by %(width)s, at row %(row)s, column %(column)s",
                       { piece: label, height: p.h, width: p.w, row: p.r + 1, column: p.c + 1 });
  return goal && p.h === goal.h && p.w === goal.w ? gettext("%(name)s; it goes to the exit", { name }) : name;
}

/** The class a piece is drawn with: its shape (the goal piece's shape is the goal's). */
export function shapeClass(p, goal) {
  if (goal && p.h === goal.h && p.w === goal.w) return "goal-piece";
  if (p.h === p.w) return p.h === 1 ? "small" : "square";
  return p.h > p.w ? "tall" : "wide";
}

class KlotskiView {
  constructor(board, ctrl, game) {
    this.board = board;
    this.ctrl = ctrl;
    this.game = game;
    this.state = null;
    this.selected = null;
    this.pieces = new Map();
    this.drag = null;
    board.classList.add("klotski-board");
    this.floor = el("div", { class: "floor" });
    board.append(this.floor);
    if (ctrl) this.listen();
  }

  listen() {
    this.floor.addEventListener("click", (e) => {
      const cell = e.target.closest("[data-cell]");
      if (cell) this.sendTo(...cell.dataset.cell.split(",").map(Number), cell);
    });
    this.floor.addEventListener("pointerdown", (e) => {
      const node = e.target.closest("[data-piece]");
      if (!node) return;
      this.select(node.dataset.piece);
      this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY, piece: node.dataset.piece };
      node.setPointerCapture?.(e.pointerId);
    });
    this.floor.addEventListener("pointermove", (e) => this.dragTo(e));
    const end = (e) => { if (this.drag && this.drag.id === e.pointerId) this.drag = null; };
    this.floor.addEventListener("pointerup", end);
    this.floor.addEventListener("pointercancel", end);
    this.floor.addEventListener("focusin", (e) => {
      const node = e.target.closest("[data-piece]");
      if (node) this.select(node.dataset.piece);
    });
  }

  /** Dragging: every half cell the pointer travels moves the piece one cell. */
  dragTo(e) {
    const drag = this.drag;
    if (!drag || drag.id !== e.pointerId) return;
    const rect = this.floor.getBoundingClientRect();
    const cell = rect.width / this.state.w;
    const dx = (e.clientX - drag.x) / cell;
    const dy = (e.clientY - drag.y) / cell;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < 0.5) return;
    const [dir, ox, oy] = Math.abs(dx) > Math.abs(dy)
      ? [dx > 0 ? "right" : "left", Math.sign(dx) * cell, 0]
      : [dy > 0 ? "down" : "up", 0, Math.sign(dy) * cell];
    if (this.ctrl.playerMove({ piece: drag.piece, dir }, null, { quiet: true })) {
      drag.x += ox;
      drag.y += oy;
    }
  }

  /** Click-to-target: the selected piece goes to the empty cell (r, c) in one move. */
  sendTo(r, c, cell) {
    const label = this.selected;
    if (!label || !this.pieces.has(label)) {
      this.ctrl.refuse(gettext("Pick a piece first, then click the empty cell it should move to."), cell);
      return;
    }
    const path = this.game.pathTo(this.state, label, r, c);
    if (!path) {
      this.ctrl.refuse(gettext("Piece %(piece)s cannot reach row %(row)s, column %(column)s in one move.", { piece: label, row: r + 1, column: c + 1 }), this.pieces.get(label));
      return;
    }
    this.ctrl.playerMove({ piece: label, path }, this.pieces.get(label));
  }

  /** The empty cells as click targets (data-cell="R,C"), on a playable board only. */
  markEmpty(state) {
    if (!this.ctrl) return;
    this.cells = this.cells || new Map();
    const empty = new Set();
    state.cells.forEach((label, i) => { if (label === EMPTY) empty.add(`${Math.floor(i / state.w)},${i % state.w}`); });
    for (const [key, node] of this.cells) if (!empty.has(key)) { node.remove(); this.cells.delete(key); }
    for (const key of empty) {
      if (this.cells.has(key)) continue;
      const [r, c] = key.split(",");
      const node = el("div", { class: "cell", "data-cell": key, style: { "--r": r, "--c": c } });
      this.cells.set(key, node);
      this.floor.append(node);
    }
  }

  select(label) {
    this.selected = label;
    for (const [l, node] of this.pieces) {
      node.classList.toggle("selected", l === label);
      node.setAttribute("aria-pressed", l === label ? "true" : "false");
    }
  }

  render(state, { duration = 0 } = {}) {
    setDuration(this.board, duration);
    if (!this.state || this.state.h !== state.h || this.state.w !== state.w) this.layout(state);
    const goal = this.game.goal();
    const pieces = piecesOf(state);
    for (const [label, node] of this.pieces) {
      if (!pieces.has(label)) { node.remove(); this.pieces.delete(label); }
    }
    for (const [label, p] of pieces) {
      let node = this.pieces.get(label);
      if (!node) {
        node = el("div", {
          class: `piece ${shapeClass(p, goal)}`, "data-piece": label,
          tabindex: this.ctrl ? 0 : null, role: this.ctrl ? "button" : null,
          "aria-pressed": this.ctrl ? "false" : null,
        }, el("span", { class: "face" }, el("span", { class: "label" }, label)));
        this.pieces.set(label, node);
        this.floor.append(node);
      }
      for (const [k, v] of Object.entries({ "--r": p.r, "--c": p.c, "--h": p.h, "--w": p.w })) node.style.setProperty(k, v);
      if (this.ctrl) node.setAttribute("aria-label", pieceName(label, p, goal));
    }
    this.markEmpty(state);
    this.state = state;
    this.board.classList.toggle("won", this.game.isGoal(state));
  }

  /** Board geometry: the floor grid, the goal outline and the exit in the frame. */
  layout(state) {
    this.board.style.setProperty("--rows", state.h);
    this.board.style.setProperty("--cols", state.w);
    this.floor.replaceChildren();
    this.pieces.clear();
    if (this.cells) this.cells.clear();
    const goal = this.game.goal();
    this.board.querySelectorAll(".exit").forEach((n) => n.remove());
    if (goal) {
      const spot = { "--r": goal.r, "--c": goal.c, "--h": goal.h, "--w": goal.w };
      this.floor.append(el("div", { class: "goal-spot", style: spot }));
      if (goal.r + goal.h === state.h) {
        this.board.append(el("div", { class: "exit", style: spot, "aria-hidden": "true" }, el("span", {}, gettext("EXIT"))));
      }
    }
  }

  showHint(move) {
    const node = this.pieces.get(move.piece);
    if (!node) return;
    node.setAttribute("data-hint", move.text || move.piece);
    const p = piecesOf(this.state).get(move.piece);
    this.floor.append(el("div", {
      class: "hint-ghost", "data-hint-target": "",
      style: { "--r": move.to[0], "--c": move.to[1], "--h": p.h, "--w": p.w },
    }));
    this.select(move.piece);
  }

  clearHint() { clearHintMarks(this.board); }

  /** Arrows move the selected piece one cell; a piece's letter selects it. */
  handleKey(event) {
    const arrow = ARROWS[event.key];
    if (arrow) {
      if (!this.selected || !this.pieces.has(this.selected)) {
        this.select(this.pieces.keys().next().value);
      }
      this.ctrl.playerMove({ piece: this.selected, dir: arrow[2] }, this.pieces.get(this.selected));
      return true;
    }
    if (event.key === "Escape") { this.select(null); return true; }
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const key = [...this.pieces.keys()].find((l) => l === event.key)
        || [...this.pieces.keys()].find((l) => l.toLowerCase() === event.key.toLowerCase());
      if (key) {
        this.select(key);
        this.pieces.get(key).focus({ preventScroll: true });
        return true;
      }
    }
    return false;
  }

  /** The refused move's cue: `target` (else the board) shakes. */
  shake(target) { shake(target || this.board); }
}

export { createEditor } from "./klotski-editor.js";

/** The board's keys, for the page's list of keys (shortcuts.js). */
export const keys = [
  [N_("A letter"), N_("select the piece with that letter")],
  [N_("Tab"), N_("the next piece (Shift+Tab: the one before)")],
  [N_("Arrow keys"), N_("move the selected piece one cell")],
  [N_("Escape"), N_("drop the selection")],
];
