// Undo/redo for a game: a list of entries {before, after, move, kind} and a cursor.
// Entries keep board texts so undo never needs to know the game's rules.

export class History {
  constructor() {
    this.entries = [];
    this.cursor = 0; // entries[0..cursor) are in effect
  }

  get canUndo() { return this.cursor > 0; }
  get canRedo() { return this.cursor < this.entries.length; }
  /** The latest entry in effect, or null at the start. */
  get last() { return this.cursor > 0 ? this.entries[this.cursor - 1] : null; }
  /** The entry redo would replay, or null. */
  get next() { return this.canRedo ? this.entries[this.cursor] : null; }

  /** Record a new move; anything that was undone is forgotten. */
  push(entry) {
    this.entries.length = this.cursor;
    this.entries.push(entry);
    this.cursor += 1;
  }

  /**
   * Replace the latest entry (Klotski's piece metric: moving the same piece again
   * continues one move). A move that returns to where it started is dropped.
   */
  amendLast(after, move) {
    const last = this.last;
    this.entries.length = this.cursor;
    if (last.before === after) {
      this.entries.pop();
      this.cursor -= 1;
    } else {
      last.after = after;
      last.move = move;
    }
  }

  undo() {
    if (!this.canUndo) return null;
    this.cursor -= 1;
    return this.entries[this.cursor];
  }

  redo() {
    if (!this.canRedo) return null;
    this.cursor += 1;
    return this.entries[this.cursor - 1];
  }

  /** Put the cursor after `cursor` entries; returns the board there, or null. */
  jump(cursor) {
    if (!this.entries.length || !Number.isInteger(cursor) || cursor < 0 || cursor > this.entries.length) return null;
    this.cursor = cursor;
    return cursor === 0 ? this.entries[0].before : this.entries[cursor - 1].after;
  }

  /** Every board of the line: the start, then the one after each entry (redoable ones too). */
  boards() {
    return this.entries.length ? [this.entries[0].before, ...this.entries.map((e) => e.after)] : [];
  }

  clear() {
    this.entries = [];
    this.cursor = 0;
  }
}
