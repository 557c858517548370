"""Six records (RULES §4.3): their format, their round trip through `replay`, and every
illegal case §4.3 lists, each rejected with a RecordError naming hand, turn and seat."""

import copy
import json
import random

import pytest

from games.engine import RecordError
from games.six import engine as six
from games.six.engine.rules import with_deal

from .helpers import finished_game, play_out

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]


def record_of(players=4, options=None, seed=1):
    state = finished_game(players=players, options=options, seed=seed)
    return six.record(state, NAMES[:players]), state


@pytest.fixture(scope="module")
def game():
    return record_of(4, {}, 1)


def rejected(record, *, round, turn, seat, match):
    """The RecordError replaying `record` raises, checked to name hand, turn and seat."""
    with pytest.raises(RecordError, match=match) as caught:
        six.replay(record)
    error = caught.value
    assert (error.round, error.turn, error.seat) == (round, turn, seat), str(error)
    line = str(error)
    assert "\n" not in line
    assert line.startswith(
        f"round {'-' if round is None else round}, turn {'-' if turn is None else turn}, "
        f"seat {'-' if seat is None else seat}"
    )
    return error


def before_each_turn(record, hand_index=0):
    """(turn index, state before that turn) for each turn of one hand of `record`."""
    options = record["options"]
    state = six.new_game(players=len(record["players"]), options=options, seed=0)
    for entry in record["rounds"][:hand_index]:
        state, _ = with_deal(state, entry["hands"])
        for seat, card in entry["turns"]:
            if card is not None and seat == six.to_act(state)[0]:
                state, _ = six.apply(state, seat, {"type": "select", "card": card})
    entry = record["rounds"][hand_index]
    state, _ = with_deal(state, entry["hands"])
    for index, (seat, card) in enumerate(entry["turns"]):
        yield index, state
        if card is not None:
            state, _ = six.apply(state, seat, {"type": "select", "card": card})


# --- format and round trip -------------------------------------------------------------------


def test_record_has_the_format_of_4_3(game):  # RULES 4.3
    record, state = game
    assert list(record) == ["format", "game", "options", "players", "rounds"]
    assert record["format"] == "sixclub-record/1" and record["game"] == "six"
    assert record["options"] == {"deck": 40, "target": 30, "balanced": False}
    assert record["players"] == NAMES[:4]
    assert len(record["rounds"]) == len(state.history) >= 2
    for entry in record["rounds"]:
        assert list(entry) == ["hands", "turns"]
        assert len(entry["hands"]) == 4
        for seat, card in entry["turns"]:
            assert seat in range(4) and (card is None or card in six.deck(40))
    assert record["rounds"][0]["turns"][0][1] == "6-oros"
    assert any(card is None for entry in record["rounds"] for _, card in entry["turns"])
    assert json.loads(json.dumps(record)) == record


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [
        (4, {}, 1),
        (2, {"deck": 48, "target": 50}, 2),
        (3, {"target": 40}, 3),
        (4, {"balanced": True}, 4),
        (4, {"balanced": True, "deck": 48, "target": 20}, 5),
        (5, {"deck": 48}, 6),
        (8, {"target": 15}, 7),
    ],
)
def test_a_record_replays_to_the_result_of_its_game(players, options, seed):  # RULES 4.3
    record, state = record_of(players, options, seed)
    assert six.replay(json.loads(json.dumps(record))) == six.result(state)


def test_cards_within_a_seat_s_hand_may_come_in_any_order(game):  # RULES 4.3
    record = copy.deepcopy(game[0])
    rng = random.Random(0)
    for entry in record["rounds"]:
        for hand in entry["hands"]:
            rng.shuffle(hand)
    assert six.replay(record) == six.result(game[1])


