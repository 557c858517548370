"""Turns, rounds, scores, the end of the game, fallbacks and illegal decisions:
RULES §1.2, §1.3, §1.5, §1.6 and §1.8."""

import random

import pytest

from games.engine import IllegalDecision
from games.nimmt import engine as nimmt
from games.nimmt.engine import rules


def dealt(rows, hands, **options):
    state = nimmt.new_game(players=len(hands), options=options, seed=0)
    return rules.with_deal(state, rows, hands)


def select_all(state, cards):
    events = []
    for seat, card in enumerate(cards):
        state, more = nimmt.apply(state, seat, {"type": "select", "card": card})
        events += more
    return state, events


def play_fallbacks(state, until=None):
    """Let every awaited seat play its RULES §1.8 fallback until `until(state)` or the end."""
    while not nimmt.is_over(state) and not (until and until(state)):
        seat = nimmt.to_act(state)[0]
        state, _ = nimmt.apply(state, seat, nimmt.fallback(state, seat))
    return state


# --- RULES 1.2: set-up ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 5, 10])
def test_round_deals_ten_cards_each_and_four_rows(players):
    # RULES 1.2
    state = nimmt.new_game(players=players, options={}, seed=4)
    assert [len(hand) for hand in state.hands] == [10] * players
    assert [len(row) for row in state.rows] == [1, 1, 1, 1]
    cards = [card for hand in state.hands for card in hand] + [row[0] for row in state.rows]
    assert len(set(cards)) == 10 * players + 4
    assert all(1 <= card <= 104 for card in cards)


# --- RULES 1.3: simultaneous secret selection ------------------------------------------


def test_every_seat_is_awaited_until_it_selects():
    # RULES 1.3: every player selects
    state = nimmt.new_game(players=3, options={}, seed=1)
    assert nimmt.to_act(state) == [0, 1, 2]
    state, events = nimmt.apply(state, 1, {"type": "select", "card": state.hands[1][0]})
    assert nimmt.to_act(state) == [0, 2]
    assert events == [{"type": "selected", "seat": 1}]  # who, never what


def test_selection_may_change_until_the_last_seat_selects():
    # RULES 1.3 / docs/engines.md: changeable until the last seat has selected
    state = dealt([12, 37, 43, 58], [[44, 45], [60, 61]])
    state, _ = nimmt.apply(state, 0, {"type": "select", "card": 44})
    state, _ = nimmt.apply(state, 0, {"type": "select", "card": 45})
    assert nimmt.legal(state, 0) == [{"type": "select", "card": c} for c in (44, 45)]
    state, events = nimmt.apply(state, 1, {"type": "select", "card": 60})
    assert {"type": "revealed", "cards": [45, 60]} in events
    assert state.hands == ((44,), (61,))


def test_nobody_can_change_after_the_reveal():
    # RULES 1.3: once all have chosen, the cards are revealed at once
    state = dealt([12, 37, 43, 58], [[3, 45], [60, 61]])
    state, _ = select_all(state, [3, 60])
    assert state.phase == "choose_row"
    with pytest.raises(IllegalDecision, match="nothing is expected from seat 1 now"):
        nimmt.apply(state, 1, {"type": "select", "card": 61})


# --- RULES 1.5: round end and scores ----------------------------------------------------


def test_round_ends_after_ten_turns_and_scores_the_heads_taken():
    # RULES 1.5: a round ends when every hand is empty (10 turns); its score is the heads
    # each player took, so the heads dealt are the heads scored plus those left on the rows
    state = nimmt.new_game(players=4, options={"end": "rounds", "rounds": 1}, seed=11)
    dealt_heads = sum(nimmt.heads(c) for hand in state.hands for c in hand) + sum(
        nimmt.heads(row[0]) for row in state.rows
    )
    state = play_fallbacks(state)
    (scores,) = state.round_scores
    assert len(state.history[0][3]) == 10
    assert state.hands == ((),) * 4
    assert [sum(nimmt.heads(c) for c in pile) for pile in state.piles] == list(scores)
    assert sum(scores) + sum(nimmt.heads(c) for row in state.rows for c in row) == dealt_heads


