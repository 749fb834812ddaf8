// Water sort: rules, view, editor and the extra tube.
// Notation: tubes joined by ",", each written bottom to top, one character per
// unit of colour; an empty tube is empty text. A pour moves the top run of one
// colour onto an empty tube or a tube whose top has that colour, as much as fits.
// Every colour has a fixed colour AND symbol, so colour-blind players can play.

import { el, setDuration, numberInput, button, PickTwoView } from "../board.js";
import { gettext, ngettext, N_ } from "../i18n.js";

/** Notation character -> [colour, symbol name]. */
const PALETTE = {
  A: ["#e53935", "circle"], B: ["#1e6fd9", "square"], C: ["#fbc02d", "triangle"],
  D: ["#2e9d48", "diamond"], E: ["#8e35b5", "star"], F: ["#f57c00", "plus"],
  G: ["#ec5f9c", "heart"], H: ["#13a9c2", "hexagon"], I: ["#7b5236", "cross"],
  J: ["#a5c40f", "ring"], K: ["#283593", "bars"], L: ["#8d99a6", "moon"],
};

// 24x24 symbol shapes, drawn white on the colour with a dark outline.
const SYMBOLS = {
  circle: '<circle cx="12" cy="12" r="6.5"/>',
  square: '<rect x="6" y="6" width="12" height="12" rx="1.5"/>',
  triangle: '<path d="M12 4.5 20 19H4z"/>',
  diamond: '<path d="M12 3.5 20.5 12 12 20.5 3.5 12z"/>',
  star: '<path d="m12 3 2.6 5.6 6.1.7-4.5 4.2 1.2 6L12 16.5 6.6 19.5l1.2-6-4.5-4.2 6.1-.7z"/>',
  plus: '<path d="M9.5 4h5v5.5H20v5h-5.5V20h-5v-5.5H4v-5h5.5z"/>',
  heart: '<path d="M12 20s-7.5-4.6-7.5-10A4.2 4.2 0 0 1 12 7.6 4.2 4.2 0 0 1 19.5 10C19.5 15.4 12 20 12 20z"/>',
  hexagon: '<path d="m12 3.5 7.4 4.25v8.5L12 20.5l-7.4-4.25v-8.5z"/>',
  cross: '<path d="m7 4 5 5 5-5 3 3-5 5 5 5-3 3-5-5-5 5-3-3 5-5-5-5z"/>',
  ring: '<path fill-rule="evenodd" d="M12 4a8 8 0 1 1 0 16 8 8 0 0 1 0-16zm0 4a4 4 0 1 0 0 8 4 4 0 0 0 0-8z"/>',
  bars: '<path d="M4 5h16v4H4zm0 5h16v4H4zm0 5h16v4H4z"/>',
  moon: '<path d="M15 3.5a8.5 8.5 0 1 0 5.5 14A7 7 0 0 1 15 3.5z"/>',
};

/** A symbol's name in the reader's language (the colour-blind players' word for a colour). */
function symbolName(symbol) {
  const names = {
    circle: gettext("circle"), square: gettext("square"), triangle: gettext("triangle"),
    diamond: gettext("diamond"), star: gettext("star"), plus: gettext("plus"), heart: gettext("heart"),
    hexagon: gettext("hexagon"), cross: gettext("cross"), ring: gettext("ring"), bars: gettext("bars"),
    moon: gettext("moon"),
  };
  return names[symbol] || symbol;
}

/** A tube's name for a screen reader: its number, how full it is, and its units from the
 * bottom up, each as its letter and symbol. */
function tubeName(index, contents, capacity) {
  if (!contents) return gettext("tube %(tube)s, empty, holds %(capacity)s", { tube: index + 1, capacity });
  const units = [...contents].map((ch) => gettext("%(letter)s %(symbol)s", { letter: ch, symbol: swatch(ch).name }));
  return gettext("tube %(tube)s, %(held)s of %(capacity)s, from the bottom: %(units)s",
                 { tube: index + 1, held: contents.length, capacity, units: units.join(gettext(", ")) });
}

/** Colour and symbol for any notation character (unknown ones get a hue and their letter). */
function swatch(ch) {
  if (PALETTE[ch]) return { colour: PALETTE[ch][0], symbol: SYMBOLS[PALETTE[ch][1]], name: symbolName(PALETTE[ch][1]) };
  const code = ch.codePointAt(0);
  return { colour: `hsl(${(code * 137) % 360} 65% 48%)`, symbol: null, name: ch };
}

