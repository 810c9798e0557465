// Search as you type: the search box lists the best matches from the search API (its URL is the
// box's data-live-search), each with its game and section in words and a short snippet (the API
// marks matches with <mark> only).
(function () {
  "use strict";
  var input = document.querySelector("[data-live-search]");
  var box = document.getElementById("live-results");
  if (!input || !box || !window.fetch) return;
  var timer = null, lastQuery = "", controller = null;

  // hidden and forgotten: the same words typed again are looked up again
  function clear() { box.hidden = true; box.textContent = ""; lastQuery = ""; }

  // The snippet as text nodes, with its <mark> runs as <mark> elements: nothing else is parsed.
  function markedText(snippet) {
    var out = document.createDocumentFragment();
    snippet.split(/(<mark>.*?<\/mark>)/).forEach(function (part) {
      var found = /^<mark>(.*)<\/mark>$/.exec(part);
      var text = decode(found ? found[1] : part);
      if (!text) return;
      if (found) {
        var mark = document.createElement("mark");
        mark.textContent = text;
        out.appendChild(mark);
      } else {
        out.appendChild(document.createTextNode(text));
      }
    });
    return out;
  }

  function decode(escaped) {
    return escaped.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#34;|&quot;/g, '"')
      .replace(/&#39;/g, "'").replace(/&amp;/g, "&");
  }

  function render(data) {
    box.textContent = "";
    // a question over the length limit is read up to it: the API says so in a note
    if (data.note) {
      var note = document.createElement("p");
      note.className = "live-note";
      note.textContent = data.note;
      box.appendChild(note);
    }
    if (!data.results || !data.results.length) {
      var none = document.createElement("p");
      none.className = "live-empty";
      none.textContent = data.suggestion ? "No match. Did you mean “" + data.suggestion + "”?" : "No match.";
      box.appendChild(none);
    } else {
      var list = document.createElement("ol");
      data.results.forEach(function (hit) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = hit.url;
        var title = document.createElement("strong");
        title.textContent = hit.title;
        var trail = document.createElement("span");
        trail.className = "trail";
        trail.textContent = hit.section_title ? hit.game_title + " › " + hit.section_title : hit.game_title;
        link.appendChild(title);
        link.appendChild(trail);
        if (hit.snippet) {
          var snippet = document.createElement("span");
          snippet.className = "live-snippet";
          snippet.appendChild(markedText(hit.snippet));
          link.appendChild(snippet);
        }
        item.appendChild(link);
        list.appendChild(item);
      });
      box.appendChild(list);
    }
    box.hidden = false;
  }

  // A line in place of results: why there are none.
  function say(text) {
    box.textContent = "";
    var note = document.createElement("p");
    note.className = "live-empty";
    note.textContent = text;
    box.appendChild(note);
    box.hidden = false;
  }

  // Offline (or the server out of reach), say so rather than show nothing.
  function offline() {
    say("Search needs a connection: you are offline. Rule pages, checklists and print sheets you have visited still open; " +
      "switch on “Use Red Book offline” on the home page to search without one.");
    lastQuery = "";  // look again once back online
  }

  function lookup() {
    var q = input.value.trim();
    if (q.length < 2) { clear(); return; }
    if (q === lastQuery) return;
    // offline, unless Red Book's offline copy answers here (offline.js marks the page)
    if (navigator.onLine === false && !document.documentElement.hasAttribute("data-offline-ready")) { offline(); return; }
    lastQuery = q;
    if (controller) controller.abort();
    controller = window.AbortController ? new AbortController() : null;
    var url = input.dataset.liveSearch + "?limit=8&q=" + encodeURIComponent(q);
    if (input.dataset.game) url += "&game=" + encodeURIComponent(input.dataset.game);
    fetch(url, controller ? { signal: controller.signal } : {})
      .then(function (r) { return r.ok || r.status === 400 || r.status === 503 ? r.json() : null; })
      .then(function (data) {
        // the service worker answers "offline: ..." when there is no network
        if (data && data.error && /^offline/.test(data.error)) throw new Error("offline");
        if (input.value.trim() !== q || !data) return;
        if (data.results) render(data);
        // a query it refuses: the error names the box as the API does (q: ...)
        else if (data.error) say("Search: " + data.error.replace(input.name + ": ", ""));
      })
      .catch(function (error) { if (error.name !== "AbortError" && input.value.trim() === q) offline(); });
  }

  input.setAttribute("aria-controls", "live-results");
  input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(lookup, 150); });
  input.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { clear(); return; }
    if (e.key === "ArrowDown") {
      var first = box.querySelector("a");
      if (first) { e.preventDefault(); first.focus(); }
    }
  });
  box.addEventListener("keydown", function (e) {
    var links = Array.prototype.slice.call(box.querySelectorAll("a"));
    var i = links.indexOf(document.activeElement);
    if (e.key === "ArrowDown" && i < links.length - 1) { e.preventDefault(); links[i + 1].focus(); }
    if (e.key === "ArrowUp") { e.preventDefault(); (i > 0 ? links[i - 1] : input).focus(); }
    if (e.key === "Escape") { clear(); input.focus(); }
  });
  document.addEventListener("click", function (e) { if (!box.contains(e.target) && e.target !== input) clear(); });
  // "/" focuses the search box from anywhere but a text field (a ticked checkbox is not one).
  document.addEventListener("keydown", function (e) {
    var active = document.activeElement || document.body;
    var typing = active.isContentEditable || /TEXTAREA|SELECT/.test(active.tagName) ||
      (active.tagName === "INPUT" && !/^(checkbox|radio|button|submit|reset)$/.test(active.type));
    if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); input.focus(); input.select(); }
  });
})();
