"""Six, rule by rule (RULES §3 with the decisions of §3.5). Each test cites its section."""

import dataclasses
import json
import random
from collections import Counter

import pytest

from games import engine
from games.engine import IllegalDecision, OptionsError
from games.six import engine as six
from games.six.engine.dealing import hand_sizes
from games.six.engine.rules import with_deal

from .helpers import dealt, finished_game, full_deal, play, play_out


def mid_hand(state, table, hands=None):
    """`state` as if in a later hand, with the given table (suit -> (low, high)), for
    checking which cards may be played (the first-card rule of hand 1 then no longer holds)."""
    order = {suit: index for index, suit in enumerate(six.SUITS)}
    rows = [()] * 4
    for suit, ends in table.items():
        rows[order[suit]] = ends
    return dataclasses.replace(
        state, round=2, table=tuple(rows), turns=((0, None),), hands=hands or state.hands
    )


# --- 3.1 cards, players, options ---------------------------------------------------------


def test_registered_as_engine_six():
    assert engine.get("six") is six
    assert six.KIND == "six"


def test_deck_of_40_is_four_suits_of_1_to_7_sota_caballo_rey():  # RULES 3.1, 3.5
    cards = six.deck(40)
    assert len(cards) == len(set(cards)) == 40
    for suit in ("oros", "copas", "espadas", "bastos"):
        assert [c for c in cards if c.endswith(suit)] == [
            f"{rank}-{suit}" for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
        ]


def test_deck_of_48_adds_8_and_9_to_each_suit():  # RULES 3.1
    assert set(six.deck(48)) - set(six.deck(40)) == {
        f"{rank}-{suit}" for rank in (8, 9) for suit in six.SUITS
    }


def test_options_defaults_are_40_cards_target_30_not_balanced():  # RULES 3.1, 3.5
    usual = {"deck": 40, "end": "target", "target": 30, "balanced": False}
    assert six.normalize_options({}, 4) == usual
    assert six.normalize_options(None, 2) == usual
    assert six.DEFAULT_PLAYERS == 4


@pytest.mark.parametrize("players", [1, 9, 0, "4", True])
def test_two_to_eight_players(players):  # RULES 3.1
    with pytest.raises(OptionsError, match="players"):
        six.normalize_options({}, players)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"deck": 52}, "deck"),
        ({"deck": "40"}, "deck"),
        ({"target": 4}, "target"),
        ({"target": 201}, "target"),
        ({"target": 30.0}, "target"),
        ({"target": True}, "target"),
        ({"balanced": 1}, "balanced"),
        ({"threshold": 66}, "unknown option"),
    ],
)
def test_bad_options_are_refused_naming_the_option(options, named):  # RULES 3.5
    with pytest.raises(OptionsError, match=named):
        six.normalize_options(options, 4)


@pytest.mark.parametrize("target", [5, 200])
def test_target_is_a_whole_number_from_5_to_200(target):  # RULES 3.5
    assert six.normalize_options({"target": target}, 3)["target"] == target


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_balanced_deal_is_offered_to_4_players_only(players):  # RULES 3.5
    with pytest.raises(OptionsError, match="balanced"):
        six.normalize_options({"balanced": True}, players)
    assert six.normalize_options({"balanced": True, "deck": 48}, 4)["balanced"] is True


@pytest.mark.parametrize("deck", [40, 48])
@pytest.mark.parametrize("players", range(2, 9))
def test_all_cards_are_dealt_counts_differ_by_one_at_most(players, deck):  # RULES 3.1
    state = six.new_game(players=players, options={"deck": deck}, seed=players)
    held = Counter(card for hand in state.hands for card in hand)
    assert held == Counter(six.deck(deck))
    sizes = [len(hand) for hand in state.hands]
    assert max(sizes) - min(sizes) <= 1


# --- 3.5 dealing ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "deck"), [(3, 40), (5, 48), (7, 40), (6, 40)])
def test_hand_h_is_dealt_from_seat_h_mod_n_so_extra_cards_move_round(players, deck):  # RULES 3.5
    state = six.new_game(players=players, options={"deck": deck, "target": 200}, seed=5)
    state = play_out(state, random.Random(5), until=lambda s: s.round == players + 2)
    deals = [hands for hands, _ in state.history] + [state.start_hands]
    base, extra = divmod(deck, players)
    for h, hands in enumerate(deals):  # h counts from 0
        sizes = [len(hand) for hand in hands]
        assert sizes == hand_sizes(deck, players, h % players)
        firsts = [(h % players + k) % players for k in range(extra)]
        assert [seat for seat, size in enumerate(sizes) if size == base + 1] == sorted(firsts)


