// Table page helpers (no library code): a countdown for the decision deadline, and a
// `sync` when the page has heard nothing for a while during play.
(function () {
  "use strict";

  function tick() {
    // An awaited player sees her own deadline (`data-deadline-<seat>`), others the table's.
    var live = document.getElementById("live");
    var me = live ? live.getAttribute("data-me") : "";
    document.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var own = me !== "" && el.getAttribute("data-deadline-" + me);
      var at = own || el.getAttribute("datetime");
      var left = Math.max(0, Math.round((Date.parse(at) - Date.now()) / 1000));
      el.textContent = left + " s";
      el.classList.toggle("urgent", left <= 5);
    });
  }

  setInterval(tick, 1000);
  document.addEventListener("htmx:wsAfterMessage", tick);
  document.addEventListener("DOMContentLoaded", tick);

  // The server announces every change, but an announcement can be lost on its way (Redis
  // pub/sub keeps nothing for a server that was away). A page that has heard nothing for
  // `data-sync-after` milliseconds while a game is being played asks for its table again
  // with {"type": "sync"} (docs/protocol.md): a lost announcement costs seconds, not a
  // stuck game. The deadline itself is enforced by the server's clock.
  var NOT_PLAYING = ["", "open", "over", "finished"];
  var socket = null;
  var heard = Date.now();

  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    heard = Date.now();
  });
  document.addEventListener("htmx:wsClose", function () {
    socket = null;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    heard = Date.now();
  });

  function syncWhenQuiet() {
    var page = document.querySelector(".table-page");
    var live = document.getElementById("live");
    if (!socket || !page || !live || NOT_PLAYING.indexOf(live.dataset.phase || "") >= 0) {
      return;
    }
    var quiet = Number(page.dataset.syncAfter) || 20000;
    if (Date.now() - heard >= quiet) {
      heard = Date.now();
      socket.send(JSON.stringify({ type: "sync" }));
    }
  }

  setInterval(syncWhenQuiet, 1000);
})();

// A pushed frame replaces whole sections, the forms in them too (docs/protocol.md). What
// the user has set in a field (the bot to add, ...) is set again in the new section, and
// the field that had the focus gets it back: a push never resets a form being filled in.
// A field is known again by its id, else by its form (id, hx-post or action) and name.
(function () {
  "use strict";

  var FIELDS = "input, select, textarea";
  var NOT_EDITED = ["hidden", "submit", "button", "reset", "image", "file", "password"];
  var edited = {}; // field key -> what the user set
  var focused = null; // the field that had the focus when a frame came, and its caret

  function keyOf(field) {
    if (!field.matches || !field.matches(FIELDS) || NOT_EDITED.indexOf(field.type) >= 0) {
      return null;
    }
    if (!field.closest("[ws-connect]")) {
      return null;
    }
    if (field.id && field.type !== "radio") {
      return "#" + field.id;
    }
    if (!field.name) {
      return null;
    }
    var form = field.form;
    var where = form ? form.id || form.getAttribute("hx-post") || form.getAttribute("action") : "";
    return (where || "") + "|" + field.name + (field.type === "checkbox" ? "=" + field.value : "");
  }

  function valueOf(field) {
    if (field.type === "checkbox") {
      return field.checked;
    }
    if (field.multiple) {
      return Array.prototype.map.call(field.selectedOptions, function (option) {
        return option.value;
      });
    }
    return field.value; // a radio: the value chosen in its group
  }

  function setValue(field, value) {
    if (field.type === "checkbox") {
      field.checked = value;
    } else if (field.type === "radio") {
      if (field.value === value) {
        field.checked = true;
      }
    } else if (field.multiple) {
      Array.prototype.forEach.call(field.options, function (option) {
        option.selected = value.indexOf(option.value) >= 0;
      });
    } else if (field.tagName === "SELECT") {
      // Only a choice the new section still offers.
      if (Array.prototype.some.call(field.options, function (o) { return o.value === value; })) {
        field.value = value;
      }
    } else if (field.value !== value) {
      field.value = value;
    }
  }

  function remember(event) {
    var key = keyOf(event.target);
    if (key !== null && !(event.target.type === "radio" && !event.target.checked)) {
      edited[key] = valueOf(event.target);
    }
  }

  document.addEventListener("input", remember, true);
  document.addEventListener("change", remember, true);

  document.addEventListener("htmx:wsBeforeMessage", function () {
    var field = document.activeElement;
    var key = field ? keyOf(field) : null;
    focused = key === null ? null : { key: key, value: field.value, start: field.selectionStart, end: field.selectionEnd };
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    var lost = focused && (!document.activeElement || document.activeElement === document.body);
    document.querySelectorAll("[ws-connect] " + FIELDS.split(", ").join(", [ws-connect] ")).forEach(
      function (field) {
        var key = keyOf(field);
        if (key === null) {
          return;
        }
        if (Object.prototype.hasOwnProperty.call(edited, key)) {
          setValue(field, edited[key]);
        }
        if (lost && key === focused.key && (field.type !== "radio" || field.value === focused.value)) {
          lost = false;
          field.focus({ preventScroll: true });
          if (typeof focused.start === "number") {
            try {
              field.setSelectionRange(focused.start, focused.end);
            } catch (error) {
              // A field without a caret (number, email): the focus is enough.
            }
          }
        }
      }
    );
    focused = null;
  });
})();

