// Companion's few lines of script: everything else is htmx driven by the server.
(function () {
  "use strict";

  // Keep the screen awake during play (where the browser allows it); the lock is
  // released whenever the page is hidden, so it is asked for again on return.
  function keepAwake() {
    if (document.body.hasAttribute("data-wake-lock") && "wakeLock" in navigator &&
        document.visibilityState === "visible") {
      navigator.wakeLock.request("screen").catch(function () {});
    }
  }

  function resync() {
    document.body.dispatchEvent(new Event("resync"));
  }

  // A phone that slept may have missed events: ask for the table again when it wakes.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      resync();
      keepAwake();
    }
  });

  // The stream can outlive a dropped network, so a refresh it asked for may fail: ask
  // again when the network is back, and a moment after any failed refresh.
  window.addEventListener("online", resync);
  ["htmx:sendError", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (event.target && event.target.id === "live") {
        setTimeout(resync, 2000);
      }
    });
  });

  // Panels arrive by two ways, pushed on the stream and as the answer of a request (a
  // move, a refresh), so an older one can come after a newer: it never replaces it.
  function versionOf(html) {
    var found = /data-version="(\d+)"/.exec(html || "");
    return found ? Number(found[1]) : null;
  }

  function shownVersion() {
    var panel = document.getElementById("panel");
    return panel ? Number(panel.getAttribute("data-version")) : null;
  }

  // A pushed panel is dropped unless newer (a move's answer often brings it first).
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var pushed = versionOf(event.detail.data);
    if (pushed !== null && shownVersion() !== null && pushed <= shownVersion()) {
      event.preventDefault();
    }
  });

  // An answered panel is dropped only when older (the same version may bring an error).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var answered = versionOf(event.detail.serverResponse);
    if (target && target.id === "panel" && answered !== null && shownVersion() !== null &&
        answered < shownVersion()) {
      event.detail.shouldSwap = false;
    }
  });

  // The rejoin link carries the seat's token after "#", which browsers never send to a
  // server; this page posts it so the server can set the cookie.
  document.addEventListener("DOMContentLoaded", function () {
    keepAwake();
    var form = document.querySelector("form[data-rejoin]");
    if (form && location.hash.length > 1) {
      form.elements.token.value = decodeURIComponent(location.hash.slice(1));
      history.replaceState(null, "", location.pathname);
      form.submit();
    }
  });
})();
