"""The cards of Six drawn for this site: a Spanish deck's four suits as small SVG marks,
each with its colour and shape (oros a gold coin, copas a red cup, espadas a blue sword,
bastos a green club), and its rank (S, C and R for sota, caballo and rey)."""

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from games.six.engine.cards import RANKS, SUITS, name, sort_key

register = template.Library()

SUIT_NAMES = {
    "oros": _("oros"),
    "copas": _("copas"),
    "espadas": _("espadas"),
    "bastos": _("bastos"),
}
FIGURES = {10: ("S", _("sota")), 11: ("C", _("caballo")), 12: ("R", _("rey"))}
# One mark per suit, in a 20×20 box.
MARKS = {
    "oros": '<circle cx="10" cy="10" r="7" fill="#e0a800" stroke="#8a6500" stroke-width="1.5"/>'
    '<circle cx="10" cy="10" r="3" fill="none" stroke="#8a6500"/>',
    "copas": '<path d="M4 4h12c0 5-2.5 8-6 8s-6-3-6-8z" fill="#c62828"/>'
    '<rect x="9" y="12" width="2" height="4" fill="#c62828"/>'
    '<rect x="6" y="16" width="8" height="2" fill="#c62828"/>',
    "espadas": '<path d="M10 1l2 12h-4z" fill="#1e5aa8"/>'
    '<rect x="6" y="13" width="8" height="2" fill="#1e5aa8"/>'
    '<rect x="9" y="15" width="2" height="4" fill="#1e5aa8"/>',
    "bastos": '<path d="M7 18l2-15c1-2 4-2 4 1l-2 14z" fill="#2e7d32"/>'
    '<circle cx="11" cy="5" r="1" fill="#a5d6a7"/><circle cx="10" cy="10" r="1" fill="#a5d6a7"/>',
}


def _parts(card: str) -> tuple[int, str]:
    rank, _sep, suit = card.partition("-")
    return int(rank), suit


@lru_cache(maxsize=512)
def _markup(card: str, language: str) -> str:
    rank, suit = _parts(card)
    letter, figure = FIGURES.get(rank, (str(rank), None))
    title = f"{figure or rank} — {SUIT_NAMES[suit]}"
    label = scard_name(card)
    return format_html(
        '<span class="scard s-{}" title="{}" data-card="{}" role="img" aria-label="{}"><b>{}</b>'
        '<svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">{}</svg></span>',
        suit,
        title,
        card,
        label,
        letter,
        mark_safe(MARKS[suit]),
    )


@register.filter
def scard_name(card: str) -> str:
    """A card as words, as a screen reader reads it: "7 of copas", "sota of oros"."""
    rank, suit = _parts(card)
    figure = FIGURES.get(rank, (None, None))[1]
    # Translators: a card of the Spanish deck in words: "7 of copas", "rey of oros".
    return gettext("%(rank)s of %(suit)s") % {"rank": figure or rank, "suit": SUIT_NAMES[suit]}


@register.filter
def scard(card: str) -> str:
    """One card of the Spanish deck, e.g. "6-oros"."""
    return _markup(card, get_language())


@register.simple_tag
def suit_mark(suit: str) -> str:
    return format_html(
        '<svg class="suit" viewBox="0 0 20 20" role="img" aria-label="{}">{}</svg>',
        SUIT_NAMES[suit],
        mark_safe(MARKS[suit]),
    )


@register.filter
def suit_slots(v: dict) -> list[dict]:
    """The four suits of a game of Six as a table lays them out: every rank of the deck
    in order, 6 in the middle, with its card when it is down (the view's `sequences`)."""
    ranks = RANKS[v["options"]["deck"]]
    suits = []
    for suit in v["suits"]:
        sequence = v["sequences"][suit]
        slots = [
            {
                "rank": rank,
                "card": name(rank, suit)
                if sequence and sequence[0] <= rank <= sequence[1]
                else None,
            }
            for rank in ranks
        ]
        suits.append({"suit": suit, "slots": slots})
    return suits


@register.filter
def by_suit(hand: list) -> list[dict]:
    """A hand sorted by suit then rank, grouped by suit (empty suits left out)."""
    groups = []
    for suit in SUITS:
        cards = sorted((card for card in hand if card.endswith(f"-{suit}")), key=sort_key)
        if cards:
            groups.append({"suit": suit, "cards": cards})
    return groups


@register.filter
def plays(v: dict, seats) -> list[dict]:
    """The latest turns of the hand in play, once round the table, newest first: who
    played which card (None: passed), and the turn's number in the hand (`turn`)."""
    names = {seat.position: seat.name for seat in seats}
    turns = v["turns"]
    first = max(0, len(turns) - v["players"])
    latest = list(enumerate(turns[first:], start=first + 1))[::-1]
    return [
        {"name": names.get(who, who), "seat": who, "card": card, "turn": number}
        for number, (who, card) in latest
    ]


@register.filter
def seat_name(position, seats):
    """The name of the seat at `position` ("" for None)."""
    for seat in seats:
        if seat.position == position:
            return seat.name
    return ""


@register.filter
def cards_left(v: dict, seat: int):
    """The cards `seat` had left when the last hand ended (RULES 3.3: only the count is
    public)."""
    last = v.get("last_hand")
    return last["left"][seat] if last else ""


def _hand_end(points: int) -> dict:
    # RULES 3.3: the hand's winner alone gains (5 and the others' cards), having no card
    # left; every other seat loses one point a card left in its hand.
    return {"points": points, "left": 0 if points > 0 else -points, "won": points > 0}


@register.filter
def hand_scores(v: dict, seats) -> dict:
    """A game of Six hand by hand, for its end: the hands' numbers, and one line a
    player, highest total first (as the ranking reads, RULES 3.3), with each hand's cards
    left and points, then the total. The view keeps the points of each finished hand;
    the cards left follow from them."""
    sheet = v["round_scores"]
    lines = [
        {
            "name": seat.name,
            "hands": [_hand_end(points[seat.position]) for points in sheet],
            "total": v["totals"][seat.position],
        }
        for seat in seats
    ]
    lines.sort(key=lambda line: -line["total"])
    return {"hands": range(1, len(sheet) + 1), "lines": lines}
