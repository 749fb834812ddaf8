// The solver lab's page: compare 2-4 algorithms' searches on one board over Socket.IO
// (lab_run, streamed lab_progress, one lab_result each), draw the board's state space,
// and replay each search's visiting order over it (GET /api/visits, replay.js).
// The URL names everything (/lab?game=G&board=B&algorithms=bfs,astar plus the
// game's options), so a comparison is a link; the page starts it as it opens.

import { $ } from "../panel.js";
import { loadGame } from "../games.js";
import { positionLink } from "../share.js";
import { SolverLink } from "../socket.js";
import { drawStateGraph } from "./graph.js";
import { frontierByDepth, Replay } from "./replay.js";
import { Comparison } from "./comparison.js";
import { gettext, movesText, translateReply } from "../i18n.js";
import { EVENT } from "../protocol.js";

const config = JSON.parse(document.getElementById("config").textContent);
const form = $("lab-form");
const status = $("lab-status");
const stop = $("lab-stop");
const comparison = new Comparison($("lab-runs"), $("lab-chart"), config.kinds);
let asked = null; // the lab_run request on its way
let drawn = null; // the state graph once drawn: {renderer, visits, count}
let compared = null; // the algorithms of the last comparison
let fetching = null; // the AbortController of the visiting orders being fetched
const replay = new Replay({
  panel: $("lab-replay"),
  play: $("lab-replay-play"),
  step: $("lab-replay-step"),
  speed: $("lab-replay-speed"),
  position: $("lab-replay-position"),
  algorithm: $("lab-replay-algorithm"),
  status: $("lab-replay-status"),
}, (step, traces, chosen, playing, full) => {
  if (drawn && traces.has(chosen)) {
    if (drawn.shown !== chosen) { drawn.visits.load(traces.get(chosen)); drawn.shown = chosen; }
    drawn.visits.playing(playing);
    drawn.visits.show(step);
  }
  if (full) comparison.replayChart(new Map([...traces.entries()].map(([name, visits]) => [name, frontierByDepth(visits, step)])));
});

function say(text) { status.textContent = text; }

function chosen() {
  return [...form.querySelectorAll('input[name="algorithm"]:checked')].map((box) => box.value);
}

function ended(message) {
  asked = null;
  stop.disabled = true;
  if (message) say(message);
}

const link = new SolverLink({
  onLabProgress: (reply) => comparison.progress(reply),
  onLabResult: (reply) => {
    if (!comparison.result(reply)) return;
    link.finish(reply.id);
    ended(gettext("Every algorithm has finished."));
  },
  onError: (reply) => {
    comparison.stopped(translateReply(reply));
    ended(translateReply(reply));
  },
  onConnection: (connected, refusal) => { if (!connected && refusal) say(refusal); },
});

function compare(algorithms) {
  if (asked) link.cancel();
  comparison.start(algorithms);
  asked = link.request(EVENT.LAB_RUN, { game: config.game, board: config.board, ...config.options, algorithms });
  stop.disabled = false;
  say(gettext("Comparing %(algorithms)s…", { algorithms: algorithms.join(", ") }));
  compared = algorithms;
  if (drawn) loadVisits(algorithms);
}

/** Fetch each algorithm's visiting order, one after the other, into the replay. */
async function loadVisits(algorithms) {
  if (fetching) fetching.abort();
  const controller = new AbortController();
  fetching = controller;
  replay.clear();
  if (drawn) drawn.shown = null;
  for (const algorithm of algorithms) {
    const query = new URLSearchParams({ board: config.board, ...config.options, algorithm });
    try {
      const reply = await fetch(`/api/visits/${config.game}?${query}`, { signal: controller.signal });
      const body = await reply.json();
      if (!reply.ok) throw new Error(body.error ? translateReply(body) : String(reply.status));
      if (controller.signal.aborted) return;
      replay.add(algorithm, body);
    } catch (error) {
      if (controller.signal.aborted) return;
      $("lab-replay-status").textContent = gettext("The visiting order of %(algorithm)s could not be loaded: %(error)s", { algorithm, error: error.message });
    }
  }
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
  const [fewest, most] = config.algorithm_count;
  const sameGame = new FormData(form).get("game") === config.game;
  if (sameGame && (picked.length < fewest || picked.length > most)) {
    say(gettext("Choose %(fewest)s to %(most)s algorithms.", { fewest, most }));
    return;
  }
  const target = formLink();
  if (target === `${window.location.pathname}${window.location.search}`) compare(picked);
  else window.location.assign(target);
});
$("lab-game").addEventListener("change", () => form.requestSubmit());
stop.addEventListener("click", () => {
  link.cancel();
  if (fetching) fetching.abort();
  comparison.stopped(gettext("stopped"));
  ended(gettext("Stopped."));
});
$("lab-play").href = positionLink(config.game, config.board, config.options);

/** The picked position drawn as a board (the game's own view, as the lobby's previews). */
async function drawPicked(box, board) {
  box.dataset.board = board;
  try {
    const module = await loadGame(config.game);
    const game = module.createGame(config.options);
    const drawn = document.createElement("div");
    drawn.className = `board board-${config.game} preview-board`;
    box.replaceChildren(drawn);
    game.createView(drawn, null).render(game.parse(board));
  } catch {
    box.textContent = board; // still the position, in its notation
  }
}

function pick(node) {
  const panel = $("state-picked");
  const box = $("state-picked-board");
  drawPicked(box, node.board);
  box.setAttribute("aria-label", gettext("the position picked: %(board)s", { board: node.board }));
  $("state-picked-distance").textContent =
    node.distance === null ? gettext("No solution from here.") : gettext("%(moves)s from solved.", { moves: movesText(node.distance) });
  $("state-play").href = positionLink(config.game, node.board, config.options);
  panel.hidden = false;
}

if (!config.error) {
  compare(config.algorithms);
  drawStateGraph($("state-graph"), config, {
    say: (text) => { $("state-graph-note").textContent = text; },
    onPick: pick,
    legendElement: $("state-graph-legend"),
  }).then((graph) => {
    drawn = graph;
    window.arcade = { graph, pick };
    if (drawn && compared) loadVisits(compared);
  }).catch((error) => { $("state-graph-note").textContent = gettext("The state space could not be drawn: %(error)s", { error: error.message }); });
}
