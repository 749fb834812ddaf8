// The Klotski board editor: paint cells with a piece's label; each piece is drawn
// in its shape's colour, as the game draws it (the 2x2 is the goal piece).

import { el, numberInput, button } from "../board.js";
import { shapeClass } from "./klotski.js";
import { gettext } from "../i18n.js";

const EMPTY = ".";
const GOAL = { h: 2, w: 2 };
const LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz";

/** Each label's shape class, drawn as the game draws it: the 2x2 is the goal piece. */
function shapes(rows) {
  const boxes = new Map();
  rows.forEach((row, r) => row.forEach((ch, c) => {
    if (ch === EMPTY) return;
    const b = boxes.get(ch) || { r0: r, c0: c, r1: r, c1: c };
    boxes.set(ch, { r0: Math.min(b.r0, r), c0: Math.min(b.c0, c), r1: Math.max(b.r1, r), c1: Math.max(b.c1, c) });
  }));
  const out = new Map();
  for (const [label, b] of boxes) out.set(label, shapeClass({ h: b.r1 - b.r0 + 1, w: b.c1 - b.c0 + 1 }, GOAL));
  return out;
}

/** The editor: paint cells with the chosen piece label; sizes 2..10. */
export function createEditor(changed) {
  const ed = {
    help: gettext("Pick a piece, then click cells to paint it (click a painted cell again to clear it). Each piece must be a solid rectangle; the one 2x2 piece must reach the bottom centre."),
    rows: [],
    current: "A",
    fromText(text) {
      const rows = String(text).split("/").filter((r) => r.length);
      if (rows.length) ed.rows = rows.map((r) => r.split(""));
    },
    toText() { return ed.rows.map((r) => r.join("")).join("/"); },
    options() { return {}; },
    resize(height, width) {
      ed.rows = Array.from({ length: height }, (_, r) => Array.from({ length: width }, (_, c) => ed.rows[r]?.[c] || "."));
      changed();
    },
    tools(box) {
      const onBoard = new Set(ed.rows.flat());
      const used = [...onBoard, ed.current].filter((l, i, all) => l !== "." && all.indexOf(l) === i);
      const shape = shapes(ed.rows);
      const free = () => [...LABELS].find((l) => !onBoard.has(l)) || "A";
      box.replaceChildren(
        numberInput("width", ed.rows[0] ? ed.rows[0].length : 4, 2, 10, (w) => ed.resize(ed.rows.length, w), gettext("width")),
        numberInput("height", ed.rows.length, 2, 10, (h) => ed.resize(h, ed.rows[0].length), gettext("height")),
        el("span", { class: "tool-label" }, gettext("piece")),
        ...used.sort().map((l) => {
          const b = el("button", { type: "button", class: `swatch ${shape.get(l) || "unplaced"}`, "data-label": l,
                                   "aria-pressed": String(l === ed.current) }, l);
          b.addEventListener("click", () => { ed.current = l; changed(); });
          return b;
        }),
        button(gettext("New piece"), { "data-testid": "editor-new-piece" }, () => { ed.current = free(); changed(); }),
        button(gettext("Clear"), { "data-testid": "editor-clear" }, () => { ed.rows = ed.rows.map((r) => r.map(() => ".")); changed(); }),
      );
    },
    render(grid) {
      grid.style.setProperty("--cols", ed.rows[0] ? ed.rows[0].length : 0);
      grid.className = "editor-grid klotski-grid";
      const shape = shapes(ed.rows);
      const emptyWord = gettext("empty");
      grid.replaceChildren(...ed.rows.flatMap((row, r) => row.map((ch, c) => {
        const cell = el("button", { type: "button", class: `cell ${shape.get(ch) || ""}`.trim(), "data-cell": `${r},${c}`,
                                    "aria-label": gettext("row %(row)s column %(column)s: %(what)s", { row: r + 1, column: c + 1, what: ch === EMPTY ? emptyWord : ch }) },
                        ch === EMPTY ? "" : ch);
        cell.addEventListener("click", () => {
          ed.rows[r][c] = ed.rows[r][c] === ed.current ? "." : ed.current;
          changed();
        });
        return cell;
      })));
    },
  };
  return ed;
}
