// A score sheet's grid on a phone: each player's name heads their column, across while
// every column fits the screen so; else upright (.upright in leagues.css), so that a
// column is only as wide as a score. The sheet being entered writes the player chosen for
// a seat at the head of its column.
(function () {
  "use strict";

  var grids = document.querySelectorAll("table.sheet-grid");

  function crowded(grid) {
    var frame = grid.parentElement;
    if (frame.scrollWidth > frame.clientWidth + 1) {
      return true;
    }
    return Array.prototype.some.call(grid.querySelectorAll(".sheet-name"), function (head) {
      return head.scrollWidth > head.clientWidth + 1;
    });
  }

  function fit() {
    Array.prototype.forEach.call(grids, function (grid) {
      grid.classList.remove("upright");
      grid.classList.toggle("upright", crowded(grid));
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll(".sheet-name[data-player]"), function (head) {
    var select = document.getElementById(head.dataset.player);
    if (!select) {
      return;
    }
    select.addEventListener("change", function () {
      var option = select.options[select.selectedIndex];
      head.textContent = option && option.value ? option.text : head.dataset.empty;
      fit();
    });
  });

  var waiting = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(waiting);
    waiting = window.setTimeout(fit, 100);
  });
  fit();
  if (document.fonts && document.fonts.ready) {
    document.fonts.ready.then(fit);
  }
})();
