"""Bots (games/bots): legal decisions in every phase and variant, view-only input,
determinism from the seed, and strength where it is cheap to check."""

import copy
import inspect
import itertools
import random

import numpy as np
import pytest

from games.bots import NothingToDecide, get_bot, legal_decisions
from games.bots.simulate import play_game, simulate, table_options
from games.nimmt import engine as nimmt
from games.nimmt.bots import BOTS
from games.nimmt.bots.cards import known_hands, unseen_cards
from games.nimmt.bots.expert import ExpertBot
from games.nimmt.bots.rollout import Tables
from games.nimmt.engine import core

VARIANTS = [
    {"deal": deal, "card_limit": limit, "live_scores": live, "end": "rounds", "rounds": 2}
    for deal, limit, live in itertools.product(("random", "draft"), (False, True), (True, False))
] + [
    # Low thresholds end games within a round or two, so rollouts that end the game count.
    {"deal": "random", "card_limit": False, "end": "threshold", "threshold": 12},
    {"deal": "draft", "card_limit": True, "end": "threshold", "threshold": 12},
]
PLAYERS = range(2, 11)


def quick_expert(seed=0):
    """The expert on a small budget: same code paths, a fraction of the rollouts."""
    return ExpertBot(seed, placements=1, min_worlds=16)


def make_bot(name, seed):
    return quick_expert(seed) if name == "expert" else get_bot(name, seed=seed)


def play_checked(players, options, seed, names, on_decision=None):
    """Play one game; every decision must be one the engine lists as legal."""
    options = nimmt.normalize_options(options, players)
    state = nimmt.new_game(players=players, options=options, seed=seed)
    bots = [make_bot(names[s % len(names)], seed * 10 + s) for s in range(players)]
    kinds = set()
    while not nimmt.is_over(state):
        seat = nimmt.to_act(state)[0]
        view = nimmt.view(state, seat)
        decision = bots[seat].decide(view)
        assert decision in nimmt.legal(state, seat), (view, decision)
        assert decision in legal_decisions(view)
        kinds.add(decision["type"])
        if on_decision:
            on_decision(state, seat, view, decision)
        state, _ = nimmt.apply(state, seat, decision)
    return kinds


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bot_always_decides_legally_in_every_variant_and_table_size(name):
    kinds = set()
    for index, (options, players) in enumerate(itertools.product(VARIANTS, PLAYERS)):
        # The expert shares its table with random players to keep the test quick.
        names = [name] if name != "expert" else ["expert", "random", "random"]
        kinds |= play_checked(players, options, seed=index, names=names)
    assert kinds == {"select", "row", "pick"}


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bot_decides_legally_over_many_seeded_rounds(name):
    names = [name] if name != "expert" else ["expert", "heuristic"]
    rng = random.Random(7)
    for seed in range(120 if name != "expert" else 6):
        players = rng.randint(2, 10)
        options = dict(rng.choice(VARIANTS), rounds=1)
        play_checked(players, options, seed=1000 + seed, names=names)


def test_bot_decide_takes_a_view_and_nothing_else():
    for kind in BOTS.values():
        assert list(inspect.signature(kind.decide).parameters) == ["self", "view"]


def test_bots_get_exactly_their_seats_view_and_leave_it_untouched():
    class Watched:
        """Engine stand-in that remembers the latest state, to check what bots are given."""

        state = None

        def new_game(self, **kwargs):
            self.state = nimmt.new_game(**kwargs)
            return self.state

        def apply(self, state, seat, decision):
            self.state, events = nimmt.apply(state, seat, decision)
            return self.state, events

        def __getattr__(self, name):
            return getattr(nimmt, name)

    watched = Watched()

    class Spy:
        def __init__(self, bot, seat):
            self.bot, self.seat, self.calls = bot, seat, 0

        def decide(self, view):
            assert type(view) is dict
            assert view == nimmt.view(watched.state, self.seat)
            before = copy.deepcopy(view)
            decision = self.bot.decide(view)
            assert view == before  # a bot never writes to the view it is handed
            self.calls += 1
            return decision

    options = nimmt.normalize_options({"deal": "draft", "end": "rounds", "rounds": 1}, 4)
    spies = [Spy(make_bot(name, seat), seat) for seat, name in enumerate(sorted(BOTS) * 2)][:4]
    stats = simulate(players=4, games=1, bots=["random"]).seats
    play_game(watched, 4, options, 5, spies, stats)
    assert all(spy.calls > 10 for spy in spies)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_same_seed_same_decisions(name):
    def decisions(seed):
        made = []
        bots = [make_bot(name, seed) for _ in range(3)]
        options = nimmt.normalize_options({"end": "rounds", "rounds": 1, "deal": "draft"}, 3)
        state = nimmt.new_game(players=3, options=options, seed=11)
        while not nimmt.is_over(state):
            seat = nimmt.to_act(state)[0]
            decision = bots[seat].decide(nimmt.view(state, seat))
            made.append(decision)
            state, _ = nimmt.apply(state, seat, decision)
        return made

    assert decisions(3) == decisions(3)
    if name == "random":
        assert decisions(3) != decisions(4)


