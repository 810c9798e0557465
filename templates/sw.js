// Red Book service worker: rule pages, checklists and print sheets work without a network; search
// and the calculators say that they need one, unless the player switched on "Use Red Book
// offline": then the page's own Python (the offline bundle, in a Web Worker the page runs)
// answers what can neither be fetched nor found here.
"use strict";
const CACHE = {{ cache_name|tojson }};
const PRECACHE = {{ urls|tojson }};
// Pages visited besides those (calculator results, search pages): kept apart, at most RUNTIME_LIMIT,
// the least recently saved dropped first.
const RUNTIME = CACHE + "-visited";
const RUNTIME_LIMIT = {{ runtime_limit|tojson }};
const PRECACHED = new Set(PRECACHE);
// a page neither fetched nor saved: search and calculators need a connection, others were not saved
// (the last entry, with no paths, answers every other page)
const OFFLINE = {{ offline|tojson }};
const STATIC = {{ static_prefix|tojson }};  // fingerprinted assets, under ?v=
const API = {{ api_prefix|tojson }};  // answers never kept
// The offline bundle of this build (null when the server offers none), kept in a cache named
// after its version: any other version's cache is deleted, so old rules never answer.
const PYTHON = {{ python|tojson }};
const PYTHON_CACHE = PYTHON ? "redbook-python-" + PYTHON.version : null;
const RELAY_TIMEOUT = {{ relay_timeout|tojson }};

// A fresh copy of a precached page replaces it there; any other page goes to the visited pages,
// which then drop their oldest beyond the limit (keys() lists them in the order they were saved).
function save(url, request, response) {
  if (PRECACHED.has(url.pathname + url.search)) {
    return caches.open(CACHE).then((cache) => cache.put(request, response));
  }
  return caches.open(RUNTIME).then((cache) => cache.put(request, response)
    .then(() => cache.keys())
    .then((keys) => Promise.all(keys.slice(0, Math.max(0, keys.length - RUNTIME_LIMIT)).map((key) => cache.delete(key)))));
}

function offlinePage(url) {
  return OFFLINE.find((page) => !page.paths || page.paths.includes(url.pathname)).url;
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("redbook-") && n !== CACHE && n !== RUNTIME
        && n !== PYTHON_CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

// The bundle is on this device when its cache holds the manifest, which the page stores last.
function pythonHere() {
  if (!PYTHON) return Promise.resolve(false);
  return caches.match(PYTHON.manifest, { cacheName: PYTHON_CACHE }).then((hit) => !!hit);
}

// Ask the page that made the request to have its Python answer it (offline.js relays it to its
// worker, which runs the app): the app's own answer, status, headers and body.
function askPython(clientId, request) {
  return self.clients.get(clientId).then((client) => new Promise((resolve, reject) => {
    if (!client) { reject(new Error("no page to answer")); return; }
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new Error("no answer")), RELAY_TIMEOUT);
    channel.port1.onmessage = (message) => {
      clearTimeout(timer);
      const reply = message.data;
      if (reply.error) { reject(new Error(reply.error)); return; }
      resolve(new Response(reply.status === 304 ? null : reply.body, { status: reply.status, headers: reply.headers }));
    };
    client.postMessage({ type: "redbook-python", version: PYTHON.version, method: request.method, url: request.url,
                         headers: { Accept: request.headers.get("Accept") || "*/*" } }, [channel.port2]);
  }));
}

// Neither fetched nor saved: with the bundle here, a page opened is the page that starts the
// page's Python (it then asks for itself), anything else the page asks for is answered by it.
function answeredHere(event) {
  return pythonHere().then((here) => {
    if (!here) return null;
    if (event.request.mode === "navigate") return caches.match(PYTHON.shell, { cacheName: PYTHON_CACHE });
    return askPython(event.clientId, event.request).catch(() => null);
  });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC) && url.searchParams.has("v")) {
    // Fingerprinted assets never change: the cache is always right.
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  if (PYTHON && url.pathname.startsWith(PYTHON.base)) {
    // The bundle's files never change at one address either (it names the version).
    event.respondWith(caches.match(request, { cacheName: PYTHON_CACHE }).then((hit) => hit || fetch(request)));
    return;
  }
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && !url.pathname.startsWith(API)) {
          event.waitUntil(save(url, request, response.clone()));
        }
        return response;
      })
      .catch(() =>
        caches.match(request).then((hit) => hit || (url.pathname.startsWith(STATIC) ? null : answeredHere(event)))
          .then((hit) => {
            if (hit) return hit;
            if (request.mode === "navigate") return caches.match(offlinePage(url));
            return new Response(JSON.stringify({ error: "offline: this needs the network" }),
              { status: 503, headers: { "Content-Type": "application/json" } });
          })
      )
  );
});
