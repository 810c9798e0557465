// Print sheet: the Print button opens the browser's print dialog (without script, its menu does).
(function () {
  "use strict";
  var button = document.querySelector("[data-print]");
  if (!button || !window.print) return;
  button.hidden = false;
  button.addEventListener("click", function () { window.print(); });
})();
