// The play page's controls: buttons, the playback bar, keyboard shortcuts and the
// "New game" form. Each turns a click or key into a controller call; the game
// module's view handles the board's own keys, and may shape the form through
// its setupNewGameForm(form, config) hook.

import { $ } from "./panel.js";
import { boardLink, copyLink, labLink, positionLink, withSpeed } from "./share.js";
import { bindShortcuts } from "./shortcuts.js";
import { gettext } from "./i18n.js";

/** Wire every control of the play page to `ctrl`; `module` is the game's module. */
export function bindControls(ctrl, module) {
  const on = (id, fn) => $(id).addEventListener("click", () => fn());
  on("hint", () => ctrl.hint());
  on("solve", () => ctrl.solve());
  on("cancel", () => ctrl.cancelSolve());
  on("undo", () => ctrl.undo());
  on("redo", () => ctrl.redo());
  on("restart", () => ctrl.restart());
  on("open-coach", () => ctrl.openCoach());
  on("copy-link", () => copyLink($("copy-link"), boardLink(ctrl)));
  if (ctrl.extra) on(ctrl.extra.feature, () => ctrl.addExtra());
  bindPlayback(ctrl.playback);
  bindNewGame(ctrl, module);
  document.addEventListener("keydown", (event) => key(ctrl, event));
  bindShortcuts(module.keys, { button: $("shortcuts-button") });
}

function bindPlayback(playback) {
  const on = (id, fn) => $(id).addEventListener("click", () => fn());
  on("play-pause", () => playback.toggle());
  on("step-back", () => playback.stepBack());
  on("step-forward", () => { playback.pause(); playback.stepForward(); });
  const speed = $("speed");
  speed.value = String(playback.speed);
  const showSpeed = () => {
    const label = document.querySelector("[data-speed-label]");
    if (label) label.textContent = gettext("%(ms)s ms", { ms: speed.value });
  };
  showSpeed();
  speed.addEventListener("input", () => { playback.setSpeed(Number(speed.value)); showSpeed(); });
}

/** The "New game" pickers navigate to a seeded URL, so the new game has a link too. */
function bindNewGame(ctrl, module) {
  const form = $("new-game");
  if (!form) return;
  if (module.setupNewGameForm) module.setupNewGameForm(form, ctrl.config);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const params = new URLSearchParams(new FormData(form));
    params.set("seed", String(Math.floor(Math.random() * 2 ** 31)));
    window.location.assign(`/play/${ctrl.config.game}?${withSpeed(params).toString()}`);
  });
  const edit = $("edit-position");
  if (edit) edit.addEventListener("click", (event) => {
    event.preventDefault();
    window.location.assign(positionLink(ctrl.config.game, ctrl.board, ctrl.options, { page: "editor" }));
  });
  const lab = $("open-lab");
  if (lab) lab.addEventListener("click", (event) => {
    event.preventDefault();
    window.location.assign(labLink(ctrl.config.game, ctrl.board, ctrl.options));
  });
}

/** Undo/redo shortcuts; other keys go to the game's view. */
function key(ctrl, event) {
  const tag = event.target && event.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  if (event.target.closest && event.target.closest("dialog")) return; // the list of keys has its own
  const command = event.ctrlKey || event.metaKey;
  const k = event.key.toLowerCase();
  if (command && (k === "y" || (k === "z" && event.shiftKey))) { event.preventDefault(); ctrl.redo(); return; }
  if (command && k === "z") { event.preventDefault(); ctrl.undo(); return; }
  if (!ctrl.initialBoard || command || event.altKey) return;
  if (ctrl.view.handleKey(event)) event.preventDefault();
}
