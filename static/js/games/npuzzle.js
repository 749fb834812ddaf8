// The N-puzzle (8-puzzle, 15-puzzle ...): rules and view.
// Notation: tile numbers row-major separated by single spaces, 0 the blank.
// A move names the tile and the direction the TILE slides into the blank.

import { el, refuse, clearHintMarks, setDuration, ARROWS } from "../board.js";

export function createGame() {
  const game = {
    name: "npuzzle",
    title: "8-puzzle",

    parse(text) {
      const tiles = String(text).trim().split(/[\s,/]+/).filter(Boolean).map(Number);
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
          { class: "tile", "data-tile": t, type: this.ctrl ? "button" : null,
            "aria-label": `tile ${t}` }, el("span", {}, t));
        this.tiles.set(t, node);
        this.board.append(node);
      }
      node.style.setProperty("--r", Math.floor(i / n));
      node.style.setProperty("--c", i % n);
      node.classList.toggle("home", t === i + 1);
    });
    this.state = state;
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
      refuse(this.board);
      return true;
    }
    const tile = tiles[r * n + c];
    this.ctrl.playerMove({ tile, dir }, this.tiles.get(tile));
    return true;
  }

  refuse(target) { refuse(target || this.board); }
}
