// A board whose every move the server judges (streak, storm, a race): the middle end
// (midend.js) with what such a page adds. The server hands out each puzzle ({game,
// options, start, board, shortest}); a move is played on screen at once and handed to
// the page to send, and the board is busy, taking no other, until the server answers
// with the position that stands. When the server counts the puzzle solved, the finish
// is scored as on every page (accuracy and stars from its shortest and the moves made).

import { drawScore } from "./finish.js";
import { loadGame } from "./games.js";
import { Midend, MOVE_MS } from "./midend.js";

export class JudgedBoard extends Midend {
  /**
   * `element` is the board; `result` = {box, accuracy, stars} shows the last finish;
   * hooks: send(board) sends the position a move reached, closed() says why no move
   * may be played now ("" when one may), finished(score) reports a finish, changed()
   * after anything the page shows.
   */
  constructor(element, result, hooks) {
    super(hooks);
    this.element = element;
    this.result = result;
    this.gameKey = "";
    this.solved = null; // the server's count of puzzles solved, once it said
    this.judging = null; // the position a move being judged left
    this.handing = null; // the puzzle being shown (hand waits for it)
    this.joinsMoves = false; // the server judged the last move already: the next is its own
  }

  closed() { return this.hooks.closed ? this.hooks.closed() : ""; }

  /** The move is on screen: the server judges it, and the board waits for its answer. */
  played(entry) {
    this.judging = entry.before;
    this.setBusy(true);
    this.hooks.send(entry.after);
  }

  /** The finish waits for the server's word (its count of puzzles solved). */
  finished() {}

  changed() {
    if (this.board !== null) this.element.dataset.state = this.board;
    this.element.setAttribute("aria-busy", String(this.busy));
    super.changed();
  }

  /** The server's count of puzzles solved: one more means the move just judged solved
   * the puzzle on screen, and its finish is reported (before the next puzzle shows). */
  countSolved(solved) {
    const finishing = this.solved !== null && solved > this.solved && this.state !== null && this.isSolved();
    this.solved = solved;
    if (!finishing) return;
    const score = this.score();
    drawScore(this.result, score);
    if (this.hooks.finished) this.hooks.finished(score);
  }

  /** Show `puzzle` as the server has it: a new puzzle starts a new line, and the same
   * one at another position than this page's is the server's position standing (a move
   * refused, a reload). While a move is judged, the position it left is no answer.
   * One at a time, in the order the server's answers came (a game's module loads once). */
  hand(puzzle) {
    this.handing = (this.handing || Promise.resolve()).catch(() => {}).then(() => this.show(puzzle));
    return this.handing;
  }

  async show(puzzle) {
    const key = `${puzzle.game}|${JSON.stringify(puzzle.options)}`;
    if (key !== this.gameKey) {
      const module = await loadGame(puzzle.game);
      this.gameKey = key;
      this.game = module.createGame(puzzle.options);
      // a fresh element: the last game's view listens on the old one
      const fresh = this.element.cloneNode(false);
      fresh.className = `board board-${puzzle.game}`;
      this.element.replaceWith(fresh);
      this.element = fresh;
      this.view = this.game.createView(this.element, this);
      this.initialBoard = null;
    }
    const start = puzzle.start || puzzle.board;
    if (start !== this.initialBoard) {
      this.judging = null;
      this.load(start, this.game.parse(puzzle.board), { shortest: puzzle.shortest, duration: this.state ? MOVE_MS : 0 });
      return;
    }
    if (this.busy && puzzle.board === this.judging) return; // judged later
    this.judging = null;
    this.notice = "";
    this.busy = false;
    if (puzzle.board !== this.board) this.setState(this.game.parse(puzzle.board), { duration: MOVE_MS });
    else this.changed();
  }

  /** The server answered the move being judged, or refused it (its words are the page's
   * to show): the board takes moves again. */
  answered() {
    this.judging = null;
    this.setBusy(false);
  }

  /** A new run or race: no finish shown, nothing solved yet, its first puzzle a new line. */
  newRound() {
    this.solved = null;
    this.initialBoard = null;
    drawScore(this.result, null);
  }
}
