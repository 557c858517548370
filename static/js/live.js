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
    if (pref("still") && reveal.run) {
      reveal.run.stop(); // asked to be still: a reveal being shown stops at once
    }
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
        arm(button);
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

  // The card tapped once, kept across frames: a frame that redraws the hand (another
  // player away, a seat changed) keeps it armed while it can still be played.
  var armedCard = null;

  function arm(button) {
    armedCard = button.dataset.card;
    button.classList.add("armed");
    var confirm = document.getElementById("confirm-card");
    if (confirm) {
      confirm.textContent = confirm.dataset.label.replace("%(card)s", button.dataset.card);
      confirm.disabled = false; // drawn disabled: nothing to play until a card is tapped
    }
  }

  function rearm() {
    if (armedCard === null) {
      return;
    }
    var button = Array.prototype.filter.call(
      document.querySelectorAll("#hand.awaited button.cardbtn"),
      function (b) { return b.dataset.card === armedCard && !b.disabled; }
    )[0];
    if (!button) {
      armedCard = null;
    } else if (!button.classList.contains("armed")) {
      arm(button);
    }
  }

  function disarm() {
    armedCard = null;
    document.querySelectorAll("#hand button.cardbtn.armed").forEach(function (b) {
      b.classList.remove("armed");
    });
    var confirm = document.getElementById("confirm-card");
    if (confirm) {
      confirm.disabled = true;
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

  // --- the reveal: how a turn came to the table now shown, once, step by step ------------
  // The frame already holds the settled table (the server's); a reveal only shows how it
  // came to be. This part knows no game: a game's template declares what there is to show,
  // and the game's own script (its Kind's `script`) how to show it.
  //
  //   [data-reveal="<key>"] in #live     the turn (or the part of a turn) to show; a key is
  //                                      shown once a page, and only when a socket brings it
  //   data-reveal-with="<name>"          the animation the game's script defined under that
  //                                      name (sixclubReveal.define); without one, or when
  //                                      none has that name, each step is highlighted in turn
  //   data-reveal-ms="<ms>"              the most a reveal may last (default 2000)
  //   [data-reveal-step="<id>"] in it    its steps: by id when every id is a number, else in
  //                                      the page's order (no step: the marker is the step).
  //                                      A step shown is not shown again when a later frame
  //                                      of the same key repeats it (a turn resolved over
  //                                      several decisions shows only what is new).
  //
  // "Skip animations" (the `still` preference) and prefers-reduced-motion show nothing.
  // What ran is noted on <html>: data-reveal-runs and data-reveal-skipped count the
  // reveals shown and skipped, data-reveal-log holds the latest steps shown ("key#id"),
  // data-revealing is there while one is being shown.
  var REVEAL_MS = 2000;
  var LOG_KEPT = 40;
  var animations = {};
  var reveal = { key: null, seen: {}, run: null };

  window.sixclubReveal = {
    // play(run): shows run.steps with run's tools (below); returns false if it cannot (the
    // steps are then taken as shown).
    define: function (name, play) {
      animations[name] = play;
    },
  };

  function stillPlease() {
    return pref("still") || window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  function stepId(step) {
    return step.dataset.revealStep || "";
  }

  function stepsOf(marker) {
    var steps = Array.prototype.slice.call(marker.querySelectorAll("[data-reveal-step]"));
    if (!steps.length) {
      return [marker];
    }
    var numbered = steps.every(function (step) {
      return /^-?\d+$/.test(stepId(step));
    });
    if (numbered) {
      steps.sort(function (a, b) {
        return Number(stepId(a)) - Number(stepId(b));
      });
    }
    return steps;
  }

  function count(name) {
    var root = document.documentElement;
    root.dataset[name] = String((Number(root.dataset[name]) || 0) + 1);
  }

  function note(key, step) {
    var root = document.documentElement;
    var log = (root.dataset.revealLog || "").split(" ").filter(Boolean);
    log.push(key.replace(/\s+/g, "_") + "#" + stepId(step));
    root.dataset.revealLog = log.slice(-LOG_KEPT).join(" ");
  }

  function showReveal(fromSocket) {
    var marker = document.querySelector("#live [data-reveal]");
    if (!marker) {
      if (reveal.run && !document.contains(reveal.run.marker)) {
        reveal.run.stop(); // a new table (a new round dealt...): what it showed is gone
      }
      return;
    }
    var key = location.pathname + " " + marker.dataset.reveal;
    if (key !== reveal.key) {
      if (reveal.run) {
        reveal.run.stop();
      }
      reveal = { key: key, seen: {}, run: null };
    }
    var steps = stepsOf(marker);
    // The steps the running reveal is about to show are not new, unless its marker was
    // replaced since (a whole frame): then it shows nothing more, and they are shown again.
    var running = reveal.run && !reveal.run.over && reveal.run.marker === marker;
    var fresh = steps.filter(function (step) {
      var id = stepId(step);
      return !reveal.seen[id] && !(running && reveal.run.ids.indexOf(id) >= 0);
    });
    if (!fresh.length) {
      return;
    }
    if (!fromSocket || stillPlease()) {
      // At page load the table is shown as it stands; asked to be still, too.
      steps.forEach(function (step) {
        reveal.seen[stepId(step)] = true;
      });
      if (fromSocket) {
        count("revealSkipped");
      }
      return;
    }
    if (reveal.run) {
      reveal.run.stop();
    }
    var todo = steps.filter(function (step) {
      return !reveal.seen[stepId(step)];
    });
    var run = new Run(marker, todo, key);
    reveal.run = run;
    var play = animations[marker.dataset.revealWith] || highlight;
    if (play(run) === false) {
      run.stop();
      todo.forEach(function (step) {
        reveal.seen[stepId(step)] = true;
      });
    } else {
      count("revealRuns");
    }
  }

  // The reveal of a game that defines none: each step highlighted in turn.
  function highlight(run) {
    run.each(function () {});
  }

  // One reveal being shown: its steps, and the tools a game's animation uses. Whatever a
  // tool adds to the page (copies of cards, piles, captions) goes when its time is up, or
  // at once when the reveal is stopped (a newer one starts).
  function Run(marker, steps, key) {
    this.marker = marker;
    this.steps = steps;
    this.ids = steps.map(stepId);
    this.key = key;
    this.budget = Number(marker.dataset.revealMs) || REVEAL_MS;
    this.over = false;
    this.timers = [];
    this.added = [];
    this.lasting = [];
    this.hidden = [];
    this.marked = [];
    this.moves = [];
    document.documentElement.dataset.revealing = key;
  }

  // No reveal is being shown any more (unless a newer one is).
  Run.prototype.release = function () {
    if (document.documentElement.dataset.revealing === this.key && reveal.run === this) {
      delete document.documentElement.dataset.revealing;
    }
  };

  // `fn` in `ms`, unless the reveal is stopped before.
  Run.prototype.later = function (ms, fn) {
    var run = this;
    this.timers.push(
      setTimeout(function () {
        if (!run.stopped) {
          fn();
        }
      }, Math.max(0, ms))
    );
  };

  // Shows each step in turn, `play(step, ms, index)` called as it starts; the step itself
  // is marked .reveal-now for its time. Options: `step` the most a step of weight 1 lasts
  // (default 400 ms), `weight(step)` its share of the time (default 1), `lead` the steps'
  // worth of time before the first (default 0). All of it within the reveal's budget.
  Run.prototype.each = function (play, options) {
    var run = this;
    options = options || {};
    var weight = options.weight || function () {
      return 1;
    };
    var weights = this.steps.map(function (step) {
      return Math.max(0, Number(weight(step)) || 0);
    });
    var lead = options.lead || 0;
    var total = weights.reduce(function (sum, w) {
      return sum + w;
    }, lead);
    var unit = Math.min(options.step || 400, this.budget / Math.max(total, 1));
    var at = lead * unit;
    this.steps.forEach(function (step, index) {
      var ms = weights[index] * unit;
      run.later(at, function () {
        reveal.seen[stepId(step)] = true;
        note(run.key, step);
        run.mark(step, "reveal-now", ms);
        play(step, ms, index);
      });
      at += ms;
    });
    this.later(at, function () {
      run.end();
    });
    return at;
  };

  // The reveal has shown its last step: what was to last until then goes.
  Run.prototype.end = function () {
    this.over = true;
    this.release();
    this.lasting.forEach(function (element) {
      element.remove();
    });
    this.hidden.forEach(function (element) {
      element.style.visibility = "";
    });
  };

  // `element` gets `name` (a class) for `ms`.
  Run.prototype.mark = function (element, name, ms) {
    if (!element) {
      return;
    }
    element.classList.add(name);
    this.marked.push([element, name]);
    this.later(ms, function () {
      element.classList.remove(name);
    });
  };

  Run.prototype.flash = function (element, ms) {
    this.mark(element, "reveal-hit", ms);
  };

  Run.prototype.hide = function (element) {
    if (element) {
      element.style.visibility = "hidden";
      this.hidden.push(element);
    }
  };

  Run.prototype.show = function (element) {
    if (element) {
      element.style.visibility = "";
    }
  };

  // A picture of `node` for a reveal to move: a copy without ids or data attributes, so
  // that nothing takes it for the page's own cards.
  function picture(node) {
    var copy = node.cloneNode(true);
    if (copy.nodeType !== 1) {
      return copy; // words
    }
    [copy].concat(Array.prototype.slice.call(copy.querySelectorAll("*"))).forEach(function (el) {
      el.removeAttribute("id");
      Array.prototype.slice.call(el.attributes).forEach(function (attribute) {
        if (attribute.name.indexOf("data-") === 0) {
          el.removeAttribute(attribute.name);
        }
      });
    });
    return copy;
  }

  // Something laid over the page (document coordinates) on `where`'s box, for `ms` (none:
  // until the reveal ends).
  Run.prototype.overlay = function (element, where, ms) {
    var box = where.getBoundingClientRect();
    element.classList.add("reveal-over");
    element.setAttribute("aria-hidden", "true");
    element.style.left = box.left + window.scrollX + "px";
    element.style.top = box.top + window.scrollY + "px";
    document.body.appendChild(element);
    this.added.push(element);
    if (ms) {
      this.later(ms, function () {
        element.remove();
      });
    } else {
      this.lasting.push(element);
    }
    return element;
  };

  // A copy of `face` (a card) laid over `from` (default: over `face` itself), for `ms`.
  Run.prototype.copy = function (face, from, ms) {
    var copy = picture(face);
    var box = face.getBoundingClientRect();
    copy.style.width = box.width + "px";
    copy.style.height = box.height + "px";
    copy.style.visibility = "";
    return this.overlay(copy, from || face, ms);
  };

  // `element` moves onto `target`'s box in `ms` (and stays there).
  Run.prototype.fly = function (element, target, ms) {
    var from = element.getBoundingClientRect();
    var to = target.getBoundingClientRect();
    var move =
      "translate(" + (to.left - from.left) + "px," + (to.top - from.top) + "px)";
    this.moves.push(
      element.animate([{ transform: "none" }, { transform: move }], {
        duration: Math.max(1, ms),
        easing: "ease-out",
        fill: "forwards",
      })
    );
  };

  // `element` grows into its place in `ms`.
  Run.prototype.pop = function (element, ms) {
    if (element) {
      this.moves.push(
        element.animate(
          [
            { transform: "scale(1.8)", opacity: 0 },
            { transform: "scale(1)", opacity: 1 },
          ],
          { duration: Math.max(1, ms), easing: "ease-out" }
        )
      );
    }
  };

  // Copies of `faces`, side by side in a strip at the top of `into` until the reveal ends.
  Run.prototype.strip = function (faces, into) {
    var strip = document.createElement("div");
    strip.className = "reveal-strip";
    strip.setAttribute("aria-hidden", "true");
    var copies = faces.map(function (face) {
      var copy = picture(face);
      strip.appendChild(copy);
      return copy;
    });
    into.prepend(strip);
    this.added.push(strip);
    this.lasting.push(strip);
    return copies;
  };

  // A pile (copies of `faces`, then `label`) going from `from` to `to` in `ms`, fading.
  Run.prototype.slide = function (faces, label, from, to, ms) {
    if (!from || !to) {
      return;
    }
    var pile = document.createElement("div");
    pile.className = "taking";
    faces.forEach(function (face) {
      pile.appendChild(picture(face));
    });
    if (label) {
      var text = document.createElement("b");
      text.textContent = label;
      pile.appendChild(text);
    }
    this.overlay(pile, from, ms + 100);
    var start = from.getBoundingClientRect();
    var end = to.getBoundingClientRect();
    var move =
      "translate(" + (end.left - start.left) + "px," + (end.top - start.top) + "px) scale(.6)";
    this.moves.push(
      pile.animate(
        [
          { transform: "none", opacity: 1 },
          { transform: move, opacity: 0.2 },
        ],
        { duration: Math.max(1, ms), easing: "ease-in", fill: "forwards" }
      )
    );
  };

  // A caption over the top of `over` for `ms` (at the top of the screen when that top is
  // scrolled away): `content` is text, or an element whose content is copied (a line of
  // the game's log with its icons).
  Run.prototype.say = function (content, over, ms) {
    if (!over) {
      return;
    }
    var caption = document.createElement("div");
    caption.className = "reveal-say";
    if (typeof content === "string") {
      caption.textContent = content;
    } else {
      Array.prototype.forEach.call(content.childNodes, function (node) {
        caption.appendChild(picture(node));
      });
    }
    this.overlay(caption, over, ms);
    var box = over.getBoundingClientRect();
    caption.style.width = box.width + "px";
    if (box.top < 0 && box.bottom > 0) {
      caption.style.top = window.scrollY + 8 + "px";
    }
  };

  // The seat's row in the players' table (the section every game shares).
  Run.prototype.player = function (seat) {
    return document.querySelector('#players tr[data-seat="' + seat + '"]');
  };

  Run.prototype.stop = function () {
    this.stopped = true;
    this.over = true;
    this.release();
    this.timers.forEach(clearTimeout);
    this.moves.forEach(function (move) {
      move.cancel();
    });
    this.added.forEach(function (element) {
      element.remove();
    });
    this.hidden.forEach(function (element) {
      element.style.visibility = "";
    });
    this.marked.forEach(function (pair) {
      pair[0].classList.remove(pair[1]);
    });
  };

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

  // --- a budget spent by ticking boxes (cards given up to a card's worth, say) -----------
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

  // --- keyboard and screen readers -------------------------------------------------------
  // A frame replaces whole sections, and the control that had the focus with them: the
  // focus goes back to the same control in the new section (the same card, else the one
  // at its place). When the viewer's turn comes, or whenever it is her turn and the focus
  // is nowhere, it goes to the decision's first choice: a card of the hand, a row, a pick.
  // The arrow keys (and Home, End) move between the cards of a hand or between the rows.
  // What a frame brings that is new (#announce-text, in the page's language, each line
  // with its data-key) is read out in #announcer, a polite live region no frame replaces,
  // and so is "your turn".
  var CHOICES = [
    "#hand.awaited button[data-card]",
    "#rows button, #rows input",
    "#draft button",
    "#hand.awaited button, #hand.awaited input",
  ];
  var MOVES = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: -Infinity, End: Infinity };
  var kept = null; // the focused control when a frame came: {section, id, card, index}
  var told = null; // the data-keys of the lines already read out
  var turnWas = false;

  function usable(el) {
    return !el.disabled && !el.hidden && el.getClientRects().length > 0 && !el.closest("[hidden], [inert]");
  }

  function controls(root) {
    return Array.prototype.filter.call(root.querySelectorAll("button, input, select, a[href], summary"), usable);
  }

  function firstChoice() {
    for (var i = 0; i < CHOICES.length; i++) {
      var found = Array.prototype.filter.call(document.querySelectorAll(CHOICES[i]), usable);
      if (found.length) {
        return found[0];
      }
    }
    return null;
  }

  function focusOn(el) {
    el.focus({ preventScroll: true });
    var box = el.getBoundingClientRect();
    if (box.bottom < 0 || box.top > window.innerHeight) {
      el.scrollIntoView({ block: "nearest" });
    }
  }

  function nowhere() {
    var el = document.activeElement;
    return !el || el === document.body || el === document.documentElement || !el.isConnected;
  }

  function typing() {
    var el = document.activeElement;
    return !!el && !el.closest("#live") && (el.matches("textarea, select, [contenteditable]") ||
      (el.tagName === "INPUT" && ["checkbox", "radio", "button", "submit"].indexOf(el.type) < 0));
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    var el = document.activeElement;
    var section = el && el.closest ? el.closest("#live [id]") : null;
    kept = section ? {
      section: section.id,
      id: el.id,
      card: el.dataset ? el.dataset.card : undefined,
      index: controls(section).filter(function (other) {
        return (other.dataset.card !== undefined) === (el.dataset.card !== undefined);
      }).indexOf(el),
    } : null;
  });

  function restoreFocus() {
    var section = kept && document.getElementById(kept.section);
    var was = kept;
    kept = null;
    if (!section || !nowhere()) {
      return;
    }
    var all = controls(section);
    var same = all.filter(function (el) {
      return (was.id && el.id === was.id) || (!was.id && was.card !== undefined && el.dataset.card === was.card);
    })[0];
    // A card played: the card now at its place; another control: the one at its place.
    var like = all.filter(function (el) {
      return (el.dataset.card !== undefined) === (was.card !== undefined);
    });
    if (!same && like.length && was.index >= 0) {
      same = like[Math.min(was.index, like.length - 1)];
    }
    if (!same && was.card !== undefined) {
      // No card to play any more: the focus stays on the section, not on <body>.
      same = section;
      section.setAttribute("tabindex", "-1");
    }
    if (same) {
      focusOn(same);
    }
  }

  function say(lines) {
    var region = document.getElementById("announcer");
    if (region && lines.length) {
      region.textContent = lines.join(" ");
    }
  }

  function keyboardAfterFrame(event) {
    var first = told === null;
    told = told || {};
    var lines = [];
    document.querySelectorAll("#announce-text [data-key]").forEach(function (line) {
      if (!told[line.dataset.key]) {
        told[line.dataset.key] = true;
        if (!first) {
          lines.push(line.textContent.replace(/\s+/g, " ").trim());
        }
      }
    });
    if (event && event.type === "htmx:wsAfterMessage") {
      restoreFocus();
    }
    // A decision of the viewer's: her turn at this decision point (#live's version).
    var live = document.getElementById("live");
    var turn = awaited() ? (live ? live.dataset.version : "") + "" : false;
    if (turn !== false) {
      var choice = firstChoice();
      var onChoice = !nowhere() && document.activeElement.matches(CHOICES.join(", "));
      if (choice && (nowhere() || (turn !== turnWas && !onChoice && !typing()))) {
        focusOn(choice);
      }
      if (turn !== turnWas) {
        var region = document.getElementById("announcer");
        lines.push(region ? region.dataset.yourTurn : "");
      }
    }
    turnWas = turn;
    say(lines.filter(Boolean));
  }

  document.addEventListener("keydown", function (event) {
    var move = MOVES[event.key];
    if (move === undefined || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    var here = event.target.closest && event.target.closest("#hand button, #draft button, #rows button");
    var group = here && here.closest(".cards, .suits, #rows, #draft");
    if (!group) {
      return;
    }
    var items = Array.prototype.filter.call(group.querySelectorAll("button"), usable);
    var at = items.indexOf(here);
    var to = move === -Infinity ? 0 : move === Infinity ? items.length - 1 : at + move;
    if (at < 0 || to < 0 || to >= items.length) {
      return;
    }
    event.preventDefault();
    focusOn(items[to]);
  });

  function afterFrame(event) {
    spendAll();
    rearm();
    if (!event || event.type === "htmx:wsAfterMessage") {
      showReveal(!!event); // at page load: no animation, the table as it stands
    }
    restoreDetails();
    showSummary();
    keyboardAfterFrame(event);
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
