// The lobby: draws a small, non-interactive preview of each game and level with
// the same views the play page uses, and marks the levels this browser solved.

import { createGame as klotski } from "./games/klotski.js";
import { createGame as npuzzle } from "./games/npuzzle.js";
import { createGame as watersort } from "./games/watersort.js";
import { best, levelKey } from "./progress.js";

const GAMES = { klotski, npuzzle, watersort };

for (const node of document.querySelectorAll("[data-preview]")) {
  try {
    const game = GAMES[node.dataset.preview]({ capacity: node.dataset.capacity });
    const board = document.createElement("div");
    board.className = `board board-${game.name} preview-board`;
    node.append(board);
    game.createView(board, null).render(game.parse(node.dataset.board));
  } catch (error) {
    node.textContent = node.dataset.board; // still show the layout as text
  }
}

for (const link of document.querySelectorAll("a.level[data-board]")) {
  const result = best(levelKey("klotski", { metric: "piece" }, link.dataset.board));
  if (!result) continue;
  link.dataset.solved = "true";
  const mark = link.querySelector("[data-testid='level-best']");
  if (mark) {
    const perfect = result.min !== null && result.moves <= result.min;
    mark.textContent = perfect ? `✓ solved in ${result.moves} (perfect)` : `✓ solved in ${result.moves}`;
    mark.hidden = false;
  }
}
