// The N-puzzle (8-puzzle, 15-puzzle ...): rules, view, editor and the "New game"
// form's size-dependent distance picker.
// Notation: tile numbers row-major separated by single spaces, 0 the blank.
// A move names the tile and the direction the TILE slides into the blank.

import { el, shake, clearHintMarks, setDuration, ARROWS } from "../board.js";
import { directionText, gettext, language, N_ } from "../i18n.js";

function readTiles(text) { return String(text).trim().split(/[\s,/]+/).filter(Boolean); }

/** Row and column (from 1) of cell `i` on an n x n board. */
function place(i, n) { return { row: Math.floor(i / n) + 1, column: (i % n) + 1 }; }

/** "the gap, row 2, column 3". */
function gapWords(blank, n) { return gettext("the gap, row %(row)s, column %(column)s", place(blank, n)); }

export function createGame() {
  const game = {
    parse(text) {
      const tiles = readTiles(text).map(Number);
      const n = Math.round(Math.sqrt(tiles.length));
      if (n < 2 || n * n !== tiles.length || tiles.some((t) => !Number.isInteger(t))) {
        throw new Error(`cannot read an n x n puzzle from "${text}"`);
      }
      return { n, tiles };
    },

    format(state) { return state.tiles.join(" "); },

    isGoal(state) {
      const last = state.tiles.length - 1;
      return state.tiles.every((t, i) => (i === last ? t === 0 : t === i + 1));
    },

    /** Slide `move.tile` into the blank; null when it is not next to the blank. */
    apply(state, move) {
      const { n, tiles } = state;
      const from = tiles.indexOf(Number(move.tile));
      const blank = tiles.indexOf(0);
      if (from < 0 || move.tile === 0 || Number(move.tile) === 0) return null;
      const [fr, fc, br, bc] = [Math.floor(from / n), from % n, Math.floor(blank / n), blank % n];
      if (Math.abs(fr - br) + Math.abs(fc - bc) !== 1) return null;
      const dir = br < fr ? "up" : br > fr ? "down" : bc < fc ? "left" : "right";
      if (move.dir && move.dir !== dir) return null;
      const next = tiles.slice();
      next[blank] = tiles[from];
      next[from] = 0;
      return { n, tiles: next };
    },

    describeMove(state, move) {
      const next = game.apply(state, move);
      if (!next) return null;
      const from = state.tiles.indexOf(Number(move.tile));
      const to = next.tiles.indexOf(Number(move.tile));
      const n = state.n;
      const dir = to === from - n ? "up" : to === from + n ? "down" : to === from - 1 ? "left" : "right";
      return { tile: Number(move.tile), dir, text: `${move.tile} ${dir}` };
    },

    /** Where the gap is after a move, for the move's announcement. */
    where(state) { return gapWords(state.tiles.indexOf(0), state.n); },

    /** A move's text ("5 up") in the reader's words; in English the notation is the words. */
    say(text) {
      const match = /^(\d+) (up|down|left|right)$/.exec(String(text));
      if (language === "en" || !match) return String(text);
      return gettext("%(tile)s towards %(dir)s", { tile: match[1], dir: directionText(match[2]) });
    },

    /** Why `move` is refused, in words. */
    whyNot(state, move) {
      const tile = Number(move.tile);
      if (!tile || !state.tiles.includes(tile)) return gettext("There is no such tile.");
      if (!game.apply(state, { tile })) return gettext("Tile %(tile)s is not beside the gap: only a tile next to the gap can slide.", { tile });
      return gettext("Tile %(tile)s cannot slide %(dir)s.", { tile, dir: directionText(move.dir) });
    },

    /** Each tile move is one move; nothing merges. */
    continues() { return null; },

    createView(board, ctrl) { return new NPuzzleView(board, ctrl, game); },
  };
  return game;
}

class NPuzzleView {
  constructor(board, ctrl, game) {
    this.board = board;
    this.ctrl = ctrl;
    this.game = game;
    this.tiles = new Map();
    this.state = null;
    board.classList.add("npuzzle-board");
    if (ctrl) {
      board.addEventListener("click", (e) => {
        const tile = e.target.closest("[data-tile]");
        if (tile) this.ctrl.playerMove({ tile: Number(tile.dataset.tile) }, tile);
      });
    }
  }

  render(state, { duration = 0 } = {}) {
    setDuration(this.board, duration);
    const { n, tiles } = state;
    if (!this.state || this.state.n !== n) {
      this.board.replaceChildren();
      this.tiles.clear();
      this.board.style.setProperty("--n", n);
    }
    tiles.forEach((t, i) => {
      if (t === 0) return;
      let node = this.tiles.get(t);
      if (!node) {
        node = el(this.ctrl ? "button" : "div",
          { class: "tile", "data-tile": t, type: this.ctrl ? "button" : null }, el("span", {}, t));
        this.tiles.set(t, node);
        this.board.append(node);
      }
      node.style.setProperty("--r", Math.floor(i / n));
      node.style.setProperty("--c", i % n);
      node.classList.toggle("home", t === i + 1);
      if (this.ctrl) node.setAttribute("aria-label", gettext("tile %(tile)s, row %(row)s, column %(column)s", { tile: t, ...place(i, n) }));
    });
    if (this.ctrl) this.showGap(tiles.indexOf(0), n);
    this.state = state;
  }

