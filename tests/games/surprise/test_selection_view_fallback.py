"""RULES §2.2 and §2.5 ("Public", "Attaching"): selection, views; §2.6 fallbacks."""

import json

import pytest

from games.engine import IllegalDecision
from games.surprise import engine as surprise

from .helpers import asked, decide, play, table

ROWS = [[10], [20], [30], [40]]
LIVE_KEYS = {
    "version", "phase", "round", "turn", "to_act", "selected", "my_selection", "hand",
    "piles", "totals", "result", "rows", "chooser", "draft", "last_turn", "seen",
    "round_scores",
}  # fmt: skip


def test_any_special_but_negatif_positif_may_be_attached_to_any_card():
    """RULES 2.5: any special of the hand except Négatif = Positif, to any number card."""
    specials = ["stop", "glisser", "negatif_positif"]
    state = table(ROWS, [[5, 50], [60, 70]], [specials, []])
    options = {(d["card"], d["special"]) for d in surprise.legal(state, 0)}
    assert options == {(card, special) for card in (5, 50) for special in (None, "glisser", "stop")}


def test_negatif_positif_is_never_attached():
    """RULES 2.2: it is played as a reaction only."""
    state = table(ROWS, [[5], [60]], [["negatif_positif"], []])
    with pytest.raises(IllegalDecision):
        surprise.apply(state, 0, {"type": "select", "card": 5, "special": "negatif_positif"})


def test_only_a_held_special_and_at_most_one_may_be_attached():
    """RULES 2.2: at most one special of the player's own hand."""
    state = table(ROWS, [[5], [60]], [["stop"], ["glisser"]])
    for special in ("glisser", ["stop", "stop"], "joker"):
        with pytest.raises(IllegalDecision):
            surprise.apply(state, 0, {"type": "select", "card": 5, "special": special})


def test_a_selection_and_its_special_may_change_until_the_last_seat_selects():
    """RULES 1.3 as 2.2 extends it: the attachment changes with the selection."""
    state = table(ROWS, [[5, 50], [60]], [["stop"], []])
    state, _ = surprise.apply(state, 0, {"type": "select", "card": 5, "special": "stop"})
    state, _ = surprise.apply(state, 0, {"type": "select", "card": 50})
    state, events = surprise.apply(state, 1, {"type": "select", "card": 60})
    assert events[1] == {"type": "revealed", "cards": [50, 60], "specials": [None, None]}


def test_other_seats_never_learn_a_selection_or_an_attachment_before_the_reveal():
    """RULES 2.5 "Public": secret until the reveal: number card, specials in hand, and
    whether a seat attached a special."""
    base = table(ROWS, [[5, 50], [60, 70]], [["stop", "glisser"], ["inserer"]])
    plain, plain_events = surprise.apply(base, 0, {"type": "select", "card": 5})
    attached, attached_events = surprise.apply(
        base, 0, {"type": "select", "card": 50, "special": "stop"}
    )
    assert plain_events == attached_events == [{"type": "selected", "seat": 0}]
    for seat in (1, None):
        assert surprise.view(plain, seat) == surprise.view(attached, seat)
    mine = surprise.view(attached, 0)
    assert mine["my_selection"] == 50 and mine["my_special"] == "stop"
    other = surprise.view(attached, 1)
    assert other["hand"] == [60, 70] and other["specials"] == ["inserer"]
    assert other["special_counts"] == [2, 1]
    assert "5" not in json.dumps(other["hand"]) and other["my_special"] is None


def test_the_view_shows_what_is_public_piles_box_and_revealed_specials():
    """RULES 2.5: each seat's number of specials, the draw pile's size, the discard pile,
    the removed cards and every revealed special (also one that went back)."""
    state = table(
        [[11, 12, 13, 14, 16], [20], [30], [40]],
        [[17], [25]],
        [["negatif_positif", "remplacer"], []],
        draw=("stop", "stop"),
        discard=("glisser",),
    )
    state, _ = play(state, (17, "remplacer"), 25)
    spectator = surprise.view(state, None)
    assert spectator["revealed"] == [17, 25]
    assert spectator["revealed_specials"] == ["remplacer", None]
    assert spectator["special_counts"] == [2, 0]  # the Remplacer went back: no other card
    state, _ = decide(state, "negatif_positif", card=11, extras=[])
    spectator = surprise.view(state, None)
    assert spectator["box"] == [11] and spectator["draw"] == 2
    assert spectator["discard"] == ["glisser", "negatif_positif"]
    assert spectator["hand"] is None and spectator["specials"] is None
    assert spectator["prompt"] == {"seat": 0, "kind": "exchange", "taken": []}


def test_the_view_carries_the_entries_the_live_layer_reads():
    """docs/engines.md, "Adding a game" item 1; JSON-safe."""
    state = surprise.new_game(players=3, options={}, seed=4)
    for seat in (0, None):
        view = surprise.view(state, seat)
        assert set(view) >= LIVE_KEYS
        assert view["draft"] is None and view["phase"] == "select"
        json.dumps(view)


