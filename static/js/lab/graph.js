// The state space in WebGL: sigma.js over graphology (the vendored globals `Sigma` and
// `graphology`). A worker fetches every position reachable from the board, finds a
// shortest line and lays them out (layout-worker.js); this module draws them coloured
// by distance to solved (the legend), the start and the shortest line drawn large and
// thick, in the colours of the page's theme (lab.css), redrawn when the theme changes.
// A big space draws its positions and the shortest line's moves only: its other moves
// are a hairball nobody reads, and drawing them froze the page. The graph is built a
// slice each frame, so the page never stops answering for long; clicking a position
// shows its board and a link to play from there.
//
// A replay (replay.js, the view in visits.js) shows one search's visiting order over it.
//
// The element's data-nodes and data-edges say how many positions and moves there are
// (set as soon as they are known, so a browser without WebGL still says so);
// data-drawn-edges how many moves are drawn, data-line the shortest line's moves.

import { gettext, movesText, translateReply } from "../i18n.js";
import { BIG_GRAPH, VisitView } from "./visits.js";

const COUNT = new Intl.NumberFormat("en");
const EVERY_MOVE = 3000; // positions: up to this many, every move is drawn
const SLICE = 1500; // nodes or edges added to the graph a frame (each frame redraws all so far)

/** The theme's colours for the graph: lab.css's custom properties (light-dark() pairs),
 * resolved by a probe inside `element`, as hex (WebGL takes no CSS). */
export function themeColours(element) {
  const probe = document.createElement("span");
  probe.hidden = true;
  element.append(probe);
  const rgb = (name) => {
    probe.style.color = `var(${name})`;
    return (getComputedStyle(probe).color.match(/\d+/g) || [128, 128, 128]).slice(0, 3).map(Number);
  };
  const hex = (name) => `#${rgb(name).map((c) => c.toString(16).padStart(2, "0")).join("")}`;
  const colours = {
    ramp: [0, 1, 2, 3].map((i) => rgb(`--lab-ramp-${i}`)),
    unsolvable: hex("--lab-unsolvable"), edge: hex("--lab-edge"), line: hex("--lab-line"),
    unvisited: hex("--lab-unvisited"), current: hex("--lab-current"), label: getComputedStyle(element).color,
  };
  probe.remove();
  return colours;
}

/** Distance d of `far` as a colour (hex, as WebGL takes it), along `ramp` (RGB stops:
 * solved, a third of the way, two thirds, farthest); null: unsolvable. */
