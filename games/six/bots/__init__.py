"""Bots for Six (RULES §3): decision policies that see only their seat's `view`.

    bot = BOTS["six_expert"](seed=7)
    decision = bot.decide(six_engine.view(state, seat))   # {"type": "select", "card": "5-oros"}

- `six_random`: a uniformly random playable card.
- `six_heuristic`: keeps the cards that block others (6s, cards that many others' cards
  wait for) and plays from its longest runs first.
- `six_expert`: determinized Monte Carlo over the unseen cards, on a fixed budget.

Each is deterministic given its seed: the same seed and view always give the same card.
"""

from django.utils.translation import gettext_lazy as _

from .expert import SixExpertBot
from .heuristic import SixHeuristicBot
from .random_bot import SixRandomBot, legal_decisions

BOTS = {
    SixRandomBot.name: SixRandomBot,
    SixHeuristicBot.name: SixHeuristicBot,
    SixExpertBot.name: SixExpertBot,
}

# (name, label) of each bot, strongest first (games.kinds.Kind.bot_choices).
BOT_CHOICES = [
    ("six_expert", _("Expert bot")),
    ("six_heuristic", _("Heuristic bot")),
    ("six_random", _("Random bot")),
]
# What each bot is, as the table page's picker says it after its label.
BOT_NOTES = {
    "six_expert": _("the strongest: thinks ahead"),
    "six_heuristic": _("plays by simple rules"),
    "six_random": _("the weakest: plays at random"),
}

__all__ = [
    "BOTS",
    "BOT_CHOICES",
    "BOT_NOTES",
    "SixExpertBot",
    "SixHeuristicBot",
    "SixRandomBot",
    "legal_decisions",
]
