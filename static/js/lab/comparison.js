// The lab's comparison: one card per algorithm's search with its live figures
// (positions expanded, frontier, depth, memory, positions per second, time) and, once
// it ends, its result (the card's testid stays "lab-run", a contract name);
// the same figures feed the frontier-by-depth chart (an inline SVG, one line per
// algorithm, in that algorithm's colour) until a replay (replay.js) draws it instead.

import { gettext, movesText, translateReply } from "../i18n.js";

const COUNT = new Intl.NumberFormat("en");
const SVG = "http://www.w3.org/2000/svg";
const CHART = { width: 400, height: 180, left: 44, bottom: 30, top: 10, right: 10 };

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
    this.finals = new Map(); // algorithm -> its result's figures, for a run too quick to sample
    this.drawing = false;
  }

  /** New cards, one per algorithm, in the order asked. */
  start(algorithms) {
    this.container.replaceChildren();
    this.cards.clear();
    this.samples.clear();
    this.finals.clear();
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
    this.finals.set(reply.algorithm, { nodes: reply.nodes, length: reply.length });
    this.scheduleChart();
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
    const lines = this.replayed
      ? [...this.replayed.entries()]
      : [...this.samples.entries()].map(([name, seen]) => [name, [...seen.entries()].sort((a, b) => a[0] - b[0])]);
    const parts = lines.some(([, line]) => line.length) ? depthChart(lines, this.colourOf(), this.replayed ? new Map() : this.finals)
      : this.finals.size ? finalsChart(this.finals, this.colourOf()) : emptyChart(this.cards.size > 0);
    this.chart.dataset.scale = parts.scale || "";
    this.chart.dataset.frontierScale = parts.frontierScale || "";
    this.chart.dataset.final = String(Boolean(parts.final));
    this.chart.replaceChildren(...parts.nodes);
  }

  /** Each algorithm's colour class, by its card's place. */
  colourOf() {
    const names = [...this.cards.keys()];
    return (name) => `lab-colour-${names.indexOf(name)}`;
  }
}

