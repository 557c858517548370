"""Random games through the public interface, for the property and record tests."""

import random

from games.surprise import engine as surprise


def random_game(seed, players, live=True, fallback_share=0.2, until=None):
    """A game played with random legal decisions (some of them §2.6 fallbacks).

    Yields nothing; returns the final state. `until(state)` stops it early when true.
    """
    for state in random_states(seed, players, live, fallback_share):
        if until is not None and until(state):
            return state
    return state


def random_states(seed, players, live=True, fallback_share=0.2):
    """Every state of one random game, the first and the last included."""
    rng = random.Random(seed)
    state = surprise.new_game(players=players, options={"live_scores": live}, seed=seed)
    yield state
    while not surprise.is_over(state):
        seat = rng.choice(surprise.to_act(state))
        if rng.random() < fallback_share:
            decision = surprise.fallback(state, seat)
        else:
            decision = rng.choice(surprise.legal(state, seat))
        state, _ = surprise.apply(state, seat, decision)
        yield state
