"""RULES §2.3 and §2.5: Insérer and Glisser."""

import pytest

from games.engine import IllegalDecision
from games.surprise import engine as surprise

from .helpers import asked, decide, kinds, play, table


def test_inserer_goes_at_the_start_or_between_two_cards_never_at_the_end():
    """RULES 2.5: position = the card's index after insertion, 0 … len−1."""
    state = table([[10, 12, 14], [20], [30], [40]], [[50, 15], [60, 70]], [["inserer"], []])
    state, _ = play(state, (50, "inserer"), 60)
    assert asked(state) == (0, "inserer")
    options = [(d["row"], d["position"]) for d in surprise.legal(state, 0)]
    assert options == [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (3, 0)]
    with pytest.raises(IllegalDecision):
        decide(state, "inserer", row=0, position=3)
    state, events = decide(state, "inserer", row=0, position=1)
    assert {"type": "inserted", "seat": 0, "card": 50, "row": 0, "position": 1} in events
    assert state.rows[0] == (10, 50, 12, 14)
    assert state.discard == ("inserer",)


def test_after_inserer_only_a_rows_last_card_matters():
    """RULES 2.3: ascending order need not hold afterwards."""
    state = table([[10, 12, 14], [20], [30], [40]], [[50, 15], [60, 70]], [["inserer"], []])
    state, _ = play(state, (50, "inserer"), 60)
    state, _ = decide(state, "inserer", row=0, position=1)
    state, _ = play(state, 15, 70)
    assert state.rows[0] == (10, 50, 12, 14, 15)


def test_inserer_making_six_takes_the_first_five_the_old_last_card_starts_the_row():
    """RULES 2.3 and 2.5: a 6th-card take; the old last card alone starts the row."""
    rows = [[10, 11, 12, 13, 14], [20], [30], [40]]
    state = table(rows, [[50], [60]], [["inserer"], []], stops=(0, 0, 1, 0))
    state, _ = play(state, (50, "inserer"), 60)
    state, events = decide(state, "inserer", row=0, position=2)
    took = next(e for e in events if e["type"] == "took")
    assert took["cards"] == [10, 11, 50, 12, 13]
    assert state.rows[0] == (14,)
    assert "stops_cleared" in kinds(events)  # the row held 6 number cards


def test_inserer_making_six_with_five_rows_takes_all_six_and_the_row_disappears():
    """RULES 2.5: while 5 rows lie on the table the player takes all 6."""
    rows = [[10, 11, 12, 13, 14], [20], [30], [40], [90]]
    state = table(rows, [[50], [60]], [["inserer"], []])
    state, _ = play(state, (50, "inserer"), 60)
    state, events = decide(state, "inserer", row=0, position=0)
    took = next(e for e in events if e["type"] == "took")
    assert took["cards"] == [50, 10, 11, 12, 13, 14] and took["row_removed"]
    assert state.rows == ((20,), (30,), (40, 60), (90,))


def test_inserer_into_an_empty_row_goes_at_position_zero():
    """RULES 2.5: an empty row takes it at 0."""
    state = table([[10], [], [30], [40]], [[50], [35]], [["inserer"], []])
    state, _ = play(state, (50, "inserer"), 35)
    assert {"type": "inserer", "row": 1, "position": 0} in surprise.legal(state, 0)
    state, _ = decide(state, "inserer", row=1, position=0)
    assert state.rows[1] == (50,)


def test_inserer_cannot_apply_without_an_unstopped_uncapped_row():
    """RULES 2.5 table: no row both unstopped and uncapped; the card is placed normally."""
    state = table(
        [[10], [20], [30], [40]],
        [[35], [60]],
        [["inserer"], []],
        stops=(1, 1, 0, 0),
        caps=(0, 0, 1, 1),
    )
    state, events = play(state, (35, "inserer"), 60)
    assert {"type": "special_returned", "seat": 0, "special": "inserer"} in events
    assert state.specials[0] == ("inserer",)
    took = next(e for e in events if e["type"] == "took")  # 35 goes into capped row 2
    assert took["row"] == 2


def test_inserer_with_a_too_low_card_inserts_it():
    """RULES 2.5: with a too-low card Insérer inserts it, taking nothing."""
    state = table([[10, 11], [20], [30], [40]], [[5], [60]], [["inserer"], []])
    state, _ = play(state, (5, "inserer"), 60)
    assert asked(state) == (0, "inserer")
    state, events = decide(state, "inserer", row=0, position=1)
    assert state.rows[0] == (10, 5, 11) and "took" not in kinds(events)


