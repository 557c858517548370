"""The score sheet on a phone (issue 32, item 8): the sheet of a table whose event fixes
the rounds per game starts with that many lines (hands, for Six); `?rounds=` still wins;
its columns are headed by the players' names."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues import services as league_services
from leagues.models import Evening, ScoreSheet, Season

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 12, 5)


def as_user(user) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


def paper_table(season, players, **event):
    """A table of a club evening of `season`, seated with `players`, switched to paper."""
    evening = Evening.objects.create(season=season, date=TODAY, table_size=len(players), **event)
    evening.players.set(players)
    (table,) = league_services.seating_generate(event=evening, seed=1)
    league_services.table_to_paper(event=evening, slot_id=table.evening_slot.pk)
    return table


def sheet_page(client, query: str):
    response = client.get(reverse("league_sheet_new", args=["club"]) + query)
    assert response.status_code == 200
    return response.content.decode()


def grid_lines(page: str) -> int:
    """The round lines of the grid: the rows of the first seat's inputs."""
    lines = [int(line) for line in re.findall(r'id="id_line_(\d+)_0"', page)]
    assert lines == list(range(len(lines)))
    return len(lines)


def test_an_evening_of_two_rounds_a_game_starts_its_sheets_with_two_lines(
    season, alice, bob, carol, dave
):
    table = paper_table(season, [alice, bob, carol, dave], game_rounds=2)
    client = as_user(alice)
    assert grid_lines(sheet_page(client, f"?table={table.pk}")) == 2
    # An explicit number of rounds still wins, more or fewer.
    assert grid_lines(sheet_page(client, f"?table={table.pk}&rounds=3")) == 3
    assert grid_lines(sheet_page(client, f"?table={table.pk}&rounds=1")) == 1
    # A number that is not one gives the table's.
    assert grid_lines(sheet_page(client, f"?table={table.pk}&rounds=two")) == 2


def test_the_sheet_posted_from_the_table_link_has_the_table_rounds(season, alice, bob, carol, dave):
    table = paper_table(season, [alice, bob, carol, dave], game_rounds=2)
    players = [seat.user for seat in table.seats.order_by("position")]
    form = {"season": season.pk, "played_on": TODAY.isoformat()}
    for seat, player in enumerate(players):
        form[f"player_{seat}"] = player.pk
    heads = [[3, 8, 0, 12], [6, 1, 9, 2]]
    for line, values in enumerate(heads):
        for seat, value in enumerate(values):
            form[f"line_{line}_{seat}"] = value
    url = reverse("league_sheet_new", args=["club"]) + f"?table={table.pk}"
    response = as_user(alice).post(url, form)
    assert response.status_code == 302
    assert ScoreSheet.objects.get(table=table).lines == heads


def test_a_sheet_without_a_fixed_number_of_rounds_starts_with_one_line(
    season, alice, bob, carol, dave
):
    table = paper_table(season, [alice, bob, carol, dave])  # to the threshold
    client = as_user(alice)
    assert table.options["end"] == "threshold"
    assert grid_lines(sheet_page(client, f"?table={table.pk}")) == 1
    # A sheet of no table: one line, or as many as asked.
    assert grid_lines(sheet_page(client, "")) == 1
    assert grid_lines(sheet_page(client, "?rounds=4")) == 4


def test_a_six_evening_starts_its_sheets_with_its_hands(club, alice, bob, carol, dave):
    six = Season.objects.create(
        league=club,
        name="Six",
        kind="six",
        starts_on=timezone.localdate() - datetime.timedelta(days=30),
        min_games=1,
    )
    table = paper_table(six, [alice, bob, carol, dave], game_rounds=5)
    assert table.options["end"] == "hands" and table.options["hands"] == 5
    assert grid_lines(sheet_page(as_user(alice), f"?table={table.pk}")) == 5


def test_a_6_qui_surprend_sheet_starts_with_its_two_rounds(club, alice, bob, carol, dave):
    surprise = Season.objects.create(
        league=club,
        name="Surprise",
        kind="surprise",
        starts_on=timezone.localdate() - datetime.timedelta(days=30),
        min_games=1,
    )
    table = paper_table(surprise, [alice, bob, carol, dave])
    assert grid_lines(sheet_page(as_user(alice), f"?table={table.pk}")) == 2  # RULES §2.1


def test_the_evening_date_fills_the_date_input_in_french(season, alice, bob, carol, dave):
    table = paper_table(season, [alice, bob, carol, dave], game_rounds=2)
    client = Client(headers={"accept-language": "fr"})
    client.force_login(alice)
    page = sheet_page(client, f"?table={table.pk}")
    assert 'lang="fr"' in page and "Manche" in page
    assert 'type="date" name="played_on" value="2026-12-05"' in page


def test_the_columns_are_headed_by_the_players_names(season, alice, bob, carol, dave):
    table = paper_table(season, [alice, bob, carol, dave], game_rounds=2)
    client = as_user(alice)
    page = sheet_page(client, f"?table={table.pk}")
    heads = re.findall(r'<th scope="col" class="sheet-head sheet-name"[^>]*>([^<]*)</th>', page)
    seated = [seat.user.shown_name for seat in table.seats.order_by("position")]
    assert heads == seated
    # A free sheet: the seats are numbered until their players are chosen.
    page = sheet_page(client, "?players=3")
    heads = re.findall(r'<th scope="col" class="sheet-head sheet-name"[^>]*>([^<]*)</th>', page)
    assert heads == ["Player 1", "Player 2", "Player 3"]
    # A sheet sent back with an error keeps the names chosen.
    url = reverse("league_sheet_new", args=["club"]) + "?players=2"
    refused = client.post(url, {"player_0": bob.pk, "player_1": "x", "line_0_0": 1})
    assert refused.status_code == 400
    page = refused.content.decode()
    heads = re.findall(r'<th scope="col" class="sheet-head sheet-name"[^>]*>([^<]*)</th>', page)
    assert heads == ["Bob", "Player 2"]
