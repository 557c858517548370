"""Six over a fixed number of hands, as every table of a duplicate round plays it (RULES §5:
"Six in a duplicate round plays a fixed number of hands at every table, the same deals in
the same order ... not 'to a target'"). Each test cites its section."""

import random

import pytest
from django.utils import translation

from games import kinds
from games.engine import OptionsError, RecordError
from games.forms import TableForm
from games.six import engine as six

from .helpers import finished_game, play_out

NAMES = ["alice", "bob", "carol", "dave"]


def test_the_end_option_is_a_target_or_a_number_of_hands():  # RULES 3.5, §5
    assert six.normalize_options({"end": "hands", "hands": 8}, 4) == {
        "deck": 40,
        "end": "hands",
        "hands": 8,
        "balanced": False,
    }
    # The target of a game of hands is checked, then dropped: it ends nothing.
    assert "target" not in six.normalize_options({"end": "hands", "hands": 8, "target": 50}, 4)
    assert six.normalize_options({"hands": 8}, 4)["end"] == "target"


@pytest.mark.parametrize(
    "options",
    [
        {"end": "hands"},
        {"end": "hands", "hands": 0},
        {"end": "hands", "hands": 41},
        {"end": "hands", "hands": True},
        {"end": "hands", "hands": "8"},
        {"hands": -1},
    ],
)
def test_a_bad_number_of_hands_is_refused_naming_it(options):  # RULES §5
    with pytest.raises(OptionsError, match="hands (must be|is required)"):
        six.normalize_options(options, 4)


def test_a_bad_end_is_refused():
    with pytest.raises(OptionsError, match="end must be 'target' or 'hands'"):
        six.normalize_options({"end": "rounds", "hands": 4}, 4)


@pytest.mark.parametrize(("players", "hands", "seed"), [(2, 20, 1), (3, 6, 2), (4, 8, 3)])
def test_a_game_of_n_hands_ends_after_exactly_n_hands(players, hands, seed):  # RULES §5
    state = finished_game(players, {"end": "hands", "hands": hands}, seed)
    assert six.is_over(state) and len(state.history) == len(state.round_scores) == hands
    outcome = six.result(state)
    best = max(outcome["totals"])
    assert outcome["winners"] == [s for s, t in enumerate(outcome["totals"]) if t == best]


def test_reaching_30_points_does_not_end_a_game_of_hands():  # RULES §5, not 3.5's target
    state = finished_game(2, {"end": "hands", "hands": 20}, 1)
    running = [0, 0]
    reached = []
    for number, points in enumerate(state.round_scores, start=1):
        running = [total + gained for total, gained in zip(running, points, strict=True)]
        if max(running) >= 30:
            reached.append(number)
    # A game to the usual target would have ended at the first of these hands.
    assert reached and reached[0] < 20


def test_every_table_of_one_seed_is_dealt_the_same_hands_in_the_same_order():  # RULES §5
    options = {"end": "hands", "hands": 8}
    one = play_out(six.new_game(players=4, options=options, seed=77), random.Random(1))
    two = play_out(six.new_game(players=4, options=options, seed=77), random.Random(2))
    assert [turns for _deal, turns in one.history] != [turns for _deal, turns in two.history]
    assert [deal for deal, _turns in one.history] == [deal for deal, _turns in two.history]
    assert len(one.history) == len(two.history) == 8


def test_a_game_of_hands_says_so_in_its_record_and_replays():  # RULES 4.3, §5
    state = finished_game(3, {"end": "hands", "hands": 6}, 5)
    record = six.record(state, NAMES[:3])
    assert record["options"] == {"deck": 40, "end": "hands", "hands": 6, "balanced": False}
    assert six.replay(record) == six.result(state)
    short = {**record, "rounds": record["rounds"][:-1]}
    with pytest.raises(RecordError, match="after hand 5 of 6"):
        six.replay(short)
    assert six.replay(short, allow_unfinished=True)["winners"] == []
    longer = {**record, "rounds": record["rounds"] + record["rounds"][:1]}
    with pytest.raises(RecordError, match="over 6 hands"):
        six.replay(longer)


def test_a_game_to_a_target_keeps_the_record_of_4_3():  # RULES 4.3
    record = six.record(finished_game(4, {}, 1), NAMES)
    assert record["options"] == {"deck": 40, "target": 30, "balanced": False}


def test_the_lobby_says_how_many_hands():
    summary = kinds.get("six").summary
    with translation.override("en"):
        assert summary(six.normalize_options({"end": "hands", "hands": 8}, 4)) == "8 hands"
        assert summary(six.normalize_options({}, 4)) == "to 30 points"


@pytest.mark.django_db
def test_the_lobby_offers_a_game_of_a_fixed_number_of_hands(alice):
    data = {"kind": "six", "seats_count": "4", "time_limit": "0", "deck": "40", "target": "30"}
    form = TableForm({**data, "end": "hands", "hands": "8", "target": "x"}, user=alice)
    # The target does not apply to a game of hands: its value refuses nothing.
    assert form.is_valid(), form.errors
    assert form.options() == {"deck": 40, "end": "hands", "hands": 8, "balanced": False}
    assert form.fields["hands"].shown_when == ("end", "hands")
    refused = TableForm({**data, "end": "hands", "hands": "41"}, user=alice)
    assert not refused.is_valid() and "hands" in refused.errors
    # A form that does not post the end (of before it was offered) plays to the target.
    assert TableForm(data, user=alice).is_valid()


# --- the Kind's duplicate options (games.kinds.Kind.duplicate_options) ----------------------


def test_a_duplicate_six_round_plays_as_many_hands_as_players_by_default():  # RULES §5
    duplicate = kinds.get("six").duplicate_options
    assert duplicate({}, 4) == {"end": "hands", "hands": 4}
    assert duplicate({"deck": 48, "target": 50}, 3) == {"deck": 48, "end": "hands", "hands": 3}
    six.normalize_options(duplicate({"deck": 48, "target": 50}, 3), 3)


def test_a_duplicate_six_round_rounds_the_events_hands_up_to_a_multiple_of_the_players():
    # RULES §5: a multiple of the number of players, so that every seat opens as often.
    duplicate = kinds.get("six").duplicate_options
    assert duplicate({"end": "hands", "hands": 6}, 4) == {"end": "hands", "hands": 8}
    assert duplicate({"end": "hands", "hands": 8}, 4) == {"end": "hands", "hands": 8}
    assert duplicate({"end": "hands", "hands": 1}, 5) == {"end": "hands", "hands": 5}
    assert duplicate({"end": "hands", "hands": 20}, 8) == {"end": "hands", "hands": 24}


def test_a_game_without_its_own_duplicate_options_keeps_the_events():
    options = {"end": "threshold", "threshold": 66}
    assert kinds.get("nimmt").duplicate_options(options, 4) == options
