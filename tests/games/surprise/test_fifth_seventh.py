"""RULES §2.3 and §2.5: 5e série, 7 qui surprend, and takes while 5 rows lie."""

from games.surprise import engine as surprise

from .helpers import asked, decide, kinds, play, table

ROWS = [[10], [20], [30], [40]]


def test_fifth_row_is_added_after_the_four_whatever_its_card():
    """RULES 2.3 and 2.5: the card starts a 5th row at index 4, even a too-low card."""
    state = table(ROWS, [[3], [60]], [["5e_serie"], []])
    state, events = play(state, (3, "5e_serie"), 60)
    assert {"type": "fifth_row", "seat": 0, "card": 3, "row": 4} in events
    assert state.rows == ((10,), (20,), (30,), (40, 60), (3,))
    assert state.prompt is None and state.piles == ((), ())
    assert state.discard == ("5e_serie",)


def test_a_second_fifth_row_in_one_turn_cannot_apply():
    """RULES 2.5: several 5e série in one turn are each judged when their card resolves."""
    state = table(ROWS, [[50], [60]], [["5e_serie"], ["5e_serie"]])
    state, events = play(state, (50, "5e_serie"), (60, "5e_serie"))
    assert {"type": "special_returned", "seat": 1, "special": "5e_serie"} in events
    assert state.rows == ((10,), (20,), (30,), (40,), (50, 60))


def test_with_five_rows_a_sixth_card_takes_the_five_and_its_own_card():
    """RULES 2.3 and 2.5: the next take removes the row; the taker also takes their card."""
    rows = [[1, 2, 3, 4, 6], [20], [30], [40], [50]]
    state = table(rows, [[7], [60]], stops=(0, 0, 0, 1, 0))
    state, events = play(state, 7, 60)
    took = next(e for e in events if e["type"] == "took")
    assert took["cards"] == [1, 2, 3, 4, 6, 7] and took["row_removed"]
    assert state.rows == ((20,), (30,), (40,), (50, 60))
    assert state.stops == (False,) * 4  # the row held 6 number cards
    assert state.piles[0] == (1, 2, 3, 4, 6, 7)


def test_with_five_rows_later_rows_shift_down_one_index():
    """RULES 2.5: rows after the taken one shift down, with their Stop and cap."""
    rows = [[10], [20], [30], [40], [50]]
    state = table(rows, [[5], [60]], stops=(0, 0, 1, 0, 0), caps=(0, 0, 0, 1, 0))
    state, _ = play(state, 5, 60)
    state, events = decide(state, "row", row=0)
    took = next(e for e in events if e["type"] == "took")
    assert took["cards"] == [10, 5] and took["row_removed"]
    assert state.stops == (False, True, False, False)
    assert state.caps == (False, False, True, False)
    assert state.rows == ((20,), (30,), (40,), (50, 60))


def test_with_five_rows_a_capped_row_is_taken_whole_with_the_own_card():
    """RULES 2.5: a capped row is taken whole with the taker's card, and disappears."""
    rows = [[10], [20, 21], [30], [40], [50]]
    state = table(rows, [[22], [60]], caps=(0, 1, 0, 0, 0))
    state, events = play(state, 22, 60)
    took = next(e for e in events if e["type"] == "took")
    assert took["cards"] == [20, 21, 22] and took["row_removed"]
    assert len(state.rows) == 4 and "7_qui_surprend" in state.discard


def test_a_stopped_row_never_disappears():
    """RULES 2.5: a stopped row cannot be taken, so it never disappears."""
    rows = [[10], [20], [30], [40], [50]]
    state = table(rows, [[5], [60]], stops=(1, 0, 0, 0, 0))
    state, _ = play(state, 5, 60)
    assert 0 not in [d["row"] for d in surprise.legal(state, 0)]


def test_seven_laid_as_a_sixth_card_is_not_a_take():
    """RULES 2.5: with 5 rows a 7 qui surprend laid as a 6th card removes nothing."""
    rows = [[1, 2, 3, 4, 6], [20], [30], [40], [50]]
    state = table(rows, [[7], [60]], [["7_qui_surprend"], []])
    state, events = play(state, (7, "7_qui_surprend"), 60)
    assert "took" not in kinds(events) and len(state.rows) == 5


