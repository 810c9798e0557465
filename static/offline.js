// Offline use: register the service worker, and say so where a page needs the network.
(function () {
  "use strict";
  var notice = document.querySelector("[data-needs-network]");
  if (notice) {
    var show = function () { notice.hidden = navigator.onLine; };
    window.addEventListener("online", show);
    window.addEventListener("offline", show);
    show();
  }
  // The service worker answers a calculation asked offline with the calculators' offline page, at
  // the address asked: try that address again (its inputs are in it), or go back to the form.
  var choices = document.querySelector("[data-retry-choices]");
  if (choices && location.pathname !== choices.dataset.offlinePage) {
    choices.querySelector("[data-retry]").href = location.pathname + location.search;
    choices.querySelector("[data-calculator-form]").href = location.pathname;
    choices.hidden = false;
  }
  var worker = document.documentElement.dataset.serviceWorker;  // its URL, from the page
  if (worker && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker).catch(function () { /* offline use is a bonus */ });
  }
})();
