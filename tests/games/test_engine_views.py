"""What a seat or a spectator may see: RULES §1.3 (secret selection), §1.5 (piles, live
scores) and §1.7 (public draft picks)."""

import json
import random

import pytest

from games.nimmt import engine as nimmt
from games.nimmt.engine import rules

KEYS = {
    "kind", "seat", "players", "options", "version", "phase", "round", "turn", "rows", "hand",
    "selected", "my_selection", "revealed", "resolving", "chooser", "piles", "round_scores",
    "totals", "seen", "last_turn", "draft", "to_act", "result",
}  # fmt: skip


def dealt(rows, hands, **options):
    state = nimmt.new_game(players=len(hands), options=options, seed=0)
    return rules.with_deal(state, rows, hands)


def test_view_shape_of_a_fresh_game():
    state = nimmt.new_game(players=3, options={}, seed=1)
    view = nimmt.view(state, 1)
    assert set(view) == KEYS
    assert view["kind"] == "nimmt"
    assert view["phase"] == "select"
    assert (view["round"], view["turn"], view["version"]) == (1, 1, 0)
    assert view["hand"] == list(state.hands[1])
    assert view["selected"] == [False, False, False]
    assert view["to_act"] == [0, 1, 2]
    assert view["piles"] == [{"cards": 0, "heads": 0}] * 3
    assert view["draft"] is None and view["result"] is None
    json.dumps(view)  # JSON-safe


def test_spectator_sees_no_hand_and_no_selection():
    # RULES 1.3: nobody learns a choice until all have chosen; spectators hold no hand
    state = nimmt.new_game(players=3, options={}, seed=1)
    state, _ = nimmt.apply(state, 0, {"type": "select", "card": state.hands[0][4]})
    view = nimmt.view(state, None)
    assert view["seat"] is None and view["hand"] is None and view["my_selection"] is None
    assert view["selected"] == [True, False, False]
    assert view["revealed"] is None


def test_own_selection_is_shown_only_to_its_seat():
    # RULES 1.3
    state = dealt([12, 37, 43, 58], [[44, 45], [60, 61]])
    state, _ = nimmt.apply(state, 0, {"type": "select", "card": 45})
    assert nimmt.view(state, 0)["my_selection"] == 45
    assert nimmt.view(state, 1)["my_selection"] is None
    assert nimmt.view(state, 1)["selected"] == [True, False]


def test_revealed_cards_and_chooser_while_a_row_is_chosen():
    # RULES 1.3 (all revealed at once) and 1.4 (the chooser)
    state = dealt([12, 37, 43, 58], [[3, 45], [60, 61], [80, 81]])
    for seat, card in enumerate([3, 60, 80]):
        state, _ = nimmt.apply(state, seat, {"type": "select", "card": card})
    view = nimmt.view(state, 2)
    assert view["phase"] == "choose_row"
    assert view["revealed"] == [3, 60, 80]
    assert view["resolving"] == [3, 60, 80]
    assert view["chooser"] == 0
    assert view["to_act"] == [0]
    assert view["hand"] == [81]
    assert view["seen"] == [3, 12, 37, 43, 58, 60, 80]


def test_last_turn_shows_what_was_played_and_chosen():
    state = dealt([12, 37, 43, 58], [[3, 45], [60, 61]])
    for seat, card in enumerate([3, 60]):
        state, _ = nimmt.apply(state, seat, {"type": "select", "card": card})
    state, _ = nimmt.apply(state, 0, {"type": "row", "row": 2})
    view = nimmt.view(state, None)
    assert view["last_turn"] == {"cards": [3, 60], "choices": {"0": 2}}
    assert view["turn"] == 2
    assert view["piles"][0] == {"cards": 1, "heads": nimmt.heads(43)}


def test_draft_view_shows_pool_and_public_picks():
    # RULES 1.7: picks are public as they happen
    state = nimmt.new_game(players=2, options={"deal": "draft", "card_limit": True}, seed=1)
    state, _ = nimmt.apply(state, 0, {"type": "pick", "card": 7})
    view = nimmt.view(state, None)
    assert view["phase"] == "draft"
    assert view["turn"] is None
    assert view["draft"] == {
        "pool": [c for c in range(1, 25) if c != 7],
        "picks": [[0, 7]],
        "to_pick": 1,
    }
    assert view["to_act"] == [1]
    assert nimmt.view(state, 0)["hand"] == [7]


def test_view_of_a_finished_game_carries_the_result():
    state = nimmt.new_game(players=2, options={"end": "rounds", "rounds": 1}, seed=1)
    while not nimmt.is_over(state):
        seat = nimmt.to_act(state)[0]
        state, _ = nimmt.apply(state, seat, nimmt.fallback(state, seat))
    view = nimmt.view(state, 0)
    assert view["phase"] == "over"
    assert view["result"] == nimmt.result(state)
    assert view["totals"] == view["result"]["totals"]
    assert view["to_act"] == []


def test_view_refuses_a_seat_not_at_the_table():
    state = nimmt.new_game(players=2, options={}, seed=1)
    with pytest.raises(ValueError):
        nimmt.view(state, 2)


# --- leaks: a view must not change when only others' secrets change ---------------------


def _with_other_secrets_changed(state, seat, rng):
    """The same public situation, other seats' hands and unrevealed choices redealt.

    Cards held by seats other than `seat` (and, before the reveal, their selections) are
    shuffled among those seats, keeping each hand's size and each seat's "has selected".
    A view that leaks nothing is identical for both states.
    """
    data = nimmt.dump(state)
    others = [s for s in range(state.players) if s != seat]
    held = [c for s in others for c in data["hands"][s]]
    rng.shuffle(held)
    for s in others:
        size = len(data["hands"][s])
        data["hands"][s], held = sorted(held[:size]), held[size:]
        if data["phase"] == "select" and data["selections"][s]:
            data["selections"][s] = rng.choice(data["hands"][s])
    return nimmt.load(data)


@pytest.mark.parametrize("players", [2, 4, 10])
@pytest.mark.parametrize("live_scores", [True, False])
def test_views_do_not_depend_on_other_seats_secrets(players, live_scores):
    # RULES 1.3: another seat's hand or unrevealed selection never reaches a view
    rng = random.Random(players)
    state = nimmt.new_game(players=players, options={"live_scores": live_scores}, seed=players)
    checked = 0
    while not nimmt.is_over(state) and checked < 400:
        if state.phase == "select":
            for seat in [None, *range(players)]:
                other = _with_other_secrets_changed(state, seat, rng)
                assert nimmt.view(other, seat) == nimmt.view(state, seat)
                checked += 1
        seat = rng.choice(nimmt.to_act(state))
        state, _ = nimmt.apply(state, seat, rng.choice(nimmt.legal(state, seat)))


def test_selected_event_does_not_carry_the_card():
    # RULES 1.3: "not even that a particular card was chosen"
    state = nimmt.new_game(players=3, options={}, seed=1)
    card = state.hands[0][0]
    _, events = nimmt.apply(state, 0, {"type": "select", "card": card})
    assert events == [{"type": "selected", "seat": 0}]