def test_live_scores_off_hides_the_heads_of_the_round_in_progress():
    """RULES 1.5 and 2.5: without live scores pile heads stay hidden until round end."""
    full = [[11, 12, 13, 14, 16], [20], [30], [40]]
    state = table(full, [[17, 50], [60, 70]], live=False)
    state, events = play(state, 17, 60)
    took = next(e for e in events if e["type"] == "took")
    assert took["heads"] is None
    view = surprise.view(state, 1)
    assert view["piles"][0] == {"cards": 5, "heads": None} and view["totals"] == [0, 0]


def test_fallback_selection_is_the_lowest_card_without_a_special():
    """RULES 2.6: selection — the lowest card, no special."""
    state = table(ROWS, [[50, 5], [60]], [["stop"], []])
    assert surprise.fallback(state, 0) == {"type": "select", "card": 5, "special": None}


def test_fallback_remplacer_keeps_the_card():
    """RULES 2.6: Remplacer — keep the card (the Remplacer is used up)."""
    state = table(ROWS, [[15, 45], [25]], [["remplacer"], []])
    state, _ = play(state, (15, "remplacer"), 25)
    assert surprise.fallback(state, 0) == {"type": "remplacer", "card": None}


def test_fallback_stop_takes_the_row_with_the_most_heads_lowest_index_on_a_tie():
    """RULES 2.6: Stop — the row without a Stop that holds the most heads."""
    rows = [[10], [20], [55], [33]]  # heads 3, 3, 7 (stopped), 5
    state = table(rows, [[12], [60]], [["stop"], []], stops=(0, 0, 1, 0))
    state, _ = play(state, (12, "stop"), 60)
    assert state.rows[0] == (10, 12)  # 4 heads; 60 waits
    assert surprise.fallback(state, 0) == {"type": "stop", "row": 3}
    state = table([[10], [20], [30], [41]], [[42], [60]], [["stop"], []])
    state, _ = play(state, (42, "stop"), 60)  # rows of 3, 3, 3 and 2 heads
    assert surprise.fallback(state, 0) == {"type": "stop", "row": 0}


def test_fallback_inserer_takes_the_lowest_row_at_position_zero():
    """RULES 2.6: Insérer — the lowest row, position 0 (the first row it may use)."""
    state = table(ROWS, [[50], [60]], [["inserer"], []], stops=(1, 0, 0, 0))
    state, _ = play(state, (50, "inserer"), 60)
    assert surprise.fallback(state, 0) == {"type": "inserer", "row": 1, "position": 0}


def test_fallback_glisser_takes_the_first_legal_move():
    """RULES 2.6: Glisser — the first legal move in (source row, index, target row,
    position) order."""
    state = table(ROWS, [[50], [60]], [["glisser"], []], stops=(1, 0, 0, 0))
    state, _ = play(state, (50, "glisser"), 60)
    assert surprise.fallback(state, 0) == {"type": "glisser", "from": [1, 0], "to": [2, 0]}


def test_fallback_too_low_row_is_the_cheapest_unstopped_row_capped_cards_counting():
    """RULES 2.6 and 1.8: the row with the fewest heads, lowest index on a tie."""
    rows = [[10], [20, 21], [30], [55]]  # heads 3, 4 (capped), 3 (stopped), 7
    state = table(rows, [[5], [60]], stops=(0, 0, 1, 0), caps=(0, 1, 0, 0))
    state, _ = play(state, 5, 60)
    assert asked(state) == (0, "row")
    assert surprise.fallback(state, 0) == {"type": "row", "row": 0}


def test_fallback_reactions_do_nothing():
    """RULES 2.6: reactions — nothing."""
    full = [[11, 12, 13, 14, 16], [20], [30], [40]]
    state = table(full, [[17], [60]], [["negatif_positif", "stop"], []])
    state, _ = play(state, 17, 60)
    assert surprise.fallback(state, 0) == {"type": "negatif_positif", "card": None, "extras": None}
    state, _ = surprise.apply(state, 0, surprise.fallback(state, 0))
    assert surprise.fallback(state, 0) == {"type": "exchange", "special": None}
    with pytest.raises(IllegalDecision):
        surprise.fallback(state, 1)


def test_a_decision_of_the_wrong_seat_or_kind_is_refused():
    """docs/engines.md: apply raises IllegalDecision and changes nothing."""
    state = table(ROWS, [[5], [60]], [["stop"], []])
    state, _ = play(state, 5, 60)
    before = surprise.dump(state)
    with pytest.raises(IllegalDecision):
        surprise.apply(state, 1, {"type": "row", "row": 0})
    with pytest.raises(IllegalDecision):
        surprise.apply(state, 0, {"type": "stop", "row": 0})
    with pytest.raises(IllegalDecision):
        surprise.apply(state, 0, {"type": "select", "card": 5})
    assert surprise.dump(state) == before
