// The solver lab's page: race 2-4 algorithms on one board over Socket.IO (lab_run,
// streamed lab_progress, one lab_result each) and draw the board's state space.
// The URL names everything (/lab?game=G&board=B&algorithms=bfs,astar plus the
// game's options), so a run is a link; the page runs it as it opens.

import { $ } from "../panel.js";
import { positionLink } from "../share.js";
import { SolverLink } from "../socket.js";
import { drawStateGraph } from "./graph.js";
import { Runs } from "./runs.js";

const config = JSON.parse(document.getElementById("config").textContent);
const form = $("lab-form");
const status = $("lab-status");
const stop = $("lab-stop");
const runs = new Runs($("lab-runs"), $("lab-chart"));
let running = null; // the lab_run request on its way

function say(text) { status.textContent = text; }

function chosen() {
  return [...form.querySelectorAll('input[name="algorithm"]:checked')].map((box) => box.value);
}

function ended(message) {
  running = null;
  stop.disabled = true;
  if (message) say(message);
}

const link = new SolverLink({
  onLabProgress: (reply) => runs.progress(reply),
  onLabResult: (reply) => {
    if (!runs.result(reply)) return;
    link.finish(reply.id);
    ended("Every algorithm has finished.");
  },
  onError: (reply) => {
    runs.stopped(reply.message);
    ended(reply.message);
  },
  onConnection: (connected, refusal) => { if (!connected && refusal) say(refusal); },
});

function run(algorithms) {
  if (running) link.cancel();
  runs.start(algorithms);
  running = link.request("lab_run", { game: config.game, board: config.board, ...config.options, algorithms });
  stop.disabled = false;
  say(`Racing ${algorithms.join(", ")}…`);
}

/** The form is a link: the lab's URL for what it names, with algorithms=a,b. */
function formLink() {
  const fields = new FormData(form);
  const query = new URLSearchParams();
  // another game: its own start, options and the default algorithms (some cannot search it)
  if (fields.get("game") !== config.game) return `/lab?game=${encodeURIComponent(fields.get("game"))}`;
  for (const [key, value] of fields) if (key !== "algorithm" && value !== "") query.set(key, value);
  query.set("algorithms", chosen().join(","));
  return `/lab?${query}`;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const picked = chosen();
  const [fewest, most] = config.racers;
  const sameGame = new FormData(form).get("game") === config.game;
  if (sameGame && (picked.length < fewest || picked.length > most)) {
    say(`Choose ${fewest} to ${most} algorithms.`);
    return;
  }
  const target = formLink();
  if (target === `${window.location.pathname}${window.location.search}`) run(picked);
  else window.location.assign(target);
});
$("lab-game").addEventListener("change", () => form.requestSubmit());
stop.addEventListener("click", () => {
  link.cancel();
  runs.stopped("stopped");
  ended("Stopped.");
});
$("lab-play").href = positionLink(config.game, config.board, config.options);

function pick(node) {
  const panel = $("state-picked");
  $("state-picked-board").textContent = node.board;
  $("state-picked-distance").textContent =
    node.distance === null ? "No solution from here." : `${node.distance} moves from solved.`;
  $("state-play").href = positionLink(config.game, node.board, config.options);
  panel.hidden = false;
}

if (!config.error) {
  run(config.algorithms);
  drawStateGraph($("state-graph"), config, {
    say: (text) => { $("state-graph-note").textContent = text; },
    onPick: pick,
    legendElement: $("state-graph-legend"),
  }).catch((error) => { $("state-graph-note").textContent = `The state space could not be drawn: ${error.message}`; });
}