  /** The gap, named where it is, so a screen reader finds it among the tiles. */
  showGap(blank, n) {
    if (!this.gap || !this.gap.isConnected) {
      this.gap = el("div", { class: "gap", "data-gap": "", role: "img" });
      this.board.append(this.gap);
    }
    this.gap.style.setProperty("--r", Math.floor(blank / n));
    this.gap.style.setProperty("--c", blank % n);
    this.gap.setAttribute("aria-label", gapWords(blank, n));
  }

  showHint(move) {
    const tile = this.tiles.get(Number(move.tile));
    if (!tile) return;
    tile.setAttribute("data-hint", move.text || String(move.tile));
    const blank = this.state.tiles.indexOf(0);
    this.board.append(el("div", {
      class: "hint-ghost", "data-hint-target": "",
      style: { "--r": Math.floor(blank / this.state.n), "--c": blank % this.state.n },
    }));
  }

  clearHint() { clearHintMarks(this.board); }

  /** Arrow keys: the tile next to the blank slides in the arrow's direction. */
  handleKey(event) {
    const arrow = ARROWS[event.key];
    if (!arrow) return false;
    const { n, tiles } = this.state;
    const blank = tiles.indexOf(0);
    const [dr, dc, dir] = arrow;
    const r = Math.floor(blank / n) - dr;
    const c = (blank % n) - dc;
    if (r < 0 || r >= n || c < 0 || c >= n) {
      const why = {
        up: gettext("Nothing can slide up: no tile is below the gap."),
        down: gettext("Nothing can slide down: no tile is above the gap."),
        left: gettext("Nothing can slide left: no tile is to the right of the gap."),
        right: gettext("Nothing can slide right: no tile is to the left of the gap."),
      }[dir];
      this.ctrl.refuse(why, this.board);
      return true;
    }
    const tile = tiles[r * n + c];
    this.ctrl.playerMove({ tile, dir }, this.tiles.get(tile));
    return true;
  }

  /** The refused move's cue: `target` (else the board) shakes. */
  shake(target) { shake(target || this.board); }
}

/** The editor: click two tiles to swap them; the size picker starts a solved grid. */
export function createEditor(changed) {
  const ed = {
    help: gettext("Click two tiles to swap them. 0 is the gap."),
    tiles: [1, 2, 3, 4, 5, 6, 7, 8, 0],
    picked: null,
    fromText(text) {
      const words = readTiles(text);
      if (words.length) ed.tiles = words;
    },
    toText() { return ed.tiles.join(" "); },
    options() { return {}; },
    size() { return Math.max(1, Math.round(Math.sqrt(ed.tiles.length))); },
    tools(box) {
      const select = el("select", { "data-testid": "editor-size", name: "size" },
        ...[2, 3, 4, 5].map((n) => el("option", { value: n, selected: n === ed.size() ? "" : null }, `${n}x${n}`)));
      select.addEventListener("change", () => {
        const n = Number(select.value);
        ed.tiles = [...Array.from({ length: n * n - 1 }, (_, i) => i + 1), 0];
        changed();
      });
      box.replaceChildren(el("label", { class: "tool" }, gettext("size"), select));
    },
    render(grid) {
      grid.className = "editor-grid tile-grid";
      grid.style.setProperty("--cols", ed.size());
      grid.replaceChildren(...ed.tiles.map((t, i) => {
        const node = el("button", { type: "button", class: "edit-tile", "data-tile": t, "data-cell": i,
                                    "aria-pressed": String(ed.picked === i),
                                    "aria-label": String(t) === "0" ? gettext("the gap") : null }, String(t) === "0" ? "" : String(t));
        node.addEventListener("click", () => {
          if (ed.picked === null) { ed.picked = i; changed(); return; }
          const j = ed.picked;
          ed.picked = null;
          [ed.tiles[i], ed.tiles[j]] = [ed.tiles[j], ed.tiles[i]];
          changed();
        });
        return node;
      }));
    },
  };
  return ed;
}

/**
 * The "New game" form: sizes read "3x3" and start at the size being played; the
 * distance picker offers what the chosen size allows (exact distances on sizes
 * the server searches fully, "up to" on the rest).
 */
export function setupNewGameForm(form, config) {
  const size = form.querySelector("[name=size]");
  const distance = form.querySelector("[name=distance]");
  if (!size || !distance) return;
  const choices = config.game_info.choices;
  for (const option of size.options) option.textContent = `${option.value}x${option.value}`;
  const playing = String(Math.round(Math.sqrt(readTiles(config.board).length)));
  if (!config.generated && choices.sizes[playing]) size.value = playing;
  const fillDistances = () => {
    const max = choices.sizes[size.value];
    const exact = choices.exact_sizes.includes(Number(size.value));
    const want = Number(distance.value) || choices.distance;
    distance.replaceChildren(...Array.from({ length: max }, (_, i) => {
      const option = new Option(exact ? gettext("exactly %(n)s", { n: i + 1 }) : gettext("up to %(n)s", { n: i + 1 }), String(i + 1));
      option.selected = i + 1 === Math.min(want, max);
      return option;
    }));
  };
  fillDistances();
  size.addEventListener("change", fillDistances);
}

/** The board's keys, for the page's list of keys (shortcuts.js). */
export const keys = [
  [N_("Arrow keys"), N_("slide the tile beside the gap that way")],
  [N_("Tab, then Enter"), N_("slide the tile that has the focus")],
];
