// The shared result: the sparkline (static/js/coach/share.js), stars and accuracy words (static/js/score.js),
// and the progress store's help flag (static/js/progress.js).
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { sparkline } from "../../static/js/coach/share.js";
import { accuracyText, starsOf } from "../../static/js/score.js";
import { best, isPerfect, record } from "../../static/js/progress.js";

const point = (distance, extra = {}) => ({ distance, optimal: true, solvable: true, ...extra });

test("the sparkline follows the distances, highest block for the farthest", () => {
  assert.equal(sparkline([3, 2, 1, 0].map((d) => point(d))), "█▆▃▁");
  assert.equal(sparkline([point(2), point(null), point(null, { solvable: false })]), "█·✗");
});

test("a line of propagated bounds makes a sparkline without spikes", () => {
  const line = Array.from({ length: 120 }, (_, i) => point(110 - i < 0 ? 0 : 110 - i));
  const blocks = [...sparkline(line)];
  assert.equal(blocks.length, 40);
  const levels = blocks.map((b) => "▁▂▃▄▅▆▇█".indexOf(b));
  for (let i = 1; i < levels.length; i++) assert.ok(levels[i] <= levels[i - 1], blocks.join(""));
});

test("stars: none when assisted, from the proven or the certain accuracy otherwise", () => {
  assert.equal(starsOf({ assisted: true, percent: 100, atLeast: null }), 0);
  assert.equal(starsOf({ assisted: false, percent: 100, atLeast: null }), 3);
  assert.equal(starsOf({ assisted: false, percent: null, atLeast: 85 }), 2);
  assert.equal(accuracyText({ percent: null, atLeast: 72 }), "at least 72%");
  assert.equal(accuracyText({ percent: 97, atLeast: null }), "97%");
  assert.equal(accuracyText({ percent: null, atLeast: null }), "");
});

beforeEach(() => {
  const store = new Map();
  globalThis.localStorage = {
    getItem: (k) => (store.has(k) ? store.get(k) : null),
    setItem: (k, v) => store.set(k, String(v)),
  };
});

test("an assisted solve is kept only until the player's own, and is never perfect", () => {
  record("k", { moves: 47, min: 47, assisted: true });
  assert.equal(best("k").assisted, true);
  assert.equal(best("k").accuracy, null);
  assert.equal(isPerfect(best("k")), false);
  record("k", { moves: 60, min: 47 });
  assert.deepEqual([best("k").moves, best("k").assisted, best("k").accuracy], [60, undefined, 78]);
  record("k", { moves: 47, min: 47, assisted: true }); // help later does not replace it
  assert.deepEqual([best("k").moves, isPerfect(best("k"))], [60, false]);
  record("k", { moves: 47, min: 47 });
  assert.ok(isPerfect(best("k")));
});
