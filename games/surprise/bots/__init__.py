"""Bots for 6 qui surprend (RULES §2): decision policies that see only their seat's view.

    bot = BOTS["surprise_expert"](seed=7)
    decision = bot.decide(engine.get("surprise").view(state, seat))

- `surprise_random`: a uniformly random legal decision.
- `surprise_heuristic`: a 6 qui prend ! heuristic for the cards, and specials where they
  obviously save heads.
- `surprise_expert`: determinized Monte Carlo over the unseen number cards and specials.

Every bot answers the selection (with a special or not) and every prompt of the engine,
and is deterministic given its seed: the same seed and view always give the same answer.
"""

from django.utils.translation import gettext_lazy as _

from .expert import SurpriseExpertBot
from .heuristic import SurpriseHeuristicBot
from .legal import awaited, legal_decisions
from .random_bot import SurpriseRandomBot

BOTS = {
    SurpriseRandomBot.name: SurpriseRandomBot,
    SurpriseHeuristicBot.name: SurpriseHeuristicBot,
    SurpriseExpertBot.name: SurpriseExpertBot,
}

BOT_CHOICES = [
    ("surprise_random", _("Random bot")),
    ("surprise_heuristic", _("Heuristic bot")),
    ("surprise_expert", _("Expert bot")),
]

__all__ = [
    "BOTS",
    "BOT_CHOICES",
    "SurpriseExpertBot",
    "SurpriseHeuristicBot",
    "SurpriseRandomBot",
    "awaited",
    "legal_decisions",
]
