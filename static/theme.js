// Theme: follows the system setting unless the player chose one; the choice is remembered.
(function () {
  "use strict";
  var root = document.documentElement;
  try {
    var saved = window.localStorage.getItem("redbook:theme");
    if (saved === "dark" || saved === "light") root.setAttribute("data-theme", saved);
  } catch (e) { /* storage unavailable */ }
  function current() {
    var chosen = root.getAttribute("data-theme");
    if (chosen) return chosen;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector("[data-theme-toggle]");
    if (button) {
      var label = function () {
        var next = current() === "dark" ? "light" : "dark";
        button.textContent = next === "dark" ? "Dark" : "Light";
        button.setAttribute("aria-label", "Switch to " + next + " theme");
      };
      button.hidden = false;
      label();
      button.addEventListener("click", function () {
        var next = current() === "dark" ? "light" : "dark";
        root.setAttribute("data-theme", next);
        try { window.localStorage.setItem("redbook:theme", next); } catch (e) { /* ignore */ }
        label();
      });
    }
  });
})();
