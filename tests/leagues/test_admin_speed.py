"""The admin's pages read a bounded number of queries on a league of 60 members and 300 games.

Not timed (bench/admin_pages.py prints the times on the 10,000-game demo league): the
number of queries and the size of a page are what grows with a league when a page draws
a row, or a list of every player, per member.
"""

import datetime
import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.models import Game, Table
from leagues.models import Evening, League, LeagueGame, Membership, PlayerRating, Standing

pytestmark = pytest.mark.django_db

MAX_QUERIES = 20


@pytest.fixture
def big_club(alice, bob, make_player):
    """The demo command's league, 60 members and 300 games; Alice runs it; three players
    wait to join; an evening with 20 present players."""
    call_command("demo_league", slug="big", players=60, games=300, stdout=io.StringIO())
    league = League.objects.get(slug="big")
    league.admins.add(alice)
    for number in range(3):
        Membership.objects.create(league=league, user=make_player(f"waiting{number}"))
    season = league.seasons.get()
    evening = Evening.objects.create(season=season, date=datetime.date.today(), place="Hall")
    evening.players.set(
        [m.user for m in league.memberships.filter(user__username__startswith="demo")[:20]]
    )
    return league


@pytest.fixture
def root(client, make_player):
    client.force_login(make_player("root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def boss(client, alice):
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    return client


def admin_pages(league):
    season = league.seasons.get()
    table = Table.objects.filter(league_table__season=season).order_by("pk").first()
    game = Game.objects.get(table=table)
    membership = league.memberships.order_by("pk").first()

    def url(name, *args, query=""):
        return reverse(f"admin:{name}", args=args) + query

    by_season = f"?season__id__exact={season.pk}"
    return [
        url("index"),
        url("leagues_league_changelist"),
        url("leagues_league_change", league.pk),
        url("leagues_season_changelist"),
        url("leagues_season_change", season.pk),
        url("leagues_membership_changelist"),
        url("leagues_membership_changelist", query=f"?league__id__exact={league.pk}"),
        url("leagues_membership_changelist", query="?q=demo01"),
        url("leagues_membership_change", membership.pk),
        url("leagues_evening_changelist"),
        url("leagues_evening_change", league.seasons.get().evenings.get().pk),
        url("leagues_evening_add"),
        url("games_table_changelist"),
        url("games_table_changelist", query="?q=demo012"),
        url("games_table_changelist", query=f"?league_table__season__id__exact={season.pk}"),
        url("games_table_change", table.pk),
        url("games_game_changelist"),
        url("games_game_changelist", query="?q=demo012"),
        url(
            "games_game_changelist",
            query=f"?table__league_table__season__id__exact={season.pk}",
        ),
        url("games_game_change", game.pk),
        url("leagues_leaguegame_changelist"),
        url("leagues_leaguegame_changelist", query="?q=demo012"),
        url("leagues_leaguegame_change", LeagueGame.objects.get(game=game).pk),
        url("leagues_standing_changelist", query=by_season),
        url("leagues_standing_change", Standing.objects.filter(season=season).first().pk),
    ]


def site_admin_pages():
    return [
        reverse("admin:leagues_playerrating_changelist"),
        reverse("admin:leagues_playerrating_change", args=[PlayerRating.objects.first().pk]),
        reverse("admin:accounts_user_changelist"),
        reverse("admin:accounts_user_changelist") + "?q=demo01",
    ]


def test_every_admin_page_reads_few_queries_for_a_site_admin(
    root, big_club, django_assert_max_num_queries
):
    for url in admin_pages(big_club) + site_admin_pages():
        with django_assert_max_num_queries(MAX_QUERIES):
            response = root.get(url)
        assert response.status_code == 200, url


def test_every_admin_page_reads_few_queries_for_a_league_admin(
    boss, big_club, django_assert_max_num_queries
):
    for url in admin_pages(big_club):
        with django_assert_max_num_queries(MAX_QUERIES):
            response = boss.get(url)
        assert response.status_code == 200, url


def test_the_league_page_lists_no_member_and_no_player_to_choose(root, big_club):
    page = root.get(reverse("admin:leagues_league_change", args=[big_club.pk])).content.decode()
    assert "demo001" not in page and "Demo 001" not in page
    # The admins' box is an autocomplete: it holds the admins only.
    assert page.count("<option") == 1 and "Alice</option>" in page
    # The members are a link away, counted.
    members = reverse("admin:leagues_membership_changelist")
    assert f"{members}?league__id__exact={big_club.pk}" in page
    assert "61 members" in page  # 60 demo players and Alice
    assert "3 waiting to join" in page
    assert len(page) < 40_000


def test_the_membership_list_draws_no_list_of_players(root, big_club):
    page = root.get(reverse("admin:leagues_membership_changelist")).content.decode()
    assert page.count('name="_selected_action"') == 64  # 61 members and 3 waiting
    assert "<option" not in page.split('id="result_list"')[1]