def test_a_deal_follows_from_seed_and_hand_only():  # docs/engines.md, RULES 3.5
    one = six.new_game(players=4, options={}, seed=11)
    assert six.new_game(players=4, options={}, seed=11) == one
    assert six.new_game(players=4, options={}, seed=12).hands != one.hands


# --- 3.2 play ------------------------------------------------------------------------------


def test_holder_of_the_6_of_oros_opens_hand_1_and_must_play_it():  # RULES 3.2, 3.5
    hands = full_deal({2: ["6-oros", "6-copas", "5-espadas"]})
    state = dealt(hands)
    assert six.to_act(state) == [2]
    assert six.legal(state, 2) == [{"type": "select", "card": "6-oros"}]
    with pytest.raises(IllegalDecision, match="6-oros"):
        play(state, 2, "6-copas")
    state, events = play(state, 2, "6-oros")
    assert events[0] == {"type": "played", "seat": 2, "card": "6-oros"}
    assert state.opener == 2


def test_turns_pass_to_the_next_seat():  # RULES 3.2
    hands = full_deal({3: ["6-oros"], 0: ["7-oros"], 1: ["6-copas"]})
    state = dealt(hands)
    state, _ = play(state, 3, "6-oros")
    assert six.to_act(state) == [0]
    state, _ = play(state, 0, "7-oros")
    assert six.to_act(state) == [1]


def test_only_the_seat_to_move_may_play():  # RULES 3.2
    state = dealt(full_deal({0: ["6-oros"], 1: ["6-copas"]}))
    assert six.legal(state, 1) == []
    with pytest.raises(IllegalDecision, match="not your turn"):
        play(state, 1, "6-copas")


@pytest.mark.parametrize(
    ("deck", "table", "playable", "not_playable"),
    [
        # A sequence grows down from its 6 to the 1 and up to the rey.
        (40, {"oros": (6, 6)}, ["5-oros", "7-oros"], ["4-oros", "10-oros"]),
        (40, {"oros": (5, 7)}, ["4-oros", "10-oros"], ["3-oros", "11-oros", "8-oros"]),
        # With 48 cards, 8 and 9 come between 7 and sota.
        (48, {"oros": (5, 7)}, ["4-oros", "8-oros"], ["10-oros", "9-oros"]),
        (48, {"oros": (6, 9)}, ["5-oros", "10-oros"], ["11-oros"]),
        # Rey and 1 are not neighbours: a sequence ends at both.
        (40, {"oros": (2, 12)}, ["1-oros"], []),
        (40, {"oros": (1, 11)}, ["12-oros"], []),
        # A suit whose 6 is not down takes only its 6.
        (40, {"oros": (1, 12)}, ["6-copas"], ["7-copas", "5-copas", "1-copas", "12-copas"]),
    ],
)
def test_a_card_is_playable_next_to_an_end_of_its_suit_or_a_6_starts_a_suit(
    deck, table, playable, not_playable
):  # RULES 3.2, 3.5
    state = six.new_game(players=2, options={"deck": deck}, seed=0)
    cards = [card for card in six.deck(deck) if card not in _on_table(table, deck)]
    state = mid_hand(state, table, hands=(tuple(cards), ()))
    can = six.playable(state, 0)
    for card in playable:
        assert card in can
    for card in not_playable:
        assert card not in can


def _on_table(table, deck):
    return {
        f"{rank}-{suit}"
        for suit, (low, high) in table.items()
        for rank in six.cards.RANKS[deck]
        if low <= rank <= high
    }


def test_a_seat_that_can_play_must_play_and_chooses_among_its_playable_cards():  # RULES 3.2
    state = six.new_game(players=4, options={}, seed=0)
    hand = ("5-oros", "7-oros", "3-copas", "6-espadas", "1-bastos")
    state = mid_hand(state, {"oros": (6, 6)}, hands=(hand,) + state.hands[1:])
    state = dataclasses.replace(state, to_move=0)
    assert six.legal(state, 0) == [
        {"type": "select", "card": card} for card in ("5-oros", "7-oros", "6-espadas")
    ]
    with pytest.raises(IllegalDecision, match="3-copas"):
        play(state, 0, "3-copas")


def test_a_seat_without_playable_card_passes_automatically_as_its_turn():  # RULES 3.2, 3.5
    no_play = ["1-oros", "2-oros", "3-oros", "10-oros", "11-oros", "12-oros"]
    no_play += ["1-copas", "2-copas", "3-copas", "10-copas"]
    hands = full_deal({0: ["6-oros"], 1: no_play, 2: ["5-oros"]})
    state = dealt(hands)
    state, events = play(state, 0, "6-oros")
    assert events == [
        {"type": "played", "seat": 0, "card": "6-oros"},
        {"type": "passed", "seat": 1},
    ]
    assert state.turns == ((0, "6-oros"), (1, None))
    assert six.to_act(state) == [2]
    assert state.version == 1  # a pass is not a decision
    assert six.legal(state, 1) == []