export function distanceColour(distance, far, ramp, unsolvable = "#8a8a8a") {
  if (distance === null || distance === undefined || distance < 0) return unsolvable;
  const t = (far > 0 ? distance / far : 0) * (ramp.length - 1);
  const k = Math.min(ramp.length - 2, Math.floor(t));
  const mix = ramp[k].map((low, c) => Math.round(low + (ramp[k + 1][c] - low) * (t - k)));
  return `#${mix.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

function inWorker(url) {
  const worker = new Worker(new URL("./layout-worker.js", import.meta.url), { type: "module" });
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => { worker.terminate(); resolve(event.data); };
    worker.onerror = (event) => { worker.terminate(); reject(new Error(event.message || gettext("the layout failed"))); };
    worker.postMessage({ url });
  });
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

/** Run `add(i)` for i in [from, count), a slice a frame. */
async function inSlices(count, add, from = 0) {
  for (let start = from; start < count; start += SLICE) {
    for (let i = start; i < Math.min(count, start + SLICE); i += 1) add(i);
    if (start + SLICE < count) await nextFrame();
  }
}

function legend(element, far, colours) {
  const bar = document.createElement("span");
  bar.className = "lab-legend-bar";
  const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => distanceColour(Math.round(t * far), far, colours.ramp));
  bar.style.background = `linear-gradient(to right, ${stops.join(", ")})`;
  const low = document.createElement("span");
  low.textContent = gettext("solved");
  const high = document.createElement("span");
  high.textContent = gettext("%(moves)s away", { moves: movesText(far) });
  element.replaceChildren(low, bar, high);
}

/**
 * Fetch and draw the state graph of `config` into `element`; `say(text)` reports in
 * words; `onPick(node)` gets {index, board, distance} of a clicked position. Returns
 * {renderer, visits, count} (visits: the VisitView a replay drives), or null when
 * nothing is drawn (a space too big to send hides the drawing's box: its note says why).
 */
export async function drawStateGraph(element, config, { say, onPick, legendElement }) {
  const query = new URLSearchParams({ board: config.board });
  for (const [key, value] of Object.entries(config.options)) query.set(key, value);
  say(gettext("Finding every reachable position…"));
  const space = await inWorker(`/api/graph/${config.game}?${query}`);
  if (space.error) {
    element.hidden = true;
    legendElement.hidden = true;
    say(space.error.error ? translateReply(space.error) : gettext("The state space could not be drawn (%(status)s).", { status: space.status }));
    return null;
  }
  performance.mark("lab-graph-received"); // the tests time the drawing from here
  const { count, x, y, distances, edges, line, boards } = space;
  element.dataset.nodes = String(count);
  element.dataset.edges = String(edges.length / 2);
  const far = Math.max(0, ...distances);
  const counted = { positions: COUNT.format(count), moves: COUNT.format(edges.length / 2) };
  say(gettext("%(positions)s positions and %(moves)s moves; drawing them…", counted));
  let colours = themeColours(element);
  const onLine = new Set(line);
  const small = count > BIG_GRAPH ? 1.2 : count > 500 ? 2.5 : 5;
  let view = null;
  // the colours are the nodes' and edges' own (no reducer work per frame but a replay's)
  const colourOf = (i) => (i === 0 ? colours.line : distanceColour(distances[i], far, colours.ramp, colours.unsolvable));
  const edgeColour = (type) => (type === "line" ? colours.line : colours.edge);
  // eslint-disable-next-line no-undef -- graphology is the vendored UMD global (static/vendor)
  const graph = new graphology.Graph({ type: "undirected", allowSelfLoops: false });
  let renderer;
  performance.mark("lab-graph-renderer");
  try {
    // eslint-disable-next-line no-undef -- Sigma is the vendored UMD global (static/vendor)
    renderer = new Sigma(graph, element, {
      // no z-sorting, and labels only for the large marks (start, solved): both cost a
      // pass over every position each frame, ten times the drawing's own (measured)
      zIndex: false,
      labelRenderedSizeThreshold: 4.5,
      hideEdgesOnMove: count > BIG_GRAPH, // a big space stays smooth to drag and zoom
      // every other move a one-pixel GL line; the shortest line keeps the thick ones
      // eslint-disable-next-line no-undef -- Sigma is the vendored UMD global (static/vendor)
      edgeProgramClasses: { thin: Sigma.rendering.EdgeLineProgram },
      // eslint-disable-next-line no-undef -- Sigma is the vendored UMD global (static/vendor)
      nodeProgramClasses: { point: Sigma.rendering.NodePointProgram },
      nodeReducer: (key, data) => (view ? view.node(key, data) : data),
      edgeReducer: (key, data) => (view ? view.edge(key, data) : data),
      labelColor: { color: colours.label },
    });
  } catch (error) {
    say(gettext("%(positions)s positions; this browser cannot draw them (%(error)s).", { ...counted, error: error.message }));
    return null;
  }
  const addNode = (i) => graph.addNode(i, {
    type: count > BIG_GRAPH && !onLine.has(i) ? "point" : "circle", x: x[i], y: y[i],
    size: i === 0 || (onLine.has(i) && distances[i] === 0) ? Math.max(5, small * 4) : onLine.has(i) ? small * 2.5 : small,
    color: colourOf(i), label: i === 0 ? gettext("start") : distances[i] === 0 && onLine.has(i) ? gettext("solved") : null,
  });
  // the first slice drawn at once: the GL programs compiled and ready (what a GPU does in
  // no time takes a software GL a while), then a slice a frame
  for (let i = 0; i < Math.min(count, SLICE); i += 1) addNode(i);
  renderer.refresh();
  performance.mark("lab-graph-renderer-made");
  await inSlices(count, addNode, SLICE);
  const keyOf = (a, b) => `${Math.min(a, b)}-${Math.max(a, b)}`;
  const lineKeys = new Set([...line.slice(1)].map((to, k) => keyOf(line[k], to)));
  const drawn = count <= EVERY_MOVE ? edges.length / 2 : 0;
  await inSlices(drawn, (k) => {
    const [a, b] = [edges[2 * k], edges[2 * k + 1]];
    const key = keyOf(a, b);
    if (!lineKeys.has(key) && !graph.hasEdge(key)) graph.addEdgeWithKey(key, a, b, { type: "thin", size: 0.5, color: colours.edge });
  });
  for (const key of lineKeys) {
    const [a, b] = key.split("-").map(Number);
    graph.addEdgeWithKey(key, a, b, { type: "line", size: 5, color: colours.line });
  }
  element.dataset.drawnEdges = String(graph.size);
  element.dataset.line = String(lineKeys.size);
  legend(legendElement, far, colours);
  // the theme changed: the same graph in its colours
  new MutationObserver(() => {
    colours = themeColours(element);
    element.dataset.edgeColour = colours.edge;
    renderer.setSetting("labelColor", { color: colours.label });
    legend(legendElement, far, colours);
    if (view) view.colours = colours;
    // changed in place, then one full refresh (sigma's partial one cannot take hidden moves)
    graph.forEachNode((key, data) => { data.color = colourOf(Number(key)); });
    graph.forEachEdge((key, data) => { data.color = edgeColour(data.type); });
    renderer.refresh();
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  element.dataset.edgeColour = colours.edge;
  renderer.on("clickNode", ({ node: key }) => {
    const i = Number(key);
    onPick({ index: i, board: boards[i], distance: distances[i] < 0 ? null : distances[i] });
  });
  const what = count > EVERY_MOVE ? gettext(" Drawn: every position and the shortest line's moves (the others would hide them).") : "";
  say((distances[0] < 0
    ? gettext("%(positions)s positions, %(moves)s moves; the start cannot be solved. Click a position to see it.", counted)
    : gettext("%(positions)s positions, %(moves)s moves; the start is %(distance)s from solved. Click a position to see it.",
              { ...counted, distance: movesText(distances[0]) })) + what);
  element.dataset.drawn = "true";
  performance.mark("lab-graph-drawn");
  view = new VisitView(element, renderer, graph, count, colours);
  return { renderer, visits: view, count };
}
