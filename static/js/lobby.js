// The lobby's new-table form (no library code): a field marked
// data-shown-when="end" data-shown-value="rounds" is shown only while the form's field
// `end` has the value "rounds" (the number of rounds, the threshold). Without JavaScript
// every field stays visible, and the server ignores the ones that do not apply.
(function () {
  "use strict";

  function update(form) {
    form.querySelectorAll("[data-shown-when]").forEach(function (box) {
      var other = form.elements[box.dataset.shownWhen];
      box.hidden = Boolean(other) && other.value !== box.dataset.shownValue;
    });
  }

  function updateAll() {
    document.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("[data-shown-when]")) {
        update(form);
      }
    });
  }

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.querySelector("[data-shown-when]")) {
      update(form);
    }
  });
  document.addEventListener("DOMContentLoaded", updateAll);
  // A game's fields swapped in (htmx, lobby.html's game_options).
  document.addEventListener("htmx:load", updateAll);
  // Back to the page from the browser's history: the form keeps what was chosen.
  window.addEventListener("pageshow", updateAll);
})();

// The lobby's socket pushes the whole list of tables (#lobby-tables) as the lobby changes.
// A list of one game's tables (data-listed-kind) keeps to that game: instead of the pushed
// list, it fetches its own again (its hx-get, on "lobby-changed").
(function () {
  "use strict";

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var shown = event.detail.target;
    if (shown && shown.id === "lobby-tables" && shown.dataset.listedKind) {
      event.detail.shouldSwap = false;
      htmx.trigger(shown, "lobby-changed");
    }
  });
})();
