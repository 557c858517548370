"""The canned messages: a key travels and is stored, each reader sees it in their language."""

from django.utils.translation import gettext_lazy as _

CANNED = {
    "hello": _("Hello!"),
    "good_game": _("Have a good game"),
    "well_played": _("Well played!"),
    "ouch": _("Ouch"),
    "thanks": _("Thanks"),
    "sorry": _("Sorry!"),
    "one_moment": _("One moment, please"),
    "bye": _("Bye!"),
}
