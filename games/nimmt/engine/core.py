"""The fast core: the placing rules (RULES §1.4) on plain mutable lists, for rollouts.

The public engine (`rules.py`) keeps its state immutable and checks every decision; a
bot that simulates thousands of rounds needs neither. This module is that bare minimum,
and the public engine places its cards with the same `target_row`, so there is one
encoding of §1.4 (`games/nimmt/engine/placing.py`, shared with 6 qui surprend).

Shapes: `rows` is a list of 4 lists of cards (each ascending, last card last);
`penalties` a list of heads per seat; `plays` a list of `(card, seat)` pairs.

    rows = [[12], [37], [43], [58]]
    penalties = [0, 0, 0]
    resolve_turn(rows, [(44, 0), (3, 1), (80, 2)], penalties)   # too-low 3 takes cheapest

Nothing here validates: give it legal input.
"""

from .cards import HAND_SIZE, HEADS, ROW_COUNT, ROW_LIMIT, deck
from .placing import target_row
from .placing import target_row_any as _target_row_any


def too_low(rows, card):
    """True when `card` is lower than the last card of every row (RULES §1.4)."""
    return target_row(rows, card) < 0


def take_row(rows, index, card):
    """The player of `card` takes row `index` whole and `card` starts it again (§1.4).

    Returns the cards taken, for the player's penalty pile.
    """
    taken = rows[index]
    rows[index] = [card]
    return taken


def row_heads(row):
    """Heads a player would take with this row."""
    return sum(map(HEADS.__getitem__, row))


def cheapest_row(rows):
    """The row with the fewest heads, lowest index on a tie: RULES §1.8's fallback choice."""
    best = 0
    best_heads = row_heads(rows[0])
    for index in range(1, len(rows)):
        heads = row_heads(rows[index])
        if heads < best_heads:
            best = index
            best_heads = heads
    return best


def resolve_turn(rows, plays, penalties, choose_row=None):
    """Place one turn's revealed cards, lowest first (RULES §1.3), mutating in place.

    `choose_row(rows, card, seat)` answers for a too-low card, with the rows as they stand
    at that moment (§1.4); without it every player takes the cheapest row (§1.8).
    """
    heads = HEADS.__getitem__
    four = len(rows) == ROW_COUNT
    for card, seat in sorted(plays):
        if four:
            # target_row, unrolled for the four rows: this is the innermost loop of a rollout.
            index = -1
            best = rows[0][-1]
            if best < card:
                index = 0
            else:
                best = 0
            last = rows[1][-1]
            if best < last < card:
                index = 1
                best = last
            last = rows[2][-1]
            if best < last < card:
                index = 2
                best = last
            last = rows[3][-1]
            if best < last < card:
                index = 3
        else:
            index = _target_row_any(rows, card)
        if index < 0:  # too low: its player chooses a row and takes it
            index = cheapest_row(rows) if choose_row is None else choose_row(rows, card, seat)
            penalties[seat] += sum(map(heads, take_row(rows, index, card)))
            continue
        row = rows[index]
        if len(row) == ROW_LIMIT:  # 6 qui prend: the five go to the penalty pile
            penalties[seat] += sum(map(heads, take_row(rows, index, card)))
        else:
            row.append(card)


def deal(rng, players, card_limit=False):
    """A random deal (RULES §1.2): `(rows, hands)` as lists, hands sorted."""
    rows, hands = _deal_in_random_order(rng, players, card_limit)
    for hand in hands:
        hand.sort()
    return rows, hands


def _deal_in_random_order(rng, players, card_limit):
    # A random sample comes in random order, so each hand is also in a random order.
    dealt = rng.sample(deck(players, card_limit), HAND_SIZE * players + ROW_COUNT)
    hands = [dealt[i : i + HAND_SIZE] for i in range(0, HAND_SIZE * players, HAND_SIZE)]
    rows = [[card] for card in dealt[HAND_SIZE * players :]]
    return rows, hands


def play_out(rows, hands, penalties, pick=None, choose_row=None):
    """Play every card left in `hands` (lists, all the same length), mutating everything.

    `pick(seat, hand)` returns the index in `hand` of the card that seat plays; without
    it each seat plays the last card of its hand (shuffle the hands for random play).
    Returns `penalties`.
    """
    seats = range(len(hands))
    while hands[0]:
        if pick is None:
            plays = [(hand.pop(), seat) for seat, hand in zip(seats, hands, strict=True)]
        else:
            plays = [
                (hand.pop(pick(seat, hand)), seat) for seat, hand in zip(seats, hands, strict=True)
            ]
        resolve_turn(rows, plays, penalties, choose_row)
    return penalties


def random_round(rng, players, card_limit=False):
    """Deal and play one whole round at random (too-low cards take the cheapest row);
    returns the heads each seat took. Each seat plays its hand in the random order it
    was dealt, which is uniformly random play."""
    rows, hands = _deal_in_random_order(rng, players, card_limit)
    return play_out(rows, hands, [0] * players)
