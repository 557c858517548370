"""Turn-based league games (issue 34): a season setting lets clubs play a round by mail
between evenings; a season that does not allow them refuses a turn-based table."""

import pytest
from django.contrib.admin.sites import site
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Table
from leagues.models import LeagueTable, Season, season_of

pytestmark = pytest.mark.django_db
DAY = 24 * 3600


def test_a_season_does_not_allow_turn_based_games_unless_told(season):
    assert Season._meta.get_field("allow_turn_based").default is False
    assert not season.allow_turn_based


def test_a_turn_based_table_is_refused_by_a_season_that_does_not_allow_it(season, alice):
    with pytest.raises(services.ServiceError) as refused:
        services.table_create(
            user=alice, seats_count=3, options={}, time_limit=2 * DAY, season=season
        )
    assert refused.value.code == "turn_based_not_allowed"
    assert not Table.objects.exists() and not LeagueTable.objects.exists()
    # A live table counts in it as ever.
    table = services.table_create(
        user=alice, seats_count=3, options={}, time_limit=30, season=season
    )
    assert season_of(Table.objects.get(pk=table.pk)) == season


def test_a_season_that_allows_them_counts_turn_based_tables(season, alice):
    season.allow_turn_based = True
    season.save()
    table = services.table_create(
        user=alice, seats_count=3, options={}, time_limit=3 * DAY, season=season
    )
    assert season_of(Table.objects.get(pk=table.pk)) == season


def test_the_lobby_form_says_why_and_creates_nothing(season, alice):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(alice)
    data = {
        "kind": "nimmt",
        "seats_count": "3",
        "end": "threshold",
        "threshold": "66",
        "rounds": "1",
        "deal": "random",
        "time_limit": str(DAY),
        "is_public": "on",
        "season": str(season.pk),
    }
    response = client.post(reverse("lobby"), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "This season does not allow turn-based games" in page
    assert 'id="new-table-errors"' in page
    assert not Table.objects.exists()


def test_the_season_admin_shows_the_setting(season, make_player):
    root = make_player("root", is_staff=True, is_superuser=True)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(root)
    page = client.get(reverse("admin:leagues_season_change", args=[season.pk])).content.decode()
    assert 'name="allow_turn_based"' in page
    assert "turn-based games allowed" in page.lower()
    assert Season in site._registry
