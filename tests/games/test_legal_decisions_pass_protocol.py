"""Every decision an engine calls legal passes the protocol's own check (issue 29).

A client that sends a decision `legal(state, seat)` returned, as it is, must not be told
`bad_field`: docs/protocol.md says every field the game declares (its engine's
DECISIONS) must be given, null where the game allows it. 6 qui surprend's pass on
Négatif = Positif (RULES §2.4, optional) once came without its `extras`.

Random games of each kind: at every decision point, each legal decision of each seat
that is to act is sent through `games.protocol.parse_message` as JSON text, must come
out as the same decision, and must apply, leaving the state it was applied to as it was
(a server process keeps a table's state between decisions: games.services.kept); then one
of them, chosen at random, is played.
"""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from games.protocol import parse_message

# Table options and player counts the rules allow (RULES §1.2, §1.6–1.7; §2.1; §3.1,
# §3.4–3.5), kept to games of a round or a few to play many of them.
NIMMT = st.fixed_dictionaries(
    {
        "deal": st.sampled_from(["random", "draft"]),
        "card_limit": st.booleans(),
        "live_scores": st.booleans(),
        "end": st.just("rounds"),
        "rounds": st.integers(1, 2),
    }
)


@st.composite
def tables(draw, kind):
    """(players, options) of a table of `kind`."""
    if kind == "nimmt":
        return draw(st.integers(2, 10)), draw(NIMMT)
    if kind == "surprise":
        return draw(st.integers(2, 8)), {"live_scores": draw(st.booleans())}
    players = draw(st.integers(2, 8))
    options = {"deck": draw(st.sampled_from([40, 48])), "target": draw(st.integers(5, 30))}
    if players == 4:
        options["balanced"] = draw(st.booleans())
    return players, options


def check_every_legal_decision(game, state, seat):
    """Each of `seat`'s legal decisions: as a client sends it, parsed, applied."""
    decisions = game.legal(state, seat)
    assert decisions, f"seat {seat} is to act with nothing legal"
    before = game.dump(state)
    for decision in decisions:
        message = parse_message(json.dumps(decision), None, game.DECISIONS)
        # The protocol neither misses a field (bad_field) nor drops one the engine needs.
        assert message.type == decision["type"]
        assert message.decision == decision
        game.apply(state, seat, message.decision)
    assert game.dump(state) == before, "apply changed the state it was given"
    return decisions


def play_checking(kind, players, options, seed):
    game = engine.get(kind)
    rng = random.Random(seed)
    state = game.new_game(players=players, options=options, seed=seed)
    for _step in range(10_000):
        if game.is_over(state):
            return
        seats = game.to_act(state)
        legal = {seat: check_every_legal_decision(game, state, seat) for seat in seats}
        seat = rng.choice(seats)
        state, _events = game.apply(state, seat, rng.choice(legal[seat]))
    raise AssertionError(f"the {kind} game did not end")


@settings(max_examples=50, deadline=None)
@given(table=tables("nimmt"), seed=st.integers(0, 2**31 - 1))
def test_legal_decisions_of_6_qui_prend_pass_the_protocol(table, seed):
    play_checking("nimmt", *table, seed)


@settings(max_examples=50, deadline=None)
@given(table=tables("surprise"), seed=st.integers(0, 2**31 - 1))
def test_legal_decisions_of_6_qui_surprend_pass_the_protocol(table, seed):
    play_checking("surprise", *table, seed)


@settings(max_examples=50, deadline=None)
@given(table=tables("six"), seed=st.integers(0, 2**31 - 1))
def test_legal_decisions_of_six_pass_the_protocol(table, seed):
    play_checking("six", *table, seed)


def test_the_pass_on_negatif_positif_gives_every_field():
    """RULES §2.4: not playing Négatif = Positif is a decision of its own, asked of the
    seat that just took; it carries `extras` (null) like any client's."""
    surprise = engine.get("surprise")
    for seed in range(200):
        rng = random.Random(seed)
        state = surprise.new_game(players=4, options={}, seed=seed)
        while not surprise.is_over(state):
            seat = rng.choice(surprise.to_act(state))
            if state.phase == "negatif_positif":
                passing = surprise.legal(state, seat)[0]
                assert passing == {"type": "negatif_positif", "card": None, "extras": None}
                assert surprise.fallback(state, seat) == passing
                parsed = parse_message(json.dumps(passing), None, surprise.DECISIONS)
                surprise.apply(state, seat, parsed.decision)
                return
            state, _events = surprise.apply(state, seat, rng.choice(surprise.legal(state, seat)))
    raise AssertionError("no random game asked for Négatif = Positif")
