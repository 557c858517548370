"""`surprise_random`: a uniformly random legal decision, from the view alone."""

import random

from games.bots.base import Bot, decision_seed

from .legal import legal_decisions


class SurpriseRandomBot(Bot):
    name = "surprise_random"

    def decide(self, view: dict) -> dict:
        choices = legal_decisions(view)
        return random.Random(decision_seed(self.seed, view)).choice(choices)
