"""Game records: export and strict replay (RULES §4; the checks are listed in
docs/records.md)."""

import copy
import json
import random
from pathlib import Path

import pytest

from games.engine import RecordError
from games.nimmt import engine as nimmt

RECORDS = Path(__file__).parent / "records"
EXPECTED = json.loads((RECORDS / "expected.json").read_text())
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]


def finished(players, options, seed):
    rng = random.Random(seed)
    state = nimmt.new_game(players=players, options=options, seed=seed)
    while not nimmt.is_over(state):
        seat = nimmt.to_act(state)[0]
        state, _ = nimmt.apply(state, seat, rng.choice(nimmt.legal(state, seat)))
    return state


def replay_error(record, **kwargs):
    with pytest.raises(RecordError) as caught:
        nimmt.replay(record, **kwargs)
    return caught.value


# --- export ------------------------------------------------------------------------------


def test_record_has_the_rules_4_shape():
    # RULES 4: format, game, options, players, rounds of rows/hands/turns
    state = finished(3, {}, 1)
    record = nimmt.record(state, NAMES[:3])
    assert list(record) == ["format", "game", "options", "players", "rounds"]
    assert record["format"] == "sixclub-record/1"
    assert record["game"] == "nimmt"
    assert record["options"] == {
        "card_limit": False,
        "deal": "random",
        "end": "threshold",
        "threshold": 66,
    }
    assert record["players"] == ["alice", "bob", "carol"]
    assert len(record["rounds"]) == len(state.round_scores)
    first = record["rounds"][0]
    assert list(first) == ["rows", "hands", "turns"]
    assert all(len(row) == 1 for row in first["rows"]) and len(first["rows"]) == 4
    assert [len(hand) for hand in first["hands"]] == [10, 10, 10]
    assert len(first["turns"]) == 10
    for turn in first["turns"]:
        assert list(turn) == ["cards", "choices"]
        assert len(turn["cards"]) == 3
        assert all(isinstance(key, str) for key in turn["choices"])
    json.dumps(record)


def test_draft_record_lists_picks_in_pick_order():
    # RULES 4: `picks` (draft only): the cards in the order they were picked
    state = finished(4, {"deal": "draft", "end": "rounds", "rounds": 2}, 2)
    record = nimmt.record(state, NAMES[:4])
    assert record["options"] == {"card_limit": False, "deal": "draft", "end": "rounds", "rounds": 2}
    for number, entry in enumerate(record["rounds"], start=1):
        assert len(entry["picks"]) == 40
        first = (number - 1) % 4  # RULES 1.7 rotating first picker
        for seat in range(4):
            assert sorted(entry["picks"][(seat - first) % 4 :: 4]) == entry["hands"][seat]


def test_choices_name_the_seats_of_too_low_cards_only():
    # RULES 4: `choices` maps the seat of each too-low card to its row, and nothing else
    state = finished(5, {}, 3)
    record = nimmt.record(state, NAMES[:5])
    chose = sum(len(turn["choices"]) for entry in record["rounds"] for turn in entry["turns"])
    assert chose > 0
    assert nimmt.replay(record) == nimmt.result(state)


def test_record_of_a_game_in_progress_holds_its_finished_rounds_only():
    # docs/records.md: the round in progress is secret (hands), so it is left out
    state = nimmt.new_game(players=3, options={"end": "rounds", "rounds": 4}, seed=4)
    while len(state.round_scores) < 2 or state.turn != 4:
        seat = nimmt.to_act(state)[0]
        state, _ = nimmt.apply(state, seat, nimmt.fallback(state, seat))
    record = nimmt.record(state, NAMES[:3])
    assert len(record["rounds"]) == 2
    error = replay_error(record)
    assert (error.round, error.turn, error.seat) == (3, None, None)
    assert "the game is not over" in str(error)
    # Opted in, the finished rounds replay, and there is no winner yet.
    assert nimmt.replay(record, allow_unfinished=True) == {
        "rounds": [list(s) for s in state.round_scores],
        "totals": list(state.totals),
        "winners": [],
    }


def test_record_needs_one_name_per_seat():
    state = finished(2, {"end": "rounds", "rounds": 1}, 1)
    with pytest.raises(ValueError):
        nimmt.record(state, ["alice"])


