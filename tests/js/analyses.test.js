// What the page knows about each board: the server's analyses, what a solution
// proves along its line, and what a parent's rated moves tell about its children.
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

test("an unsolvable verdict is an answer too", () => {
  const known = new Analyses();
  known.learnUnsolvable("x");
  assert.deepEqual(known.distanceOf("x"), {
    board: "x", solved: false, solvable: false, distance: null, optimal: true, best_move: null,
  });
});

test("a parent's proven options tell the children's distances, kept apart from their own", () => {
  const known = new Analyses();
  known.set("p", { board: "p", distance: 3, optimal: true, options: [
    { board: "c1", distance: 2, optimal: true, solvable: true },
    { board: "c2", distance: 4, optimal: false, solvable: true },
  ] });
  assert.equal(known.has("c1"), false, "the child is still asked about itself");
  assert.equal(known.distanceOf("c1").distance, 2);
  assert.equal(known.distanceOf("c2"), null, "an unproven option is not learned");
  assert.equal(known.distanceOf("nowhere"), null);
});

test("a board's own proven answer wins; an unproven one yields to a proven option", () => {
  const known = new Analyses();
  known.set("p", { board: "p", distance: 3, optimal: true, options: [
    { board: "c", distance: 2, optimal: true, solvable: true },
  ] });
  known.set("c", { board: "c", distance: 6, optimal: false, solvable: true });
  assert.equal(known.distanceOf("c").distance, 2);
  known.set("c", { board: "c", distance: 2, optimal: true, solvable: true, best_move: "m" });
  assert.equal(known.distanceOf("c").best_move, "m");
});
