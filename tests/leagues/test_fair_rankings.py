"""Rankings fair to occasional players, and monthly sub-rankings (issue 24)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues import selectors, services
from leagues.models import LeagueGame, Placing, Season
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db

# Placement points 6,5,3,1,0 (the default): two players, the winner 6, the other 5.


def ranked(season, **kwargs):
    return [(row.player, row.rank) for row in selectors.season_standings(season=season, **kwargs)]


def test_placement_points_per_game_do_not_reward_playing_more(season, alice, bob, carol):
    Season.objects.filter(pk=season.pk).update(ranking=Season.Ranking.MEAN_PLACEMENT)
    season.refresh_from_db()
    # Alice plays twice and wins both (6 + 6); Bob plays four times against Carol and wins
    # three (6 + 6 + 6 + 5 = 23 points, 5.75 a game).
    for _ in range(2):
        finished_game(season, [alice, carol], [[1, 9]])
    for heads in ([1, 9], [1, 9], [1, 9], [9, 1]):
        finished_game(season, [bob, carol], [heads])
    rows = selectors.season_standings(season=season)
    assert [(row.player, row.points, row.mean_points) for row in rows] == [
        ("Alice", 12, 6.0),
        ("Bob", 23, 5.75),
        ("Carol", 6 * 1 + 5 * 5, 31 / 6),
    ]
    Season.objects.filter(pk=season.pk).update(ranking=Season.Ranking.PLACEMENT)
    season.refresh_from_db()
    assert ranked(season)[0] == ("Carol", 1)  # total points reward playing most


def test_best_results_count_only_each_players_best_games(season, alice, bob, carol):
    Season.objects.filter(pk=season.pk).update(ranking=Season.Ranking.BEST_RESULTS, best_results=2)
    season.refresh_from_db()
    # Alice: 6, 6, then three 3rd places (3 each) = best two 12. Bob: 5, 5, 5, 5, 5 = 10.
    finished_game(season, [alice, bob, carol], [[1, 5, 9]])
    finished_game(season, [alice, bob, carol], [[1, 5, 9]])
    for _ in range(3):
        finished_game(season, [carol, bob, alice], [[1, 5, 9]])
    rows = selectors.season_standings(season=season)
    assert [(row.player, row.best, row.rank) for row in rows] == [
        ("Alice", 12, 1),
        ("Carol", 12, 1),  # 3, 3, then 6, 6, 6: best two 12, level with Alice
        ("Bob", 10, 3),
    ]
    page = selectors.season_standings(season=season, sort="best")
    assert [row.best for row in page] == [12, 12, 10]


def test_the_standings_page_shows_the_column_of_the_fair_method(client, season, alice, bob):
    finished_game(season, [alice, bob], [[1, 9]])
    Season.objects.filter(pk=season.pk).update(ranking=Season.Ranking.BEST_RESULTS, best_results=4)
    html = client.get(reverse("league", args=["club"])).content.decode()
    assert "Best results" in html and "best 4 games" in html
    Season.objects.filter(pk=season.pk).update(ranking=Season.Ranking.MEAN_PLACEMENT)
    html = client.get(reverse("league", args=["club"])).content.decode()
    assert "Points per game" in html and "Best results" not in html


def test_a_month_of_the_season_has_its_own_ranking(client, season, alice, bob):
    old = finished_game(season, [alice, bob], [[1, 9]])  # Alice wins last month
    finished_game(season, [alice, bob], [[9, 1]])  # Bob wins this month
    finished_game(season, [alice, bob], [[8, 2]])
    # A month of the club's time zone (at 23:30 UTC, Paris is in the next day).
    last_month = timezone.localtime(old.finished_at).replace(day=1) - datetime.timedelta(days=1)
    # Played last month, entered now (a back-dated sheet is entered so: leagues/services).
    LeagueGame.objects.filter(game=old).update(finished_at=last_month)
    services.season_recompute(season=season)
    months = selectors.season_months(season)
    assert [m.month for m in months] == [
        last_month.month,
        timezone.localtime(old.finished_at).month,
    ]
    earlier = selectors.season_standings(season=season, month=months[0])
    assert [(row.player, row.games, row.heads, row.rank) for row in earlier] == [
        ("Alice", 1, 1, 1),
        ("Bob", 1, 9, 2),
    ]
    later = selectors.season_standings(season=season, month=months[1])
    assert [(row.player, row.games, row.heads) for row in later] == [
        ("Bob", 2, 3),
        ("Alice", 2, 17),
    ]
    whole = selectors.season_standings(season=season)
    assert [(row.player, row.games) for row in whole] == [("Bob", 3), ("Alice", 3)]
    page = client.get(reverse("league", args=["club"]), {"month": months[0].strftime("%Y-%m")})
    assert [row.player for row in page.context["rows"]] == ["Alice", "Bob"]
    html = page.content.decode()
    assert "Whole season" in html and f"month={months[1].strftime('%Y-%m')}" in html


def test_each_games_rating_change_shows_at_the_table(season, alice, bob):
    from leagues.models import conservative

    first = finished_game(season, [alice, bob], [[1, 9]])
    second = finished_game(season, [alice, bob], [[9, 1]])
    changes = {
        game.table_id: selectors.game_rating_changes(entry=game.league_entry, users=[alice.pk])[
            alice.pk
        ]
        for game in (first, second)
    }
    after_first = conservative(
        *Placing.objects.filter(user=alice)
        .order_by("entry_id")
        .values_list("overall_mu", "overall_sigma")
        .first()
    )
    assert changes[first.table_id] == selectors.signed(after_first - 0.0)
    assert changes[first.table_id].startswith("+")
    assert changes[second.table_id].startswith("−")  # a loss costs rating
    standings = selectors.seat_standings(table=second.table, users=[alice.pk, bob.pk])
    assert standings[alice.pk]["change"] == changes[second.table_id]
    assert standings[bob.pk]["change"].startswith("+")
