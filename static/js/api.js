// The page's one way to the server's JSON API: a JSON body out, the JSON answer back,
// and an answer other than 2xx thrown as an Error in the server's words. A 503 carries
// its Retry-After (`retryAfter`, seconds); no answer at all (offline, the server gone)
// is `unreachable`, so a caller may wait and send again.

import { gettext, translateReply } from "./i18n.js";

/** `method` `url` with `body` as JSON (if any); resolves to the answer's JSON. */
export async function call(method, url, body) {
  let reply;
  try {
    reply = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    // no answer at all: offline, or the server is gone; the caller may wait and resend
    const error = new Error(gettext("the server cannot be reached"));
    error.unreachable = true;
    error.retryAfter = 10;
    throw error;
  }
  let data = {};
  try { data = await reply.json(); } catch { /* an empty or HTML answer */ }
  if (!reply.ok) {
    const said = data.error ? translateReply(data) : gettext("the server answered %(status)s", { status: reply.status });
    const error = new Error(said);
    if (reply.status === 503) error.retryAfter = Math.min(60, Number(reply.headers.get("Retry-After")) || 5);
    throw error;
  }
  return data;
}
