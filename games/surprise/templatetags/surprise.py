"""What a 6 qui surprend table draws beyond 6 qui prend !'s cards (RULES §2): the icons of
the seven specials, the rows with their Stops, caps and the places a prompt may use, and
the game log in words, rebuilt from the public events of the game.

Only public things reach these helpers' output: the log is made of the engine's events,
which never carry a hand, a selection or an attachment before the reveal (docs/engines.md).
"""

from collections import OrderedDict
from functools import lru_cache

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext

from games.surprise import engine as surprise
from games.surprise.engine.records import decision_of, record_value

register = template.Library()

# The specials' names as players read them, and what each does (RULES §2.3, §2.4).
NAMES = {
    "stop": gettext_lazy("Stop"),
    "glisser": gettext_lazy("Slide"),
    "inserer": gettext_lazy("Insert"),
    "remplacer": gettext_lazy("Replace"),
    "negatif_positif": gettext_lazy("Negative = Positive"),
    "5e_serie": gettext_lazy("5th row"),
    "7_qui_surprend": gettext_lazy("7 takes by surprise"),
}
EFFECTS = {
    "stop": gettext_lazy(
        "After your card is placed, put a Stop on a row: it receives no card and cannot be "
        "taken until a row is taken with a 6th card."
    ),
    "glisser": gettext_lazy(
        "Before your card is placed, move one card of a row to any place of another row."
    ),
    "inserer": gettext_lazy(
        "Put your card at the start of a row or between two of its cards instead of its end."
    ),
    "remplacer": gettext_lazy(
        "After the reveal, swap your card for another card of your hand, or keep it."
    ),
    "negatif_positif": gettext_lazy(
        "After you take cards: one of them, and cards of your pile worth up to its heads, "
        "leave the game."
    ),
    "5e_serie": gettext_lazy(
        "Your card starts a 5th row. The next player who takes a row "
        "also takes their card, and that row disappears."
    ),
    "7_qui_surprend": gettext_lazy(
        "Your card may be a row's 6th card without taking it; the row is closed, and the "
        "next card that goes there takes it whole."
    ),
}

# Seven small drawings, one per special, on a 24 × 24 grid (drawn for this site).
_SHAPES = {
    # An octagon with a bar: the road sign.
    "stop": '<path d="M8 2h8l6 6v8l-6 6H8l-6-6V8z" fill="#c62828"/>'
    '<rect x="6" y="10.5" width="12" height="3" rx="1" fill="#fff"/>',
    # A card sliding sideways along an arrow.
    "glisser": '<rect x="3" y="5" width="8" height="12" rx="1.5" fill="#1565c0"/>'
    '<path d="M13 11h7m-3-3 3 3-3 3" stroke="#1565c0" stroke-width="2.2" fill="none" '
    'stroke-linecap="round" stroke-linejoin="round"/>',
    # Two cards and a third pushed down between them.
    "inserer": '<rect x="2" y="6" width="6" height="12" rx="1.2" fill="#6a1b9a" opacity=".5"/>'
    '<rect x="16" y="6" width="6" height="12" rx="1.2" fill="#6a1b9a" opacity=".5"/>'
    '<path d="M12 2v10m-3.5-3.5L12 12l3.5-3.5" stroke="#6a1b9a" stroke-width="2.2" '
    'fill="none" stroke-linecap="round" stroke-linejoin="round"/>'
    '<rect x="9.5" y="14" width="5" height="8" rx="1" fill="#6a1b9a"/>',
    # Two arrows in a circle: one card for another.
    "remplacer": '<path d="M5 10a7 7 0 0 1 12.5-3.5M19 14a7 7 0 0 1-12.5 3.5" '
    'stroke="#2e7d32" stroke-width="2.2" fill="none" stroke-linecap="round"/>'
    '<path d="M18.5 3v4h-4M5.5 21v-4h4" stroke="#2e7d32" stroke-width="2.2" fill="none" '
    'stroke-linecap="round" stroke-linejoin="round"/>',
    # Minus equals plus.
    "negatif_positif": '<circle cx="12" cy="12" r="10" fill="#ef6c00"/>'
    '<path d="M4.5 8h5M6 12.5h3M6 15h3M14.5 8h5M17 5.5v5M14.5 13.75h5" stroke="#fff" '
    'stroke-width="1.8" stroke-linecap="round"/>',
    # Four short rows and a fifth, new one.
    "5e_serie": '<path d="M3 4h10M3 8h10M3 12h10M3 16h10" stroke="#455a64" stroke-width="2" '
    'stroke-linecap="round"/><path d="M3 20h10" stroke="#00897b" stroke-width="2.6" '
    'stroke-linecap="round"/><path d="M18 16v8M14 20h8" stroke="#00897b" stroke-width="2.2" '
    'stroke-linecap="round"/>',
    # A big 7 with a lid on it.
    "7_qui_surprend": '<rect x="3" y="2" width="18" height="4" rx="1.5" fill="#ad1457"/>'
    '<path d="M7 9h10l-6 13" stroke="#ad1457" stroke-width="3" fill="none" '
    'stroke-linecap="round" stroke-linejoin="round"/>',
}


