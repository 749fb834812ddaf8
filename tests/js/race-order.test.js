// The newest race_state wins (static/js/race-order.js): states from two web processes may
// arrive out of order.
import assert from "node:assert/strict";
import { test } from "node:test";

import { isCurrent as isNewer } from "../../static/js/race-order.js";

// the statuses in their order, as the server renders them into the race page's config
const STAGES = ["waiting", "countdown", "racing", "finished"];
const state = (version, status = "racing", race = "r1") => ({ race, version, status });
const isCurrent = (next, last) => isNewer(next, last, STAGES);

test("a state of an older version is stale, a newer one current", () => {
  assert.equal(isCurrent(state(4), state(5)), false);
  assert.equal(isCurrent(state(6), state(5)), true);
});

test("at one version, the clock's later stage is current and an earlier one stale", () => {
  assert.equal(isCurrent(state(3, "racing"), state(3, "countdown")), true);
  assert.equal(isCurrent(state(3, "countdown"), state(3, "racing")), false);
  assert.equal(isCurrent(state(3, "finished"), state(3, "finished")), true);
});

test("the first state, and another race's, are always current", () => {
  assert.equal(isCurrent(state(1), null), true);
  assert.equal(isCurrent(state(1, "waiting", "r2"), state(9, "finished")), true);
});