def test_a_game_in_progress_exports_its_finished_hands_only():  # RULES 4.3
    state = six.new_game(players=4, options={"target": 60}, seed=2)
    state = play_out(state, random.Random(2), until=lambda s: s.round == 3 and s.version > 60)
    record = six.record(state, NAMES[:4])
    assert len(record["rounds"]) == 2
    outcome = six.replay(record, allow_unfinished=True)
    assert outcome == {
        "rounds": [list(points) for points in state.round_scores],
        "totals": list(state.totals),
        "winners": [],
    }
    rejected(record, round=3, turn=None, seat=None, match="not over")


def test_record_refuses_the_wrong_number_of_names(game):
    with pytest.raises(ValueError):
        six.record(game[1], NAMES[:3])


# --- illegal deals ---------------------------------------------------------------------------


def test_a_card_missing_from_the_deal_is_rejected(game):  # RULES 4.3
    record = copy.deepcopy(game[0])
    removed = record["rounds"][1]["hands"][2].pop()
    error = rejected(record, round=2, turn=None, seat=2, match="missing")
    assert removed in str(error)


def test_a_card_dealt_twice_is_rejected(game):  # RULES 4.3
    record = copy.deepcopy(game[0])
    hands = record["rounds"][0]["hands"]
    hands[3][0] = hands[1][0]
    rejected(record, round=1, turn=None, seat=3, match="twice")


def test_a_card_outside_the_deck_is_rejected(game):  # RULES 3.1, 4.3
    record = copy.deepcopy(game[0])
    record["rounds"][0]["hands"][0][0] = "8-oros"  # 48-card decks only
    rejected(record, round=1, turn=None, seat=0, match="not a card of the 40-card deck")


def test_extra_cards_not_with_the_seats_dealt_first_are_rejected():  # RULES 3.5, 4.3
    record, state = record_of(3, {"target": 40}, 3)
    assert len(record["rounds"]) >= 2
    # Hand 2 is dealt from seat 1: seat 1 holds 14 cards, seats 2 and 0 hold 13.
    hands = record["rounds"][1]["hands"]
    assert [len(hand) for hand in hands] == [13, 14, 13]
    hands[0].append(hands[1].pop())
    rejected(record, round=2, turn=None, seat=0, match="from seat 1 gives it 13")


def test_a_balanced_game_whose_deal_is_not_balanced_is_rejected():  # RULES 3.4, 4.3
    record, _ = record_of(4, {"balanced": True}, 4)
    # Two cards of different ranks change hands: seat 0 then holds two of one rank.
    broken = copy.deepcopy(record)
    hands = broken["rounds"][0]["hands"]
    one = next(card for card in hands[0] if card.startswith("1-"))
    two = next(card for card in hands[1] if card.startswith("2-"))
    hands[0][hands[0].index(one)], hands[1][hands[1].index(two)] = two, one
    rejected(broken, round=1, turn=None, seat=0, match="one card of each rank")
    # Cards of one rank change hands so that a seat holds two neighbours of one suit.
    for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12):
        broken = copy.deepcopy(record)
        hands = broken["rounds"][0]["hands"]
        a = next(card for card in hands[0] if card.startswith(f"{rank}-"))
        b = next(card for card in hands[1] if card.startswith(f"{rank}-"))
        hands[0][hands[0].index(a)], hands[1][hands[1].index(b)] = b, a
        try:
            six.replay(broken)
        except RecordError as error:
            if "neighbours" in error.message:
                assert error.round == 1 and error.turn is None and error.seat in (0, 1)
                break
    else:
        pytest.fail("no swap made two neighbours")


def test_an_unbalanced_deal_is_fine_when_the_game_is_not_balanced(game):  # RULES 3.5
    record = copy.deepcopy(game[0])
    assert record["options"]["balanced"] is False
    assert six.replay(record) == six.result(game[1])


# --- illegal turns ---------------------------------------------------------------------------