def special_name(kind) -> str:
    return str(NAMES.get(kind, kind))


@lru_cache(maxsize=64)
def _icon(language: str, kind: str, size: int) -> str:
    tip = f"{NAMES[kind]}: {EFFECTS[kind]}"
    return format_html(
        '<span class="special-icon" data-special="{}" title="{}">'
        '<svg viewBox="0 0 24 24" width="{}" height="{}" role="img" aria-label="{}">'
        "<title>{}</title>{}</svg></span>",
        kind,
        tip,
        size,
        size,
        NAMES[kind],
        tip,
        mark_safe(_SHAPES[kind]),  # noqa: S308 - the site's own drawings above
    )


@register.simple_tag
def special_icon(kind, size=22):
    """The special `kind`'s drawing, its name and effect as a tooltip."""
    if kind not in _SHAPES:
        return ""
    return _icon(get_language(), kind, int(size))


@register.filter
def special_label(kind) -> str:
    return special_name(kind)


@register.simple_tag
def special_chip(kind):
    """Icon and name side by side (a hand of specials, the discard pile)."""
    if kind not in _SHAPES:
        return ""
    return format_html(
        '<span class="special-chip">{}<span>{}</span></span>',
        special_icon(kind),
        special_name(kind),
    )


def _face(card):
    return {"number": card, "heads": surprise.heads(card)}


# --- the rows -------------------------------------------------------------------------------


@register.filter
def surprise_rows(v) -> list[dict]:
    """Each row with what a prompt may do there: `places` before each card (and at the
    end for Glisser's target), and whether it takes a Stop, a too-low card, Insérer or
    Glisser (RULES 2.5)."""
    prompt = (v.get("prompt") or {}).get("kind")
    rows = []
    count = len(v["rows"])
    for index, row in enumerate(v["rows"]):
        stopped, capped = v["stops"][index], v["caps"][index]
        open_row = not stopped and not capped
        if prompt == "inserer" and open_row:
            places = list(range(max(len(row), 1)))
        elif prompt == "glisser" and open_row:
            places = list(range(len(row) + 1))
        else:
            places = []
        rows.append(
            {
                "index": index,
                "number": index + 1,
                "fifth": index == 4 and count == 5,
                "places": places,
                # Glisser's place after the last card, or Insérer's in an empty row.
                "end_place": len(row) if len(row) in places else None,
                "cards": [_face(card) for card in row],
                "free": range(max(0, 5 - len(row))),
                "heads": surprise.cards.row_heads(row),
                "stop": stopped,
                "cap": capped,
                "open": open_row,
                "takes_stop": prompt == "stop" and not stopped,
                "too_low": prompt == "row" and not stopped,
                "source": prompt == "glisser" and open_row,
            }
        )
    return rows


@register.filter
def faces(cards) -> list[dict]:
    return [_face(card) for card in cards or ()]


@register.filter
def attachable(specials) -> list[str]:
    """The kinds of the hand's specials that may go with a card (never Négatif = Positif)."""
    return [
        kind for kind in surprise.KINDS if kind in (specials or ()) and kind != "negatif_positif"
    ]


@register.filter
def kinds_held(specials) -> list[str]:
    return [kind for kind in surprise.KINDS if kind in (specials or ())]


@register.filter
def seat_name(seat, seats):
    return seats[seat].name if seat is not None and 0 <= seat < len(seats) else ""


@register.filter
def at(values, index):
    try:
        return values[index]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def heads_of(card) -> int:
    return surprise.heads(card)


@register.filter
def np_pile(mine) -> list[dict]:
    """The own penalty pile as Négatif = Positif's extras may use it (RULES 2.5)."""
    return [_face(card) for card in sorted(mine.get("my_pile") or ())]


# --- the game log, in words -----------------------------------------------------------------


