"""Reproducible deals of Six: the cards of hand h follow from (seed, h) alone.

Randomness comes from a SHAKE-256 stream keyed by the game's seed and the hand number
(as for 6 qui prend !: a standard hash, stable across Python versions and processes).
Every choice among m things is exactly uniform: a 64-bit word at or above the largest
multiple of m below 2**64 is skipped and the next word used (this happens with a
probability below m / 2**64; it never rejects a whole deal).

Two deals (RULES §3.1, §3.4, §3.5):

- `deal`: the deck shuffled (Fisher–Yates) and dealt one card at a time, the first card
  to seat `first`; the extra cards of an uneven deal go to the seats dealt first.
- `balanced_deal` (4 players): each seat gets one card of each rank and never two
  neighbours of one suit's sequence. Drawn exactly as §3.5 says: a uniformly random
  suit-to-seat assignment for the first rank, then for each next rank one of the 9
  assignments that give no seat the suit it got at the previous rank, uniformly.
"""

import hashlib
import itertools
import struct

from .cards import LOWER, RANKS, SUITS, deck, name, parts

_WORD = 1 << 64


class Stream:
    """Exactly uniform choices from the SHAKE-256 stream of `key`."""

    __slots__ = ("key", "words", "used")

    def __init__(self, key, expected=64):
        self.key = key.encode()
        self.words = self._read(expected)
        self.used = 0

    def _read(self, count):
        return struct.unpack(f"<{count}Q", hashlib.shake_256(self.key).digest(8 * count))

    def below(self, m):
        """A whole number in 0 .. m - 1, each with probability exactly 1 / m."""
        limit = _WORD - _WORD % m
        while True:
            if self.used == len(self.words):
                # SHAKE is an extendable output: a longer digest starts with the shorter one.
                self.words = self._read(2 * len(self.words))
            word = self.words[self.used]
            self.used += 1
            if word < limit:
                return word % m


def hand_key(seed, hand_no):
    """The stream key of hand `hand_no` (1-based) of the game of `seed`."""
    return f"six/{seed}/{hand_no}/deal"


def first_dealt(hand_no, players):
    """RULES 3.5: hand h (counting from 0) is dealt starting with seat h mod n."""
    return (hand_no - 1) % players


def hand_sizes(deck_size, players, first):
    """How many cards each seat is dealt: the `extra` seats from `first` on get one more."""
    base, extra = divmod(deck_size, players)
    return [base + ((seat - first) % players < extra) for seat in range(players)]


def deal(stream, deck_size, players, first):
    """The whole deck shuffled and dealt one at a time from seat `first` (RULES 3.1, 3.5)."""
    cards = list(deck(deck_size))
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    hands = [[] for _ in range(players)]
    for i, card in enumerate(cards):
        hands[(first + i) % players].append(card)
    return hands


# --- the balanced deal (RULES 3.4, 3.5) ------------------------------------------------

# An assignment of one rank gives seat k the suit ASSIGNMENTS[a][k]: the 24 permutations.
ASSIGNMENTS = tuple(itertools.permutations(range(len(SUITS))))
# The assignments that may follow `a` at the next rank: no seat gets the same suit again
# (that would be two neighbours of one suit). Always 9, the derangements of 4.
FOLLOWERS = tuple(
    tuple(
        b
        for b, after in enumerate(ASSIGNMENTS)
        if all(x != y for x, y in zip(before, after, strict=True))
    )
    for before in ASSIGNMENTS
)
assert all(len(followers) == 9 for followers in FOLLOWERS)

# Card names by (suit index, rank), so a deal builds no strings.
_NAMES = {(index, rank): name(rank, suit) for index, suit in enumerate(SUITS) for rank in RANKS[48]}


def balanced_assignments(stream, ranks_count):
    """The assignment index of each rank, in sequence order, uniform among valid deals."""
    current = stream.below(len(ASSIGNMENTS))
    chosen = [current]
    for _ in range(ranks_count - 1):
        current = FOLLOWERS[current][stream.below(9)]
        chosen.append(current)
    return chosen


def balanced_deal(stream, ranks):
    """Four hands, one card of each of `ranks` (in sequence order) per seat, no seat holding
    two neighbours of one suit; every such deal equally likely (24 × 9**(len(ranks) - 1))."""
    hands = [[], [], [], []]
    for rank, index in zip(ranks, balanced_assignments(stream, len(ranks)), strict=True):
        suits = ASSIGNMENTS[index]
        hands[0].append(_NAMES[suits[0], rank])
        hands[1].append(_NAMES[suits[1], rank])
        hands[2].append(_NAMES[suits[2], rank])
        hands[3].append(_NAMES[suits[3], rank])
    return hands


def balance_fault(hands, deck_size):
    """Why `hands` (a deal of the whole deck) is not balanced (RULES 3.4), or None.

    Returns `(seat, reason)` for the first seat at fault.
    """
    ranks = RANKS[deck_size]
    lower = LOWER[deck_size]
    for seat, hand in enumerate(hands):
        held = [parts(card) for card in hand]
        got = sorted(rank for _, rank in held)
        if got != list(ranks):
            return seat, "a balanced hand holds exactly one card of each rank"
        mine = set(held)
        for suit, rank in held:
            below = lower.get(rank)
            if below is not None and (suit, below) in mine:
                return seat, (
                    f"a balanced hand never holds two neighbours of one suit, "
                    f"but this one holds {name(below, SUITS[suit])} and {name(rank, SUITS[suit])}"
                )
    return None
