// The play page's controller without a page: a real game module's rules, a view
// that only records what it was asked to draw, and a link that records what would
// be sent to the server. The controller names no game and touches no element, so
// all of its decisions can be checked here.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { Controller } from "../../static/js/controller.js";
import * as npuzzle from "../../static/js/games/npuzzle.js";
import * as watersort from "../../static/js/games/watersort.js";

const NPUZZLE_INFO = { name: "npuzzle", progress_option: null, options: [] };
const made = [];

afterEach(() => {
  for (const ctrl of made.splice(0)) ctrl.playback.pause(); // no timer outlives its test
});

/** A controller over `board`, with its fake view and link and a count of hook calls. */
function controller(board, { module = npuzzle, info = NPUZZLE_INFO, options = {}, extra = null,
                             attempt = null, saved = null } = {}) {
  const view = { rendered: [], hints: [], refused: [] };
  Object.assign(view, {
    render: (state) => view.rendered.push(state),
    clearHint: () => { view.hint = null; },
    showHint: (move) => { view.hint = move; view.hints.push(move); },
    shake: (target) => view.refused.push(target),
  });
  const sent = [];
  const link = {
    current: null,
    cancelled: 0,
    request(event, payload) {
      this.current = { event, board: payload.board };
      sent.push({ event, payload });
    },
    cancel() { this.cancelled += 1; this.current = null; },
  };
  const calls = { changed: 0, moved: 0 };
  const config = { game: info.name, board, options, speed: 10, game_info: info, attempt };
  const ctrl = new Controller(config, {
    createGame: module.createGame,
    createView: () => view,
    connect: () => link,
    extra,
    changed: () => { calls.changed += 1; },
    moved: () => { calls.moved += 1; },
  });
  made.push(ctrl);
  ctrl.start(saved);
  return { ctrl, view, link, sent, calls };
}

/** The server's analysis of `board`: `distance` moves left, best move `best`. */
function analysis(board, distance, best = null, extra = {}) {
  return { board, solved: distance === 0, solvable: true, distance, optimal: true, final: true,
           best_move: best, moves_rated: [], ...extra };
}

test("start shows the board and asks the server to analyse it", () => {
  const { ctrl, view, sent, calls } = controller("1 2 3 4 0 6 7 5 8");
  assert.equal(ctrl.board, "1 2 3 4 0 6 7 5 8");
  assert.equal(view.rendered.length, 1);
  assert.deepEqual(sent, [{ event: "analyse", payload: { game: "npuzzle", board: "1 2 3 4 0 6 7 5 8" } }]);
  assert.equal(ctrl.evaluating, true);
  assert.ok(calls.changed > 0 && calls.moved === 1);
});

test("a board the rules cannot read leaves a notice and asks nothing", () => {
  const { ctrl, view, sent } = controller("1 2 3");
  assert.match(ctrl.notice, /cannot read/);
  assert.equal(view.rendered.length, 0);
  assert.equal(sent.length, 0);
});

test("options sent with every request are the given ones, without empty values", () => {
  const { sent } = controller("AB,BA,,", {
    module: watersort, info: { name: "watersort", progress_option: "capacity", options: [] },
    options: { capacity: 2, metric: "", goal: null },
  });
  assert.deepEqual(sent[0].payload, { game: "watersort", board: "AB,BA,,", capacity: 2 });
});

test("a legal move is played, recorded and analysed; an illegal one is refused", () => {
  const { ctrl, view, sent } = controller("1 2 3 4 0 6 7 5 8");
  assert.equal(ctrl.playerMove({ tile: 1 }, "tile-1"), false);
  assert.deepEqual(view.refused, ["tile-1"]);
  assert.equal(ctrl.history.entries.length, 0);
  assert.equal(ctrl.playerMove({ tile: 5 }, "tile-5"), true);
  assert.equal(ctrl.board, "1 2 3 4 5 6 7 0 8");
  assert.deepEqual(ctrl.counts(), [1, 0]);
  assert.equal(ctrl.history.last.move.text, "5 up");
  assert.equal(sent.at(-1).payload.board, "1 2 3 4 5 6 7 0 8");
  assert.equal(ctrl.clock.running, true);
});

