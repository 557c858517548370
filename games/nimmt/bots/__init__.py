"""Bots for 6 qui prend !: they answer selections, row choices and draft picks."""

from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

BOTS = {
    RandomBot.name: RandomBot,
    HeuristicBot.name: HeuristicBot,
    ExpertBot.name: ExpertBot,
}

__all__ = ["BOTS", "ExpertBot", "HeuristicBot", "RandomBot"]
