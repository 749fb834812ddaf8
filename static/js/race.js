// A race: the page joins it over the socket and shows the race as the server sends it
// (race_state, on every change). The racer plays on their own board; each move's position
// goes to the server, which judges it and scores it. The page asks no solver anything.

import { loadGame } from "./games.js";
import { el } from "./board.js";
import { judgedNext } from "./judged-move.js";
import { $ } from "./panel.js";
import { isCurrent } from "./race-order.js";
import { positionLink } from "./share.js";
import { gettext, movesText, translateReply } from "./i18n.js";

const config = JSON.parse(document.getElementById("config").textContent);
const MOVE_MS = 140;

/** The view's controller: one racer's board, the track and the clock. */
class RacePage {
  constructor(socket) {
    this.socket = socket;
    this.race = null;
    this.game = null;
    this.gameKey = "";
    this.view = null;
    this.state = null;
    this.busy = false;
    this.deadline = null; // {field, at}: the countdown or the race's end, on this page's clock
  }

  /** Show the race as the server sent it. */
  async show(race) {
    if (!isCurrent(race, this.race)) return; // an older state, delivered late
    this.race = race;
    if (config.race !== race.race) {
      config.race = race.race;
      if (!race.public) history.replaceState(null, "", `/race/${race.race}`);
    }
    this.busy = false;
    $("board").setAttribute("aria-busy", "false");
    this.drawTrack(race);
    const me = race.players.find((p) => p.name === race.you);
    $("race-score").textContent = String(me ? me.score : 0);
    const link = `${location.origin}/race/${race.race}`;
    $("race-share").hidden = race.public || race.status === "finished";
    Object.assign($("race-link"), { href: link, textContent: link });
    $("race-start").hidden = !(race.owner && race.status === "waiting");
    this.showRated(race);
    this.deadline = null;
    if (race.status === "countdown") this.deadline = { field: "race-starts", at: performance.now() + race.starts_in * 1000 };
    if (race.status === "racing") this.deadline = { field: "race-clock", at: performance.now() + race.ends_in * 1000 };
    this.tick();
    if (race.puzzle) await this.showPuzzle(race.puzzle);
    this.showOver(race);
    $("status").textContent = this.words(race);
  }

  words(race) {
    if (race.you === null && race.status !== "finished") return gettext("You are watching this race.");
    if (race.status === "waiting") {
      return race.public
        ? gettext("Waiting for racers: the countdown starts once three have joined.")
        : race.owner ? gettext("Share the link, then start the race.") : gettext("Waiting for the owner to start the race.");
    }
    if (race.status === "countdown") return gettext("Get ready…");
    if (race.status === "racing") return race.puzzle ? gettext("Every move must bring the puzzle one closer.") : gettext("You solved them all!");
    return gettext("The race is over.");
  }

  /** A public race is rated for a racer with a player name: say which, before it ends. */
  showRated(race) {
    const note = $("race-rated");
    note.hidden = !race.public || race.you === null || race.status === "finished";
    note.dataset.rated = String(Boolean(race.rated));
    note.textContent = race.rated
      ? gettext("This race is rated: asking the solver about its puzzles before it ends rates you last.")
      : gettext("Unrated for you: choose a player name in the lobby to have your races rated.");
  }

  drawTrack(race) {
    const best = Math.max(1, ...race.players.map((p) => p.score));
    $("race-track").replaceChildren(...race.players.map((p) => el(
      "li",
      { class: p.name === race.you ? "racer you" : "racer", "data-testid": "racer", style: { "--at": `${(p.score / best) * 100}%` } },
      el("span", { class: "racer-name" }, p.name),
      el("span", { class: "racer-score", "data-testid": "racer-score" }, `${p.score}`),
    )));
  }

  async showPuzzle(puzzle) {
    const key = `${puzzle.game}|${JSON.stringify(puzzle.options)}`;
    if (key !== this.gameKey) {
      const module = await loadGame(puzzle.game);
      this.gameKey = key;
      this.game = module.createGame(puzzle.options);
      $("board").className = `board board-${puzzle.game}`;
      $("board").replaceChildren();
      this.view = this.game.createView($("board"), this);
    }
    this.draw(this.game.parse(puzzle.board), MOVE_MS);
  }

