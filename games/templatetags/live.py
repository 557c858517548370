"""Markup of the players' table, the one section sent for every version of a game.

Its rows are built here rather than in the template's loop: within a turn a selection
changes one row (its tick), so each row's markup is kept per process and language
under everything it shows, and the section is joined from them (docs/performance.md).
"""

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

register = template.Library()


@lru_cache(maxsize=4096)
def _row(language, position, name, bot, away, selecting, selected, to_act, cards, heads, total):
    tags = ""
    if bot:
        tags += format_html(' <span class="tag">{}</span>', gettext("bot"))
    if away:
        tags += format_html(' <span class="tag warn">{}</span>', gettext("away"))
    if selecting:
        if selected:
            turn = "✓ " + gettext("chosen")
        else:
            turn = format_html('<span class="muted">{}</span>', gettext("choosing…"))
    elif to_act:
        turn = format_html('<span class="muted">{}</span>', gettext("to play"))
    else:
        turn = ""
    return format_html(
        '<tr data-seat="{}"><td>{}{}</td><td>{}</td><td class="num">{}</td>'
        '<td class="num">{}</td><td class="num">{}</td></tr>',
        position,
        name,
        mark_safe(tags),
        turn,
        cards,
        "?" if heads is None else heads,
        total,
    )


@register.simple_tag
def player_rows(players, phase):
    """One `<tr>` per seat: name (bot, away), this turn's state, cards and heads taken,
    total. `players` as games.rendering's shared context has them."""
    language = get_language()
    selecting = phase == "select"
    return mark_safe(
        "".join(
            _row(
                language,
                p["seat"].position,
                p["seat"].name,
                bool(p["seat"].bot),
                bool(p["seat"].away),
                selecting,
                bool(p["selected"]),
                bool(p["to_act"]),
                p["pile"]["cards"],
                p["pile"]["heads"],
                p["total"],
            )
            for p in players
        )
    )
