"""Paper sheets that count (issue 32, items 1 and 2): a disputed sheet confirmed for all
its players, or agreed by all of them later, enters the season once; and it enters on the
day it was played, not the day it was confirmed."""

import datetime
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Table
from leagues import selectors
from leagues import services as league_services
from leagues.models import Evening, LeagueGame, Placing, ScoreSheet, Standing
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db


def as_user(user) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


def enter(season, user, players, lines, played_on=None):
    return league_services.sheet_enter(
        season=season,
        user=user,
        players=players,
        lines=lines,
        played_on=played_on or timezone.localdate(),
    )


@pytest.fixture
def disputed(season, alice, bob, carol):
    """Bob entered it (so he confirmed it); Carol says it is wrong."""
    sheet = enter(season, bob, [alice, bob, carol], [[3, 10, 0]])
    league_services.sheet_answer(sheet=sheet, user=carol, confirmed=False, reason="I took 4")
    sheet.refresh_from_db()
    assert sheet.status == ScoreSheet.Status.DISPUTED
    return sheet


def counted(sheet) -> int:
    return LeagueGame.objects.filter(game__table=sheet.table).count()


def test_confirm_for_all_counts_a_disputed_sheet_once(season, disputed, alice, bob, carol):
    league_services.sheet_confirm_all(sheet=disputed, user=alice)
    disputed.refresh_from_db()
    assert disputed.status == ScoreSheet.Status.CONFIRMED
    assert counted(disputed) == 1
    heads = dict(Standing.objects.filter(season=season).values_list("user__username", "heads"))
    assert heads == {"alice": 3, "bob": 10, "carol": 0}
    # Again (a second click): nothing more enters.
    league_services.sheet_confirm_all(sheet=disputed, user=alice)
    assert counted(disputed) == 1 and Placing.objects.filter(season=season).count() == 3
    assert Standing.objects.get(season=season, user=bob).games == 1


def test_only_a_league_admin_confirms_for_all(disputed, bob):
    with pytest.raises(league_services.LeagueError) as refused:
        league_services.sheet_confirm_all(sheet=disputed, user=bob)
    assert refused.value.code == "not_allowed"
    disputed.refresh_from_db()
    assert disputed.status == ScoreSheet.Status.DISPUTED and counted(disputed) == 0


def test_a_disputed_sheet_counts_once_every_player_agrees(season, disputed, alice, carol):
    # Alice agrees: Carol still disputes it, so it waits.
    league_services.sheet_answer(sheet=disputed, user=alice, confirmed=True)
    disputed.refresh_from_db()
    assert disputed.status == ScoreSheet.Status.DISPUTED and counted(disputed) == 0
    # Carol thinks again: now every player agrees, and it counts.
    league_services.sheet_answer(sheet=disputed, user=carol, confirmed=True)
    disputed.refresh_from_db()
    assert disputed.status == ScoreSheet.Status.CONFIRMED and counted(disputed) == 1
    with pytest.raises(league_services.LeagueError) as refused:
        league_services.sheet_answer(sheet=disputed, user=carol, confirmed=True)
    assert refused.value.code == "confirmed"
    assert counted(disputed) == 1


def test_the_sheet_page_confirms_a_disputed_sheet_for_all(disputed, alice, bob):
    url = reverse("league_sheet", args=[disputed.pk])
    confirm = reverse("league_sheet_confirm_all", args=[disputed.pk])
    admin = as_user(alice)
    assert "Confirm for all players" in admin.get(url).content.decode()
    # A player who is not an admin is refused.
    as_user(bob).post(confirm)
    assert counted(disputed) == 0
    page = admin.post(confirm, follow=True).content.decode()
    assert "The sheet is confirmed for all its players: it counts." in page
    assert "Confirm for all players" not in page and "This sheet is right" not in page
    disputed.refresh_from_db()
    assert disputed.status == ScoreSheet.Status.CONFIRMED and counted(disputed) == 1
    admin.post(confirm)  # a double click
    assert counted(disputed) == 1