# --- the sample records in tests/games/records ------------------------------------------


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if "result" in EXPECTED[n]))
def test_legal_sample_records_replay_to_their_scores(name):
    # RULES 4: anyone can recompute every score from the record
    record = json.loads((RECORDS / f"{name}.json").read_text())
    assert nimmt.replay(record) == EXPECTED[name]["result"]


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if "error" in EXPECTED[n]))
def test_illegal_sample_records_are_refused_naming_round_turn_and_seat(name):
    # RULES 4: reject any illegal decision with a message naming round, turn and seat
    expected = EXPECTED[name]["error"]
    record = json.loads((RECORDS / f"{name}.json").read_text())
    error = replay_error(record)
    assert (error.round, error.turn, error.seat) == (
        expected["round"],
        expected["turn"],
        expected["seat"],
    )
    assert expected["match"] in error.message
    line = str(error)
    assert "\n" not in line
    assert line.startswith(
        f"round {expected['round'] or '-'}, turn {expected['turn'] or '-'}, seat "
        f"{'-' if expected['seat'] is None else expected['seat']}"
    )


def test_every_sample_file_is_listed():
    files = {path.stem for path in RECORDS.glob("*.json")} - {"expected"}
    assert files == set(EXPECTED)


# --- strictness, case by case (RULES 4 list) ------------------------------------------------


@pytest.fixture(scope="module")
def legal():
    state = finished(4, {"threshold": 40}, 21)
    return nimmt.record(state, NAMES[:4]), nimmt.result(state)


def changed(record, change):
    record = copy.deepcopy(record)
    change(record)
    return record


def first_turn_with_choice(record):
    for r, entry in enumerate(record["rounds"]):
        for t, turn in enumerate(entry["turns"]):
            if turn["choices"]:
                seat = int(next(iter(turn["choices"])))
                return r, t, seat
    raise AssertionError("no too-low card in the sample game")


def test_card_played_twice_in_a_round_is_not_in_hand(legal):
    # RULES 4: a card played that is not in that seat's hand (it was played already)
    record, _ = legal

    def again(rec):
        rec["rounds"][0]["turns"][4]["cards"][2] = rec["rounds"][0]["turns"][1]["cards"][2]

    error = replay_error(changed(record, again))
    assert (error.round, error.turn, error.seat) == (1, 5, 2)
    assert "is not in this seat's hand" in error.message


def test_choice_for_a_seat_whose_card_is_placed_first_is_reported_in_resolution_order(legal):
    # RULES 1.3: faults are met in the order the cards are resolved
    record, _ = legal
    r, t, seat = first_turn_with_choice(record)
    turn = record["rounds"][r]["turns"][t]
    highest = max(range(4), key=lambda s: turn["cards"][s])

    def extra(rec):
        rec["rounds"][r]["turns"][t]["choices"][str(highest)] = 0

    if highest != seat:
        error = replay_error(changed(record, extra))
        assert (error.round, error.turn, error.seat) == (r + 1, t + 1, highest)


@pytest.mark.parametrize("value", [None, "1", 1.0, True, -1, 4, [1]])
def test_bad_choice_values_are_refused(legal, value):
    # RULES 4: a row index out of range (or not an index at all)
    record, _ = legal
    r, t, seat = first_turn_with_choice(record)

    def bad(rec):
        rec["rounds"][r]["turns"][t]["choices"][str(seat)] = value

    error = replay_error(changed(record, bad))
    assert (error.round, error.turn, error.seat) == (r + 1, t + 1, seat)
    assert "does not exist" in error.message


@pytest.mark.parametrize("key", ["01", "-1", " 1", "4", "x", ""])
def test_choice_keys_must_name_a_seat(legal, key):
    # RULES 4: choices maps the seat (as a string) to the row
    record, _ = legal

    def bad(rec):
        rec["rounds"][0]["turns"][0]["choices"][key] = 0

    error = replay_error(changed(record, bad))
    assert (error.round, error.turn) == (1, 1)
    assert "is not a seat" in error.message


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda r: r.pop("players"), (None, None, None)),
        (lambda r: r.update(players=["solo"]), (None, None, None)),
        (lambda r: r.update(players=["a", "b", "c", 4]), (None, None, 3)),
        (lambda r: r.update(game="six"), (None, None, None)),
        (lambda r: r.update(options={"threshold": 0}), (None, None, None)),
        (lambda r: r.update(options=[]), (None, None, None)),
        (lambda r: r.update(rounds={}), (None, None, None)),
        (lambda r: r["rounds"].__setitem__(0, []), (1, None, None)),
        (lambda r: r["rounds"][0].update(rows=[[1], [2], [3]]), (1, None, None)),
        (lambda r: r["rounds"][0].update(rows=[[1, 2], [3], [4], [5]]), (1, None, None)),
        (
            lambda r: r["rounds"][0]["rows"].__setitem__(2, r["rounds"][0]["rows"][1]),
            (1, None, None),
        ),
        (lambda r: r["rounds"][0]["hands"][3].pop(), (1, None, 3)),
        (lambda r: r["rounds"][0]["hands"][1].__setitem__(0, 0), (1, None, 1)),
        (lambda r: r["rounds"][0]["hands"][1].__setitem__(0, 2.5), (1, None, 1)),
        (lambda r: r["rounds"][0]["turns"][2].pop("choices"), (1, 3, None)),
        (lambda r: r["rounds"][0]["turns"][2].update(cards=[1, 2, 3]), (1, 3, None)),
        (lambda r: r["rounds"][0]["turns"][2].update(choices=[]), (1, 3, None)),
        (lambda r: r["rounds"][0]["turns"].__setitem__(2, "x"), (1, 3, None)),
        (lambda r: r["rounds"][0].update(turns=None), (1, None, None)),
    ],
)
def test_malformed_records_are_refused_with_a_location(legal, change, where):
    # RULES 4: a malformed record is refused like an illegal one
    record, _ = legal
    error = replay_error(changed(record, change))
    assert (error.round, error.turn, error.seat) == where


