// The play page: reads the config the server put in the page (the position and
// the game's declaration, game_info), loads the game's module through the
// registry and wires the controller to the panel, the controls and the solver.
// Rules live in the game modules so every move is instant; the server is asked
// only for evaluation (analyse) and solutions (solve).

import { Controller } from "./controller.js";
import { bindControls } from "./controls.js";
import { loadGame } from "./games.js";
import { openNext } from "./ladder.js";
import { $, Panel } from "./panel.js";
import { Choices } from "./choices.js";
import { Players } from "./players.js";
import { followInAddressBar, rankedLink, saveLine, savedLine } from "./share.js";
import { SolverLink } from "./socket.js";
import { openReplay } from "./replay-link.js";
import { gettext } from "./i18n.js";

/** The game's extra action (e.g. an added tube), if its feature is declared. */
function declaredExtra(module, info) {
  const extra = module.extra;
  return extra && (info.features || []).includes(extra.feature) ? extra : null;
}

async function start() {
  const config = JSON.parse(document.getElementById("config").textContent);
  if (config.ladder === "next") { // "?ladder=1": this player's next puzzle, then its page
    $("status").textContent = gettext("Finding a puzzle at your level…");
    const shift = new URLSearchParams(window.location.search).get("shift");
    openNext(config.game, shift).catch((error) => { $("status").textContent = gettext("No ladder puzzle: %(error)s", { error: error.message }); });
    return;
  }
  const module = await loadGame(config.game);
  const startUrl = window.location.pathname + window.location.search; // a seeded level's own link
  const replay = new URLSearchParams(window.location.search).get("replay"); // before the URL follows the board
  let panel = null;
  let players = null;
  let choices = null;
  const keep = rankedLink(config); // a ranked puzzle's moves survive a reload
  const ctrl = new Controller(config, {
    createGame: module.createGame,
    createView: (controller) => controller.game.createView($("board"), controller),
    connect: (handlers) => new SolverLink({ ...handlers, onConnection: (up, refusal) => panel && panel.connection(up, refusal) }),
    extra: declaredExtra(module, config.game_info),
    changed: () => {
      [panel, players, choices].forEach((part) => part && part.refresh());
      if (keep && ctrl.initialBoard) saveLine(startUrl, ctrl.saved());
    },
    moved: () => followInAddressBar(ctrl, startUrl),
  });
  ctrl.startUrl = startUrl; // what a shared result and a solved board's link open
  panel = new Panel(ctrl);
  players = new Players(ctrl, $("result"));
  choices = new Choices(ctrl, $("options"));
  bindControls(ctrl, module);
  ctrl.start(keep ? savedLine(startUrl) : null);
  openReplay(ctrl, replay);
  setInterval(() => panel.tick(), 500);
  window.arcade = ctrl;
}

start();
