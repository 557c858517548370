"""RULES §2.1 and §2.5 "Set-up and piles": players, deals, specials, rounds, refills."""

from collections import Counter

import pytest

from games.engine import OptionsError
from games.nimmt.engine.dealing import draw as shuffled
from games.surprise import engine as surprise
from games.surprise.engine.cards import KINDS, NUMBERS, SPECIALS

from .helpers import decide, play, table


def finish_round(state):
    """Play the rest of the round with every seat's fallback."""
    start = state.round
    while state.round == start and not surprise.is_over(state):
        seat = surprise.to_act(state)[0]
        state, _ = surprise.apply(state, seat, surprise.fallback(state, seat))
    return state


def test_two_to_eight_players():
    """RULES 2.1: 2 to 8 players."""
    for players in (2, 8):
        surprise.new_game(players=players, options={}, seed=1)
    for players in (1, 9, 10):
        with pytest.raises(OptionsError):
            surprise.new_game(players=players, options={}, seed=1)


def test_live_scores_is_the_only_option():
    """RULES 2.5: of the §1 options only live_scores applies."""
    assert surprise.normalize_options({}, 4) == {"live_scores": True}
    assert surprise.normalize_options({"live_scores": False}, 4) == {"live_scores": False}
    for name, value in (("card_limit", True), ("deal", "draft"), ("end", "rounds")):
        with pytest.raises(OptionsError, match=name):
            surprise.normalize_options({name: value}, 4)
    with pytest.raises(OptionsError):
        surprise.normalize_options({"live_scores": 1}, 4)


def test_twelve_number_cards_each_and_four_rows():
    """RULES 2.1: 12 number cards each, 4 rows, the rest unused."""
    state = surprise.new_game(players=8, options={}, seed=3)
    assert [len(hand) for hand in state.hands] == [12] * 8
    assert len(state.rows) == 4 and all(len(row) == 1 for row in state.rows)
    dealt = [card for hand in state.hands for card in hand] + [row[0] for row in state.rows]
    assert len(set(dealt)) == 100 and set(dealt) <= set(NUMBERS)


def test_twenty_eight_specials_four_of_each_kind():
    """RULES 2.1: 28 specials, 4 of each of the 7 kinds, shuffled."""
    state = surprise.new_game(players=3, options={}, seed=3)
    assert Counter(state.specials_order) == Counter({kind: 4 for kind in KINDS})
    assert len(SPECIALS) == 28
    other = surprise.new_game(players=3, options={}, seed=4)
    assert other.specials_order != state.specials_order


def test_three_specials_dealt_one_at_a_time_from_seat_zero():
    """RULES 2.5: dealt one at a time in seat order from seat 0, three times round; the
    rest is the draw pile, top first."""
    state = surprise.new_game(players=4, options={}, seed=9)
    order = state.specials_order
    for seat in range(4):
        assert state.specials[seat] == tuple(sorted(order[seat::4][:3]))
    assert state.draw == order[12:]
    assert state.discard == ()


def test_game_ends_after_round_two_whatever_the_scores():
    """RULES 2.1: two rounds; no threshold."""
    state = surprise.new_game(players=3, options={}, seed=5)
    state = finish_round(state)
    assert state.round == 2 and not surprise.is_over(state)
    state = finish_round(state)
    assert surprise.is_over(state)
    result = surprise.result(state)
    assert len(result["rounds"]) == 2
    assert result["totals"] == [a + b for a, b in zip(*result["rounds"], strict=True)]


def test_a_round_ends_when_every_number_card_in_hand_is_played():
    """RULES 2.1: twelve turns, every hand empty."""
    state = surprise.new_game(players=2, options={}, seed=5)
    for turn in range(1, 13):
        assert state.round == 1 and state.turn == turn
        state, _ = play(state, state.hands[0][0], state.hands[1][0])
        while state.prompt is not None:
            seat = surprise.to_act(state)[0]
            state, _ = surprise.apply(state, seat, surprise.fallback(state, seat))
    assert state.round == 2 and state.turn == 1
    assert [len(cards) for cards in state.history[0][3]] == [3] * 12


def test_round_two_deals_all_104_again_keeps_specials_and_draws_three_more():
    """RULES 2.1 and 2.5: round 2 is dealt from all 104 (removed cards too); unplayed
    specials are kept and each seat draws 3 more, one at a time from seat 0."""
    state = surprise.new_game(players=3, options={}, seed=11)
    kept = state.specials
    draw = state.draw
    # Every seat plays its lowest card with no special and does nothing else.
    state = finish_round(state)
    dealt = shuffled("surprise/11/2/deal", NUMBERS, 40)
    assert state.start_hands == tuple(tuple(sorted(dealt[i : i + 12])) for i in (0, 12, 24))
    assert state.start_rows == tuple((card,) for card in dealt[36:])
    assert state.box == () and state.piles == ((), (), ())
    used = Counter()
    for _cards, specials, _decisions in state.history[0][3]:
        used.update(special for special in specials if special)
    assert not used  # the fallback attaches nothing
    for seat in range(3):
        refill = draw[seat::3][:3]
        assert Counter(state.specials[seat]) == Counter(kept[seat]) + Counter(refill)


