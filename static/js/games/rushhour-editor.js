// The Rush Hour board editor: pick a tool (the red car, a car or a truck lying or
// standing, a wall), then click the cell its first (top or left) cell goes on; a click
// on something placed takes it away. Vehicles are lettered B, C ... as they are placed.

import { el, button } from "../board.js";
import { EMPTY, EXIT_ROW, RED, SIDE, WALL, cellsOf, vehiclesOf } from "./rushhour-moves.js";
import { kindOf, paintOf } from "./rushhour.js";
import { gettext } from "../i18n.js";

const LETTERS = "BCDEFGHIJKLMNOPQRSTUVWXYZ";
/** The tools: what a click places (length 0: a wall; red: the red car on its row). */
const TOOLS = [
  { name: "red", length: 2, horizontal: true, words: () => gettext("red car") },
  { name: "car-across", length: 2, horizontal: true, words: () => gettext("car, lying") },
  { name: "car-upright", length: 2, horizontal: false, words: () => gettext("car, standing") },
  { name: "truck-across", length: 3, horizontal: true, words: () => gettext("truck, lying") },
  { name: "truck-upright", length: 3, horizontal: false, words: () => gettext("truck, standing") },
  { name: "wall", length: 1, horizontal: true, words: () => gettext("wall") },
];

export function createEditor(changed) {
  const ed = {
    help: gettext("Pick a vehicle or a wall, then click the cell for its top or left end; click something placed to take it away. The red car lies on the third row and leaves on the right."),
    cells: Array(SIDE * SIDE).fill(EMPTY),
    tool: TOOLS[1],
    problem: "",
    fromText(text) {
      const board = String(text).trim();
      if (board.length === SIDE * SIDE) ed.cells = [...board].map((ch) => (ch === "." ? EMPTY : ch));
    },
    toText() { return ed.cells.join(""); },
    options() { return {}; },

    /** Place the tool's piece with its first cell at (r, c), or take away what is there. */
    click(r, c) {
      const here = ed.cells[r * SIDE + c];
      ed.problem = "";
      if (here !== EMPTY) {
        ed.cells = ed.cells.map((ch) => (ch === here ? EMPTY : ch));
      } else if (ed.tool.name === "wall") {
        ed.cells[r * SIDE + c] = WALL;
      } else {
        const red = ed.tool.name === "red";
        const v = { r: red ? EXIT_ROW : r, c, length: ed.tool.length, horizontal: ed.tool.horizontal };
        const cells = cellsOf(v);
        const label = red ? RED : [...LETTERS].find((l) => !ed.cells.includes(l));
        if (!label) ed.problem = gettext("The board holds no more vehicles.");
        else if (cells.some(([rr, cc]) => rr >= SIDE || cc >= SIDE || ![EMPTY, label].includes(ed.cells[rr * SIDE + cc]))) {
          ed.problem = gettext("It does not fit there.");
        } else {
          if (red) ed.cells = ed.cells.map((ch) => (ch === RED ? EMPTY : ch));
          for (const [rr, cc] of cells) ed.cells[rr * SIDE + cc] = label;
        }
      }
      changed();
    },

    tools(box) {
      box.replaceChildren(
        el("span", { class: "tool-label" }, gettext("place")),
        ...TOOLS.map((tool) => {
          const b = el("button", { type: "button", class: `swatch tool-${tool.name}`, "data-tool": tool.name,
                                   "aria-pressed": String(tool === ed.tool) }, tool.words());
          b.addEventListener("click", () => { ed.tool = tool; changed(); });
          return b;
        }),
        button(gettext("Clear"), { "data-testid": "editor-clear" }, () => { ed.cells = ed.cells.map(() => EMPTY); changed(); }),
        el("span", { class: "tool-note", role: "status" }, ed.problem),
      );
    },

    render(grid) {
      grid.style.setProperty("--cols", SIDE);
      grid.className = "editor-grid rushhour-grid";
      const vehicles = vehiclesOf({ cells: ed.cells });
      grid.replaceChildren(...ed.cells.map((ch, i) => {
        const [r, c] = [Math.floor(i / SIDE), i % SIDE];
        const v = vehicles.get(ch);
        const what = ch === EMPTY ? gettext("empty") : ch === WALL ? gettext("wall") : ch;
        const cell = el("button", {
          type: "button", class: `cell ${v ? kindOf(ch, v) : ch === WALL ? "wall" : ""}`.trim(),
          "data-cell": `${r},${c}`, "data-paint": v ? paintOf(ch) : null,
          "aria-label": gettext("row %(row)s column %(column)s: %(what)s", { row: r + 1, column: c + 1, what }),
        }, v ? ch : "");
        if (r === EXIT_ROW && c === SIDE - 1) cell.classList.add("exit-cell");
        cell.addEventListener("click", () => ed.click(r, c));
        return cell;
      }));
    },
  };
  return ed;
}
