// 6 qui prend !'s reveal (static/js/live.js runs it): the turn's cards shown together in a
// strip over the rows, then placed one by one in the order the rules place them (the
// last turn's list, RULES §1.4), each flying to where it lies now; a take slides towards
// its player with its heads. At most 1.8 s a turn.
//
// What the template declares: #last-turn is the reveal (data-reveal, the round and turn),
// each play of it a step: data-card (the card), data-row (the row it went to, 1-based),
// data-seat (who played it), data-heads (the heads it took, when it took a row); its
// first card is the card played, those after `.took` the cards it took.
(function () {
  "use strict";

  var TURN_MS = 1800;

  // The card `number` where it lies on the rows now (in row `row` if it is there).
  function onBoard(rows, number, row) {
    var where = rows.querySelector('.row[data-row="' + row + '"]') || rows;
    var faces = where.querySelectorAll("span.card");
    for (var i = 0; i < faces.length; i++) {
      var b = faces[i].querySelector("b");
      if (b && b.textContent === number) {
        return faces[i];
      }
    }
    return null;
  }

  window.sixclubReveal.define("nimmt", function (run) {
    var rows = document.getElementById("rows");
    var plays = run.steps.filter(function (li) {
      return li.dataset.card;
    });
    if (!rows || !plays.length || plays.length !== run.steps.length) {
      return false;
    }
    var targets = plays.map(function (li) {
      return onBoard(rows, li.dataset.card, li.dataset.row);
    });
    if (targets.indexOf(null) >= 0) {
      return false; // a new round's rows: nothing of that turn is on the board
    }
    run.budget = Math.min(run.budget, TURN_MS);
    var flying = run.strip(
      plays.map(function (li) {
        return li.querySelector("span.card");
      }),
      rows
    );
    targets.forEach(function (target) {
      run.hide(target);
    });
    run.each(
      function (li, ms, index) {
        var target = targets[index];
        run.fly(flying[index], target, ms * 0.8);
        run.later(ms * 0.8, function () {
          run.show(target);
          flying[index].style.visibility = "hidden";
        });
        if (li.querySelector(".took")) {
          var taken = Array.prototype.slice.call(li.querySelectorAll(".took ~ span.card"));
          var label = li.dataset.heads ? "+" + li.dataset.heads : "";
          run.slide(taken, label, target.closest(".row"), run.player(li.dataset.seat), ms * 1.5);
        }
      },
      { lead: 1 }
    );
  });
})();
