// Every key a board page answers, listed in a dialog the "?" key (or the page's Keys
// button) opens: the page's own (undo, redo) and the game's, which its module declares
// as `keys` ([[key, what it does], ...], the words marked for translation). The dialog
// is a <dialog>: Escape or its button closes it, and focus returns where it was.

import { gettext, N_ } from "./i18n.js";
import { element } from "./dom.js";

/** The keys of every board page. */
const COMMON = [
  [N_("Ctrl+Z"), N_("undo the last move")],
  [N_("Ctrl+Y or Ctrl+Shift+Z"), N_("redo")],
  ["?", N_("show this list of keys")],
];

function dialogFor(keys) {
  const list = element("dl", { class: "shortcut-list" });
  for (const [key, what] of keys) {
    list.append(element("dt", {}, gettext(key)), element("dd", {}, gettext(what)));
  }
  const dialog = element("dialog", { class: "shortcuts", "data-testid": "shortcuts", "aria-labelledby": "shortcuts-title" });
  const close = element("button", { type: "button", class: "btn small", "data-testid": "shortcuts-close" }, gettext("Close"));
  close.addEventListener("click", () => dialog.close());
  dialog.append(element("h2", { id: "shortcuts-title" }, gettext("Keys")), list, close);
  document.body.append(dialog);
  return dialog;
}

/** Open the list of keys on "?" (and from `button`, when the page has one); `gameKeys`
 * are the game module's. `common` false: a page without undo and redo (a judged board). */
export function bindShortcuts(gameKeys = [], { button = null, common = true } = {}) {
  let dialog = null;
  const open = () => {
    dialog = dialog || dialogFor([...(common ? COMMON : COMMON.slice(2)), ...gameKeys]);
    if (!dialog.open) dialog.showModal();
  };
  document.addEventListener("keydown", (event) => {
    const tag = event.target && event.target.tagName;
    if (event.key !== "?" || tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    event.preventDefault();
    open();
  });
  if (button) button.addEventListener("click", open);
}
