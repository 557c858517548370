"""Reproducible deals: the cards of a round follow from (seed, round) alone.

A game must replay exactly from its seed, anywhere and on any Python version, and a
round's deal must not depend on how the rounds before it were played (docs/engines.md).
So each round draws its cards from a SHAKE-256 stream keyed by the game's seed and the
round number: a standard hash, stable across versions and processes (unlike `hash`), and
cheaper than seeding a Mersenne Twister for every round.
"""

import hashlib
import struct


def draw(key, cards, count):
    """`count` cards taken at random from `cards`, in the order they were drawn.

    A partial Fisher-Yates shuffle driven by 64-bit words of the stream; reducing a word
    modulo at most 104 favours no card by more than 104 / 2**64, far below anything a
    table could ever notice.
    """
    words = struct.unpack(f"<{count}Q", hashlib.shake_256(key.encode()).digest(8 * count))
    cards = list(cards)
    size = len(cards)
    for i, word in enumerate(words):
        j = i + word % (size - i)  # one of the cards not drawn yet, positions i .. size - 1
        cards[i], cards[j] = cards[j], cards[i]
    return cards[:count]


def round_key(seed, round_no, purpose):
    """The stream key of one round's draw: `purpose` is "deal" or "rows" (after a draft)."""
    return f"nimmt/{seed}/{round_no}/{purpose}"
