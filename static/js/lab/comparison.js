// The lab's comparison: one card per algorithm's search with its live figures
// (positions expanded, frontier, depth, memory, positions per second, time) and, once
// it ends, its result (the card's testid stays "lab-run", a contract name);
// the same figures feed the frontier-by-depth chart (an inline SVG, one line per
// algorithm, in that algorithm's colour) until a replay (replay.js) draws it instead.

import { gettext, movesText, translateReply } from "../i18n.js";

const COUNT = new Intl.NumberFormat("en");
const SVG = "http://www.w3.org/2000/svg";
const CHART = { width: 400, height: 180, left: 44, bottom: 22, top: 10, right: 10 };

/** Bytes in words: "512 B", "3.4 KB", "12.0 MB". */
export function bytesText(bytes) {
  if (bytes < 1024) return gettext("%(count)s B", { count: bytes });
  if (bytes < 1024 * 1024) return gettext("%(count)s KB", { count: (bytes / 1024).toFixed(1) });
  return gettext("%(count)s MB", { count: (bytes / (1024 * 1024)).toFixed(1) });
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function figure(list, label, key) {
  const row = element("div");
  row.append(element("dt", "", label));
  const value = element("dd", "", "–");
  value.dataset.figure = key;
  row.append(value);
  list.append(row);
}

/** One result in words: "22 moves, proven shortest", "no solution (proven)" ... */
export function resultText(result) {
  if (result.status === "solved") {
    const moves = movesText(result.length);
    return result.optimal ? gettext("%(moves)s, proven shortest", { moves }) : gettext("%(moves)s, not proven shortest", { moves });
  }
  if (result.status === "unsolvable") return gettext("no solution (proven)");
  return translateReply(result) || gettext("stopped (%(status)s)", { status: result.status });
}

export class Comparison {
  /** `kinds`: what each algorithm is, in a few words of the reader's language (the page's config). */
  constructor(container, chart, kinds = {}) {
    this.kinds = kinds;
    this.container = container;
    this.chart = chart;
    this.cards = new Map(); // algorithm -> card element
    this.samples = new Map(); // algorithm -> Map(depth -> largest frontier seen there)
    this.replayed = null; // a replay's lines: algorithm -> [[depth, frontier], ...]
    this.drawing = false;
  }

  /** New cards, one per algorithm, in the order asked. */
  start(algorithms) {
    this.container.replaceChildren();
    this.cards.clear();
    this.samples.clear();
    this.replayed = null;
    algorithms.forEach((name, i) => {
      const card = element("article", `panel lab-search lab-colour-${i}`);
      card.dataset.testid = "lab-run";
      card.dataset.algorithm = name;
      card.dataset.nodes = "0";
      const title = element("h2", "", name);
      title.append(element("span", "lab-search-kind", this.kinds[name] || ""));
      const list = element("dl", "lab-figures");
      figure(list, gettext("Positions expanded"), "nodes");
      figure(list, gettext("Frontier"), "frontier");
      figure(list, gettext("Depth"), "depth");
      figure(list, gettext("Memory"), "memory");
      figure(list, gettext("Positions / s"), "rate");
      figure(list, gettext("Time"), "time");
      const outcome = element("p", "lab-search-result", gettext("searching…"));
      outcome.dataset.testid = "lab-run-result";
      card.append(title, list, outcome);
      this.container.append(card);
      this.cards.set(name, card);
      this.samples.set(name, new Map());
    });
    this.drawChart();
  }

  show(card, key, text) {
    const cell = card.querySelector(`[data-figure="${key}"]`);
    if (cell) cell.textContent = text;
  }

  /** The entries its tables hold and their bytes (lab_progress, lab_result). */
  showMemory(card, reply) {
    if (reply.memory === undefined) return;
    card.dataset.memory = String(reply.memory);
    this.show(card, "memory", gettext("%(size)s (%(entries)s held)", { size: bytesText(reply.memory), entries: COUNT.format(reply.stored) }));
  }

  showFigures(card, nodes, seconds) {
    card.dataset.nodes = String(nodes);
    this.show(card, "nodes", COUNT.format(nodes));
    this.show(card, "time", gettext("%(seconds)s s", { seconds: seconds.toFixed(2) }));
    this.show(card, "rate", seconds > 0 ? COUNT.format(Math.round(nodes / seconds)) : "–");
  }

  progress(reply) {
    const card = this.cards.get(reply.algorithm);
    if (!card || card.dataset.length !== undefined) return;
    this.showFigures(card, reply.nodes, reply.elapsed);
    this.show(card, "frontier", COUNT.format(reply.frontier));
    this.show(card, "depth", String(reply.depth));
    this.showMemory(card, reply);
    const seen = this.samples.get(reply.algorithm);
    seen.set(reply.depth, Math.max(seen.get(reply.depth) || 0, reply.frontier));
    this.scheduleChart();
  }

  /** An algorithm's result; true once every algorithm has one. */
  result(reply) {
    const card = this.cards.get(reply.algorithm);
    if (!card) return false;
    this.showFigures(card, reply.nodes, reply.seconds);
    this.showMemory(card, reply);
    card.dataset.status = reply.status;
    if (reply.length !== null && reply.length !== undefined) card.dataset.length = String(reply.length);
    else card.dataset.length = "";
    card.querySelector(".lab-search-result").textContent =
      `${resultText(reply)} · ${gettext("%(nodes)s positions expanded", { nodes: COUNT.format(reply.nodes) })}`;
    return [...this.cards.values()].every((c) => c.dataset.length !== undefined);
  }

  /** The comparison ended without these results (stopped, refused): say so on the cards still open. */
  stopped(message) {
    for (const card of this.cards.values()) {
      if (card.dataset.length === undefined) card.querySelector(".lab-search-result").textContent = message;
    }
  }

  scheduleChart() {
    if (this.drawing) return;
    this.drawing = true;
    requestAnimationFrame(() => { this.drawing = false; this.drawChart(); });
  }

  /** Draw a replay's frontier by depth (algorithm -> [[depth, frontier], ...]) from now on. */
  replayChart(lines) {
    this.replayed = lines;
    this.chart.dataset.replay = "true";
    this.drawChart();
  }

  drawChart() {
    const { width, height, left, bottom, top, right } = CHART;
    const lines = this.replayed
      ? [...this.replayed.entries()]
      : [...this.samples.entries()].map(([name, seen]) => [name, [...seen.entries()].sort((a, b) => a[0] - b[0])]);
    const points = lines.flatMap(([, line]) => line);
    const maxDepth = Math.max(1, ...points.map(([d]) => d));
    const maxFrontier = Math.max(1, ...points.map(([, f]) => f));
    const x = (d) => left + (d / maxDepth) * (width - left - right);
    const y = (f) => height - bottom - (f / maxFrontier) * (height - bottom - top);
    const parts = [];
    const axis = document.createElementNS(SVG, "path");
    axis.setAttribute("d", `M${left},${top}V${height - bottom}H${width - right}`);
    axis.setAttribute("class", "lab-axis");
    parts.push(axis);
    const label = (text, px, py, anchor) => {
      const node = document.createElementNS(SVG, "text");
      node.setAttribute("x", String(px));
      node.setAttribute("y", String(py));
      node.setAttribute("text-anchor", anchor);
      node.setAttribute("class", "lab-axis-label");
      node.textContent = text;
      parts.push(node);
    };
    label(COUNT.format(maxFrontier), left - 4, top + 8, "end");
    label("0", left - 4, height - bottom, "end");
    label(gettext("depth %(depth)s", { depth: maxDepth }), width - right, height - 6, "end");
    if (!points.length && this.cards.size) {
      label(gettext("no samples: too quick to sample"), (left + width) / 2, height / 2, "middle");
    }
    lines.forEach(([name, line]) => {
      if (!line.length) return;
      const index = [...this.cards.keys()].indexOf(name);
      const path = document.createElementNS(SVG, "polyline");
      path.setAttribute("points", line.map(([d, f]) => `${x(d).toFixed(1)},${y(f).toFixed(1)}`).join(" "));
      path.setAttribute("class", `lab-line lab-colour-${index}`);
      path.dataset.algorithm = name;
      parts.push(path);
    });
    this.chart.replaceChildren(...parts);
  }
}
