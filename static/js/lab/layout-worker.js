// The state graph's heavy lifting, off the page's thread: fetching and reading the whole
// space (GET /api/graph/<game>: tens of thousands of positions, megabytes of JSON), a
// shortest line from the start, and the layout: a deterministic radial one in one pass
// over the edges. Solved positions sit on the innermost ring, every position on the ring
// of its distance to solved (the unsolvable ones outside), and each ring is ordered by
// the mean angle of its neighbours one ring in, so a position lands near the positions
// it moves to and lines run outward smoothly. The same graph always gets the same picture.
//
// In: {url}. Out: {count, x, y: Float32Array, distances: Int32Array (-1: unsolvable),
// edges: Uint32Array of pairs, line: Int32Array (positions from the start to solved),
// boards: [text]}, or {status, error: the server's JSON answer} when it refused.

function neighbours(count, edges) {
  const degree = new Uint32Array(count + 1);
  for (let i = 0; i < edges.length; i += 2) { degree[edges[i] + 1] += 1; degree[edges[i + 1] + 1] += 1; }
  for (let i = 0; i < count; i += 1) degree[i + 1] += degree[i];
  const start = degree.slice();
  const list = new Uint32Array(edges.length);
  for (let i = 0; i < edges.length; i += 2) {
    const a = edges[i], b = edges[i + 1];
    list[start[a]++] = b;
    list[start[b]++] = a;
  }
  return { offsets: degree, list };
}

export function layout(count, distances, edges) {
  const { offsets, list } = neighbours(count, edges);
  let far = 0;
  for (let i = 0; i < count; i += 1) far = Math.max(far, distances[i]);
  const ringOf = (i) => (distances[i] < 0 ? far + 1 : distances[i]);
  const rings = Array.from({ length: far + 2 }, () => []);
  for (let i = 0; i < count; i += 1) rings[ringOf(i)].push(i);
  const angle = new Float64Array(count).fill(NaN);
  rings.forEach((ring, r) => {
    if (!ring.length) return;
    const key = new Float64Array(ring.length);
    ring.forEach((node, k) => {
      let sx = 0, sy = 0;
      for (let e = offsets[node]; e < offsets[node + 1]; e += 1) {
        const other = list[e];
        if (!Number.isNaN(angle[other]) && ringOf(other) < r) { sx += Math.cos(angle[other]); sy += Math.sin(angle[other]); }
      }
      key[k] = sx === 0 && sy === 0 ? k / ring.length : (Math.atan2(sy, sx) + 2 * Math.PI) % (2 * Math.PI) / (2 * Math.PI);
    });
    const order = ring.map((node, k) => k).sort((a, b) => key[a] - key[b] || ring[a] - ring[b]);
    // evenly spaced slots, turned to sit as near as they can to the neighbours' angles
    const slot = (place) => ((place + 0.5) / ring.length) * 2 * Math.PI;
    let sin = 0, cos = 0;
    order.forEach((k, place) => {
      sin += Math.sin(key[k] * 2 * Math.PI - slot(place));
      cos += Math.cos(key[k] * 2 * Math.PI - slot(place));
    });
    const turn = Math.atan2(sin, cos);
    order.forEach((k, place) => { angle[ring[k]] = slot(place) + turn; });
  });
  const x = new Float32Array(count), y = new Float32Array(count);
  for (let i = 0; i < count; i += 1) {
    const radius = ringOf(i) + (rings[0].length > 1 ? 0.6 : 0);
    x[i] = radius * Math.cos(angle[i]);
    y[i] = radius * Math.sin(angle[i]);
  }
  return { x, y };
}

/** Positions of a shortest line from position 0 to solved, following moves down one
 * distance at a time (empty when the start is unsolvable). */
export function shortestLine(count, distances, edges) {
  if (!count || distances[0] < 0) return new Int32Array(0);
  const { offsets, list } = neighbours(count, edges);
  const line = [0];
  let at = 0;
  while (distances[at] > 0) {
    let next = -1;
    for (let e = offsets[at]; e < offsets[at + 1] && next < 0; e += 1) {
      if (distances[list[e]] === distances[at] - 1) next = list[e];
    }
    if (next < 0) break;
    line.push(next);
    at = next;
  }
  return Int32Array.from(line);
}

self.onmessage = async (event) => {
  const reply = await fetch(event.data.url);
  const body = await reply.json().catch(() => ({}));
  if (!reply.ok) { self.postMessage({ status: reply.status, error: body }); return; }
  const count = body.nodes.length;
  const distances = Int32Array.from(body.nodes, (n) => (n.distance === null ? -1 : n.distance));
  const edges = Uint32Array.from(body.edges.flat());
  const boards = body.nodes.map((n) => n.board);
  const { x, y } = layout(count, distances, edges);
  const line = shortestLine(count, distances, edges);
  self.postMessage({ count, x, y, distances, edges, line, boards },
                   [x.buffer, y.buffer, distances.buffer, edges.buffer, line.buffer]);
};
