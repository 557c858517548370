// 6 qui surprend's reveal (static/js/live.js runs it): what the turn did, one line of its
// log after another in the order the rules resolved it (the reveal, Remplacer, Glisser,
// Insérer, the cards placed, 7 qui surprend, the takes, Stop, then the reactions:
// Négatif = Positif and the exchange). Each line is said over the rows with its special's
// icon, the rows it touched flash, a card laid grows into its place, a take slides towards
// its player with its heads. A special's effect is given more time than a plain card.
//
// What the template declares: the turn's log is the reveal (data-reveal, round and turn),
// each line a step (data-reveal-step, its order) with data-event (what happened),
// data-special (whose effect), data-row (the rows, 1-based, space-separated), data-seat,
// data-laid (the card laid or moved) and data-heads (the heads taken).
(function () {
  "use strict";

  var SPECIAL_WEIGHT = 2.5;
  var PLAIN_MS = 400;

  function rowsOf(board, step) {
    return (step.dataset.row || "")
      .split(" ")
      .filter(Boolean)
      .map(function (number) {
        return board.querySelector('.row[data-row="' + number + '"]');
      })
      .filter(Boolean);
  }

  function cardIn(rows, number) {
    for (var r = 0; r < rows.length; r++) {
      var faces = rows[r].querySelectorAll("span.card");
      for (var i = 0; i < faces.length; i++) {
        var b = faces[i].querySelector("b");
        if (b && b.textContent === number) {
          return faces[i];
        }
      }
    }
    return null;
  }

  window.sixclubReveal.define("surprise", function (run) {
    var board = document.getElementById("rows");
    if (!board) {
      return false;
    }
    run.each(
      function (step, ms) {
        var rows = rowsOf(board, step);
        var player = step.dataset.seat ? run.player(step.dataset.seat) : null;
        run.say(step, board, ms);
        rows.forEach(function (row) {
          run.flash(row, ms);
        });
        if (player) {
          run.flash(player, ms);
        }
        if (step.dataset.laid) {
          run.pop(cardIn(rows, step.dataset.laid), ms * 0.7);
        }
        if (step.dataset.event === "took" && rows.length) {
          var label = step.dataset.heads ? "+" + step.dataset.heads : "";
          run.slide([], label, rows[0], player, ms);
        }
      },
      {
        step: PLAIN_MS,
        weight: function (step) {
          return step.dataset.special ? SPECIAL_WEIGHT : 1;
        },
      }
    );
  });
})();
