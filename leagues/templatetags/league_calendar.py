from django import template

from leagues import ical

register = template.Library()


@register.simple_tag
def league_calendar_url(league) -> str:
    """The league's calendar feed, with its secret for a members-only league: only for
    pages shown to those who may read the league."""
    return ical.calendar_url(league)
