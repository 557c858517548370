// Table page helpers (no library code): a countdown for the decision deadline, and a
// `sync` when the page has heard nothing for a while during play.
(function () {
  "use strict";

  function tick() {
    document.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.getAttribute("datetime")) - Date.now()) / 1000));
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
  var PLAYING = ["select", "choose_row", "draft"];
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
    if (!socket || !page || !live || PLAYING.indexOf(live.dataset.phase) < 0) {
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
