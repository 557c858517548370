"""Table options and variants: RULES §1.5 (live_scores), §1.6 (end) and §1.7 (card_limit,
draft), plus determinism from the seed."""

import pytest

from games.engine import IllegalDecision, OptionsError
from games.nimmt import engine as nimmt


def fallback_until(state, until):
    while not nimmt.is_over(state) and not until(state):
        seat = nimmt.to_act(state)[0]
        state, _ = nimmt.apply(state, seat, nimmt.fallback(state, seat))
    return state


def draft_through(state):
    """Every pick is the lowest card left (the RULES 1.8 fallback)."""
    return fallback_until(state, lambda s: s.phase != "draft")


# --- options -------------------------------------------------------------------------------


def test_defaults_fill_in():
    # RULES 1.5-1.7 defaults: random deal, no card limit, threshold 66, live scores
    assert nimmt.normalize_options({}, 4) == {
        "card_limit": False,
        "deal": "random",
        "end": "threshold",
        "threshold": 66,
        "live_scores": True,
    }


def test_fixed_rounds_options():
    # RULES 1.6: end = rounds with 1..20 rounds; the unused threshold is dropped
    options = nimmt.normalize_options({"end": "rounds", "rounds": 3, "threshold": 66}, 4)
    assert options == {
        "card_limit": False,
        "deal": "random",
        "end": "rounds",
        "rounds": 3,
        "live_scores": True,
    }


@pytest.mark.parametrize(
    ("options", "players", "name"),
    [
        ({"threshold": 0}, 4, "threshold"),
        ({"threshold": 501}, 4, "threshold"),
        ({"threshold": "66"}, 4, "threshold"),
        ({"threshold": True}, 4, "threshold"),
        ({"end": "rounds", "rounds": 0}, 4, "rounds"),
        ({"end": "rounds", "rounds": 21}, 4, "rounds"),
        ({"end": "rounds"}, 4, "rounds"),
        ({"end": "forever"}, 4, "end"),
        ({"deal": "shuffle"}, 4, "deal"),
        ({"card_limit": 1}, 4, "card_limit"),
        ({"live_scores": "yes"}, 4, "live_scores"),
        ({"speed": 2}, 4, "speed"),
        ({}, 1, "players"),
        ({}, 11, "players"),
        ({}, "4", "players"),
    ],
)
def test_bad_options_are_refused_naming_the_option(options, players, name):
    # RULES 1.6: threshold 1..500, rounds 1..20; RULES 1.2: 2 to 10 players
    with pytest.raises(OptionsError, match=name):
        nimmt.normalize_options(options, players)


@pytest.mark.parametrize("threshold", [1, 500])
def test_threshold_bounds_are_allowed(threshold):
    # RULES 1.6
    assert nimmt.normalize_options({"threshold": threshold}, 2)["threshold"] == threshold


@pytest.mark.parametrize("rounds", [1, 20])
def test_rounds_bounds_are_allowed(rounds):
    # RULES 1.6
    assert nimmt.normalize_options({"end": "rounds", "rounds": rounds}, 10)["rounds"] == rounds


def test_new_game_validates_options():
    with pytest.raises(OptionsError):
        nimmt.new_game(players=4, options={"threshold": 0}, seed=1)


# --- RULES 1.7: card limit -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5, 10])
def test_card_limit_deals_every_card_from_1_to_10_per_player_plus_4(players):
    # RULES 1.7: only cards 1..(10 x players + 4) are used, and all are dealt
    state = nimmt.new_game(players=players, options={"card_limit": True}, seed=7)
    cards = sorted([c for hand in state.hands for c in hand] + [row[0] for row in state.rows])
    assert cards == list(range(1, 10 * players + 5))


def test_card_limit_with_5_players_uses_1_to_54():
    # RULES 1.7 example: 5 players use 1..54
    assert nimmt.deck(5, True) == tuple(range(1, 55))
    assert nimmt.deck(5, False) == tuple(range(1, 105))


# --- RULES 1.7: draft ----------------------------------------------------------------------


def test_draft_pool_without_card_limit_is_all_104_cards():
    # RULES 1.7: the cards in play lie face up; without card_limit all 104
    state = nimmt.new_game(players=3, options={"deal": "draft"}, seed=1)
    assert state.phase == "draft"
    assert state.pool == tuple(range(1, 105))
    assert state.rows == ()
    assert nimmt.to_act(state) == [0]