test("undo, redo and restart move through the line; jumpTo keeps later moves redoable", () => {
  const { ctrl } = controller("1 2 3 4 0 6 7 5 8");
  ctrl.playerMove({ tile: 5 });
  ctrl.playerMove({ tile: 8 });
  assert.equal(ctrl.isSolved(), true);
  assert.equal(ctrl.undo(), true);
  assert.equal(ctrl.board, "1 2 3 4 5 6 7 0 8");
  assert.equal(ctrl.redo(), true);
  assert.equal(ctrl.board, "1 2 3 4 5 6 7 8 0");
  assert.equal(ctrl.redo(), false);
  assert.equal(ctrl.jumpTo(0), true);
  assert.equal(ctrl.board, "1 2 3 4 0 6 7 5 8");
  assert.equal(ctrl.history.canRedo, true);
  assert.equal(ctrl.jumpTo(9), false);
  ctrl.redo();
  ctrl.restart();
  assert.equal(ctrl.board, "1 2 3 4 0 6 7 5 8");
  assert.equal(ctrl.history.entries.length, 0);
  assert.equal(ctrl.undo(), false);
});

test("a board already analysed is not asked about again", () => {
  const { ctrl, sent } = controller("1 2 3 4 0 6 7 5 8");
  const start = "1 2 3 4 0 6 7 5 8";
  ctrl.gotAnalysis(analysis(start, 2, { tile: 5, text: "5 up" }), { board: start });
  ctrl.playerMove({ tile: 5 });
  const asked = sent.length;
  ctrl.undo();
  assert.equal(sent.length, asked, "the start's answer is known");
  ctrl.redo();
  assert.equal(sent.length, asked, "the second board's request is already on its way");
});

test("hint shows the analysis's best move, or says why there is none", () => {
  const { ctrl, view } = controller("1 2 3 4 0 6 7 5 8");
  const start = "1 2 3 4 0 6 7 5 8";
  ctrl.hint();
  assert.equal(view.hint, null, "nothing to show before the answer");
  ctrl.gotAnalysis(analysis(start, 2, { tile: 5, text: "5 up" }), { board: start });
  assert.deepEqual(view.hint, { tile: 5, text: "5 up" });
  assert.equal(ctrl.notice, "Hint: 5 up");
  ctrl.playerMove({ tile: 6 });
  ctrl.gotAnalysis({ ...analysis(ctrl.board, null), solvable: false }, { board: ctrl.board });
  ctrl.hint();
  assert.equal(ctrl.notice, "No hint: this position is unsolvable.");
});

test("an answer about another board is kept but shown on no board", () => {
  const { ctrl, view } = controller("1 2 3 4 0 6 7 5 8");
  ctrl.hint();
  ctrl.playerMove({ tile: 5 });
  const old = "1 2 3 4 0 6 7 5 8";
  ctrl.gotAnalysis(analysis(old, 2, { tile: 5, text: "5 up" }), { board: old });
  assert.equal(view.hints.length, 0);
  assert.equal(ctrl.analyses.get(old).distance, 2);
});

test("an interim hint is replaced when the proven answer arrives", () => {
  const { ctrl, view } = controller("1 2 3 4 0 6 7 5 8");
  const start = "1 2 3 4 0 6 7 5 8";
  ctrl.hint();
  ctrl.gotAnalysis(analysis(start, 4, { tile: 6, text: "6 left" }, { final: false, optimal: false }),
                   { board: start });
  ctrl.gotAnalysis(analysis(start, 2, { tile: 5, text: "5 up" }), { board: start });
  assert.deepEqual(view.hints.map((m) => m.text), ["6 left", "5 up"]);
});

test("solve asks once, and the solution is played back into the history", async () => {
  const { ctrl, sent } = controller("1 2 3 4 0 6 7 5 8");
  ctrl.solve();
  ctrl.solve();
  assert.equal(sent.filter((s) => s.event === "solve").length, 1);
  assert.equal(ctrl.solving, true);
  const states = ["1 2 3 4 0 6 7 5 8", "1 2 3 4 5 6 7 0 8", "1 2 3 4 5 6 7 8 0"];
  const moves = [{ tile: 5, dir: "up", text: "5 up" }, { tile: 8, dir: "left", text: "8 left" }];
  ctrl.gotSolution({ moves, states, optimal: true, stats: { nodes: 3, seconds: 0.01 } },
                   { board: states[0] });
  assert.equal(ctrl.solving, false);
  assert.match(ctrl.progressText, /shortest solution: 2 moves/);
  assert.equal(ctrl.analyses.distanceOf(states[1]).distance, 1, "the solution proves each distance");
  for (let waited = 0; ctrl.playback.playing && waited < 5000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20)); // a busy machine plays slower
  }
  assert.equal(ctrl.board, states[2]);
  assert.equal(ctrl.isSolved(), true);
  assert.deepEqual(ctrl.history.entries.map((e) => e.kind), ["playback", "playback"]);
  assert.equal(ctrl.playback.playing, false);
});