def test_a_card_not_in_the_seat_s_hand_is_rejected(game):  # RULES 4.3
    record = copy.deepcopy(game[0])
    turns = record["rounds"][0]["turns"]
    index = next(k for k, (_, card) in enumerate(turns) if k > 3 and card is not None)
    seat = turns[index][0]
    other = record["rounds"][0]["hands"][(seat + 1) % 4][0]
    turns[index][1] = other
    rejected(record, round=1, turn=index + 1, seat=seat, match=f"{other} is not in this seat")


def test_a_card_not_playable_then_is_rejected(game):  # RULES 3.2, 4.3
    record = copy.deepcopy(game[0])
    for index, state in before_each_turn(record, hand_index=1):
        seat, card = record["rounds"][1]["turns"][index]
        if card is None:
            continue
        stuck = [c for c in state.hands[seat] if c not in six.playable(state, seat)]
        if stuck:
            record["rounds"][1]["turns"][index][1] = stuck[0]
            rejected(record, round=2, turn=index + 1, seat=seat, match="cannot be played now")
            return
    pytest.fail("no turn with an unplayable card in hand")


def test_hand_1_not_opened_with_the_6_of_oros_is_rejected(game):  # RULES 3.5, 4.3
    record = copy.deepcopy(game[0])
    seat, card = record["rounds"][0]["turns"][0]
    other = next(c for c in record["rounds"][0]["hands"][seat] if c != "6-oros")
    record["rounds"][0]["turns"][0][1] = other
    rejected(record, round=1, turn=1, seat=seat, match="6-oros")


def test_a_card_played_by_a_seat_that_must_pass_is_rejected(game):  # RULES 3.5, 4.3
    record = copy.deepcopy(game[0])
    turns = record["rounds"][0]["turns"]
    index = next(k for k, (_, card) in enumerate(turns) if card is None)
    seat = turns[index][0]
    for k, state in before_each_turn(record):
        if k == index:
            turns[index][1] = state.hands[seat][0]
            break
    rejected(record, round=1, turn=index + 1, seat=seat, match="no playable card")


def test_a_pass_by_a_seat_that_can_play_is_rejected(game):  # RULES 3.5, 4.3
    record = copy.deepcopy(game[0])
    turns = record["rounds"][0]["turns"]
    index = next(k for k, (_, card) in enumerate(turns) if k > 0 and card is not None)
    turns[index][1] = None
    rejected(record, round=1, turn=index + 1, seat=turns[index][0], match="can play")


def test_a_turn_out_of_order_is_rejected(game):  # RULES 3.2, 4.3
    record = copy.deepcopy(game[0])
    turns = record["rounds"][0]["turns"]
    index = next(k for k, (_, card) in enumerate(turns) if k > 0 and card is not None)
    wrong = (turns[index][0] + 1) % 4
    turns[index][0] = wrong
    rejected(record, round=1, turn=index + 1, seat=wrong, match="out of order")


def test_an_automatic_pass_left_out_is_a_turn_out_of_order(game):  # RULES 3.5, 4.3
    record = copy.deepcopy(game[0])
    turns = record["rounds"][0]["turns"]
    index = next(k for k, (_, card) in enumerate(turns) if card is None)
    del turns[index]
    rejected(record, round=1, turn=index + 1, seat=turns[index][0], match="out of order")


def test_a_hand_that_goes_on_after_a_seat_is_out_of_cards_is_rejected(game):  # RULES 4.3
    record = copy.deepcopy(game[0])
    turns = record["rounds"][0]["turns"]
    winner = turns[-1][0]
    turns.append([(winner + 1) % 4, None])
    rejected(record, round=1, turn=len(turns), seat=(winner + 1) % 4, match="the hand is over")


def test_a_hand_that_stops_before_a_seat_is_out_of_cards_is_rejected(game):  # RULES 4.3
    record = copy.deepcopy(game[0])
    turns = record["rounds"][0]["turns"]
    winner, _ = turns.pop()
    rejected(record, round=1, turn=len(turns) + 1, seat=winner, match="stops after")


