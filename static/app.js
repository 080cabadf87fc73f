// Companion's few lines of script: everything else is htmx driven by the server.
(function () {
  "use strict";

  // A phone that slept may have missed events: ask for the table again when it wakes.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      document.body.dispatchEvent(new Event("resync"));
    }
  });

  // The rejoin link carries the seat's token after "#", which browsers never send to a
  // server; this page posts it so the server can set the cookie.
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-rejoin]");
    if (form && location.hash.length > 1) {
      form.elements.token.value = decodeURIComponent(location.hash.slice(1));
      history.replaceState(null, "", location.pathname);
      form.submit();
    }
  });
})();