  draw(state, duration) {
    this.state = state;
    this.view.render(state, { duration });
    $("board").dataset.state = this.game.format(state);
  }

  /** The results: the order, each puzzle with its proven fewest moves (its play page
   * solves it, move by move), and a rematch. */
  showOver(race) {
    const box = $("race-over");
    box.hidden = race.status !== "finished";
    $("race-rematch").hidden = race.status !== "finished";
    if (race.status !== "finished") return;
    $("race-rematch").href = race.rematch ? `/race/${race.rematch}` : `/race/new?from=${race.race}`;
    box.replaceChildren(
      el("ol", { "data-testid": "race-results" }, ...race.players.map((p) => el(
        "li",
        { "data-testid": "race-result", "data-rating": p.rating ?? null, "data-change": p.change ?? null },
        gettext("%(name)s: %(score)s (%(solved)s solved)", { name: p.name, score: p.score, solved: p.solved }),
        p.rating === undefined ? null : el("span", { class: "race-rating", "data-testid": "race-rating" }, ` ${ratingText(p)}`),
      ))),
      el("p", {}, gettext("The puzzles, with their fewest moves:")),
      el("ol", {}, ...race.puzzles.map((p) => el(
        "li",
        {},
        `${p.game} ${p.board}: ${movesText(p.shortest)} `,
        el("a", { href: positionLink(p.game, p.board, p.options), "data-testid": "race-line" }, gettext("(its shortest solution)")),
      ))),
    );
  }

  tick() {
    for (const field of ["race-starts", "race-clock"]) {
      if (!this.deadline || this.deadline.field !== field) $(field).textContent = "–";
    }
    if (!this.deadline) return;
    const left = Math.max(0, (this.deadline.at - performance.now()) / 1000);
    $(this.deadline.field).textContent = String(Math.ceil(left));
  }

  // -- what the game's view calls ------------------------------------------------

  refuse(reason, target) {
    this.view.refuse(target);
    $("status").textContent = reason || gettext("That move is not allowed.");
  }

  playerMove(move, target) {
    if (!this.race || this.race.status !== "racing" || !this.race.puzzle) {
      this.refuse(gettext("The race is not under way."), target);
      return false;
    }
    const next = judgedNext(this, move, target);
    if (!next) return false;
    this.draw(next, MOVE_MS);
    this.busy = true;
    $("board").setAttribute("aria-busy", "true");
    this.socket.emit("race_move", { board: this.game.format(next) });
    return true;
  }
}

/** A racer's new race rating and its change ("rating 1562 (+62)"); helped: rated last. */
function ratingText(racer) {
  const change = racer.change > 0 ? `+${racer.change}` : String(racer.change);
  return racer.assisted
    ? gettext("rating %(rating)s (%(change)s, rated last: the solver was asked)", { rating: racer.rating, change })
    : gettext("rating %(rating)s (%(change)s)", { rating: racer.rating, change });
}

function start() {
  // eslint-disable-next-line no-undef -- io is the global of the vendored Socket.IO client (static/vendor)
  const socket = io({ transports: ["websocket", "polling"] });
  const page = new RacePage(socket);
  const from = new URLSearchParams(location.search).get("from");
  const join = () => {
    const payload = {};
    if (config.race) payload.race = config.race;
    if (config.race === "new" && from) payload.from = from;
    socket.emit("race_join", payload);
  };
  socket.on("connect", join);
  socket.on("race_state", (race) => page.show(race));
  socket.on("error", (reply) => {
    page.busy = false;
    $("board").setAttribute("aria-busy", "false");
    if (page.race && page.race.puzzle) page.showPuzzle(page.race.puzzle); // the server's position
    $("status").textContent = translateReply(reply); // the server's words, in the reader's language
  });
  $("race-start").addEventListener("click", () => socket.emit("race_start", {}));
  document.addEventListener("keydown", (event) => {
    const tag = event.target && event.target.tagName;
    if (!page.view || tag === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (page.view.handleKey(event)) event.preventDefault();
  });
  setInterval(() => page.tick(), 250);
  window.arcade = page;
}

start();
