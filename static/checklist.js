// Turn checklist: tap to tick, current step highlighted, progress kept in localStorage.
(function () {
  "use strict";
  var root = document.querySelector("[data-checklist]");
  if (!root) return;
  var key = "redbook:turn:" + root.dataset.checklist + ":" + root.dataset.version;
  var order = root.dataset.turnOrder ? root.dataset.turnOrder.split("|") : [];
  var steps = Array.prototype.slice.call(root.querySelectorAll("[data-step]"));
  var bar = root.querySelector("[data-turn-bar]");

  function load() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(key) || "null");
      if (saved && Array.isArray(saved.ticked)) return saved;
    } catch (e) { /* storage unavailable or corrupt: start fresh */ }
    return { ticked: [], turn: 1, seat: 0 };
  }
  var state = load();

  function save() {
    try { window.localStorage.setItem(key, JSON.stringify(state)); } catch (e) { /* private mode */ }
  }

  function render() {
    var current = null, done = 0;
    steps.forEach(function (li) {
      var ticked = state.ticked.indexOf(li.dataset.step) !== -1;
      li.querySelector(".tick").checked = ticked;
      li.classList.toggle("done", ticked);
      li.classList.remove("current");
      li.removeAttribute("aria-current");
      if (ticked) done += 1; else if (!current) current = li;
    });
    if (current) { current.classList.add("current"); current.setAttribute("aria-current", "step"); }
    Array.prototype.forEach.call(root.querySelectorAll("[data-phase]"), function (phase) {
      var items = phase.querySelectorAll("[data-step]");
      var all = items.length && Array.prototype.every.call(items, function (li) { return li.classList.contains("done"); });
      phase.classList.toggle("phase-done", !!all);
    });
    root.querySelector("[data-turn-number]").textContent = state.turn;
    var whose = root.querySelector("[data-whose-turn]");
    if (whose && order.length) whose.textContent = order[state.seat % order.length];
    root.querySelector("[data-progress]").textContent = done + " of " + steps.length + " done";
    return current;
  }

  steps.forEach(function (li) {
    li.querySelector(".tick").addEventListener("change", function (e) {
      var id = li.dataset.step, at = state.ticked.indexOf(id);
      if (e.target.checked && at === -1) state.ticked.push(id);
      if (!e.target.checked && at !== -1) state.ticked.splice(at, 1);
      save();
      var hadFocus = document.activeElement === e.target;
      var current = render();
      if (e.target.checked && current) {
        // A finished phase folds away: keep keyboard focus on the step that is now current.
        if (hadFocus && li.closest(".phase-done")) current.querySelector(".tick").focus({ preventScroll: true });
        var calm = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        if (current.scrollIntoView) current.scrollIntoView({ block: "nearest", behavior: calm ? "auto" : "smooth" });
      }
    });
  });

  root.querySelector("[data-next-turn]").addEventListener("click", function () {
    state.ticked = [];
    if (order.length) {
      state.seat = (state.seat + 1) % order.length;
      if (state.seat === 0) state.turn += 1;
    } else {
      state.turn += 1;
    }
    save();
    render();
    window.scrollTo(0, 0);
  });
  root.querySelector("[data-reset]").addEventListener("click", function () {
    state = { ticked: [], turn: 1, seat: 0 };
    try { window.localStorage.removeItem(key); } catch (e) { /* ignore */ }
    render();
  });
  bar.hidden = false;
  root.classList.add("js");
  render();
})();
