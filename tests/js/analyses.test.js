// What a found solution tells the page about each board along it. (Bounds and what a
// parent's rated moves tell about its children: bounds.test.js.)
import assert from "node:assert/strict";
import { test } from "node:test";

import { Analyses } from "../../static/js/analyses.js";

test("a solution proves the distance of every board on it, without replacing known ones", () => {
  const known = new Analyses();
  known.set("b", { board: "b", distance: 5, optimal: true, solvable: true });
  known.learnSolution({ moves: ["m1", "m2", "m3"], states: ["a", "b", "c", "d"], optimal: true });
  assert.equal(known.get("a").distance, 3);
  assert.equal(known.get("a").best_move, "m1");
  assert.equal(known.get("a").next_board, "b");
  assert.equal(known.get("b").distance, 5, "an analysis already there is kept");
  assert.equal(known.get("c").distance, 1);
  assert.equal(known.get("d").solved, true);
  assert.equal(known.get("d").distance, 0);
  assert.equal(known.get("d").best_move, null);
});

test("an unproven solution gives bounds, not proven distances", () => {
  const known = new Analyses();
  known.learnSolution({ moves: ["m"], states: ["a", "b"], optimal: false });
  assert.equal(known.get("a").optimal, false);
});
