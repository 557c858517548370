"""The `heuristic` bot: plays by rules of thumb a club player would recognise.

- Selection: estimate, for each card, the heads it risks this turn: a card that would
  be 6th takes its row for sure; a card that fits a shorter row is at risk only if enough
  opponents drop unseen cards into the gap below it first; a too-low card takes the
  cheapest row. Low cards are worth keeping as escapes, so they pay a small premium.
- Row choice: the cheapest row, then the shortest.
- Draft pick: low cards (escapes) and cards next to ones already held (nobody can slip
  a card between two cards of the same hand).
"""

from bisect import bisect_left
from math import comb

from .base import Bot
from .cards import known_hands, row_heads, target_row, unseen_cards

ESCAPE_PREMIUM = 1.0  # heads: what keeping a too-low card for later is worth
FIFTH_CARD_PENALTY = 0.3  # heads: filling a row to 5 invites someone (maybe us) to take it
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
        index = target_row(card, rows)
        if index is None:
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
    draft = view["draft"]
    pool = sorted(draft["pool"])
    mine = {card for seat, card in draft.get("picks", ()) if seat == view["seat"]}
    scores = {}
    for rank, card in enumerate(pool):
        lowness = 1.0 - rank / len(pool)
        neighbours = (card - 1 in mine) + (card + 1 in mine)
        scores[card] = 2.0 * lowness + 1.5 * neighbours
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
