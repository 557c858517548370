"""The game log (games/nimmt/engine/log.py): every turn placed again card by card, RULES §1.4
(where a card goes, a 6th card and a too-low card take a row) and §1.5 (heads hidden
during the round with live scores off)."""

import random

import pytest

from games.nimmt import engine as nimmt
from games.nimmt.engine import rules
from games.nimmt.engine.cards import HEADS
from games.nimmt.engine.log import turn_plays


def test_a_sixth_card_takes_the_five_and_a_too_low_card_the_chosen_row():
    rows = [(10, 11, 12, 13, 14), (30,), (50,), (70,)]
    # Seat 0 plays 15 (6th card of row 1), seat 1 plays 2 (too low, chose row 3), seat 2 31.
    plays, after = turn_plays(rows, [15, 2, 31], [(1, 2)])
    assert plays == [
        {"seat": 1, "card": 2, "row": 2, "took": [50]},
        {"seat": 0, "card": 15, "row": 0, "took": [10, 11, 12, 13, 14]},
        {"seat": 2, "card": 31, "row": 1, "took": None},
    ]
    assert after == [(15,), (30, 31), (2,), (70,)]


def _play_out(state, rng):
    """Random legal decisions to the end; the engine's own "took" events, per turn."""
    takes = []
    while not nimmt.is_over(state):
        seat = rng.choice(nimmt.to_act(state))
        state, events = nimmt.apply(state, seat, rng.choice(nimmt.legal(state, seat)))
        for event in events:
            if event["type"] == "took":
                takes.append((event["seat"], event["row"], event["cards"]))
    return state, takes


@pytest.mark.parametrize("seed", range(8))
def test_the_log_agrees_with_the_engine_on_every_take(seed):
    rng = random.Random(seed)
    players = rng.randint(2, 10)
    deal = "draft" if seed % 3 == 0 else "random"
    state = nimmt.new_game(
        players=players, options={"end": "rounds", "rounds": 3, "deal": deal}, seed=seed
    )
    state, takes = _play_out(state, rng)
    log = nimmt.log(state)
    turns = [(r, t) for r in (1, 2, 3) for t in range(1, 11)]
    assert [(e["round"], e["turn"]) for e in log] == turns
    logged = [
        (play["seat"], play["row"], play["took"])
        for entry in log
        for play in entry["plays"]
        if play["took"]
    ]
    assert logged == takes
    for entry in log:
        assert sorted(p["seat"] for p in entry["plays"]) == list(range(players))
        for play in entry["plays"]:
            assert play["heads"] == (sum(HEADS[c] for c in play["took"]) if play["took"] else None)


def test_heads_of_the_round_in_play_stay_hidden_without_live_scores():
    rows = [10, 20, 30, 40]
    hands = [(5, 41, 42, 43, 44, 45, 46, 47, 48, 49), (1, 51, 52, 53, 54, 55, 56, 57, 58, 59)]
    state = rules.with_deal(
        nimmt.new_game(players=2, options={"live_scores": False}, seed=0), rows, hands
    )
    state, _ = nimmt.apply(state, 0, {"type": "select", "card": 5})
    state, _ = nimmt.apply(state, 1, {"type": "select", "card": 1})
    state, _ = nimmt.apply(state, 1, {"type": "row", "row": 3})  # 1 takes 40; 5 follows it
    (entry,) = nimmt.log(state)
    assert entry["plays"] == [
        {"seat": 1, "card": 1, "row": 3, "took": [40], "heads": None},
        {"seat": 0, "card": 5, "row": 3, "took": None, "heads": None},
    ]


def test_the_first_turn_of_a_round_still_shows_the_last_turn_of_the_one_before():
    # Issue 21, bug 1: a new round is dealt at once; its last turn must stay visible.
    state = nimmt.new_game(players=3, options={"end": "rounds", "rounds": 2}, seed=4)
    rng = random.Random(4)
    while state.round == 1:
        seat = rng.choice(nimmt.to_act(state))
        state, _ = nimmt.apply(state, seat, rng.choice(nimmt.legal(state, seat)))
    view = nimmt.view(state, None)
    assert view["round"] == 2 and view["turn"] == 1
    cards, choices = state.history[-1][3][-1]
    assert view["last_turn"] == {
        "cards": list(cards),
        "choices": {str(seat): row for seat, row in choices},
    }
    assert nimmt.log(state, since_round=2) == []
    assert nimmt.log(state, since_round=1)[-1]["turn"] == 10
