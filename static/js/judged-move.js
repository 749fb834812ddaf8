// A move on a page whose server judges every move (streak, storm, race): the page plays
// it on screen at once, then sends the position reached; meanwhile the board takes no other.

import { gettext } from "./i18n.js";

/**
 * The position `move` reaches on `host`'s board, or null after refusing it (with why).
 * `host` has game, state, busy and refuse(reason, target).
 */
export function judgedNext(host, move, target) {
  if (host.busy) {
    host.refuse(gettext("One moment: the last move is being judged."), target);
    return null;
  }
  const next = host.game.apply(host.state, move);
  if (!next) host.refuse(host.game.whyNot ? host.game.whyNot(host.state, move) : "", target);
  return next || null;
}
