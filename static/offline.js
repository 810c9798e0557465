// Offline use: register the service worker, say so where a page needs the network, and "Use Red
// Book offline": download the offline bundle (the app itself and Pyodide), start it in a Web Worker
// when the network is gone, and answer with it what can neither be fetched nor found.
(function () {
  "use strict";
  var root = document.documentElement;
  var bundle = root.dataset.offlineBundle ? JSON.parse(root.dataset.offlineBundle) : null;  // see offline/__init__.py
  var PREFIX = "redbook-python-";  // + the version: the bundle's cache (the service worker's PYTHON_CACHE)
  var cacheName = bundle ? PREFIX + bundle.version : null;
  var WISH = "redbook:offline";  // in localStorage, "on" once the player switched it on, until removed
  // This window's Python already runs this version: answer here at once (it survives pages written into it)
  var ready = !!(bundle && window.redbookPython && window.redbookPython.version === bundle.version);

  var notice = document.querySelector("[data-needs-network]");
  function showNotice() { if (notice) notice.hidden = navigator.onLine || ready; }
  window.addEventListener("online", showNotice);
  window.addEventListener("offline", showNotice);
  showNotice();

  // The service worker answers a calculation asked offline with the calculators' offline page, at
  // the address asked: try that address again (its inputs are in it), or go back to the form.
  var choices = document.querySelector("[data-retry-choices]");
  if (choices && location.pathname !== choices.dataset.offlinePage) {
    choices.querySelector("[data-retry]").href = location.pathname + location.search;
    choices.querySelector("[data-calculator-form]").href = location.pathname;
    choices.hidden = false;
  }
  var worker = root.dataset.serviceWorker;  // its URL, from the page
  if (worker && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker).catch(function () { /* offline use is a bonus */ });
  }
  if (!window.caches || !window.fetch) return;

  function wished() { try { return localStorage.getItem(WISH) === "on"; } catch (e) { return false; } }
  function wish(on) {
    try { if (on) localStorage.setItem(WISH, "on"); else localStorage.removeItem(WISH); } catch (e) { /* private mode */ }
  }

  // --- the bundle on this device ------------------------------------------------------------

  // This version's bundle is here once its manifest is: the download stores it last.
  function here() {
    return bundle ? caches.match(bundle.manifest, { cacheName: cacheName }).then(Boolean) : Promise.resolve(false);
  }

  // Every bundle's cache but keep's.
  function drop(keep) {
    return caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name.indexOf(PREFIX) === 0 && name !== keep; })
        .map(function (name) { return caches.delete(name); }));
    });
  }

  // Every other version goes at once: an old bundle never answers after a new one was seen.
  function dropOthers() { return drop(cacheName); }

  function removeAll() {
    if (window.redbookPython) window.redbookPython.stop();
    window.redbookAnswer = null;
    return drop(null);
  }

  // Fetch url into the cache, counting its bytes as they arrive (counted(n)).
  function store(cache, url, counted) {
    return fetch(url, { cache: "no-store" }).then(function (response) {
      if (!response.ok) throw new Error("the server answered " + response.status);
      if (!counted || !response.body) return cache.put(url, response);
      var reader = response.body.getReader(), chunks = [];
      function more() {
        return reader.read().then(function (part) {
          if (part.done) return null;
          chunks.push(part.value);
          counted(part.value.length);
          return more();
        });
      }
      return more().then(function () {
        var type = response.headers.get("Content-Type");
        return cache.put(url, new Response(new Blob(chunks), { headers: type ? { "Content-Type": type } : {} }));
      });
    });
  }

  // The files, then the worker's script and the page that starts it, and the manifest last.
  function download(progress) {
    var received = 0;
    return caches.open(cacheName).then(function (cache) {
      return bundle.files.reduce(function (done, url) {
        return done.then(function () {
          return store(cache, url, function (n) { received += n; progress(Math.min(received / bundle.space, 1)); });
        });
      }, Promise.resolve())
        .then(function () { return Promise.all([store(cache, bundle.worker), store(cache, bundle.shell)]); })
        .then(function () { return store(cache, bundle.manifest); });
    });
  }

  // --- this window's Python -----------------------------------------------------------------

  // The worker, started once per window; pages written into the window by go() find it again.
  // ready: settles once it has started and built what start left for later (its search index).
  function python() {
    var running = window.redbookPython;
    if (running && running.version === bundle.version) return running;
    if (running) running.stop();
    if (window.performance && performance.mark) performance.mark("redbook:python");  // bench/offline.py reads the marks
    var thread = new Worker(bundle.worker, { type: "module" });
    var waiting = {}, next = 0, settle = {};
    var host = {
      version: bundle.version,
      started: null,  // how long each step of its start took (ms), once started
      finished: null,  // how long the rest took (ms)
      first: null,  // how long Python took over its first answer (ms)
      ready: new Promise(function (resolve, reject) { settle = { resolve: resolve, reject: reject }; }),
      ask: function (request) {
        return new Promise(function (resolve) {
          request.id = next++;
          waiting[request.id] = resolve;
          thread.postMessage(request);
        });
      },
      stop: function () { thread.terminate(); if (window.redbookPython === host) window.redbookPython = null; },
    };
    function failed(message) {
      settle.reject(new Error(message));
      Object.keys(waiting).forEach(function (id) { waiting[id]({ error: message }); delete waiting[id]; });
    }
    thread.onmessage = function (event) {
      var reply = event.data;
      if (reply.started) host.started = reply.started;
      if (reply.finished !== undefined) { host.finished = reply.finished; settle.resolve(host); }
      if (reply.failed) failed(reply.failed);
      if (reply.took !== undefined && host.first === null) host.first = reply.took;
      if (reply.id !== undefined && waiting[reply.id]) {
        waiting[reply.id](reply);
        delete waiting[reply.id];
      }
    };
    thread.onerror = function (event) { failed(event.message || "the worker did not start"); };
    window.redbookPython = host;
    return host;
  }

  // The service worker hands this page what it could neither fetch nor find (once per window:
  // the listener outlives the pages written into it, so it reads the page's version when asked).
  if (navigator.serviceWorker && !window.redbookRelay) {
    window.redbookRelay = function (event) {
      var asked = event.data, port = event.ports[0];
      if (!asked || asked.type !== "redbook-python" || !port) return;
      var current = document.documentElement.dataset.offlineBundle;
      if (!current || JSON.parse(current).version !== asked.version || !window.redbookAnswer) {
        port.postMessage({ error: "this page runs another version" });
        return;
      }
      window.redbookAnswer({ method: asked.method, url: asked.url, headers: asked.headers }).then(function (reply) {
        if (reply.error) port.postMessage({ error: reply.error });
        else port.postMessage(reply, [reply.body.buffer]);
      });
    };
    navigator.serviceWorker.addEventListener("message", function (event) { window.redbookRelay(event); });
    navigator.serviceWorker.startMessages();
  }

  // --- pages answered here ------------------------------------------------------------------

  // Once answering here, the page stays and its content changes (a new page would start Python
  // again): the page at url replaces this one, through the service worker (network, saved page, Python).
  function go(url, push) {
    root.setAttribute("aria-busy", "true");
    return fetch(url, { headers: { Accept: "text/html" } }).then(function (response) {
      if ((response.headers.get("Content-Type") || "").indexOf("text/html") !== 0) throw new Error("not a page");
      return response.text().then(function (html) {
        if (window.performance && performance.mark) performance.mark("redbook:answered");
        var target = new URL(response.url || url);
        target.hash = new URL(url).hash;
        if (push) history.pushState(null, "", target.href);
        document.open();
        document.write(html);
        document.close();
        if (target.hash && document.getElementById(decodeURIComponent(target.hash.slice(1)))) {
          document.getElementById(decodeURIComponent(target.hash.slice(1))).scrollIntoView();
        } else {
          window.scrollTo(0, 0);
        }
      });
    });
  }

  function ours(url) {
    return url.origin === location.origin && url.pathname.indexOf(bundle.root) === 0 &&
      url.pathname.indexOf(bundle.base) !== 0 && url.pathname.indexOf(bundle.static) !== 0;
  }

  function answeringHere() { return ready && (navigator.onLine === false || !!window.redbookPython); }

  function follow(url, event) {
    if (!answeringHere() || !ours(url)) return;
    event.preventDefault();
    go(url.href, true).catch(function () { location.href = url.href; });
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[href]") : null;
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey ||
        event.altKey || link.target || link.hasAttribute("download")) return;
    var url = new URL(link.href);
    if (url.pathname === location.pathname && url.search === location.search && url.hash) return;  // on this page
    follow(url, event);
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || (form.getAttribute("method") || "get").toLowerCase() !== "get") return;
    var url = new URL(form.action);
    url.search = new URLSearchParams(new FormData(form, event.submitter || null)).toString();
    follow(url, event);
  });
  window.addEventListener("popstate", function () {
    if (answeringHere()) go(location.href, false).catch(function () { location.reload(); });
  });

  // --- the switch ---------------------------------------------------------------------------

  var panel = document.querySelector("[data-offline-switch] [data-offline-controls]");

  function show(state, text) {
    if (!panel) return;
    panel.hidden = false;
    panel.querySelector("[data-offline-toggle]").hidden = state === "on" || state === "downloading";
    panel.querySelector("[data-offline-toggle]").disabled = state === "offline";
    panel.querySelector("[data-offline-remove]").hidden = state !== "on";
    panel.querySelector("[data-offline-progress]").hidden = state !== "downloading";
    panel.querySelector("[data-offline-status]").textContent = text;
  }

  function progress(share) {
    var bar = panel && panel.querySelector("[data-offline-progress]");
    if (!bar) return;
    bar.value = Math.round(share * 100);
    bar.textContent = bar.value + "%";
    show("downloading", "Downloading Red Book for offline use: " + bar.value + "%");
  }

  function switchOn() {
    wish(true);
    show("downloading", "Downloading Red Book for offline use: 0%");
    return dropOthers().then(function () { return download(progress); }).then(function () {
      // Start it once now: it shows that it works here, and the browser keeps the WebAssembly it
      // compiled, so that its first start without a connection is quicker.
      show("downloading", "Checking that it works on this device…");
      var checking = python();
      return checking.ready.then(function () { checking.stop(); });
    }).then(function () {
      start(true);
    }).catch(function (error) {
      show("off", "The download stopped (" + error.message + "). Try again once the connection is back.");
    });
  }

  function switchOff() {
    wish(false);
    ready = false;
    root.removeAttribute("data-offline-ready");
    return removeAll().then(function () { show("off", "Removed: calculators and search need a connection again."); });
  }

  function start(isHere) {
    ready = isHere;
    if (isHere) root.setAttribute("data-offline-ready", "");
    showNotice();
    window.redbookAnswer = isHere ? function (request) { return python().ask(request); } : null;
    if (isHere) show("on", "On: calculators and search work without a connection on this device.");
    else if (wished() && navigator.onLine) switchOn();  // a new version: the next visit online replaces it
    else show(navigator.onLine ? "off" : "offline", navigator.onLine ? "" : "Connect to download it.");
    var shell = document.querySelector("[data-offline-answering]");
    if (shell && isHere) {
      go(location.href, false).catch(function (error) {
        shell.querySelector("[data-offline-answer-status]").textContent =
          "Red Book's offline copy could not answer this page (" + error.message + ").";
      });
    }
  }

  if (panel) {
    panel.querySelector("[data-offline-toggle]").addEventListener("click", switchOn);
    panel.querySelector("[data-offline-remove]").addEventListener("click", switchOff);
  }
  if (!bundle) {
    removeAll();  // this server offers none (any more): whatever an older visit stored goes
    return;
  }
  // The page the service worker shows while the bundle answers: start Python at once (the service
  // worker only shows it when the bundle is here).
  if (document.querySelector("[data-offline-answering]")) python();
  dropOthers().then(here).then(start);
})();
