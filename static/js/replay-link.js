// A result played again: the player's page links each of the player's results to its
// start's free-play page with ?replay=<id>; the page reads the result's line (GET
// /api/player/results/<id>, the player's own only) into the playback bar, to watch it
// move by move, step back and forth, or take over from any position.

import { call } from "./api.js";

/** Load the result `id` (the page's ?replay=, read before the address bar follows the
 * board) into `ctrl`'s playback; nothing when none. */
export async function openReplay(ctrl, id) {
  if (!id || !/^\d{1,12}$/.test(id) || !ctrl.initialBoard) return;
  try {
    const result = await call("GET", `/api/player/results/${id}`);
    ctrl.loadReplay(result.states.map((board) => ctrl.game.format(ctrl.game.parse(board))));
  } catch (error) {
    ctrl.notice = error.message;
    ctrl.changed();
  }
}
