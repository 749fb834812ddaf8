// The player's page: each game's ladder rating and the race rating, each with the line
// of how it moved, the streak and storm bests, strengths and weaknesses by game and
// size, a recovery code made only when asked for (never in the page), and what
// profile.js draws: the dailies' calendars, the levels solved and the last results.

import { call } from "./api.js";
import { nextLink } from "./ladder.js";
import { element } from "./dom.js";
import { gettext, ngettext } from "./i18n.js";
import { showProfile } from "./profile.js";

const SVG = "http://www.w3.org/2000/svg";
const CHART = { width: 320, height: 120, pad: 8 };

const catalogue = JSON.parse(document.getElementById("catalogue").textContent);
const titles = new Map(catalogue.map((info) => [info.name, info.title]));
const titleOf = (game) => (titles.has(game) ? gettext(titles.get(game)) : game);

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

/** The rating's line: the start, then after each scored puzzle or race (its colours:
 * players.css); `game` is the game's name, or "race". */
function chart(game, history) {
  const values = [history.start, ...history.points.map((point) => point.rating)].filter((v) => v != null);
  const root = svg("svg", {
    class: "rating-chart", viewBox: `0 0 ${CHART.width} ${CHART.height}`, role: "img",
    "data-testid": "rating-history", "data-game": game, "data-points": history.points.length,
    "aria-label": gettext("%(game)s rating over %(count)s puzzles: %(values)s", {
      game: game === "race" ? gettext("Race") : titleOf(game), count: history.points.length, values: values.join(", "),
    }),
  });
  if (values.length < 2) return root;
  const low = Math.min(...values) - 10;
  const high = Math.max(...values) + 10;
  const x = (i) => CHART.pad + (i * (CHART.width - 2 * CHART.pad)) / (values.length - 1);
  const y = (v) => CHART.height - CHART.pad - ((v - low) * (CHART.height - 2 * CHART.pad)) / (high - low);
  root.append(svg("line", { class: "chart-axis", x1: CHART.pad, x2: CHART.width - CHART.pad, y1: y(1500), y2: y(1500) }));
  root.append(svg("polyline", { class: "chart-line", points: values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  const last = values.length - 1;
  root.append(svg("circle", { class: "chart-dot", cx: x(last), cy: y(values[last]), r: 3.5 }));
  return root;
}

async function showRatings(me, race) {
  const list = document.querySelector("[data-testid=ratings]");
  const games = Object.keys(me.ratings || {});
  document.querySelector("[data-testid=no-ratings]").hidden = games.length > 0;
  const cards = await Promise.all(games.map(async (game) => {
    const { rating, deviation, attempts } = me.ratings[game];
    const card = element("li", { class: "profile-rating", "data-testid": "player-rating", "data-game": game, "data-rating": String(rating) });
    card.append(
      element("h3", {}, titleOf(game)),
      element("p", { class: "profile-figure" }, `${rating} ± ${deviation}`),
      element("p", { class: "sub" }, ngettext("%(n)s puzzle", "%(n)s puzzles", attempts)),
    );
    try {
      card.append(chart(game, await call("GET", `/api/player/history/${encodeURIComponent(game)}`)));
    } catch { /* the figure stands without its line */ }
    card.append(element("a", { class: "btn small", href: nextLink(game) }, gettext("Continue the ladder")));
    return card;
  }));
  if (race) cards.push(raceCard(race));
  document.querySelector("[data-testid=no-ratings]").hidden = cards.length > 0;
  list.replaceChildren(...cards);
}

/** The race rating (public races, by finishing order) and its line, beside the games'
 * ladder ratings. */
function raceCard({ rating, deviation, races, points = [] }) {
  const card = element("li", { class: "profile-rating", "data-testid": "player-race-rating", "data-rating": String(rating) });
  const start = points.length ? points[0].before : null;
  card.append(
    element("h3", {}, gettext("Races")),
    element("p", { class: "profile-figure" }, `${rating} ± ${deviation}`),
    element("p", { class: "sub" }, ngettext("%(n)s rated race", "%(n)s rated races", races)),
    chart("race", { start, points }),
    element("a", { class: "btn small", href: "/race" }, gettext("Race")),
  );
  return card;
}

/** Streak and storm bests: keys the server adds once it keeps them; absent, nothing shows. */
function showRuns(me) {
  const rows = [];
  for (const [game, best] of Object.entries(me.streak || {})) {
    rows.push(element("li", { "data-testid": "streak-best", "data-game": game }, gettext("%(game)s streak: best %(best)s", { game: titleOf(game), best })));
  }
  for (const [game, score] of Object.entries(me.storm || {})) {
    rows.push(element("li", { "data-testid": "storm-best", "data-game": game },
      gettext("%(game)s storm: best %(best)s, today %(today)s", { game: titleOf(game), best: score.best, today: score.today ?? 0 })));
  }
  document.querySelector("[data-testid=run-bests]").replaceChildren(...rows);
  document.querySelector("[data-testid=runs]").hidden = rows.length === 0;
}

function groupRow(group) {
  return element("li", { "data-testid": "group", "data-game": group.game, "data-score": String(group.score) },
    gettext("%(game)s, %(size)s: %(score)s%% over %(count)s puzzles", {
      game: titleOf(group.game), size: group.size, score: Math.round(group.score * 100), count: group.attempts,
    }));
}

async function showGroups() {
  const data = await call("GET", "/api/player/strengths");
  for (const side of ["strengths", "weaknesses"]) {
    const list = document.querySelector(`[data-testid=${side}]`);
    const rows = data[side].map(groupRow);
    if (!rows.length) rows.push(element("li", { class: "sub" }, gettext("None yet (a group needs %(count)s first attempts, and another to compare with).", { count: data.min_attempts })));
    list.replaceChildren(...rows);
  }
}

function bindCode() {
  const button = document.querySelector("[data-testid=show-code]");
  const code = document.querySelector("[data-testid=recovery-code]");
  const note = document.querySelector("[data-testid=code-note]");
  button.addEventListener("click", async () => {
    try {
      const reply = await call("POST", "/api/player/code", {});
      code.textContent = reply.code;
      code.hidden = false;
      note.textContent = gettext("Keep it to play as you in another browser; your old code no longer works.");
    } catch (error) {
      note.textContent = error.message;
    }
  });
}

async function main() {
  bindCode();
  try {
    const [me, profile] = await Promise.all([call("GET", "/api/player"), call("GET", "/api/player/profile")]);
    if (me.name) document.querySelector("[data-testid=player-title]").textContent = me.name;
    showRuns(me);
    showProfile(profile, titleOf);
    await Promise.all([showRatings(me, profile.race), showGroups()]);
  } catch (error) {
    document.querySelector("[data-testid=player-intro]").textContent = error.message;
  }
  document.body.dataset.ready = "true";
}

main();
