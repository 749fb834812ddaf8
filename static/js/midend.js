// The middle end: one board on a page, whatever the page (free play, the daily, a
// level, the ladder, streak, storm, a race; the lab's "play from here" is free play),
// as Simon Tatham's midend.c serves every game of his collection. It holds the
// position and its undo history, plays the move the player asks for or refuses it in
// words, keeps the clock and the busy state, and scores the finish (accuracy and
// stars, score.js; drawn by finish.js). A page adds only what differs, by overriding
// a few methods: whether a move may be played now (`closed`), what a played move does
// next (`played`: a judged page sends it to the server), what a new position does
// (`arrived`: the play page asks the solver about it), what is known of the start's
// fewest moves (`startFacts`) and what a finish reports (`finished`). How a puzzle is
// handed out is the page's: it calls `load`. The game's module draws the board and
// reads the player's input; this module names no game and touches no page element.

import { Clock, servedAt } from "./clock.js";
import { History } from "./history.js";
import { gettext } from "./i18n.js";
import { scoreOf } from "./score.js";

/** How long a player's move slides on screen, in ms. */
export const MOVE_MS = 140;

export class Midend {
  /** `hooks`: changed() after anything the page shows changed, moved() after a new position. */
  constructor(hooks = {}) {
    this.hooks = hooks;
    this.game = null; // the rules: a game module's createGame(options)
    this.view = null; // the game's view, which calls playerMove and refuse
    this.state = null;
    this.board = null; // the position shown, in the notation
    this.initialBoard = null; // the puzzle's start
    this.fromStart = true; // the line began at the start (a resumed run may not have)
    this.history = new History();
    this.clock = new Clock();
    this.serverClock = false; // ranked play: the clock is the server's (runServerClock)
    this.notice = ""; // the status line's words while they are the middle end's
    this.refusals = 0; // how many moves were refused: the same words twice are announced again
    this.shownRefusals = 0;
    this.busy = false; // a move is being judged: the board takes no other
    this.assisted = false; // Solve played moves on this puzzle: its lines earn no stars
    this.shortest = null; // the start's proven fewest moves, when the server said
    this.joinsMoves = true; // a move may continue the last (game.continues); a judged board's may not
  }

  changed() { if (this.hooks.changed) this.hooks.changed(); }

  moved() { if (this.hooks.moved) this.hooks.moved(); }

  // -- what a page overrides ---------------------------------------------------

  /** Why no move may be played now ("" when one may): no run going on, a race not under way. */
  closed() { return ""; }

  /** A move was played on screen (`entry` of the history): a judged page sends it. */
  played() {}

  /** A new position is shown (before the page redraws): the play page asks the solver. */
  arrived() {}

  /** The board is solved (after each position while it stays so): what the finish reports. */
  finished() {}

  /** Anything else the board was doing stops: the play page pauses a playback. */
  interrupt() {}

  /** What is known of the start's fewest moves, {upper, lower, exact}, or null: here the
   * server's proven shortest when the line began at the start. */
  startFacts() {
    if (!this.fromStart || !Number.isInteger(this.shortest)) return null;
    return { upper: this.shortest, lower: this.shortest, exact: true };
  }

  // -- a puzzle ----------------------------------------------------------------

  /** Show the puzzle whose start is `start` (text) at `state` (its start, or where a
   * judged run stands); `shortest` its proven fewest moves when the server said. A new
   * puzzle is a new line: the history, the busy state and the words start afresh. */
  load(start, state, { shortest = null, duration = 0 } = {}) {
    this.initialBoard = start;
    this.fromStart = this.game.format(state) === start;
    this.shortest = Number.isInteger(shortest) ? shortest : null;
    this.history.clear();
    this.busy = false;
    this.notice = "";
    this.setState(state, { duration });
  }

  /** The server proved the start's fewest moves (a result's `shortest`): the finish uses it. */
  knowShortest(shortest) {
    if (!Number.isInteger(shortest) || shortest === this.shortest) return;
    this.shortest = shortest;
    this.changed();
  }

  /** Entries in effect: [moves, extras] (an extra, such as an added tube, is not a move). */
  counts() {
    const done = this.history.entries.slice(0, this.history.cursor);
    const extra = done.filter((e) => e.kind === "extra").length;
    return [done.length - extra, extra];
  }

  isSolved() { return Boolean(this.state) && this.game.isGoal(this.state); }

  /** A move (or its text, the notation) in the reader's words, as the game says it. */
  sayMove(move) {
    const text = typeof move === "string" ? move : (move && move.text) || "";
    return this.game && this.game.say ? this.game.say(text) : text;
  }

