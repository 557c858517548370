"""The 104 cards and their heads (RULES §1.1), and which of them a table plays with (§1.7)."""

LOWEST = 1
HIGHEST = 104
HAND_SIZE = 10  # RULES 1.2: ten cards each, so a round lasts ten turns (1.5)
ROW_COUNT = 4  # RULES 1.2
ROW_LIMIT = 5  # RULES 1.4: the 6th card takes the five before it


def _printed_heads(card):
    # RULES 1.1: the order matters, 55 is both a multiple of 11 and of 5.
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


# Looked up on every placement, so a table beats recomputing; index 0 is no card.
HEADS = (0,) + tuple(_printed_heads(card) for card in range(LOWEST, HIGHEST + 1))


def heads(card):
    """The penalty heads printed on `card` (RULES §1.1)."""
    return HEADS[card]


def deck_size(players, card_limit):
    """How many cards a round uses: all 104, or 10 × players + 4 with `card_limit` (§1.7)."""
    return HAND_SIZE * players + ROW_COUNT if card_limit else HIGHEST


# Decks are immutable tuples 1..n; built once so a deal never rebuilds them.
_DECKS = {size: tuple(range(LOWEST, size + 1)) for size in range(24, HIGHEST + 1)}


def deck(players, card_limit):
    """The cards in play, ascending: 1..104, or 1..(10 × players + 4) with `card_limit`."""
    return _DECKS[deck_size(players, card_limit)]
