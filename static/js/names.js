// A player's name as the page shows it: a chosen name as it is (never markup: every
// page sets it as text), and the words the server gives players without one ("Player
// 12" on a leaderboard, "Racer 2" or "Guest 3" in a race, names no player may choose)
// in the reader's language.

import { gettext, N_ } from "./i18n.js";

const UNNAMED = { Player: N_("Player %(n)s"), Racer: N_("Racer %(n)s"), Guest: N_("Guest %(n)s") };

/** `name` in the reader's language when it is the server's word for an unnamed player. */
export function shownName(name) {
  const match = /^(Player|Racer|Guest) (\d+)$/.exec(String(name ?? ""));
  return match ? gettext(UNNAMED[match[1]], { n: match[2] }) : String(name ?? "");
}
