// The undo history on its own: no page, no rules, only board texts and a cursor.
import assert from "node:assert/strict";
import { test } from "node:test";

import { History } from "../../static/js/history.js";

/** A history holding the line a -> b -> c -> d (three entries). */
function line() {
  const history = new History();
  for (const [before, after] of [["a", "b"], ["b", "c"], ["c", "d"]]) {
    history.push({ before, after, move: `${before}${after}`, kind: "player" });
  }
  return history;
}

test("a new history has nothing to undo, redo or show", () => {
  const history = new History();
  assert.equal(history.canUndo, false);
  assert.equal(history.canRedo, false);
  assert.equal(history.last, null);
  assert.equal(history.next, null);
  assert.equal(history.undo(), null);
  assert.equal(history.redo(), null);
  assert.deepEqual(history.boards(), []);
  assert.equal(history.jump(0), null);
});

test("undo and redo walk the line and return the entry they cross", () => {
  const history = line();
  assert.equal(history.last.after, "d");
  assert.equal(history.undo().before, "c");
  assert.equal(history.undo().before, "b");
  assert.equal(history.cursor, 1);
  assert.equal(history.next.after, "c");
  assert.equal(history.redo().after, "c");
  assert.equal(history.cursor, 2);
  assert.equal(history.undo().after, "c");
  assert.equal(history.undo().after, "b");
  assert.equal(history.undo(), null);
});

test("undo stops at the start and redo at the end", () => {
  const history = line();
  while (history.undo()) { /* back to the start */ }
  assert.equal(history.cursor, 0);
  assert.equal(history.canUndo, false);
  assert.equal(history.undo(), null);
  while (history.redo()) { /* forward to the end */ }
  assert.equal(history.cursor, 3);
  assert.equal(history.canRedo, false);
  assert.equal(history.redo(), null);
});

test("a move after undo forgets the undone ones", () => {
  const history = line();
  history.undo();
  history.undo();
  history.push({ before: "b", after: "x", move: "bx", kind: "player" });
  assert.equal(history.entries.length, 2);
  assert.equal(history.canRedo, false);
  assert.deepEqual(history.boards(), ["a", "b", "x"]);
});

test("boards lists the start and every position after it, redoable ones too", () => {
  const history = line();
  history.undo();
  assert.deepEqual(history.boards(), ["a", "b", "c", "d"]);
});

test("jump puts the cursor after that many entries and gives the board there", () => {
  const history = line();
  assert.equal(history.jump(0), "a");
  assert.equal(history.cursor, 0);
  assert.equal(history.canRedo, true);
  assert.equal(history.jump(2), "c");
  assert.equal(history.last.after, "c");
  assert.equal(history.jump(3), "d");
  for (const bad of [-1, 4, 1.5, "2", null]) {
    assert.equal(history.jump(bad), null, `jump(${bad})`);
    assert.equal(history.cursor, 3);
  }
});

test("amendLast continues the latest move, and drops one that comes back to its start", () => {
  const history = line();
  history.amendLast("e", "ce");
  assert.equal(history.entries.length, 3);
  assert.deepEqual(history.last, { before: "c", after: "e", move: "ce", kind: "player" });
  history.amendLast("c", "cc");
  assert.equal(history.entries.length, 2);
  assert.equal(history.cursor, 2);
  assert.equal(history.last.after, "c");
});

test("amendLast after undo forgets the undone entries first", () => {
  const history = line();
  history.undo();
  history.amendLast("y", "by");
  assert.equal(history.canRedo, false);
  assert.deepEqual(history.boards(), ["a", "b", "y"]);
});

test("clear empties the history", () => {
  const history = line();
  history.clear();
  assert.equal(history.entries.length, 0);
  assert.equal(history.cursor, 0);
  assert.equal(history.canUndo, false);
});
