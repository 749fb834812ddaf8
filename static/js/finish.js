// A finish in words and stars, the same on every page that drives a board: the status
// line's "Puzzle solved in 12 moves (optimal 10)!" and the result's accuracy and stars
// (data-testid "accuracy" and "stars"), both from the middle end's score (score.js).

import { accuracyText, starsOf, starText } from "./score.js";
import { gettext, movesText } from "./i18n.js";

/** "optimal 12", "shortest ≤ 12, not proven" or "shortest not known". */
export function shortestWords(score) {
  if (score.shortest === null) return gettext("shortest not known");
  return score.proven ? gettext("optimal %(moves)s", { moves: score.shortest })
    : gettext("shortest ≤ %(moves)s, not proven", { moves: score.shortest });
}

/** "Puzzle solved in 12 moves (optimal 10)!"; `extras` names what else was used (" with 1 tube"). */
export function solvedWords(score, extras = "") {
  return gettext("Puzzle solved in %(moves)s%(extras)s (%(shortest)s)!",
                 { moves: movesText(score.moves), extras, shortest: shortestWords(score) });
}

/** Show `score` (null: no finish) in `parts` = {box, accuracy, stars}: the box is hidden
 * without one; `accuracy` carries data-assisted and data-proven. */
export function drawScore(parts, score) {
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
}