@pytest.mark.parametrize("players", [2, 4, 7])
def test_draft_picks_in_seat_order_from_seat_0_in_round_1(players):
    # RULES 1.7 Decision: seat 0 picks first in round 1, then seat order until each holds 10
    state = nimmt.new_game(players=players, options={"deal": "draft"}, seed=1)
    pickers = []
    while state.phase == "draft":
        (seat,) = nimmt.to_act(state)
        pickers.append(seat)
        state, events = nimmt.apply(state, seat, nimmt.fallback(state, seat))
        assert events[0] == {"type": "picked", "seat": seat, "card": events[0]["card"]}
    assert pickers == [k % players for k in range(10 * players)]
    assert [len(hand) for hand in state.hands] == [10] * players


@pytest.mark.parametrize("players", [2, 3, 5])
def test_first_picker_rotates_each_round(players):
    # RULES 1.7 Decision: seat 1 picks first in round 2, and so on (rotating)
    state = nimmt.new_game(
        players=players, options={"deal": "draft", "end": "rounds", "rounds": 4}, seed=2
    )
    for round_no in range(1, 5):
        state = fallback_until(state, lambda s, r=round_no: s.round == r and s.phase == "draft")
        assert nimmt.to_act(state) == [(round_no - 1) % players]
        state = draft_through(state)


def test_draft_with_card_limit_leaves_four_cards_that_start_the_rows():
    # RULES 1.7 (seed 001 "Variante pro"): the 4 cards left over start the rows
    state = nimmt.new_game(players=3, options={"deal": "draft", "card_limit": True}, seed=5)
    assert state.pool == tuple(range(1, 35))
    state = draft_through(state)
    # Picking the lowest card every time leaves 31..34.
    assert sorted(row[0] for row in state.rows) == [31, 32, 33, 34]
    assert state.hands[0] == (1, 4, 7, 10, 13, 16, 19, 22, 25, 28)


def test_draft_without_card_limit_draws_rows_from_unpicked_cards():
    # RULES 1.7: without card_limit, 4 row cards drawn at random from the unpicked ones
    rows = set()
    for seed in range(10):
        state = draft_through(nimmt.new_game(players=2, options={"deal": "draft"}, seed=seed))
        starts = [row[0] for row in state.rows]
        assert all(21 <= card <= 104 for card in starts)  # 1..20 were picked
        rows.add(tuple(starts))
    assert len(rows) > 1  # random, not the lowest leftovers


def test_draft_rows_laid_event_and_then_selection():
    # RULES 1.7: once every seat holds ten, play goes on as usual
    state = nimmt.new_game(players=2, options={"deal": "draft"}, seed=5)
    events = []
    while state.phase == "draft":
        seat = nimmt.to_act(state)[0]
        state, events = nimmt.apply(state, seat, nimmt.fallback(state, seat))
    assert events[-1] == {"type": "rows_laid", "rows": [list(row) for row in state.rows]}
    assert state.phase == "select"
    assert nimmt.to_act(state) == [0, 1]


def test_picking_out_of_turn_or_a_taken_card_is_refused():
    # RULES 1.7: one card at a time in seat order
    state = nimmt.new_game(players=3, options={"deal": "draft"}, seed=5)
    with pytest.raises(IllegalDecision, match="not your turn to pick"):
        nimmt.apply(state, 1, {"type": "pick", "card": 50})
    state, _ = nimmt.apply(state, 0, {"type": "pick", "card": 50})
    with pytest.raises(IllegalDecision, match="card 50 is not in the draft pool"):
        nimmt.apply(state, 1, {"type": "pick", "card": 50})
    with pytest.raises(IllegalDecision, match="nothing is expected from seat 1 now"):
        nimmt.apply(state, 1, {"type": "select", "card": 50})


def test_draft_with_card_limit_pool_is_the_limited_deck():
    # RULES 1.7: "Variante pro" = card_limit + draft
    state = nimmt.new_game(players=5, options={"deal": "draft", "card_limit": True}, seed=5)
    assert state.pool == tuple(range(1, 55))
    with pytest.raises(IllegalDecision, match="card 55 is not in the draft pool"):
        nimmt.apply(state, 0, {"type": "pick", "card": 55})


# --- RULES 1.5: live scores ----------------------------------------------------------------


