"""The `heuristic` bot: plays by rules of thumb a club player would recognise.

- Selection: estimate, for each card, the heads it risks this turn: a card that would
  be 6th takes its row for sure; a card that fits a shorter row is at risk only if enough
  opponents drop unseen cards into the gap below it first; a too-low card takes the
  cheapest row. Low cards are worth keeping as escapes, so they pay a small premium.
- Row choice: the cheapest row, then the shortest.
- Draft pick: cards a little below the middle of the deck, and cards next to ones
  already held (nobody can slip a card between two cards of the same hand).
"""

from bisect import bisect_left
from math import comb

from games.bots.base import Bot

from .cards import cards_in_play, known_hands, row_heads, target_row, unseen_cards

ESCAPE_PREMIUM = 1.0  # heads: what keeping a too-low card for later is worth
FIFTH_CARD_PENALTY = 0.3  # heads: filling a row to 5 invites someone (maybe us) to take it
SAFEST_PLACE = 0.38  # where in the deck in play cards are taken least (random play, 4 seats)
GAP_PENALTY = 0.01  # heads per card of gap: play snug cards while they are still safe


def chance_at_least(need: int, tries: int, p: float) -> float:
    """P(X >= need) for X ~ Binomial(tries, p)."""
    if need <= 0:
        return 1.0
    if need > tries or p <= 0.0:
        return 0.0
    return sum(comb(tries, k) * p**k * (1 - p) ** (tries - k) for k in range(need, tries + 1))


def selection_costs(view: dict) -> dict[int, float]:
    """Expected heads (plus small preferences) of playing each card of the hand now."""
    rows = view["rows"]
    hand = sorted(view["hand"])
    opponents = view["players"] - 1
    known = known_hands(view)
    if known:
        unseen = sorted(card for cards in known.values() for card in cards)
    else:
        unseen = sorted(unseen_cards(view))
    cheapest = min(row_heads(row) for row in rows)
    costs = {}
    for card in hand:
        index = target_row(rows, card)
        if index < 0:
            costs[card] = cheapest + ESCAPE_PREMIUM
            continue
        row = rows[index]
        need = 5 - len(row)  # opponents' cards that must land first for ours to be 6th
        gap = bisect_left(unseen, card) - bisect_left(unseen, row[-1])
        p = gap / len(unseen) if unseen else 0.0
        risk = chance_at_least(need, opponents, p)
        cost = risk * (row_heads(row) + 1.2 * need)
        if need == 1:
            cost += (1 - risk) * FIFTH_CARD_PENALTY * row_heads(row)
        costs[card] = cost + GAP_PENALTY * (card - row[-1])
    return costs


def cheapest_rows(rows: list[list[int]]) -> list[int]:
    return sorted(range(len(rows)), key=lambda i: (row_heads(rows[i]), len(rows[i]), i))


def draft_scores(view: dict) -> dict[int, float]:
    """Higher is better. Cards a little below the middle of the deck in play get taken least
    (extreme cards are too low or land 6th far more often), and a card next to one already
    held is safer: nobody can slip a card between the two."""
    draft = view["draft"]
    in_play = cards_in_play(view)
    low, span = in_play[0], max(in_play[-1] - in_play[0], 1)
    mine = {card for seat, card in draft.get("picks", ()) if seat == view["seat"]}
    scores = {}
    for card in draft["pool"]:
        place = (card - low) / span
        neighbours = (card - 1 in mine) + (card + 1 in mine)
        scores[card] = -3.0 * abs(place - SAFEST_PLACE) + 1.0 * neighbours
    return scores


class HeuristicBot(Bot):
    name = "heuristic"

    def select(self, view: dict) -> int:
        costs = selection_costs(view)
        return min(costs, key=lambda card: (costs[card], card))

    def choose_row(self, view: dict) -> int:
        return cheapest_rows(view["rows"])[0]

    def pick(self, view: dict) -> int:
        scores = draft_scores(view)
        return max(scores, key=lambda card: (scores[card], -card))
