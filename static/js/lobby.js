// The lobby: draws a small, non-interactive preview of each game and level with
// the view its game module gives the play page, and marks the levels this
// browser solved. Games and their declarations come from the page's catalogue.

import { loadGame } from "./games.js";
import { best, isPerfect, levelKey } from "./progress.js";

const catalogue = JSON.parse(document.getElementById("catalogue").textContent);
const declared = new Map(catalogue.map((info) => [info.name, info]));

/** The options a preview or level is drawn with (JSON in data-options). */
function optionsOf(node) {
  try { return JSON.parse(node.dataset.options || "{}") || {}; } catch { return {}; }
}

async function drawPreview(node) {
  try {
    const module = await loadGame(node.dataset.preview);
    const game = module.createGame(optionsOf(node));
    const board = document.createElement("div");
    board.className = `board board-${node.dataset.preview} preview-board`;
    node.append(board);
    game.createView(board, null).render(game.parse(node.dataset.board));
  } catch {
    node.textContent = node.dataset.board; // still show the layout as text
  }
}

function markSolved(link) {
  const info = declared.get(link.dataset.game);
  const result = info && best(levelKey(info, optionsOf(link), link.dataset.board));
  if (!result) return;
  link.dataset.solved = "true";
  const mark = link.querySelector("[data-testid='level-best']");
  if (mark) {
    const how = result.assisted ? " (with Solve)" : isPerfect(result) ? " (perfect)" : "";
    mark.textContent = `✓ solved in ${result.moves}${how}`;
    mark.dataset.assisted = result.assisted ? "true" : "false";
    mark.hidden = false;
  }
}

document.querySelectorAll("[data-preview]").forEach(drawPreview);
document.querySelectorAll("a.level[data-board]").forEach(markSolved);
