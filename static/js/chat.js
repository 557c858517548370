// The chat panel (templates/chat/panel.html; no library code): each message sent gets an
// id of its own, the text box empties once the server has taken the message (its
// `#chat-notice` names that id without an error), and the log follows what arrives.
(function () {
  "use strict";

  var KEPT = 200; // lines the log keeps on screen
  var pending = null; // the id of the text sent and not yet taken

  function newId() {
    return "c" + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
  }

  document.addEventListener("htmx:wsConfigSend", function (event) {
    var parameters = event.detail.parameters;
    if (!parameters || parameters.type !== "chat") {
      return;
    }
    parameters.id = newId();
    if (event.target.classList && event.target.classList.contains("chat-form")) {
      pending = parameters.id;
    }
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    var notice = document.getElementById("chat-notice");
    if (!pending || !notice || notice.dataset.request !== pending) {
      return;
    }
    if (!notice.dataset.code) {
      var box = document.querySelector(".chat-form input[name=text]");
      if (box) {
        box.value = "";
        // Said as typing would say it: table.js keeps what a field holds across frames.
        box.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }
    pending = null;
  });

  // A message's time as the reader's clock says it (the server writes its own time zone's,
  // which stays without JavaScript), in the page's language.
  function localTimes(log) {
    var times = log.querySelectorAll("time[datetime]:not([data-local])");
    for (var i = 0; i < times.length; i++) {
      var when = new Date(times[i].getAttribute("datetime"));
      if (!isNaN(when)) {
        times[i].textContent = when.toLocaleTimeString(document.documentElement.lang || [], {
          hour: "2-digit",
          minute: "2-digit",
          hourCycle: "h23",
        });
        times[i].dataset.local = "1";
      }
    }
  }

  function follow(log) {
    var atBottom = true;
    log.addEventListener("scroll", function () {
      atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    });
    new MutationObserver(function () {
      localTimes(log);
      while (log.children.length > KEPT) {
        log.removeChild(log.firstElementChild);
      }
      if (atBottom) {
        log.scrollTop = log.scrollHeight;
      }
    }).observe(log, { childList: true });
    log.scrollTop = log.scrollHeight;
  }

  function start() {
    var log = document.getElementById("chat-log");
    if (log && !log.dataset.followed) {
      log.dataset.followed = "1";
      localTimes(log);
      follow(log);
    }
  }

  document.addEventListener("DOMContentLoaded", start);
  // A mute or an unmute swaps the whole log for a new one.
  document.addEventListener("htmx:afterSettle", start);
})();
