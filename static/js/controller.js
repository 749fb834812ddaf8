// The play page's board: the middle end (midend.js: moves, undo/redo, refusals, the
// clock, the finish) plus what the play page adds: what the solver said about each
// board, hint and solve requests, solution playback and a game's extra action. It
// names no game and touches no page element: the game module's rules and view do the
// game, and the page (main.js) passes `changed` and `moved` hooks that redraw the
// panel and the address bar. Free play, the daily, levels and the ladder all play
// here; a ranked puzzle's finish is reported by players.js.

import { Analyses } from "./analyses.js";
import { SolverAnswers } from "./answers.js";
import { fewestMoves, lineOf } from "./coach/line.js";
import { gettext, movesText, translateReply } from "./i18n.js";
import { Midend, MOVE_MS } from "./midend.js";
import { Playback } from "./playback.js";
import { RankedPlay, rankedState } from "./ranked.js";
import { levelKey, record } from "./progress.js";
import { EVENT } from "./protocol.js";

/** The options given, without empty values (the server's defaults apply). */
function givenOptions(options) {
  return Object.fromEntries(Object.entries(options || {}).filter(([, v]) => v !== null && v !== undefined && v !== ""));
}

export class Controller extends Midend {
  /**
   * @param {object} config  the page config (game, board, options, speed, min, game_info ...)
   * @param {object} parts  createGame(options) from the game module; createView(ctrl) -> view;
   *   connect(handlers) -> SolverLink; extra: the game's extra action when its feature is
   *   declared, or null; changed() after anything the panel shows; moved() after a new position
   */
  constructor(config, { createGame, createView, connect, extra, changed, moved }) {
    super({ changed, moved });
    this.config = config;
    this.info = config.game_info;
    this.options = givenOptions(config.options);
    this.game = createGame(this.options);
    this.view = createView(this);
    this.extra = extra;
    this.analyses = new Analyses();
    this.notice = config.error ? gettext("That board could not be used (%(error)s); here is the default one.", { error: config.error }) : "";
    this.progressText = "";
    this.solving = false;
    this.hintWanted = false;
    this.warming = false; // the server said its solver is still starting: answers wait
    this.waitsForTables = false; // this board's answer waits for a table being built
    Object.assign(this, rankedState(config)); // ranked play (ranked.js)
    this.playback = new Playback({
      step: (i) => this.playSolutionMove(i),
      back: () => this.undo({ keep: true }),
      position: () => this.playback.solution.states.indexOf(this.board),
      changed: () => this.changed(),
    }, Number(config.speed) || 400);
    this.link = connect({
      onAnalysis: (reply, request) => this.gotAnalysis(reply, request),
      onProgress: (reply) => this.gotProgress(reply),
      onSolution: (reply, request) => this.gotSolution(reply, request),
      onUnsolvable: (reply, request) => this.gotUnsolvable(reply, request),
      onError: (reply, request) => this.gotError(reply, request),
      onSolverStatus: (status) => this.gotSolverStatus(status),
    });
  }

  /** Show the config's board (and the moves `saved` before a reload); a bad board leaves a notice. */
  start(saved = null) {
    let state;
    try {
      state = this.game.parse(this.config.board);
    } catch (error) {
      this.notice = String(error.message || error);
      this.changed();
      return;
    }
    this.initialBoard = this.game.format(state);
    if (saved && saved.board === this.initialBoard) state = this.resume(saved, state);
    if (this.ranked) this.runServerClock(this.config.attempt.seconds || 0);
    this.setState(state, { duration: 0 });
  }

  // -- what the play page adds to the middle end ----------------------------------

  interrupt() { this.playback.pause(); }

  /** What the line (the coach's propagated bounds: the level's, the server's, the
   * solver's answers) knows of the start's fewest moves; `points` is lineOf(this) when at hand. */
  startFacts(points = lineOf(this)) {
    const start = points[0];
    return start ? { upper: start.distance, lower: start.lower, exact: start.optimal } : null;
  }

  isSolved() {
    const known = this.analyses.get(this.board);
    if (known && typeof known.solved === "boolean") return known.solved;
    return super.isSolved();
  }

  setState(state, options) {
    this.view.clearHint();
    this.hintWanted = false;
    this.hintShown = false;
    super.setState(state, options);
  }

  /** A new position: ask for its evaluation first, so the panel says "evaluating…" at once. */
  arrived() { this.evaluate(); }

  /** Solved: remember it in the browser's progress store (best per level; help is recorded). */
  finished() {
    const [moves, extra] = this.counts();
    if (moves === 0 || this.recorded === this.board) return;
    this.recorded = this.board;
    const min = fewestMoves(lineOf(this));
    record(levelKey(this.info, this.options, this.initialBoard),
           { moves, extra, min: min && min.optimal ? min.moves : null, assisted: this.assisted });
  }

  restart() {
    if (this.solving) this.cancelSolve();
    this.recorded = null;
    super.restart();
  }

