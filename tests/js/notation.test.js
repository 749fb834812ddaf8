// The games' notation and rules in the browser (static/js/games/*.js), without a page:
// boards round-trip through parse and format, moves follow the rules, and a
// breadth-first search over the JS rules finds the same shortest lengths as the
// Python solver (`python -m solver solve GAME BOARD`), so the two rule books agree.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as jugs from "../../static/js/games/jugs.js";
import * as klotski from "../../static/js/games/klotski.js";
import * as npuzzle from "../../static/js/games/npuzzle.js";
import * as rushhour from "../../static/js/games/rushhour.js";
import { vehiclesOf } from "../../static/js/games/rushhour-moves.js";
import * as watersort from "../../static/js/games/watersort.js";

/** Shortest number of moves from `board` to a goal, over `candidates(state)` moves. */
function shortest(game, board, candidates) {
  const start = game.parse(board);
  let layer = [start];
  const seen = new Set([game.format(start)]);
  for (let depth = 0; layer.length; depth += 1) {
    const next = [];
    for (const state of layer) {
      if (game.isGoal(state)) return depth;
      for (const move of candidates(state)) {
        const child = game.apply(state, move);
        if (!child) continue;
        const text = game.format(child);
        if (!seen.has(text)) {
          seen.add(text);
          next.push(child);
        }
      }
    }
    layer = next;
  }
  return null;
}

/** Every (from, to) pair of `count` containers. */
function pairs(count) {
  const found = [];
  for (let from = 0; from < count; from += 1) {
    for (let to = 0; to < count; to += 1) if (from !== to) found.push({ from, to });
  }
  return found;
}

