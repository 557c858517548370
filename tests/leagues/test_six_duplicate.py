"""A duplicate round of Six plays a fixed number of hands at every table (issue 32, item 6;
RULES §5): the tables of one deal are compared over the same hands, not each over the
hands it took to reach 30 points."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import engine, services
from games.models import Game
from leagues import services as league_services
from leagues.models import Evening, Membership, Season, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def six_season(club):
    return Season.objects.create(
        league=club,
        name="Six 2026",
        kind="six",
        starts_on=timezone.localdate() - datetime.timedelta(days=30),
        min_games=1,
    )


@pytest.fixture
def eight(club, make_player):
    users = [m.user for m in club.memberships.select_related("user").order_by("user_id")]
    for number in range(len(users), 8):
        user = make_player(f"player{number:02d}", display_name=f"Player {number:02d}")
        Membership.objects.create(league=club, user=user, status=Membership.Status.ACTIVE)
        users.append(user)
    return users


def play_out(table) -> Game:
    """Start a seated table and play it to its end: each player plays what the time-out
    would."""
    services.table_start(table_id=table.pk, user=None)  # as the night panel
    six = engine.get("six")
    for _ in range(5000):
        game = Game.objects.get(table=table)
        state = six.load(game.state)
        if six.is_over(state):
            return game
        seat = six.to_act(state)[0]
        user = table.seats.get(position=seat).user
        services.game_decide(table_id=table.pk, user=user, decision=six.fallback(state, seat))
    raise AssertionError("the game did not end")


def deals(game) -> list:
    return [deal for deal, _turns in engine.get("six").load(game.state).history]


@pytest.mark.parametrize(("game_rounds", "hands"), [(None, 4), (6, 8)])
def test_both_tables_of_a_duplicate_six_round_play_the_same_hands(
    six_season, eight, game_rounds, hands
):
    cup = Tournament.objects.create(
        season=six_season,
        name="Cup",
        date=timezone.localdate(),
        duplicate=True,
        table_size=4,
        game_rounds=game_rounds,
    )
    cup.players.set(eight)
    one, two = league_services.seating_generate(event=cup, seed=3)
    assert one.deal_seed == two.deal_seed
    # RULES §5: as many hands as players, or the tournament's rounds per game rounded up to
    # a multiple of the players (6 -> 8), so that every seat opens as often.
    assert (
        one.options
        == two.options
        == {"deck": 40, "end": "hands", "hands": hands, "balanced": False}
    )
    player = Client(HTTP_ACCEPT_LANGUAGE="en")
    player.force_login(one.seats.get(position=0).user)
    page = player.get(reverse("table", args=[one.pk])).content.decode()
    assert f"{hands} hands" in page and "to 30 points" not in page
    first, second = play_out(one), play_out(two)
    assert len(first.result["rounds"]) == len(second.result["rounds"]) == hands
    assert deals(first) == deals(second)


def test_a_six_evening_plays_its_rounds_per_game_as_hands(six_season, club):
    players = [m.user for m in club.memberships.order_by("user_id")]
    evening = Evening.objects.create(
        season=six_season, date=timezone.localdate(), table_size=4, game_rounds=5
    )
    evening.players.set(players)
    (table,) = league_services.seating_generate(event=evening, seed=1)
    # Not a duplicate round: the evening's number as it is.
    assert table.options == {"deck": 40, "end": "hands", "hands": 5, "balanced": False}
