"""`six_random`: a uniformly random playable card."""

import random

from games.bots.base import Bot, NothingToDecide, decision_seed

from .cards import my_turn, playable


def legal_decisions(view: dict) -> list[dict]:
    """Every decision the seat may make, from its view alone (the engine's `legal`)."""
    if not my_turn(view):
        raise NothingToDecide(f"seat {view.get('seat')} has nothing to decide now")
    return [{"type": "select", "card": card} for card in playable(view)]


class SixRandomBot(Bot):
    name = "six_random"

    def decide(self, view: dict) -> dict:
        choices = legal_decisions(view)
        return random.Random(decision_seed(self.seed, view)).choice(choices)
