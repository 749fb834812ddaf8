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

test("a search that gave up is remembered with its lower bound, the longest budget kept", () => {
  const analyses = new Analyses();
  analyses.learnGaveUp("big", { gave_up: true, message: "Too big (5 s)", budget_seconds: 5, lower_bound: 3 });
  analyses.learnGaveUp("big", { gave_up: true, message: "Too big (60 s)", budget_seconds: 60 });
  assert.equal(analyses.tooBig("big").message, "Too big (60 s)");
  assert.equal(analyses.tooBig("small"), null);
  assert.deepEqual(analyses.factsFor("big"), { upper: null, lower: 3, unsolvable: false });
});

test("an unproven solution's lower bound bounds every board along it", () => {
  const analyses = new Analyses();
  analyses.learnSolution({ moves: ["a", "b", "c"], states: ["s0", "s1", "s2", "s3"], optimal: false, lower_bound: 2 });
  assert.deepEqual(["s0", "s1", "s2"].map((b) => analyses.factsFor(b).lower), [2, 1, 0]);
  assert.equal(analyses.factsFor("s0").upper, 3);
});
