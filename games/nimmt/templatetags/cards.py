"""The markup of one card, shared by the live table and the replay.

A filter rather than an `{% include %}`: a table frame shows some thirty cards, and an
include costs a template lookup and a context push each (docs/performance.md §5). The
markup of a card is the same for every game version, so it is built once per card and
language; everything else of a frame is in the kind's templates.
"""

from functools import lru_cache

from django import template
from django.template.loader import get_template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext

from games.rendering import Kept

register = template.Library()


@lru_cache(maxsize=64)
def _heads_label(language: str, heads: int) -> str:
    # Five head counts a language: looked up once, not for every card of every frame.
    return ngettext("%(n)s head", "%(n)s heads", heads) % {"n": heads}


@lru_cache(maxsize=512)
def _card_markup(language: str, number: int, heads: int) -> str:
    # 104 cards a language: each one's markup is built once per process and language.
    # A screen reader reads the card as one picture named "93, 1 head" (the heads are
    # drawn as dots); its text stays the number and the dots.
    return format_html(
        '<span class="card h{}" title="{}" role="img" aria-label="{}"><b>{}</b>'
        "<small>{}</small></span>",
        heads,
        number,
        _card_label(language, number, heads),
        number,
        "●" * heads,
    )


@lru_cache(maxsize=512)
def _card_label(language: str, number: int, heads: int) -> str:
    # Translators: a 6 qui prend ! card as a screen reader reads it: "93, 1 head".
    return gettext("%(card)s, %(heads)s") % {"card": number, "heads": _heads_label(language, heads)}


@register.simple_tag
def row_label(number: int, faces, heads: int) -> str:
    """What a screen reader reads for a row of the board: "Row 1: 60, 93; 4 heads"."""
    numbers = ", ".join(str(face["number"]) for face in faces)
    return ngettext(
        "Row %(n)s: %(cards)s; %(heads)s head", "Row %(n)s: %(cards)s; %(heads)s heads", heads
    ) % {"n": number, "cards": numbers, "heads": heads}


@register.filter
def card(face: dict) -> str:
    """`face` is {"number": n, "heads": h} (games.nimmt.kind.card_faces)."""
    return _card_markup(get_language(), face["number"], face["heads"])


@register.simple_tag
def cards(faces):
    """Several cards side by side (a row, a picked-up pile): one tag instead of a loop of
    filters, which cost a template node each."""
    language = get_language()
    return mark_safe("".join(_card_markup(language, f["number"], f["heads"]) for f in faces))


@register.simple_tag
def select_buttons(faces, selection, version):
    """The hand's cards as buttons to select (RULES 1.3), the selected one pressed: one tag
    for the loop, written out, as it is drawn for every seat at every decision point. Each
    button sends its card with the version shown and an id unique to both (a resend is
    applied once: docs/protocol.md)."""
    language = get_language()
    version = int(version)
    buttons = []
    for face in faces:
        number = int(face["number"])
        chosen = number == selection
        buttons.append(
            f'<button class="cardbtn{" chosen" if chosen else ""}" ws-send hx-trigger="confirm"'
            f' hx-vals=\'{{"type": "select", "card": {number}, "version": {version},'
            f' "id": "v{version}s{number}"}}\' data-card="{number}"'
            f' aria-pressed="{"true" if chosen else "false"}">'
            f"{_card_markup(language, number, face['heads'])}</button>"
        )
    return mark_safe("".join(buttons))


# Turns of the log rendered, by language and content: a finished turn never changes, and
# every whole frame shows all the turns of the round.
_turns = Kept(4096)


@register.simple_tag
def log_turn(entry):
    """One turn of the log (the `log_turn` partial of games/nimmt/live.html), rendered once
    per process and language for what it shows (games.nimmt.kind.turn_log's entry)."""
    plays = tuple(
        (
            play["seat"],
            str(play["name"]),
            play["card"]["number"],
            play["row"],
            tuple(face["number"] for face in play["took"] or ()),
            play["heads"],
            play["computer"],
        )
        for play in entry["plays"]
    )
    return _turns.get_or_render(
        (get_language(), plays),
        lambda: get_template("games/nimmt/live.html#log_turn").render({"entry": entry}),
    )
