"""What the lobby's list says of a table's game: its name and the one-line summary of its
options, each from the game's registration (games.kinds), so the list names no game."""

from django import template

from games import kinds

register = template.Library()


@register.filter
def game_label(table) -> str:
    """The game's name as players read it; a game no longer registered, by its kind."""
    try:
        return kinds.get(table.kind).label
    except KeyError:
        return table.kind


@register.filter
def options_summary(table) -> str:
    """The game's own summary of the table's options ("to 66 heads"), or ""."""
    try:
        summary = kinds.get(table.kind).summary
    except KeyError:
        return ""
    return summary(table.options) if summary is not None else ""