def test_a_pass_is_never_a_decision():  # RULES 3.5
    state = dealt(full_deal({0: ["6-oros"]}))
    for decision in ({"type": "pass"}, {"type": "select", "card": None}, {"type": "row"}):
        with pytest.raises(IllegalDecision):
            six.apply(state, 0, decision)


def test_the_hand_ends_as_soon_as_a_seat_has_no_cards_left():  # RULES 3.2
    state = six.new_game(players=4, options={"target": 200}, seed=3)
    state = play_out(state, random.Random(3), until=lambda s: s.round == 2)
    hands, turns = state.history[0]
    winner, last = turns[-1]
    assert last is not None
    played = [card for seat, card in turns if seat == winner and card is not None]
    assert sorted(played) == sorted(hands[winner])
    # Nobody else had emptied their hand before.
    for seat in range(4):
        if seat != winner:
            mine = [card for who, card in turns if who == seat and card is not None]
            assert len(mine) < len(hands[seat])


def test_apply_leaves_its_state_untouched():  # docs/engines.md
    state = dealt(full_deal({0: ["6-oros"]}))
    before = six.dump(state)
    play(state, 0, "6-oros")
    with pytest.raises(IllegalDecision):
        play(state, 0, "5-oros")
    assert six.dump(state) == before


@pytest.mark.parametrize(
    ("seat", "decision", "reason"),
    [
        (4, {"type": "select", "card": "6-oros"}, "not at this table"),
        ("0", {"type": "select", "card": "6-oros"}, "not at this table"),
        (0, ["select"], "mapping"),
        (0, {"type": "select", "card": 6}, "a card is a name"),
        (0, {"type": "select", "card": "6-copas"}, "not in your hand"),
        (0, {"type": "select", "card": "13-oros"}, "not in your hand"),
    ],
)
def test_malformed_decisions_are_refused(seat, decision, reason):
    state = dealt(full_deal({0: ["6-oros"], 1: ["6-copas"]}))
    with pytest.raises(IllegalDecision, match=reason):
        six.apply(state, seat, decision)


# --- 3.3 scoring and end -------------------------------------------------------------------


def test_winner_gains_5_plus_the_cards_left_others_lose_their_cards():  # RULES 3.3
    state = six.new_game(players=5, options={"target": 200}, seed=8)
    rng = random.Random(8)
    ends = 0
    while ends < 5:
        seat = six.to_act(state)[0]
        before = state
        state, events = six.apply(state, seat, rng.choice(six.legal(state, seat)))
        for event in events:
            if event["type"] == "round_over":
                ends += 1
                left = [len(hand) for hand in before.hands]
                left[seat] -= 1
                assert left[seat] == 0 and event["winner"] == seat
                expected = [-count for count in left]
                expected[seat] = 5 + sum(left)
                assert event["points"] == expected
                assert event["left"] == event["heads"] == left
                assert list(state.round_scores[-1]) == expected


def test_totals_start_at_0_and_may_go_below_0():  # RULES 3.5
    state = six.new_game(players=4, options={}, seed=1)
    assert state.totals == (0, 0, 0, 0)
    state = play_out(state, random.Random(0))
    assert min(state.totals) < 0
    assert list(state.totals) == [sum(points) for points in zip(*state.round_scores, strict=True)]


def test_later_hands_open_with_the_seat_after_the_previous_first_turn():  # RULES 3.3, 3.5
    state = finished_game(players=5, options={"target": 60}, seed=4)
    firsts = [turns[0][0] for _, turns in state.history]
    assert len(firsts) >= 3
    assert state.history[0][1][0][1] == "6-oros"
    for before, after in zip(firsts, firsts[1:], strict=False):
        assert after == (before + 1) % 5


def _second_hand(hands_of_hand_2, players=4):
    """A game in its second hand (after a first one played at random) with that deal."""
    state = six.new_game(players=players, options={"target": 200}, seed=2)
    state = play_out(state, random.Random(2), until=lambda s: s.round == 2)
    state, events = with_deal(state, hands_of_hand_2)
    return state, events


