// The state space in WebGL: sigma.js over graphology (the vendored globals `Sigma` and
// `graphology`). Every position reachable from the board comes from
// GET /api/graph/<game>; a worker lays it out (layout-worker.js); positions are
// coloured by distance to solved, the start and a shortest line from it drawn large;
// clicking a position shows its board and a link to play from there.
//
// A replay (replay.js) shows one search's visiting order over it: the positions it
// had expanded by a step keep their colour, the rest are greyed, the last one is
// drawn large, and at the end the search's own solution is drawn thick.
//
// The element's data-nodes and data-edges say how many positions and moves were
// drawn (set as soon as they are known, so a browser without WebGL still says so);
// during a replay data-step is the step shown, data-visited how many positions it
// has expanded by then, data-path the solution's moves once shown.

import { gettext, movesText, translateReply } from "../i18n.js";

const COUNT = new Intl.NumberFormat("en");
const UNSOLVABLE_COLOUR = "#8a8a8a";
const EDGE_COLOUR = "rgba(128, 128, 128, 0.22)";
const PATH_COLOUR = "#e4572e";
const UNVISITED_COLOUR = "rgba(128, 128, 128, 0.45)";
const CURRENT_COLOUR = "#0b84f3";
const NEVER = 2 ** 31 - 1;
const BIG_GRAPH = 5000; // positions: smaller dots, and the moves hidden while it moves

// the distance ramp: solved, a third of the way, two thirds, farthest (RGB)
const RAMP = [[46, 157, 107], [230, 180, 80], [228, 87, 46], [124, 58, 237]];

/** Distance d of `far` as a colour (hex, as WebGL takes it): green when solved,
 * through yellow and orange, to violet at the farthest. */