  /** The game's extra action (e.g. an empty tube): changes the position, undo takes it back. */
  addExtra() {
    if (!this.extra || !this.initialBoard || this.isSolved()) return;
    this.interrupt();
    if (this.solving) this.cancelSolve();
    const next = this.game.parse(this.extra.apply(this.board));
    this.history.push({ before: this.board, after: this.game.format(next), move: this.extra.noun, kind: "extra" });
    this.notice = this.extra.notice;
    this.setState(next, { duration: 0 });
  }

  /** Play the solution's move `i` (the current board is states[i]). */
  playSolutionMove(i) {
    const { moves, states } = this.playback.solution;
    const target = states[i + 1];
    const redo = this.history.next;
    if (redo && redo.after === target) {
      this.history.redo();
    } else {
      this.history.push({ before: this.board, after: target, move: moves[i], kind: "playback" });
    }
    let next = moves[i] ? this.game.apply(this.state, moves[i]) : null; // a replayed line has positions only
    if (!next || this.game.format(next) !== target) next = this.game.parse(target);
    this.assisted = true;
    this.startClock();
    this.setState(next, { duration: Math.min(this.playback.speed * 0.8, 600) });
    return true;
  }

  /** A line played before (`states`, the start first: a result of the player's), loaded
   * in the playback bar to be watched again from the start. */
  loadReplay(states) {
    if (states[0] !== this.initialBoard || states.length < 2) return false;
    this.playback.load({ moves: states.slice(1).map(() => null), states, optimal: false, replay: true });
    this.notice = gettext("Your line of %(moves)s is loaded: press Play to watch it again.", { moves: movesText(states.length - 1) });
    this.changed();
    return true;
  }

  /** Play a rated option from the coach's list (the server's move, else its board). */
  playOption(option) {
    if (this.isSolved() || this.playerMove(option.move, null, { quiet: true })) return;
    this.interrupt();
    this.history.push({ before: this.board, after: option.board, move: option.move, kind: "player" });
    this.setState(this.game.parse(option.board), { duration: MOVE_MS });
  }

  // -- talking to the solver -----------------------------------------------------

  payload(board) { return { game: this.config.game, board, ...this.options }; }

  /** True while the current board's analysis is on its way. */
  get evaluating() {
    const current = this.link.current;
    return Boolean(current && current.event === EVENT.ANALYSE && current.board === this.board);
  }

  /** Ask for the board's analysis unless its rated moves are known (or on their way). */
  evaluate() {
    if (this.coachClosed) return; // ranked play: the server is asked nothing
    if (this.analyses.tooBig(this.board)) return; // the same budget would give up again
    const known = this.analyses.get(this.board);
    if ((known && known.moves_rated && known.final !== false) || this.evaluating) return;
    this.supersedeSolve(gettext("search stopped: you moved"));
    this.link.request(EVENT.ANALYSE, this.payload(this.board));
  }

  hint() {
    if (this.isSolved()) return;
    this.interrupt();
    if (this.coachClosed) this.giveUpRanked();
    this.hintWanted = true;
    const tooBig = this.analyses.tooBig(this.board);
    if (tooBig) {
      this.hintWanted = false;
      this.notice = gettext("No hint. %(why)s", { why: translateReply(tooBig) });
    } else if (this.analyses.has(this.board)) this.showHint();
    else if (!this.evaluating) {
      this.supersedeSolve(gettext("search stopped for the hint"));
      this.link.request(EVENT.ANALYSE, this.payload(this.board));
    }
    this.changed();
  }

  /** The server drops a client's older job when a newer request arrives. */
  supersedeSolve(why) {
    if (!this.solving) return;
    this.solving = false;
    this.progressText = why;
  }

  showHint() {
    this.hintWanted = false;
    const analysis = this.analyses.get(this.board);
    this.view.clearHint();
    this.hintShown = Boolean(analysis.best_move);
    if (analysis.best_move) {
      this.view.showHint(analysis.best_move);
      this.notice = gettext("Hint: %(move)s", { move: this.sayMove(analysis.best_move) });
    } else if (analysis.solvable === false) {
      this.notice = gettext("No hint: this position is unsolvable.");
    } else {
      this.notice = translateReply(analysis) || gettext("No hint available for this position.");
    }
  }

  solve() {
    if (this.isSolved() || this.solving) return;
    this.interrupt();
    this.giveUpRanked();
    const known = this.playback.loaded && !this.playback.solution.replay && this.playback.position() >= 0;
    if (known) { this.playback.play(); return; }
    this.solving = true;
    this.solveStarted = performance.now();
    this.solveBests = []; // the anytime search's best lengths so far, each shorter
    this.notice = "";
    this.progressText = gettext("searching…");
    this.link.request(EVENT.SOLVE, this.payload(this.board));
    this.changed();
  }

  cancelSolve() {
    this.link.cancel();
    this.solving = false;
    this.progressText = gettext("search cancelled");
    this.changed();
  }
}

// what each of the solver's answers does (answers.js); ranked play and resuming after a
// reload (ranked.js)
Object.defineProperties(Controller.prototype, Object.getOwnPropertyDescriptors(SolverAnswers));
Object.defineProperties(Controller.prototype, Object.getOwnPropertyDescriptors(RankedPlay));
