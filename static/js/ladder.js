// The ladder on the play page. "?ladder=1" alone asks the server for the player's next
// puzzle near their rating (GET /api/ladder/<game>, which opens its ranked attempt and
// scores an open one as abandoned) and opens it as a ladder puzzle, "?ladder=1&board=";
// after a ladder puzzle, the result shows the rating's move and the links onward.

/** The link that asks for the next ladder puzzle of `game` ("easier"/"harder": shifted). */
export function nextLink(game, shift = null) {
  const query = new URLSearchParams({ ladder: "1" });
  if (shift) query.set("shift", shift);
  return `/play/${game}?${query}`;
}

/** Ask for the next puzzle and open it in place of this page; throws with the server's words. */
export async function openNext(game, shift = null) {
  const reply = await fetch(`/api/ladder/${game}${shift ? `?shift=${encodeURIComponent(shift)}` : ""}`, {
    credentials: "same-origin",
  });
  let data = {};
  try { data = await reply.json(); } catch { /* an empty or HTML answer */ }
  if (!reply.ok) throw new Error(data.error || `the server answered ${reply.status}`);
  const query = new URLSearchParams({ board: data.board, ...data.options, ladder: "1" });
  window.location.replace(`/play/${game}?${query}`);
}
