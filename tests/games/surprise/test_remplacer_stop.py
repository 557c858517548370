"""RULES §2.3 and §2.5: Remplacer, Stop, and the order of a turn."""

import pytest

from games.engine import IllegalDecision
from games.surprise import engine as surprise

from .helpers import asked, decide, kinds, play, table

ROWS = [[10], [20], [30], [40]]


def test_remplacer_swaps_the_card_before_anything_is_placed():
    """RULES 2.3: after the reveal the card is swapped for another of the hand, the first
    returns to the hand, and resolution uses the final cards."""
    state = table(ROWS, [[15, 45], [25, 35]], [["remplacer"], []])
    state, events = play(state, (15, "remplacer"), 25)
    assert asked(state) == (0, "remplacer")
    assert state.rows == ((10,), (20,), (30,), (40,))  # nothing placed yet
    state, events = decide(state, "remplacer", card=45)
    assert {"type": "replaced", "seat": 0, "card": 15, "by": 45} in events
    placed = [(e["card"], e["row"]) for e in events if e["type"] == "placed"]
    assert placed == [(25, 1), (45, 3)]  # 25 first: the order of the final cards
    assert state.hands == ((15,), (35,))
    assert state.discard == ("remplacer",)


def test_remplacer_kept_card_loses_the_remplacer():
    """RULES 2.5: keeping the card uses the Remplacer up (discarded)."""
    state = table(ROWS, [[15, 45], [25, 35]], [["remplacer"], []])
    state, _ = play(state, (15, "remplacer"), 25)
    state, events = decide(state, "remplacer", card=None)
    assert {"type": "replaced", "seat": 0, "card": 15, "by": None} in events
    assert state.rows[0] == (10, 15)
    assert state.specials[0] == () and state.discard == ("remplacer",)


def test_remplacer_without_another_number_card_goes_back_to_the_hand():
    """RULES 2.5 table: Remplacer cannot apply when its owner has no other number card."""
    state = table(ROWS, [[15], [25]], [["remplacer"], []])
    state, events = play(state, (15, "remplacer"), 25)
    assert state.prompt is None
    assert {"type": "special_returned", "seat": 0, "special": "remplacer"} in events
    assert state.specials[0] == ("remplacer",)
    assert state.rows[0] == (10, 15)


def test_several_remplacer_lowest_original_card_first():
    """RULES 2.5: Remplacer swaps one at a time, lowest originally revealed card first."""
    state = table(ROWS, [[35, 45], [12, 14]], [["remplacer"], ["remplacer"]])
    state, _ = play(state, (35, "remplacer"), (12, "remplacer"))
    assert asked(state) == (1, "remplacer")
    state, _ = decide(state, "remplacer", card=14)
    assert asked(state) == (0, "remplacer")
    assert state.cards == (35, 14)  # the first swap is public at once


def test_remplacer_may_bring_in_only_a_card_of_the_hand():
    """RULES 2.5: any other number card of the hand may come in."""
    state = table(ROWS, [[15, 45], [25, 35]], [["remplacer"], []])
    state, _ = play(state, (15, "remplacer"), 25)
    assert [d["card"] for d in surprise.legal(state, 0)] == [None, 45]
    for card in (15, 35, 99):
        with pytest.raises(IllegalDecision):
            decide(state, "remplacer", card=card)


def test_stop_goes_on_the_chosen_row_after_its_card_is_placed():
    """RULES 2.3: after placing the number card the player puts the Stop on a row; the
    stopped row then receives no card."""
    state = table(ROWS, [[15], [60]], [["stop"], []])
    state, events = play(state, (15, "stop"), 60)
    assert asked(state) == (0, "stop")
    assert state.rows[0] == (10, 15)
    assert [d["row"] for d in surprise.legal(state, 0)] == [0, 1, 2, 3]
    state, events = decide(state, "stop", row=3)
    assert {"type": "stopped", "seat": 0, "row": 3} in events
    assert state.stops == (False, False, False, True)
    assert state.rows == ((10, 15), (20,), (30, 60), (40,))  # 60 skips the stopped row 3


def test_card_whose_only_candidates_are_stopped_is_too_low():
    """RULES 2.3: placement ignores stopped rows; its player chooses among the unstopped."""
    state = table(ROWS, [[15], [60]], stops=(True, False, False, False))
    state, events = play(state, 15, 60)
    assert asked(state) == (0, "row")
    assert [d["row"] for d in surprise.legal(state, 0)] == [1, 2, 3]
    with pytest.raises(IllegalDecision):
        decide(state, "row", row=0)  # a stopped row cannot be chosen or taken


def test_a_third_stop_cannot_apply():
    """RULES 2.3 and 2.5: at most 2 Stops; a third goes back to its owner's hand."""
    state = table(ROWS, [[35], [60]], [["stop"], []], stops=(True, True, False, False))
    state, events = play(state, (35, "stop"), 60)
    assert state.prompt is None
    assert {"type": "special_returned", "seat": 0, "special": "stop"} in events
    assert state.specials[0] == ("stop",)


