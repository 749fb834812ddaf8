// Small DOM helpers shared by the game views and editors: element building, the
// short "not allowed" cue (a shake) that illegal moves get, editor tool inputs.

import { gettext } from "./i18n.js";

/** Create an element: el("button", {class: "x", "data-tile": 3}, "3"). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    } else {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Shake `node` briefly: the move was refused. */
export function shake(node) {
  if (!node) return;
  node.classList.remove("refused");
  void node.offsetWidth; // restart the animation when refused twice in a row
  node.classList.add("refused");
  setTimeout(() => node.classList.remove("refused"), 450);
}

/** Remove data-hint / data-hint-target marks and hint ghosts inside `root`. */
export function clearHintMarks(root) {
  root.querySelectorAll("[data-hint]").forEach((n) => n.removeAttribute("data-hint"));
  root.querySelectorAll("[data-hint-target]").forEach((n) => n.removeAttribute("data-hint-target"));
  root.querySelectorAll(".hint-ghost").forEach((n) => n.remove());
}

/** Set the CSS transition length for the next render (ms). */
export function setDuration(root, ms) {
  root.style.setProperty("--move-ms", `${Math.max(0, Math.round(ms))}ms`);
}

export const ARROWS = {
  ArrowUp: [-1, 0, "up"],
  ArrowDown: [1, 0, "down"],
  ArrowLeft: [0, -1, "left"],
  ArrowRight: [0, 1, "right"],
};

export const DIRECTIONS = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] };

/** A labelled number field for editor tool bars; `onChange` gets the clamped value. */
export function numberInput(name, value, min, max, onChange, label = name) {
  const input = el("input", { type: "number", name, min, max, value, "data-testid": `editor-${name}` });
  input.addEventListener("change", () => onChange(Math.max(min, Math.min(max, Number(input.value) || min))));
  return el("label", { class: "tool" }, label, input);
}

/** A small button that runs `onClick`. */
export function button(text, attrs, onClick) {
  const node = el("button", { type: "button", class: "btn small", ...attrs }, text);
  node.addEventListener("click", onClick);
  return node;
}

/**
 * The middle of a view whose move is two clicks, a source then a target
 * (water-sort tubes, jugs): selection, hint marks and number keys. A game's
 * view extends it, keeps its containers in `this.items` (each carrying
 * `data-<attr>` = its index) and says why one may not be picked first in `pickProblem`.
 */
export class PickTwoView {
  constructor(board, ctrl, game, attr) {
    this.board = board;
    this.ctrl = ctrl;
    this.game = game;
    this.state = null;
    this.selected = null;
    this.items = [];
    this.noun = attr;
    if (ctrl) {
      board.addEventListener("click", (e) => {
        const item = e.target.closest(`[data-${attr}]`);
        if (item) this.choose(Number(item.dataset[attr]));
      });
    }
  }

  /** Overridden: why the container at `index` cannot be the source ("" when it can). */
  pickProblem() { return ""; }

  /** First click picks the source, the second moves into the target. */
  choose(index) {
    const item = this.items[index];
    if (this.selected === null) {
      const problem = this.pickProblem(index);
      if (problem) { this.ctrl.refuse(problem, item); return; }
      this.select(index);
      return;
    }
    if (this.selected === index) { this.select(null); return; }
    const from = this.selected;
    this.select(null);
    this.ctrl.playerMove({ from, to: index }, item);
  }

  select(index) {
    this.selected = index;
    this.items.forEach((node, i) => {
      node.classList.toggle("selected", i === index);
      node.setAttribute("aria-pressed", i === index ? "true" : "false");
    });
  }

  showHint(move) {
    if (this.items[move.from]) this.items[move.from].setAttribute("data-hint", move.text || `${move.from}`);
    if (this.items[move.to]) this.items[move.to].setAttribute("data-hint-target", "");
  }

  clearHint() { clearHintMarks(this.board); }

  /** Number keys 1-9 and 0 (the tenth) click containers; Escape drops the choice. */
  handleKey(event) {
    if (/^[0-9]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const index = event.key === "0" ? 9 : Number(event.key) - 1;
      if (index < this.items.length) this.choose(index);
      else this.ctrl.refuse(this.missingText(index + 1), this.board);
      return true;
    }
    if (event.key === "Escape") { this.select(null); return true; }
    return false;
  }

  /** Why key `number` picks nothing (a game names its containers: "There is no tube 7."). */
  missingText(number) { return gettext("There is nothing numbered %(n)s.", { n: number }); }

  /** The refused move's cue: `target` (else the board) shakes. */
  shake(target) { shake(target || this.board); }
}
