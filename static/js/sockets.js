// What a page says when the server closes its socket for good (docs/protocol.md): 4401
// (signed out) or 4404 (no such table for this user). htmx's ws extension does not
// reconnect on these codes; the page says why, in the page's language (the texts are on
// <body>, rendered by Django), instead of going quiet.
(function () {
  "use strict";

  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail && event.detail.event ? event.detail.event.code : 0;
    var text = document.body.getAttribute("data-socket-" + code);
    if (!text) {
      return;
    }
    var notice = document.getElementById("notice");
    if (!notice) {
      notice = document.createElement("div");
      notice.id = "notice";
      notice.setAttribute("role", "alert");
      document.querySelector("main").prepend(notice);
    }
    notice.className = "notice error";
    notice.dataset.code = "closed_" + code;
    notice.textContent = text;
  });
})();
