// Six's reveal (static/js/live.js runs it): each turn played since the last frame, in
// order. A card laid comes from its player's line to its place among the suits and
// flashes there; a pass is said over the table, its player's line flashing.
//
// What the template declares: the latest plays of the hand are the reveal (data-reveal,
// the hand), each turn a step numbered in the hand (data-reveal-step): data-seat (whose
// turn), data-laid (the card laid; none for a pass), and its words in the list.
(function () {
  "use strict";

  window.sixclubReveal.define("six", function (run) {
    var table = document.getElementById("rows");
    if (!table) {
      return false;
    }
    run.each(
      function (step, ms) {
        var player = run.player(step.dataset.seat);
        run.flash(player, ms);
        if (!step.dataset.laid) {
          run.say(step, table, ms);
          return;
        }
        var slot = table.querySelector('[data-card="' + step.dataset.laid + '"]');
        if (!slot) {
          return; // laid, and taken away since by the end of the hand
        }
        var copy = run.copy(slot, player || slot, ms);
        run.hide(slot);
        run.fly(copy, slot, ms * 0.6);
        run.later(ms * 0.6, function () {
          run.show(slot);
          copy.remove();
          run.flash(slot, ms * 0.4);
        });
      },
      { step: 700 }
    );
  });
})();
