// Water jugs: rules, view and editor.
// Notation: jugs joined by ",", each "contents/capacity" in litres ("0/3,0/5,8/8").
// The goal option gives the litres wanted per jug, "*" for any ("*,4,*"); with
// no goal the water is to be shared equally by the two largest jugs. A pour
// stops when the source is empty or the target full.

import { el, setDuration, numberInput, PickTwoView } from "../board.js";
import { gettext, N_ } from "../i18n.js";

function parseJugs(text) {
  const jugs = String(text).split(",").map((part, i) => {
    const match = /^\s*(\d{1,3})\/(\d{1,3})\s*$/.exec(part);
    if (!match) throw new Error(`jug ${i + 1} is "${part}"; write it as contents/capacity`);
    const [held, capacity] = [Number(match[1]), Number(match[2])];
    if (capacity < 1 || held > capacity) throw new Error(`jug ${i + 1} cannot hold ${held} of ${capacity}`);
    return { held, capacity };
  });
  if (jugs.length < 2) throw new Error("a puzzle needs at least two jugs");
  return jugs;
}

/** Litres wanted per jug (null: any), from the option or the classic equal share. */
function goalFor(jugs, goalText) {
  if (goalText) {
    const parts = String(goalText).split(",").map((p) => p.trim());
    if (parts.length !== jugs.length) throw new Error(`goal ${goalText} does not fit ${jugs.length} jugs`);
    return parts.map((p) => (p === "*" ? null : Number(p)));
  }
  const total = jugs.reduce((sum, j) => sum + j.held, 0);
  const largest = jugs.map((j, i) => [j.capacity, i]).sort((a, b) => b[0] - a[0] || b[1] - a[1])
    .slice(0, 2).map(([, i]) => i);
  return jugs.map((_, i) => (largest.includes(i) ? total / 2 : 0));
}

export function createGame(options = {}) {
  const game = {
    name: "jugs",
    goal: null,

    parse(text) {
      const jugs = parseJugs(text);
      game.goal = goalFor(jugs, options.goal);
      return { jugs };
    },

    format(state) { return state.jugs.map((j) => `${j.held}/${j.capacity}`).join(","); },

    isGoal(state) {
      return state.jugs.every((j, i) => game.goal[i] === null || game.goal[i] === j.held);
    },

    /** Pour jug `move.from` into jug `move.to`; null when nothing would flow. */
    apply(state, move) {
      const { from, to } = move;
      const src = state.jugs[from];
      const dst = state.jugs[to];
      if (from === to || !src || !dst) return null;
      const amount = Math.min(src.held, dst.capacity - dst.held);
      if (amount <= 0) return null;
      const jugs = state.jugs.map((j) => ({ ...j }));
      jugs[from].held -= amount;
      jugs[to].held += amount;
      return { jugs };
    },

    /** A pour's text ("jug 3 -> 2") in the reader's words, with a real arrow. */
    say(text) {
      const match = /^jug (\d+) -> (\d+)$/.exec(String(text));
      return match ? gettext("jug %(from)s → %(to)s", { from: match[1], to: match[2] }) : String(text);
    },

    describeMove(state, move) {
      const next = game.apply(state, move);
      if (!next) return null;
      const amount = state.jugs[move.from].held - next.jugs[move.from].held;
      return { from: move.from, to: move.to, amount, text: `jug ${move.from + 1} -> ${move.to + 1}` };
    },

    /** Why a pour is refused, in words. */
    whyNot(state, move) {
      const [src, dst] = [state.jugs[move.from], state.jugs[move.to]];
      if (!src || !dst || move.from === move.to) return gettext("Pick two different jugs: pour from one into another.");
      if (!src.held) return gettext("Jug %(jug)s is empty: nothing to pour.", { jug: move.from + 1 });
      return gettext("Jug %(jug)s is full.", { jug: move.to + 1 });
    },

    continues() { return null; },

    createView(board, ctrl) { return new JugsView(board, ctrl, game); },
  };
  return game;
}

class JugsView extends PickTwoView {
  constructor(board, ctrl, game) {
    super(board, ctrl, game, "jug");
    board.classList.add("jugs-board");
  }

  /** An empty jug has nothing to pour. */
  pickProblem(index) {
    return this.state.jugs[index].held > 0 ? "" : gettext("Jug %(jug)s is empty: pick a jug with water to pour.", { jug: index + 1 });
  }

