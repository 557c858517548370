"""Bots for 6 qui prend !: they answer selections, row choices and draft picks."""

from django.utils.translation import gettext_lazy as _

from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

# (name, label) of each bot, as the table page offers them.
BOT_CHOICES = [
    ("random", _("Random bot")),
    ("heuristic", _("Heuristic bot")),
    ("expert", _("Expert bot")),
]

BOTS = {
    RandomBot.name: RandomBot,
    HeuristicBot.name: HeuristicBot,
    ExpertBot.name: ExpertBot,
}

__all__ = ["BOTS", "ExpertBot", "HeuristicBot", "RandomBot"]