/** The colour run on top of a tube: [colour, length]. */
function topRun(tube) {
  const colour = tube[tube.length - 1];
  let n = 0;
  while (n < tube.length && tube[tube.length - 1 - n] === colour) n += 1;
  return [colour, n];
}

export function createGame(options = {}) {
  const capacity = Number(options.capacity) || 4;
  const game = {
    capacity,

    parse(text) {
      const tubes = String(text).split(",").map((t) => t.trim());
      if (tubes.some((t) => t.length > capacity)) throw new Error(`a tube holds more than ${capacity}`);
      return { tubes };
    },

    format(state) { return state.tubes.join(","); },

    isGoal(state) {
      return state.tubes.every((t) => t.length === 0 || (t.length === capacity && topRun(t)[1] === capacity));
    },

    /** Pour from `move.from` to `move.to`; null when the pour is not allowed. */
    apply(state, move) {
      const { from, to } = move;
      const tubes = state.tubes;
      if (from === to || !tubes[from] || tubes[to] === undefined) return null;
      const src = tubes[from];
      const dst = tubes[to];
      const [colour, run] = topRun(src);
      if (dst.length >= capacity) return null;
      if (dst.length > 0 && dst[dst.length - 1] !== colour) return null;
      const amount = Math.min(run, capacity - dst.length);
      const next = tubes.slice();
      next[from] = src.slice(0, src.length - amount);
      next[to] = dst + colour.repeat(amount);
      return { tubes: next };
    },

    describeMove(state, move) {
      const next = game.apply(state, move);
      if (!next) return null;
      const amount = state.tubes[move.from].length - next.tubes[move.from].length;
      const colour = state.tubes[move.from].slice(-1);
      return { from: move.from, to: move.to, amount, colour,
               text: `tube ${move.from + 1} -> ${move.to + 1}` };
    },

    /** A pour's text ("tube 1 -> 5") in the reader's words, with a real arrow. */
    say(text) {
      const match = /^tube (\d+) -> (\d+)$/.exec(String(text));
      return match ? gettext("tube %(from)s → %(to)s", { from: match[1], to: match[2] }) : String(text);
    },

    /** Why a pour is refused, in words. */
    whyNot(state, move) {
      const [src, dst] = [state.tubes[move.from], state.tubes[move.to]];
      if (src === undefined || dst === undefined) return gettext("There is no such tube.");
      if (!src) return gettext("Tube %(tube)s is empty: nothing to pour.", { tube: move.from + 1 });
      if (dst.length >= capacity) return gettext("Tube %(tube)s is full.", { tube: move.to + 1 });
      const [from, onto] = [swatch(src.slice(-1)).name, swatch(dst.slice(-1)).name];
      return gettext("Cannot pour %(from)s onto %(onto)s: a pour needs the same colour on top of tube %(tube)s, or an empty tube.",
                     { from, onto, tube: move.to + 1 });
    },

    continues() { return null; },

    createView(board, ctrl) { return new WaterSortView(board, ctrl, game); },
  };
  return game;
}

/** A node of colour `ch`, drawn as the game draws it: its colour and its symbol. */
function colourNode(tag, ch, attrs) {
  const s = swatch(ch);
  const node = el(tag, { ...attrs, title: gettext("colour %(letter)s (%(symbol)s)", { letter: ch, symbol: s.name }), style: { "--colour": s.colour } });
  if (s.symbol) {
    node.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true">${s.symbol}</svg>`;
  } else {
    node.append(el("b", {}, ch));
  }
  return node;
}

function unitNode(ch) {
  return colourNode("span", ch, { class: "unit", "data-colour": ch });
}

class WaterSortView extends PickTwoView {
  constructor(board, ctrl, game) {
    super(board, ctrl, game, "tube");
    board.classList.add("watersort-board");
    board.style.setProperty("--capacity", game.capacity);
  }

  /** An empty tube has nothing to pour. */
  pickProblem(index) {
    return this.state.tubes[index] ? "" : gettext("Tube %(tube)s is empty: pick a tube with something to pour.", { tube: index + 1 });
  }

  missingText(number) { return gettext("There is no tube %(tube)s.", { tube: number }); }

