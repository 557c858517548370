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

BOT_CHOICES = [
    ("six_random", _("Random bot")),
    ("six_heuristic", _("Heuristic bot")),
    ("six_expert", _("Expert bot")),
]

__all__ = [
    "BOTS",
    "BOT_CHOICES",
    "SixExpertBot",
    "SixHeuristicBot",
    "SixRandomBot",
    "legal_decisions",
]