def test_round_over_and_round_started_events():
    # RULES 1.5
    state = nimmt.new_game(players=2, options={"end": "rounds", "rounds": 3}, seed=2)
    events = []
    while state.round == 1:
        seat = nimmt.to_act(state)[0]
        state, events = nimmt.apply(state, seat, nimmt.fallback(state, seat))
    kinds = [event["type"] for event in events]
    assert kinds[-2:] == ["round_over", "round_started"]
    assert events[-1] == {"type": "round_started", "round": 2}
    assert events[-2]["heads"] == list(state.round_scores[0])


def test_taken_cards_never_return_and_totals_sum_rounds():
    # RULES 1.5
    state = play_fallbacks(nimmt.new_game(players=5, options={}, seed=8))
    totals = [sum(scores[seat] for scores in state.round_scores) for seat in range(5)]
    assert list(state.totals) == totals == nimmt.result(state)["totals"]


# --- RULES 1.6: end of the game ------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_threshold_game_ends_at_the_first_round_reaching_it(seed):
    # RULES 1.6: at the end of a round some total is >= the threshold (checked at round end)
    state = play_fallbacks(nimmt.new_game(players=4, options={"threshold": 30}, seed=seed))
    totals_before_last = [sum(s[seat] for s in state.round_scores[:-1]) for seat in range(4)]
    assert max(state.totals) >= 30
    assert max(totals_before_last) < 30


def test_threshold_reached_exactly_ends_the_game():
    # RULES 1.6: "atteint ou dépasse" - equal to the threshold ends it
    for seed in range(200):
        state = play_fallbacks(nimmt.new_game(players=3, options={"threshold": 10}, seed=seed))
        if max(state.totals) == 10:
            assert nimmt.is_over(state)
            return
    pytest.fail("no seed reached the threshold exactly")


def test_threshold_is_not_checked_during_a_round():
    # RULES 1.6: only at the end of a round
    state = nimmt.new_game(players=4, options={"threshold": 1}, seed=3)
    state = play_fallbacks(state, until=lambda s: any(s.piles))
    assert not nimmt.is_over(state)
    assert state.round == 1
    state = play_fallbacks(state)
    assert len(state.round_scores) == 1


@pytest.mark.parametrize("rounds", [1, 3])
def test_fixed_rounds_game_plays_exactly_that_many_rounds(rounds):
    # RULES 1.6: end = rounds; rounds = 1 is "Manche unique"
    state = play_fallbacks(
        nimmt.new_game(players=6, options={"end": "rounds", "rounds": rounds}, seed=5)
    )
    assert len(state.round_scores) == rounds


def test_lowest_total_wins_and_ties_share():
    # RULES 1.6: the lowest total wins; equal totals share the rank
    state = nimmt.new_game(players=3, options={"end": "rounds", "rounds": 1}, seed=0)
    state = state.copy()
    state.phase = "over"
    state.totals = (4, 2, 2)
    state.round_scores = ((4, 2, 2),)
    assert nimmt.result(state) == {"rounds": [[4, 2, 2]], "totals": [4, 2, 2], "winners": [1, 2]}


def test_game_over_event_names_the_winners():
    # RULES 1.6
    state = nimmt.new_game(players=3, options={"end": "rounds", "rounds": 1}, seed=9)
    events = []
    while not nimmt.is_over(state):
        seat = nimmt.to_act(state)[0]
        state, events = nimmt.apply(state, seat, nimmt.fallback(state, seat))
    result = nimmt.result(state)
    assert events[-1] == {
        "type": "game_over",
        "totals": result["totals"],
        "winners": result["winners"],
    }
    assert nimmt.to_act(state) == []
    assert nimmt.legal(state, 0) == []


# --- RULES 1.8: fallbacks ------------------------------------------------------------------


def test_fallback_selects_the_lowest_card():
    # RULES 1.8: lowest card for a selection
    state = dealt([12, 37, 43, 58], [[80, 44, 61], [90, 2, 70]])
    assert nimmt.fallback(state, 0) == {"type": "select", "card": 44}
    assert nimmt.fallback(state, 1) == {"type": "select", "card": 2}


def test_fallback_row_is_the_fewest_heads_lowest_index_on_tie():
    # RULES 1.8: the row with the fewest heads, lowest index on a tie
    state = dealt([55, 22, 13, 14], [[3, 90], [80, 91]])  # heads 7, 5, 1, 1
    state, _ = select_all(state, [3, 80])
    assert state.chooser == 0
    assert nimmt.fallback(state, 0) == {"type": "row", "row": 2}


