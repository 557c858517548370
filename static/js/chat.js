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

  function follow(log) {
    var atBottom = true;
    log.addEventListener("scroll", function () {
      atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    });
    new MutationObserver(function () {
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
      follow(log);
    }
  }

  document.addEventListener("DOMContentLoaded", start);
  // A mute or an unmute swaps the whole log for a new one.
  document.addEventListener("htmx:afterSettle", start);
})();