def test_capped_and_stopped_rows_are_neither_source_nor_target():
    """RULES 2.3 and 2.5: a stopped or capped row cannot be modified by Insérer or Glisser."""
    state = table(
        [[10, 11], [20], [30], [40]],
        [[25], [60]],
        [["glisser"], []],
        stops=(0, 0, 1, 0),
        caps=(0, 0, 0, 1),
    )
    state, _ = play(state, (25, "glisser"), 60)
    moves = {(tuple(d["from"]), tuple(d["to"])) for d in surprise.legal(state, 0)}
    assert moves == {
        ((0, 0), (1, 0)),
        ((0, 0), (1, 1)),
        ((0, 1), (1, 0)),
        ((0, 1), (1, 1)),
        ((1, 0), (0, 0)),
        ((1, 0), (0, 1)),
        ((1, 0), (0, 2)),
    }


def test_glisser_moves_a_card_then_the_number_card_is_placed_normally():
    """RULES 2.3: move one card to any position of another row, then place normally."""
    state = table([[10, 11], [20], [30], [40]], [[25], [60]], [["glisser"], []])
    state, _ = play(state, (25, "glisser"), 60)
    assert asked(state) == (0, "glisser")
    state, events = decide(state, "glisser", **{"from": [0, 1], "to": [1, 0]})
    assert {"type": "slid", "seat": 0, "card": 11, "from": [0, 1], "to": [1, 0]} in events
    assert state.rows == ((10,), (11, 20, 25), (30,), (40, 60))
    assert state.discard == ("glisser",)


def test_a_row_emptied_by_glisser_ends_in_zero_and_serves_a_too_low_card():
    """RULES 2.3 and 2.5: an empty row counts as ending in 0; Glisser's move comes first."""
    state = table([[10], [20], [30], [40]], [[5], [60]], [["glisser"], []])
    state, _ = play(state, (5, "glisser"), 60)
    state, events = decide(state, "glisser", **{"from": [0, 0], "to": [1, 1]})
    assert state.rows == ((5,), (20, 10), (30,), (40, 60))
    assert "took" not in kinds(events) and state.prompt is None


def test_a_card_bound_for_empty_rows_goes_to_the_first_in_table_order():
    """RULES 2.5: empty rows stay rows; the first in table order takes the card."""
    state = table([[], [20], [], [40]], [[5], [60]])
    state, _ = play(state, 5, 60)
    assert state.rows == ((5,), (20,), (), (40, 60))


def test_glisser_making_six_takes_the_first_five_then_the_card_is_placed():
    """RULES 2.3 and 2.5: the moved card makes 6; first 5 taken, the last starts the row."""
    rows = [[1, 2, 3, 4, 6], [20], [30], [40]]
    state = table(rows, [[25], [60]], [["glisser"], []])
    state, _ = play(state, (25, "glisser"), 60)
    state, events = decide(state, "glisser", **{"from": [1, 0], "to": [0, 5]})
    took = next(e for e in events if e["type"] == "took")
    assert took["cards"] == [1, 2, 3, 4, 6] and took["seat"] == 0
    assert state.rows == ((20, 25), (), (30,), (40, 60))


def test_glisser_making_six_with_five_rows_takes_the_row_and_the_own_card():
    """RULES 2.5: while 5 rows lie on the table the Glisser's player takes the whole row
    and their own number card, which is not placed; the row disappears."""
    rows = [[1, 2, 3, 4, 6], [20], [30], [40], [90]]
    state = table(rows, [[25], [60]], [["glisser"], []])
    state, _ = play(state, (25, "glisser"), 60)
    state, events = decide(state, "glisser", **{"from": [1, 0], "to": [0, 5]})
    took = next(e for e in events if e["type"] == "took")
    assert took["cards"] == [1, 2, 3, 4, 6, 20, 25] and took["row_removed"]
    assert state.rows == ((), (30,), (40, 60), (90,))
    assert 25 not in [card for row in state.rows for card in row]


def test_glisser_cannot_apply_when_no_card_can_move():
    """RULES 2.5 table: no card of an unstopped uncapped row can move to another one."""
    state = table(
        [[10], [20], [30], [40]],
        [[45], [60]],
        [["glisser"], []],
        stops=(1, 1, 0, 0),
        caps=(0, 0, 1, 0),
    )
    state, events = play(state, (45, "glisser"), 60)
    assert {"type": "special_returned", "seat": 0, "special": "glisser"} in events
    assert state.rows[3] == (40, 45, 60)


def test_the_glisser_move_is_compulsory():
    """RULES 2.5: the move is compulsory when one exists: no decision skips it."""
    state = table([[10, 11], [20], [30], [40]], [[25], [60]], [["glisser"], []])
    state, _ = play(state, (25, "glisser"), 60)
    with pytest.raises(IllegalDecision):
        decide(state, "glisser", **{"from": None, "to": None})
    with pytest.raises(IllegalDecision):
        decide(state, "glisser", **{"from": [0, 1], "to": [0, 0]})  # same row
    assert all(d["from"] is not None for d in surprise.legal(state, 0))