def test_a_later_hand_opens_with_any_6():  # RULES 3.3
    opener = (six.new_game(players=4, options={}, seed=2).opener + 1) % 4
    hands = full_deal(
        {opener: ["6-bastos"], (opener + 1) % 4: ["6-copas", "6-oros"], (opener + 2) % 4: []},
        first=1,
    )
    state, events = _second_hand(hands)
    assert events == []
    assert six.to_act(state) == [opener]
    assert {d["card"] for d in six.legal(state, opener)} == {
        card for card in state.hands[opener] if card.startswith("6-")
    }
    state, _ = play(state, opener, "6-bastos")
    assert state.table[3] == (6, 6)


def test_an_opener_without_a_6_passes_and_the_turn_goes_on():  # RULES 3.3 Decision, 3.5
    opener = (six.new_game(players=4, options={}, seed=2).opener + 1) % 4
    sixes = {(opener + 2) % 4: ["6-oros", "6-copas", "6-espadas", "6-bastos"]}
    state, events = _second_hand(full_deal(sixes, first=1))
    assert events == [
        {"type": "passed", "seat": opener},
        {"type": "passed", "seat": (opener + 1) % 4},
    ]
    assert state.opener == opener
    assert state.turns == ((opener, None), ((opener + 1) % 4, None))
    assert six.to_act(state) == [(opener + 2) % 4]


def test_the_game_ends_after_the_hand_whose_winner_reaches_the_target():  # RULES 3.3, 3.5
    state = finished_game(players=4, options={"target": 40}, seed=6)
    assert six.is_over(state) and six.to_act(state) == []
    totals = [0, 0, 0, 0]
    reached = []
    for (_, turns), points in zip(state.history, state.round_scores, strict=True):
        totals = [total + gained for total, gained in zip(totals, points, strict=True)]
        winner = turns[-1][0]
        reached.append(totals[winner] >= 40)
    assert reached == [False] * (len(reached) - 1) + [True]
    assert list(state.totals) == totals


def test_with_target_5_one_hand_ends_the_game():  # RULES 3.3: a winner gains 5 at least
    state = finished_game(players=3, options={"target": 5}, seed=9)
    assert len(state.history) == 1
    winner = state.history[0][1][-1][0]
    assert six.result(state)["winners"] == [winner]
    with pytest.raises(IllegalDecision, match="over"):
        play(state, winner, "6-oros")


def test_result_ranks_by_points_highest_first():  # RULES 3.3
    state = finished_game(players=4, options={"target": 30}, seed=1)
    outcome = six.result(state)
    assert outcome["winners"] == [outcome["totals"].index(max(outcome["totals"]))]
    assert outcome["rounds"] == [list(points) for points in state.round_scores]
    unfinished = play_out(six.new_game(players=4, options={}, seed=1), until=lambda s: s.round == 2)
    assert six.result(unfinished)["winners"] == []


# --- 3.5 timing ------------------------------------------------------------------------------


def test_fallback_plays_the_first_playable_card_oros_copas_espadas_bastos_lower_first():
    # RULES 3.5 (timing)
    state = six.new_game(players=4, options={}, seed=0)
    hand = ("12-oros", "1-copas", "7-copas", "6-espadas", "5-bastos")
    table = {"oros": (1, 11), "copas": (6, 6), "bastos": (6, 12)}
    state = dataclasses.replace(mid_hand(state, table, hands=(hand,) + state.hands[1:]), to_move=0)
    assert six.fallback(state, 0) == {"type": "select", "card": "12-oros"}
    state = dataclasses.replace(state, hands=(hand[1:],) + state.hands[1:])
    assert six.fallback(state, 0) == {"type": "select", "card": "7-copas"}
    state = dataclasses.replace(
        state, hands=(("1-copas", "5-bastos", "6-espadas"),) + state.hands[1:]
    )
    assert six.fallback(state, 0) == {"type": "select", "card": "6-espadas"}


def test_fallback_in_hand_1_opens_with_the_6_of_oros_and_refuses_other_seats():  # RULES 3.5
    state = dealt(full_deal({1: ["6-copas", "6-oros"]}))
    assert six.fallback(state, 1) == {"type": "select", "card": "6-oros"}
    with pytest.raises(IllegalDecision):
        six.fallback(state, 0)


# --- the view --------------------------------------------------------------------------------

LIVE_ENTRIES = (
    "version",
    "phase",
    "round",
    "turn",
    "to_act",
    "selected",
    "my_selection",
    "hand",
    "piles",
    "totals",
    "result",
    "rows",
    "chooser",
    "draft",
    "last_turn",
    "seen",
    "round_scores",
)