def _decisions(state):
    """Every decision of the game so far, grouped by turn: ((round, turn), [(seat,
    decision)]), rebuilt from the finished rounds, this round's turns and the turn being
    resolved (its selections are revealed then)."""
    rounds = [entry[3] for entry in state.history]
    if state.phase != "over":
        rounds.append(state.turns)
    for number, turns in enumerate(rounds, 1):
        for turn, (cards, specials, decisions) in enumerate(turns, 1):
            yield (number, turn), _turn_decisions(cards, specials, decisions)
    if state.resolving:
        yield (
            (state.round, len(state.turns) + 1),
            _turn_decisions(state.selections, state.attached, state.answers),
        )


def _turn_decisions(cards, specials, decisions):
    plays = [
        (seat, {"type": "select", "card": card, "special": special})
        for seat, (card, special) in enumerate(zip(cards, specials, strict=True))
    ]
    for seat, kind, value in decisions:
        plays.append((seat, decision_of(kind, record_value(kind, value))))
    return plays


_logs: "OrderedDict[tuple, list]" = OrderedDict()
_LOGS_KEPT = 256


def game_events(state) -> list[dict]:
    """[{round, turn, events}] of the whole game: the public events of each turn, found
    by playing its decisions again from the seed (a 2-round game takes a few ms)."""
    key = (state.seed, state.players, state.version, repr(state.turns), repr(state.answers))
    if key in _logs:
        _logs.move_to_end(key)
        return _logs[key]
    game = surprise.new_game(players=state.players, options=state.options, seed=state.seed)
    turns = []
    for (number, turn), plays in _decisions(state):
        events = []
        for seat, decision in plays:
            game, produced = surprise.apply(game, seat, decision)
            events.extend(produced)
        turns.append({"round": number, "turn": turn, "events": events})
    _logs[key] = turns
    while len(_logs) > _LOGS_KEPT:
        _logs.popitem(last=False)
    return turns


def _cards(cards) -> str:
    return ", ".join(str(card) for card in cards)


def describe(event, names) -> str | None:
    """One event in words (None for those the log does not show)."""
    kind = event["type"]
    name = names[event["seat"]] if "seat" in event else ""
    if kind == "revealed":
        plays = []
        for seat, card in sorted(enumerate(event["cards"]), key=lambda play: play[1]):
            special = event["specials"][seat]
            if special:
                plays.append(f"{names[seat]} {card} + {special_name(special)}")
            else:
                plays.append(f"{names[seat]} {card}")
        return gettext("Cards revealed: %(plays)s.") % {"plays": " · ".join(plays)}
    if kind == "replaced":
        if event["by"] is None:
            return gettext("%(name)s keeps %(card)s (Replace is used up).") % {
                "name": name,
                "card": event["card"],
            }
        return gettext("%(name)s replaces %(card)s with %(by)s.") % {
            "name": name,
            "card": event["card"],
            "by": event["by"],
        }
    if kind == "special_returned":
        return gettext("%(name)s's %(special)s cannot apply: back to their hand.") % {
            "name": name,
            "special": special_name(event["special"]),
        }
    if kind == "fifth_row":
        return gettext("%(name)s's %(card)s starts a 5th row (5th row).") % {
            "name": name,
            "card": event["card"],
        }
    if kind == "inserted":
        return gettext("%(name)s inserts %(card)s in row %(row)s, place %(place)s (Insert).") % {
            "name": name,
            "card": event["card"],
            "row": event["row"] + 1,
            "place": event["position"] + 1,
        }
    if kind == "slid":
        return gettext(
            "%(name)s slides %(card)s from row %(source)s to row %(target)s (Slide)."
        ) % {
            "name": name,
            "card": event["card"],
            "source": event["from"][0] + 1,
            "target": event["to"][0] + 1,
        }
    if kind == "choosing":
        return gettext("%(name)s's %(card)s is lower than every row.") % {
            "name": name,
            "card": event["card"],
        }
    if kind == "capped":
        return gettext(
            "%(name)s lays %(card)s on row %(row)s and closes it (7 takes by surprise)."
        ) % {"name": name, "card": event["card"], "row": event["row"] + 1}
    if kind == "placed":
        return gettext("%(name)s: %(card)s → row %(row)s.") % {
            "name": name,
            "card": event["card"],
            "row": event["row"] + 1,
        }
    if kind == "took":
        heads = event["heads"]
        text = gettext("%(name)s takes row %(row)s: %(cards)s.") % {
            "name": name,
            "row": event["row"] + 1,
            "cards": _cards(event["cards"]),
        }
        if heads is not None:
            text += " " + ngettext("%(n)s head.", "%(n)s heads.", heads) % {"n": heads}
        if event["row_removed"]:
            text += " " + gettext("The row disappears: back to 4 rows.")
        return text
    if kind == "stops_cleared":
        return gettext("A row was taken with a 6th card: the Stops go to the discard pile.")
    if kind == "stopped":
        return gettext("%(name)s puts a Stop on row %(row)s.") % {
            "name": name,
            "row": event["row"] + 1,
        }
    if kind == "removed":
        removed = [event["card"], *event["extras"]]
        return gettext("%(name)s plays Negative = Positive: %(cards)s go back in the box.") % {
            "name": name,
            "cards": _cards(removed),
        }
    if kind == "exchanged":
        return gettext("%(name)s exchanges %(special)s for a new special.") % {
            "name": name,
            "special": special_name(event["special"]),
        }
    if kind == "reshuffled":
        return gettext("The discard pile is shuffled into a new draw pile.")
    if kind == "round_over":
        return gettext("End of round %(n)s.") % {"n": event["round"]}
    return None


