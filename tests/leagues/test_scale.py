"""The standings page reads stored rows: its queries do not grow with games or players.

The full-size figures (10,000 games, 200 players, PostgreSQL) come from bench/standings.py
and are recorded in docs/benchmarks.md; CI generates two small seasons and compares.
"""

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game, RoundScore
from leagues.models import League, Placing, Standing

pytestmark = pytest.mark.django_db

# session, user, league, membership, seasons, admin check, months, standings, tournaments,
# evenings, and the navigation bar's count of the tables waiting for the player
MAX_QUERIES = 11


def render_standings(client, slug):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("league", args=[slug]))
    assert response.status_code == 200
    return response, len(queries)


def test_the_demo_command_generates_a_season_with_its_standings():
    call_command("demo_league", slug="tiny", players=12, games=40, seed=3, stdout=None)
    league = League.objects.get(slug="tiny")
    season = league.seasons.get()
    assert Game.objects.filter(table__league_table__season=season).count() == 40
    assert RoundScore.objects.filter(game__table__league_table__season=season).exists()
    assert Standing.objects.filter(season=season).count() == 12
    assert sum(s.games for s in Standing.objects.filter(season=season)) == Placing.objects.count()
    # Running it again replaces the league rather than adding to it.
    call_command("demo_league", slug="tiny", players=12, games=10, seed=3, stdout=None)
    assert Game.objects.count() == 10


def test_standings_queries_do_not_grow_with_games_or_players(
    client, alice, django_assert_max_num_queries
):
    call_command("demo_league", slug="small", players=10, games=30, seed=1, stdout=None)
    call_command("demo_league", slug="large", players=60, games=600, seed=2, stdout=None)
    client.force_login(alice)
    small, small_queries = render_standings(client, "small")
    large, large_queries = render_standings(client, "large")
    assert len(small.context["rows"]) == 10 and len(large.context["rows"]) == 60
    assert small_queries == large_queries
    with django_assert_max_num_queries(MAX_QUERIES):
        client.get(reverse("league", args=["large"]), {"sort": "rating"})
    with django_assert_max_num_queries(MAX_QUERIES):
        client.get(reverse("league_standings_csv", args=["large"]))
