// The lobby: draws a small, non-interactive preview of each game and level with
// the view its game module gives the play page, and marks the levels this
// browser solved, the dailies the player finished today (with their streak) and
// the time to the next daily, and the player's ratings on the ladder links. Games and
// their declarations come from the page's catalogue.

import { call } from "./api.js";
import { loadGame } from "./games.js";
import { whoAmI } from "./header.js";
import { best, isPerfect, levelKey } from "./progress.js";
import { gettext, ngettext } from "./i18n.js";

const catalogue = JSON.parse(document.getElementById("catalogue").textContent);
const declared = new Map(catalogue.map((info) => [info.name, info]));

/** The options a preview or level is drawn with (JSON in data-options). */
function optionsOf(node) {
  try { return JSON.parse(node.dataset.options || "{}") || {}; } catch { return {}; }
}

async function drawPreview(node) {
  try {
    const module = await loadGame(node.dataset.preview);
    const game = module.createGame(optionsOf(node));
    const board = document.createElement("div");
    board.className = `board board-${node.dataset.preview} preview-board`;
    board.setAttribute("aria-hidden", "true"); // a picture: the card's words name the game
    node.append(board);
    game.createView(board, null).render(game.parse(node.dataset.board));
  } catch {
    node.textContent = node.dataset.board; // still show the layout as text
  }
}

function markSolved(link) {
  const info = declared.get(link.dataset.game);
  const result = info && best(levelKey(info, optionsOf(link), link.dataset.board));
  if (!result) return;
  link.dataset.solved = "true";
  const mark = link.querySelector("[data-testid='level-best']");
  if (mark) {
    const how = result.assisted ? gettext(" (with Solve)") : isPerfect(result) ? gettext(" (perfect)") : "";
    mark.textContent = `✓ ${gettext("solved in %(moves)s", { moves: result.moves })}${how}`;
    mark.dataset.assisted = result.assisted ? "true" : "false";
    mark.hidden = false;
  }
}

/** "Next daily in 5 h 12 min": the dailies change at midnight UTC. */
function showCountdown(node) {
  const now = new Date();
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const minutes = Math.max(1, Math.ceil((next - now.getTime()) / 60_000));
  node.textContent = gettext("Next daily in %(hours)s h %(minutes)s min.", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** On each ladder link of a game the player has a rating in: the rating, and that the
 * ladder goes on from there (the header shows the name). */
function markPlayer(me) {
  for (const [game, { rating }] of Object.entries(me.ratings || {})) {
    const ladder = document.querySelector(`a[data-ladder="${CSS.escape(game)}"]`);
    if (!ladder) continue;
    const info = declared.get(game);
    ladder.querySelector(".ladder-label").textContent = gettext("Continue the ladder: %(game)s", { game: info ? gettext(info.title) : game });
    const mark = ladder.querySelector(".ladder-rating");
    mark.textContent = `· ${gettext("rating %(rating)s", { rating })}`;
    mark.hidden = false;
  }
}

/** Mark each daily the player finished today: the rank, and the game's streak. */
async function markDailies() {
  const read = (url) => call("GET", url).catch(() => null);
  try {
    const me = await whoAmI();
    if (!me || !me.known) return; // no player yet: nothing played, nothing to ask
    markPlayer(me);
    await Promise.all([...document.querySelectorAll("a[data-daily]")].map(async (link) => {
      const board = await read(`/api/leaderboard/${link.dataset.daily}`);
      if (!board || !board.me || !board.me.rank) return;
      const mark = link.querySelector(".daily-done");
      const streak = board.streak ? ` · ${ngettext("streak %(n)s day", "streak %(n)s days", board.streak)}` : "";
      mark.textContent = `✓ ${gettext("done today, #%(rank)s", { rank: board.me.rank })}${streak}`;
      mark.hidden = false;
      link.dataset.done = "true";
    }));
  } catch { /* the marks are extras: the links work without them */ }
}

const countdown = document.querySelector("[data-testid='daily-countdown']");
if (countdown) {
  showCountdown(countdown);
  setInterval(() => showCountdown(countdown), 30_000);
}
markDailies();
document.querySelectorAll("[data-preview]").forEach(drawPreview);
document.querySelectorAll("a.level[data-board]").forEach(markSolved);