  missingText(number) { return gettext("There is no jug %(jug)s.", { jug: number }); }

  render(state, { duration = 0 } = {}) {
    setDuration(this.board, duration);
    const tallest = Math.max(...state.jugs.map((j) => j.capacity));
    if (!this.state || this.state.jugs.length !== state.jugs.length) {
      this.items = state.jugs.map((jug, i) => el(this.ctrl ? "button" : "div", {
        class: "jug", "data-jug": i, type: this.ctrl ? "button" : null,
        "aria-pressed": this.ctrl ? "false" : null,
        style: { "--fill": 0, "--size": jug.capacity / tallest },
      }, el("span", { class: "visually-hidden" }, gettext("jug %(jug)s, %(capacity)s litres:", { jug: i + 1, capacity: jug.capacity })),
      el("span", { class: "vessel" }, el("span", { class: "water" })),
      el("span", { class: "litres" }), el("span", { class: "want" }),
      this.ctrl && state.jugs.length <= 9 ? el("span", { class: "key", "aria-hidden": "true" }, i + 1) : null));
      this.board.replaceChildren(...this.items);
    }
    state.jugs.forEach((jug, i) => {
      const node = this.items[i];
      const want = this.game.goal ? this.game.goal[i] : null;
      node.style.setProperty("--fill", jug.held / jug.capacity);
      node.querySelector(".litres").textContent = `${jug.held} / ${jug.capacity} L`;
      node.querySelector(".want").textContent = want === null ? gettext("goal: any") : gettext("goal: %(litres)s L", { litres: want });
      node.classList.toggle("done", want !== null && want === jug.held);
      const words = want === null
        ? gettext("jug %(jug)s: %(held)s of %(capacity)s litres, any amount", { jug: i + 1, held: jug.held, capacity: jug.capacity })
        : gettext("jug %(jug)s: %(held)s of %(capacity)s litres, %(want)s wanted", { jug: i + 1, held: jug.held, capacity: jug.capacity, want });
      node.title = words; // its name is its number and size (read out only), then what it shows
    });
    this.state = state;
  }
}


/** The editor: jug count, then each jug's capacity and contents, and the goal. */
export function createEditor(changed, options = {}) {
  const ed = {
    jugs: [{ held: 0, capacity: 3 }, { held: 0, capacity: 5 }, { held: 8, capacity: 8 }],
    goal: options.goal || "",
    fromText(text) {
      try { ed.jugs = parseJugs(text); } catch { /* keep the last good jugs; the server explains */ }
    },
    toText() { return ed.jugs.map((j) => `${j.held}/${j.capacity}`).join(","); },
    options() { return ed.goal ? { goal: ed.goal } : {}; },
    tools(box) {
      const goal = el("input", { type: "text", name: "goal", value: ed.goal, placeholder: gettext("e.g. *,4,*"),
                                 "data-testid": "editor-goal", size: 12 });
      goal.addEventListener("change", () => { ed.goal = goal.value.trim(); changed(); });
      box.replaceChildren(
        numberInput("jugs", ed.jugs.length, 2, 6, (n) => {
          ed.jugs = Array.from({ length: n }, (_, i) => ed.jugs[i] || { held: 0, capacity: 4 });
          changed();
        }, gettext("jugs")),
        el("label", { class: "tool" }, gettext("goal"), goal),
      );
    },
    render(grid) {
      grid.className = "editor-grid jug-grid";
      grid.replaceChildren(...ed.jugs.map((jug, i) => el("div", { class: "edit-jug", "data-jug": i },
        el("strong", {}, gettext("jug %(jug)s", { jug: i + 1 })),
        numberInput(`capacity-${i + 1}`, jug.capacity, 1, 99, (n) => {
          jug.capacity = n;
          jug.held = Math.min(jug.held, n);
          changed();
        }, gettext("capacity")),
        numberInput(`litres-${i + 1}`, jug.held, 0, jug.capacity, (n) => { jug.held = n; changed(); }, gettext("litres")))));
    },
  };
  return ed;
}

/** The board's keys, for the page's list of keys (shortcuts.js). */
export const keys = [
  [N_("1 to 9, 0"), N_("pick jug 1 to 9 (0: the tenth), first where to pour from, then where to")],
  [N_("Escape"), N_("drop the jug picked")],
];
