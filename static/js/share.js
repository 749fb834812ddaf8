// Links to positions: every position has an address (/play/<game>?board=...),
// kept in the URL bar as the player moves and copied by "Copy link".

import { gettext } from "./i18n.js";

/** `params` plus the page's own ?speed=, so a link keeps the playback speed. */
export function withSpeed(params) {
  const speed = new URLSearchParams(window.location.search).get("speed");
  if (speed) params.set("speed", speed);
  return params;
}

/** The page address of `board` in `game` with `options` (absolute for sharing). */
export function positionLink(game, board, options, { absolute = false, page = "play" } = {}) {
  const params = new URLSearchParams({ board });
  for (const [k, v] of Object.entries(options)) params.set(k, v);
  const path = `/${page}/${game}?${(page === "play" ? withSpeed(params) : params).toString()}`;
  return absolute ? window.location.origin + path : path;
}

/** The solver lab on `board`: its algorithms compared side by side, its state space drawn. */
export function labLink(game, board, options) {
  const params = new URLSearchParams({ game, board });
  for (const [k, v] of Object.entries(options)) if (v !== null && v !== undefined) params.set(k, v);
  return `/lab?${params.toString()}`;
}

/** True when the page was opened as a ranked puzzle (the daily, a level's own link). */
export function rankedLink(config) {
  return Boolean((config.generated && config.generated.daily) || config.level_link || config.ladder === "play");
}

/** The puzzle's start as an absolute address, to share: a ranked, seeded or level
 * puzzle's own link (the one the page opened on, without a replay's ?replay=), else
 * the start position's. */
export function startLink(ctrl) {
  const config = ctrl.config;
  if (ctrl.startUrl && (rankedLink(config) || config.generated || config.level)) {
    const url = new URL(ctrl.startUrl, window.location.origin);
    url.searchParams.delete("replay");
    return url.toString();
  }
  return positionLink(config.game, ctrl.initialBoard, ctrl.options, { absolute: true });
}

/** What "Copy link" copies: the position on the board, or once it is solved the
 * puzzle's start (a solved position is nothing to play). */
export function boardLink(ctrl) {
  return ctrl.isSolved() ? startLink(ctrl) : positionLink(ctrl.config.game, ctrl.board, ctrl.options, { absolute: true });
}

/** Keep the URL bar on the current position (a seeded level's start keeps its own link);
 * a ranked puzzle's link never becomes a position's: it names the puzzle, and the moves
 * made come back from the tab's sessionStorage (see savedLine). */
export function followInAddressBar(ctrl, startUrl) {
  const own = rankedLink(ctrl.config) || (ctrl.config.generated && ctrl.board === ctrl.initialBoard);
  window.history.replaceState(null, "", own ? startUrl : positionLink(ctrl.config.game, ctrl.board, ctrl.options));
}

const LINE_STORE = "arcade-line:";

/** The moves saved for `startUrl` in this tab (null: none, or storage is off). */
export function savedLine(startUrl) {
  try { return JSON.parse(sessionStorage.getItem(LINE_STORE + startUrl) || "null"); } catch { return null; }
}

/** Save the game for a reload or Back/Forward of `startUrl`. */
export function saveLine(startUrl, line) {
  try { sessionStorage.setItem(LINE_STORE + startUrl, JSON.stringify(line)); } catch { /* storage full or off */ }
}

/** Copy `url` to the clipboard; the button says "Copied!" for a moment. */
export async function copyLink(button, url) {
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    const area = document.createElement("textarea");
    area.value = url;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  button.dataset.copied = url;
  const label = button.querySelector(".label") || button;
  const old = label.textContent;
  label.textContent = gettext("Copied!");
  setTimeout(() => { label.textContent = old; }, 1200);
}
