"""Seeded 6 qui surprend games between bots, through the engine's public interface."""

from games.surprise import engine as surprise


def play(bots, seed, on_decision=None):
    """Play one game; each seat's bot sees only its view. Returns the final state.

    `on_decision(state, seat, view, decision)` is called before each decision is applied.
    """
    state = surprise.new_game(players=len(bots), options={}, seed=seed)
    while not surprise.is_over(state):
        seat = surprise.to_act(state)[0]
        view = surprise.view(state, seat)
        decision = bots[seat].decide(view)
        if on_decision is not None:
            on_decision(state, seat, view, decision)
        state, _ = surprise.apply(state, seat, decision)
    return state