def test_stop_limit_is_counted_after_its_cards_take():
    """RULES 2.5: the limit of 2 is counted after the card's placement and its take."""
    rows = [[1, 2, 3, 4, 6], [20], [30], [40]]
    state = table(rows, [[7], [60]], [["stop"], []], stops=(False, True, True, False))
    state, events = play(state, (7, "stop"), 60)
    assert "stops_cleared" in kinds(events)
    assert asked(state) == (0, "stop")


def test_a_sixth_card_take_clears_every_stop_before_its_reactions():
    """RULES 2.3 and 2.5: every Stop goes to the discard right after the take of a row
    that holds 6 number cards, before that take's reactions."""
    rows = [[1, 2, 3, 4, 6], [20], [30], [40]]
    state = table(rows, [[7], [60]], [["negatif_positif"], []], stops=(False, True, True, False))
    state, events = play(state, 7, 60)
    order = kinds(events)
    assert order.index("took") < order.index("stops_cleared") < order.index("placed")
    assert asked(state) == (0, "negatif_positif")
    assert state.stops == (False,) * 4 and state.discard == ("stop", "stop")


def test_a_too_low_take_does_not_clear_the_stops():
    """RULES 2.5: never after a too-low take."""
    state = table(ROWS, [[5], [60]], stops=(False, False, True, False))
    state, _ = play(state, 5, 60)
    state, events = decide(state, "row", row=0)
    assert "stops_cleared" not in kinds(events)
    assert state.stops == (False, False, True, False)


def test_taking_a_capped_row_of_fewer_than_six_does_not_clear_the_stops():
    """RULES 2.5: never after the take of a capped row of fewer than 6 cards."""
    rows = [[10], [20, 21], [30], [40]]
    state = table(rows, [[22], [60]], stops=(False, False, True, False), caps=(0, 1, 0, 0))
    state, events = play(state, 22, 60)
    assert "took" in kinds(events) and "stops_cleared" not in kinds(events)
    assert state.stops[2]


def test_taking_a_capped_row_of_six_clears_the_stops():
    """RULES 2.5: a capped row of 6 holds 6 number cards when taken."""
    rows = [[10], [20, 21, 22, 23, 24, 25], [30], [40]]
    state = table(rows, [[26], [60]], stops=(False, False, True, False), caps=(0, 1, 0, 0))
    state, events = play(state, 26, 60)
    assert "stops_cleared" in kinds(events)
    assert state.stops == (False,) * 4


def test_a_too_low_card_choosing_a_capped_row_of_six_clears_the_stops():
    """Decision (RULES 2.5 is ambiguous here): the take of a row that holds 6 number
    cards clears the Stops however it is taken, so also a too-low card's choice of a
    capped row of 6."""
    rows = [[10], [20, 21, 22, 23, 24, 25], [30], [40]]
    state = table(rows, [[5], [60]], stops=(False, False, True, False), caps=(0, 1, 0, 0))
    state, _ = play(state, 5, 60)
    state, events = decide(state, "row", row=1)
    assert "stops_cleared" in kinds(events)


def test_stop_may_go_on_empty_capped_and_fifth_rows_never_on_a_stopped_one():
    """RULES 2.5: any row that carries no Stop; a row carries at most one."""
    rows = [[10], [], [30], [40], [50]]
    state = table(rows, [[55], [60]], [["stop"], []], stops=(0, 0, 0, 1, 0), caps=(0, 0, 1, 0, 0))
    state, _ = play(state, (55, "stop"), 60)
    assert asked(state) == (0, "stop")
    assert [d["row"] for d in surprise.legal(state, 0)] == [0, 1, 2, 4]
    state, _ = decide(state, "stop", row=2)
    assert state.stops[2] and state.caps[2]  # stays capped underneath


def test_stop_with_a_too_low_card_comes_after_the_take_and_its_reactions():
    """RULES 2.5: Stop is put after the card's take and that take's reactions."""
    state = table(ROWS, [[5], [60]], [["stop", "glisser"], []])
    state, events = play(state, (5, "stop"), 60)
    state, events = decide(state, "row", row=0)
    assert asked(state) == (0, "exchange")
    state, events = decide(state, "exchange", special=None)
    assert asked(state) == (0, "stop")


def test_a_special_acts_only_while_its_own_card_resolves():
    """RULES 2.5: cards ascend by final value; each special acts on the table as the
    lower cards left it (the lower 12 is placed before 15's Stop)."""
    state = table(ROWS, [[15], [12]], [["stop"], []])
    state, events = play(state, (15, "stop"), 12)
    placed = [e["card"] for e in events if e["type"] == "placed"]
    assert placed == [12, 15]
    assert asked(state) == (0, "stop")
