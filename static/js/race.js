// A race: the page joins it over the socket and shows the race as the server sends it
// (race_state, on every change). The racer plays on their own board, the middle end's,
// judged by the server (judged.js): each move's position goes out as race_move, and the
// server judges and scores it. What this page adds is how a race hands out its puzzles
// (each racer's current one in race_state), the track, the clock and the results. The
// race's statuses and its quorum are the server's, rendered into the page's config.
// The page asks no solver anything.

import { el } from "./board.js";
import { solvedWords } from "./finish.js";
import { loadGame } from "./games.js";
import { JudgedBoard } from "./judged.js";
import { bindShortcuts } from "./shortcuts.js";
import { $ } from "./panel.js";
import { shownName } from "./names.js";
import { isCurrent } from "./race-order.js";
import { positionLink } from "./share.js";
import { gettext, movesText, translateReply } from "./i18n.js";
import { EVENT } from "./protocol.js";

const config = JSON.parse(document.getElementById("config").textContent);
const [WAITING, COUNTDOWN, RACING, FINISHED] = config.statuses;

/** The view's controller: one racer's board, the track and the clock. */
/** A results' puzzle drawn as a small board (the game's own view, as the lobby's
 * previews), not its notation; the notation if the game cannot be drawn. */
async function drawBoard(node, puzzle) {
  try {
    const module = await loadGame(puzzle.game);
    const game = module.createGame(puzzle.options || {});
    const board = el("div", { class: `board board-${puzzle.game} preview-board`, "aria-hidden": "true" });
    node.replaceChildren(board);
    game.createView(board, null).render(game.parse(puzzle.board));
  } catch {
    node.textContent = puzzle.board;
  }
}

class RacePage {
  constructor(socket) {
    this.socket = socket;
    this.race = null;
    this.note = ""; // the last finish in words, until the next move
    this.board = new JudgedBoard($("board"), { box: $("result"), accuracy: $("accuracy"), stars: $("stars") }, {
      send: (board) => { this.note = ""; this.socket.emit(EVENT.RACE_MOVE, { board }); },
      closed: () => (this.race && this.race.status === RACING && this.race.puzzle ? "" : gettext("The race is not under way.")),
      finished: (score) => { this.note = solvedWords(score); },
      changed: () => this.showStatus(),
    });
  }

  /** Show the race as the server sent it. */
  async show(race) {
    if (!isCurrent(race, this.race, config.statuses)) return; // an older state, delivered late
    if (!this.race || this.race.race !== race.race) this.board.newRound();
    this.race = race;
    if (config.race !== race.race) {
      config.race = race.race;
      history.replaceState(null, "", `/race/${race.race}`); // a reload resumes this race
    }
    this.drawTrack(race);
    const me = race.players.find((p) => p.name === race.you);
    $("race-score").textContent = String(me ? me.score : 0);
    const link = `${location.origin}/race/${race.race}`;
    $("race-share").hidden = race.public || race.status === FINISHED;
    Object.assign($("race-link"), { href: link, textContent: link });
    $("race-start").hidden = !(race.owner && race.status === WAITING);
    this.showRated(race);
    const clock = this.board.clock;
    if (race.status === COUNTDOWN) clock.countDown(race.starts_in * 1000);
    else if (race.status === RACING) clock.countDown(race.ends_in * 1000);
    else clock.reset();
    this.tick();
    if (me) this.board.countSolved(me.solved); // a solved puzzle's finish, before the next shows
    if (race.puzzle) await this.board.hand(race.puzzle);
    else this.board.answered();
    this.showOver(race);
    this.showStatus();
  }

  showStatus() {
    if (!this.race) return;
    this.board.showStatus($("status"), this.board.notice || [this.note, this.words(this.race)].filter(Boolean).join(" "));
  }

  words(race) {
    if (race.you === null && race.status !== FINISHED) return gettext("You are watching this race.");
    if (race.status === WAITING) {
      return race.public
        ? gettext("Waiting for racers: the countdown starts once %(quorum)s have joined.", { quorum: config.quorum })
        : race.owner ? gettext("Share the link, then start the race.") : gettext("Waiting for the owner to start the race.");
    }
    if (race.status === COUNTDOWN) return gettext("Get ready…");
    if (race.status === RACING) return race.puzzle ? gettext("Every move must bring the puzzle one closer.") : gettext("You solved them all!");
    return gettext("The race is over.");
  }