export function distanceColour(distance, far) {
  if (distance === null || distance === undefined) return UNSOLVABLE_COLOUR;
  const t = (far > 0 ? distance / far : 0) * (RAMP.length - 1);
  const k = Math.min(RAMP.length - 2, Math.floor(t));
  const mix = RAMP[k].map((low, c) => Math.round(low + (RAMP[k + 1][c] - low) * (t - k)));
  return `#${mix.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

/** Node indices of a shortest line from position 0 to solved, following moves down
 * one distance at a time (empty when the start is unsolvable). */
export function shortestLine(nodes, edges) {
  if (!nodes.length || nodes[0].distance === null) return [];
  const out = new Map();
  for (const [from, to] of edges) {
    if (!out.has(from)) out.set(from, []);
    out.get(from).push(to);
  }
  const line = [0];
  let at = 0;
  while (nodes[at].distance > 0) {
    at = (out.get(at) || []).find((to) => nodes[to].distance === nodes[at].distance - 1);
    if (at === undefined) break;
    line.push(at);
  }
  return line;
}

function layOut(nodes, edges) {
  const distances = Int32Array.from(nodes, (n) => (n.distance === null ? -1 : n.distance));
  const pairs = Uint32Array.from(edges.flat());
  const worker = new Worker(new URL("./layout-worker.js", import.meta.url), { type: "module" });
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => { worker.terminate(); resolve(event.data); };
    worker.onerror = (event) => { worker.terminate(); reject(new Error(event.message || gettext("the layout failed"))); };
    worker.postMessage({ count: nodes.length, distances, edges: pairs }, [distances.buffer, pairs.buffer]);
  });
}

function legend(element, far) {
  const bar = document.createElement("span");
  bar.className = "lab-legend-bar";
  const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => distanceColour(Math.round(t * far), far));
  bar.style.background = `linear-gradient(to right, ${stops.join(", ")})`;
  const low = document.createElement("span");
  low.textContent = gettext("solved");
  const high = document.createElement("span");
  high.textContent = gettext("%(moves)s away", { moves: movesText(far) });
  element.replaceChildren(low, bar, high);
}

/** A search's visiting order over the drawn graph, shown a step at a time. */
class VisitView {
  constructor(element, renderer, count) {
    this.element = element;
    this.renderer = renderer;
    this.count = count;
    this.visits = null; // the search being shown, with visitedAt and distinct
    this.step = 0;
    this.moving = false; // a big graph's moves hidden while the replay plays
  }

  /** The replay plays (true) or stands: a big graph hides its moves while it plays,
   * as while it is dragged (sigma's hideEdgesOnMove, told the view moves), so each
   * step redraws the positions alone; drawing the hidden moves halved the frame rate. */
  playing(playing) {
    const moving = playing && this.count > BIG_GRAPH;
    if (moving === this.moving) return;
    this.moving = moving;
    this.renderer.getMouseCaptor().isMoving = moving;
    this.renderer.scheduleRender();
  }

  /** Show `visits` ({order, path, ...}, from /api/visits) from step 0. */
  load(visits) {
    const visitedAt = new Int32Array(this.count).fill(NEVER);
    const distinct = new Int32Array(visits.order.length + 1);
    visits.order.forEach((node, k) => {
      const fresh = node >= 0 && visitedAt[node] === NEVER;
      if (fresh) visitedAt[node] = k;
      distinct[k + 1] = distinct[k] + (fresh ? 1 : 0);
    });
    const path = visits.path.filter((node) => node >= 0);
    const pathEdges = new Set(path.slice(1).map((to, k) => `${Math.min(path[k], to)}-${Math.max(path[k], to)}`));
    this.visits = { ...visits, visitedAt, distinct, pathNodes: new Set(path), pathEdges };
    this.step = -1;
    this.show(0);
  }

  get done() { return Boolean(this.visits) && this.step >= this.visits.order.length; }

  /** Show the positions expanded in the first `step` expansions (the solution at the end). */
  show(step) {
    const visits = this.visits;
    if (!visits) return;
    const last = visits.order.length;
    step = Math.max(0, Math.min(last, step));
    if (step === this.step) return;
    const before = this.step;
    const wasDone = this.done;
    this.step = step;
    // sigma clears the flag once the mouse has been still a moment: set it each step
    if (this.moving) this.renderer.getMouseCaptor().isMoving = true;
    const forward = before >= 0 && step > before && step - before < 5000 && !wasDone;
    if (forward && !this.done) {
      const changed = visits.order.slice(Math.max(0, before - 1), step).filter((n) => n >= 0);
      this.renderer.refresh({ partialGraph: { nodes: changed }, skipIndexation: true, schedule: true });
    } else {
      this.renderer.refresh({ skipIndexation: true, schedule: true });
    }
    this.element.dataset.step = String(step);
    this.element.dataset.visited = String(visits.distinct[step]);
    this.element.dataset.path = this.done && visits.length !== null ? String(visits.length) : "";
  }

  node(key, data) {
    const visits = this.visits;
    if (!visits) return data;
    const i = Number(key);
    if (this.done && visits.pathNodes.has(i)) return { ...data, type: "circle", color: PATH_COLOUR, size: Math.max(data.size, 3), zIndex: 2 };
    const at = visits.visitedAt[i];
    if (at >= this.step) return { ...data, color: UNVISITED_COLOUR, label: i === 0 ? data.label : null };
    // (no change of type here: a step refreshes only the nodes it changes, in place)
    if (visits.order[this.step - 1] === i) return { ...data, color: CURRENT_COLOUR, size: Math.max(data.size * 3, 6), zIndex: 2 };
    return data;
  }

  edge(key, data) {
    if (!this.visits) return data;
    if (this.done && this.visits.pathEdges.has(key)) return { ...data, type: "line", color: PATH_COLOUR, size: 6, zIndex: 1 };
    if (data.type === "line") return { ...data, type: "thin", color: EDGE_COLOUR, size: 0.5, zIndex: 0 };
    return data;
  }
}

/**
 * Fetch and draw the state graph of `config` into `element`; `say(text)` reports in
 * words; `onPick(node)` gets {board, distance} of a clicked position. Returns
 * {renderer, visits} (visits: the VisitView a replay drives), or null when nothing
 * is drawn.
 */
export async function drawStateGraph(element, config, { say, onPick, legendElement }) {
  const query = new URLSearchParams({ board: config.board });
  for (const [key, value] of Object.entries(config.options)) query.set(key, value);
  say(gettext("Finding every reachable position…"));
  const reply = await fetch(`/api/graph/${config.game}?${query}`);
  const body = await reply.json().catch(() => ({}));
  if (!reply.ok) {
    say(body.error ? translateReply(body) : gettext("The state space could not be drawn (%(status)s).", { status: reply.status }));
    return null;
  }
  const { nodes, edges } = body;
  element.dataset.nodes = String(nodes.length);
  element.dataset.edges = String(edges.length);
  const far = Math.max(0, ...nodes.map((n) => n.distance ?? 0));
  const line = shortestLine(nodes, edges);
  const counted = { positions: COUNT.format(nodes.length), moves: COUNT.format(edges.length) };
  say(gettext("%(positions)s positions and %(moves)s moves; laying them out…", counted));
  const { x, y } = await layOut(nodes, edges);
  const onLine = new Set(line);
  // eslint-disable-next-line no-undef -- graphology is the vendored UMD global (static/vendor)
  const graph = new graphology.Graph({ type: "undirected", allowSelfLoops: false });
  const small = nodes.length > BIG_GRAPH ? 1.2 : nodes.length > 500 ? 2.5 : 5;
  nodes.forEach((node, i) => {
    graph.addNode(i, {
      type: nodes.length > BIG_GRAPH && !onLine.has(i) ? "point" : "circle",
      x: x[i],
      y: y[i],
      size: i === 0 ? small * 4 : onLine.has(i) ? small * 2.5 : small,
      color: i === 0 ? PATH_COLOUR : distanceColour(node.distance, far),
      zIndex: onLine.has(i) ? 1 : 0,
      label: i === 0 ? gettext("start") : node.distance === 0 && onLine.has(i) ? gettext("solved") : null,
    });
  });
  const step = new Set(line.slice(1).map((to, k) => `${Math.min(line[k], to)}-${Math.max(line[k], to)}`));
  for (const [from, to] of edges) {
    const key = `${Math.min(from, to)}-${Math.max(from, to)}`;
    if (graph.hasEdge(key)) continue;
    const path = step.has(key);
    graph.addEdgeWithKey(key, from, to, {
      type: path ? "line" : "thin",
      color: path ? PATH_COLOUR : EDGE_COLOUR,
      size: path ? 6 : 0.5,
      zIndex: path ? 1 : 0,
    });
  }
  legend(legendElement, far);
  let renderer;
  let view = null;
  try {
    // eslint-disable-next-line no-undef -- Sigma is the vendored UMD global (static/vendor)
    renderer = new Sigma(graph, element, {
      zIndex: true,
      // a big space stays smooth to drag and zoom: its moves come back when it stops
      hideEdgesOnMove: nodes.length > BIG_GRAPH,
      // every move a one-pixel GL line (far less to fill than sigma's default quads);
      // the shortest line keeps the thick ones
      // eslint-disable-next-line no-undef -- Sigma is the vendored UMD global (static/vendor)
      edgeProgramClasses: { thin: Sigma.rendering.EdgeLineProgram },
      // eslint-disable-next-line no-undef -- Sigma is the vendored UMD global (static/vendor)
      nodeProgramClasses: { point: Sigma.rendering.NodePointProgram },
      labelRenderedSizeThreshold: 0,
      nodeReducer: (key, data) => (view ? view.node(key, data) : data),
      edgeReducer: (key, data) => (view ? view.edge(key, data) : data),
      defaultEdgeColor: EDGE_COLOUR,
      labelColor: { attribute: "labelColour", color: getComputedStyle(element).color },
    });
  } catch (error) {
    say(gettext("%(positions)s positions; this browser cannot draw them (%(error)s).", { ...counted, error: error.message }));
    return null;
  }
  renderer.on("clickNode", ({ node }) => onPick({ index: Number(node), ...nodes[Number(node)] }));
  say(nodes[0].distance === null || nodes[0].distance === undefined
    ? gettext("%(positions)s positions, %(moves)s moves; the start cannot be solved. Click a position to see it.", counted)
    : gettext("%(positions)s positions, %(moves)s moves; the start is %(distance)s from solved. Click a position to see it.",
              { ...counted, distance: movesText(nodes[0].distance) }));
  element.dataset.drawn = "true";
  view = new VisitView(element, renderer, nodes.length);
  return { renderer, visits: view, count: nodes.length };
}
