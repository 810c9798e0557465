// Red Book service worker: rule pages, checklists and print sheets work without a network; search
// and the calculators say that they need one.
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
      .then((names) => Promise.all(names.filter((n) => n.startsWith("redbook-") && n !== CACHE && n !== RUNTIME)
        .map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC) && url.searchParams.has("v")) {
    // Fingerprinted assets never change: the cache is always right.
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
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
        caches.match(request).then((hit) => {
          if (hit) return hit;
          if (request.mode === "navigate") return caches.match(offlinePage(url));
          return new Response(JSON.stringify({ error: "offline: this needs the network" }),
            { status: 503, headers: { "Content-Type": "application/json" } });
        })
      )
  );
});
