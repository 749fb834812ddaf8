// Rush Hour: rules (rushhour-moves.js), the view and the editor (rushhour-editor.js).
// A car is dragged along its line and dropped on a cell (one move, however far), moved
// a cell by the arrow keys (Shift: as far as it goes), or sent to an empty cell of its
// line by clicking the cell. Moving the same car again continues its slide: one move.

import { el, shake, clearHintMarks, setDuration, ARROWS, DIRECTIONS } from "../board.js";
import { EMPTY, RED, SIDE, WALL, applyMove, continueSlide, describe, formatBoard, isSolved, parseBoard, reach,
         vehiclesOf, whyNot } from "./rushhour-moves.js";
import { gettext } from "../i18n.js";

export function createGame() {
  const game = {
    parse: parseBoard,
    format: formatBoard,
    isGoal: isSolved,
    apply: applyMove,
    describeMove: describe,
    whyNot,
    continues: continueSlide,
    createView(board, ctrl) { return new RushHourView(board, ctrl, game); },
  };
  return game;
}

/** The class a vehicle is drawn with: the red car, a car (2 cells) or a truck (3). */
export function kindOf(label, v) { return label === RED ? "red-car" : v.length === 3 ? "truck" : "car"; }

/** The vehicle's name for a screen reader: what it is, its label, its place and size. */
export function vehicleName(label, v) {
  const kind = label === RED ? gettext("red car") : v.length === 3 ? gettext("truck") : gettext("car");
  const [first, last] = [(v.horizontal ? v.c : v.r) + 1, (v.horizontal ? v.c : v.r) + v.length];
  const where = v.horizontal
    ? gettext("row %(row)s, columns %(first)s to %(last)s", { row: v.r + 1, first, last })
    : gettext("column %(column)s, rows %(first)s to %(last)s", { column: v.c + 1, first, last });
  return gettext("%(kind)s %(piece)s, %(cells)s cells long: %(where)s", { kind, piece: label, cells: v.length, where });
}

/** A vehicle's colour: one of a few, by its letter (the red car has its own). */
export function paintOf(label) { return label === RED ? 0 : 1 + ((label.charCodeAt(0) - 66) % 8); }

class RushHourView {
  constructor(board, ctrl, game) {
    this.board = board;
    this.ctrl = ctrl;
    this.game = game;
    this.state = null;
    this.selected = null;
    this.cars = new Map();
    this.drag = null;
    this.dropped = null; // the car just dropped by a drag: it lands without sliding
    board.classList.add("rushhour-board");
    this.floor = el("div", { class: "floor" });
    this.exit = el("div", { class: "exit", style: { "--r": 2 } }, el("span", {}, gettext("exit")));
    board.append(this.floor, this.exit);
    if (ctrl) this.listen();
  }

  listen() {
    this.floor.addEventListener("click", (e) => {
      const cell = e.target.closest("[data-cell]");
      if (cell) this.sendTo(...cell.dataset.cell.split(",").map(Number), cell);
    });
    this.floor.addEventListener("pointerdown", (e) => this.grab(e));
    this.floor.addEventListener("pointermove", (e) => this.dragTo(e));
    this.floor.addEventListener("pointerup", (e) => this.drop(e, true));
    this.floor.addEventListener("pointercancel", (e) => this.drop(e, false));
    this.floor.addEventListener("focusin", (e) => {
      const node = e.target.closest("[data-piece]");
      if (node) this.select(node.dataset.piece);
    });
  }