def test_a_bot_asked_out_of_turn_refuses():
    state = nimmt.new_game(players=3, options=nimmt.normalize_options({}, 3), seed=1)
    state, _ = nimmt.apply(state, 0, {"type": "select", "card": state.hands[0][0]})
    for name in BOTS:
        with pytest.raises(NothingToDecide):
            get_bot(name).decide(nimmt.view(state, None))  # a spectator
        with pytest.raises(NothingToDecide):
            get_bot(name).decide(nimmt.view(state, 0))  # already selected


def test_unknown_bot_name_lists_the_known_ones():
    with pytest.raises(KeyError, match="random, heuristic, expert"):
        get_bot("oracle")


def test_what_a_seat_infers_matches_the_hidden_hands():
    # The expert samples other hands from `unseen_cards`, or knows them from public draft
    # picks (RULES 1.7): both must agree with the real hands, which the view never shows.
    checked = []

    def check(state, seat, view, decision):
        others = {card for s, hand in enumerate(state.hands) if s != seat for card in hand}
        if view["phase"] == "select":
            assert others <= set(unseen_cards(view))
            if view["options"]["card_limit"]:
                assert others == set(unseen_cards(view))
            known = known_hands(view)
            if view["options"]["deal"] == "draft":
                assert known == {s: sorted(h) for s, h in enumerate(state.hands) if s != seat}
                checked.append(seat)

    for index, options in enumerate(VARIANTS):
        play_checked(5, options, seed=index, names=["random"], on_decision=check)
    assert checked


def test_batched_rollouts_follow_the_engine_placing_rules():
    # RULES 1.4, with every too-low card taking the cheapest row (the 1.8 fallback)
    rng = random.Random(3)
    for players in (2, 4, 7, 10):
        deals = [core.deal(rng, players) for _ in range(30)]
        for _, hands in deals:
            for hand in hands:
                rng.shuffle(hand)
        tables = Tables.stacked([Tables(rows, 1, players) for rows, _ in deals])
        sequence = np.array([[hand[::-1] for hand in hands] for _, hands in deals])
        tables.play_turns(sequence.transpose(0, 2, 1).copy())
        for index, (rows, hands) in enumerate(deals):
            rows, hands = [list(r) for r in rows], [list(h) for h in hands]
            expected = core.play_out(rows, hands, [0] * players)
            assert tables.penalties[index].tolist() == expected


def test_heuristic_beats_random():
    report = simulate(players=4, games=40, bots=["heuristic", "random", "random", "random"])
    heuristic, *randoms = report.seats
    assert heuristic.wins >= 25
    assert heuristic.mean_heads < min(r.mean_heads for r in randoms) - 4


def test_expert_beats_random():
    # A modest sample at full strength; docs/benchmarks.md has the long runs.
    options = table_options(rounds=2)
    report = simulate(
        players=4, games=8, bots=["expert", "random", "random", "random"], seed=2, options=options
    )
    expert, *randoms = report.seats
    assert expert.wins >= 6
    assert expert.mean_heads < min(r.mean_heads for r in randoms) - 4


def table_view(*, rows, hand, phase="select", revealed=None, resolving=(), chooser=None):
    """A seat's view as the engine shapes it (docs/engines.md), for hand-made situations."""
    seen = sorted({card for row in rows for card in row} | set(revealed or ()))
    return {
        "kind": "nimmt", "seat": 0, "players": 3, "version": 5, "round": 1, "turn": 4,
        "options": {"card_limit": False, "deal": "random", "end": "threshold",
                    "threshold": 66, "live_scores": True},
        "phase": phase, "rows": rows, "hand": hand, "selected": [False] * 3,
        "my_selection": None, "revealed": revealed, "resolving": list(resolving),
        "chooser": chooser, "piles": [{"cards": 0, "heads": 0}] * 3, "round_scores": [],
        "totals": [0, 0, 0], "seen": seen, "draft": None,
        "to_act": [0] if phase == "choose_row" else [0, 1, 2], "result": None,
    }  # fmt: skip


@pytest.mark.parametrize("name", ["heuristic", "expert"])
def test_thoughtful_bots_do_not_play_a_certain_sixth_card(name):
    # RULES 1.4: 15 lands on the full row ending 14, nothing can come between; 52 is safe.
    rows = [[10, 11, 12, 13, 14], [50], [60], [70]]
    view = table_view(rows=rows, hand=[15, 52, 61, 71, 90, 95, 100])
    assert get_bot(name, seed=1).decide(view) != {"type": "select", "card": 15}


@pytest.mark.parametrize("name", ["heuristic", "expert"])
def test_thoughtful_bots_take_the_cheapest_row_when_nothing_else_differs(name):
    # RULES 1.4: 3 is too low; the rows hold 1, 7, 5 and 3 heads.
    rows = [[21], [55], [66], [70]]
    view = table_view(
        rows=rows, hand=[], phase="choose_row", revealed=[3, 90, 91], resolving=[3, 90, 91],
        chooser=0,
    )  # fmt: skip
    view["turn"] = 10
    assert get_bot(name, seed=1).decide(view) == {"type": "row", "row": 0}


