"""Cards, heads and where a card goes: RULES §1.1, §1.3 and §1.4."""

import random

from hypothesis import given
from hypothesis import strategies as st

from games.nimmt import engine as nimmt
from games.nimmt.engine import core, rules

OPTIONS = {"end": "rounds", "rounds": 1}


def dealt(rows, hands, **options):
    """A game at the start of a round's play, with these rows and hands."""
    state = nimmt.new_game(players=len(hands), options={**OPTIONS, **options}, seed=0)
    return rules.with_deal(state, rows, hands)


def play_turn(state, cards, choices=None):
    """Every seat selects its card; too-low cards choose from `choices` {seat: row}."""
    events = []
    for seat, card in enumerate(cards):
        state, more = nimmt.apply(state, seat, {"type": "select", "card": card})
        events += more
    while state.phase == "choose_row":
        state, more = nimmt.apply(
            state, state.chooser, {"type": "row", "row": choices[state.chooser]}
        )
        events += more
    return state, events


# --- RULES 1.1: heads ------------------------------------------------------------------


def test_55_is_worth_7_heads():
    # RULES 1.1 (seed 000): 55 is a double and a multiple of 5
    assert nimmt.heads(55) == 7


def test_heads_follow_the_table():
    # RULES 1.1
    assert [nimmt.heads(card) for card in (11, 22, 33, 44, 66, 77, 88, 99)] == [5] * 8
    assert [nimmt.heads(card) for card in (10, 20, 50, 100)] == [3] * 4
    assert [nimmt.heads(card) for card in (5, 15, 25, 95)] == [2] * 4
    assert [nimmt.heads(card) for card in (1, 2, 7, 13, 104)] == [1] * 5


def test_full_deck_holds_171_heads():
    # RULES 1.1: 171 heads: 76 cards of 1, 9 of 2, 10 of 3, 8 of 5, one of 7
    cards = range(1, 105)
    assert sum(nimmt.heads(card) for card in cards) == 171
    counts = {
        value: sum(1 for card in cards if nimmt.heads(card) == value) for value in (1, 2, 3, 5, 7)
    }
    assert counts == {1: 76, 2: 9, 3: 10, 5: 8, 7: 1}


# --- RULES 1.4: which row -------------------------------------------------------------


def test_card_goes_after_highest_lower_row_end():
    # RULES 1.4, seed 000: rows end 12, 37, 43, 58; card 44 goes after 43 (third row)
    rows = [[12], [37], [43], [58]]
    assert core.target_row(rows, 44) == 2


def test_card_lower_than_every_row_is_too_low():
    # RULES 1.4
    assert core.target_row([[12], [37], [43], [58]], 5) == -1


def test_card_above_every_row_goes_after_the_highest_end():
    # RULES 1.4: the smallest positive difference
    assert core.target_row([[12], [37], [43], [58]], 104) == 3


@given(
    st.lists(st.integers(1, 104), min_size=5, max_size=5, unique=True).map(
        lambda cards: ([[c] for c in cards[:4]], cards[4])
    )
)
def test_target_row_is_the_smallest_positive_difference(case):
    # RULES 1.4: "equivalently: the smallest positive difference"; one row or none
    rows, card = case
    differences = {index: card - row[-1] for index, row in enumerate(rows) if row[-1] < card}
    expected = min(differences, key=differences.get) if differences else -1
    assert core.target_row(rows, card) == expected


def test_placed_card_is_appended_to_its_row():
    # RULES 1.4, seed 000 example played through the engine
    state = dealt([12, 37, 43, 58], [[44, 1], [60, 2]])
    state, events = play_turn(state, [44, 60])
    assert state.rows == ((12,), (37,), (43, 44), (58, 60))
    assert {"type": "placed", "seat": 0, "card": 44, "row": 2} in events


def test_sixth_card_takes_the_five_and_starts_the_row():
    # RULES 1.4: "6 qui prend" - the 6th card takes the 5 and starts the row alone
    state = dealt([10, 50, 70, 90], [[11, 12, 13, 14, 15, 1], [2, 3, 4, 5, 6, 7]])
    # Seat 1 plays low cards that go nowhere near row 0... they are too low: use choices.
    for turn, card in enumerate([11, 12, 13, 14]):
        state, _ = play_turn(state, [card, [2, 3, 4, 5][turn]], {1: 3})
    # Row 0 now holds 10, 11, 12, 13, 14: five cards.
    assert state.rows[0] == (10, 11, 12, 13, 14)
    state, events = play_turn(state, [15, 6], {1: 3})
    assert state.rows[0] == (15,)
    assert state.piles[0] == (10, 11, 12, 13, 14)
    took = [e for e in events if e["type"] == "took" and e["seat"] == 0]
    assert took == [
        {"type": "took", "seat": 0, "row": 0, "cards": [10, 11, 12, 13, 14], "heads": 11}
    ]


