// Every legal move of the current position, rated by the server: the distance
// after it and a verdict, each written out in words and an icon as well as a
// colour. Clicking (or Enter on) an option plays it.

import { distanceData, distanceText } from "./line.js";

/** Verdict -> [icon, word]. */
export const VERDICTS = {
  best: ["✓", "best"],
  equal: ["=", "equal"],
  worse: ["✗", "worse"],
  dead: ["☠", "dead"],
  unknown: ["?", "not rated"],
};

function span(className, text) {
  const node = document.createElement("span");
  node.className = className;
  node.textContent = text;
  return node;
}

function optionButton(option, play) {
  const verdict = VERDICTS[option.verdict] ? option.verdict : "unknown";
  const [icon, word] = VERDICTS[verdict];
  const button = document.createElement("button");
  button.type = "button";
  button.className = "option";
  button.dataset.testid = "option";
  button.dataset.move = option.move.text;
  button.dataset.distance = distanceData(option);
  button.dataset.verdict = option.verdict;
  button.dataset.optimal = String(Boolean(option.optimal)); // false: the distance is a bound
  const distance = distanceText(option);
  button.setAttribute("aria-label", `${option.move.text}: ${distance === "?" ? "distance not known"
    : distance === "unsolvable" ? "unsolvable after it" : `${distance} to solve after it`}, ${word}`);
  // a dead end has no distance: its verdict line says so, the number's place stays narrow
  const dead = distance === "unsolvable";
  button.append(span("option-move", option.move.text), span("option-distance", dead ? "–" : distance),
                span("option-verdict", `${icon} ${word}${dead ? ": unsolvable" : ""}`));
  button.addEventListener("click", () => play(option));
  return button;
}

/**
 * Fill `box` with the options of `analysis` (the current board's, or null).
 * Redrawn only when the analysis or the solved state changes, so keyboard
 * focus stays put between other refreshes.
 */
export function drawOptions(box, analysis, { solved, evaluating, play }) {
  const key = solved ? "solved" : analysis;
  if (box.coachKey === key && box.coachEvaluating === evaluating) return;
  box.coachKey = key;
  box.coachEvaluating = evaluating;
  const note = (text) => box.replaceChildren(span("options-note", text));
  if (solved) { note("Solved: nothing left to rate."); return; }
  if (!analysis || !analysis.options) {
    note(evaluating ? "rating every move…" : "moves not rated yet");
    return;
  }
  if (!analysis.options.length) { note("no legal move"); return; }
  box.replaceChildren(...analysis.options.map((option) => optionButton(option, play)));
  if (analysis.final === false) box.append(span("options-note", "proving the distances…"));
}
