"""The test game's only bot: any card of its hand, chosen from its seed and its view."""

import random

from games.bots.base import decision_seed


class RandomBot:
    name = "highcard-random"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def decide(self, view: dict) -> dict:
        rng = random.Random(decision_seed(self.seed, view))
        return {"type": "select", "card": rng.choice(view["hand"])}
