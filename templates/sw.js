// Red Book service worker: rule pages, checklists and print sheets work without a network; search
// and the calculators say that they need one.
"use strict";
const CACHE = {{ cache_name|tojson }};
const PRECACHE = {{ urls|tojson }};
// a page neither fetched nor saved: search and calculators need a connection, others were not saved
// (the last entry, with no paths, answers every other page)
const OFFLINE = {{ offline|tojson }};
const STATIC = {{ static_prefix|tojson }};  // fingerprinted assets, under ?v=
const API = {{ api_prefix|tojson }};  // answers never kept

function offlinePage(url) {
  return OFFLINE.find((page) => !page.paths || page.paths.includes(url.pathname)).url;
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("redbook-") && n !== CACHE).map((n) => caches.delete(n))))
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
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
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
