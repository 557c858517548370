"""The `random` bot: a uniformly random legal decision."""

import random

from games.bots.base import Bot, decision_seed, legal_decisions


class RandomBot(Bot):
    name = "random"

    def decide(self, view: dict) -> dict:
        choices = legal_decisions(view)
        return random.Random(decision_seed(self.seed, view)).choice(choices)
