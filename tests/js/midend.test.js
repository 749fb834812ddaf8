// The middle end without a page (static/js/midend.js): a real game's rules, a view that
// records what it was asked, and a page's hooks as a judged page or the play page would
// give them. Every page that drives a board plays, refuses, times and scores through it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Clock } from "../../static/js/clock.js";
import * as npuzzle from "../../static/js/games/npuzzle.js";
import { Midend } from "../../static/js/midend.js";
import { accuracy, scoreOf } from "../../static/js/score.js";

const START = "1 2 3 4 0 6 7 5 8"; // two slides from solved: 5 up, 8 left

/** A middle end on `START` with a recording view; `page` overrides what a page adds. */
function board(page = {}) {
  const shook = [];
  const sent = [];
  const end = Object.assign(new Midend({ changed: () => {} }), page);
  end.game = npuzzle.createGame({});
  end.view = { render: () => {}, shake: (target) => shook.push(target) };
  end.played = page.played || ((entry) => sent.push(entry.after));
  end.load(START, end.game.parse(START), { shortest: 2 });
  return { end, shook, sent };
}

test("a legal move is played and handed to the page; an illegal one is refused in words", () => {
  const { end, shook, sent } = board();
  assert.equal(end.playerMove({ tile: 1 }, "tile-1"), false);
  assert.deepEqual(shook, ["tile-1"]);
  assert.match(end.notice, /beside the gap/);
  assert.equal(end.refusals, 1);
  assert.equal(end.playerMove({ tile: 5 }, "tile-5"), true);
  assert.equal(end.board, "1 2 3 4 5 6 7 0 8");
  assert.deepEqual(sent, ["1 2 3 4 5 6 7 0 8"]);
  assert.equal(end.notice, "");
});

test("a closed board and a busy one refuse every move, each with its words", () => {
  let why = "The race is not under way.";
  const { end, sent } = board({ closed: () => why });
  assert.equal(end.playerMove({ tile: 5 }), false);
  assert.equal(end.notice, why);
  why = "";
  end.setBusy(true);
  assert.equal(end.playerMove({ tile: 5 }), false);
  assert.match(end.notice, /being judged/);
  end.setBusy(false);
  assert.equal(end.playerMove({ tile: 5 }), true);
  assert.equal(sent.length, 1);
});

test("a quiet attempt (a drag trying its way) is refused without words", () => {
  const { end, shook } = board();
  assert.equal(end.playerMove({ tile: 1 }, null, { quiet: true }), false);
  assert.equal(end.notice, "");
  assert.deepEqual(shook, []);
});

test("undo and redo move through the line; a finish is scored from the shortest and the moves", () => {
  let finishes = 0;
  const { end } = board({ finished() { finishes += 1; } });
  end.playerMove({ tile: 5 });
  end.playerMove({ tile: 7 }); // away
  end.undo();
  assert.equal(end.board, "1 2 3 4 5 6 7 0 8");
  end.redo();
  end.playerMove({ tile: 7 }); // back
  end.playerMove({ tile: 8 });
  assert.equal(end.isSolved(), true);
  assert.equal(finishes, 1);
  const score = end.score();
  assert.deepEqual([score.moves, score.shortest, score.proven, score.percent], [4, 2, true, accuracy(2, 4)]);
  assert.deepEqual(score, scoreOf({ upper: 2, lower: 2, exact: true }, 4));
});

test("a line that began elsewhere than the start has no score to give", () => {
  const { end } = board();
  end.load(START, end.game.parse("1 2 3 4 5 6 7 0 8"), { shortest: 2 });
  end.playerMove({ tile: 8 });
  assert.equal(end.isSolved(), true);
  const score = end.score();
  assert.deepEqual([score.moves, score.percent, score.atLeast], [1, null, null]);
});

test("the server proving the start's shortest scores the finish from it", () => {
  const { end } = board();
  end.shortest = null;
  end.playerMove({ tile: 5 });
  end.playerMove({ tile: 8 });
  assert.equal(end.score().percent, null);
  end.knowShortest(2);
  assert.equal(end.score().percent, 100);
});

test("the player's own clock starts with the first move; the server's runs from its figure", () => {
  const own = board().end;
  assert.equal(own.clock.running, false);
  own.playerMove({ tile: 5 });
  assert.equal(own.clock.running, true);
  const ranked = board().end;
  ranked.runServerClock(17);
  assert.ok(ranked.clock.ms >= 17_000);
  ranked.restart();
  assert.ok(ranked.clock.ms >= 17_000, "a restart does not set the server's clock back");
  ranked.playerMove({ tile: 5 });
  ranked.playerMove({ tile: 8 });
  assert.equal(ranked.clock.running, false, "the finish stops it");
});

test("a countdown shows the seconds left and runs on through a finish", () => {
  const clock = new Clock();
  clock.countDown(9_500);
  assert.equal(clock.text(), "10");
  const { end } = board();
  end.clock.countDown(60_000);
  end.playerMove({ tile: 5 });
  end.playerMove({ tile: 8 });
  assert.equal(end.clock.running, true);
  assert.equal(end.clock.countsDown, true);
});

test("a refusal in the same words is announced again", () => {
  const { end } = board();
  const node = { textContent: "" };
  end.playerMove({ tile: 1 });
  end.showStatus(node, end.notice);
  const first = node.textContent;
  end.playerMove({ tile: 1 });
  end.showStatus(node, end.notice);
  assert.notEqual(node.textContent, first);
  assert.equal(node.textContent.replace(/\u200b/g, ""), first);
});
