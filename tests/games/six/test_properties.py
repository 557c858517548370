"""Random games through the public interface, checking RULES §3 at every step, for 2 to 8
players, both decks, random and balanced deals. Every finished hand is also re-checked
against a small independent model of the rules (`check_hand`)."""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.six import engine as six
from games.six.engine.cards import RANKS, parts

SUIT_NAMES = six.SUITS


def table_cards(state):
    """The cards on the table, from the sequences' ends."""
    deck = state.options["deck"]
    return [
        f"{rank}-{suit}"
        for suit, ends in zip(SUIT_NAMES, state.table, strict=True)
        if ends
        for rank in RANKS[deck]
        if ends[0] <= rank <= ends[1]
    ]


def check_state(state):
    players = state.players
    deck = state.options["deck"]
    # Every card is in exactly one place: a hand or the table (RULES 3.1, 3.2).
    places = Counter(card for hand in state.hands for card in hand) + Counter(table_cards(state))
    assert places == Counter(six.deck(deck))
    # The table holds exactly the cards played this hand.
    assert sorted(table_cards(state)) == sorted(card for _, card in state.turns if card)
    # Sequences are unbroken around each 6 (RULES 3.2).
    for ends in state.table:
        assert not ends or ends[0] <= 6 <= ends[1]
    # The sum of all scores is 5 × hands played (RULES 3.3).
    assert sum(state.totals) == 5 * len(state.round_scores) == 5 * len(state.history)
    assert list(state.totals) == [
        sum(points[seat] for points in state.round_scores) for seat in range(players)
    ]
    if six.is_over(state):
        assert six.to_act(state) == []
        return
    # The seat to move can play, nobody else may decide (RULES 3.2, 3.5).
    seat = state.to_move
    assert six.to_act(state) == [seat]
    assert six.legal(state, seat)
    for other in range(players):
        if other != seat:
            assert six.legal(state, other) == []
    assert all(state.hands)


def playable_cards(hand, table, deck, first_of_game):
    """The model: which cards of `hand` may be played on `table` (suit -> set of ranks)."""
    order = RANKS[deck]
    cards = []
    for card in hand:
        suit, rank = parts(card)
        if first_of_game:
            ok = card == "6-oros"
        elif not table[suit]:
            ok = rank == 6
        else:
            positions = sorted(order.index(r) for r in table[suit])
            ok = order.index(rank) in (positions[0] - 1, positions[-1] + 1)
        if ok:
            cards.append(card)
    return cards


def check_hand(start_hands, turns, deck, hand_no, opener):
    """Replays one finished hand with the model; returns the points it gives."""
    players = len(start_hands)
    hands = [list(hand) for hand in start_hands]
    table = {suit: set() for suit in range(4)}
    previous = None
    for index, (seat, card) in enumerate(turns):
        assert seat == (opener if previous is None else (previous + 1) % players)
        previous = seat
        can = playable_cards(hands[seat], table, deck, hand_no == 1 and index == 0)
        if card is None:
            assert can == []  # a pass only without a playable card (RULES 3.5)
            continue
        assert card in can
        hands[seat].remove(card)
        suit, rank = parts(card)
        table[suit].add(rank)
        positions = sorted(RANKS[deck].index(r) for r in table[suit])
        assert positions == list(range(positions[0], positions[-1] + 1))  # unbroken
        assert 5 in positions  # around its 6 (position of rank 6 in both decks)
        # The hand ends as soon as a seat is out of cards (RULES 3.2).
        assert (not hands[seat]) == (index == len(turns) - 1)
    winner = turns[-1][0]
    left = [len(hand) for hand in hands]
    return [5 + sum(left) if seat == winner else -left[seat] for seat in range(players)]


@st.composite
def games(draw):
    players = draw(st.integers(2, 8))
    options = {
        "deck": draw(st.sampled_from((40, 48))),
        "target": draw(st.integers(5, 60)),
        "balanced": players == 4 and draw(st.booleans()),
    }
    return players, options, draw(st.integers(0, 2**40)), draw(st.integers(0, 2**20))


@settings(max_examples=120, deadline=None)
@given(games())
def test_random_games_keep_every_rule(game):
    players, options, seed, choices = game
    rng = random.Random(choices)
    state = six.new_game(players=players, options=options, seed=seed)
    check_state(state)
    plays = 0
    while not six.is_over(state):
        seat = six.to_act(state)[0]
        decision = rng.choice(six.legal(state, seat))
        state, events = six.apply(state, seat, decision)
        plays += 1
        assert state.version == plays  # passes are not decisions
        assert json.loads(json.dumps(events)) == events
        check_state(state)
    assert six.load(six.dump(state)) == state

    # Every hand again, with the model: order of turns, passes, plays, end, points.
    opener = None
    for number, ((hands, turns), points) in enumerate(
        zip(state.history, state.round_scores, strict=True), start=1
    ):
        if number == 1:
            opener = next(seat for seat, hand in enumerate(hands) if "6-oros" in hand)
        else:
            opener = (opener + 1) % players  # RULES 3.5
        assert check_hand(hands, turns, options["deck"], number, opener) == list(points)
    # The game ended after the first hand whose winner reached the target (RULES 3.5).
    totals = [0] * players
    for number, ((_, turns), points) in enumerate(
        zip(state.history, state.round_scores, strict=True), start=1
    ):
        totals = [total + gained for total, gained in zip(totals, points, strict=True)]
        assert (totals[turns[-1][0]] >= options["target"]) == (number == len(state.history))
    assert six.replay(six.record(state, [f"p{seat}" for seat in range(players)])) == six.result(
        state
    )