function svgNode(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function axes(nodes) {
  const { width, height, left, bottom, top, right } = CHART;
  nodes.push(svgNode("path", { d: `M${left},${top}V${height - bottom}H${width - right}`, class: "lab-axis" }));
}

const label = (text, x, y, anchor, extra = "") => svgNode("text", { x, y, "text-anchor": anchor, class: `lab-axis-label ${extra}`.trim() }, text);

/** Frontier by depth, one line per algorithm. Depths far apart (a depth-first search's
 * tens of thousands beside a breadth-first search's dozens) go on a log scale, so every
 * line keeps its shape instead of a line squashed against the axis. */
function depthChart(lines, colourOf, finals) {
  const { width, height, left, bottom, top, right } = CHART;
  // a search over before its first sample has its final depth (its solution's length) only
  const quick = [...finals.entries()].filter(([name, final]) => Number.isInteger(final.length)
    && !lines.some(([other, line]) => other === name && line.length));
  const ends = lines.filter(([, line]) => line.length).map(([, line]) => line[line.length - 1][0])
    .concat(quick.map(([, final]) => final.length));
  const maxDepth = Math.max(1, ...ends);
  const log = maxDepth > 30 && maxDepth > 5 * Math.max(1, Math.min(...ends));
  // the frontier likewise: a breadth-first search's tens of thousands beside A*'s hundreds
  const peaks = lines.filter(([, line]) => line.length).map(([, line]) => Math.max(...line.map(([, f]) => f)));
  const maxFrontier = Math.max(1, ...peaks);
  const logFrontier = maxFrontier > 100 && maxFrontier > 20 * Math.max(1, Math.min(...peaks));
  const along = (d) => (log ? Math.log10(1 + d) / Math.log10(1 + maxDepth) : d / maxDepth);
  const up = (f) => (logFrontier ? Math.log10(1 + f) / Math.log10(1 + maxFrontier) : f / maxFrontier);
  const x = (d) => left + along(d) * (width - left - right);
  const y = (f) => height - bottom - up(f) * (height - bottom - top);
  const nodes = [];
  axes(nodes);
  nodes.push(label(COUNT.format(maxFrontier), left - 4, top + 8, "end"), label("0", left - 4, height - bottom, "end"));
  for (let tick = 10; logFrontier && tick * 5 < maxFrontier; tick *= 10) {
    nodes.push(svgNode("path", { d: `M${left - 3},${y(tick).toFixed(1)}h3`, class: "lab-axis" }),
               label(COUNT.format(tick), left - 4, y(tick) + 3, "end"));
  }
  if (log) {
    for (let tick = 10; tick < maxDepth; tick *= 10) {
      nodes.push(svgNode("path", { d: `M${x(tick).toFixed(1)},${height - bottom}v4`, class: "lab-axis" }),
                 label(COUNT.format(tick), x(tick), height - bottom + 13, "middle"));
    }
  }
  nodes.push(label(log ? gettext("depth %(depth)s (log scale)", { depth: COUNT.format(maxDepth) })
    : gettext("depth %(depth)s", { depth: maxDepth }), width - right, height - 3, "end", "lab-axis-end"));
  for (const [name, line] of lines) {
    if (!line.length) continue;
    const points = line.map(([d, f]) => `${x(d).toFixed(1)},${y(f).toFixed(1)}`);
    if (points.length === 1) points.push(points[0]); // one depth: still a mark
    nodes.push(svgNode("polyline", { points: points.join(" "), class: `lab-line ${colourOf(name)}`, "data-algorithm": name }));
  }
  quick.forEach(([name, final], k) => {
    const at = x(final.length);
    nodes.push(svgNode("circle", { cx: at.toFixed(1), cy: height - bottom, r: 4, class: `lab-final ${colourOf(name)}`, "data-algorithm": name }),
               label(gettext("%(algorithm)s: too quick to sample, ended at depth %(depth)s", { algorithm: name, depth: COUNT.format(final.length) }),
                     Math.min(at, width - right), height - bottom - 8 - 12 * k, at > width / 2 ? "end" : "start"));
  });
  if (logFrontier) nodes.push(label(gettext("frontier (log scale)"), 2, height - 3, "start", "lab-axis-end"));
  return { nodes, scale: log ? "log" : "linear", frontierScale: logFrontier ? "log" : "linear" };
}

/** A run over before its first sample (a few milliseconds): each algorithm's final
 * figures instead, a bar of the positions it expanded, with its solution's length. */
function finalsChart(finals, colourOf) {
  const { width, height, left, bottom, top, right } = CHART;
  const nodes = [];
  axes(nodes);
  const most = Math.max(1, ...[...finals.values()].map((f) => f.nodes));
  const slot = (width - left - right) / finals.size;
  [...finals.entries()].forEach(([name, final], k) => {
    const tall = (final.nodes / most) * (height - bottom - top);
    const x = left + k * slot + slot * 0.2;
    nodes.push(svgNode("rect", { x: x.toFixed(1), y: (height - bottom - tall).toFixed(1), width: (slot * 0.6).toFixed(1),
                                 height: Math.max(1, tall).toFixed(1), class: `lab-bar ${colourOf(name)}`, "data-algorithm": name }),
               label(`${name}: ${COUNT.format(final.nodes)}`, x + slot * 0.3, height - bottom - tall - 4, "middle"));
  });
  nodes.push(label(gettext("too quick to sample: the positions each expanded"), width - right, height - 3, "end", "lab-axis-end"));
  return { nodes, final: true };
}

function emptyChart(searching) {
  const { width, height, left } = CHART;
  const nodes = [];
  axes(nodes);
  if (searching) nodes.push(label(gettext("searching…"), (left + width) / 2, height / 2, "middle"));
  return { nodes };
}