test("a move while solving supersedes the search; cancel tells the server", () => {
  const { ctrl, link } = controller("1 2 3 4 0 6 7 5 8");
  ctrl.solve();
  ctrl.playerMove({ tile: 5 });
  assert.equal(ctrl.solving, false);
  assert.equal(ctrl.progressText, "search stopped: you moved");
  ctrl.solve();
  ctrl.cancelSolve();
  assert.equal(link.cancelled, 1);
  assert.equal(ctrl.progressText, "search cancelled");
});

test("an unsolvable verdict and an error reply end the search", () => {
  const { ctrl } = controller("1 2 3 4 5 6 8 7 0");
  ctrl.solve();
  ctrl.gotUnsolvable({}, { board: ctrl.board });
  assert.equal(ctrl.solving, false);
  assert.equal(ctrl.analyses.get(ctrl.board).solvable, false);
  ctrl.solve();
  ctrl.gotError({ message: "board is too long", event: "solve" });
  assert.equal(ctrl.solving, false);
  assert.equal(ctrl.notice, "board is too long");
});

test("an extra action changes the position and is counted apart from moves", () => {
  const { ctrl } = controller("AB,BA,", {
    module: watersort, info: { name: "watersort", progress_option: null, options: [] },
    extra: watersort.extra,
  });
  ctrl.addExtra();
  assert.equal(ctrl.board, "AB,BA,,");
  assert.deepEqual(ctrl.counts(), [0, 1]);
  assert.equal(ctrl.notice, watersort.extra.notice);
  ctrl.undo();
  assert.equal(ctrl.board, "AB,BA,");
});

// -- ranked play ---------------------------------------------------------------

const RANKED = { ranked: true, assisted: false, finished: false };

test("a ranked attempt asks the server nothing until the coach is opened", () => {
  const { ctrl, sent } = controller("1 2 3 4 0 6 7 5 8", { attempt: RANKED });
  assert.equal(ctrl.coachClosed, true);
  assert.equal(ctrl.playerMove({ tile: 5 }), true);
  assert.deepEqual(sent, []);
  ctrl.openCoach();
  assert.equal(ctrl.helped, true);
  assert.equal(ctrl.coachClosed, false);
  assert.deepEqual(sent.map((s) => s.event), ["analyse"]);
});

test("hint and solve in a ranked attempt are help: the line is sent as assisted", () => {
  for (const act of ["hint", "solve"]) {
    const { ctrl, sent } = controller("1 2 3 4 0 6 7 5 8", { attempt: RANKED });
    ctrl[act]();
    assert.equal(ctrl.helped, true, act);
    assert.deepEqual(sent.map((s) => s.event), [act === "hint" ? "analyse" : "solve"], act);
  }
});

test("the coach opens once the finished attempt is on record", () => {
  const { ctrl, sent } = controller("1 2 3 4 5 6 7 0 8", { attempt: RANKED });
  ctrl.playerMove({ tile: 8 });
  assert.equal(ctrl.isSolved(), true);
  assert.deepEqual(sent, []);
  ctrl.settle();
  assert.equal(ctrl.coachClosed, false);
  assert.equal(ctrl.helped, false); // still ranked: the result was judged before
  assert.deepEqual(sent.map((s) => s.payload.board), ["1 2 3 4 5 6 7 8 0"]);
  // then the line's other positions, one at a time, for the graph and the review
  ctrl.link.current = null;
  ctrl.gotAnalysis(analysis("1 2 3 4 5 6 7 8 0", 0), { board: "1 2 3 4 5 6 7 8 0" });
  assert.deepEqual(sent.map((s) => s.payload.board), ["1 2 3 4 5 6 7 8 0", "1 2 3 4 5 6 7 0 8"]);
});

test("a saved line of the same puzzle comes back with its cursor; another puzzle's does not", () => {
  const start = "1 2 3 4 5 6 0 7 8";
  const first = controller(start);
  first.ctrl.playerMove({ tile: 7 });
  const saved = JSON.parse(JSON.stringify(first.ctrl.saved()));
  const again = controller(start, { saved });
  assert.equal(again.ctrl.board, "1 2 3 4 5 6 7 0 8");
  assert.deepEqual(again.ctrl.counts(), [1, 0]);
  const other = controller("1 2 3 4 5 6 7 0 8", { saved });
  assert.equal(other.ctrl.board, "1 2 3 4 5 6 7 0 8");
  assert.deepEqual(other.ctrl.counts(), [0, 0]);
});