test("boards round-trip through parse and format", () => {
  const cases = [
    [klotski, {}, "BAAC/BAAC/DEEF/DGHF/I..J"],
    [npuzzle, {}, "8 6 7 2 5 4 3 0 1"],
    [npuzzle, {}, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"],
    [watersort, {}, "ABAB,BABA,,"],
    [watersort, { capacity: 3 }, "AAB,BBA,,"],
    [jugs, { goal: "0,4,4" }, "0/3,0/5,8/8"],
    [rushhour, {}, "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"],
    [rushhour, {}, "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM"],
  ];
  for (const [module, options, board] of cases) {
    const game = module.createGame(options);
    assert.equal(game.format(game.parse(board)), board);
  }
});

test("the N-puzzle accepts commas and slashes, and writes single spaces", () => {
  const game = npuzzle.createGame();
  assert.equal(game.format(game.parse("1,2,3/4,5,6/7,8,0")), "1 2 3 4 5 6 7 8 0");
});

test("boards the rules cannot read are refused with an error that quotes them", () => {
  assert.throws(() => npuzzle.createGame().parse("1 2 3"), /"1 2 3"/);
  assert.throws(() => klotski.createGame().parse("AA/A"), /"AA\/A"/);
  assert.throws(() => watersort.createGame().parse("AAAAA,"), /more than 4/);
  assert.throws(() => jugs.createGame().parse("3/2,0/5"), /jug 1 cannot hold 3 of 2/);
  assert.throws(() => jugs.createGame().parse("0/3"), /at least two jugs/);
  assert.throws(() => jugs.createGame().parse("0/3,five"), /jug 2 is "five"/);
  assert.throws(() => rushhour.createGame().parse("AAoo"), /"AAoo" has 4 cells/);
  assert.throws(() => rushhour.createGame().parse(`AAoooo${"o".repeat(30)}`), /third row/);
  assert.throws(() => rushhour.createGame().parse(`${"o".repeat(12)}AAoooB${"o".repeat(18)}`), /B is 1 cell/);
});

test("goals: solved boards are recognised and others are not", () => {
  const n = npuzzle.createGame();
  assert.equal(n.isGoal(n.parse("1 2 3 4 5 6 7 8 0")), true);
  assert.equal(n.isGoal(n.parse("1 2 3 4 5 6 7 0 8")), false);
  const w = watersort.createGame();
  assert.equal(w.isGoal(w.parse("AAAA,,BBBB")), true);
  assert.equal(w.isGoal(w.parse("AAAB,,BBBA")), false);
  const j = jugs.createGame({ goal: "*,4,*" });
  assert.equal(j.isGoal(j.parse("1/3,4/5,3/8")), true);
  const k = klotski.createGame();
  assert.equal(k.isGoal(k.parse(".AAB/CAAD/E..F")), false);
  assert.equal(k.isGoal(k.parse("...B/CAAD/EAAF")), true);
  const r = rushhour.createGame();
  assert.equal(r.isGoal(r.parse(`${"o".repeat(12)}ooooAA${"o".repeat(18)}`)), true);
  assert.equal(r.isGoal(r.parse(`${"o".repeat(12)}oooAAo${"o".repeat(18)}`)), false);
  assert.equal(r.format(r.parse(`${".".repeat(12)}AA....${".".repeat(18)}`)), `${"o".repeat(12)}AAoooo${"o".repeat(18)}`);
});

test("an N-puzzle move slides a tile next to the blank, and only such a tile", () => {
  const game = npuzzle.createGame();
  const state = game.parse("1 2 3 4 0 6 7 5 8");
  assert.equal(game.format(game.apply(state, { tile: 5 })), "1 2 3 4 5 6 7 0 8");
  assert.deepEqual(game.describeMove(state, { tile: 5 }), { tile: 5, dir: "up", text: "5 up" });
  assert.equal(game.apply(state, { tile: 1 }), null);
  assert.equal(game.apply(state, { tile: 5, dir: "down" }), null);
  assert.equal(game.apply(state, { tile: 0 }), null);
  assert.equal(game.format(state), "1 2 3 4 0 6 7 5 8", "apply never changes its input");
});

test("a pour moves the top run as far as it fits, onto its own colour or an empty tube", () => {
  const game = watersort.createGame();
  const state = game.parse("ABB,AB,,A");
  assert.equal(game.format(game.apply(state, { from: 0, to: 1 })), "A,ABBB,,A");
  assert.equal(game.format(game.apply(state, { from: 0, to: 2 })), "A,AB,BB,A");
  assert.equal(game.apply(state, { from: 0, to: 3 }), null, "B onto A");
  assert.equal(game.apply(state, { from: 2, to: 0 }), null, "from an empty tube");
  assert.equal(game.apply(state, { from: 0, to: 0 }), null);
  assert.deepEqual(game.describeMove(state, { from: 0, to: 2 }),
    { from: 0, to: 2, amount: 2, colour: "B", text: "tube 1 -> 3" });
  assert.equal(watersort.extra.apply("AB,BA"), "AB,BA,");
});

test("a jug pour stops when the source is empty or the target full", () => {
  const game = jugs.createGame();
  const state = game.parse("0/3,4/5,4/8");
  assert.equal(game.format(game.apply(state, { from: 1, to: 0 })), "3/3,1/5,4/8");
  assert.equal(game.format(game.apply(state, { from: 2, to: 1 })), "0/3,5/5,3/8");
  assert.equal(game.apply(state, { from: 0, to: 1 }), null, "nothing to pour");
  assert.equal(game.apply(state, { from: 1, to: 7 }), null, "no such jug");
});

test("a Klotski piece moves along free cells only, and a second step continues the move", () => {
  const game = klotski.createGame();
  const state = game.parse("AAB/AA./C.D");
  assert.equal(game.apply(state, { piece: "A", dir: "down" }), null, "C is in the way");
  assert.equal(game.apply(state, { piece: "C", dir: "left" }), null, "the wall");
  const first = game.describeMove(state, { piece: "C", dir: "right" });
  assert.deepEqual(first, { piece: "C", from: [2, 0], to: [2, 1], path: [[2, 1]], text: "C right" });
  const moved = game.apply(state, first);
  assert.equal(game.format(moved), "AAB/AA./.CD");
  const second = game.describeMove(moved, { piece: "C", dir: "up" });
  assert.equal(second, null, "A is above");
  const down = game.describeMove(game.parse("AAB/AA./.C."), { piece: "C", dir: "right" });
  assert.equal(game.continues(first, down).text, "C right 2");
  assert.equal(game.continues(first, { ...down, piece: "D" }), null);
  assert.equal(klotski.createGame({ metric: "step" }).continues(first, down), null);
});

test("the JS rules find the Python solver's shortest lengths", () => {
  const dirs = ["up", "down", "left", "right"];
  const k = klotski.createGame({ metric: "step" });
  const pieces = (state) => [...new Set(state.cells.filter((c) => c !== "."))];
  // python -m solver solve klotski AAB/AA./C.D --metric step: 4 moves
  assert.equal(shortest(k, "AAB/AA./C.D",
    (s) => pieces(s).flatMap((piece) => dirs.map((dir) => ({ piece, dir })))), 4);
  // python -m solver solve watersort ABAB,BABA,,: 7 pours
  const w = watersort.createGame();
  assert.equal(shortest(w, "ABAB,BABA,,", (s) => pairs(s.tubes.length)), 7);
  // python -m solver solve jugs 0/3,0/5,8/8 --goal 0,4,4: 7 pours (the original's answer)
  const j = jugs.createGame({ goal: "0,4,4" });
  assert.equal(shortest(j, "0/3,0/5,8/8", (s) => pairs(s.jugs.length)), 7);
  // python -m solver solve rushhour oGoBBooGCCDDAAHoooooHoIoEEFFIooooooo: 10 moves (a
  // cluster of 304 in Fogleman's database), each slide one move however far it goes
  const r = rushhour.createGame();
  const slides = (s) => [...vehiclesOf(s)].flatMap(([piece, v]) => [0, 1, 2, 3, 4]
    .map((to) => ({ piece, to: v.horizontal ? [v.r, to] : [to, v.c] })));
  assert.equal(shortest(r, "oGoBBooGCCDDAAHoooooHoIoEEFFIooooooo", slides), 10);
  // python -m solver solve npuzzle "1 2 3 4 0 6 7 5 8": 2 moves
  const n = npuzzle.createGame();
  assert.equal(shortest(n, "1 2 3 4 0 6 7 5 8", (s) => s.tiles.map((tile) => ({ tile }))), 2);
});

test("the jugs' default goal shares the water equally between the two largest jugs", () => {
  const game = jugs.createGame();
  game.parse("0/3,0/5,8/8");
  assert.deepEqual(game.goal, [0, 4, 4]);
});
