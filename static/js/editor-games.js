// The board editor's per-game parts: each builds its tool bar and grid, turns
// clicks into board text and reads board text back. Validation is NOT done here:
// the server's solver judges every board, so messages match the CLI exactly.

import { el } from "./board.js";
import { swatch } from "./games/watersort.js";

const LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz";

function pieceColour(label) {
  if (label === "A") return "#e4572e";
  const code = label.codePointAt(0);
  return `hsl(${(code * 67) % 360} 55% 55%)`;
}

function numberInput(name, value, min, max, onChange) {
  const input = el("input", { type: "number", name, min, max, value, "data-testid": `editor-${name}` });
  input.addEventListener("change", () => onChange(Math.max(min, Math.min(max, Number(input.value) || min))));
  return el("label", { class: "tool" }, name, input);
}

/** Klotski: paint cells with the chosen piece label; sizes 2..10. */
export function klotskiEditor(changed) {
  const ed = {
    rows: [],
    current: "A",
    fromText(text) {
      const rows = String(text).split("/").filter((r) => r.length);
      if (rows.length) ed.rows = rows.map((r) => r.split(""));
    },
    toText() { return ed.rows.map((r) => r.join("")).join("/"); },
    options() { return {}; },
    resize(height, width) {
      ed.rows = Array.from({ length: height }, (_, r) =>
        Array.from({ length: width }, (_, c) => (ed.rows[r] && ed.rows[r][c]) || "."));
      changed();
    },
    nextFree() {
      const used = new Set(ed.rows.flat());
      return [...LABELS].find((l) => !used.has(l)) || "A";
    },
    tools(box) {
      const height = ed.rows.length;
      const width = ed.rows[0] ? ed.rows[0].length : 4;
      const used = [...new Set(ed.rows.flat())].filter((l) => l !== ".").sort();
      if (!used.includes(ed.current)) used.push(ed.current);
      box.replaceChildren(
        numberInput("width", width, 2, 10, (w) => ed.resize(ed.rows.length, w)),
        numberInput("height", height, 2, 10, (h) => ed.resize(h, ed.rows[0].length)),
        el("span", { class: "tool-label" }, "piece"),
        ...used.sort().map((l) => {
          const b = el("button", { type: "button", class: "swatch", "data-label": l, "aria-pressed": String(l === ed.current),
                                   style: { background: pieceColour(l) } }, l);
          b.addEventListener("click", () => { ed.current = l; changed(); });
          return b;
        }),
        (() => {
          const b = el("button", { type: "button", class: "btn small", "data-testid": "editor-new-piece" }, "New piece");
          b.addEventListener("click", () => { ed.current = ed.nextFree(); changed(); });
          return b;
        })(),
        (() => {
          const b = el("button", { type: "button", class: "btn small", "data-testid": "editor-clear" }, "Clear");
          b.addEventListener("click", () => { ed.rows = ed.rows.map((r) => r.map(() => ".")); changed(); });
          return b;
        })(),
      );
    },
    render(grid) {
      const width = ed.rows[0] ? ed.rows[0].length : 0;
      grid.style.setProperty("--cols", width);
      grid.className = "editor-grid klotski-grid";
      grid.replaceChildren(...ed.rows.flatMap((row, r) => row.map((ch, c) => {
        const cell = el("button", { type: "button", class: "cell", "data-cell": `${r},${c}`,
                                    "aria-label": `row ${r + 1} column ${c + 1}: ${ch === "." ? "empty" : ch}`,
                                    style: ch === "." ? {} : { background: pieceColour(ch) } }, ch === "." ? "" : ch);
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

/** Water sort: pour the chosen colour into tubes one unit at a time. */
export function watersortEditor(changed, capacity) {
  const ed = {
    tubes: ["", "", "", ""],
    capacity: Number(capacity) || 4,
    current: "A",
    fromText(text) { ed.tubes = String(text).split(","); },
    toText() { return ed.tubes.join(","); },
    options() { return { capacity: ed.capacity }; },
    tools(box) {
      const colours = [..."ABCDEFGHIJKL"];
      box.replaceChildren(
        numberInput("capacity", ed.capacity, 1, 12, (n) => { ed.capacity = n; changed(); }),
        numberInput("tubes", ed.tubes.length, 1, 30, (n) => {
          ed.tubes = Array.from({ length: n }, (_, i) => ed.tubes[i] || "");
          changed();
        }),
        el("span", { class: "tool-label" }, "colour"),
        ...colours.map((ch) => {
          const b = el("button", { type: "button", class: "swatch", "data-colour": ch, "aria-pressed": String(ch === ed.current),
                                   style: { background: swatch(ch).colour } }, ch);
          b.addEventListener("click", () => { ed.current = ch; changed(); });
          return b;
        }),
        (() => {
          const b = el("button", { type: "button", class: "btn small", "data-testid": "editor-remove",
                                   "aria-pressed": String(ed.current === null) }, "Remove");
          b.addEventListener("click", () => { ed.current = null; changed(); });
          return b;
        })(),
      );
    },
    render(grid) {
      grid.className = "editor-grid tube-grid";
      grid.style.setProperty("--capacity", ed.capacity);
      grid.replaceChildren(...ed.tubes.map((tube, i) => {
        const node = el("button", { type: "button", class: "edit-tube", "data-tube": i, "aria-label": `tube ${i + 1}` },
          ...[...tube].map((ch) => el("span", { class: "edit-unit", style: { background: swatch(ch).colour } }, ch)));
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

/** N-puzzle: click two tiles to swap them. */
export function npuzzleEditor(changed) {
  const ed = {
    tiles: [1, 2, 3, 4, 5, 6, 7, 8, 0],
    picked: null,
    fromText(text) {
      const words = String(text).trim().split(/[\s,/]+/).filter(Boolean);
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
      box.replaceChildren(el("label", { class: "tool" }, "size", select));
    },
    render(grid) {
      grid.className = "editor-grid tile-grid";
      grid.style.setProperty("--cols", ed.size());
      grid.replaceChildren(...ed.tiles.map((t, i) => {
        const node = el("button", { type: "button", class: "edit-tile", "data-tile": t, "data-cell": i,
                                    "aria-pressed": String(ed.picked === i) }, String(t) === "0" ? "" : String(t));
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

export const EDITORS = { klotski: klotskiEditor, watersort: watersortEditor, npuzzle: npuzzleEditor };
