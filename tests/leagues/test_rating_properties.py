"""Site ratings over random games (issue 34): `ratings.rate_outcome`, the arithmetic that
rates a finished game (the one `_rate` and `recompute` use), with leagues.scoring's model.
Tables of 2 to 8 seats, some of them bots, with totals 0-15 so that ties are common."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from leagues import ratings, scoring

PROPERTY = settings(max_examples=200, deadline=None)
TOLERANCE = 1e-9

priors = st.tuples(st.floats(10, 40), st.floats(0.5, scoring.START_SIGMA))


@st.composite
def tables(draw, *, higher_wins=None):
    """(outcome, prior ratings by user) of a table: users 1..n at some seats, bots at the
    others, each human with a prior rating or none (a first game)."""
    n = draw(st.integers(2, 8))
    humans = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    users = tuple(seat + 1 if human else None for seat, human in enumerate(humans))
    totals = tuple(draw(st.lists(st.integers(0, 15), min_size=n, max_size=n)))
    if higher_wins is None:
        higher_wins = draw(st.booleans())
    outcome = scoring.Outcome(totals=totals, rounds=3, users=users, higher_wins=higher_wins)
    prior = {user: draw(priors) for user in users if user is not None and draw(st.booleans())}
    return outcome, prior


def by_user(lines):
    return {line.user: line for line in lines}


@PROPERTY
@given(tables(), st.data())
def test_players_who_tie_from_equal_ratings_change_alike(table, data):
    outcome, prior = table
    humans = [user for user in outcome.users if user is not None]
    assume(len(humans) >= 2)
    first, second = data.draw(
        st.lists(st.sampled_from(humans), min_size=2, max_size=2, unique=True)
    )
    totals = list(outcome.totals)
    totals[second - 1] = totals[first - 1]
    alike = data.draw(priors)
    prior = {**prior, first: alike, second: alike}
    outcome = scoring.Outcome(tuple(totals), 3, outcome.users, outcome.higher_wins)
    lines = by_user(ratings.rate_outcome(outcome, prior))
    assert lines[first].place == lines[second].place
    assert lines[first].after == pytest.approx(lines[second].after, rel=TOLERANCE)


@PROPERTY
@given(tables(), st.data())
def test_a_bots_total_changes_no_humans_rating_and_bots_are_never_rated(table, data):
    outcome, prior = table
    lines = ratings.rate_outcome(outcome, prior)
    humans = {user for user in outcome.users if user is not None}
    assert {line.user for line in lines} == (humans if len(humans) >= 2 else set())
    bots = [seat for seat, user in enumerate(outcome.users) if user is None]
    if not bots:
        return
    totals = list(outcome.totals)
    for seat in bots:
        totals[seat] = data.draw(st.integers(0, 15))
    other = ratings.rate_outcome(
        scoring.Outcome(tuple(totals), 3, outcome.users, outcome.higher_wins), prior
    )
    assert {line.user: line.after for line in other} == {line.user: line.after for line in lines}


@PROPERTY
@given(tables(), st.randoms(use_true_random=False))
def test_the_order_of_the_seats_changes_nothing_for_any_player(table, random):
    outcome, prior = table
    order = list(range(len(outcome.totals)))
    random.shuffle(order)
    shuffled = scoring.Outcome(
        tuple(outcome.totals[k] for k in order),
        outcome.rounds,
        tuple(outcome.users[k] for k in order),
        outcome.higher_wins,
    )
    lines = by_user(ratings.rate_outcome(outcome, prior))
    moved = by_user(ratings.rate_outcome(shuffled, prior))
    assert set(lines) == set(moved)
    for user, line in lines.items():
        assert (moved[user].place, moved[user].score) == (line.place, line.score)
        assert moved[user].before == line.before
        assert moved[user].after == pytest.approx(line.after, rel=TOLERANCE)
        assert order[moved[user].seat] == line.seat


@PROPERTY
@given(tables())
def test_a_first_game_starts_from_the_models_rating(table):
    outcome, _prior = table
    for line in ratings.rate_outcome(outcome, {}):
        assert line.before == (scoring.START_MU, scoring.START_SIGMA)
