// The result once solved: accuracy and stars (the middle end's score, drawn by
// finish.js as on every page), the best accuracy kept for the level, and a one-line
// result to paste in a chat with the distance line as a text sparkline, like
// daily-puzzle results.

import { drawScore } from "../finish.js";
import { best, levelKey } from "../progress.js";
import { accuracyText, starsOf, starText } from "../score.js";
import { copyLink, startLink } from "../share.js";
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

/** One line: game (and level), moves made, shortest, accuracy and stars (or the help), the
 * sparkline, and a link to the puzzle's start. */
export function resultLine(ctrl, points, score) {
  const name = ctrl.config.level ? ` "${gettext(ctrl.config.level.name)}"` : "";
  const shortest = score.shortest === null ? gettext("shortest not known")
    : score.proven ? gettext("shortest %(moves)s", { moves: score.shortest }) : gettext("shortest ≤ %(moves)s", { moves: score.shortest });
  const rated = accuracyText(score);
  const grade = score.assisted ? gettext("assisted (Solve used), no stars")
    : gettext("accuracy %(accuracy)s", { accuracy: rated || gettext("not known") }) + (rated ? ` ${starText(starsOf(score))}` : "");
  const solved = gettext("solved in %(moves)s (%(shortest)s)", { moves: movesText(score.moves), shortest });
  // the link opens the puzzle's start, to play it too (not the solved position)
  return `${gettext(ctrl.info.title)}${name}: ${solved} · ${grade} · ${sparkline(points)} ${startLink(ctrl)}`;
}

/** Show or hide the result box: `parts` = {box, accuracy, stars, best, share}; `points` from lineOf. */
export function drawResult(ctrl, points, parts) {
  const score = ctrl.score(points);
  drawScore(parts, score);
  if (!score) return;
  const kept = best(levelKey(ctrl.info, ctrl.options, ctrl.initialBoard));
  parts.best.textContent = kept && kept.accuracy && !kept.assisted ? gettext("best %(percent)s%%", { percent: kept.accuracy }) : "";
  parts.share.dataset.text = resultLine(ctrl, points.slice(0, ctrl.history.cursor + 1), score);
}

/** The share button copies the line its last drawing left on it. */
export function bindShare(button) {
  button.addEventListener("click", () => copyLink(button, button.dataset.text || ""));
}
