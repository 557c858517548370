"""The markup of one card, shared by the live table and the replay.

A filter rather than an `{% include %}`: a table frame shows some thirty cards, and an
include costs a template lookup and a context push each (docs/performance.md §5).
"""

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext

register = template.Library()


@lru_cache(maxsize=64)
def _heads_label(language: str, heads: int) -> str:
    # Five head counts a language: looked up once, not for every card of every frame.
    return ngettext("%(n)s head", "%(n)s heads", heads) % {"n": heads}


@lru_cache(maxsize=512)
def _card_markup(language: str, number: int, heads: int) -> str:
    # 104 cards a language: each one's markup is built once per process and language.
    return format_html(
        '<span class="card h{}" title="{}"><b>{}</b><small aria-label="{}">{}</small></span>',
        heads,
        number,
        number,
        _heads_label(language, heads),
        "●" * heads,
    )


@register.filter
def card(face: dict) -> str:
    """`face` is {"number": n, "heads": h} (games.rendering.card_faces)."""
    return _card_markup(get_language(), face["number"], face["heads"])


@register.simple_tag
def cards(faces):
    """Several cards side by side (a row, a picked-up pile): one tag instead of a loop of
    filters, which cost a template node each."""
    language = get_language()
    return mark_safe("".join(_card_markup(language, f["number"], f["heads"]) for f in faces))


@register.simple_tag
def hand_cards(hand, can_select, my_selection, version):
    """The cards of a seat's hand: buttons that send a selection (`ws-send`) while it may
    choose, each with the version it is chosen at; the plain cards otherwise. The markup
    of the `hand` partial's loop, built here: it is rendered for every selection."""
    if not can_select:
        return cards(hand)
    language = get_language()
    version = int(version)
    buttons = []
    for face in hand:
        number = int(face["number"])
        chosen = number == my_selection
        buttons.append(
            f'<button class="cardbtn{" chosen" if chosen else ""}" ws-send hx-vals=\'{{"type": '
            f'"select", "card": {number}, "version": {version}, "id": "v{version}s{number}"}}\' '
            f'aria-pressed="{"true" if chosen else "false"}">'
            f"{_card_markup(language, number, face['heads'])}</button>"
        )
    return mark_safe("".join(buttons))
