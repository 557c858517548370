"""RULES §4.2: the 6 qui surprend record, its round trip through `replay`, and every
illegal case rejected with a RecordError naming round, turn and seat."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import RecordError
from games.surprise import engine as surprise

from .games import random_game

NAMES = ["ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"]


def finished(seed, players):
    state = random_game(seed, players)
    return state, surprise.record(state, NAMES[:players])


def find(players, wanted, seeds=range(200)):
    """The record of the first random game whose record satisfies `wanted(record)`."""
    for seed in seeds:
        _state, record = finished(seed, players)
        found = wanted(record)
        if found:
            return record, found
    raise AssertionError("no random game has it")


def turns(record):
    for r, entry in enumerate(record["rounds"], 1):
        for t, turn in enumerate(entry["turns"], 1):
            yield r, t, turn


def first_decision(kind):
    def wanted(record):
        for r, t, turn in turns(record):
            for index, decision in enumerate(turn["decisions"]):
                if decision[1] == kind:
                    return r, t, index
        return None

    return wanted


def rejected(record, **where):
    with pytest.raises(RecordError) as caught:
        surprise.replay(record)
    error = caught.value
    for name, value in where.items():
        assert getattr(error, name) == value, (name, str(error))
    return error


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 8))
def test_records_round_trip_through_replay(seed, players):
    """RULES 4.2: a finished game's record re-plays to the same result, through JSON."""
    state, record = finished(seed, players)
    record = json.loads(json.dumps(record))
    assert surprise.replay(record) == surprise.result(state)


def test_the_record_has_the_format_of_rules_4_2():
    """RULES 4.2: format, game, options, players, specials, rounds with rows, hands,
    reshuffles and turns of cards, specials and decisions."""
    state, record = finished(5, 3)
    assert record["format"] == "sixclub-record/1" and record["game"] == "surprise"
    assert record["options"] == {"live_scores": True}
    assert record["players"] == NAMES[:3]
    assert record["specials"] == list(state.specials_order) and len(record["specials"]) == 28
    assert len(record["rounds"]) == 2
    for entry in record["rounds"]:
        assert set(entry) == {"rows", "hands", "reshuffles", "turns"}
        assert [len(row) for row in entry["rows"]] == [1] * 4
        assert [len(hand) for hand in entry["hands"]] == [12] * 3
        assert len(entry["turns"]) == 12
        for turn in entry["turns"]:
            assert set(turn) == {"cards", "specials", "decisions"}
            for seat, kind, _value in turn["decisions"]:
                assert 0 <= seat < 3
                assert kind in surprise.rules.PHASES


def test_decision_values_are_written_as_rules_4_2_says():
    """RULES 4.2: glisser {from, to}, inserer {row, position}, negatif_positif
    {card, extras} or null, exchange a special or null, remplacer a card or null."""
    seen = {}
    for seed in range(60):
        _state, record = finished(seed, 4)
        for _r, _t, turn in turns(record):
            for _seat, kind, value in turn["decisions"]:
                seen.setdefault((kind, type(value).__name__), value)
    assert set(seen[("glisser", "dict")]) == {"from", "to"}
    assert set(seen[("inserer", "dict")]) == {"row", "position"}
    assert set(seen[("negatif_positif", "dict")]) == {"card", "extras"}
    assert ("negatif_positif", "NoneType") in seen and ("exchange", "str") in seen
    assert ("remplacer", "int") in seen and ("remplacer", "NoneType") in seen
    assert ("row", "int") in seen and ("stop", "int") in seen


def test_an_unfinished_game_records_its_finished_rounds_only():
    """RULES 4.2 and docs/engines.md: a record holds finished rounds; replay accepts it
    with allow_unfinished and rejects it otherwise."""
    state = random_game(8, 4, until=lambda s: s.round == 2 and s.turn == 3)
    record = surprise.record(state, NAMES[:4])
    assert len(record["rounds"]) == 1
    assert surprise.replay(record, allow_unfinished=True)["winners"] == []
    rejected(record, round=2, turn=None)


