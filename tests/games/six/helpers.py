"""Building Six games for the tests: chosen deals, and games played to the end."""

import random

from games.six import engine as six
from games.six.engine.rules import with_deal


def dealt(hands, *, options=None, seed=0):
    """A game whose first hand is `hands` (lists of card names), ready for its first turn."""
    state = six.new_game(players=len(hands), options=options or {}, seed=seed)
    state, _ = with_deal(state, hands)
    return state


def play(state, seat, card):
    """Play `card` for `seat`; returns (state, events)."""
    return six.apply(state, seat, {"type": "select", "card": card})


def play_out(state, rng=None, until=None):
    """Play random legal cards until the game is over (or `until(state)` holds)."""
    rng = rng or random.Random(0)
    while not six.is_over(state) and not (until and until(state)):
        seat = six.to_act(state)[0]
        state, _ = six.apply(state, seat, rng.choice(six.legal(state, seat)))
    return state


def finished_game(players=4, options=None, seed=1):
    state = six.new_game(players=players, options=options or {}, seed=seed)
    return play_out(state, random.Random(seed))


def ranks(deck_size):
    return six.cards.RANKS[deck_size]


def full_deal(fixed, *, players=4, deck=40, first=0):
    """A deal of the whole deck in which seat s holds every card of `fixed[s]`; the other
    cards go round the seats that still have room, in deck order. Sizes follow RULES 3.5
    (the extra cards to the seats dealt first from `first`)."""
    from games.six.engine.dealing import hand_sizes

    sizes = hand_sizes(deck, players, first)
    hands = [list(fixed.get(seat, ())) for seat in range(players)]
    placed = {card for hand in hands for card in hand}
    rest = [card for card in six.deck(deck) if card not in placed]
    seat = 0
    for card in rest:
        while len(hands[seat]) >= sizes[seat]:
            seat = (seat + 1) % players
        hands[seat].append(card)
        seat = (seat + 1) % players
    assert [len(hand) for hand in hands] == sizes, "fixed cards do not fit the deal"
    return hands
