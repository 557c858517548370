"""A month's standings add up as the season's do, counted absences included, and are kept
as the season's are: game by game, and by the recompute (issue 32)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues import selectors, services
from leagues.models import Absence, Evening, LeagueGame, MonthStanding, Placing, Season, Standing
from leagues.services.results import record_absence
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db

FIGURES = ("games", "rounds", "heads", "wins", "points", "rating", "last_played")


def figures(row):
    return {name: getattr(row, name) for name in FIGURES}


def test_a_counted_absence_counts_in_its_month_as_in_the_season(client, season, alice, bob):
    Season.objects.filter(pk=season.pk).update(absence_score=20)
    season.refresh_from_db()
    old = finished_game(season, [alice, bob], [[1, 9]])  # last month
    finished_game(season, [alice, bob], [[9, 1], [2, 3]])  # this month, 2 rounds
    # A month of the club's time zone (at 23:30 UTC, Paris is in the next day).
    last_month = timezone.localtime(old.finished_at).replace(day=1) - datetime.timedelta(days=1)
    LeagueGame.objects.filter(game=old).update(finished_at=last_month)
    Placing.objects.filter(entry__game=old).update(finished_at=last_month)
    Absence.objects.create(season=season, user=bob, round=1)  # this month
    services.season_recompute(season=season)

    whole = {row.player: row for row in selectors.season_standings(season=season)}
    # The season counts Bob's absence: 3 games, 1 + 2 + 1 rounds, 9 + 4 + 20 heads.
    assert (whole["Bob"].games, whole["Bob"].rounds, whole["Bob"].heads) == (3, 4, 33)
    months = selectors.season_months(season)
    assert [m.month for m in months] == [
        last_month.month,
        timezone.localtime(old.finished_at).month,
    ]
    page = client.get(
        reverse("league", args=["club"]),
        {"season": season.pk, "month": months[1].strftime("%Y-%m")},
    )
    month = {row.player: row for row in page.context["rows"]}
    # This month is the season without last month's game: the season's arithmetic over it.
    assert figures(month["Bob"]) == {
        "games": 2,
        "rounds": 3,
        "heads": 24,
        "wins": 1,
        "points": 6,
        "rating": whole["Bob"].rating,
        "last_played": whole["Bob"].last_played,
    }
    assert figures(month["Alice"]) == {
        "games": 1,
        "rounds": 2,
        "heads": 11,
        "wins": 0,
        "points": 5,
        "rating": whole["Alice"].rating,
        "last_played": whole["Alice"].last_played,
    }
    # The trend is the season's latest games that fall in the month.
    assert month["Bob"].trend == whole["Bob"].trend[1:]
    assert [row.player for row in page.context["rows"]] == ["Alice", "Bob"]


def test_a_month_of_absences_only_is_listed_and_ranks_them(season, alice, bob):
    Season.objects.filter(pk=season.pk).update(absence_score=20)
    season.refresh_from_db()
    old = finished_game(season, [alice, bob], [[1, 9]])
    # A month of the club's time zone (at 23:30 UTC, Paris is in the next day).
    last_month = timezone.localtime(old.finished_at).replace(day=1) - datetime.timedelta(days=1)
    LeagueGame.objects.filter(game=old).update(finished_at=last_month)
    Absence.objects.create(season=season, user=bob, round=1)
    services.season_recompute(season=season)
    months = selectors.season_months(season)
    assert len(months) == 2
    rows = selectors.season_standings(season=season, month=months[-1])
    standing = Standing.objects.get(season=season, user=bob)
    assert [(row.player, row.games, row.rounds, row.heads) for row in rows] == [("Bob", 1, 1, 20)]
    assert rows[0].last_played == standing.last_played


def stored_months(season):
    return {
        (row.month, row.user_id): (
            row.games,
            row.rounds,
            row.heads,
            row.wins,
            row.points,
            row.mu,
            row.sigma,
            row.last_played,
            row.trend,
        )
        for row in MonthStanding.objects.filter(season=season)
    }


def test_the_months_kept_game_by_game_are_the_recomputes(season, alice, bob, carol):
    Season.objects.filter(pk=season.pk).update(absence_score=15, placement_points="10,5,2")
    season.refresh_from_db()
    now = timezone.localtime(finished_game(season, [alice, bob], [[1, 9]]).finished_at)
    last_month = now.replace(day=1) - datetime.timedelta(days=3)
    # A sheet of last month entered now, then games of this month, then an absence.
    finished_game(season, [alice, bob, carol], [[4, 2, 7], [0, 3, 1]], finished_at=last_month)
    finished_game(season, [bob, carol], [[6, 2]])
    evening = Evening.objects.create(season=season, date=now.date())
    record_absence(evening, 1, alice, bye=False)
    finished_game(season, [alice, carol], [[3, 3]])
    kept = stored_months(season)
    assert {month for month, _user in kept} == {
        last_month.date().replace(day=1),
        now.date().replace(day=1),
    }
    assert kept[(now.date().replace(day=1), alice.pk)][:5] == (3, 3, 1 + 15 + 3, 2, 10 + 0 + 10)

    services.season_recompute(season=season)
    recomputed = stored_months(season)
    assert recomputed.keys() == kept.keys()
    # The recompute adds the absences after every game (as the season's standings); the
    # totals, the ratings and the last day played agree with those kept game by game.
    for key, row in kept.items():
        assert recomputed[key][:8] == row[:8], key


def test_the_migration_fills_the_months_of_seasons_already_played(season, alice, bob):
    from importlib import import_module

    from django.apps import apps

    Season.objects.filter(pk=season.pk).update(absence_score=15)
    season.refresh_from_db()
    now = timezone.localtime(finished_game(season, [alice, bob], [[1, 9]]).finished_at)
    finished_game(season, [alice, bob], [[4, 2]], finished_at=now - datetime.timedelta(days=40))
    record_absence(Evening.objects.create(season=season, date=now.date()), 1, bob, bye=False)
    services.season_recompute(season=season)
    recomputed = stored_months(season)
    MonthStanding.objects.all().delete()
    import_module("leagues.migrations.0015_month_standings").fill(apps, None)
    assert stored_months(season) == recomputed
