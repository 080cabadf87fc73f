// Companion's few lines of script: everything else is htmx driven by the server.
(function () {
  "use strict";

  var tapped = false; // the player has tapped the page: what browsers ask before a buzz or a sound

  function panel() {
    return document.getElementById("panel");
  }

  // -- Keeping the screen awake during play --------------------------------------------
  // The Wake Lock API where the browser has it (secure contexts only: HTTPS or localhost).
  // Over plain HTTP on the LAN it is missing: a muted, looping, inline video playing keeps
  // the screen on instead (phone browsers hold the screen for a playing video), started
  // from the first tap as browsers require. Both stop when the game ends or the page is
  // hidden, and are asked for again when the page is shown.
  var lock = null; // the screen wake lock asked for (a promise of it, null if it failed)

  function playing() {
    var shown = panel();
    var status = shown && shown.getAttribute("data-status");
    return document.body.hasAttribute("data-wake-lock") && document.visibilityState === "visible" &&
      status !== "finished" && status !== "signed-out";
  }

  function keepAwake() {
    var video = document.getElementById("awake");
    if (!playing()) {
      if (lock) {
        lock.then(function (held) {
          if (held) {
            held.release().catch(function () {});
          }
        });
        lock = null;
      }
      if (video && !video.paused) {
        video.pause();
      }
      return;
    }
    if ("wakeLock" in navigator) {
      if (!lock) {
        var asked = lock = navigator.wakeLock.request("screen").then(function (held) {
          held.addEventListener("release", function () {
            if (lock === asked) {
              lock = null; // the browser let it go (the page was hidden): ask again when shown
            }
          });
          return held;
        }).catch(function () {
          if (lock === asked) {
            lock = null;
          }
          return null;
        });
      }
    } else if (video && tapped && video.paused) {
      video.play().catch(function () {});
    }
  }

  // -- Telling the player their turn has come -------------------------------------------
  // The title starts with "Your turn" while this phone's player is asked to act; when the
  // turn arrives the phone buzzes (after a first tap, as browsers require) and, if this
  // phone turned it on, plays a short sound. The live region announces it as well. The
  // words come from the page (data-your-turn-title), in the page's language.
  var TITLE_SEPARATOR = " · ";
  var SOUND_KEY = "companion-turn-sound";
  var wasYours = null;
  var audio = null;
  var soundOn = (function () {
    try {
      return localStorage.getItem(SOUND_KEY) === "on";
    } catch (error) {
      return false; // storage refused (private browsing): off until turned on here
    }
  })();

  function audioContext() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) {
      audio = new Context();
    }
    if (audio && audio.state === "suspended") {
      audio.resume().catch(function () {});
    }
    return audio;
  }

  function chime() {
    var context = audioContext();
    if (!context) {
      return;
    }
    var now = context.currentTime;
    [0, 0.16].forEach(function (delay, index) {
      var tone = context.createOscillator();
      var volume = context.createGain();
      tone.frequency.value = index ? 1175 : 880;
      volume.gain.setValueAtTime(0.0001, now + delay);
      volume.gain.exponentialRampToValueAtTime(0.25, now + delay + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, now + delay + 0.22);
      tone.connect(volume).connect(context.destination);
      tone.start(now + delay);
      tone.stop(now + delay + 0.25);
    });
  }

  function followTurn() {
    var shown = panel();
    if (!document.body.hasAttribute("data-turn-signals") || !shown) {
      return;
    }
    var yours = shown.hasAttribute("data-your-turn");
    var prefix = document.body.getAttribute("data-your-turn-title") + TITLE_SEPARATOR;
    var title = document.title.replace(prefix, "");
    document.title = (yours ? prefix : "") + title;
    if (yours && wasYours === false && tapped) {
      if (navigator.vibrate) {
        navigator.vibrate(200);
      }
      if (soundOn) {
        chime();
      }
    }
    wasYours = yours;
  }

  function settingUp() {
    var toggle = document.getElementById("turn-sound");
    if (!toggle || !(window.AudioContext || window.webkitAudioContext)) {
      return;
    }
    toggle.checked = soundOn;
    var setting = toggle.closest("[hidden]");
    if (setting) {
      setting.removeAttribute("hidden");
    }
    toggle.addEventListener("change", function () {
      soundOn = toggle.checked;
      try {
        localStorage.setItem(SOUND_KEY, soundOn ? "on" : "off");
      } catch (error) { /* private browsing: the choice lasts this page only */ }
      if (soundOn) {
        chime(); // what it sounds like, and the tap lets the browser play it later
      }
    });
  }

  // Every tap may start what needs one (the video, the sound), should the first have failed.
  function tap() {
    tapped = true;
    keepAwake();
    if (soundOn && !audio) {
      audioContext();
    }
  }
  document.addEventListener("click", tap, true);
  document.addEventListener("keydown", tap, true);

  // -- Following the table ---------------------------------------------------------------
  // htmx's SSE extension holds the page's stream. When the server refuses it (an answer
  // that is not a stream), the browser's EventSource gives up without saying why: it
  // cannot read the answer's status. The page then asks the stream's own address with
  // check=1, which answers without opening a stream what a stream would get now: the
  // panel of a phone signed out (its seat given to a new phone), which replaces this one
  // for good; too many streams from this network, or the server full, said on the page
  // and asked again after Retry-After; or nothing in the way (204). Only then is the
  // stream opened again, from the version shown, waiting longer after each failure. The
  // extension's own handling of a failure (a console error, then its own retries) is
  // not used; a stream that merely dropped is reopened by the browser by itself.
  var RETRY_FIRST_MS = 1000;
  var RETRY_MOST_MS = 30000;
  var retryMs = RETRY_FIRST_MS;
  var reopened = 0;

  function streamNotice(text) {
    var notice = document.getElementById("stream-notice");
    if (notice) {
      notice.textContent = text;
      notice.hidden = !text;
    }
  }

  function following() {
    return document.querySelector("[sse-connect]");
  }

  // Signed out: the stream is never opened again.
  function stopFollowing() {
    var element = following();
    if (element) {
      element.removeAttribute("sse-connect");
    }
    streamNotice("");
  }

  function reopenLater(retryAfterSeconds) {
    var delay = Math.max(retryAfterSeconds * 1000, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);
    setTimeout(reopen, delay);
  }

  // htmx opens the stream again once the element holding it has changed (htmx.process),
  // and its events are swapped by the elements whose attributes changed too.
  function reopen() {
    var element = following();
    if (!element) {
      return;
    }
    reopened += 1;
    var since = shownVersion();
    element.setAttribute("sse-connect", element.getAttribute("sse-connect")
      .replace(/([?&]since=)\d*/, "$1" + (since === null ? "" : since)));
    [element].concat(Array.prototype.slice.call(element.querySelectorAll("[sse-swap]")))
      .forEach(function (node) {
        node.setAttribute("data-stream", String(reopened));
      });
    htmx.process(element);
  }

  function textOf(html) {
    return new DOMParser().parseFromString(html, "text/html").body.textContent.trim();
  }

  function askWhyRefused(url) {
    fetch(url + (url.indexOf("?") < 0 ? "?" : "&") + "check=1",
          {credentials: "same-origin", headers: {"HX-Request": "true"}})
      .then(function (answer) {
        if (answer.status === 403 && panel()) {
          return answer.text().then(function (html) {
            stopFollowing();
            htmx.swap(panel(), html, {swapStyle: "outerHTML"});
          });
        }
        if (answer.status === 429 || answer.status === 503) {
          return answer.text().then(function (html) {
            streamNotice(textOf(html));
            reopenLater(Number(answer.headers.get("Retry-After")) || 0);
          });
        }
        reopenLater(0);
      })
      .catch(function () {
        reopenLater(0); // the network is down: ask again in a while
      });
  }

  if (window.htmx) {
    htmx.createEventSource = function (url) {
      var source = new EventSource(url, {withCredentials: true});
      source.addEventListener("open", function () {
        retryMs = RETRY_FIRST_MS;
        streamNotice("");
      });
      source.addEventListener("error", function (event) {
        event.stopImmediatePropagation(); // the extension's handler: see above
        if (source.readyState === EventSource.CLOSED && following()) {
          askWhyRefused(url);
        }
      });
      // The last event of a phone whose seat was given to a new phone: the extension
      // swaps in its panel (sse-swap="revoked"), and nothing reopens the stream.
      source.addEventListener("revoked", function () {
        source.close();
        stopFollowing();
      });
      return source;
    };
  }

  function resync() {
    document.body.dispatchEvent(new Event("resync"));
  }

  // A phone that slept may have missed events: ask for the table again when it wakes.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      resync();
    }
    keepAwake();
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

  // The server answered 503 (its database busy or out of reach, with Retry-After): the
  // move is sent again by itself, a few times. It carries the same action id, so however
  // many times it arrives it is made once.
  var RESENDS = 5;
  var resent = 0;

  // `said`: which of the notice's sentences to show (its data- attributes, written in the
  // page's language), or "" to hide it.
  function busy(said) {
    var notice = document.getElementById("busy");
    if (notice) {
      var text = said ? notice.getAttribute("data-" + said) || "" : "";
      notice.textContent = text;
      notice.hidden = !text;
    }
  }

  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var config = event.detail.requestConfig || {};
    var form = config.elt && config.elt.tagName === "FORM" ? config.elt : null;
    if (!xhr || xhr.status !== 503 || !form || config.verb !== "post") {
      return;
    }
    if (resent >= RESENDS || !form.isConnected) {
      resent = 0;
      busy("still-busy");
      return;
    }
    resent += 1;
    busy("resending");
    var submitter = config.triggeringEvent && config.triggeringEvent.submitter;
    setTimeout(function () {
      if (form.isConnected) {
        form.requestSubmit(submitter && submitter.isConnected ? submitter : undefined);
      }
    }, (Number(xhr.getResponseHeader("Retry-After")) || 2) * 1000);
  });

  // Panels arrive by two ways, pushed on the stream and as the answer of a request (a
  // move, a refresh), so an older one can come after a newer: it never replaces it.
  function versionOf(html) {
    var found = /data-version="(\d+)"/.exec(html || "");
    return found ? Number(found[1]) : null;
  }

  function shownVersion() {
    var shown = panel();
    return shown ? Number(shown.getAttribute("data-version")) : null;
  }

  // A pushed panel, or the table's parts, are dropped unless newer (a move's answer often
  // brings them first); the viewer's own part comes after the table's of its version.
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var pushed = versionOf(event.detail.data);
    var shown = shownVersion();
    if (pushed === null || shown === null) {
      return;
    }
    if (event.detail.type === "own" ? pushed < shown : pushed <= shown) {
      event.preventDefault();
      return;
    }
    // The pieces that changed since a version this page no longer holds as it was sent:
    // the whole panel is asked for instead.
    var base = /data-base="(\d+)"/.exec(event.detail.data);
    var board = document.getElementById("public");
    if (base && (!board || board.getAttribute("data-version") !== base[1])) {
      event.preventDefault();
      resync();
    }
  });

  // -- The table's parts and the viewer's own ---------------------------------------------
  // The table's parts are the same bytes on every screen (the table display's view): this
  // page marks them for its viewer (data-you on #live): their own seat (data-mine), what is
  // for some players only (data-only) or for all but some (data-except), and what shows on
  // a screen with no move to make (data-idle). The log's lines only this viewer reads (its
  // own secrets, #own-lines) take the place of the table's.
  function idsOf(element, name) {
    return (element.getAttribute(name) || "").split(" ").filter(Boolean);
  }

  function fitToViewer() {
    var live = document.getElementById("live");
    var shown = panel();
    if (!live || !shown) {
      return;
    }
    var you = live.getAttribute("data-you") || "";
    var ownHead = document.getElementById("own-head");
    var acting = ownHead ? ownHead.hasAttribute("data-acting") : shown.hasAttribute("data-acting");
    if (ownHead && shown.getAttribute("data-status") !== "lobby") {
      shown.toggleAttribute("data-acting", acting);
      shown.toggleAttribute("data-your-turn", ownHead.hasAttribute("data-your-turn"));
    }
    shown.querySelectorAll("[data-only]").forEach(function (part) {
      part.hidden = idsOf(part, "data-only").indexOf(you) < 0;
    });
    shown.querySelectorAll("[data-except]").forEach(function (part) {
      part.hidden = idsOf(part, "data-except").indexOf(you) >= 0;
    });
    shown.querySelectorAll("[data-mine]").forEach(function (part) {
      part.toggleAttribute("data-yours", you !== "" && part.getAttribute("data-mine") === you);
    });
    shown.querySelectorAll("[data-idle]").forEach(function (part) {
      part.hidden = acting;
    });
    var lines = document.getElementById("own-lines");
    var log = document.getElementById("public-log");
    if (lines && log) {
      Array.prototype.forEach.call(lines.content.children, function (line) {
        var shared = log.querySelector('li[data-seq="' + line.getAttribute("data-seq") + '"]');
        if (shared && shared.innerHTML !== line.innerHTML) {
          shared.innerHTML = line.innerHTML;
          shared.className = line.className;
        }
      });
    }
  }

  // The table's parts of a newer version: the panel holds that version now, and what only
  // a move's answer said (a refusal, a second look at an entry) has had its moment.
  document.addEventListener("htmx:sseMessage", function (event) {
    var shown = panel();
    var version = versionOf(event.detail.data);
    if (event.detail.type === "public" && shown && version !== null) {
      shown.setAttribute("data-version", String(version));
      var board = document.getElementById("public");
      if (board) {
        board.setAttribute("data-version", String(version));
      }
      var since = document.getElementById("panel-since");
      if (since) {
        since.value = String(version);
      }
      shown.querySelectorAll("[data-answer-only]").forEach(function (said) {
        said.remove();
      });
      upToDate(version);
    }
    fitToViewer();
  });

  // The viewer's own part is sent only when it changed: its forms are brought up to the
  // version the screen now shows (what the move is made on), with a fresh action id (a
  // tap from now on is a move of its own, as when the part was sent anew). A confirmation
  // asked for on the version before (a preview, an undo) keeps it: it said what the move
  // would do then, and the server refuses it as stale.
  function randomId() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (byte) {
      return (byte % 36).toString(36);
    }).join("");
  }

  function upToDate(version) {
    var head = document.getElementById("own-head");
    var shown = panel();
    if (!head || !shown) {
      return;
    }
    var asked = "#undo-confirm, [data-preview]";
    shown.querySelectorAll('input[name="version"]').forEach(function (field) {
      if (!field.closest(asked)) {
        field.value = String(version);
      }
    });
    var old = head.getAttribute("data-action-id");
    if (old) {
      var next = randomId();
      shown.querySelectorAll('input[name="action_id"]').forEach(function (field) {
        if (field.value.indexOf(old) === 0 && !field.closest(asked)) {
          field.value = next + field.value.slice(old.length);
        }
      });
      head.setAttribute("data-action-id", next);
    }
  }

  document.addEventListener("htmx:afterSwap", fitToViewer);

  // What a form held when its move was sent: the answer clears only that. The update
  // pushed on the stream often arrives first, and what the player typed since is theirs.
  var sentValues = new WeakMap();

  function valueOf(field) {
    return field.type === "checkbox" || field.type === "radio" ? field.checked : field.value;
  }

  function setValue(field, value) {
    if (field.type === "checkbox" || field.type === "radio") {
      field.checked = value;
    } else {
      field.value = value;
    }
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.tagName === "FORM") {
      sentValues.set(form, Array.prototype.map.call(form.elements, valueOf));
    }
  });

  function clearSent(form) {
    var sent = sentValues.get(form) || [];
    var typedSince = [];
    Array.prototype.forEach.call(form.elements, function (field, index) {
      if (isEntry(field) && index < sent.length && valueOf(field) !== sent[index]) {
        typedSince.push([field, valueOf(field)]);
      }
    });
    form.reset();
    typedSince.forEach(function (kept) {
      setValue(kept[0], kept[1]);
    });
  }

  // An answered panel is dropped only when older (the same version may bring an error).
  // A move that went through leaves its form empty of what it sent, and the previews
  // shown beside it go.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "panel") {
      return;
    }
    var answered = versionOf(event.detail.serverResponse);
    if (answered !== null && shownVersion() !== null && answered < shownVersion()) {
      event.detail.shouldSwap = false;
      return;
    }
    var sender = event.detail.requestConfig && event.detail.requestConfig.elt;
    var form = sender && (sender.form || (sender.closest && sender.closest("form")));
    if (event.detail.xhr && event.detail.xhr.status < 300) {
      resent = 0;
      busy("");
      if (form) {
        clearSent(form);
        clearFilterOf(form);
      }
      target.querySelectorAll("[data-preview]").forEach(function (box) {
        box.replaceChildren();
      });
    }
  });

  // Panels are morphed in (htmx's idiomorph extension), so what a player is entering
  // survives an update that keeps its form: a field the player changed keeps its value, a
  // preview shown on this phone stays, and the focus and the scroll stay. A form the
  // update removes goes; one whose data-entry changed (another decision) starts afresh.
  // A field is kept only for the decision it was changed for: idiomorph carries an
  // element with the same id into the new form (the host's next entry, another player
  // chosen), and a value typed for the last decision must not stay there, for the next
  // digit to be added to it.
  var changedFor = new WeakMap(); // a field the player changed: its form's data-entry then

  function isEntry(field) {
    return (field.form || field.hasAttribute("data-filter")) && field.type !== "hidden" && field.type !== "submit" && field.type !== "button";
  }

  function decisionOf(field) {
    var form = field.form || (field.closest && field.closest("form"));
    return form ? form.getAttribute("data-entry") : null;
  }

  function entered(field) {
    var changed = field.type === "checkbox" || field.type === "radio" ?
      field.checked !== field.defaultChecked : field.value !== field.defaultValue;
    return changed && (!changedFor.has(field) || changedFor.get(field) === decisionOf(field));
  }

  ["input", "change"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var field = event.target;
      if (field && field.form !== undefined && isEntry(field)) {
        changedFor.set(field, decisionOf(field));
      }
    }, true);
  });

  function keepEntries() {
    if (!window.Idiomorph) {
      return;
    }
    var callbacks = window.Idiomorph.defaults.callbacks;
    callbacks.beforeAttributeUpdated = function (name, element) {
      if (name === "open" && element.tagName === "DETAILS") {
        return false; // a section stays as the player opened or closed it
      }
      if (name === "hidden" && filtered(element)) {
        return false; // shown or hidden by the filter, which runs again after the update
      }
      return !((name === "value" || name === "checked") && isEntry(element) && entered(element));
    };
    callbacks.beforeNodeMorphed = function (old, next) {
      if (old.nodeType !== Node.ELEMENT_NODE) {
        return true;
      }
      if (old.tagName === "FORM" && old.getAttribute("data-entry") !== next.getAttribute("data-entry")) {
        old.reset();
      }
      return !(old.hasAttribute("data-preview") && old.childElementCount && !next.childElementCount);
    };
  }

  // A preview that needs the whole form (data-preview-when="complete") is asked for only
  // once every required field holds something: never a request bound to fail.
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    var asker = form && form.querySelector("[data-preview-when=complete]");
    if (asker && form.checkValidity()) {
      asker.dispatchEvent(new Event("complete"));
    }
  });

  // -- Small counts: -/+ beside a number field (data-step="1", "-1"), and a sign button
  // (data-step="sign") where a numeric keypad has no minus; data-step-field names the
  // field, whose data-min and data-max bound it. A field changed so is kept across updates.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-step]");
    var field = button && document.getElementById(button.getAttribute("data-step-field"));
    if (!field) {
      return;
    }
    var now = parseInt(field.value, 10) || 0;
    var step = button.getAttribute("data-step");
    var next = step === "sign" ? -now : now + parseInt(step, 10);
    var lowest = parseInt(field.getAttribute("data-min"), 10);
    var highest = parseInt(field.getAttribute("data-max"), 10);
    field.value = String(Math.min(highest, Math.max(lowest, next)));
    field.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // -- A way back out of a confirmation swapped in (data-dismiss="<the box's id>"): it empties
  // the box. Where there is no such box (the confirmation is a page of its own) it is the
  // link back it is.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-dismiss]");
    var box = link && document.getElementById(link.getAttribute("data-dismiss"));
    if (!box || !box.contains(link)) {
      return;
    }
    event.preventDefault();
    box.replaceChildren();
  });

  // -- Finding an item in a long list -----------------------------------------------------
  // A search box (data-filter="<the list's id>") narrows the list (data-filter-list) to the
  // items whose text holds every word typed; data-filter-none="<id>" says when none does.
  // Without the script the box stays hidden (data-needs-script) and the whole list shows.
  function filtered(element) {
    return element.hasAttribute("data-needs-script") || element.hasAttribute("data-filter-none") ||
      Boolean(element.parentElement && element.parentElement.hasAttribute("data-filter-list"));
  }

  function filterList(box) {
    var list = document.getElementById(box.getAttribute("data-filter"));
    if (!list) {
      return;
    }
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    Array.prototype.forEach.call(list.children, function (item) {
      var text = item.textContent.toLowerCase();
      item.hidden = !words.every(function (word) {
        return text.indexOf(word) !== -1;
      });
      shown += item.hidden ? 0 : 1;
    });
    document.querySelectorAll("[data-filter-none]").forEach(function (none) {
      if (none.getAttribute("data-filter-none") === list.id) {
        none.hidden = shown > 0;
      }
    });
  }

  function filterLists() {
    document.querySelectorAll("[data-filter]").forEach(function (box) {
      var hidden = box.closest("[data-needs-script]");
      if (hidden) {
        hidden.removeAttribute("hidden");
      }
      filterList(box);
    });
  }

  // An item picked from a narrowed list: the box is emptied for the next one.
  function clearFilterOf(form) {
    var list = form.closest("[data-filter-list]");
    document.querySelectorAll("[data-filter]").forEach(function (box) {
      if (list && box.getAttribute("data-filter") === list.id) {
        box.value = "";
      }
    });
  }

  document.addEventListener("input", function (event) {
    if (event.target.hasAttribute && event.target.hasAttribute("data-filter")) {
      filterList(event.target);
    }
  });

  // -- The choice being previewed ---------------------------------------------------------
  // A button that asks for a preview (data-previews, with an id: Go Big's sets) stays marked
  // as the current choice (aria-current) while the preview it asked for shows: tapping
  // another moves the mark, and an update of the panel keeps it.
  var previewed = null; // the id of the button whose preview shows

  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail.requestConfig || {};
    var submitter = config.triggeringEvent && config.triggeringEvent.submitter;
    if (submitter && submitter.hasAttribute("data-previews")) {
      previewed = event.detail.xhr && event.detail.xhr.status < 300 ? submitter.id : null;
    }
  });

  function markPreviewed() {
    var box = document.getElementById("confirm");
    var showing = Boolean(previewed && box && box.childElementCount);
    document.querySelectorAll("[data-previews]").forEach(function (button) {
      if (showing && button.id === previewed) {
        button.setAttribute("aria-current", "true");
      } else {
        button.removeAttribute("aria-current");
      }
    });
    if (!showing) {
      previewed = null;
    }
  }

  // -- Figures that follow a form as it is filled in ---------------------------------------
  // The server renders each figure; these keep it up to date until the form is sent (the
  // server's figure is the truth then). data-sum="<name>" shows the sum of its form's fields
  // marked data-sum-into="<name>", each times its data-weight with data-weighted (Big Money's
  // Bank: the bill counts, and what they are worth); data-count-ticked, how many of its
  // form's boxes are ticked (Big Top's hand entry: "12 of 13").
  function sumOf(form, name, weighted) {
    var total = 0;
    var fields = form.querySelectorAll("[data-sum-into]");
    for (var i = 0; i < fields.length; i += 1) {
      if (fields[i].getAttribute("data-sum-into") === name) {
        var value = fields[i].value.trim() === "" ? 0 : Number(fields[i].value);
        if (!isFinite(value)) {
          return null;
        }
        total += value * (weighted ? Number(fields[i].getAttribute("data-weight")) : 1);
      }
    }
    return total;
  }

  function updateFigures(root) {
    root.querySelectorAll("[data-sum]").forEach(function (figure) {
      var form = figure.closest("form");
      var total = form && sumOf(form, figure.getAttribute("data-sum"), figure.hasAttribute("data-weighted"));
      if (total !== null && total !== undefined) {
        figure.textContent = String(total);
      }
    });
    root.querySelectorAll("[data-count-ticked]").forEach(function (figure) {
      var form = figure.closest("form");
      if (form) {
        figure.textContent = String(form.querySelectorAll("input[type=checkbox]:checked").length);
      }
    });
  }

  function figuresOf(event) {
    var form = event.target.form;
    if (form && (event.target.hasAttribute("data-sum-into") || event.target.type === "checkbox")) {
      updateFigures(form);
    }
  }
  document.addEventListener("input", figuresOf);
  document.addEventListener("change", figuresOf);

  // -- The result as text to paste ---------------------------------------------------------
  // Copy (data-copy="<the field's id>") copies the field's text through the clipboard API
  // where the page may use it (HTTPS, localhost). Phones open the app over plain HTTP on the
  // LAN, where the API is missing: there the text is selected and the browser's copy command
  // copies it, and should that fail too, the text stays selected for the player to copy.
  // What was done is said in data-copy-said's element, in the page's language. Share
  // (data-share) opens the browser's share sheet and shows only where there is one. Both are
  // hidden without the script (data-needs-script), which leaves the field's text to select.
  function showResultTools() {
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      var tools = button.closest("[data-needs-script]");
      if (tools) {
        tools.removeAttribute("hidden");
      }
    });
    if (navigator.share) {
      document.querySelectorAll("[data-share]").forEach(function (button) {
        button.removeAttribute("hidden");
      });
    }
  }

  function sayCopied(button, which) {
    var said = document.getElementById(button.getAttribute("data-copy-said"));
    if (said) {
      said.textContent = said.getAttribute("data-" + which) || "";
    }
  }

  function selectAndCopy(field, button) {
    field.focus();
    field.select();
    field.setSelectionRange(0, field.value.length); // (iOS selects nothing by select() alone)
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    sayCopied(button, copied ? "copied" : "selected");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy], [data-share]");
    if (!button) {
      return;
    }
    var copy = button.hasAttribute("data-copy");
    var field = document.getElementById(button.getAttribute(copy ? "data-copy" : "data-share"));
    if (!field) {
      return;
    }
    if (!copy) {
      navigator.share({text: field.value}).catch(function () {}); // closed without sharing
    } else if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(function () {
        sayCopied(button, "copied");
      }, function () {
        selectAndCopy(field, button);
      });
    } else {
      selectAndCopy(field, button);
    }
  });

  // The table display follows the table to the next game the host starts with the same
  // players: when its panel comes to name the new table's display (it did not when the
  // page was opened: a finished game's result opened later stays), the page opens it.
  var nextGameKnown = null;

  function followNextGame() {
    var holder = document.querySelector("#panel[data-next-game], #panel [data-next-game]");
    var next = holder && holder.getAttribute("data-next-game");
    if (next && nextGameKnown === false) {
      location.replace(next);
    }
    nextGameKnown = Boolean(next);
  }

  // -- The table clock (table/_clock.html) ------------------------------------------------
  // The panel brings each player's time as of the server's moment (data-clock-at); a
  // running one counts on from when it arrived. Every update brings the server's figures
  // again, so a screen is never further off than one update's way. A phone buzzes once as
  // its own bank falls below the warning (where the browser can, as for "your turn").
  var clockFrom = { at: null, since: 0 };
  var clockWarned = false;

  function clockText(ms) {
    var seconds = Math.floor(Math.abs(ms) / 1000);
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor(seconds % 3600 / 60);
    var rest = seconds % 60;
    var shown = (hours ? hours + ":" + String(minutes).padStart(2, "0") : String(minutes)) +
      ":" + String(rest).padStart(2, "0");
    return ms <= -1000 ? "\u2212" + shown : shown;
  }

  function tickClock() {
    var clock = document.querySelector(".clock[data-clock-at]");
    if (!clock) {
      return;
    }
    if (clock.getAttribute("data-clock-at") !== clockFrom.at) {
      clockFrom = { at: clock.getAttribute("data-clock-at"), since: Date.now() };
    }
    var down = clock.getAttribute("data-clock-counts") === "down";
    var warning = clock.hasAttribute("data-clock-warn-ms") ?
      Number(clock.getAttribute("data-clock-warn-ms")) : null;
    var passed = Date.now() - clockFrom.since;
    clock.querySelectorAll(".clock-time[data-running]").forEach(function (time) {
      var from = Number(time.getAttribute("data-clock-ms"));
      var ms = down ? from - passed : from + passed;
      time.textContent = clockText(ms);
      var player = time.closest(".clock-player");
      if (!down || !player) {
        return;
      }
      var low = warning !== null && ms < warning;
      player.classList.toggle("over", ms < 0);
      player.classList.toggle("warn", low && ms >= 0);
      if (player.classList.contains("clock-own")) {
        if (low && !clockWarned && tapped && navigator.vibrate) {
          navigator.vibrate(200);
        }
        clockWarned = low;
      }
    });
  }

  setInterval(tickClock, 250);

  document.addEventListener("htmx:afterSettle", function () {
    tickClock();
    followNextGame();
    filterLists();
    showResultTools();
    updateFigures(document);
    markPreviewed();
    followTurn();
    keepAwake();
  });

  // -- A phoneless player's screen on the host device ------------------------------------
  // Shown once, from its cover: the address becomes the cover's at once, and the screen is
  // emptied as the page is left, so that no Back, Forward, history list, back-forward cache
  // or restored tab brings its secrets back (the server shows the cover at that address).
  function secretScreen() {
    return document.querySelector("[data-secret-screen]");
  }

  window.addEventListener("pagehide", function () {
    var secret = secretScreen();
    if (secret) {
      secret.replaceChildren();
    }
  });

  window.addEventListener("pageshow", function (event) {
    var secret = secretScreen();
    if (secret && event.persisted) {
      location.replace(secret.getAttribute("data-cover"));
    }
  });

  // The rejoin link carries the seat's token after "#", which browsers never send to a
  // server; this page posts it so the server can set the cookie.
  document.addEventListener("DOMContentLoaded", function () {
    keepEntries();
    fitToViewer();
    followNextGame();
    filterLists();
    showResultTools();
    updateFigures(document);
    settingUp();
    followTurn();
    keepAwake();
    var secret = secretScreen();
    if (secret) {
      history.replaceState(null, "", secret.getAttribute("data-cover"));
    }
    var form = document.querySelector("form[data-rejoin]");
    if (form && location.hash.length > 1) {
      form.elements.token.value = decodeURIComponent(location.hash.slice(1));
      history.replaceState(null, "", location.pathname);
      form.submit();
    }
  });
})();
