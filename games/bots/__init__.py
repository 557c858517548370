"""Bots for 6 qui prend !: decision policies that see only their seat's `view`.

    bot = get_bot("expert", seed=7)
    decision = bot.decide(engine.view(state, seat))   # {"type": "select", "card": 44}, ...

Every bot answers selections, row choices and draft picks, and is deterministic given
its seed: the same seed and view always give the same decision.
"""

from .base import Bot, NothingToDecide, legal_decisions
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

BOTS: dict[str, type[Bot]] = {
    RandomBot.name: RandomBot,
    HeuristicBot.name: HeuristicBot,
    ExpertBot.name: ExpertBot,
}


def get_bot(name: str, *, seed: int = 0) -> Bot:
    """A new bot named `name`, of whichever game registered it (games/kinds.py; a seat
    keeps only the name). Raises KeyError naming the known bots."""
    # Imported here: games.kinds registers this package's BOTS, so it imports it first.
    from games import kinds

    return kinds.bot_class(name)(seed=seed)


__all__ = ["BOTS", "Bot", "NothingToDecide", "get_bot", "legal_decisions"]