def test_too_low_card_lets_its_player_choose_a_row():
    # RULES 1.4: a card lower than every row's end: its player chooses a row and takes it
    state = dealt([12, 37, 43, 58], [[3, 90], [80, 91]])
    for seat, card in enumerate([3, 80]):
        state, events = nimmt.apply(state, seat, {"type": "select", "card": card})
    assert state.phase == "choose_row"
    assert nimmt.to_act(state) == [0]
    assert {"type": "choosing", "seat": 0, "card": 3} in events
    assert nimmt.legal(state, 0) == [{"type": "row", "row": index} for index in range(4)]
    state, events = nimmt.apply(state, 0, {"type": "row", "row": 1})
    assert state.rows == ((12,), (3,), (43,), (58, 80))
    assert state.piles[0] == (37,)
    assert events[0] == {"type": "took", "seat": 0, "row": 1, "cards": [37], "heads": 1}


def test_too_low_choice_sees_the_rows_as_they_stand():
    # RULES 1.4: lower cards of the turn are placed before; the choice comes at the card's
    # moment. Here 3 and 4 are both too low: after seat 0 takes row 0 with 3, card 4 is no
    # longer too low (it goes after 3), so seat 1 is never asked.
    state = dealt([12, 37, 43, 58], [[3, 90], [4, 91]])
    state, events = play_turn(state, [3, 4], {0: 0})
    assert state.rows == ((3, 4), (37,), (43,), (58,))
    assert [e["seat"] for e in events if e["type"] == "choosing"] == [0]


def test_second_too_low_card_chooses_among_rows_after_the_first_choice():
    # RULES 1.4: the rows "as they stand then"
    state = dealt([12, 37, 43, 58], [[5, 90], [2, 91]])
    for seat, card in enumerate([5, 2]):
        state, _ = nimmt.apply(state, seat, {"type": "select", "card": card})
    assert state.chooser == 1  # 2 is resolved first (RULES 1.3)
    state, _ = nimmt.apply(state, 1, {"type": "row", "row": 3})
    # Card 5 is now higher than row 3's new end (2): it goes there, nobody chooses.
    assert state.phase == "select"
    assert state.rows == ((12,), (37,), (43,), (2, 5))


def test_cards_resolve_lowest_first():
    # RULES 1.3: resolved one at a time, lowest card first (whatever the seat order)
    state = dealt([10, 20, 30, 40], [[45, 1], [41, 2], [43, 3]])
    state, events = play_turn(state, [45, 41, 43])
    placed = [e["card"] for e in events if e["type"] == "placed"]
    assert placed == [41, 43, 45]
    assert state.rows[3] == (40, 41, 43, 45)


def test_core_resolve_turn_matches_the_engine():
    # RULES 1.4: the fast core and the public engine place cards the same way
    rows = [[12], [37], [43], [58]]
    penalties = [0, 0, 0]
    core.resolve_turn(rows, [(44, 0), (3, 1), (80, 2)], penalties)
    # Card 3 is too low: by default the cheapest row (RULES 1.8), lowest index on a tie.
    assert rows == [[3], [37], [43, 44], [58, 80]]
    assert penalties == [0, 1, 0]


def test_engine_and_fast_core_place_cards_alike():
    # RULES 1.4 is encoded twice (inline in `apply`, and `core.target_row` for rollouts):
    # re-playing every finished round of random games with the core gives the same scores.
    for seed in range(60):
        players = 2 + seed % 9
        rng = random.Random(seed)
        state = nimmt.new_game(players=players, options={"card_limit": seed % 2 == 0}, seed=seed)
        while not nimmt.is_over(state):
            seat = rng.choice(nimmt.to_act(state))
            state, _ = nimmt.apply(state, seat, rng.choice(nimmt.legal(state, seat)))
        for (rows, _hands, _picks, turns), scores in zip(
            state.history, state.round_scores, strict=True
        ):
            table = [list(row) for row in rows]
            penalties = [0] * players
            for cards, choices in turns:
                chosen = dict(choices)
                core.resolve_turn(
                    table,
                    [(card, s) for s, card in enumerate(cards)],
                    penalties,
                    lambda _rows, _card, s, chosen=chosen: chosen[s],
                )
            assert penalties == list(scores)


def test_core_deal_and_random_round():
    # RULES 1.2 (deal) and 1.7 (card limit) in the fast core
    rng = random.Random(3)
    rows, hands = core.deal(rng, 5, card_limit=True)
    assert sorted([row[0] for row in rows] + [c for hand in hands for c in hand]) == list(
        range(1, 55)
    )
    assert all(hand == sorted(hand) and len(hand) == 10 for hand in hands)
    penalties = core.random_round(rng, 5)
    assert len(penalties) == 5 and all(p >= 0 for p in penalties)


def test_too_low_and_take_row_in_the_core():
    # RULES 1.4: too low for every row; taking a row leaves the card alone in it
    rows = [[12, 15], [37], [43], [58]]
    assert core.too_low(rows, 14) and not core.too_low(rows, 16)
    assert core.take_row(rows, 0, 11) == [12, 15]
    assert rows == [[11], [37], [43], [58]]
    assert core.row_heads([55, 11, 10]) == 15
    assert core.cheapest_row([[55], [11], [10], [20]]) == 2  # RULES 1.8: 3 heads, lowest index


def test_the_placing_rule_is_written_once():
    # Issue 20: the engine places cards with the core's rule, the one the bots' rollouts use.
    assert rules.target_row is core.target_row
