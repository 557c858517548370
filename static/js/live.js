// What the table page does between frames (no library code): the hand's tap-then-confirm,
// "(Your turn)" in the tab title with a badge on its icon (and, if chosen, a sound and a
// vibration), the round summary's close, the log of earlier rounds fetched again when a
// round ends, and <details> that stay as the player left them when a frame replaces them.
(function () {
  "use strict";

  var STORE = window.localStorage;
  var SESSION = window.sessionStorage;

  function page() {
    return document.querySelector(".table-page");
  }

  function pref(name) {
    try {
      return STORE.getItem("sixclub.pref." + name) === "1";
    } catch (e) {
      return false;
    }
  }

  // --- preferences (this browser only) --------------------------------------------------
  function setUpPrefs() {
    document.querySelectorAll("input[data-pref]").forEach(function (box) {
      box.checked = pref(box.dataset.pref);
      box.addEventListener("change", function () {
        try {
          STORE.setItem("sixclub.pref." + box.dataset.pref, box.checked ? "1" : "0");
        } catch (e) {
          /* storage refused: the choice lasts until the page closes */
        }
        applyStill();
      });
    });
    applyStill();
  }

  function applyStill() {
    document.documentElement.classList.toggle("still", pref("still"));
  }

  // --- the hand: a tap selects, a second tap (or Play) confirms ----------------------
  document.addEventListener("click", function (event) {
    var button = event.target.closest("#hand button.cardbtn");
    if (button) {
      if (button.classList.contains("armed")) {
        disarm();
        htmx.trigger(button, "confirm");
      } else {
        disarm();
        button.classList.add("armed");
        var confirm = document.getElementById("confirm-card");
        if (confirm) {
          confirm.textContent = confirm.dataset.label.replace("%(card)s", button.dataset.card);
          confirm.hidden = false;
        }
      }
      return;
    }
    if (event.target.closest("#confirm-card")) {
      var armed = document.querySelector("#hand button.cardbtn.armed");
      disarm();
      if (armed) {
        htmx.trigger(armed, "confirm");
      }
      return;
    }
    var dismiss = event.target.closest("[data-dismiss]");
    if (dismiss) {
      hideSummary(dismiss.dataset.dismiss);
    }
  });

  function disarm() {
    document.querySelectorAll("#hand button.cardbtn.armed").forEach(function (b) {
      b.classList.remove("armed");
    });
    var confirm = document.getElementById("confirm-card");
    if (confirm) {
      confirm.hidden = true;
    }
  }

  // --- your turn --------------------------------------------------------------------------
  var wasAwaited = false;
  var plainTitle = document.title;
  var plainIcon = null;

  function awaited() {
    return !!(
      document.querySelector("#hand.awaited") ||
      document.querySelector("#rows button.rowbtn") ||
      document.querySelector("#draft button.cardbtn")
    );
  }

  function showTurn() {
    var root = page();
    if (!root) {
      return;
    }
    var now = awaited();
    var icon = document.querySelector("link[rel~='icon']");
    if (icon && plainIcon === null) {
      plainIcon = icon.getAttribute("href");
    }
    document.title = now ? root.dataset.yourTurn + " " + plainTitle : plainTitle;
    if (icon) {
      icon.setAttribute("href", now ? root.dataset.iconTurn : plainIcon);
    }
    if (now && !wasAwaited) {
      if (pref("vibrate") && navigator.vibrate) {
        navigator.vibrate(120);
      }
      if (pref("sound")) {
        beep();
      }
    }
    wasAwaited = now;
  }

  var audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.value = 0.08;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.15);
    } catch (e) {
      /* no sound here */
    }
  }

  // --- the round summary: until closed, or 10 s after it was first shown ---------------
  var SUMMARY_MS = 10000;

  function summaryKey(summary) {
    return "sixclub.summary." + location.pathname + "." + summary.dataset.round;
  }

  function hideSummary(id) {
    var summary = document.getElementById(id);
    if (summary) {
      summary.hidden = true;
      SESSION.setItem(summaryKey(summary), "0");
    }
  }

  function showSummary() {
    var summary = document.getElementById("round-summary");
    if (!summary) {
      return;
    }
    var key = summaryKey(summary);
    var shown = SESSION.getItem(key);
    if (shown === null) {
      shown = String(Date.now());
      SESSION.setItem(key, shown);
    }
    var left = Number(shown) + SUMMARY_MS - Date.now();
    if (shown === "0" || left <= 0) {
      summary.hidden = true;
      return;
    }
    setTimeout(function () {
      hideSummary("round-summary");
    }, left);
  }

  // --- the log of earlier rounds: fetched again when a round ends ----------------------
  function refreshPastLog() {
    var live = document.getElementById("live");
    var past = document.getElementById("log-past");
    if (!live || !past || !live.dataset.round) {
      return;
    }
    var upto = live.dataset.round + (live.dataset.phase === "over" ? "over" : "");
    if (past.dataset.round !== upto && !past.dataset.loading) {
      past.dataset.loading = "1";
      htmx.ajax("GET", past.dataset.url, { target: "#log-past", swap: "outerHTML" });
    }
  }

  // --- <details> as the player left them --------------------------------------------
  document.addEventListener(
    "toggle",
    function (event) {
      var details = event.target;
      if (details.tagName === "DETAILS" && details.id && details.closest("#live, #log-past")) {
        SESSION.setItem("sixclub.open." + details.id, details.open ? "1" : "0");
      }
    },
    true
  );

  function restoreDetails() {
    var phone = window.matchMedia("(max-width: 719px)").matches;
    document.querySelectorAll("#live details[id], #log-past details[id]").forEach(function (d) {
      var kept = SESSION.getItem("sixclub.open." + d.id);
      if (kept !== null) {
        d.open = kept === "1";
      } else if (phone && d.classList.contains("log")) {
        d.open = false; // on a phone the log starts folded
      }
    });
  }

  // --- the reveal: the turn's cards shown together, then placed one by one ----------------
  // The frame already holds the settled table (the server's); the animation only hides the
  // cards this turn placed and flies them in, in the order they were placed (the last
  // turn's list), a take sliding towards its player with its heads. At most 2 s a turn.
  var animated = null;
  var TURN_MS = 1800;

  function stillPlease() {
    return pref("still") || window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  function rowCard(rows, number) {
    var faces = rows.querySelectorAll("span.card");
    for (var i = 0; i < faces.length; i++) {
      var b = faces[i].querySelector("b");
      if (b && b.textContent === number) {
        return faces[i];
      }
    }
    return null;
  }

  function animateTurn(fromSocket) {
    var last = document.getElementById("last-turn");
    var key = last && last.dataset.turn ? location.pathname + " " + last.dataset.turn : null;
    if (!key || key === animated) {
      return;
    }
    animated = key;
    var rows = document.getElementById("rows");
    if (!fromSocket || !rows || stillPlease()) {
      return;
    }
    var plays = Array.prototype.slice.call(last.querySelectorAll("li[data-card]"));
    var targets = plays.map(function (li) {
      return rowCard(rows, li.dataset.card);
    });
    if (!plays.length || targets.indexOf(null) >= 0) {
      return; // a new round's rows: nothing of that turn is on the board
    }
    var step = Math.min(400, TURN_MS / (plays.length + 1));
    var strip = document.createElement("div");
    strip.className = "reveal-strip";
    var flying = plays.map(function (li) {
      var clone = li.querySelector("span.card").cloneNode(true);
      strip.appendChild(clone);
      return clone;
    });
    rows.prepend(strip);
    targets.forEach(function (target) {
      target.style.visibility = "hidden";
    });
    plays.forEach(function (li, index) {
      setTimeout(function () {
        place(li, flying[index], targets[index], step);
      }, step * (index + 1));
    });
    setTimeout(function () {
      strip.remove();
    }, step * (plays.length + 1) + 50);
  }

  function place(li, clone, target, step) {
    var from = clone.getBoundingClientRect();
    var to = target.getBoundingClientRect();
    clone.style.transition = "transform " + Math.round(step * 0.8) + "ms ease-out";
    clone.style.transform =
      "translate(" + (to.left - from.left) + "px," + (to.top - from.top) + "px)";
    if (li.querySelector(".took")) {
      take(li, target.closest(".row"), step);
    }
    setTimeout(function () {
      target.style.visibility = "";
      clone.style.visibility = "hidden";
    }, step * 0.8);
  }

  function take(li, row, step) {
    var player = document.querySelector('#players tr[data-seat="' + li.dataset.seat + '"]');
    if (!row || !player) {
      return;
    }
    var pile = document.createElement("div");
    pile.className = "taking";
    li.querySelectorAll(".took ~ span.card").forEach(function (card) {
      pile.appendChild(card.cloneNode(true));
    });
    if (li.dataset.heads) {
      var heads = document.createElement("b");
      heads.textContent = "+" + li.dataset.heads;
      pile.appendChild(heads);
    }
    var start = row.getBoundingClientRect();
    pile.style.left = start.left + window.scrollX + "px";
    pile.style.top = start.top + window.scrollY + "px";
    document.body.appendChild(pile);
    var end = player.getBoundingClientRect();
    requestAnimationFrame(function () {
      pile.style.transition = "transform " + Math.round(step * 1.5) + "ms ease-in, opacity " +
        Math.round(step * 1.5) + "ms ease-in";
      pile.style.transform =
        "translate(" + (end.left - start.left) + "px," + (end.top - start.top) + "px) scale(.6)";
      pile.style.opacity = "0.2";
    });
    setTimeout(function () {
      pile.remove();
    }, step * 1.5 + 100);
  }

  // --- what a form cannot send as it is ----------------------------------------------
  // A form's fields are strings. A decision field that is a list is named in the form's
  // data-list-fields (several boxes ticked, one, none -> a list; "1,2" -> [1, 2]), one
  // that may be null in data-null-fields (nothing chosen -> null). A null set by the
  // button's own values stays null.
  function names(text) {
    return (text || "").split(" ").filter(Boolean);
  }

  document.addEventListener("htmx:wsConfigSend", function (event) {
    var sender = event.target;
    var form = sender && (sender.form || (sender.closest && sender.closest("form")));
    var parameters = event.detail.parameters;
    if (!form || !parameters) {
      return;
    }
    names(form.dataset.listFields).forEach(function (name) {
      var value = parameters[name];
      if (value === null) {
        return;
      }
      if (value === undefined || value === "") {
        parameters[name] = [];
      } else if (typeof value === "string") {
        parameters[name] = value.split(",");
      } else {
        parameters[name] = Array.prototype.slice.call(value);
      }
    });
    names(form.dataset.nullFields).forEach(function (name) {
      if (parameters[name] === undefined || parameters[name] === "") {
        parameters[name] = null;
      }
    });
  });

  // --- a budget spent by ticking boxes (6 qui surprend's Négatif = Positif) ----------
  // In a form[data-budget], the checked input[data-budget-value] sets the budget; each
  // ticked input[data-cost] spends its cost, and a box that would overspend (or has the
  // budget's own value) cannot be ticked. [data-budget-left] shows "spent / budget".
  function spend(form) {
    var chosen = form.querySelector("input[data-budget-value]:checked");
    var budget = chosen ? Number(chosen.dataset.budgetValue) : 0;
    var boxes = form.querySelectorAll("input[data-cost]");
    var spent = 0;
    boxes.forEach(function (box) {
      if (chosen && box.value === chosen.value) {
        box.checked = false;
      }
      if (box.checked) {
        spent += Number(box.dataset.cost);
      }
    });
    boxes.forEach(function (box) {
      var own = chosen && box.value === chosen.value;
      box.disabled = !box.checked && (own || spent + Number(box.dataset.cost) > budget);
    });
    form.classList.toggle("over-budget", spent > budget);
    var left = form.querySelector("[data-budget-left]");
    if (left) {
      left.textContent = spent + " / " + budget;
    }
  }

  function spendAll() {
    document.querySelectorAll("form[data-budget]").forEach(spend);
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-budget]");
    if (form) {
      spend(form);
    }
  });

  function afterFrame(event) {
    spendAll();
    if (!event || event.type === "htmx:wsAfterMessage") {
      animateTurn(!!event); // at page load: no animation, the table as it stands
    }
    restoreDetails();
    showSummary();
    showTurn();
    refreshPastLog();
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUpPrefs();
    afterFrame();
  });
  document.addEventListener("htmx:wsAfterMessage", afterFrame);
  document.addEventListener("htmx:afterSwap", afterFrame);
})();
