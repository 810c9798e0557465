// Turn checklists: tap a step's row to tick it. Progress counts the steps that always happen and
// those of every pass but the game's first from the second pass on, so its total stays put while
// play goes on; optional or conditional steps ticked are counted beside it. Every change can be undone; ticks, counters and seats are kept per game in localStorage.
(function () {
  "use strict";
  var page = document.querySelector("[data-checklists]");
  if (!page) return;
  var key = "redbook:turn:" + page.dataset.checklists + ":" + page.dataset.version;
  var HISTORY_LIMIT = 30;
  var undoBar = page.querySelector("[data-undo-bar]");
  var undoLabel = page.querySelector("[data-undo-label]");
  var announcer = page.querySelector("[data-announce]");
  var slice = function (list) { return Array.prototype.slice.call(list); };

  function fresh() { return { ticked: [], count: 1, seat: 0 }; }
  function copy(state) { return { ticked: state.ticked.slice(), count: state.count, seat: state.seat }; }
  function validState(s) {
    return s && Array.isArray(s.ticked) && s.ticked.every(function (t) { return typeof t === "string"; }) &&
      Number.isInteger(s.count) && s.count >= 1 && Number.isInteger(s.seat) && s.seat >= 0;
  }

  function load() {
    var empty = { lists: {}, history: [] };
    try {
      var saved = JSON.parse(window.localStorage.getItem(key) || "null");
      if (!saved || typeof saved.lists !== "object" || !Array.isArray(saved.history)) return empty;
      var lists = {};
      Object.keys(saved.lists).forEach(function (id) { if (validState(saved.lists[id])) lists[id] = saved.lists[id]; });
      var history = saved.history.filter(function (h) {
        return h && typeof h.list === "string" && typeof h.label === "string" && validState(h.before);
      });
      return { lists: lists, history: history.slice(-HISTORY_LIMIT) };
    } catch (e) { return empty; /* storage unavailable or corrupt: start fresh */ }
  }
  var saved = load();

  function save() {
    try { window.localStorage.setItem(key, JSON.stringify(saved)); } catch (e) { /* private mode */ }
  }
  function stateOf(list) { return saved.lists[list.id] || (saved.lists[list.id] = fresh()); }
  function titleOf(li) { return li.querySelector(".step-title").textContent; }

  // Remember how a checklist was before a change, so that Undo can put it back.
  function record(list, label) {
    saved.history.push({ list: list.id, before: copy(stateOf(list)), label: label });
    if (saved.history.length > HISTORY_LIMIT) saved.history.shift();
  }

  function showUndo() {
    var last = saved.history[saved.history.length - 1];
    undoBar.hidden = !last;
    document.body.classList.toggle("has-undo", !!last);
    if (last) undoLabel.textContent = last.label;
  }

  function announce(text) { announcer.textContent = text; }
  // "0 of 1 step", "0 of 5 steps": the noun agrees with the total it follows
  function ofSteps(count, total) { return count + " of " + total + (total === 1 ? " step" : " steps"); }

  // A step that must be ticked in this pass: one of every pass, or of every pass but the first.
  function required(li, state) {
    var applies = li.dataset.applies;
    return applies === "always" || (applies === "not-first" && state.count > 1);
  }

  function phaseState(list, phase, state) {
    var items = slice(phase.querySelectorAll("[data-step]"));
    var lastIndex = list.steps.indexOf(items[items.length - 1]);
    var later = list.steps.slice(lastIndex + 1).some(function (li) { return state.ticked.indexOf(li.dataset.step) !== -1; });
    var ticked = items.filter(function (li) { return state.ticked.indexOf(li.dataset.step) !== -1; });
    var needed = items.filter(function (li) { return required(li, state) || state.ticked.indexOf(li.dataset.step) !== -1; });
    var requiredDone = items.every(function (li) { return !required(li, state) || state.ticked.indexOf(li.dataset.step) !== -1; });
    // Finished: every step that must happen is ticked, and play has moved past the optional ones.
    var done = requiredDone && (ticked.length === items.length || later);
    // a phase of every pass but the first, in the first pass: it does not happen
    var skipped = state.count === 1 && !ticked.length &&
      items.some(function (li) { return li.dataset.applies === "not-first"; }) &&
      items.every(function (li) { return li.dataset.applies !== "always"; });
    return { done: done, ticked: ticked.length, needed: needed.length, skipped: skipped };
  }

  function render(list) {
    var state = stateOf(list), current = null, done = 0, total = 0, optional = 0, lastTicked = -1;
    var isTicked = function (li) { return state.ticked.indexOf(li.dataset.step) !== -1; };
    var statuses = list.phases.map(function (phase) { return phaseState(list, phase, state); });
    var skipped = [];  // the steps of a phase that does not happen in this pass
    list.phases.forEach(function (phase, i) {
      if (statuses[i].skipped) skipped = skipped.concat(slice(phase.querySelectorAll("[data-step]")));
    });
    list.steps.forEach(function (li, i) { if (isTicked(li)) lastTicked = i; });
    list.steps.forEach(function (li, i) {
      var on = isTicked(li), always = required(li, state);
      li.querySelector(".tick").checked = on;
      li.classList.toggle("done", on);
      // play has gone past this step: fine if it may not happen, a miss if it must
      li.classList.toggle("passed", !on && !always && i < lastTicked);
      li.classList.toggle("missed", !on && always && i < lastTicked);
      li.classList.remove("current");
      li.removeAttribute("aria-current");
      if (always) total += 1;
      if (always && on) done += 1;
      if (!always && on) optional += 1;
      // "you are here": the first step after the last one ticked that happens in this pass (not one of
      // every pass but the first, or of such a phase, in the first)
      var happens = skipped.indexOf(li) === -1 && !(state.count === 1 && li.dataset.applies === "not-first");
      if (!on && i > lastTicked && !current && happens) current = li;
    });
    if (current) { current.classList.add("current"); current.setAttribute("aria-current", "step"); }
    list.phases.forEach(function (phase, i) {
      var id = phase.dataset.phase, status = statuses[i];
      if (list.wasDone[id] !== status.done) delete list.chosen[id];  // a choice to fold holds until the phase changes
      list.wasDone[id] = status.done;
      var open = id in list.chosen ? list.chosen[id] : !status.done;
      phase.classList.toggle("phase-done", status.done);
      phase.classList.toggle("folded", !open);
      phase.querySelector(".steps").hidden = !open;
      var toggle = phase.querySelector(".phase-toggle");
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      phase.querySelector(".phase-count").textContent = status.skipped ? "not in " + list.name + " 1"
        : status.done ? "✓ done" : status.needed ? status.ticked + "/" + status.needed : "";
    });
    var finished = done === total;
    list.root.dataset.percent = total ? Math.round(100 * done / total) : 100;
    list.root.classList.toggle("finished", finished);
    list.root.classList.toggle("first-pass", state.count === 1);
    list.root.querySelector("[data-turn-number]").textContent = state.count;
    list.root.querySelector("[data-progress]").textContent = ofSteps(done, total) +
      (optional ? " · " + optional + " optional" : "");
    var bar = list.root.querySelector("[data-progress-bar]");
    bar.max = total || 1;
    bar.value = done;
    if (list.seats.length) list.root.querySelector("[data-seat]").textContent = list.seats[state.seat % list.seats.length];
    list.endStatus.textContent = finished
      ? list.name + " " + state.count + " is done: every step that applies is ticked."
      : list.name + " " + state.count + ": " + ofSteps(total - done, total) + " still to do.";
    return current;
  }

  function tick(list, li, box) {
    var state = stateOf(list), id = li.dataset.step, at = state.ticked.indexOf(id);
    record(list, (box.checked ? "Ticked: " : "Unticked: ") + titleOf(li));
    if (box.checked && at === -1) state.ticked.push(id);
    if (!box.checked && at !== -1) state.ticked.splice(at, 1);
    save();
    var hadFocus = document.activeElement === box;
    var current = render(list);
    showUndo();
    var phase = li.closest("[data-phase]");
    if (hadFocus && phase && phase.classList.contains("folded")) {
      // the phase folded away under the keyboard: carry focus on to what is next
      (current ? current.querySelector(".tick") : phase.querySelector(".phase-toggle")).focus({ preventScroll: true });
    }
    if (box.checked && current && current.scrollIntoView) {
      var calm = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      current.scrollIntoView({ block: "nearest", behavior: calm ? "auto" : "smooth" });
    }
  }

  function change(list, label, apply) {
    record(list, label);
    saved.lists[list.id] = apply(copy(stateOf(list)));
    list.chosen = {};
    save();
    render(list);
    showUndo();
    announce(label);
  }

  function setUp(root) {
    var list = {
      id: root.dataset.checklist, root: root, name: root.dataset.name,
      seats: root.dataset.seats ? root.dataset.seats.split("|") : [],
      steps: slice(root.querySelectorAll("[data-step]")), phases: slice(root.querySelectorAll("[data-phase]")),
      endStatus: root.querySelector("[data-end-status]"), chosen: {}, wasDone: {}
    };
    list.phases.forEach(function (phase) {
      // The phase title folds and unfolds its steps; it never leaves the page.
      var title = phase.querySelector(".phase-title"), toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "phase-toggle";
      toggle.setAttribute("aria-controls", phase.querySelector(".steps").id);
      var label = document.createElement("span");
      label.className = "phase-label";
      while (title.firstChild) label.appendChild(title.firstChild);
      toggle.appendChild(label);
      var count = document.createElement("span");
      count.className = "phase-count";
      toggle.appendChild(count);
      title.appendChild(toggle);
      toggle.addEventListener("click", function () {
        list.chosen[phase.dataset.phase] = phase.classList.contains("folded");
        render(list);
      });
    });
    list.steps.forEach(function (li) {
      var box = li.querySelector(".tick");
      box.hidden = false;
      box.addEventListener("change", function () { tick(list, li, box); });
    });
    root.querySelector("[data-next]").addEventListener("click", function () {
      var state = stateOf(list);
      var label = list.name + " " + (state.count + 1) + " begun" +
        (list.seats.length ? " · " + root.querySelector(".seat-label").textContent + " " + list.seats[(state.seat + 1) % list.seats.length] : "");
      change(list, label, function (s) { return { ticked: [], count: s.count + 1, seat: list.seats.length ? (s.seat + 1) % list.seats.length : 0 }; });
      root.scrollIntoView({ block: "start" });
    });
    root.querySelector("[data-reset]").addEventListener("click", function () {
      change(list, list.name + " checklist reset", function () { return fresh(); });
    });
    slice(root.querySelectorAll("[data-seat-back], [data-seat-on]")).forEach(function (button) {
      button.addEventListener("click", function () {
        var step = button.hasAttribute("data-seat-on") ? 1 : list.seats.length - 1;
        var seat = (stateOf(list).seat + step) % list.seats.length;
        change(list, root.querySelector(".seat-label").textContent + " " + list.seats[seat],
          function (s) { s.seat = seat; return s; });
      });
    });
    root.querySelector("[data-turn-bar]").hidden = false;
    root.querySelector("[data-turn-end]").hidden = false;
    root.classList.add("js");
    return list;
  }

  var lists = slice(page.querySelectorAll("[data-checklist]")).map(setUp);
  page.querySelector("[data-undo]").addEventListener("click", function () {
    var last = saved.history.pop();
    if (!last) return;
    var list = lists.filter(function (l) { return l.id === last.list; })[0];
    saved.lists[last.list] = last.before;
    save();
    if (list) { list.chosen = {}; render(list); }
    showUndo();
    announce("Undone: " + last.label);
  });
  page.classList.add("js");
  lists.forEach(render);
  showUndo();
})();