def turn_lines(events, names) -> list[str]:
    return [line for line in (describe(event, names) for event in events) if line]


# The special whose effect (or reaction, RULES 2.3, 2.4) an event shows.
_EFFECT_OF = {
    "replaced": "remplacer",
    "fifth_row": "5e_serie",
    "inserted": "inserer",
    "slid": "glisser",
    "capped": "7_qui_surprend",
    "stopped": "stop",
    "stops_cleared": "stop",
    "removed": "negatif_positif",
}


def _rows_of(event) -> list[int]:
    """The rows (1-based) an event happened on, as the board numbers them."""
    if event["type"] == "slid":
        return [event["from"][0] + 1, event["to"][0] + 1]
    if event["type"] == "stops_cleared":
        return [row + 1 for row in event["rows"]]
    return [event["row"] + 1] if "row" in event else []


def turn_steps(events, names) -> list[dict]:
    """The turn's log lines with what each shows on the table, in the order the rules
    resolved them: its event, the special whose effect it is (the one given away for an
    exchange, the one sent back), the rows (1-based), the seat, the card, the heads taken.
    The live table shows them one after another (games/surprise/reveal.js)."""
    steps = []
    for event in events:
        text = describe(event, names)
        if not text:
            continue
        special = _EFFECT_OF.get(event["type"]) or event.get("special")
        steps.append(
            {
                "text": text,
                "event": event["type"],
                "special": special if special in _SHAPES else None,
                "rows": _rows_of(event),
                "seat": event.get("seat"),
                "card": event.get("card") if event["type"] != "replaced" else event["by"],
                "heads": event.get("heads"),
            }
        )
    return steps


@register.filter
def surprise_log(game, seats):
    """The turns of the round in play (the last round once the game is over), newest
    first, each {round, turn, lines}, and the turn being resolved first of all."""
    if game is None:
        return []
    state = surprise.load(game.state)
    names = [str(seat.name) for seat in seats]
    turns = game_events(state)
    # At a new round's first turn, the last round's turns stay in view.
    shown = (
        state.round if any(entry["round"] == state.round for entry in turns) else state.round - 1
    )
    return [
        {
            "round": entry["round"],
            "turn": entry["turn"],
            "steps": turn_steps(entry["events"], names),
        }
        for entry in reversed(turns)
        if entry["round"] == shown
    ]


@register.simple_tag
def log_lines(lines):
    return format_html_join("", "<li>{}</li>", ((line,) for line in lines))


def _step_attributes(step) -> str:
    attributes = [("data-event", step["event"])]
    if step["special"]:
        attributes.append(("data-special", step["special"]))
    if step["rows"]:
        attributes.append(("data-row", " ".join(str(row) for row in step["rows"])))
    if step["seat"] is not None:
        attributes.append(("data-seat", step["seat"]))
    if step["card"] is not None:
        attributes.append(("data-laid", step["card"]))
    if step["heads"] is not None:
        attributes.append(("data-heads", step["heads"]))
    return format_html_join("", ' {}="{}"', attributes)


@register.simple_tag
def log_steps(steps):
    """A turn's log lines, each a step of its reveal (`turn_steps`): numbered in the turn,
    the special's icon before the words of its effect."""
    return format_html_join(
        "",
        '<li data-reveal-step="{}"{}>{}{}</li>',
        (
            (
                number,
                _step_attributes(step),
                special_icon(step["special"], 18) if step["special"] else "",
                (" " if step["special"] else "") + step["text"],
            )
            for number, step in enumerate(steps, start=1)
        ),
    )


@register.filter
def faces_one(card):
    return _face(card) if card is not None else {"number": "?", "heads": 0}


@register.filter
def costliest_first(faces_):
    """Négatif = Positif's cards, the one that frees the most heads first."""
    return sorted(faces_, key=lambda face: (-face["heads"], face["number"]))


@register.filter
def get_heads(face):
    return face["heads"] if face else 0
