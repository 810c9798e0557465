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
      // the visible word follows the theme in CSS; the spoken name follows it here
      var label = function () {
        button.setAttribute("aria-label", "Switch to " + (current() === "dark" ? "light" : "dark") + " theme");
      };
      button.hidden = false;
      label();
      if (window.matchMedia) {
        var system = window.matchMedia("(prefers-color-scheme: dark)");
        if (system.addEventListener) system.addEventListener("change", label);
      }
      button.addEventListener("click", function () {
        var next = current() === "dark" ? "light" : "dark";
        root.setAttribute("data-theme", next);
        try { window.localStorage.setItem("redbook:theme", next); } catch (e) { /* ignore */ }
        label();
      });
    }
  });
})();
