// Whether the page can reach the arcade's server, said in one banner on every page
// (data-testid="offline"): the browser's online and offline events everywhere, and on
// a play page the solver link's state too. Play goes on without the server (moves,
// undo and redo are the page's own); hints, solutions and results wait for it. Every
// page also registers the service worker that keeps the pages for offline play.

const banner = document.querySelector('[data-testid="offline"]');
let solverUp = true; // no solver link on this page, or it is connected

function show() {
  if (!banner) return;
  banner.hidden = navigator.onLine && solverUp;
}

/** A play page's link to the solver came up or went down. */
export function solverReachable(up) {
  solverUp = up;
  show();
}

/** Resolves once the browser is online again (at once when it is). */
export function backOnline() {
  if (navigator.onLine) return Promise.resolve();
  return new Promise((resolve) => window.addEventListener("online", () => resolve(), { once: true }));
}

// the service worker keeps the pages and files for offline play (webapp/http/offline.py)
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* not installable here */ });
  });
}

window.addEventListener("online", show);
window.addEventListener("offline", show);
show();