def test_fallback_pick_is_the_lowest_card_of_the_pool():
    # RULES 1.8: lowest card for a draft pick
    state = nimmt.new_game(players=2, options={"deal": "draft"}, seed=0)
    state, _ = nimmt.apply(state, 0, {"type": "pick", "card": 1})
    assert nimmt.fallback(state, 1) == {"type": "pick", "card": 2}


def test_fallback_for_a_seat_not_awaited_is_refused():
    # RULES 1.8 only decides for seats whose decision is awaited
    state = nimmt.new_game(players=2, options={"deal": "draft"}, seed=0)
    with pytest.raises(IllegalDecision, match="nothing is expected from seat 1 now"):
        nimmt.fallback(state, 1)


# --- illegal decisions -------------------------------------------------------------------


def test_card_not_in_hand_is_refused():
    state = dealt([12, 37, 43, 58], [[44, 45], [60, 61]])
    with pytest.raises(IllegalDecision, match="card 60 is not in your hand"):
        nimmt.apply(state, 0, {"type": "select", "card": 60})


def test_row_choice_from_the_wrong_seat_is_refused():
    # RULES 1.4: only the too-low card's player chooses
    state = dealt([12, 37, 43, 58], [[3, 45], [60, 61]])
    state, _ = select_all(state, [3, 60])
    with pytest.raises(IllegalDecision, match="it is not your turn to choose a row"):
        nimmt.apply(state, 1, {"type": "row", "row": 0})


def test_row_choice_when_nobody_chooses_is_refused():
    state = dealt([12, 37, 43, 58], [[44, 45], [60, 61]])
    with pytest.raises(IllegalDecision, match="it is not your turn to choose a row"):
        nimmt.apply(state, 0, {"type": "row", "row": 0})


@pytest.mark.parametrize("row", [7, -1, 4, "2", None, True])
def test_row_that_does_not_exist_is_refused(row):
    # RULES 1.2: four rows, 0 to 3
    state = dealt([12, 37, 43, 58], [[3, 45], [60, 61]])
    state, _ = select_all(state, [3, 60])
    with pytest.raises(IllegalDecision, match="does not exist"):
        nimmt.apply(state, 0, {"type": "row", "row": row})


def test_row_7_error_message():
    state = dealt([12, 37, 43, 58], [[3, 45], [60, 61]])
    state, _ = select_all(state, [3, 60])
    with pytest.raises(IllegalDecision, match=r"^row 7 does not exist"):
        nimmt.apply(state, 0, {"type": "row", "row": 7})


def test_decision_from_a_seat_nothing_is_expected_from():
    state = dealt([12, 37, 43, 58], [[3, 45], [60, 61], [70, 71]])
    state, _ = select_all(state, [3, 60, 70])
    with pytest.raises(IllegalDecision, match="nothing is expected from seat 2 now"):
        nimmt.apply(state, 2, {"type": "select", "card": 71})


@pytest.mark.parametrize(
    "decision",
    [
        None,
        [],
        "select",
        {},
        {"type": "play"},
        {"type": "select"},
        {"type": "select", "card": "44"},
        {"type": "select", "card": 44.0},
        {"type": "select", "card": True},
    ],
)
def test_malformed_decisions_are_refused(decision):
    state = dealt([12, 37, 43, 58], [[44, 1], [60, 2]])
    with pytest.raises(IllegalDecision):
        nimmt.apply(state, 0, decision)


@pytest.mark.parametrize("seat", [-1, 2, "0", None, 1.0])
def test_seat_not_at_the_table_is_refused(seat):
    state = dealt([12, 37, 43, 58], [[44, 1], [60, 2]])
    with pytest.raises(IllegalDecision, match="is not at this table"):
        nimmt.apply(state, seat, {"type": "select", "card": 44})


def test_apply_leaves_the_given_state_untouched():
    # apply is pure: the passed state is never modified, even on an illegal decision
    rng = random.Random(3)
    state = nimmt.new_game(players=4, options={"deal": "draft"}, seed=3)
    while not nimmt.is_over(state):
        seat = nimmt.to_act(state)[0]
        before = nimmt.dump(state)
        with pytest.raises(IllegalDecision):
            nimmt.apply(state, seat, {"type": "select", "card": 0})
        decision = rng.choice(nimmt.legal(state, seat))
        new, _ = nimmt.apply(state, seat, decision)
        assert nimmt.dump(state) == before
        assert new.version == state.version + 1
        state = new