  render(state, { duration = 0 } = {}) {
    setDuration(this.board, duration);
    const rebuild = !this.state || this.state.tubes.length !== state.tubes.length;
    if (rebuild) {
      this.board.replaceChildren();
      this.items = state.tubes.map((_, i) => {
        const node = el(this.ctrl ? "button" : "div",
          { class: "tube", "data-tube": i, type: this.ctrl ? "button" : null,
            "aria-pressed": this.ctrl ? "false" : null },
          el("span", { class: "glass" }),
          this.ctrl && state.tubes.length <= 10 ? el("span", { class: "key" }, (i + 1) % 10) : null);
        this.board.append(node);
        return node;
      });
    }
    state.tubes.forEach((contents, i) => {
      const glass = this.items[i].querySelector(".glass");
      const old = rebuild ? "" : this.state.tubes[i];
      if (this.ctrl) this.items[i].setAttribute("aria-label", tubeName(i, contents, this.game.capacity));
      if (old === contents && glass.childElementCount === contents.length) return;
      // keep the units that stayed, so only the poured ones animate
      let keep = 0;
      while (keep < old.length && keep < contents.length && old[keep] === contents[keep]) keep += 1;
      while (glass.childElementCount > keep) glass.lastElementChild.remove();
      for (const ch of contents.slice(keep)) {
        const unit = unitNode(ch);
        if (!rebuild && duration > 0) unit.classList.add("poured");
        glass.append(unit);
      }
      const full = contents.length === this.game.capacity && topRun(contents)[1] === contents.length;
      this.items[i].classList.toggle("done", full);
    });
    this.state = state;
  }
}

/** The "extra-tube" feature: an empty tube joins the position (counted, but not a move). */
export const extra = {
  feature: "extra-tube",
  noun: N_("extra tube"),
  counted: (n) => ngettext("%(n)s extra tube", "%(n)s extra tubes", n),
  get notice() { return gettext("An empty tube was added."); },
  apply: (board) => `${board},`,
};

/** The editor: pour the chosen colour into tubes one unit at a time. */
export function createEditor(changed, options = {}) {
  const ed = {
    help: gettext("Pick a colour, then click a tube to pour one unit of it on top. \"Remove\" takes the top unit off. Every colour needs exactly as many units as a tube holds."),
    tubes: ["", "", "", ""],
    capacity: Number(options.capacity) || 4,
    current: "A",
    fromText(text) { ed.tubes = String(text).split(","); },
    toText() { return ed.tubes.join(","); },
    options() { return { capacity: ed.capacity }; },
    tools(box) {
      box.replaceChildren(
        numberInput("capacity", ed.capacity, 1, 12, (n) => { ed.capacity = n; changed(); }, gettext("capacity")),
        numberInput("tubes", ed.tubes.length, 1, 30, (n) => {
          ed.tubes = Array.from({ length: n }, (_, i) => ed.tubes[i] || "");
          changed();
        }, gettext("tubes")),
        el("span", { class: "tool-label" }, gettext("colour")),
        ...[..."ABCDEFGHIJKL"].map((ch) => {
          const b = colourNode("button", ch, { type: "button", class: "swatch symbol", "data-colour": ch,
                                               "aria-label": gettext("colour %(letter)s (%(symbol)s)", { letter: ch, symbol: swatch(ch).name }),
                                               "aria-pressed": String(ch === ed.current) });
          b.addEventListener("click", () => { ed.current = ch; changed(); });
          return b;
        }),
        button(gettext("Remove"), { "data-testid": "editor-remove", "aria-pressed": String(ed.current === null) },
               () => { ed.current = null; changed(); }),
      );
    },
    render(grid) {
      grid.className = "editor-grid tube-grid";
      grid.style.setProperty("--capacity", ed.capacity);
      grid.replaceChildren(...ed.tubes.map((tube, i) => {
        const node = el("button", { type: "button", class: "edit-tube", "data-tube": i, "aria-label": gettext("tube %(tube)s", { tube: i + 1 }) },
          ...[...tube].map((ch) => colourNode("span", ch, { class: "edit-unit symbol" })));
        node.addEventListener("click", () => {
          ed.tubes[i] = ed.current === null ? tube.slice(0, -1) : tube + ed.current;
          changed();
        });
        return node;
      }));
    },
  };
  return ed;
}

/** The board's keys, for the page's list of keys (shortcuts.js). */
export const keys = [
  [N_("1 to 9, 0"), N_("pick tube 1 to 9 (0: the tenth), first where to pour from, then where to")],
  [N_("Escape"), N_("drop the tube picked")],
];
