// The result once solved: accuracy (shortest from the start / moves made), stars,
// the best accuracy kept for the level, and a one-line result to paste in a chat
// with the distance line as a text sparkline, like daily-puzzle results.

import { best, levelKey } from "../progress.js";
import { accuracyText, scoreOf, starsOf, starText } from "../score.js";
import { copyLink } from "../share.js";
import { gettext, movesText } from "../i18n.js";

const BLOCKS = "▁▂▃▄▅▆▇█";
const MAX_SPARK = 40;

/** The distances of `points` as blocks (▁ near solved, █ farthest); ✗ unsolvable, · unknown. */
export function sparkline(points) {
  let chosen = points;
  if (points.length > MAX_SPARK) {
    chosen = Array.from({ length: MAX_SPARK }, (_, i) => points[Math.round((i * (points.length - 1)) / (MAX_SPARK - 1))]);
  }
  const top = Math.max(1, ...chosen.map((p) => p.distance || 0));
  return chosen.map((p) => {
    if (p.solvable === false && p.optimal) return "✗";
    if (p.distance === null) return "·";
    return BLOCKS[Math.round((p.distance / top) * (BLOCKS.length - 1))];
  }).join("");
}

/** The score of `ctrl`'s solved game (score.js), else null; `points` from lineOf. */
export function gameScore(ctrl, points) {
  const [moves] = ctrl.counts();
  if (!ctrl.isSolved() || moves === 0) return null;
  const start = points[0];
  return scoreOf({ upper: start.distance, lower: start.lower, exact: start.optimal }, moves, ctrl.assisted);
}

/** One line: game (and level), moves made, shortest, accuracy and stars (or the help), the sparkline. */
export function resultLine(ctrl, points, score) {
  const name = ctrl.config.level ? ` "${ctrl.config.level.name}"` : "";
  const shortest = score.shortest === null ? gettext("shortest not known")
    : score.proven ? gettext("shortest %(moves)s", { moves: score.shortest }) : gettext("shortest ≤ %(moves)s", { moves: score.shortest });
  const rated = accuracyText(score);
  const grade = score.assisted ? gettext("assisted (Solve used), no stars")
    : gettext("accuracy %(accuracy)s", { accuracy: rated || gettext("not known") }) + (rated ? ` ${starText(starsOf(score))}` : "");
  const solved = gettext("solved in %(moves)s (%(shortest)s)", { moves: movesText(score.moves), shortest });
  return `${gettext(ctrl.info.title)}${name}: ${solved} · ${grade} · ${sparkline(points)}`;
}

/** Show or hide the result box: `parts` = {box, accuracy, stars, best, share}; `points` from lineOf. */
export function drawResult(ctrl, points, parts) {
  const score = gameScore(ctrl, points);
  parts.box.hidden = !score;
  if (!score) return;
  const rated = accuracyText(score);
  parts.accuracy.textContent = score.assisted ? gettext("assisted (Solve used)") : rated || gettext("not known yet");
  parts.accuracy.dataset.assisted = String(score.assisted);
  parts.accuracy.dataset.proven = String(score.percent !== null);
  parts.accuracy.title = score.assisted ? gettext("Solve played moves for you: no stars, and it is not your best")
    : score.percent === null ? gettext("the shortest solution is not proven yet: this is what is certain") : "";
  const stars = starsOf(score);
  parts.stars.textContent = score.assisted || !rated ? "" : starText(stars);
  parts.stars.setAttribute("aria-label", score.assisted ? gettext("no stars: assisted") : gettext("%(stars)s of 3 stars", { stars }));
  const kept = best(levelKey(ctrl.info, ctrl.options, ctrl.initialBoard));
  parts.best.textContent = kept && kept.accuracy && !kept.assisted ? gettext("best %(percent)s%%", { percent: kept.accuracy }) : "";
  parts.share.dataset.text = resultLine(ctrl, points.slice(0, ctrl.history.cursor + 1), score);
}

/** The share button copies the line its last drawing left on it. */
export function bindShare(button) {
  button.addEventListener("click", () => copyLink(button, button.dataset.text || ""));
}