@pytest.mark.parametrize("record", [None, [], "record", 3, {"format": "sixclub-record/1"}])
def test_not_a_record_at_all(record):
    error = replay_error(record)
    assert (error.round, error.turn, error.seat) == (None, None, None)


def test_extra_fields_and_full_options_are_accepted(legal):
    # docs/records.md: unknown fields are ignored; every table option may be spelled out
    record, result = legal
    record = changed(
        record,
        lambda r: (
            r.update(created="2024-05-01", options={**r["options"], "live_scores": False}),
            r["rounds"][0].update(scores=[0, 0, 0, 0]),
        ),
    )
    assert nimmt.replay(record) == result


def test_random_deal_rounds_may_have_empty_picks(legal):
    record, result = legal
    assert nimmt.replay(changed(record, lambda r: r["rounds"][0].update(picks=[]))) == result


def test_rows_and_hands_in_any_order_replay(legal):
    # RULES 4 says what each seat held, not in which order it listed its hand
    record, result = legal

    def reverse_hands(rec):
        for entry in rec["rounds"]:
            for hand in entry["hands"]:
                hand.reverse()

    assert nimmt.replay(changed(record, reverse_hands)) == result


# --- nothing in a record can crash the replay -----------------------------------------------

JUNK = [
    None,
    True,
    False,
    -1,
    0,
    1,
    3,
    10,
    55,
    104,
    105,
    2**70,
    1.5,
    "",
    "7",
    [],
    [1],
    {},
    {"1": 2},
]


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _replace(record, path, junk):
    if not path:
        return junk
    record = copy.deepcopy(record)
    node = record
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = junk
    return record


@pytest.mark.parametrize(
    "options",
    [{"threshold": 20}, {"deal": "draft", "card_limit": True, "end": "rounds", "rounds": 1}],
)
def test_any_single_change_replays_or_raises_record_error(options):
    # RULES 4: an illegal or malformed record is refused with a message, never a crash
    state = finished(3, options, 5)
    record = nimmt.record(state, NAMES[:3])
    paths = list(_paths(record))
    rng = random.Random(5)
    for path in rng.sample(paths, min(len(paths), 600)):
        mutated = _replace(record, path, rng.choice(JUNK))
        try:
            nimmt.replay(mutated)
        except RecordError as error:
            assert "\n" not in str(error)


def test_record_without_rounds_is_not_a_finished_game(legal):
    # docs/records.md: rounds missing
    record, _ = legal
    error = replay_error(changed(record, lambda r: r.update(rounds=[])))
    assert (error.round, error.turn, error.seat) == (1, None, None)
    assert "no rounds" in error.message


def test_two_too_low_cards_the_second_no_longer_too_low():
    # RULES 1.4 + RULES 4: after the first choice the second card has a row; its choice
    # is then "a choice for a card that is not too low"
    state = nimmt.new_game(players=2, options={"end": "rounds", "rounds": 1}, seed=0)
    record = nimmt.record(state, ["a", "b"])  # no rounds yet: build one by hand
    hands = [[3, 90, 91, 92, 93, 94, 95, 96, 97, 98], [4, 80, 81, 82, 83, 84, 85, 86, 87, 88]]
    turns = [{"cards": [3, 4], "choices": {"0": 0, "1": 1}}]
    turns += [{"cards": [hands[0][k], hands[1][k]], "choices": {}} for k in range(1, 10)]
    record["rounds"] = [{"rows": [[12], [37], [43], [58]], "hands": hands, "turns": turns}]
    error = replay_error(record)
    assert (error.round, error.turn, error.seat) == (1, 1, 1)
    assert "card 4 is not too low" in error.message
    record["rounds"][0]["turns"][0]["choices"] = {"0": 0}
    # Seat 0 takes 12 (1), then 58 80 90 91 92 (9) and 93-97 (6); seat 1 takes 43 81-84 (5).
    assert nimmt.replay(record) == {"rounds": [[16, 5]], "totals": [16, 5], "winners": [1]}
