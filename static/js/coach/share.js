// The result once solved: accuracy (shortest from the start / moves made), stars,
// the best accuracy kept for the level, and a one-line result to paste in a chat
// with the distance line as a text sparkline, like daily-puzzle results.

import { accuracy, best, levelKey } from "../progress.js";
import { copyLink } from "../share.js";

const BLOCKS = "▁▂▃▄▅▆▇█";
const MAX_SPARK = 40;

/** 3 stars for a perfect solve, 2 from 80%, 1 from 50%. */
export function starsFor(percent) { return percent >= 100 ? 3 : percent >= 80 ? 2 : percent >= 50 ? 1 : 0; }

export function starText(stars) { return "★".repeat(stars) + "☆".repeat(3 - stars); }

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

/** {percent, shortest, moves, proven} for a solved game, else null. */
export function scoreOf(ctrl) {
  const [moves] = ctrl.counts();
  const min = ctrl.minimum();
  if (!ctrl.isSolved() || moves === 0 || !min) return null;
  return { percent: accuracy(min.moves, moves), shortest: min.moves, moves, proven: Boolean(min.optimal) };
}

/** One line: game (and level), moves made, shortest, accuracy and stars, the sparkline. */
export function resultLine(ctrl, points, score) {
  const name = ctrl.config.level ? ` "${ctrl.config.level.name}"` : "";
  const bound = score.proven ? "" : "≤ ";
  return `${ctrl.info.title}${name}: solved in ${score.moves} moves (shortest ${bound}${score.shortest}) · `
    + `accuracy ${bound}${score.percent}% ${starText(starsFor(score.percent))} · ${sparkline(points)}`;
}

/** Show or hide the result box: `parts` = {box, accuracy, stars, best, share}. */
export function drawResult(ctrl, points, parts) {
  const score = scoreOf(ctrl);
  parts.box.hidden = !score;
  if (!score) return;
  const bound = score.proven ? "" : "≤ ";
  parts.accuracy.textContent = `${bound}${score.percent}%`;
  const stars = starsFor(score.percent);
  parts.stars.textContent = starText(stars);
  parts.stars.setAttribute("aria-label", `${stars} of 3 stars`);
  const kept = best(levelKey(ctrl.info, ctrl.options, ctrl.initialBoard));
  parts.best.textContent = kept && kept.accuracy ? `best ${kept.accuracy}%` : "";
  parts.share.dataset.text = resultLine(ctrl, points.slice(0, ctrl.history.cursor + 1), score);
}

/** The share button copies the line its last drawing left on it. */
export function bindShare(button) {
  button.addEventListener("click", () => copyLink(button, button.dataset.text || ""));
}