def test_live_scores_off_hides_heads_during_the_round():
    # RULES 1.5: totals only of completed rounds, pile heads hidden (None)
    state = nimmt.new_game(players=4, options={"live_scores": False}, seed=3)
    state = fallback_until(state, lambda s: any(s.piles))
    view = nimmt.view(state, 0)
    assert all(pile["heads"] is None for pile in view["piles"])
    assert any(pile["cards"] for pile in view["piles"])
    assert view["totals"] == [0, 0, 0, 0]


def test_live_scores_off_took_events_carry_no_heads():
    # RULES 1.5: the heads are not announced while the round is played
    state = nimmt.new_game(players=4, options={"live_scores": False}, seed=3)
    while not nimmt.is_over(state):
        seat = nimmt.to_act(state)[0]
        state, events = nimmt.apply(state, seat, nimmt.fallback(state, seat))
        for event in events:
            if event["type"] == "took":
                assert event["heads"] is None


def test_live_scores_off_shows_totals_after_each_round():
    # RULES 1.5: totals shown at the end of each round
    state = nimmt.new_game(
        players=4, options={"live_scores": False, "end": "rounds", "rounds": 3}, seed=3
    )
    state = fallback_until(state, lambda s: s.round == 2)
    assert nimmt.view(state, 1)["totals"] == list(state.totals) == list(state.round_scores[0])


def test_live_scores_on_shows_running_totals():
    # RULES 1.5: with live scores, totals include the round in progress
    state = nimmt.new_game(players=4, options={}, seed=3)
    state = fallback_until(state, lambda s: any(s.piles))
    view = nimmt.view(state, None)
    heads = [sum(nimmt.heads(c) for c in pile) for pile in state.piles]
    assert [pile["heads"] for pile in view["piles"]] == heads
    assert view["totals"] == heads


# --- determinism ---------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"deal": "draft"}, {"card_limit": True}])
def test_same_seed_same_deal_other_seed_other_deal(options):
    # docs/engines.md: deterministic from the seed, each round from (seed, round)
    first = nimmt.new_game(players=4, options=options, seed=42)
    again = nimmt.new_game(players=4, options=options, seed=42)
    other = nimmt.new_game(players=4, options=options, seed=43)
    assert first == again
    if options.get("deal") != "draft":
        assert first.hands != other.hands


def test_round_deal_depends_only_on_seed_and_round():
    # docs/engines.md: each round's RNG comes from seed + round, not from the play so far
    a = nimmt.new_game(players=3, options={"end": "rounds", "rounds": 2}, seed=9)
    b = nimmt.new_game(players=3, options={"end": "rounds", "rounds": 2}, seed=9)
    a = fallback_until(a, lambda s: s.round == 2)
    while b.round == 1:  # play round 1 differently: highest card each time
        seat = nimmt.to_act(b)[0]
        decision = nimmt.legal(b, seat)[-1]
        b, _ = nimmt.apply(b, seat, decision)
    assert a.hands == b.hands and a.rows == b.rows


def test_draws_are_reproducible_distinct_and_spread():
    # docs/engines.md: a round's deal follows from (seed, round) only
    from games.nimmt.engine.dealing import draw

    cards = tuple(range(1, 105))
    first = draw("nimmt/1/1/deal", cards, 54)
    assert first == draw("nimmt/1/1/deal", cards, 54)
    assert first != draw("nimmt/1/2/deal", cards, 54)
    assert len(set(first)) == 54 and set(first) <= set(cards)
    # Every card turns up as the first card drawn now and then (a coarse uniformity check).
    firsts = {draw(f"k/{n}", cards, 1)[0] for n in range(3000)}
    assert len(firsts) == 104


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"end": "rounds", "rounds": 4},
        {"deal": "draft", "card_limit": True, "live_scores": False},
    ],
)
def test_normalized_options_normalize_to_themselves(options):
    # A table stores normalized options and starts its games from them again.
    once = nimmt.normalize_options(options, 5)
    assert nimmt.normalize_options(once, 5) == once
    assert nimmt.new_game(players=5, options=once, seed=1).options == once


def test_result_before_the_end_has_no_winner():
    # RULES 1.6: winners only once the game is over
    state = nimmt.new_game(players=3, options={}, seed=1)
    assert nimmt.result(state) == {"rounds": [], "totals": [0, 0, 0], "winners": []}
    assert not nimmt.is_over(state)
