"""The surprise bots are deterministic, and stronger in the expected order."""

import statistics
from collections import Counter

from games.surprise import engine as surprise
from games.surprise.bots import BOTS, SurpriseExpertBot, awaited, legal_decisions

from .play import play


def test_same_seed_and_view_same_decision():
    """A decision is a pure function of (seed, view): a fresh bot and one that decided
    many times before answer alike; the whole game replays identically."""
    for name, bot_class in BOTS.items():
        make = (
            (lambda seed: SurpriseExpertBot(seed, placements=1_500))
            if (name == "surprise_expert")
            else bot_class
        )
        views = []

        def keep(state, seat, view, decision, views=views):
            views.append((seat, view, decision))

        bots = [make(seat) for seat in range(4)]
        first = play(bots, 5, keep)
        for seat, view, decision in views[::7]:
            assert make(seat).decide(view) == decision, (name, view)
            assert bots[seat].decide(view) == decision, (name, view)
        again = play([make(seat) for seat in range(4)], 5)
        assert surprise.result(again) == surprise.result(first)


def totals(bots_of, seeds):
    return [surprise.result(play(bots_of(seed), seed))["totals"] for seed in seeds]


def test_heuristic_beats_random():
    results = totals(
        lambda seed: (
            [BOTS["surprise_heuristic"](seed)]
            + [BOTS["surprise_random"](seed * 10 + seat) for seat in range(1, 4)]
        ),
        range(12),
    )
    mine = statistics.fmean(result[0] for result in results)
    theirs = statistics.fmean(statistics.fmean(result[1:]) for result in results)
    assert mine < theirs / 2, (mine, theirs)


def test_expert_beats_heuristic():
    """Seat 0 is the expert, then the heuristic, on the same deals against the same three
    heuristic players: the expert takes fewer heads in all (a paired comparison)."""
    seeds = range(100, 116)

    def table(first):
        return lambda seed: (
            [first(seed)] + [BOTS["surprise_heuristic"](seed * 10 + seat) for seat in range(1, 4)]
        )

    expert = totals(table(lambda seed: SurpriseExpertBot(seed, placements=8_000)), seeds)
    heuristic = totals(table(BOTS["surprise_heuristic"]), seeds)
    expert_heads = sum(result[0] for result in expert)
    heuristic_heads = sum(result[0] for result in heuristic)
    assert expert_heads < heuristic_heads, (expert_heads, heuristic_heads)


def test_expert_estimates_best_first_and_decide_plays_the_first():
    """The estimates contract: the selections and too-low rows considered, each with its
    expected heads to the round's end, lowest first; `decide` plays the first; a legal
    `also` is always among them and leaves the others' figures as they were; a prompt
    is the heuristic's, unestimated (0.0)."""
    views = []

    def keep(state, seat, view, decision):
        views.append(view)

    play([SurpriseExpertBot(seat, placements=1_500) for seat in range(4)], 9, keep)
    kinds = Counter(awaited(view) for view in views)
    assert kinds["select"] and kinds["row"] and len(kinds) > 2, kinds
    for view in views[::9] + [view for view in views if awaited(view) == "row"][:3]:
        bot = SurpriseExpertBot(view["seat"], placements=1_500)
        estimates = bot.estimates(view)
        legal = legal_decisions(view)
        assert all(decision in legal for decision, _ in estimates)
        values = [value for _, value in estimates]
        assert values == sorted(values)
        assert bot.decide(view) == estimates[0][0]
        if awaited(view) not in ("select", "row"):
            assert values == [0.0]
            continue
        assert 0 <= values[0] <= 30 * len(view["hand"]) + 30
        considered = [decision for decision, _ in estimates]
        others = [decision for decision in legal if decision not in considered]
        if not others:
            continue
        with_also = bot.estimates(view, others[-1])
        assert others[-1] in [decision for decision, _ in with_also]
        assert [pair for pair in with_also if pair in estimates] == estimates
