"""`six_heuristic`: rules of thumb for Six (RULES §3).

A card played opens the way for the cards behind it in its suit (below a low card, above
a high one, both ways for a 6). Those cards are either the bot's own (it will have to
play them: better open the way now) or somebody else's (opening the way helps them: a
card that keeps them waiting is a block). So each playable card is scored by
- its run: how many of its suit's next cards in that direction the bot holds in a row
  (it can keep playing them without waiting for anyone), counted twice;
- plus the bot's own cards behind it, minus the others' cards behind it.
The highest score is played; 6s and cards that hold back many others' cards are kept.
Ties go to a seeded random choice.
"""

import random

from games.bots.base import Bot, decision_seed
from games.six.engine.cards import parts

from .cards import ranks
from .random_bot import legal_decisions

RUN_WEIGHT = 2


def behind(card: str, deck_ranks) -> list[list[int]]:
    """The ranks the card opens the way to, per direction, nearest first."""
    position = deck_ranks.index(parts(card)[1])
    below = list(reversed(deck_ranks[:position]))
    above = list(deck_ranks[position + 1 :])
    if parts(card)[1] == 6:
        return [below, above]
    return [below] if position < deck_ranks.index(6) else [above]


def card_score(card: str, hand: set, deck_ranks) -> float:
    suit = parts(card)[0]
    mine_ranks = {parts(held)[1] for held in hand if parts(held)[0] == suit}
    run = mine = theirs = 0
    for direction in behind(card, deck_ranks):
        held = [rank in mine_ranks for rank in direction]
        ahead = 0
        while ahead < len(held) and held[ahead]:
            ahead += 1
        run += ahead
        mine += sum(held)
        theirs += len(held) - sum(held)
    return RUN_WEIGHT * run + mine - theirs


def scores(view: dict) -> dict[str, float]:
    """The score of each playable card (higher: play it sooner)."""
    choices = legal_decisions(view)  # raises NothingToDecide when it is not our turn
    deck_ranks = ranks(view)
    hand = set(view["hand"])
    return {choice["card"]: card_score(choice["card"], hand, deck_ranks) for choice in choices}


class SixHeuristicBot(Bot):
    name = "six_heuristic"

    def decide(self, view: dict) -> dict:
        scored = scores(view)
        best = max(scored.values())
        cards = [card for card, score in scored.items() if score == best]
        card = random.Random(decision_seed(self.seed, view)).choice(cards)
        return {"type": "select", "card": card}
