"""Seeded games of Six between bots, played through the engine's public interface."""

import statistics

from games.six import engine as six
from games.six.bots import BOTS, SixExpertBot


def quick_expert(seed=0):
    """The expert on a small budget: the same code paths, a fraction of the play-outs."""
    return SixExpertBot(seed, turns_budget=2_000, min_worlds=4, max_worlds=40)


def make_bot(name, seed, *, quick=True):
    if name == "six_expert" and quick:
        return quick_expert(seed)
    return BOTS[name](seed=seed)


def play(names, *, seed, options=None, on_decision=None, bots=None):
    """Play one game, seat s by bot `names[s]`; returns the engine's result.

    `on_decision(state, seat, view, decision)` is called before each decision is applied.
    """
    players = len(names)
    state = six.new_game(players=players, options=options or {}, seed=seed)
    bots = bots or [make_bot(name, seed * 10 + seat) for seat, name in enumerate(names)]
    while not six.is_over(state):
        seat = six.to_act(state)[0]
        view = six.view(state, seat)
        decision = bots[seat].decide(view)
        if on_decision:
            on_decision(state, seat, view, decision)
        state, _ = six.apply(state, seat, decision)
    return six.result(state)


def hand_margins(challenger, field, *, games, seed, players=4, target=30, bots=None):
    """Per hand played, the challenger's points minus the mean of the field's, with the
    challenger's seat rotating from game to game.

    `bots(seat_names, game_seed)` may build the table's bots (default: make_bot)."""
    margins = []
    for index in range(games):
        spot = index % players
        names = [challenger if seat == spot else field for seat in range(players)]
        game_seed = seed + index
        table = bots(names, game_seed) if bots else None
        result = play(names, seed=game_seed, options={"target": target}, bots=table)
        for points in result["rounds"]:
            others = [points[seat] for seat in range(players) if seat != spot]
            margins.append(points[spot] - statistics.fmean(others))
    return margins


def lower_bound(values, z=3.0):
    """Mean minus z standard errors."""
    return statistics.fmean(values) - z * statistics.stdev(values) / len(values) ** 0.5
