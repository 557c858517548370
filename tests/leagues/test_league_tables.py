"""A table's season belongs to leagues (issue 30): leagues.LeagueTable links a table to the
season it counts in, made when a table is opened for a season, and the migration that
moved the link out of games.Table kept every one."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from games import services
from games.models import Table
from leagues.models import League, LeagueTable, Season, season_of

pytestmark = pytest.mark.django_db

BEFORE = [("games", "0011_longer_bot_names"), ("leagues", "0011_tournament_formats")]
AFTER = [("games", "0012_remove_table_season")]


def test_a_table_opened_for_a_season_counts_in_it(season, alice):
    table = services.table_create(user=alice, seats_count=3, options={}, season=season.pk)
    assert Table.objects.get(league_table__season=season) == table
    assert season_of(Table.objects.get(pk=table.pk)) == season


def test_a_friendly_table_counts_in_nothing(season, alice):
    table = services.table_create(user=alice, seats_count=3, options={})
    assert season_of(Table.objects.get(pk=table.pk)) is None
    assert not LeagueTable.objects.exists()


def test_a_season_not_offered_to_the_creator_makes_no_table(season, alice, make_player):
    eve = make_player("eve")
    with pytest.raises(services.ServiceError) as refused:
        services.table_create(user=eve, seats_count=3, options={}, season=season)
    assert refused.value.code == "not_offered"
    six = Season.objects.create(
        league=season.league, name="Six", kind="six", starts_on=season.starts_on
    )
    with pytest.raises(services.ServiceError) as refused:
        services.table_create(user=alice, seats_count=3, options={}, season=six)
    assert refused.value.code == "not_offered"
    Season.objects.filter(pk=season.pk).update(closed=True)
    with pytest.raises(services.ServiceError) as refused:
        services.table_create(user=alice, seats_count=3, options={}, season=season)
    assert refused.value.code == "season_closed"
    assert not Table.objects.exists() and not LeagueTable.objects.exists()


def test_the_paper_page_names_the_season(client, season, alice, bob):
    from leagues import services as league_services

    sheet = league_services.sheet_enter(
        season=season,
        user=alice,
        players=[alice, bob],
        lines=[[3, 9]],
        played_on=datetime.date.today(),
    )
    client.force_login(bob)
    page = client.get(reverse("table", args=[sheet.table.pk])).content.decode()
    assert "Club — 2026" in page


def test_the_admin_moves_a_table_not_finished_to_another_season_or_out(
    client, season, alice, bob, make_player
):
    table = services.table_create(user=alice, seats_count=3, options={}, season=season)
    other = Season.objects.create(league=season.league, name="Other", starts_on=season.starts_on)
    client.force_login(make_player("root", is_staff=True, is_superuser=True))
    url = reverse("admin:games_table_change", args=[table.pk])
    seat = table.seats.get()
    form = {
        "name": "Moved",
        "is_public": "on",
        "seats-TOTAL_FORMS": "1",
        "seats-INITIAL_FORMS": "1",
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "1000",
        "seats-0-id": seat.pk,
        "seats-0-table": table.pk,
    }
    assert client.post(url, {**form, "season": other.pk}).status_code == 302
    assert Table.objects.get(pk=table.pk).league_table.season == other
    assert client.post(url, {**form, "season": ""}).status_code == 302
    assert season_of(Table.objects.get(pk=table.pk)) is None


def test_a_league_admin_picks_only_their_leagues_seasons(client, season, alice):
    rivals = League.objects.create(name="Rivals", slug="rivals")
    Season.objects.create(league=rivals, name="Rivals 2026", starts_on=season.starts_on)
    table = services.table_create(user=alice, seats_count=3, options={}, season=season)
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    page = client.get(reverse("admin:games_table_change", args=[table.pk])).content.decode()
    assert 'name="season"' in page and "Rivals" not in page


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_tables_season(django_user_model):
    """Migrated back to when games.Table held its season, a league table and a friendly
    one; forward, the league table's link is a LeagueTable, and back again, Table.season."""
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        old = executor.loader.project_state(BEFORE).apps
        # The players' table is not migrated back: today's model writes its row.
        user = django_user_model.objects.create_user(username="ann")
        league = old.get_model("leagues", "League").objects.create(name="Club", slug="club")
        season = old.get_model("leagues", "Season").objects.create(
            league=league, name="2026", starts_on=datetime.date(2026, 1, 1)
        )
        tables = old.get_model("games", "Table").objects
        league_table = tables.create(created_by_id=user.pk, seats_count=4, season=season)
        friendly = tables.create(created_by_id=user.pk, seats_count=4)

        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        links = new.get_model("leagues", "LeagueTable").objects.values_list("table_id", "season_id")
        assert list(links) == [(league_table.pk, season.pk)]

        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        seasons = dict(tables.values_list("pk", "season_id"))
        assert seasons == {league_table.pk: season.pk, friendly.pk: None}
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
