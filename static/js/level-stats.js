// The lobby's level cards: how many players played each shipped level, how many of
// them solved it without help and in the fewest moves, and its ladder rating with its
// deviation (from the server).

import { gettext, ngettext } from "./i18n.js";

function optionsOf(node) {
  try { return JSON.parse(node.dataset.options || "{}") || {}; } catch { return {}; }
}

function sameOptions(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => a[key] === b[key]);
}

/** The level's ladder rating and its deviation; before any first attempt, the rating its
 * proven length grades it at (said so in its title). */
function markRating(card, stats) {
  const note = document.createElement("span");
  note.className = "level-rating";
  note.dataset.testid = "level-rating";
  note.dataset.rating = String(stats.rating);
  note.textContent = gettext("rating %(rating)s ± %(deviation)s", { rating: stats.rating, deviation: stats.deviation });
  note.title = stats.rating_attempts
    ? ngettext("its ladder rating after %(n)s first attempt", "its ladder rating after %(n)s first attempts", stats.rating_attempts)
    : gettext("graded from its proven length; it moves as players meet it on the ladder");
  (card.querySelector(".level-facts") || card).append(note);
}

async function markGame(game, cards) {
  let levels = [];
  try {
    const reply = await fetch(`/api/levels/${game}`);
    if (!reply.ok) return;
    levels = (await reply.json()).levels;
  } catch { return; }
  for (const card of cards) {
    const stats = levels.find((l) => l.board === card.dataset.board && sameOptions(l.options, optionsOf(card)));
    if (stats && stats.rating != null) markRating(card, stats);
    if (!stats || !stats.players) continue;
    const note = document.createElement("span");
    note.className = "level-players";
    note.dataset.testid = "level-players";
    note.dataset.players = String(stats.players);
    note.textContent = [
      ngettext("%(n)s player", "%(n)s players", stats.players),
      gettext("%(rate)s%% solved", { rate: stats.solve_rate }),
      gettext("%(rate)s%% optimal", { rate: stats.optimal_rate }),
    ].join(" · ");
    (card.querySelector(".level-facts") || card).append(note);
  }
}

const byGame = new Map();
for (const card of document.querySelectorAll("a.level[data-game][data-board]")) {
  if (!byGame.has(card.dataset.game)) byGame.set(card.dataset.game, []);
  byGame.get(card.dataset.game).push(card);
}
byGame.forEach((cards, game) => markGame(game, cards));
