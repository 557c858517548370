"""What the admin's index tells a league's admins first: players waiting to join."""

from django import template

from leagues import selectors

register = template.Library()


@register.simple_tag
def waiting_to_join(user) -> int:
    """How many players ask to join the leagues this user runs."""
    if not user.is_authenticated or not user.is_staff:
        return 0
    return selectors.waiting_to_join(user).count()