def test_a_hand_that_stops_before_an_automatic_pass_is_rejected(game):  # RULES 3.5, 4.3
    record = copy.deepcopy(game[0])
    turns = record["rounds"][0]["turns"]
    index = next(k for k, (_, card) in enumerate(turns) if card is None)
    seat = turns[index][0]
    del turns[index:]
    rejected(record, round=1, turn=index + 1, seat=seat, match="stops after")


# --- illegal ends of the game ----------------------------------------------------------------


def test_a_game_that_goes_on_after_the_target_is_rejected(game):  # RULES 3.5, 4.3
    record = copy.deepcopy(game[0])
    hands = len(record["rounds"])
    record["rounds"].append(copy.deepcopy(record["rounds"][0]))
    rejected(record, round=hands + 1, turn=None, seat=None, match="game ended after hand")


def test_a_game_that_stops_before_the_target_is_rejected(game):  # RULES 3.5, 4.3
    record = copy.deepcopy(game[0])
    record["rounds"].pop()
    rejected(record, round=len(record["rounds"]) + 1, turn=None, seat=None, match="not over")
    record["rounds"] = []
    rejected(record, round=1, turn=None, seat=None, match="no hands")


def test_a_record_with_a_lower_target_ends_earlier_and_is_rejected(game):  # RULES 3.5
    record = copy.deepcopy(game[0])
    record["options"]["target"] = 5  # every hand's winner gains 5 at least
    rejected(record, round=2, turn=None, seat=None, match="target 5")


# --- malformed records -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "where", "match"),
    [
        (lambda r: r.update(format="sixclub-record/2"), (None, None, None), "format"),
        (lambda r: r.update(game="nimmt"), (None, None, None), "game must be 'six'"),
        (lambda r: r.pop("players"), (None, None, None), "no 'players'"),
        (lambda r: r.update(players=["solo"]), (None, None, None), "players"),
        (lambda r: r["players"].__setitem__(2, 7), (None, None, 2), "name is a string"),
        (lambda r: r["options"].update(rows=4), (None, None, None), "unknown option"),
        (lambda r: r["options"].update(balanced="yes"), (None, None, None), "balanced"),
        (lambda r: r.update(rounds={}), (None, None, None), "rounds must be a list"),
        (lambda r: r["rounds"].__setitem__(0, []), (1, None, None), "a hand is a JSON object"),
        (lambda r: r["rounds"][0].pop("turns"), (1, None, None), "no 'turns'"),
        (lambda r: r["rounds"][0]["hands"].pop(), (1, None, None), "4 hands"),
        (lambda r: r["rounds"][0]["turns"].__setitem__(2, [1]), (1, 3, None), r"\[seat, card\]"),
        (lambda r: r["rounds"][0]["turns"][2].__setitem__(0, 4), (1, 3, None), "not a seat"),
        (lambda r: r["rounds"][0]["turns"][2].__setitem__(0, True), (1, 3, None), "not a seat"),
        (lambda r: r["rounds"][0]["turns"][2].__setitem__(1, 6), (1, 3, "seat"), "not a card"),
    ],
)
def test_malformed_records_are_rejected(game, change, where, match):  # RULES 4.3
    record = copy.deepcopy(game[0])
    change(record)
    round_, turn, seat = where
    if seat == "seat":
        seat = record["rounds"][0]["turns"][2][0]
    rejected(record, round=round_, turn=turn, seat=seat, match=match)


def test_a_record_that_is_no_object_is_rejected():
    with pytest.raises(RecordError, match="JSON object"):
        six.replay([])


def test_the_error_line_names_the_player(game):  # RULES 4.3
    record = copy.deepcopy(game[0])
    turns = record["rounds"][0]["turns"]
    winner, _ = turns.pop()
    error = rejected(record, round=1, turn=len(turns) + 1, seat=winner, match="stops after")
    assert f"seat {winner} ({NAMES[winner]})" in str(error)
