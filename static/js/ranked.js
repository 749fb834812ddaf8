// Ranked play (webapp/players/attempts.py) and resuming a game after a reload,
// mixed into the Controller. While the server's attempt is open and unaided the
// coach stays closed and nothing is asked of the solver; `helped` once the player
// opened the coach or used Hint or Solve (the result goes unranked); `settled` once
// the finished attempt's result is on record (the whole coach opens).


import { gettext } from "./i18n.js";
import { EVENT } from "./protocol.js";
/** The ranked-play fields a new controller starts with. */
export function rankedState(config) {
  return { ranked: Boolean(config.attempt && config.attempt.ranked), helped: false, settled: false };
}

export const RankedPlay = {
  /** What a reload needs to bring this game back (kept in the tab's sessionStorage). */
  saved() {
    return { board: this.initialBoard, entries: this.history.entries, cursor: this.history.cursor,
             assisted: this.assisted, helped: this.helped, ms: this.clock.ms };
  },

  /** True while the coach stays closed: a ranked attempt, unaided, not yet on record. */
  get coachClosed() { return this.ranked && !this.helped && !this.settled; },

  /** The player chose help (the coach, Hint or Solve): this attempt goes unranked. */
  giveUpRanked() {
    if (!this.ranked || this.helped) return;
    this.helped = true;
  },

  /** The "open coach" button: distances, rated moves and the graph, unranked from now on. */
  openCoach() {
    if (!this.coachClosed) return;
    this.giveUpRanked();
    this.notice = gettext("Coach open: this attempt is no longer ranked.");
    this.evaluate();
    this.changed();
  },

  /** The finished attempt's result is on record: analysis after the game. */
  settle() {
    if (this.settled) return;
    this.settled = true;
    this.evaluate();
    this.backfill();
    this.changed();
  },

  /** A ranked line's positions were never analysed while the coach was closed: ask for
   * them one at a time once it is open, so the graph and the review have their distances. */
  backfill() {
    if (!this.ranked || this.coachClosed || this.link.current) return;
    const board = this.history.boards().find((b) => !this.analyses.has(b));
    if (board) this.link.request(EVENT.ANALYSE, this.payload(board));
  },

  /** Bring back the moves `saved` before a reload (the same start board); returns the
   * state to show, the start's when the saved line no longer reads. */
  resume(saved, state) {
    if (!Array.isArray(saved.entries)) return state;
    this.history.entries = saved.entries;
    this.history.cursor = Math.max(0, Math.min(saved.entries.length, Number(saved.cursor) || 0));
    this.assisted = Boolean(saved.assisted);
    if (saved.helped) this.giveUpRanked();
    this.clock.elapsed = Number(saved.ms) || 0;
    const board = this.history.cursor ? this.history.entries[this.history.cursor - 1].after : this.initialBoard;
    try { return this.game.parse(board); } catch { this.history.clear(); return state; }
  },
};
