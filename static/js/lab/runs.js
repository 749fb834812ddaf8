// The lab's runs: one card per algorithm with its live figures (positions expanded,
// frontier, depth, positions per second, time) and, once it ends, its result; the
// same figures feed the frontier-by-depth chart (an inline SVG, one line per
// algorithm, in that algorithm's colour).

const COUNT = new Intl.NumberFormat("en");
const SVG = "http://www.w3.org/2000/svg";
const CHART = { width: 400, height: 180, left: 44, bottom: 22, top: 10, right: 10 };

/** What each algorithm is, in a few words (the card's subtitle). */
export const ALGORITHM_NAMES = {
  bfs: "breadth-first",
  dfs: "depth-first",
  bidirectional: "bidirectional breadth-first",
  astar: "A* (shortest guided by a lower bound)",
  idastar: "IDA* (A* in iterative deepening)",
};

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
    const moves = `${result.length} move${result.length === 1 ? "" : "s"}`;
    return `${moves}, ${result.optimal ? "proven shortest" : "not proven shortest"}`;
  }
  if (result.status === "unsolvable") return "no solution (proven)";
  return result.message || `stopped (${result.status})`;
}

export class Runs {
  constructor(container, chart) {
    this.container = container;
    this.chart = chart;
    this.cards = new Map(); // algorithm -> card element
    this.samples = new Map(); // algorithm -> Map(depth -> largest frontier seen there)
    this.drawing = false;
  }

  /** New cards, one per algorithm, in the order asked. */
  start(algorithms) {
    this.container.replaceChildren();
    this.cards.clear();
    this.samples.clear();
    algorithms.forEach((name, i) => {
      const card = element("article", `panel lab-run lab-colour-${i}`);
      card.dataset.testid = "lab-run";
      card.dataset.algorithm = name;
      card.dataset.nodes = "0";
      const title = element("h2", "", name);
      title.append(element("span", "lab-run-kind", ALGORITHM_NAMES[name] || ""));
      const list = element("dl", "lab-figures");
      figure(list, "Positions expanded", "nodes");
      figure(list, "Frontier", "frontier");
      figure(list, "Depth", "depth");
      figure(list, "Positions / s", "rate");
      figure(list, "Time", "time");
      const outcome = element("p", "lab-run-result", "searching…");
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

  showFigures(card, nodes, seconds) {
    card.dataset.nodes = String(nodes);
    this.show(card, "nodes", COUNT.format(nodes));
    this.show(card, "time", `${seconds.toFixed(2)} s`);
    this.show(card, "rate", seconds > 0 ? COUNT.format(Math.round(nodes / seconds)) : "–");
  }

  progress(reply) {
    const card = this.cards.get(reply.algorithm);
    if (!card || card.dataset.length !== undefined) return;
    this.showFigures(card, reply.nodes, reply.elapsed);
    this.show(card, "frontier", COUNT.format(reply.frontier));
    this.show(card, "depth", String(reply.depth));
    const seen = this.samples.get(reply.algorithm);
    seen.set(reply.depth, Math.max(seen.get(reply.depth) || 0, reply.frontier));
    this.scheduleChart();
  }

  /** An algorithm's result; true once every algorithm has one. */
  result(reply) {
    const card = this.cards.get(reply.algorithm);
    if (!card) return false;
    this.showFigures(card, reply.nodes, reply.seconds);
    card.dataset.status = reply.status;
    if (reply.length !== null && reply.length !== undefined) card.dataset.length = String(reply.length);
    else card.dataset.length = "";
    card.querySelector(".lab-run-result").textContent =
      `${resultText(reply)} · ${COUNT.format(reply.nodes)} positions expanded`;
    return [...this.cards.values()].every((c) => c.dataset.length !== undefined);
  }

  /** The run ended without these results (stopped, refused): say so on the cards still open. */
  stopped(message) {
    for (const card of this.cards.values()) {
      if (card.dataset.length === undefined) card.querySelector(".lab-run-result").textContent = message;
    }
  }

  scheduleChart() {
    if (this.drawing) return;
    this.drawing = true;
    requestAnimationFrame(() => { this.drawing = false; this.drawChart(); });
  }

  drawChart() {
    const { width, height, left, bottom, top, right } = CHART;
    const lines = [...this.samples.entries()].map(([name, seen]) => [name, [...seen.entries()].sort((a, b) => a[0] - b[0])]);
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
    label(`depth ${maxDepth}`, width - right, height - 6, "end");
    if (!points.length && this.cards.size) {
      label("no samples: too quick to sample", (left + width) / 2, height / 2, "middle");
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
