from django import template

from chat.rendering import panel_context

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_context(context, table=None):
    """The chat of `table` (none, as on the lobby page: the lobby's) as the page's user
    sees it."""
    return panel_context(context["user"], table.pk if table else None)
