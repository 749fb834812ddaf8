// The distance graph: the distance to solved of every position of the line
// played, as an inline SVG chart (lichess draws the evaluation this way). A
// wasted move's point is a cross, an unsolvable one a square at the top, so
// shape and words say it, not only colour. Clicking a point (or Enter on it)
// jumps there; arrow keys, Home and End walk the line; later moves stay redoable.

import { distanceData, distanceText, moveText } from "./line.js";
import { gettext } from "../i18n.js";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 96;
const PAD = 10;
const LEFT = 26; // room for the scale's numbers
const INSET = 1.5; // half the focus stroke: the box drawn on a focused point stays inside

function svg(tag, attrs = {}) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  return node;
}

function label(point, say) {
  const where = point.ply === 0 ? gettext("start") : gettext("after move %(move)s (%(text)s)", { move: point.ply, text: say(moveText(point.entry)) });
  const distance = distanceText(point);
  const what = distance === "?" ? gettext("distance not known yet")
    : distance === "unsolvable" ? gettext("unsolvable")
      : gettext("%(moves)s to solve", { moves: distance }) + (point.interim ? gettext(" (interim)") : "");
  return `${where}: ${what}${point.wasted ? gettext(", wasted move") : ""}`;
}

function marker(point, x, y) {
  if (point.solvable === false && point.optimal) {
    return svg("rect", { class: "mark dead", x: x - 4, y: y - 4, width: 8, height: 8 });
  }
  if (point.distance === null) return svg("circle", { class: "mark unknown", cx: x, cy: y, r: 3 });
  if (point.wasted) return svg("path", { class: "mark wasted", d: `M${x - 4} ${y - 4}l8 8m0 -8l-8 8` });
  return svg("circle", { class: `mark${point.optimal ? "" : " bound"}`, cx: x, cy: y, r: 3.5 });
}

/** Draw `points` (from lineOf) into `box`; `cursor` is the current ply; `jump(ply)`. A line
 * with no distance known anywhere is no graph: with `why` (what keeps them unknown) given,
 * the box says that instead of drawing points that mean nothing. */
export function drawGraph(box, points, cursor, jump, why = null, say = (text) => text) {
  // redrawn only when something shown changed, so a click is never lost to a redraw
  const key = JSON.stringify([cursor, why, points.map((p) => [p.board, p.distance, p.optimal, p.solvable, p.wasted, p.interim])]);
  if (box.coachKey === key) return;
  box.coachKey = key;
  if (why && points.every((p) => p.distance === null && p.solvable !== false)) {
    const note = document.createElement("p");
    note.className = "graph-note";
    note.dataset.testid = "graph-note";
    note.textContent = why;
    box.replaceChildren(note);
    return;
  }
  const focused = box.contains(document.activeElement);
  const known = points.map((p) => p.distance).filter((d) => d !== null);
  const top = Math.max(1, ...known);
  // a long puzzle's first moves would be a flat line at the top: show the range played
  // (the scale's numbers say where it starts) until the line comes near solved
  const low = known.length ? Math.min(...known) : 0;
  const bottom = known.length > 1 && low > top * 0.5 ? Math.max(0, low - Math.ceil((top - low) / 2) - 1) : 0;
  const step = (WIDTH - LEFT - PAD) / Math.max(1, points.length - 1);
  const xOf = (ply) => (points.length === 1 ? (WIDTH + LEFT) / 2 : LEFT + ply * step);
  const yOf = (p) => (p.solvable === false && p.optimal ? PAD
    : p.distance === null ? HEIGHT / 2
      : HEIGHT - PAD - ((p.distance - bottom) / Math.max(1, top - bottom)) * (HEIGHT - 2 * PAD));
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "graph-svg", role: "group",
                              "aria-label": gettext("distance to solved after each move; arrow keys walk the line") });
  chart.append(svg("line", { class: "axis", x1: LEFT, y1: HEIGHT - PAD, x2: WIDTH - PAD, y2: HEIGHT - PAD }));
  for (const [value, y] of [[top, PAD], [bottom, HEIGHT - PAD]]) {
    const scale = svg("text", { class: "scale", x: LEFT - 6, y: y + 4, "text-anchor": "end", "aria-hidden": "true" });
    scale.textContent = String(value);
    chart.append(scale);
  }
  let path = "";
  points.forEach((p, i) => {
    if (p.distance === null) return;
    path += `${i && points[i - 1].distance !== null ? "L" : "M"}${xOf(i).toFixed(1)} ${yOf(p).toFixed(1)}`;
  });
  chart.append(svg("path", { class: "trace", d: path }));
  if (cursor < points.length - 1) {
    chart.append(svg("rect", { class: "ahead", x: xOf(cursor) + step / 2, y: 0,
                               width: WIDTH - xOf(cursor) - step / 2, height: HEIGHT }));
  }
  for (const p of points) {
    const x = xOf(p.ply);
    const y = yOf(p);
    const group = svg("g", {
      class: `point${p.ply === cursor ? " current" : ""}${p.ply > cursor ? " redo" : ""}`,
      "data-testid": "graph-point", "data-ply": p.ply, "data-distance": distanceData(p), "data-optimal": String(p.optimal),
      "data-wasted": p.wasted ? "" : null, "data-current": p.ply === cursor ? "" : null,
      "data-interim": p.interim ? "" : null,
      tabindex: p.ply === cursor ? "0" : "-1", role: "button", "aria-label": label(p, say),
      "aria-current": p.ply === cursor ? "step" : null,
    });
    // the hit area (and the focus box drawn on it) stays inside the chart
    const width = points.length === 1 ? 24 : Math.max(step, 1);
    const left = Math.max(INSET, x - width / 2);
    const right = Math.min(WIDTH - INSET, x + width / 2);
    group.append(svg("rect", { class: "hit", x: left, y: INSET, width: Math.max(1, right - left), height: HEIGHT - 2 * INSET }));
    if (p.ply === cursor) group.append(svg("circle", { class: "ring", cx: x, cy: y, r: 6.5 }));
    group.append(marker(p, x, y));
    const title = svg("title");
    title.textContent = label(p, say);
    group.append(title);
    group.addEventListener("click", () => jump(p.ply));
    chart.append(group);
  }
  chart.addEventListener("keydown", (event) => walk(event, cursor, points.length - 1, jump));
  box.replaceChildren(chart);
  if (focused) {
    const current = box.querySelector('[data-current]');
    if (current) current.focus();
  }
}

/** Keys on the graph: they stay here (arrows must not also move a piece). */
function walk(event, cursor, last, jump) {
  const target = { ArrowLeft: cursor - 1, ArrowRight: cursor + 1, Home: 0, End: last }[event.key];
  const point = event.target.closest && event.target.closest("[data-ply]");
  if (target === undefined && !(point && (event.key === "Enter" || event.key === " "))) return;
  event.preventDefault();
  event.stopPropagation();
  const ply = target === undefined ? Number(point.dataset.ply) : target;
  if (ply >= 0 && ply <= last && ply !== cursor) jump(ply);
}
