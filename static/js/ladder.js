// The ladder on the play page. "?ladder=1" alone asks the server for the player's next
// puzzle near their rating (POST /api/ladder/<game>, which opens its ranked attempt and
// scores an open one as abandoned) and opens it as a ladder puzzle, "?ladder=1&board=";
// after a ladder puzzle, the result shows the rating's move and the links onward.

import { call } from "./api.js";

/** The link that asks for the next ladder puzzle of `game` ("easier"/"harder": shifted). */
export function nextLink(game, shift = null) {
  const query = new URLSearchParams({ ladder: "1" });
  if (shift) query.set("shift", shift);
  return `/play/${game}?${query}`;
}

/** Ask for the next puzzle and open it in place of this page; throws with the server's words. */
export async function openNext(game, shift = null) {
  const data = await call("POST", `/api/ladder/${game}`, shift ? { shift } : {});
  const query = new URLSearchParams({ board: data.board, ...data.options, ladder: "1" });
  window.location.replace(`/play/${game}?${query}`);
}
