// Table page helpers (no library code): a countdown for the decision deadline.
// The deadline itself is enforced by the server's clock; this only shows it.
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
})();