  /** The finished board's score (score.js), else null: the same rule on every page
   * (`known` goes to startFacts: the play page's line, when at hand). */
  score(known) {
    const [moves] = this.counts();
    if (!this.isSolved() || moves === 0) return null;
    return scoreOf(this.startFacts(known), moves, this.assisted);
  }

  // -- moves -----------------------------------------------------------------

  /** An attempt the rules (or the page) refuse: the board stays, `target` shakes, the
   * status says why. */
  refuse(reason, target) {
    if (this.view) this.view.shake(target);
    this.notice = reason || gettext("That move is not allowed.");
    this.refusals += 1;
    this.changed();
  }

  /** A move the player asked for; a refused one is explained (unless `quiet`: a drag
   * trying its way). Returns true if played. */
  playerMove(move, target, { quiet = false } = {}) {
    const why = this.closed() || (this.busy ? gettext("One moment: the last move is being judged.") : "");
    const next = why ? null : this.game.apply(this.state, move);
    if (!next) {
      if (!quiet) this.refuse(why || (this.game.whyNot ? this.game.whyNot(this.state, move) : ""), target);
      return false;
    }
    this.interrupt();
    const described = this.game.describeMove(this.state, move) || move;
    const before = this.board;
    const after = this.game.format(next);
    const last = this.history.last;
    const merged = this.joinsMoves && last && last.kind === "player" && last.after === before && !this.history.canRedo
      ? this.game.continues(last.move, described) : null;
    if (merged) this.history.amendLast(after, merged);
    else this.history.push({ before, after, move: described, kind: "player" });
    this.notice = "";
    this.startClock();
    this.setState(next, { duration: MOVE_MS });
    this.played(this.history.last);
    return true;
  }

  /** Go to the position after `cursor` history entries (0: the start); later ones stay redoable. */
  jumpTo(cursor) {
    const board = this.history.jump(cursor);
    if (board === null) return false;
    this.interrupt();
    this.notice = "";
    this.setState(this.game.parse(board), { duration: MOVE_MS });
    return true;
  }

  undo({ keep = false } = {}) {
    if (!keep) this.interrupt();
    const entry = this.history.undo();
    if (!entry) return false;
    this.notice = "";
    this.setState(this.game.parse(entry.before), { duration: MOVE_MS });
    return true;
  }

  redo() {
    this.interrupt();
    const entry = this.history.redo();
    if (!entry) return false;
    this.notice = "";
    this.setState(this.game.parse(entry.after), { duration: MOVE_MS });
    return true;
  }

  /** Back to the start; a clock of the player's own starts again, the server's runs on. */
  restart() {
    this.interrupt();
    this.history.clear();
    if (!this.serverClock) this.clock.reset();
    this.notice = "";
    this.setState(this.game.parse(this.initialBoard), { duration: 250 });
  }

  /** Show `state`, then let the page know (a solved board finishes). */
  setState(state, { duration }) {
    this.state = state;
    this.board = this.game.format(state);
    this.view.render(state, { duration });
    this.moved();
    if (this.isSolved()) this.finish();
    this.arrived();
    this.changed();
  }

  /** The board is solved: a board's own clock stops, and the page reports the finish. */
  finish() {
    if (!this.clock.countsDown) this.clock.stop();
    this.finished();
  }

  /** While a move is being judged the board takes no other (and says so). */
  setBusy(busy) {
    if (busy === this.busy) return;
    this.busy = busy;
    this.changed();
  }

  // -- the clock ---------------------------------------------------------------

  /** A clock of the player's own starts with the first move (none once solved). */
  startClock() { if (!this.serverClock && !this.clock.countsDown && !this.isSolved()) this.clock.start(); }

  /** Ranked play: the clock is the server's, `seconds` on it when it served this page,
   * running from then on (a reload or a restart does not set it back). */
  runServerClock(seconds) {
    this.serverClock = true;
    this.clock.runFrom(seconds * 1000, servedAt());
  }

  // -- the status line ---------------------------------------------------------

  /** Put `text` in the status `node` (an aria-live region): a refusal in the same words as
   * the one shown is still announced (a zero-width space makes the text differ). */
  showStatus(node, text) {
    const shown = node.textContent.replace(/\u200b/g, "");
    const again = this.refusals !== this.shownRefusals && shown === text;
    this.shownRefusals = this.refusals;
    node.textContent = again && !node.textContent.endsWith("\u200b") ? `${text}\u200b` : text;
  }
}
