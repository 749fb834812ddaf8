// Bound propagation along a line (static/js/coach/bounds.js) and accuracy from bounds (static/js/score.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { factsOf, mergeFacts, propagate, unknownFacts, verdictByBounds } from "../../static/js/coach/bounds.js";
import { accuracyOf } from "../../static/js/score.js";

const bound = (upper, lower = 0) => ({ upper, lower, unsolvable: false });
const exactly = (d) => bound(d, d);
const line = (facts) => facts.map((f, i) => ({ board: `b${i}`, ...f }));
const moves = (n) => Array(n).fill("move");

test("an interim bound far above its neighbour's is pulled down to it plus one", () => {
  // the 5x5 spike: a stale interim 233 between two final bounds
  const out = propagate(line([bound(102), bound(233), bound(101)]), moves(2), { reversible: true });
  assert.deepEqual(out.map((p) => p.upper), [102, 102, 101]);
});

test("neighbouring points never differ by more than one once known (reversible moves)", () => {
  const given = [bound(140), bound(222), null, bound(90), bound(233), exactly(58), bound(70), null, exactly(56)];
  const facts = line(given.map((f) => f || unknownFacts()));
  const out = propagate(facts, moves(facts.length - 1), { reversible: true });
  for (let i = 1; i < out.length; i++) {
    if (out[i].upper !== null && out[i - 1].upper !== null) {
      assert.ok(Math.abs(out[i].upper - out[i - 1].upper) <= 1, `plies ${i - 1},${i}: ${out[i - 1].upper} ${out[i].upper}`);
    }
  }
  assert.equal(out[2].upper, 61); // unknown, bounded through its neighbours
  assert.equal(out[4].upper, 59);
  assert.equal(out[0].upper, 63);
  assert.equal(out[0].lower, 53); // 58 three plies on: at least 58 - 5
});

test("bounds that meet prove a distance", () => {
  // 58 proven at ply 0, 56 proven at ply 2: ply 1 is at most 57 and at least 57
  const out = propagate(line([exactly(58), bound(80), exactly(56)]), moves(2), { reversible: true });
  assert.equal(out[1].upper, 57);
  assert.equal(out[1].lower, 57);
  assert.ok(out[1].exact);
});

test("without undoable moves only the earlier position is bounded by the later one", () => {
  const out = propagate(line([bound(30), exactly(5)]), moves(1), { reversible: false });
  assert.equal(out[0].upper, 6);
  const back = propagate(line([exactly(5), bound(30)]), moves(1), { reversible: false });
  assert.equal(back[1].upper, 30); // a pour cannot be undone: 5 says nothing above
  assert.equal(back[1].lower, 4);
});

test("an extra tube only helps: the position after it is no farther", () => {
  const out = propagate(line([exactly(7), bound(20)]), ["extra"], { reversible: false });
  assert.equal(out[1].upper, 7);
  const before = propagate(line([bound(20), exactly(7)]), ["extra"], { reversible: false });
  assert.equal(before[0].upper, 20);
  assert.equal(before[0].lower, 7);
});

test("the same board twice shares its bounds, and unsolvable points stay apart", () => {
  const facts = [{ board: "a", ...bound(50) }, { board: "b", ...bound(49) }, { board: "a", ...exactly(48) }];
  const out = propagate(facts, moves(2), { reversible: true });
  assert.deepEqual([out[0].upper, out[0].exact], [48, true]);
  const dead = propagate(line([exactly(3), { upper: null, lower: 0, unsolvable: true }]), moves(1), { reversible: false });
  assert.ok(dead[1].unsolvable && dead[1].upper === null);
});

test("a solved line bounds the start by the moves made", () => {
  const out = propagate(line([bound(120), unknownFacts(), unknownFacts(), exactly(0)]), moves(3), { reversible: true });
  assert.equal(out[0].upper, 3);
});

test("facts from answers: proven, bounded with a lower bound, unsolvable", () => {
  assert.deepEqual(factsOf({ distance: 58, optimal: true, solvable: true }), exactly(58));
  assert.deepEqual(factsOf({ distance: 102, optimal: false, lower_bound: 80 }), bound(102, 80));
  assert.deepEqual(factsOf({ distance: null, optimal: true, solvable: false }), { upper: null, lower: 0, unsolvable: true });
  assert.deepEqual(mergeFacts(bound(102, 80), bound(110, 84)), bound(102, 84));
  assert.deepEqual(mergeFacts(bound(222), bound(102)), bound(102)); // the better answer replaces the interim one
});

test("accuracy is never over 100% and says 'at least' from a lower bound only", () => {
  assert.deepEqual(accuracyOf({ upper: 58, lower: 58, exact: true }, 60), { percent: 97, proven: true });
  assert.deepEqual(accuracyOf({ upper: 120, lower: 120, exact: true }, 110), { percent: 100, proven: true });
  assert.deepEqual(accuracyOf({ upper: 102, lower: 80, exact: false }, 110), { atLeast: 72, proven: false });
  assert.equal(accuracyOf({ upper: 102, lower: 0, exact: false }, 110), null);
  assert.deepEqual(accuracyOf({ upper: 3, lower: 3, exact: true }, 3), { percent: 100, proven: true });
});

test("a proof below the generator's walk length wins: optimal 58, not 'optimal ≤ 60'", () => {
  const start = mergeFacts(factsOf({ distance: 60, optimal: false }), factsOf({ distance: 58, optimal: true }));
  const out = propagate(line([start, bound(59), bound(58), exactly(56)]), moves(3), { reversible: true });
  assert.deepEqual([out[0].upper, out[0].exact], [58, true]);
  assert.deepEqual(accuracyOf({ upper: out[0].upper, lower: out[0].lower, exact: out[0].exact }, 60),
                   { percent: 97, proven: true });
});

test("bounds judge a move only when they prove its verdict", () => {
  // here between 52 and 68: a move to at most 51 is one nearer, one to at least 69 is farther
  assert.equal(verdictByBounds(bound(68, 52), bound(51)), "best");
  assert.equal(verdictByBounds(bound(68, 52), bound(null, 69)), "worse");
  // overlapping bounds prove nothing
  assert.equal(verdictByBounds(bound(68, 52), bound(67, 50)), null);
  assert.equal(verdictByBounds(bound(68, 0), bound(3)), null);
  assert.equal(verdictByBounds(bound(null, 5), bound(null, 9)), null);
});
