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

# (name, label) of each bot, strongest first (games.kinds.Kind.bot_choices).
BOT_CHOICES = [
    ("surprise_expert", _("Expert bot")),
    ("surprise_heuristic", _("Heuristic bot")),
    ("surprise_random", _("Random bot")),
]
# What each bot is, as the table page's picker says it after its label.
BOT_NOTES = {
    "surprise_expert": _("the strongest: thinks ahead"),
    "surprise_heuristic": _("plays by simple rules"),
    "surprise_random": _("the weakest: plays at random"),
}

__all__ = [
    "BOTS",
    "BOT_CHOICES",
    "BOT_NOTES",
    "SurpriseExpertBot",
    "SurpriseHeuristicBot",
    "SurpriseRandomBot",
    "awaited",
    "legal_decisions",
]