def test_refill_reshuffles_the_discard_when_the_draw_pile_runs_out():
    """RULES 2.5: a draw from an empty pile first shuffles the discard into a new one."""
    state = table([[10], [20], [30], [40]], [[50], [60]])
    state = state.copy()
    state.turns = (((0, 0), (None, None), ()),) * 11  # the round's last turn
    state.draw = ("stop", "glisser")
    state.discard = ("inserer", "remplacer", "5e_serie", "stop", "glisser")
    state, events = play(state, 50, 60)
    assert state.round == 2
    assert [e["type"] for e in events].count("reshuffled") == 1
    assert len(state.reshuffles) == 1 and sorted(state.reshuffles[0]) == sorted(
        ("inserer", "remplacer", "5e_serie", "stop", "glisser")
    )
    assert [len(own) for own in state.specials] == [3, 3]
    assert len(state.draw) + len(state.discard) == 7 - 6


def test_refill_with_both_piles_empty_is_lost_later_seats_get_fewer():
    """RULES 2.5: when both piles are empty the draw is lost."""
    state = table([[10], [20], [30], [40]], [[50], [60]])
    state = state.copy()
    state.turns = (((0, 0), (None, None), ()),) * 11
    state.draw = ("stop", "glisser", "inserer", "remplacer")
    state.discard = ()
    state, events = play(state, 50, 60)
    assert [len(own) for own in state.specials] == [2, 2]
    assert events[-1] == {"type": "specials_dealt", "counts": [2, 2]}
    state = table([[10], [20], [30], [40]], [[50], [60]]).copy()
    state.turns = (((0, 0), (None, None), ()),) * 11
    state.draw = ("stop", "glisser", "inserer")
    state, _ = play(state, 50, 60)
    assert [len(own) for own in state.specials] == [2, 1]


def test_stops_and_sevens_on_the_table_go_to_the_discard_at_round_end():
    """RULES 2.5: at the end of a round, Stops and 7 qui surprend still on the table go
    to the discard pile; each round starts with 4 rows, none stopped or capped."""
    state = table(
        [[10], [20], [30], [40], [70]],
        [[50], [60]],
        stops=(True, False, False, False, False),
        caps=(False, True, False, False, False),
        draw=("stop",) * 10,
    ).copy()
    state.turns = (((0, 0), (None, None), ()),) * 11
    state, _ = play(state, 50, 60)
    assert state.round == 2
    assert sorted(state.discard) == ["7_qui_surprend", "stop"]
    assert len(state.rows) == 4 and state.stops == (False,) * 4 and state.caps == (False,) * 4


def test_penalty_pile_holds_the_current_rounds_cards_only():
    """RULES 2.5: a pile holds this round's cards; the score is its heads after removals."""
    state = table([[1, 2, 3, 4, 6], [20], [30], [40]], [[7], [60]]).copy()
    state.turns = (((0, 0), (None, None), ()),) * 11
    state, events = play(state, 7, 60)
    assert state.round_scores == ((5, 0),)
    assert state.piles == ((), ())


def test_lowest_total_wins_and_equal_totals_share():
    """RULES 2.5 "Scores": both rounds summed, the lowest total wins, ties share."""
    state = table([[1, 2, 3, 4, 6], [20], [30], [40]], [[7], [60]]).copy()
    state.round = 2
    state.round_scores = ((3, 8),)
    state.totals = (3, 8)
    state.turns = (((0, 0), (None, None), ()),) * 11
    state, events = play(state, 7, 60)
    assert surprise.is_over(state)
    assert surprise.result(state) == {
        "rounds": [[3, 8], [5, 0]],
        "totals": [8, 8],
        "winners": [0, 1],
    }
    assert events[-1]["type"] == "game_over"


def test_specials_are_never_taken_and_count_no_heads():
    """RULES 2.5: a capped row's cards are taken, its 7 qui surprend is discarded."""
    state = table([[10], [20, 21], [30], [40]], [[22], [60]], caps=(False, True, False, False))
    state, events = play(state, 22, 60)
    took = next(e for e in events if e["type"] == "took")
    assert took["cards"] == [20, 21] and took["heads"] == 4
    assert state.piles[0] == (20, 21)
    assert "7_qui_surprend" in state.discard


def test_a_hand_of_specials_has_no_size_limit():
    """RULES 2.5: returns and exchanges never cap a hand."""
    specials = ["stop"] * 3 + ["glisser"] * 3 + ["inserer"] * 2
    state = table(
        [[10], [20], [30], [40]],
        [[5, 70], [60, 80]],
        [specials + ["7_qui_surprend"], []],
    )
    state, events = play(state, (5, "7_qui_surprend"), 60)
    state, _ = decide(state, "row", row=0)
    state, _ = decide(state, "exchange", special=None)
    assert len(state.specials[0]) == 9
