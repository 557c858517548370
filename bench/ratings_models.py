"""Which rating model is right when players tie (issue 19, item 12)?

    .venv/bin/python bench/ratings_models.py [--examples 400]
    PYTHONPATH=/path/to/trueskill .venv/bin/python bench/ratings_models.py   # TrueSkill too

Each candidate turns the (mu, sigma) of the players at a table and their heads (fewer is
better, equal heads share the place) into their (mu, sigma) after the game. The shown
rating is mu - 3 sigma, as on the standings. Hypothesis looks for a game against each
property (2-8 players, heads 0-15 so that ties are common):

  tie        players who tie with equal ratings before have equal ratings after
             (the others' ratings random);
  order      better place, equal ratings before: never a lower shown rating (or mu) after
             (everyone equal before);
  order2     the same for any two players who share a rating before, the others random;
  win        a winner, joint or not, never loses mu or shown rating against equal opponents;
  win2       a sole winner never loses mu, whatever the ratings;
  seats      the order of the seats changes nothing (each player's result is the same);
  [5,5,9,12] joint winners' shown rating above the third's, all equal before;
  tie-2nd    heads [5,9,9,12]: the tied seconds' shown rating strictly between a clean
             second's and a clean third's of [5,9,10,12].

TrueSkill is checked when the `trueskill` package can be imported (it is not a
dependency of the site).
"""

import argparse
import math
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

START = (25.0, 25.0 / 3)
TOLERANCE = 1e-9


def shown(rating):
    return rating[0] - 3 * rating[1]


def places(heads):
    return [1 + sum(other < h for other in heads) for h in heads]


def openskill_candidate(model_class, how, **options):
    model = model_class(**options)

    def rate(ratings, heads):
        teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
        if how == "ranks=heads":
            rated = model.rate(teams, ranks=list(heads))
        elif how == "ranks=places":
            rated = model.rate(teams, ranks=places(heads))
        else:  # scores: higher is better
            rated = model.rate(teams, scores=[-h for h in heads])
        return [(team[0].mu, team[0].sigma) for team in rated]

    return rate


def trueskill_candidate(draw_probability):
    import trueskill

    env = trueskill.TrueSkill(draw_probability=draw_probability)

    def rate(ratings, heads):
        groups = [(env.create_rating(mu=mu, sigma=sigma),) for mu, sigma in ratings]
        rated = env.rate(groups, ranks=list(heads))
        return [(group[0].mu, group[0].sigma) for group in rated]

    return rate


def candidates():
    found = {
        "PlackettLuce ranks=heads (6.2.0, as shipped)": openskill_candidate(
            PlackettLuce, "ranks=heads"
        )
    }
    found["PlackettLuce ranks=places"] = openskill_candidate(PlackettLuce, "ranks=places")
    found["PlackettLuce scores=-heads"] = openskill_candidate(PlackettLuce, "scores")
    for model in (
        BradleyTerryFull,
        BradleyTerryPart,
        ThurstoneMostellerFull,
        ThurstoneMostellerPart,
    ):
        found[f"{model.__name__} ranks=heads"] = openskill_candidate(model, "ranks=heads")
        found[f"{model.__name__} scores=-heads"] = openskill_candidate(model, "scores")
    # limit_sigma: a game never makes a player's sigma larger (tau would, in a game that
    # tells next to nothing, such as everyone tying).
    for model in (BradleyTerryFull, ThurstoneMostellerFull):
        found[f"{model.__name__} ranks=heads limit_sigma"] = openskill_candidate(
            model, "ranks=heads", limit_sigma=True
        )
    try:
        import trueskill  # noqa: F401
    except ImportError:
        print("(trueskill not importable: TrueSkill left out)")
    else:
        for p in (0.1, 0.3):
            found[f"TrueSkill draw_probability={p}"] = trueskill_candidate(p)
    return found


def close(a, b):
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def at_least(a, b):
    return a >= b - TOLERANCE * max(1.0, abs(b))


# --- strategies -----------------------------------------------------------------------------

ratings_st = st.tuples(st.floats(10, 40, allow_nan=False), st.floats(0.5, 25 / 3, allow_nan=False))


@st.composite
def games(draw, equal=False):
    n = draw(st.integers(2, 8))
    heads = draw(st.lists(st.integers(0, 15), min_size=n, max_size=n))
    if equal:
        ratings = [draw(ratings_st)] * n
    else:
        ratings = draw(st.lists(ratings_st, min_size=n, max_size=n))
    return ratings, heads


