// The player's page, what it shows besides the ladder (GET /api/player/profile): each
// game's dailies on a twelve-week calendar with the streak, the levels solved with their
// stars, and the last results, each with a link that plays its line back. Only the days
// played are links (and read out); the rest of the calendar is a picture.

import { element } from "./dom.js";
import { gettext, movesText, ngettext } from "./i18n.js";
import { accuracy, starsFor, starText } from "./score.js";

const DAY_MS = 24 * 3600 * 1000;
const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

/** The stars a line of `length` earns against `shortest` (none known: none). */
export function starsOf(shortest, length) {
  return Number.isInteger(shortest) && length > 0 ? starsFor(accuracy(shortest, length)) : null;
}

function starsElement(shortest, length) {
  const stars = starsOf(shortest, length);
  if (stars === null) return element("span", { class: "sub" }, gettext("shortest not known"));
  return element("span", { class: "stars", role: "img", "data-testid": "stars", "data-stars": String(stars),
                           "aria-label": gettext("%(stars)s of 3 stars", { stars }) }, starText(stars));
}

/** "23 moves (fewest 20)". */
function movesAgainst(length, shortest) {
  return Number.isInteger(shortest) ? gettext("%(moves)s (fewest %(shortest)s)", { moves: movesText(length), shortest })
    : movesText(length);
}

/** A date as the reader's language writes it ("1 Dec", "12月1日"), in UTC. */
function dayText(iso, options = { day: "numeric", month: "short" }) {
  return new Date(`${iso}T00:00:00Z`).toLocaleDateString(document.documentElement.lang, { ...options, timeZone: "UTC" });
}

/** One game's calendar: the last 84 days, oldest first, a week per column. */
function calendar(game, title, facts, today) {
  const byDay = new Map(facts.days.map((d) => [d.day, d]));
  const end = Date.parse(`${today}T00:00:00Z`);
  const grid = element("ol", { class: "calendar", "data-testid": "daily-calendar", "data-game": game,
                              "aria-label": gettext("%(game)s dailies, the last twelve weeks", { game: title }) });
  for (let back = 83; back >= 0; back -= 1) {
    const iso = new Date(end - back * DAY_MS).toISOString().slice(0, 10);
    const done = byDay.get(iso);
    const cell = element("li", { class: "calendar-day", "data-testid": "calendar-day", "data-day": iso,
                                 "data-solved": String(Boolean(done)) });
    if (done) {
      const stars = starsOf(done.shortest, done.length);
      cell.dataset.stars = String(stars ?? "");
      cell.append(element("a", { href: done.replay || `/play/${game}`, class: "calendar-link",
                                 "aria-label": `${dayText(iso, { day: "numeric", month: "long" })}: ${movesAgainst(done.length, done.shortest)}` }));
    } else {
      cell.setAttribute("aria-hidden", "true");
    }
    grid.append(cell);
  }
  const card = element("article", { class: "profile-daily" });
  card.append(element("h3", {}, title),
    element("p", { class: "profile-streak", "data-testid": "profile-streak", "data-game": game, "data-streak": String(facts.streak) },
      ngettext("Streak: %(n)s day", "Streak: %(n)s days", facts.streak)),
    grid);
  return card;
}

function levelRow(level, titleOf) {
  const row = element("li", { class: "profile-level", "data-testid": "level-solved", "data-game": level.game });
  row.append(element("a", { href: level.url, class: "profile-level-name" }, gettext(level.name)),
    element("span", { class: "sub" }, ` · ${titleOf(level.game)} · ${movesAgainst(level.length, level.shortest)} `),
    starsElement(level.shortest, level.length));
  return row;
}

function resultRow(result, titleOf) {
  const what = result.level ? gettext(result.level) : result.day ? gettext("the daily of %(day)s", { day: dayText(result.day) })
    : gettext("a free-play board");
  const row = element("li", { class: "profile-result", "data-testid": "recent-result", "data-game": result.game });
  const how = [movesAgainst(result.length, result.shortest),
               result.assisted ? gettext("with help") : result.ranked ? gettext("ranked") : gettext("unranked")];
  row.append(element("span", { class: "profile-result-what" }, `${titleOf(result.game)}: ${what}`),
    element("span", { class: "sub" }, ` · ${how.join(" · ")} · ${dayText(result.created.slice(0, 10))} `));
  if (!result.assisted) row.append(starsElement(result.shortest, result.length), " ");
  if (result.replay) row.append(element("a", { class: "btn small", href: result.replay, "data-testid": "replay-link" }, gettext("Watch it again")), " ");
  row.append(element("a", { class: "btn small", href: result.play }, gettext("Play it again")));
  return row;
}

/** Draw the profile's dailies, levels and recent results; `titleOf(game)` names a game. */
export function showProfile(profile, titleOf) {
  const games = Object.keys(profile.dailies);
  $("no-dailies").hidden = games.length > 0;
  $("dailies").replaceChildren(...games.map((game) => calendar(game, titleOf(game), profile.dailies[game], profile.today)));
  $("no-levels").hidden = profile.levels.length > 0;
  $("levels-solved").replaceChildren(...profile.levels.map((level) => levelRow(level, titleOf)));
  $("no-recent").hidden = profile.recent.length > 0;
  $("recent-results").replaceChildren(...profile.recent.map((result) => resultRow(result, titleOf)));
}
