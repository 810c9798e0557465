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
  var worker = document.documentElement.dataset.serviceWorker;  // its URL, from the page
  if (worker && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker).catch(function () { /* offline use is a bonus */ });
  }
})();
