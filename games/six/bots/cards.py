"""What a Six bot can work out from its seat's view alone (RULES §3): the playable cards,
the cards nobody has shown yet, and what each opponent's passes prove it does not hold.

Cards are the engine's names ("5-copas"). For the expert's fast play-outs a card is also
an index, `suit * len(ranks) + position of its rank`, and a set of cards a bit mask.
"""

from games.six.engine.cards import OPENING_CARD, RANKS, SIX, SUITS, name, parts

SIX_INDEX = RANKS[40].index(SIX)  # 5 in both decks: 1..5 come first


def ranks(view: dict) -> tuple[int, ...]:
    return RANKS[view["options"]["deck"]]


def all_cards(view: dict) -> list[str]:
    """Every card of the view's deck, in deck order."""
    return [name(rank, suit) for suit in SUITS for rank in ranks(view)]


def table_of(view: dict) -> list[tuple[int, int] | None]:
    """Per suit, (lowest, highest) rank on the table, or None while its 6 is not down."""
    return [tuple(view["sequences"][suit]) if view["sequences"][suit] else None for suit in SUITS]


def open_cards(table, deck_ranks, first_of_game=False) -> set[str]:
    """Every card that could be played on `table` (RULES 3.2): each suit's next card at
    either end, or its 6 while it is not down; only the 6 of oros to open the game."""
    if first_of_game:
        return {OPENING_CARD}
    cards = set()
    for index, suit in enumerate(SUITS):
        sequence = table[index]
        if sequence is None:
            cards.add(name(SIX, suit))
            continue
        low, high = deck_ranks.index(sequence[0]), deck_ranks.index(sequence[1])
        if low > 0:
            cards.add(name(deck_ranks[low - 1], suit))
        if high < len(deck_ranks) - 1:
            cards.add(name(deck_ranks[high + 1], suit))
    return cards


def first_of_game(view: dict) -> bool:
    return view["round"] == 1 and not view["turns"]


def playable(view: dict) -> list[str]:
    """The cards of the seat's own hand it may play now, in deck order."""
    table = table_of(view)
    can = open_cards(table, ranks(view), first_of_game(view))
    return [card for card in view["hand"] if card in can]


def my_turn(view: dict) -> bool:
    seat = view.get("seat")
    return (
        seat is not None
        and view["phase"] == "select"
        and seat in view["to_act"]
        and bool(view.get("hand"))
    )


def unseen(view: dict) -> list[str]:
    """Cards neither in the seat's hand nor on the table: they are in the other hands."""
    mine = set(view["hand"])
    down = set(view["seen"])
    return [card for card in all_cards(view) if card not in mine and card not in down]


def passes_exclude(view: dict) -> dict[int, set[str]]:
    """Per opponent, the cards it cannot hold: a seat passes only when none of its cards
    is playable (RULES 3.5), and it still holds only cards it held when it passed."""
    deck_ranks = ranks(view)
    table = [None] * len(SUITS)
    excluded: dict[int, set[str]] = {}
    for played, (seat, card) in enumerate(view["turns"]):
        if card is None:
            first = view["round"] == 1 and played == 0
            excluded.setdefault(seat, set()).update(open_cards(table, deck_ranks, first))
            continue
        suit, rank = parts(card)
        sequence = table[suit]
        table[suit] = (min(sequence[0], rank), max(sequence[1], rank)) if sequence else (rank, rank)
    excluded.pop(view["seat"], None)
    return excluded