def test_a_card_not_in_the_seats_hand_is_rejected():
    """RULES 4.1 as 4.2 inherits it."""
    _state, record = finished(1, 3)
    turn = record["rounds"][0]["turns"][4]
    turn["cards"][1] = record["rounds"][0]["turns"][0]["cards"][1]  # played already
    error = rejected(record, round=1, turn=5, seat=1)
    assert "round 1, turn 5, seat 1 (bob)" in str(error)


def test_a_too_low_card_without_its_row_choice_is_rejected():
    """RULES 4.1/4.2: a too-low card has no choice: a missing decision."""
    record, (r, t, index) = find(3, first_decision("row"))
    del record["rounds"][r - 1]["turns"][t - 1]["decisions"][index:]
    rejected(record, round=r, turn=t)


def test_a_row_out_of_range_is_rejected():
    """RULES 4.1/4.2: a row index out of range."""
    record, (r, t, index) = find(3, first_decision("row"))
    decision = record["rounds"][r - 1]["turns"][t - 1]["decisions"][index]
    decision[2] = 7
    rejected(record, round=r, turn=t, seat=decision[0])


def test_a_choice_for_a_card_that_is_not_too_low_is_rejected():
    """RULES 4.1/4.2: a surplus decision."""
    _state, record = finished(2, 3)
    for r, t, turn in turns(record):
        if not turn["decisions"]:
            turn["decisions"].append([0, "row", 0])
            rejected(record, round=r, turn=t, seat=0)
            return
    raise AssertionError("every turn has a decision")


def test_a_round_that_does_not_empty_every_hand_is_rejected():
    """RULES 4.1/4.2: twelve turns a round."""
    _state, record = finished(3, 3)
    del record["rounds"][1]["turns"][-1]
    rejected(record, round=2, turn=12)
    _state, record = finished(3, 3)
    record["rounds"][0]["turns"].append(record["rounds"][0]["turns"][-1])
    rejected(record, round=1, turn=13)


def test_a_game_that_goes_on_after_round_two_is_rejected():
    """RULES 2.1/4.2: the game ends after round 2."""
    _state, record = finished(3, 3)
    record["rounds"].append(copy.deepcopy(record["rounds"][1]))
    rejected(record, round=3)


def test_a_special_attached_that_the_seat_does_not_hold_is_rejected():
    """RULES 4.2: a special attached that the seat does not hold."""
    _state, record = finished(4, 3)
    # Replayed specials are the record's; seat 0 holds specials[0], [3], [6] at turn 1.
    held = {record["specials"][i] for i in (0, 3, 6)}
    missing = next(k for k in surprise.KINDS if k not in held and k != "negatif_positif")
    record["rounds"][0]["turns"][0]["specials"][0] = missing
    record["rounds"][0]["turns"][0]["decisions"] = []
    rejected(record, round=1, turn=1, seat=0)


def test_negatif_positif_attached_is_rejected():
    """RULES 4.2: Négatif = Positif attached."""
    _state, record = finished(4, 3)
    record["rounds"][0]["turns"][0]["specials"][2] = "negatif_positif"
    error = rejected(record, round=1, turn=1, seat=2)
    assert "Négatif" in str(error)


def test_a_decision_of_the_wrong_seat_or_kind_is_rejected():
    """RULES 4.2: a decision of the wrong seat or kind at its place."""
    record, (r, t, index) = find(4, first_decision("exchange"))
    wrong_kind = copy.deepcopy(record)
    wrong_kind["rounds"][r - 1]["turns"][t - 1]["decisions"][index][1] = "stop"
    seat = record["rounds"][r - 1]["turns"][t - 1]["decisions"][index][0]
    rejected(wrong_kind, round=r, turn=t, seat=seat)
    wrong_seat = copy.deepcopy(record)
    wrong_seat["rounds"][r - 1]["turns"][t - 1]["decisions"][index][0] = (seat + 1) % 4
    rejected(wrong_seat, round=r, turn=t, seat=seat)


