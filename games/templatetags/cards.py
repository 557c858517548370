"""The markup of one card, shared by the live table and the replay.

A filter rather than an `{% include %}`: a table frame shows some thirty cards, and an
include costs a template lookup and a context push each (docs/performance.md §5).
"""

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.translation import get_language, ngettext

register = template.Library()


@lru_cache(maxsize=64)
def _heads_label(language: str, heads: int) -> str:
    # Five head counts a language: looked up once, not for every card of every frame.
    return ngettext("%(n)s head", "%(n)s heads", heads) % {"n": heads}


@register.filter
def card(face: dict) -> str:
    """`face` is {"number": n, "heads": h} (games.rendering.card_faces)."""
    heads = face["heads"]
    label = _heads_label(get_language(), heads)
    return format_html(
        '<span class="card h{}" title="{}"><b>{}</b><small aria-label="{}">{}</small></span>',
        heads,
        face["number"],
        face["number"],
        label,
        "●" * heads,
    )
