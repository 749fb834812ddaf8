// Every page's header: the player's button with their name (or "Choose a name"), and the
// name box it opens, so a name can be chosen anywhere, before any puzzle is finished.
// Saving answers a recovery code, said once in the box; the pages that show the name
// (a leaderboard, a race) hear of it through the "arcade:named" event. `whoAmI` is the
// page's one read of GET /api/player, shared with the lobby's marks.

import { call } from "./api.js";
import { gettext } from "./i18n.js";

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);
let asked = null;

/** The player this browser plays as (GET /api/player), read once per page; null when unreachable. */
export function whoAmI() {
  if (!asked) asked = call("GET", "/api/player").catch(() => null);
  return asked;
}

/** Show `name` (null: none yet) on the header's button and in the box. */
function showName(name) {
  const shown = $("me-name");
  if (shown) shown.textContent = name || gettext("Choose a name");
  const box = $("name-box");
  if (box && name && !box.value) box.value = name;
}

function bindNameBox() {
  const form = $("name-form");
  if (!form) return;
  const input = $("name-box");
  const note = $("name-note");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const me = await call("POST", "/api/player", { name: input.value });
      showName(me.name);
      input.value = me.name;
      note.textContent = gettext("Saved. Your recovery code is %(code)s: keep it to play as %(name)s in another browser.", { code: me.code, name: me.name });
      document.dispatchEvent(new CustomEvent("arcade:named", { detail: { name: me.name } }));
    } catch (error) {
      note.textContent = error.message;
    }
  });
}

bindNameBox();
whoAmI().then((me) => showName(me && me.name));