  /** A car taken by the pointer: it follows it along its line, as far as the cells are free. */
  grab(e) {
    const node = e.target.closest("[data-piece]");
    if (!node || e.button > 0) return;
    const label = node.dataset.piece;
    this.select(label);
    const v = vehiclesOf(this.state).get(label);
    const range = reach(this.state, label);
    const cell = this.floor.getBoundingClientRect().width / SIDE;
    this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY, label, v, range, cell, node, offset: range.at };
    node.classList.add("dragging");
    node.setPointerCapture?.(e.pointerId);
  }

  dragTo(e) {
    const drag = this.drag;
    if (!drag || drag.id !== e.pointerId) return;
    const moved = (drag.v.horizontal ? e.clientX - drag.x : e.clientY - drag.y) / drag.cell;
    drag.offset = Math.max(drag.range.low, Math.min(drag.range.high, drag.range.at + moved));
    const shift = (drag.offset - drag.range.at) * drag.cell;
    drag.node.style.transform = drag.v.horizontal ? `translateX(${shift}px)` : `translateY(${shift}px)`;
  }

  /** Dropped: the car lands on the nearest cell, one move if it left its own. */
  drop(e, played) {
    const drag = this.drag;
    if (!drag || drag.id !== e.pointerId) return;
    this.drag = null;
    drag.node.classList.remove("dragging");
    drag.node.style.transform = "";
    const offset = Math.round(drag.offset);
    if (!played || offset === drag.range.at) return;
    const { v } = drag;
    this.dropped = drag.label;
    if (!this.ctrl.playerMove({ piece: drag.label, to: v.horizontal ? [v.r, offset] : [offset, v.c] }, drag.node)) this.dropped = null;
  }

  /** Click-to-target: the selected car goes to the empty cell (r, c) of its line in one move. */
  sendTo(r, c, cell) {
    const label = this.selected;
    const v = label && vehiclesOf(this.state).get(label);
    if (!v) {
      this.ctrl.refuse(gettext("Pick a vehicle first, then click the empty cell it should move to."), cell);
      return;
    }
    const [along, at] = v.horizontal ? [c, v.c] : [r, v.r];
    const offset = along < at ? along : along - v.length + 1;
    const range = reach(this.state, label);
    const onLine = v.horizontal ? r === v.r : c === v.c;
    if (!onLine || offset < range.low || offset > range.high) {
      this.ctrl.refuse(gettext("Vehicle %(piece)s cannot reach row %(row)s, column %(column)s in one move.", { piece: label, row: r + 1, column: c + 1 }), this.cars.get(label));
      return;
    }
    this.ctrl.playerMove({ piece: label, to: v.horizontal ? [v.r, offset] : [offset, v.c] }, this.cars.get(label));
  }

  select(label) {
    this.selected = label;
    for (const [l, node] of this.cars) {
      node.classList.toggle("selected", l === label);
      node.setAttribute("aria-pressed", l === label ? "true" : "false");
    }
  }

  render(state, { duration = 0 } = {}) {
    setDuration(this.board, duration);
    const vehicles = vehiclesOf(state);
    for (const [label, node] of this.cars) {
      if (!vehicles.has(label)) { node.remove(); this.cars.delete(label); }
    }
    for (const [label, v] of vehicles) {
      let node = this.cars.get(label);
      if (!node) {
        node = el("div", {
          class: `vehicle ${kindOf(label, v)}`, "data-piece": label, "data-paint": paintOf(label),
          tabindex: this.ctrl ? 0 : null, role: this.ctrl ? "button" : null,
          "aria-pressed": this.ctrl ? String(label === this.selected) : null,
        }, el("span", { class: "body" }, el("span", { class: "label" }, label)));
        this.cars.set(label, node);
        this.floor.append(node);
      }
      if (label === this.dropped) node.classList.add("landing");
      for (const [k, value] of Object.entries({ "--r": v.r, "--c": v.c, "--h": v.horizontal ? 1 : v.length, "--w": v.horizontal ? v.length : 1 })) node.style.setProperty(k, value);
      node.classList.toggle("upright", !v.horizontal);
      if (this.ctrl) node.setAttribute("aria-label", vehicleName(label, v));
    }
    if (this.dropped) {
      const landed = this.cars.get(this.dropped);
      this.dropped = null;
      if (landed) requestAnimationFrame(() => requestAnimationFrame(() => landed.classList.remove("landing")));
    }
    this.drawCells(state);
    this.state = state;
    this.board.classList.toggle("won", isSolved(state));
  }

  /** Walls, and (on a playable board) the empty cells as click targets (data-cell="R,C"). */
  drawCells(state) {
    const wanted = new Map();
    state.cells.forEach((ch, i) => {
      const key = `${Math.floor(i / SIDE)},${i % SIDE}`;
      if (ch === WALL) wanted.set(key, "wall");
      else if (this.ctrl && ch === EMPTY) wanted.set(key, "cell");
    });
    this.spots = this.spots || new Map();
    for (const [key, node] of this.spots) {
      if (wanted.get(key) !== node.dataset.kind) { node.remove(); this.spots.delete(key); }
    }
    for (const [key, kind] of wanted) {
      if (this.spots.has(key)) continue;
      const [r, c] = key.split(",");
      const node = kind === "wall"
        ? el("div", { class: "wall", "data-kind": kind, "data-wall": key, role: "img", "aria-label": gettext("wall at row %(row)s, column %(column)s", { row: Number(r) + 1, column: Number(c) + 1 }), style: { "--r": r, "--c": c } })
        : el("div", { class: "cell", "data-kind": kind, "data-cell": key, style: { "--r": r, "--c": c } });
      this.spots.set(key, node);
      this.floor.append(node);
    }
  }

  showHint(move) {
    const node = this.cars.get(move.piece);
    const v = vehiclesOf(this.state).get(move.piece);
    if (!node || !v) return;
    node.setAttribute("data-hint", move.text || move.piece);
    this.floor.append(el("div", {
      class: "hint-ghost", "data-hint-target": "",
      style: { "--r": move.to[0], "--c": move.to[1], "--h": v.horizontal ? 1 : v.length, "--w": v.horizontal ? v.length : 1 },
    }));
    this.select(move.piece);
  }

  clearHint() { clearHintMarks(this.board); }

  /** Arrows move the selected vehicle a cell (Shift: as far as it goes); a letter selects one. */
  handleKey(event) {
    const arrow = ARROWS[event.key];
    if (arrow) {
      if (!this.selected || !this.cars.has(this.selected)) this.select(RED);
      const label = this.selected;
      const v = vehiclesOf(this.state).get(label);
      const [dr, dc] = DIRECTIONS[arrow[2]];
      const range = reach(this.state, label);
      let move = { piece: label, dir: arrow[2] };
      if (event.shiftKey && (dr !== 0) !== v.horizontal && range) {
        const offset = dr + dc > 0 ? range.high : range.low;
        if (offset !== range.at) move = { piece: label, to: v.horizontal ? [v.r, offset] : [offset, v.c] };
      }
      this.ctrl.playerMove(move, this.cars.get(label));
      return true;
    }
    if (event.key === "Escape") { this.select(null); return true; }
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const label = event.key.toUpperCase();
      if (this.cars.has(label)) {
        this.select(label);
        this.cars.get(label).focus({ preventScroll: true });
        return true;
      }
    }
    return false;
  }

  /** The refused move's cue: `target` (else the board) shakes. */
  shake(target) { shake(target || this.board); }
}

export { createEditor } from "./rushhour-editor.js";
