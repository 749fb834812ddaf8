// Every legal move of the current position, rated by the server: the distance
// after it and a verdict, each written out in words and an icon as well as a
// colour (the analysis reply's `moves_rated`; the page keeps the contract's
// data-testid "options" and "option"). Clicking (or Enter on) one plays it.

import { verdictByBounds } from "./bounds.js";
import { distanceData, distanceText } from "./line.js";
import { gettext, N_ } from "../i18n.js";

/** Verdict -> [icon, word]. */
export const VERDICTS = {
  best: ["✓", N_("best")],
  equal: ["=", N_("equal")],
  worse: ["✗", N_("worse")],
  dead: ["☠", N_("dead")],
  unknown: ["?", N_("unproven")],
};

/** Why unproven moves carry no verdict, said once below them. */
const UNPROVEN_NOTE = N_("Unproven: only bounds (≤) are known after these moves; the search could not prove them within its budget, so they are not rated.");

function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  node.textContent = text;
  return node;
}

/** An option's distance, no looser than the current position's bound allows (`ceiling`: its bound + 1). */
function bounded(option, ceiling) {
  if (option.optimal || ceiling === null || ceiling === undefined) return option;
  if (option.solvable === false || (Number.isInteger(option.distance) && option.distance <= ceiling)) return option;
  return { ...option, distance: ceiling };
}

const JOINS = {
  extends: N_("extends your last move"),
  "takes back": N_("takes back your last move"),
  changes: N_("changes your last move"),
};

/** The server's verdict, else one the bounds prove (`bounds(option)`: {here, after} or null). */
function judged(option, bounds) {
  if (option.verdict && option.verdict !== "unknown") return option;
  const known = bounds ? bounds(option) : null;
  const verdict = known && verdictByBounds(known.here, known.after);
  return verdict ? { ...option, verdict } : option;
}

function optionButton(given, play, continues, ceiling, bounds, say) {
  const option = judged(bounded(given, ceiling), bounds);
  const verdict = VERDICTS[option.verdict] ? option.verdict : "unknown";
  const [icon, english] = VERDICTS[verdict];
  const word = gettext(english);
  const button = document.createElement("button");
  button.type = "button";
  button.className = "option";
  button.dataset.testid = "option";
  button.dataset.move = option.move.text;
  button.dataset.distance = distanceData(option);
  button.dataset.verdict = verdict;
  button.dataset.optimal = String(Boolean(option.optimal)); // false: the distance is a bound
  const distance = distanceText(option);
  // a description, not a name: the name stays the visible text (speech input users say it)
  const words = say(option.move.text);
  button.title = `${words}: ${distance === "?" ? gettext("distance not known")
    : distance === "unsolvable" ? gettext("unsolvable after it") : gettext("%(moves)s to solve after it", { moves: distance })}, ${word}`;
  // a dead end has no distance: its verdict line says so, the number's place stays narrow
  const dead = distance === "unsolvable";
  // the move and its number stay apart when read out or copied too ("tube 1 -> 5", then "13")
  // one line: no break inside "tube 1 → 5" or "I right 2", only after a comma
  button.append(span("option-move", words.replace(/(?<!,) /g, "\u00a0")), span("visually-hidden", ": "),
                span("option-distance", dead ? "–" : distance), span("visually-hidden", ", "),
                span("option-verdict", `${icon} ${word}${dead ? gettext(": unsolvable") : ""}`));
  const joins = JOINS[continues(given)] && gettext(JOINS[continues(given)]);
  if (joins) {
    // e.g. Klotski's piece metric: the same piece again is still the same move
    button.append(span("option-note", joins));
    button.title += `; ${joins}`;
  }
  button.addEventListener("click", () => play(given));
  return button;
}

/**
 * Fill `box` with the options of `analysis` (the current board's, or null).
 * `continues(option)` says whether playing it would extend the last move rather
 * than count as a new one (its distance and verdict are still the position's).
 * Redrawn only when the analysis, the solved state or the `last` history entry
 * changes, so keyboard focus stays put between other refreshes.
 */
export function drawMovesRated(box, analysis, { solved, evaluating, play, last = null, continues = () => null,
                                            ceiling = null, bounds = null, tooBig = null, say = (text) => text }) {
  const key = solved ? "solved" : analysis || tooBig;
  // `bounds` answers from the line's bounds, which change with it: its key says when
  const boundsKey = bounds ? bounds.key : null;
  if (box.coachKey === key && box.coachEvaluating === evaluating && box.coachLast === last
      && box.coachCeiling === ceiling && box.coachBounds === boundsKey) return;
  box.coachKey = key;
  box.coachEvaluating = evaluating;
  box.coachLast = last;
  box.coachCeiling = ceiling;
  box.coachBounds = boundsKey;
  const note = (text) => box.replaceChildren(span("options-note", text));
  if (solved) { note(gettext("Solved: nothing left to rate.")); return; }
  if (!analysis || !analysis.moves_rated) {
    note(evaluating ? gettext("rating every move…")
      : tooBig ? gettext("Not rated: the board is too big to solve within %(seconds)s s.", { seconds: tooBig.budget_seconds })
        : gettext("moves not rated yet"));
    return;
  }
  if (!analysis.moves_rated.length) { note(gettext("no legal move")); return; }
  const judge = bounds ? bounds.of : null;
  const buttons = analysis.moves_rated.map((option) => optionButton(option, play, continues, ceiling, judge, say));
  box.replaceChildren(...buttons);
  if (analysis.final === false) box.append(span("options-note", gettext("interim: proving the distances…")));
  else if (buttons.some((b) => b.dataset.verdict === "unknown")) box.append(span("options-note", gettext(UNPROVEN_NOTE)));
}