  /** A public race is rated for a racer with a player name: say which, before it ends. */
  showRated(race) {
    const note = $("race-rated");
    note.hidden = !race.public || race.you === null || race.status === FINISHED;
    note.dataset.rated = String(Boolean(race.rated));
    note.textContent = race.rated
      ? gettext("This race is rated: asking the solver about its puzzles before it ends rates you last.")
      : gettext("Unrated for you: choose a name with the button at the top of the page to have your races rated.");
  }

  drawTrack(race) {
    const best = Math.max(1, ...race.players.map((p) => p.score));
    $("race-track").replaceChildren(...race.players.map((p) => el(
      "li",
      { class: p.name === race.you ? "racer you" : "racer", "data-testid": "racer", style: { "--at": `${(p.score / best) * 100}%` } },
      el("span", { class: "racer-name" }, shownName(p.name)),
      el("span", { class: "racer-score", "data-testid": "racer-score" }, `${p.score}`),
    )));
  }

  /** The results: the order, each puzzle with its proven fewest moves (its play page
   * solves it, move by move), and a rematch. */
  showOver(race) {
    const box = $("race-over");
    const over = race.status === FINISHED;
    box.hidden = !over;
    $("race-rematch").hidden = !over;
    if (!over) return;
    $("race-rematch").href = race.rematch ? `/race/${race.rematch}` : `/race/new?from=${race.race}`;
    box.replaceChildren(
      el("ol", { "data-testid": "race-results" }, ...race.players.map((p) => el(
        "li",
        { "data-testid": "race-result", "data-rating": p.rating ?? null, "data-change": p.change ?? null },
        gettext("%(name)s: %(score)s (%(solved)s solved)", { name: shownName(p.name), score: p.score, solved: p.solved }),
        p.rating === undefined ? null : el("span", { class: "race-rating", "data-testid": "race-rating" }, ` ${ratingText(p)}`),
      ))),
      el("p", {}, gettext("The puzzles, with their fewest moves:")),
      el("ol", { class: "race-puzzles" }, ...race.puzzles.map((p) => {
        const picture = el("div", { class: "preview mini", "data-testid": "race-puzzle-board", "data-board": p.board });
        drawBoard(picture, p);
        const info = config.games.find((g) => g.name === p.game);
        return el("li", { "data-testid": "race-puzzle" }, picture,
                  el("span", {}, `${info ? gettext(info.title) : p.game}: ${movesText(p.shortest)} `),
                  el("a", { href: positionLink(p.game, p.board, p.options), "data-testid": "race-line" }, gettext("(its shortest solution)")));
      })),
    );
  }

  /** The countdown's or the race's seconds left, on the server's clock as last sent. */
  tick() {
    const status = this.race && this.race.status;
    const shown = status === COUNTDOWN ? "race-starts" : status === RACING ? "race-clock" : null;
    for (const field of ["race-starts", "race-clock"]) {
      $(field).textContent = field === shown ? this.board.clock.text() : "–";
    }
  }

  /** The server refused a move (or a request): its position stands, in its words. */
  async refused(reply) {
    this.board.answered();
    if (this.race && this.race.puzzle) await this.board.hand(this.race.puzzle); // the server's position
    this.board.notice = translateReply(reply); // the server's words, in the reader's language
    this.showStatus();
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
    // the public lobby is joined as the lobby (its race may be gone once all left it)
    if (config.race && !(page.race && page.race.public)) payload.race = config.race;
    if (config.race === "new" && from) payload.from = from;
    socket.emit(EVENT.RACE_JOIN, payload);
  };
  socket.on(EVENT.CONNECT, join);
  // a name chosen in the header: a new handshake carries the player's cookie, so a race
  // not yet under way takes this racer as that player (a public one then rates them)
  document.addEventListener("arcade:named", () => {
    if (page.race && page.race.status === WAITING) { socket.disconnect(); socket.connect(); }
  });
  socket.on(EVENT.RACE_STATE, (race) => page.show(race));
  socket.on(EVENT.ERROR, (reply) => page.refused(reply));
  $("race-start").addEventListener("click", () => socket.emit(EVENT.RACE_START, {}));
  document.addEventListener("keydown", (event) => {
    const tag = event.target && event.target.tagName;
    const view = page.board.view;
    if (!view || tag === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("dialog")) return; // the list of keys
    if (view.handleKey(event)) event.preventDefault();
  });
  setInterval(() => page.tick(), 250);
  // the keys of every game a race hands out, each once
  Promise.all(config.games.map((game) => loadGame(game.name))).then((modules) => {
    const keys = new Map(modules.flatMap((module) => module.keys || []).map(([key, what]) => [`${key}|${what}`, [key, what]]));
    bindShortcuts([...keys.values()], { button: $("shortcuts-button"), common: false });
  });
  window.arcade = page;
}

start();
