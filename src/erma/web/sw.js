// The service worker (issue 36): the web client's own static files (pages, modules, styles, tiles, icons)
// from the network first and from its cache when the network fails, so the installed app opens offline and
// its lobby says it cannot reach the server. Never the game: /api, /ws (the socket), /healthz and /metrics
// go to the network untouched, as does anything not a GET or from another origin.

const CACHE = "erma-static-v1";
const CORE = ["./", "index.html", "style.css", "app.js", "manifest.webmanifest", "icons/icon.svg", "tiles/7z.svg"];
const NEVER = /^\/(api|ws|healthz|metrics)(\/|$)/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(CORE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

/** Whether a request is one of the client's static files. */
function isStatic(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  return url.origin === self.location.origin && !NEVER.test(url.pathname);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!isStatic(request)) return; // the browser's own fetch: the game's API and socket never touch the cache
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && response.type === "basic") {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() =>
        caches
          .match(request, { ignoreSearch: true })
          .then((hit) => hit || (request.mode === "navigate" ? caches.match("index.html") : undefined))
          .then((hit) => hit || Response.error()),
      ),
  );
});
