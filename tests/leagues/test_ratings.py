"""Ratings are right when players tie (issue 19, item 12).

The properties run on `scoring.rate`, the one function that moves ratings, for tables of
2 to 8 members with heads 0-15, so that ties are common; bench/ratings_models.py holds
the same checks against every candidate model. The rating shown is mu - 3 sigma.
"""

import datetime
import importlib
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues import scoring
from leagues.models import Placing, PlayerRating, Season, Standing, conservative
from tests.leagues.conftest import finished_game

MIGRATION = "leagues.migrations.0004_ratings_with_ties"
TOLERANCE = 1e-9
PROPERTY = settings(max_examples=300, deadline=None)

priors = st.tuples(st.floats(10, 40), st.floats(0.5, scoring.START_SIGMA))


@st.composite
def games(draw, *, equal: bool):
    """(ratings before, heads) of a table; everyone rated alike before if `equal`."""
    n = draw(st.integers(2, 8))
    heads = draw(st.lists(st.integers(0, 15), min_size=n, max_size=n))
    if equal:
        return [draw(priors)] * n, heads
    return draw(st.lists(priors, min_size=n, max_size=n)), heads


@st.composite
def two_alike(draw, *, tied: bool):
    """A table with random ratings where players i and j are rated alike before the game;
    they tie if `tied`, otherwise i finishes ahead of j."""
    ratings, heads = draw(games(equal=False))
    i, j = draw(st.permutations(range(len(heads))))[:2]
    ratings[j] = ratings[i]
    if tied:
        heads[j] = heads[i]
    elif heads[i] >= heads[j]:
        heads[i], heads[j] = min(heads[i], heads[j]), max(heads[i], heads[j]) + 1
    return ratings, heads, i, j


def shown(rating) -> float:
    return conservative(*rating)


def at_least(a: float, b: float) -> bool:
    return a >= b - TOLERANCE * max(1.0, abs(b))


@PROPERTY
@given(two_alike(tied=True))
def test_players_who_tie_with_equal_ratings_have_equal_ratings_after(game):
    ratings, heads, i, j = game
    after = scoring.rate(ratings, heads)
    assert after[i][0] == pytest.approx(after[j][0], rel=TOLERANCE)
    assert after[i][1] == pytest.approx(after[j][1], rel=TOLERANCE)


@PROPERTY
@given(games(equal=True))
def test_from_equal_ratings_a_better_place_never_ends_lower(game):
    ratings, heads = game
    after = scoring.rate(ratings, heads)
    for i, ahead in enumerate(heads):
        for j, behind in enumerate(heads):
            if ahead < behind:
                assert at_least(shown(after[i]), shown(after[j]))
                assert at_least(after[i][0], after[j][0])


@PROPERTY
@given(two_alike(tied=False))
def test_of_two_players_rated_alike_the_better_placed_never_ends_lower(game):
    ratings, heads, i, j = game
    after = scoring.rate(ratings, heads)
    assert at_least(shown(after[i]), shown(after[j]))


@PROPERTY
@given(games(equal=True))
def test_a_winner_never_loses_rating_against_equal_opponents(game):
    # Joint winners too, and a game everyone ties (which tells nothing about anyone).
    ratings, heads = game
    after = scoring.rate(ratings, heads)
    for k, h in enumerate(heads):
        if h == min(heads):
            assert at_least(after[k][0], ratings[k][0])
            assert at_least(shown(after[k]), shown(ratings[k]))


@PROPERTY
@given(games(equal=False))
def test_a_sole_winner_never_loses_mu_whatever_the_ratings(game):
    ratings, heads = game
    after = scoring.rate(ratings, heads)
    if heads.count(min(heads)) == 1:
        k = heads.index(min(heads))
        assert at_least(after[k][0], ratings[k][0])


@PROPERTY
@given(games(equal=False), st.randoms(use_true_random=False))
def test_the_order_of_the_seats_changes_no_rating(game, random):
    ratings, heads = game
    order = list(range(len(heads)))
    random.shuffle(order)
    after = scoring.rate(ratings, heads)
    shuffled = scoring.rate([ratings[k] for k in order], [heads[k] for k in order])
    for position, k in enumerate(order):
        assert shuffled[position] == pytest.approx(after[k], rel=TOLERANCE)


def shown_after(heads: list[int]) -> list[float]:
    """Shown ratings of four new members after one game, through `scoring.enter`."""
    tallies = {}
    outcome = scoring.Outcome(totals=tuple(heads), rounds=3, users=(1, 2, 3, 4))
    scoring.enter(outcome, tallies=tallies, points_table=(3, 2, 1), when=datetime.datetime.now())
    return [conservative(tallies[user].mu, tallies[user].sigma) for user in (1, 2, 3, 4)]


def test_joint_winners_are_rated_above_the_third():
    # The game: Plackett-Luce (openskill 6.2.0) gave 1.14, 1.14, 1.42, -2.30.
    first, joint, third, last = shown_after([5, 5, 9, 12])
    assert first == joint > third > last


def test_a_tie_for_second_is_rated_between_a_clean_second_and_a_clean_third():
    _, second, third, _ = shown_after([5, 9, 10, 12])
    _, tied, also_tied, _ = shown_after([5, 9, 9, 12])
    assert tied == also_tied
    assert second > tied > third


# --- the data migration -------------------------------------------------------------------


def stored_ratings():
    return (
        sorted(Standing.objects.values_list("season_id", "user_id", "mu", "sigma")),
        sorted(Placing.objects.values_list("id", "mu", "sigma", "overall_mu", "overall_sigma")),
        sorted(PlayerRating.objects.values_list("user_id", "mu", "sigma", "games")),
    )


@pytest.mark.django_db
def test_the_migration_recomputes_every_stored_rating(season, alice, bob, carol, dave):
    """Ratings left by another model (scrambled here) become what game by game gives."""
    import random

    from django.apps import apps

    cup = Season.objects.create(league=season.league, name="Cup", starts_on=season.starts_on)
    rng = random.Random(19)
    people = [alice, bob, carol, dave, "random"]
    for number in range(30):
        at = rng.sample(people, rng.randint(2, 5))
        if all(isinstance(p, str) for p in at):
            at.append(alice)
        rounds = [[rng.randint(0, 6) for _ in at] for _ in range(rng.randint(1, 3))]
        finished_game(season if number % 3 else cup, at, rounds)
    finished_game(season, [alice, bob, carol, dave], [[5, 5, 9, 12]])
    expected = stored_ratings()

    Standing.objects.update(mu=1.0, sigma=2.0)
    Placing.objects.update(mu=3.0, sigma=4.0, overall_mu=5.0, overall_sigma=6.0)
    PlayerRating.objects.update(mu=7.0, sigma=8.0)
    importlib.import_module(MIGRATION).recompute_ratings(apps, None)

    assert stored_ratings() == expected
    assert not any(math.isnan(value) for row in expected[1] for value in row[1:])