def test_each_round_starts_with_four_rows():
    """RULES 2.5: each round starts with 4 rows."""
    state = surprise.new_game(players=5, options={}, seed=2)
    assert len(state.rows) == 4 and state.stops == (False,) * 4 and state.caps == (False,) * 4


def test_seven_on_a_full_row_becomes_the_sixth_card_taking_nothing():
    """RULES 2.3: the card becomes the 6th and the special lies on it as the 7th."""
    rows = [[1, 2, 3, 4, 6], [20], [30], [40]]
    state = table(rows, [[7], [60]], [["7_qui_surprend"], []])
    state, events = play(state, (7, "7_qui_surprend"), 60)
    assert {"type": "capped", "seat": 0, "card": 7, "row": 0} in events
    assert state.rows[0] == (1, 2, 3, 4, 6, 7) and state.caps[0]
    assert state.piles == ((), ()) and state.discard == ()


def test_seven_on_a_row_not_full_caps_it_all_the_same():
    """RULES 2.3: played on a row that is not full, the special lies on top."""
    state = table(ROWS, [[15], [60]], [["7_qui_surprend"], []])
    state, _ = play(state, (15, "7_qui_surprend"), 60)
    assert state.rows[0] == (10, 15) and state.caps == (True, False, False, False)


def test_a_capped_row_is_taken_whole_by_the_next_card_going_into_it():
    """RULES 2.3: the next card that would go into it takes it whole and starts the row;
    the special goes to the discard pile."""
    state = table([[10, 15], [20], [30], [40]], [[16], [60]], caps=(1, 0, 0, 0))
    state, events = play(state, 16, 60)
    took = next(e for e in events if e["type"] == "took")
    assert took["cards"] == [10, 15]
    assert state.rows[0] == (16,) and not state.caps[0]
    assert state.discard == ("7_qui_surprend",)


def test_a_capped_row_chosen_by_a_too_low_card_is_taken_whole():
    """RULES 2.3: or who chooses it for a too-low card."""
    state = table([[10], [20, 25], [30], [40]], [[5], [60]], caps=(0, 1, 0, 0))
    state, _ = play(state, 5, 60)
    state, events = decide(state, "row", row=1)
    assert state.piles[0] == (20, 25) and state.rows[1] == (5,)
    assert state.discard == ("7_qui_surprend",) and not any(state.caps)


def test_seven_with_a_too_low_card_goes_back_to_the_hand():
    """RULES 2.3 and 2.5: if the number card is too low the special cannot apply."""
    state = table(ROWS, [[5], [60]], [["7_qui_surprend"], []])
    state, events = play(state, (5, "7_qui_surprend"), 60)
    assert {"type": "special_returned", "seat": 0, "special": "7_qui_surprend"} in events
    assert asked(state) == (0, "row")
    assert state.specials[0] == ("7_qui_surprend",)


def test_seven_on_a_capped_row_goes_back_and_the_card_takes_the_row():
    """RULES 2.5 table: cannot apply when its card's row is capped."""
    state = table(
        [[10, 15], [20], [30], [40]], [[16], [60]], [["7_qui_surprend"], []], caps=(1, 0, 0, 0)
    )
    state, events = play(state, (16, "7_qui_surprend"), 60)
    assert {"type": "special_returned", "seat": 0, "special": "7_qui_surprend"} in events
    assert state.rows[0] == (16,) and state.piles[0] == (10, 15)


def test_a_stop_on_a_capped_row_leaves_it_capped_and_closed():
    """RULES 2.5: a Stop may be put on a capped row; it stays capped underneath, and a
    stopped row is neither taken nor fed."""
    state = table([[10, 15], [20], [30], [40]], [[16], [60]], caps=(1, 0, 0, 0), stops=(1, 0, 0, 0))
    state, _ = play(state, 16, 60)
    assert asked(state) == (0, "row")  # 16's only candidate is stopped: too low
    state, _ = decide(state, "row", row=1)
    assert state.rows[0] == (10, 15) and state.caps[0] and state.stops[0]
