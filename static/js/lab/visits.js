// A search's visiting order over the drawn state graph (graph.js), shown a step at a
// time for the replay (replay.js): the positions it had expanded by a step keep their
// colour, the rest are greyed, the last one is drawn large, and at the end the search's
// own solution is drawn thick (its moves added to the graph if the drawing left them out).
//
// The element's data-step is the step shown, data-visited how many positions the search
// has expanded by then, data-path the solution's moves once shown.

const NEVER = 2 ** 31 - 1;
/** Positions: smaller dots, and the moves hidden while the graph moves or a replay plays. */
export const BIG_GRAPH = 5000;

export class VisitView {
  constructor(element, renderer, graph, count, colours) {
    this.element = element;
    this.renderer = renderer;
    this.graph = graph;
    this.count = count;
    this.colours = colours; // the theme's (graph.js keeps them current)
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
    for (const key of pathEdges) { // the solution's moves, drawn at the end even where the graph left moves out
      const [a, b] = key.split("-").map(Number);
      if (!this.graph.hasEdge(key)) this.graph.addEdgeWithKey(key, a, b, { type: "thin", size: 0.5, color: this.colours.edge, search: true });
    }
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
    const { current, unvisited } = this.colours;
    if (this.done && visits.pathNodes.has(i)) return { ...data, type: "circle", color: current, size: Math.max(data.size, 3), zIndex: 2 };
    const at = visits.visitedAt[i];
    if (at >= this.step) return { ...data, color: unvisited, label: i === 0 ? data.label : null };
    // (no change of type here: a step refreshes only the nodes it changes, in place)
    if (visits.order[this.step - 1] === i) return { ...data, color: current, size: Math.max(data.size * 3, 6), zIndex: 2 };
    return data;
  }

  edge(key, data) {
    if (!this.visits) return data.search ? { ...data, hidden: true } : data;
    if (this.done && this.visits.pathEdges.has(key)) return { ...data, type: "line", color: this.colours.current, size: 5, zIndex: 2, hidden: false };
    if (data.search) return { ...data, hidden: true };
    return data;
  }
}