// The folded hand and what scrolls sideways (issue 31). A hand that is not asked shows one
// line; its button unfolds it, and it stays unfolded through the frames that redraw it
// until the hand is asked again. A table or a row of cards wider than its box is marked
// `data-scrolls` (left, right or both: the sides hidden), which site.css shows.
(function () {
  "use strict";

  var handOpen = false;
  var SCROLLERS = ".table-page .scroll, .table-page .hand .cards, .table-page .hand .suits";

  function showHand() {
    var button = document.querySelector("#hand .hand-toggle");
    if (!button) {
      handOpen = handOpen && !document.querySelector("#hand.asked");
      return;
    }
    button.setAttribute("aria-expanded", handOpen ? "true" : "false");
  }

  function markScrolling(box) {
    var left = box.scrollLeft > 1;
    var right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
    var side = left && right ? "both" : left ? "left" : right ? "right" : null;
    if (side) {
      box.setAttribute("data-scrolls", side);
    } else {
      box.removeAttribute("data-scrolls");
    }
  }

  function markAll() {
    document.querySelectorAll(SCROLLERS).forEach(markScrolling);
  }

  function refresh() {
    showHand();
    markAll();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#hand .hand-toggle");
    if (button) {
      handOpen = button.getAttribute("aria-expanded") !== "true";
      showHand();
      markAll();
    }
  });
  document.addEventListener(
    "scroll",
    function (event) {
      if (event.target.matches && event.target.matches(SCROLLERS)) {
        markScrolling(event.target);
      }
    },
    true
  );
  document.addEventListener("htmx:wsAfterMessage", refresh);
  document.addEventListener("DOMContentLoaded", refresh);
  window.addEventListener("resize", markAll);
})();

// A decision refused because the game had moved on (`stale`, docs/protocol.md) speaks of
// the screen it was made on: the next frame of the game (a new #live, or the players'
// section) shows where the game is, and clears that notice.
(function () {
  "use strict";

  var GAME_FRAME = /id="(live|players)"/;

  document.addEventListener("htmx:wsAfterMessage", function (event) {
    var notice = document.getElementById("notice");
    var message = event.detail && event.detail.message;
    if (!notice || notice.dataset.code !== "stale" || typeof message !== "string") {
      return;
    }
    if (GAME_FRAME.test(message)) {
      notice.textContent = "";
      notice.classList.remove("error");
      notice.dataset.code = "";
      notice.dataset.request = "";
    }
  });
})();
