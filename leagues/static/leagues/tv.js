// The club room's TV turns its pages by itself (no controls): every `data-rotate` seconds
// it shows the next panel that has something to show. The socket replaces the panels by
// id; which one is shown is kept on <main>, so a replaced panel stays shown.
(function () {
  "use strict";

  var main = document.querySelector("main.tv");
  if (!main) {
    return;
  }
  var seconds = Number(main.dataset.rotate) || 15;

  function panels() {
    return Array.prototype.filter.call(document.querySelectorAll(".tv-panel"), function (p) {
      return !p.hasAttribute("data-empty");
    });
  }

  function showNext(step) {
    var list = panels();
    if (!list.length) {
      main.dataset.shown = "";
      return;
    }
    var ids = list.map(function (p) { return p.id; });
    var at = ids.indexOf(main.dataset.shown);
    // A panel that has emptied gives way to the next one at once.
    main.dataset.shown = ids[at < 0 ? 0 : (at + step) % ids.length];
  }

  showNext(0);
  window.setInterval(function () { showNext(1); }, seconds * 1000);
  document.body.addEventListener("htmx:wsAfterMessage", function () { showNext(0); });
})();
