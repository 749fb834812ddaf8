// The arcade's service worker, scope "/" (served by webapp/http/offline.py, which
// puts its settings on self.ARCADE_OFFLINE in a line before this file). It keeps
// every static file and the free pages from its install, and each page a player
// opens as it is opened, so the lobby, the games and every puzzle opened before
// open and play offline. Static files are fingerprinted: cache first. Pages: the
// network first (a ranked page opens its attempt on the server), the kept copy when
// the network fails. Nothing else (the API, the socket) passes through here.

const { version: VERSION, precache: PRECACHE, offlinePage: OFFLINE_PAGE, languages: LANGUAGES } = self.ARCADE_OFFLINE;
const CACHE = `arcade-${VERSION}`;
const PAGES = "arcade-pages"; // pages opened, kept across deploys (their files are kept too)
const KEPT_PAGES = 100;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("arcade-") && name !== CACHE && name !== PAGES) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

function isPage(url) {
  return url.pathname === "/" || url.pathname.startsWith("/play/") || url.pathname.startsWith("/editor/");
}

async function cacheFirst(request) {
  const kept = await caches.match(request);
  if (kept) return kept;
  try {
    return await fetch(request);
  } catch (error) {
    // offline, on a page kept from before a deploy: today's copy of the same file
    const today = request.url.replace(/\/static\/[0-9a-f]{12}\//, `/static/${VERSION}/`);
    const current = today !== request.url && (await caches.match(today));
    if (current) return current;
    throw error;
  }
}

async function keep(request, response) {
  const cache = await caches.open(PAGES);
  await cache.put(request, response);
  const kept = await cache.keys();
  for (const old of kept.slice(0, Math.max(0, kept.length - KEPT_PAGES))) await cache.delete(old);
}

/** The reader's language: the page's language control's cookie (the worker reads it
 * where the browser lets it), else the browser's. */
async function readersLanguage() {
  try {
    const kept = self.cookieStore && (await self.cookieStore.get("arcade_lang"));
    if (kept && LANGUAGES.includes(kept.value)) return kept.value;
  } catch { /* no cookie store here */ }
  return (self.navigator.language || "").toLowerCase().startsWith("zh") ? "zh-Hans" : LANGUAGES[0];
}

async function networkFirst(event) {
  try {
    const response = await fetch(event.request);
    if (response.ok) event.waitUntil(keep(event.request, response.clone()));
    return response;
  } catch {
    const offline = `${OFFLINE_PAGE}?lang=${await readersLanguage()}`;
    return (await caches.match(event.request)) || (await caches.match(offline)) || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) event.respondWith(cacheFirst(request));
  else if (request.mode === "navigate" && isPage(url)) event.respondWith(networkFirst(event));
});
