// Klotski's moves without the page (static/js/games/klotski-moves.js): refusals in
// words, click-to-target paths and joined moves.
import assert from "node:assert/strict";
import { test } from "node:test";

import { applyMove, joinPaths, pathTo, whyNot } from "../../static/js/games/klotski-moves.js";

const board = (text) => {
  const rows = text.split("/");
  return { h: rows.length, w: rows[0].length, cells: rows.join("").split("") };
};
const START = board("BAAC/BAAC/DEEF/DGHF/I..J");

test("a blocked move says what is in the way", () => {
  assert.equal(whyNot(START, { piece: "A", dir: "up" }), "Piece A cannot move up: the wall is in the way.");
  assert.equal(whyNot(START, { piece: "A", dir: "down" }), "Piece A cannot move down: piece E is in the way.");
  assert.equal(whyNot(START, { piece: "Z", dir: "down" }), "There is no piece Z.");
});

test("click-to-target finds a one-move path per metric", () => {
  // G (3,1) reaches (4,2) by down then right: one move in the piece metric only
  assert.deepEqual(pathTo("piece", START, "G", 4, 2), [[4, 1], [4, 2]]);
  assert.equal(pathTo("straight", START, "G", 4, 2), null);
  assert.deepEqual(pathTo("step", START, "G", 4, 1), [[4, 1]]);
  const wide = board("AA./...");
  assert.deepEqual(pathTo("straight", wide, "A", 0, 2), [[0, 1]]); // covering the cell is enough
  assert.equal(pathTo("piece", START, "A", 4, 1), null);
  const path = pathTo("piece", START, "G", 4, 2);
  assert.ok(applyMove(START, { piece: "G", path }));
});

test("a step back cancels the step it undoes", () => {
  const last = { from: [3, 1], path: [[4, 1], [4, 2]] };
  assert.deepEqual(joinPaths(last, { path: [[4, 1]] }), { path: [[4, 1]], turnsBack: true });
  assert.deepEqual(joinPaths({ from: [3, 1], path: [[4, 1]] }, { path: [[3, 1]] }), { path: [], turnsBack: true });
  assert.deepEqual(joinPaths({ from: [3, 1], path: [[4, 1]] }, { path: [[4, 2]] }),
                   { path: [[4, 1], [4, 2]], turnsBack: false });
});
