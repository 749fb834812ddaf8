// The review of mistakes ("learn from your mistakes" on lichess): the wasted
// moves of the line played; picking one jumps to the position before it and the
// status then judges the next move played there: "best move" or "try again".

import { distanceText, exact, moveText } from "./line.js";
import { gettext } from "../i18n.js";

export class Review {
  /** `button` opens and closes `list`; `ctrl` is the page's controller. */
  constructor(ctrl, button, list) {
    this.ctrl = ctrl;
    this.button = button;
    this.list = list;
    this.target = null; // {ply, board, move}: the mistake being retried
    this.key = null;
    button.setAttribute("aria-expanded", "false");
    button.addEventListener("click", () => this.toggle());
  }

  toggle() {
    const open = this.list.hidden;
    this.list.hidden = !open;
    this.button.setAttribute("aria-expanded", String(open));
  }

  /** The list of wasted moves in `points` (from lineOf). */
  draw(points) {
    const mistakes = points.filter((p) => p.wasted);
    const label = this.button.querySelector(".label") || this.button;
    label.textContent = mistakes.length ? gettext("Review mistakes (%(n)s)", { n: mistakes.length }) : gettext("Review mistakes (none yet)");
    this.button.disabled = mistakes.length === 0;
    if (!mistakes.length && !this.list.hidden) this.toggle();
    const key = JSON.stringify(mistakes.map((p) => [p.ply, p.board, p.distance]));
    if (key === this.key) return;
    this.key = key;
    this.list.replaceChildren(...mistakes.map((p) => this.item(points[p.ply - 1], p)));
  }

  item(before, after) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "mistake";
    button.dataset.testid = "mistake";
    button.dataset.ply = String(before.ply);
    const worse = after.solvable === false ? gettext("made it unsolvable")
      : gettext("%(before)s → %(after)s to solve", { before: distanceText(before), after: distanceText(after) });
    button.textContent = gettext("Move %(move)s: %(text)s (%(worse)s)", { move: after.ply, text: this.ctrl.sayMove(moveText(after.entry)), worse });
    button.title = gettext("Go back there and look for a better move");
    button.addEventListener("click", () => this.retry(before, after));
    li.append(button);
    return li;
  }

  retry(before, after) {
    this.target = { ply: before.ply, board: before.board, move: moveText(after.entry) };
    this.ctrl.jumpTo(before.ply);
  }

  /** The status line while a mistake is retried ("" otherwise): the prompt, then the verdict. */
  judgement() {
    const target = this.target;
    if (!target) return "";
    const { history, analyses, board } = this.ctrl;
    if (history.cursor === target.ply && board === target.board) {
      return gettext("Find a better move than %(move)s here.", { move: this.ctrl.sayMove(target.move) });
    }
    const entry = history.entries[target.ply];
    if (history.cursor !== target.ply + 1 || !entry || entry.before !== target.board) {
      this.target = null; // the player went elsewhere: the review of this move is over
      return "";
    }
    const verdict = this.verdictOf(target.board, entry.after, analyses);
    if (verdict === null) return gettext("Checking that move…");
    return verdict === "best" ? gettext("✓ best move: that is the way to go.")
      : gettext("✗ try again: that move does not bring you closer (undo, or pick the mistake again).");
  }

  /** The verdict of the move from `before` to `after`: from the rated options, else distances. */
  verdictOf(before, after, analyses) {
    const known = analyses.get(before);
    const option = known && known.moves_rated && known.moves_rated.find((o) => o.board === after);
    if (option && option.verdict !== "unknown") return option.verdict;
    const [from, to] = [analyses.distanceOf(before), analyses.distanceOf(after)];
    if (!exact(from) || !exact(to)) return null;
    return to.solvable !== false && to.distance === from.distance - 1 ? "best" : "worse";
  }
}