@st.composite
def pairs(draw, tie):
    """A game with two players i, j sharing a rating before; tied if `tie`, i ahead otherwise."""
    ratings, heads = draw(games())
    n = len(heads)
    i = draw(st.integers(0, n - 1))
    j = draw(st.integers(0, n - 1).filter(lambda k: k != i))
    ratings[j] = ratings[i]
    if tie:
        heads[j] = heads[i]
    elif heads[i] >= heads[j]:
        heads[i] = heads[j] - 1
    return ratings, heads, i, j


# --- properties -----------------------------------------------------------------------------


def prop_tie(rate):
    @given(pairs(tie=True))
    def check(game):
        ratings, heads, i, j = game
        after = rate(ratings, heads)
        assert close(after[i][0], after[j][0]) and close(after[i][1], after[j][1]), after

    return check


def prop_order(rate):
    @given(games(equal=True))
    def check(game):
        ratings, heads = game
        after = rate(ratings, heads)
        for i, hi in enumerate(heads):
            for j, hj in enumerate(heads):
                if hi < hj:
                    assert at_least(shown(after[i]), shown(after[j])), after
                    assert at_least(after[i][0], after[j][0]), after

    return check


def prop_order2(rate):
    @given(pairs(tie=False))
    def check(game):
        ratings, heads, i, j = game
        after = rate(ratings, heads)
        assert at_least(shown(after[i]), shown(after[j])), after

    return check


def prop_win(rate):
    @given(games(equal=True))
    def check(game):
        ratings, heads = game
        after = rate(ratings, heads)
        for k, h in enumerate(heads):
            if h == min(heads):
                assert at_least(after[k][0], ratings[k][0]), after
                assert at_least(shown(after[k]), shown(ratings[k])), after

    return check


def prop_win2(rate):
    @given(games())
    def check(game):
        ratings, heads = game
        after = rate(ratings, heads)
        best = min(heads)
        if heads.count(best) == 1:
            k = heads.index(best)
            assert at_least(after[k][0], ratings[k][0]), after

    return check


def prop_seats(rate):
    @given(games(), st.randoms(use_true_random=False))
    def check(game, random):
        ratings, heads = game
        order = list(range(len(heads)))
        random.shuffle(order)
        after = rate(ratings, heads)
        shuffled = rate([ratings[k] for k in order], [heads[k] for k in order])
        for position, k in enumerate(order):
            assert close(shuffled[position][0], after[k][0]), (order, after, shuffled)

    return check


def concrete(rate):
    four = [START] * 4
    joint = rate(four, [5, 5, 9, 12])
    tied = rate(four, [5, 9, 9, 12])
    clean = rate(four, [5, 9, 10, 12])
    winners = shown(joint[0]) > shown(joint[2])
    between = shown(clean[1]) > shown(tied[1]) > shown(clean[2])
    return {
        "[5,5,9,12]": (winners, f"{shown(joint[0]):.2f} vs {shown(joint[2]):.2f}"),
        "tie-2nd": (
            between,
            f"{shown(clean[1]):.2f} > {shown(tied[1]):.2f} > {shown(clean[2]):.2f}",
        ),
    }


PROPERTIES = {
    "tie": prop_tie,
    "order": prop_order,
    "order2": prop_order2,
    "win": prop_win,
    "win2": prop_win2,
    "seats": prop_seats,
}


def run(check, examples):
    configured = settings(
        max_examples=examples,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )(check)
    try:
        configured()
    except Exception as failure:  # noqa: BLE001 - any failure is the finding
        return False, f"{type(failure).__name__}: {str(failure).splitlines()[0][:160]}"
    return True, ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=400)
    parser.add_argument("--only", default="", help="candidates whose name contains this")
    args = parser.parse_args()
    for name, rate in candidates().items():
        if args.only not in name:
            continue
        print(name)
        for prop, make in PROPERTIES.items():
            ok, why = run(make(rate), args.examples)
            print(f"  {'ok  ' if ok else 'FAIL'} {prop:<10} {why}")
        for prop, (ok, figures) in concrete(rate).items():
            print(f"  {'ok  ' if ok else 'FAIL'} {prop:<10} {figures}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