test("solve's progress shows the proven bounds, not the search's depth", () => {
  const { ctrl } = controller("1 2 3 4 5 6 0 7 8");
  ctrl.solve();
  for (const best of [141, 141, 130, 121]) ctrl.gotProgress({ nodes: 1000, depth: 300, elapsed: 1, best, lower_bound: 79 });
  assert.match(ctrl.progressText, /best 141→130→121 moves, at least 79 · 1,000 positions/);
  assert.doesNotMatch(ctrl.progressText, /depth/);
});

test("a solve that ran out of budget stops with its words and remembers the board", () => {
  const { ctrl, sent } = controller("1 2 3 4 5 6 0 7 8");
  ctrl.solve();
  const reply = { event: "solve", gave_up: true, message: "Too big to solve within the 3 s budget.", budget_seconds: 3 };
  ctrl.gotError(reply, { board: ctrl.board });
  assert.equal(ctrl.notice, reply.message);
  assert.equal(ctrl.progressText, "search stopped after 3 s");
  const asked = sent.length;
  ctrl.hint(); // the same budget would only give up again: no request
  assert.equal(sent.length, asked);
  assert.match(ctrl.notice, /^No hint\. Too big/);
});

test("an analysis's error that crosses a Solve press leaves the solve going", () => {
  const { ctrl } = controller("1 2 3 4 5 6 0 7 8");
  ctrl.solve();
  const reply = { event: "analyse", gave_up: true, message: "Too big to solve within the 1 s budget.", budget_seconds: 1 };
  ctrl.gotError(reply, { board: ctrl.board });
  assert.equal(ctrl.solving, true);
  assert.match(ctrl.progressText, /searching/);
  assert.equal(ctrl.notice, reply.message);
});

test("a ranked finish is scored from the shortest the server's result proved", () => {
  const { ctrl } = controller("1 2 3 4 0 6 7 5 8", { attempt: RANKED }); // a ladder puzzle: no min given
  ctrl.playerMove({ tile: 5 });
  ctrl.playerMove({ tile: 8 });
  assert.equal(ctrl.score().percent, null, "nothing proven yet");
  ctrl.knowShortest(2);
  assert.deepEqual([ctrl.score().percent, ctrl.score().proven], [100, true]);
});

test("a ranked attempt's clock is the server's from the page's opening, not the first move", () => {
  const { ctrl } = controller("1 2 3 4 0 6 7 5 8", { attempt: { ...RANKED, seconds: 17 } });
  assert.ok(ctrl.clock.running && ctrl.clock.ms >= 17_000);
  const free = controller("1 2 3 4 0 6 7 5 8").ctrl;
  assert.equal(free.clock.running, false);
});

test("a new server's status: the page waits, then asks again once the tables are built", () => {
  const board = "5 1 2 3 9 6 7 4 13 10 11 8 14 15 12 0";
  const { ctrl, sent } = controller(board);
  ctrl.gotSolverStatus({ warming: true, building: true });
  assert.equal(ctrl.warming, true);
  // the first answer: the table it needs is still being built
  ctrl.link.current = null;
  ctrl.gotError({ message: "the solver is still building the tables for this puzzle (a minute on a new server); it answers once they are built", event: "analyse" }, { board });
  assert.equal(ctrl.warming, true);
  // the lanes are up but the tables still build: this board is not asked again yet
  ctrl.gotSolverStatus({ warming: false, building: true });
  assert.equal(sent.length, 1);
  assert.equal(ctrl.warming, true);
  // built: asked again, and the page no longer says it waits
  ctrl.gotSolverStatus({ warming: false, building: false });
  assert.equal(ctrl.warming, false);
  assert.equal(ctrl.notice, "");
  assert.deepEqual(sent.map((s) => s.payload.board), [board, board]);
  // an answer known final is not asked again by a later status
  ctrl.gotAnalysis(analysis(board, 20, null, { moves_rated: [{}] }), { board });
  ctrl.link.current = null;
  ctrl.gotSolverStatus({ warming: false, building: false });
  assert.equal(sent.length, 2);
});
