// The solver link when its server stops: the player is told, and the job the server
// dropped is asked again, with its own id, once the link is connected again.
import assert from "node:assert/strict";
import { test } from "node:test";

/** A stand-in for socket.io's client: records emits, lets the test fire events. */
function fakeSocket() {
  const handlers = new Map();
  return {
    active: true,
    emitted: [],
    on(event, handler) { handlers.set(event, handler); },
    emit(event, payload) { this.emitted.push([event, payload]); },
    connect() {},
    fire(event, payload) { handlers.get(event)?.(payload); },
  };
}

async function link() {
  const socket = fakeSocket();
  globalThis.io = () => socket;
  const { SolverLink } = await import("../../static/js/socket.js");
  const seen = { connection: [], errors: [] };
  const solver = new SolverLink({
    onConnection: (up, why) => seen.connection.push([up, why]),
    onError: (reply) => seen.errors.push(reply),
  });
  return { socket, solver, seen };
}

test("a solve the stopping server dropped is sent again once reconnected", async () => {
  const { socket, solver, seen } = await link();
  const request = solver.request("solve", { game: "npuzzle", board: "1 2 3 4 5 6 7 0 8" });
  socket.fire("error", { message: "the server is restarting; reconnecting...", event: "restart" });
  socket.fire("error", { message: "server is shutting down, try again soon", event: "solve", id: request.id });
  assert.deepEqual(seen.errors, []); // not shown as the job's failure
  assert.deepEqual(seen.connection.at(-1), [false, "server is shutting down, try again soon"]);
  socket.fire("disconnect");
  socket.fire("connect");
  assert.deepEqual(socket.emitted.at(-1), ["solve", { game: "npuzzle", board: "1 2 3 4 5 6 7 0 8", id: request.id }]);
  assert.equal(solver.isCurrent(request.id), true);
  socket.fire("solution", { id: request.id, moves: [] });
});

test("a request cancelled meanwhile is not sent again", async () => {
  const { socket, solver } = await link();
  const request = solver.request("solve", { game: "npuzzle", board: "1 2 3 4 5 6 7 0 8" });
  socket.fire("error", { message: "the server is restarting; reconnecting...", event: "restart" });
  solver.cancel();
  const sent = socket.emitted.length;
  socket.fire("connect");
  assert.equal(socket.emitted.length, sent);
  assert.equal(solver.isCurrent(request.id), false);
});

test("the link asks for a websocket first and falls back to long-polling when it fails", async () => {
  let options = null;
  globalThis.io = (given) => { options = given; return fakeSocket(); };
  const { SolverLink } = await import("../../static/js/socket.js");
  new SolverLink({});
  assert.deepEqual(options.transports, ["websocket", "polling"]);
  // without it, a failed websocket is retried as a websocket, never as long-polling
  assert.equal(options.tryAllTransports, true);
});
