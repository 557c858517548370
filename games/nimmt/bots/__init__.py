"""Bots for 6 qui prend !: they answer selections, row choices and draft picks."""

from django.utils.translation import gettext_lazy as _

from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

# (name, label) of each bot, strongest first (games.kinds.Kind.bot_choices).
BOT_CHOICES = [
    ("expert", _("Expert bot")),
    ("heuristic", _("Heuristic bot")),
    ("random", _("Random bot")),
]
# What each bot is, as the table page's picker says it after its label.
BOT_NOTES = {
    "expert": _("the strongest: thinks ahead"),
    "heuristic": _("plays by simple rules"),
    "random": _("the weakest: plays at random"),
}

BOTS = {
    RandomBot.name: RandomBot,
    HeuristicBot.name: HeuristicBot,
    ExpertBot.name: ExpertBot,
}

__all__ = ["BOT_CHOICES", "BOT_NOTES", "BOTS", "ExpertBot", "HeuristicBot", "RandomBot"]