def test_an_option_the_rules_do_not_allow_is_rejected():
    """RULES 4.2: an option the rules do not allow then (Insérer at a row's end)."""
    record, (r, t, index) = find(4, first_decision("inserer"))
    decision = record["rounds"][r - 1]["turns"][t - 1]["decisions"][index]
    decision[2]["position"] = 6
    error = rejected(record, round=r, turn=t, seat=decision[0])
    assert "illegal" in str(error)


def test_negatif_positif_extras_over_the_budget_are_rejected():
    """RULES 4.2 with 2.5: extras whose heads exceed the chosen card's."""

    def wanted(record):
        for r, t, turn in turns(record):
            for index, decision in enumerate(turn["decisions"]):
                if decision[1] == "negatif_positif" and decision[2] is not None:
                    return r, t, index
        return None

    record, (r, t, index) = find(4, wanted)
    decision = record["rounds"][r - 1]["turns"][t - 1]["decisions"][index]
    decision[2]["extras"] = list(range(1, 105))
    rejected(record, round=r, turn=t, seat=decision[0])


def test_a_missing_or_surplus_decision_is_rejected():
    """RULES 4.2: a missing or surplus decision."""
    record, (r, t, index) = find(4, first_decision("exchange"))
    missing = copy.deepcopy(record)
    del missing["rounds"][r - 1]["turns"][t - 1]["decisions"][index:]
    error = rejected(missing, round=r, turn=t)
    assert "missing" in str(error)
    surplus = copy.deepcopy(record)
    decisions = surplus["rounds"][r - 1]["turns"][t - 1]["decisions"]
    decisions.append(decisions[index])
    error = rejected(surplus, round=r, turn=t)
    assert "too many" in str(error) or "ask" in str(error)


def with_reshuffle(record):
    for r, entry in enumerate(record["rounds"], 1):
        if entry["reshuffles"]:
            return r
    return None


def test_a_missing_reshuffle_is_rejected():
    """RULES 4.2: a reshuffle missing when one is needed."""
    record, r = find(8, with_reshuffle)
    record["rounds"][r - 1]["reshuffles"] = []
    error = rejected(record, round=r)
    assert "reshuffle" in str(error)


def test_a_reshuffle_given_when_none_is_needed_is_rejected():
    """RULES 4.2: a reshuffle given when none is."""
    _state, record = finished(1, 2)
    assert record["rounds"][0]["reshuffles"] == []
    record["rounds"][0]["reshuffles"] = [["stop"]]
    error = rejected(record, round=1)
    assert "reshuffle" in str(error)


def test_a_reshuffle_that_is_not_the_discard_pile_is_rejected():
    """RULES 4.2: each reshuffle is the discard pile of that moment, shuffled."""
    record, r = find(8, with_reshuffle)
    order = record["rounds"][r - 1]["reshuffles"][0]
    order.append("stop")
    rejected(record, round=r)


def test_specials_that_are_not_the_28_are_rejected():
    """RULES 4.2: specials lists the 28 after the first shuffle."""
    _state, record = finished(1, 2)
    record["specials"][0] = "joker"
    rejected(record, round=None)
    _state, record = finished(1, 2)
    record["specials"] = record["specials"][:-1]
    rejected(record, round=None)


def test_a_malformed_header_or_deal_is_rejected():
    """RULES 4.2: format, game, options (live_scores only), players 2–8, rows and hands."""
    _state, record = finished(1, 2)
    for key, value in (
        ("format", "sixclub-record/0"),
        ("game", "nimmt"),
        ("options", {"card_limit": True}),
        ("players", ["solo"]),
    ):
        broken = copy.deepcopy(record)
        broken[key] = value
        rejected(broken)
    broken = copy.deepcopy(record)
    broken["rounds"][1]["hands"][1][0] = broken["rounds"][1]["hands"][0][0]
    rejected(broken, round=2, seat=1)
    broken = copy.deepcopy(record)
    broken["rounds"][0]["rows"][2] = [105]
    rejected(broken, round=1)
