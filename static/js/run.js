// Streak and storm: the page shows the run the server keeps and sends the position each
// move reaches; the server judges it (the game's rules, the proven distance) and answers
// the run as it now stands, so a reload resumes it. The board is the middle end's, judged
// by the server (judged.js); what this page adds is how a run hands out its puzzles
// (POST /api/runs, then each move's answer), its counters and how it ends. It asks no
// solver anything: no hint, no coach. The storm's clock is the server's seconds left.

import { call } from "./api.js";
import { solvedWords } from "./finish.js";
import { loadGame } from "./games.js";
import { JudgedBoard } from "./judged.js";
import { bindShortcuts } from "./shortcuts.js";
import { $ } from "./panel.js";
import { gettext, movesText, ngettext } from "./i18n.js";

// the run's rules as the server keeps them (its constants, rendered into the page)
const config = JSON.parse(document.getElementById("config").textContent);
const STORM = config.mode === "storm";

class RunPage {
  constructor() {
    this.run = null;
    this.note = ""; // the server's last answer in words, until the next
    this.board = new JudgedBoard($("board"), { box: $("result"), accuracy: $("accuracy"), stars: $("stars") }, {
      send: (board) => this.judge(board),
      closed: () => (!this.run || this.run.over ? gettext("No run is going on: press \"%(button)s\".", { button: this.button() }) : ""),
      finished: (score) => { this.note = `${solvedWords(score)} ${gettext("Here is the next one.")}`; },
      changed: () => this.showStatus(),
    });
  }

  button() { return $("run-start").textContent.trim(); }

  /** Show the run as the server answered it (`note`: that answer in words). */
  async show(run, note = "") {
    this.run = run;
    this.note = note;
    const clock = this.board.clock;
    if (run.seconds_left !== null) {
      clock.countDown(run.seconds_left * 1000);
      if (run.over) clock.stop();
    }
    this.board.countSolved(run.solved); // a solved puzzle's finish, before the next shows
    await this.board.hand({ game: run.game, options: run.options, start: run.start, board: run.board, shortest: run.shortest });
    $(STORM ? "storm-score" : "streak-count").textContent = String(run.solved);
    $("best").textContent = String(run.shortest);
    $("run-best").textContent = String(run.best);
    this.tick();
    this.showOver();
    this.showStatus();
  }

  showStatus() {
    if (!this.run) return;
    const words = this.board.notice || this.note
      || (this.run.over ? gettext("The run is over.")
        : gettext("Solve it in %(moves)s: every move must bring it one closer.", { moves: movesText(this.run.shortest) }));
    this.board.showStatus($("status"), words);
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
      box.textContent = STORM ? gettext("Time is up: %(solved)s", { solved }) : gettext("Run over: %(solved)s", { solved });
      return;
    }
    const say = (move) => this.board.sayMove(move);
    box.replaceChildren(
      gettext("Run over: %(solved)s Your move %(move)s made it longer: %(before)s → %(after)s moves to solve. ",
              { solved, move: say(mistake.move), before: mistake.distance, after: mistake.distance_after }),
      Object.assign(document.createElement("strong"), {
        textContent: gettext("The best move there was %(move)s: it leaves %(left)s to solve.",
                             { move: say(mistake.better_move), left: movesText(mistake.distance - 1) }),
      }),
    );
  }

  /** A storm's seconds left; at zero the server is asked how the run ended. */
  tick() {
    const clock = this.board.clock;
    if (!STORM || !clock.countsDown) return;
    $("storm-clock").textContent = clock.text();
    if (clock.running && clock.ms === 0 && !this.board.busy) {
      clock.stop();
      this.load();
    }
  }

  async load() {
    try {
      const run = await call("GET", `/api/runs/${config.mode}/${config.game}`);
      if (run.run !== null) { await this.show(run); return; }
      $("status").textContent = gettext("Press \"%(button)s\" to begin.", { button: this.button() });
      $("run-best").textContent = String(run.best);
    } catch (error) {
      $("status").textContent = error.message;
    }
  }

  async begin() {
    $("status").textContent = gettext("Finding a puzzle…");
    try {
      const run = await call("POST", "/api/runs", { mode: config.mode, game: config.game });
      this.board.newRound();
      await this.show(run);
    } catch (error) {
      $("status").textContent = error.message;
    }
  }

  /** Send the position reached; show the server's verdict and the run as it stands. */
  async judge(board) {
    try {
      const run = await call("POST", `/api/runs/${this.run.run}/moves`, { moves: this.run.moves, board });
      const penalty = STORM && !run.last.closer
        ? gettext("That move made it longer: −%(seconds)s seconds.", { seconds: config.penalty_seconds }) : "";
      await this.show(run, penalty);
    } catch (error) {
      this.board.answered();
      await this.load(); // the server's run, whatever this page thought
      $("status").textContent = error.message;
    }
  }
}

async function start() {
  const page = new RunPage();
  $("run-start").addEventListener("click", () => page.begin());
  document.addEventListener("keydown", (event) => {
    const tag = event.target && event.target.tagName;
    const view = page.board.view;
    if (!view || tag === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("dialog")) return; // the list of keys
    if (view.handleKey(event)) event.preventDefault();
  });
  if (STORM) setInterval(() => page.tick(), 250);
  loadGame(config.game).then((module) => bindShortcuts(module.keys, { button: $("shortcuts-button"), common: false }));
  await page.load();
  window.arcade = page;
}

start();
