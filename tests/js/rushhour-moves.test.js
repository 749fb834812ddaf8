// Rush Hour's moves without the page (static/js/games/rushhour-moves.js): slides along
// a vehicle's line, refusals in words, how far a vehicle reaches, slides described as
// the server describes them and a second slide of one vehicle joined to the first.
import assert from "node:assert/strict";
import { test } from "node:test";

import { applyMove, continueSlide, describe, formatBoard, parseBoard, reach, whyNot }
  from "../../static/js/games/rushhour-moves.js";

// the 51-move puzzle: A on the third row, C a truck lying, G a truck standing, walls none
const START = parseBoard("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo");
const WALLED = parseBoard("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM");

test("a slide goes any distance over free cells, along the vehicle's line only", () => {
  const moved = applyMove(START, { piece: "C", to: [3, 0] });
  assert.equal(moved, null, "C is there already");
  const b = applyMove(START, { piece: "B", to: [0, 2] });
  assert.equal(formatBoard(b), "GoBBLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo");
  assert.equal(applyMove(START, { piece: "B", to: [0, 4] }), null, "L is in the way");
  assert.equal(applyMove(START, { piece: "B", to: [1, 1] }), null, "off its row");
  assert.equal(applyMove(START, { piece: "B", dir: "down" }), null, "B lies across");
  assert.equal(formatBoard(applyMove(START, { piece: "B", dir: "right" })), formatBoard(b));
  assert.equal(formatBoard(START), "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo", "apply never changes its input");
});

test("how far a vehicle reaches, walls and the edge included", () => {
  assert.deepEqual(reach(START, "B"), { at: 1, low: 1, high: 2 });
  assert.deepEqual(reach(START, "F"), { at: 3, low: 3, high: 4 });
  assert.deepEqual(reach(START, "K"), { at: 3, low: 3, high: 3 });
  assert.deepEqual(reach(START, "A"), { at: 3, low: 3, high: 3 });
  assert.deepEqual(reach(WALLED, "B"), { at: 1, low: 1, high: 1 }, "the wall x on its right");
});

test("a refused move says why: its line, the edge, a wall or a vehicle", () => {
  assert.equal(whyNot(START, { piece: "B", dir: "up" }), "Vehicle B only moves left and right.");
  assert.equal(whyNot(START, { piece: "G", dir: "left" }), "Vehicle G only moves up and down.");
  assert.equal(whyNot(START, { piece: "G", dir: "up" }), "Vehicle G cannot move up: the edge of the board is in the way.");
  assert.equal(whyNot(WALLED, { piece: "B", dir: "right" }), "Vehicle B cannot move right: a wall is in the way.");
  assert.equal(whyNot(START, { piece: "A", dir: "right" }), "Vehicle A cannot move right: vehicle M is in the way.");
  assert.equal(whyNot(START, { piece: "Q", dir: "right" }), "There is no vehicle Q.");
});

test("a slide is described as the server describes it, and a second one joins it", () => {
  const state = parseBoard("oooooooooooooAAoooooooooooooooBBoooo");
  const first = describe(state, { piece: "B", dir: "right" });
  assert.deepEqual(first, { piece: "B", from: [5, 0], to: [5, 1], path: [[5, 1]], steps: 1, text: "B right" });
  const second = describe(applyMove(state, first), { piece: "B", to: [5, 4] });
  assert.deepEqual(second.path, [[5, 2], [5, 3], [5, 4]]);
  const joined = continueSlide(first, second);
  assert.equal(joined.text, "B right 4");
  assert.deepEqual([joined.from, joined.to, joined.steps, joined.turnsBack], [[5, 0], [5, 4], 4, false]);
  const back = describe(applyMove(state, first), { piece: "B", dir: "left" });
  assert.equal(continueSlide(second, back).turnsBack, true);
  assert.equal(continueSlide(first, { ...second, piece: "A" }), null);
  assert.equal(describe(state, { piece: "A", to: [2, 4] }).text, "A right 3");
});