def test_view_has_every_entry_the_live_layer_reads():  # docs/engines.md, "Adding a game"
    state = six.new_game(players=4, options={}, seed=0)
    for seat in (0, 3, None):
        view = six.view(state, seat)
        for entry in LIVE_ENTRIES:
            assert entry in view
        assert json.loads(json.dumps(view)) == view
        assert view["draft"] is None and view["chooser"] is None
        assert view["selected"] == [False] * 4 and view["my_selection"] is None
        assert view["scoring"] == "higher"


def test_view_shows_its_own_hand_and_every_seat_s_card_count_only():  # RULES 3.2
    state = play_out(six.new_game(players=4, options={}, seed=5), until=lambda s: s.version == 9)
    for seat in range(4):
        view = six.view(state, seat)
        assert view["hand"] == list(state.hands[seat])
        assert view["counts"] == [len(hand) for hand in state.hands]
        text = json.dumps(view)
        for other in range(4):
            if other != seat:
                for card in state.hands[other]:
                    assert f'"{card}"' not in text
    spectator = six.view(state, None)
    assert spectator["hand"] is None and spectator["playable"] == []
    text = json.dumps(spectator)
    for hand in state.hands:
        for card in hand:
            assert f'"{card}"' not in text


def test_view_lays_out_the_four_suit_sequences():  # RULES 3.2
    state = dealt(full_deal({0: ["6-oros"], 1: ["7-oros"], 2: ["5-oros"], 3: ["6-bastos"]}))
    for seat, card in ((0, "6-oros"), (1, "7-oros"), (2, "5-oros"), (3, "6-bastos")):
        state, _ = play(state, seat, card)
    view = six.view(state, None)
    assert view["rows"] == [["5-oros", "6-oros", "7-oros"], [], [], ["6-bastos"]]
    assert view["sequences"] == {"oros": [5, 7], "copas": None, "espadas": None, "bastos": [6, 6]}
    assert view["seen"] == ["5-oros", "6-oros", "7-oros", "6-bastos"]
    assert view["turn"] == 5 and view["round"] == 1
    assert view["last_turn"] == {"seat": 3, "card": "6-bastos"}
    assert view["turns"] == [[0, "6-oros"], [1, "7-oros"], [2, "5-oros"], [3, "6-bastos"]]


def test_view_of_the_seat_to_move_lists_its_playable_cards():  # RULES 3.2
    state = dealt(full_deal({0: ["6-oros", "6-copas"]}))
    assert six.view(state, 0)["playable"] == ["6-oros"]
    assert six.view(state, 1)["playable"] == []


def test_view_after_a_hand_shows_its_winner_points_and_cards_left():  # RULES 3.3
    state = play_out(
        six.new_game(players=4, options={"target": 200}, seed=7), until=lambda s: s.round == 2
    )
    view = six.view(state, 0)
    last = view["last_hand"]
    assert last["round"] == 1 and last["points"] == view["round_scores"][0]
    assert last["left"][last["winner"]] == 0
    assert view["totals"] == last["points"]
    assert view["result"] is None
    over = finished_game(seed=7)
    assert six.view(over, None)["result"] == six.result(over)
    assert six.view(over, None)["turn"] is None and six.view(over, None)["to_act"] == []


def test_view_refuses_a_seat_not_at_the_table():
    with pytest.raises(ValueError):
        six.view(six.new_game(players=4, options={}, seed=0), 4)


def test_six_has_no_penalty_heads():  # docs/engines.md: no `heads(card)` to define
    assert not hasattr(six, "heads")


# --- dump / load -----------------------------------------------------------------------------


def test_load_of_dump_is_the_same_state_at_every_step():  # docs/engines.md
    state = six.new_game(players=3, options={"deck": 48, "target": 20}, seed=2)
    rng = random.Random(2)
    while True:
        data = six.dump(state)
        assert six.load(json.loads(json.dumps(data))) == state
        if six.is_over(state):
            break
        seat = six.to_act(state)[0]
        state, _ = six.apply(state, seat, rng.choice(six.legal(state, seat)))


def test_load_refuses_another_game_s_dump():
    with pytest.raises(ValueError):
        six.load({"kind": "nimmt", "schema": 1})


def test_a_select_message_carries_a_card_name():  # docs/engines.md DECISIONS, docs/protocol.md
    from games import protocol

    decisions = six.DECISIONS
    assert decisions["select"] == {"card": str} and list(decisions) == ["select"]
    message = protocol.parse_message(
        json.dumps({"type": "select", "card": "10-copas"}), None, six.DECISIONS
    )
    assert message.decision == {"type": "select", "card": "10-copas"}
    for card in (10, None):
        with pytest.raises(protocol.ProtocolError):
            protocol.parse_message(json.dumps({"type": "select", "card": card}), None, decisions)
