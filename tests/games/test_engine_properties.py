"""Random games through the public interface, checking the invariants of RULES §1 at every
step, for every variant and 2 to 10 players (the OpenSpiel `random_sim_test` idea)."""

import itertools
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.nimmt import engine as nimmt

VARIANTS = [
    {"deal": deal, "card_limit": limit, "live_scores": live, **end}
    for deal, limit, live, end in itertools.product(
        ("random", "draft"),
        (False, True),
        (True, False),
        ({"end": "threshold", "threshold": 66}, {"end": "rounds", "rounds": 3}),
    )
]
PLAYERS = range(2, 11)
GAMES = [
    (options, players, seed)
    for seed, (options, players) in enumerate(
        itertools.islice(itertools.cycle(itertools.product(VARIANTS, PLAYERS)), 200)
    )
]


def check_invariants(state):
    """RULES §1 facts that hold between any two decisions."""
    players = state.players
    size = 10 * players + 4 if state.options["card_limit"] else 104
    deck = Counter(range(1, size + 1))
    assert len(state.hands) == players
    assert list(state.totals) == [
        sum(scores[s] for scores in state.round_scores) for s in range(players)
    ]
    if state.phase == "draft":
        # RULES 1.7: every card in play is in the pool or in exactly one hand.
        held = Counter(state.pool) + Counter(c for hand in state.hands for c in hand)
        assert held == deck
        assert sorted(state.picks) == sorted(c for hand in state.hands for c in hand)
        return
    # RULES 1.4: four rows, none over five cards.
    assert len(state.rows) == 4
    assert all(1 <= len(row) <= 5 for row in state.rows)
    # Every card dealt this round is in exactly one place: a hand, a row, a penalty pile,
    # or revealed and waiting to be placed.
    dealt = Counter(row[0] for row in state.start_rows) + Counter(
        c for hand in state.start_hands for c in hand
    )
    places = (
        Counter(c for hand in state.hands for c in hand)
        + Counter(c for row in state.rows for c in row)
        + Counter(c for pile in state.piles for c in pile)
        + Counter(state.pending)
    )
    assert places == dealt
    assert max(dealt.values()) == 1
    assert set(dealt) <= set(deck)
    assert len(dealt) == 10 * players + 4
    # Heads are conserved (RULES 1.1, 1.5).
    assert sum(nimmt.heads(c) * n for c, n in places.items()) == sum(nimmt.heads(c) for c in dealt)
    # Hands shrink by one card a turn (RULES 1.5); rows stay ascending without variants.
    turns_done = len(state.turns)
    for hand in state.hands:
        assert len(hand) == 10 - turns_done - (1 if state.phase == "choose_row" else 0)
        assert list(hand) == sorted(hand)
    for row in state.rows:
        assert list(row) == sorted(row)


def random_decision(state, rng):
    seat = rng.choice(nimmt.to_act(state))
    return seat, rng.choice(nimmt.legal(state, seat))


def play(options, players, seed, check=True):
    """A random game; returns the final state and the decision log."""
    rng = random.Random(seed)
    state = nimmt.new_game(players=players, options=options, seed=seed)
    log = []
    while not nimmt.is_over(state):
        assert state.round <= 60, "a game must end"
        seat, decision = random_decision(state, rng)
        # Sometimes a seat that already selected changes its mind (RULES 1.3).
        if state.phase == "select" and rng.random() < 0.05:
            changer = rng.randrange(players)
            if state.selections[changer]:
                other = rng.choice(nimmt.legal(state, changer))
                state, _ = nimmt.apply(state, changer, other)
                log.append((changer, other))
        state, events = nimmt.apply(state, seat, decision)
        log.append((seat, decision))
        if check:
            check_invariants(state)
            assert all("card" not in e for e in events if e["type"] == "selected")
    return state, log


@pytest.mark.parametrize(("options", "players", "seed"), GAMES)
def test_random_game_keeps_every_invariant_and_replays(options, players, seed):
    # RULES 1.1-1.7 invariants, games end (1.6), RULES 4 record + replay give the same scores
    state, log = play(options, players, seed)
    outcome = nimmt.result(state)
    assert len(outcome["rounds"]) >= 1
    if options["end"] == "rounds":
        assert len(outcome["rounds"]) == options["rounds"]
    else:
        assert max(outcome["totals"]) >= options["threshold"]
        assert (
            max(sum(r[s] for r in outcome["rounds"][:-1]) for s in range(players))
            < options["threshold"]
        )
    record = nimmt.record(state, [f"p{seat}" for seat in range(players)])
    assert nimmt.replay(json.loads(json.dumps(record))) == outcome
    # Same seed, same decisions: the same game (deterministic from the seed).
    again = nimmt.new_game(players=players, options=options, seed=seed)
    for seat, decision in log:
        again, _ = nimmt.apply(again, seat, decision)
    assert again == state


@pytest.mark.parametrize(("options", "players", "seed"), GAMES[::13])
def test_dump_load_round_trip_at_every_step(options, players, seed):
    # docs/engines.md: state serialises to JSON and back exactly
    rng = random.Random(seed)
    state = nimmt.new_game(players=players, options=options, seed=seed)
    while not nimmt.is_over(state):
        data = json.loads(json.dumps(nimmt.dump(state)))
        assert nimmt.load(data) == state
        assert nimmt.dump(nimmt.load(data)) == data
        seat, decision = random_decision(state, rng)
        state, _ = nimmt.apply(state, seat, decision)
    assert nimmt.load(json.loads(json.dumps(nimmt.dump(state)))) == state


@pytest.mark.parametrize(("options", "players", "seed"), GAMES[::17])
def test_views_are_json_and_never_show_other_hands(options, players, seed):
    # RULES 1.3: a seat's view holds its own hand only; a spectator's holds none
    rng = random.Random(seed)
    state = nimmt.new_game(players=players, options=options, seed=seed)
    while not nimmt.is_over(state):
        for seat in [None, *range(players)]:
            view = json.loads(json.dumps(nimmt.view(state, seat)))
            assert view["hand"] == (None if seat is None else list(state.hands[seat]))
            if state.phase == "select":
                mine = state.selections[seat] if seat is not None else 0
                assert view["my_selection"] == (mine or None)
                assert view["revealed"] is None
                assert view["selected"] == [bool(c) for c in state.selections]
        seat, decision = random_decision(state, rng)
        state, _ = nimmt.apply(state, seat, decision)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 10),
    seed=st.integers(0, 2**64),
    variant=st.sampled_from(VARIANTS),
)
def test_fallback_games_end_and_replay(players, seed, variant):
    # RULES 1.8: a table of absent players plays itself to the end with the fallbacks
    state = nimmt.new_game(players=players, options=variant, seed=seed)
    while not nimmt.is_over(state):
        seat = nimmt.to_act(state)[0]
        decision = nimmt.fallback(state, seat)
        assert decision in nimmt.legal(state, seat)
        state, _ = nimmt.apply(state, seat, decision)
    record = nimmt.record(state, ["x"] * players)
    assert nimmt.replay(record) == nimmt.result(state)