def test_the_admin_action_confirms_a_disputed_sheet_for_all(disputed, alice):
    alice.is_staff = True
    alice.save()
    admin = as_user(alice)
    form = {"action": "confirm_for_all", "_selected_action": [disputed.pk]}
    changelist = reverse("admin:leagues_scoresheet_changelist")
    page = admin.post(changelist, form, follow=True).content.decode()
    assert "1 sheet confirmed." in page
    disputed.refresh_from_db()
    assert disputed.status == ScoreSheet.Status.CONFIRMED and counted(disputed) == 1
    admin.post(changelist, form, follow=True)
    assert counted(disputed) == 1


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_once_count_the_sheet_once(disputed, alice):
    """Two processes (here two threads, each with its own connection) confirm together:
    the sheet's row lock lets one count it; the other finds it confirmed."""
    start = threading.Barrier(2)
    errors = []

    def confirm():
        try:
            start.wait()
            league_services.sheet_confirm_all(sheet=disputed, user=alice)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    disputed.refresh_from_db()
    assert disputed.status == ScoreSheet.Status.CONFIRMED and counted(disputed) == 1
    assert Placing.objects.filter(entry__game__table=disputed.table).count() == 3


# --- the day it was played -------------------------------------------------------------------


def last_month_day() -> datetime.date:
    return timezone.localdate().replace(day=1) - datetime.timedelta(days=3)


def test_a_sheet_counts_on_the_day_it_was_played(season, alice, bob, carol):
    played_on = last_month_day()
    this_month = timezone.localdate().replace(day=1)
    sheet = enter(season, alice, [alice, bob, carol], [[3, 10, 0]], played_on=played_on)
    league_services.sheet_confirm_all(sheet=sheet, user=alice)
    game = Game.objects.get(table=sheet.table)
    # At noon, the club's time, on the day written on the sheet.
    noon = timezone.make_aware(
        datetime.datetime.combine(played_on, datetime.time(12)), timezone.get_default_timezone()
    )
    assert game.finished_at == noon and game.league_entry.finished_at == noon
    assert timezone.localtime(Standing.objects.get(user=bob).last_played).date() == played_on
    months = selectors.season_months(season)
    assert months == [played_on.replace(day=1)]
    last = selectors.season_standings(season=season, month=played_on)
    assert sorted(row.player for row in last) == ["Alice", "Bob", "Carol"]
    assert selectors.season_standings(season=season, month=this_month) == []
    # The league's page: last month's standings hold the game, and last played says its day.
    page = as_user(alice).get(
        reverse("league", args=["club"]),
        {"season": season.pk, "month": played_on.strftime("%Y-%m")},
    )
    assert page.context["month"] == played_on.replace(day=1)
    assert [row.games for row in page.context["rows"]] == [1, 1, 1]
    # A recompute keeps it there.
    league_services.season_recompute(season=season)
    assert selectors.season_months(season) == [played_on.replace(day=1)]


def test_an_older_sheet_leaves_a_later_game_as_last_played(season, alice, bob):
    recent = finished_game(season, [alice, bob], [[3, 10]])
    sheet = enter(season, alice, [alice, bob], [[1, 2]], played_on=last_month_day())
    league_services.sheet_confirm_all(sheet=sheet, user=alice)
    assert Standing.objects.get(user=bob).last_played == recent.finished_at


def test_a_sheet_cannot_be_played_tomorrow(season, alice, bob):
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    with pytest.raises(league_services.LeagueError) as refused:
        enter(season, alice, [alice, bob], [[1, 2]], played_on=tomorrow)
    assert refused.value.code == "played_later"
    assert not ScoreSheet.objects.exists()


def test_a_table_of_an_evening_offers_the_evening_as_its_day(season, alice, bob, carol, dave):
    evening = Evening.objects.create(
        season=season, date=last_month_day(), table_size=4, game_rounds=1
    )
    evening.players.set([alice, bob, carol, dave])
    (table,) = league_services.seating_generate(event=evening, seed=1)
    league_services.table_to_paper(event=evening, slot_id=table.evening_slot.pk)
    page = as_user(alice).get(reverse("league_sheet_new", args=["club"]), {"table": table.pk})
    assert page.context["form"]["played_on"].value() == last_month_day()
    assert Table.objects.get(pk=table.pk).paper
