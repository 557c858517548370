"""The Spanish deck of Six (RULES §3.1) and the names of its cards (§3.5).

A card is a short string `rank-suit`, e.g. "6-oros" or "10-copas" (sota): the name the
record uses (RULES §4.3), the view shows and a decision carries. Ranks are 1–7, 8 and 9
(48-card deck only), 10 (sota), 11 (caballo), 12 (rey).
"""

SUITS = ("oros", "copas", "espadas", "bastos")  # also the fallback's suit order (§3.5)
RANKS = {
    40: (1, 2, 3, 4, 5, 6, 7, 10, 11, 12),
    48: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
}
SIX = 6  # every sequence starts with its 6 (RULES 3.2)
OPENING_CARD = "6-oros"  # opens hand 1 (RULES 3.2, 3.5)


def name(rank, suit):
    return f"{rank}-{suit}"


# Every card of the 48-card deck, as (suit index, rank); the 40-card deck is a subset.
_PARTS = {name(rank, suit): (index, rank) for index, suit in enumerate(SUITS) for rank in RANKS[48]}


def parts(card):
    """`(suit index, rank)` of a card name; KeyError when it names no card."""
    return _PARTS[card]


def is_card(card, deck_size):
    """Whether `card` names a card of the deck of `deck_size` (40 or 48) cards."""
    if type(card) is not str or card not in _PARTS:
        return False
    return _PARTS[card][1] in RANKS[deck_size]


def sort_key(card):
    """Deck order: by suit (oros, copas, espadas, bastos), then by rank."""
    return _PARTS[card]


def deck(deck_size):
    """Every card of the deck of `deck_size` cards, in deck order."""
    return _DECKS[deck_size]


_DECKS = {
    size: tuple(name(rank, suit) for suit in SUITS for rank in ranks)
    for size, ranks in RANKS.items()
}

# Neighbours in a suit's playing sequence (RULES 3.5): 1–2 … 6–7, then 7–sota with 40
# cards, or 7–8, 8–9, 9–sota with 48. Rey and 1 are not neighbours.
LOWER = {size: dict(zip(ranks[1:], ranks[:-1], strict=True)) for size, ranks in RANKS.items()}
HIGHER = {size: dict(zip(ranks[:-1], ranks[1:], strict=True)) for size, ranks in RANKS.items()}