def collect_views(players=4, seed=3, options=None):
    """Views of every decision of one seeded game between heuristics, draft included."""
    options = nimmt.normalize_options(options or {"end": "rounds", "rounds": 1}, players)
    state = nimmt.new_game(players=players, options=options, seed=seed)
    bots = [get_bot("heuristic", seed=s) for s in range(players)]
    views = []
    while not nimmt.is_over(state):
        seat = nimmt.to_act(state)[0]
        view = nimmt.view(state, seat)
        views.append(view)
        state, _ = nimmt.apply(state, seat, bots[seat].decide(view))
    return views


def test_expert_estimates_list_every_choice_best_first_and_decide_plays_the_first():
    views = collect_views(options={"end": "rounds", "rounds": 1, "deal": "draft"})
    kinds = set()
    for view in views[::3]:
        bot = quick_expert(seed=5)
        legal = legal_decisions(view)
        also = legal[-1]
        listed = bot.estimates(view, also=also)
        decisions = [decision for decision, _ in listed]
        assert all(isinstance(heads, float) for _, heads in listed)
        assert also in decisions
        assert len(decisions) == len({repr(d) for d in decisions})
        assert all(d in legal for d in decisions)
        assert bot.decide(view) == decisions[0]
        assert bot.estimates(view, also=also) == listed  # deterministic for seed and view
        kinds.add(decisions[0]["type"])
        if decisions[0]["type"] != "pick":
            assert sorted(decisions, key=repr) == sorted(legal, key=repr)
            assert all(0.0 <= heads <= 100 for _, heads in listed)
    assert kinds >= {"select", "pick"}


def test_expert_estimates_rank_a_certain_sixth_card_and_the_rows_by_heads():
    rows = [[10, 11, 12, 13, 14], [50], [60], [70]]
    view = table_view(rows=rows, hand=[15, 52, 61, 71, 90, 95, 100])
    listed = dict((d["card"], heads) for d, heads in ExpertBot(1).estimates(view))
    # 15 takes the 5 heads of the full row (10 and 11 hold 3 and 5, RULES 1.2) at least.
    assert listed[15] >= nimmt.heads(10) + nimmt.heads(11) + 3
    assert min(listed.values()) < listed[15]
    view = table_view(
        rows=[[21], [55], [66], [70]], hand=[], phase="choose_row", revealed=[3, 90, 91],
        resolving=[3, 90, 91], chooser=0,
    )  # fmt: skip
    view["turn"] = 10
    listed = ExpertBot(1).estimates(view)
    assert [d["row"] for d, _ in listed][0] == 0
    assert dict((d["row"], h) for d, h in listed) == {0: 1.0, 1: 7.0, 2: 5.0, 3: 3.0}


@pytest.mark.parametrize("dtype", [np.uint8, np.int64])
def test_a_placed_card_goes_after_the_highest_lower_row_end_whatever_its_dtype(dtype):
    # RULES 1.4: 42 follows 31 (not 89, 82 or 69); 83 is the sixth card of the full row.
    tables = Tables([[55, 56, 59, 88, 89], [31], [66, 79, 81, 82], [69]], 2, 3)
    tables.place(np.array([42, 90], dtype=dtype), np.array([1, 2]))
    assert tables.last.T.tolist() == [[89, 42, 82, 69], [90, 31, 82, 69]]
    assert tables.penalties.tolist() == [
        [0, 0, 0],
        [0, 0, sum(map(nimmt.heads, [55, 56, 59, 88, 89]))],
    ]


def test_the_expert_places_the_other_cards_of_the_turn_after_its_row_choice():
    # RULES 1.4: after 14 takes a row, 42 and 48 go after the highest lower row end.
    # Taking [31] (1 head) leaves 42 and 48 behind 14: the cheap and safe row.
    view = table_view(
        rows=[[55, 56, 59, 88, 89], [31], [66, 79, 81, 82], [69]], hand=[41, 49],
        phase="choose_row", revealed=[14, 42, 48], resolving=[14, 42, 48], chooser=0,
    )  # fmt: skip
    listed = dict((d["row"], heads) for d, heads in ExpertBot(1).estimates(view))
    assert ExpertBot(1).decide(view) == {"type": "row", "row": 1}
    assert listed[1] < 1.5 and listed[0] >= sum(map(nimmt.heads, [55, 56, 59, 88, 89]))


def test_the_expert_stops_weighing_cards_that_are_clearly_worse():
    # 15 is a certain sixth card (RULES 1.4): the race drops it, and others, early.
    rows = [[10, 11, 12, 13, 14], [50], [60], [70]]
    view = table_view(rows=rows, hand=[15, 52, 61, 71, 90, 95, 100])
    racing, exhaustive = ExpertBot(1), ExpertBot(1, race_z=float("inf"))
    assert racing.decide(view) == exhaustive.decide(view)
    assert racing.rollouts < 0.8 * exhaustive.rollouts
