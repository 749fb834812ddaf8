// Streak and storm: the page shows the run the server keeps and sends the position each
// move reaches; the server judges it (the game's rules, the proven distance) and answers
// the run as it now stands, so a reload resumes it. The game's module draws the board and
// reads the player's input; this page asks no solver anything: no hint, no coach.

import { call } from "./api.js";
import { loadGame } from "./games.js";
import { judgedNext } from "./judged-move.js";
import { $ } from "./panel.js";
import { gettext, movesText, ngettext } from "./i18n.js";

const config = JSON.parse(document.getElementById("config").textContent);
const MOVE_MS = 140;

/** The view's controller: it plays a move on screen, then has the server judge it. */
class Run {
  constructor(module) {
    this.module = module;
    this.game = null;
    this.view = null;
    this.run = null;
    this.state = null;
    this.busy = false;
    this.deadline = null; // a storm's end, on this page's clock (the server's decides)
  }

  /** Show the run as the server answered it. */
  show(run, note = "") {
    this.run = run;
    if (!this.game) {
      this.game = this.module.createGame(run.options);
      this.view = this.game.createView($("board"), this);
    }
    this.draw(this.game.parse(run.board), MOVE_MS);
    const count = config.mode === "streak" ? "streak-count" : "storm-score";
    $(count).textContent = String(run.solved);
    $("best").textContent = String(run.shortest);
    $("run-best").textContent = String(run.best);
    this.deadline = run.over || run.seconds_left === null ? null : performance.now() + run.seconds_left * 1000;
    if (config.mode === "storm") this.tick();
    this.showOver();
    $("status").textContent = note || (run.over ? gettext("The run is over.") : this.prompt());
  }

  prompt() {
    const { shortest } = this.run;
    return gettext("Solve it in %(moves)s: every move must bring it one closer.", { moves: movesText(shortest) });
  }

  draw(state, duration) {
    this.state = state;
    this.view.render(state, { duration });
    $("board").dataset.state = this.game.format(state);
  }

  /** The end of the run in words: a streak's mistaken move and a closer one. */
  showOver() {
    const box = $(`${config.mode}-over`);
    const { run } = this;
    box.hidden = !run.over;
    if (!run.over) return;
    const solved = ngettext("%(n)s puzzle solved.", "%(n)s puzzles solved.", run.solved);
    const mistake = run.mistake;
    if (!mistake) {
      box.textContent = config.mode === "storm" ? gettext("Time is up: %(solved)s", { solved }) : gettext("Run over: %(solved)s", { solved });
      return;
    }
    box.replaceChildren(
      gettext("Run over: %(solved)s Your move %(move)s made it longer: %(before)s → %(after)s moves to solve. ",
              { solved, move: mistake.move, before: mistake.distance, after: mistake.distance_after }),
      Object.assign(document.createElement("strong"), {
        textContent: gettext("Better: %(move)s (%(left)s left).", { move: mistake.better_move, left: mistake.distance - 1 }),
      }),
    );
  }

  /** A storm's seconds left; at zero the server is asked how the run ended. */
  tick() {
    if (this.deadline === null) {
      if (this.run && this.run.seconds_left !== null) $("storm-clock").textContent = String(Math.ceil(this.run.seconds_left));
      return;
    }
    const left = Math.max(0, (this.deadline - performance.now()) / 1000);
    $("storm-clock").textContent = String(Math.ceil(left));
    if (left === 0 && !this.busy) {
      this.deadline = null;
      this.load();
    }
  }

  async load() {
    try {
      const run = await call("GET", `/api/runs/${config.mode}/${config.game}`);
      if (run.run !== null) { this.show(run); return; }
      $("status").textContent = gettext("Press \"%(button)s\" to begin.", { button: $("run-start").textContent.trim() });
      $("run-best").textContent = String(run.best);
    } catch (error) {
      $("status").textContent = error.message;
    }
  }

  async begin() {
    $("status").textContent = gettext("Finding a puzzle…");
    try {
      this.show(await call("POST", "/api/runs", { mode: config.mode, game: config.game }));
    } catch (error) {
      $("status").textContent = error.message;
    }
  }

  /** While a move is being judged, the board takes no other (and says so). */
  setBusy(busy) {
    this.busy = busy;
    $("board").setAttribute("aria-busy", String(busy));
  }

  // -- what the game's view calls ------------------------------------------------

  refuse(reason, target) {
    this.view.refuse(target);
    $("status").textContent = reason || gettext("That move is not allowed.");
  }

  playerMove(move, target) {
    if (!this.run || this.run.over) {
      this.refuse(gettext("No run is going on: press \"%(button)s\".", { button: $("run-start").textContent.trim() }), target);
      return false;
    }
    const next = judgedNext(this, move, target);
    if (!next) return false;
    this.draw(next, MOVE_MS);
    this.judge(this.game.format(next));
    return true;
  }

  /** Send the position reached; show the server's verdict and the run as it stands. */
  async judge(board) {
    this.setBusy(true);
    try {
      const run = await call("POST", `/api/runs/${this.run.run}/moves`, { moves: this.run.moves, board });
      let note = "";
      if (run.last.solved) note = gettext("Solved! Here is the next one.");
      else if (!run.last.closer && config.mode === "storm") note = gettext("That move made it longer: −10 seconds.");
      this.setBusy(false);
      this.show(run, note);
    } catch (error) {
      this.setBusy(false);
      await this.load(); // the server's run, whatever this page thought
      $("status").textContent = error.message;
    }
  }
}

async function start() {
  const run = new Run(await loadGame(config.game));
  $("run-start").addEventListener("click", () => run.begin());
  document.addEventListener("keydown", (event) => {
    const tag = event.target && event.target.tagName;
    if (!run.view || tag === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (run.view.handleKey(event)) event.preventDefault();
  });
  if (config.mode === "storm") setInterval(() => run.tick(), 250);
  await run.load();
  window.arcade = run;
}

start();
