// Solution playback: a timer that asks its owner to step, and stops at the end or
// when the player leaves the solution's line.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Playback } from "../../static/js/playback.js";

/** A playback over a line of `length` moves whose current index the test controls. */
function rig(length, speed = 5) {
  const line = { at: 0, steps: [], changes: 0 };
  const playback = new Playback({
    step: (i) => { line.steps.push(i); line.at = i + 1; return true; },
    back: () => { line.at -= 1; return true; },
    position: () => line.at,
    changed: () => { line.changes += 1; },
  }, speed);
  playback.load({ moves: Array.from({ length }, (_, i) => `m${i}`), states: [], optimal: true });
  return { playback, line };
}

const settle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("nothing loaded: no position, no steps", () => {
  const playback = new Playback({ changed: () => {} }, 10);
  assert.equal(playback.loaded, false);
  assert.equal(playback.position(), -1);
  assert.equal(playback.canForward(), false);
  playback.play();
  assert.equal(playback.playing, false);
});

test("play steps through every move in order, then stops", async () => {
  const { playback, line } = rig(3);
  playback.play();
  assert.equal(playback.playing, true);
  for (let waited = 0; playback.playing && waited < 5000; waited += 20) await settle(20);
  assert.deepEqual(line.steps, [0, 1, 2]);
  assert.equal(playback.playing, false);
  assert.equal(playback.canForward(), false);
});

test("pause stops the timer; stepping works by hand", async () => {
  const { playback, line } = rig(3, 40);
  playback.play();
  playback.pause();
  await settle(100);
  assert.deepEqual(line.steps, []);
  assert.equal(playback.stepForward(), true);
  assert.equal(playback.stepBack(), true);
  assert.equal(line.at, 0);
  assert.equal(playback.stepBack(), false, "nothing before the start");
});

test("off the solution's line (position -1) nothing plays", () => {
  const { playback, line } = rig(3);
  line.at = -1;
  assert.equal(playback.canForward(), false);
  assert.equal(playback.stepForward(), false);
  playback.play();
  assert.equal(playback.playing, false);
});

test("toggle plays and pauses", () => {
  const { playback } = rig(2, 1000);
  playback.toggle();
  assert.equal(playback.playing, true);
  playback.toggle();
  assert.equal(playback.playing, false);
});
