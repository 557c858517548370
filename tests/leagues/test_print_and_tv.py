"""Paper and screen of a club night: the round sheets, the results, the club room's TV."""

import datetime
import re

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import engine
from games import services as game_services
from games.models import Game
from leagues import services
from leagues.models import Evening, EveningTable, League, Membership, Season, Tournament
from tests.games import ws
from tests.leagues.conftest import finished_game

nimmt = engine.get("nimmt")


def evening_of(season, players, **fields):
    evening = Evening.objects.create(season=season, date=timezone.localdate(), **fields)
    evening.players.set(players)
    return evening


def sheet_url(evening, number=1):
    return f"/leagues/{evening.season.league.slug}/evenings/{evening.pk}/rounds/{number}/sheet/"


def results_url(event, word="evenings"):
    return f"/leagues/{event.season.league.slug}/{word}/{event.pk}/results/"


def tv_url(event, word="evenings"):
    return f"/leagues/{event.season.league.slug}/{word}/{event.pk}/tv/"


def seat_names(table) -> list[str]:
    return [seat.name for seat in table.seats.select_related("user").order_by("position")]


# --- the round sheet ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_round_sheet_lists_each_table_in_seat_order_with_an_empty_grid(
    client, season, alice, bob, carol, dave
):
    evening = evening_of(season, [alice, bob, carol, dave], table_size=2, game_rounds=3)
    tables = services.seating_generate(event=evening, seed=4)
    assert len(tables) == 2

    page = client.get(sheet_url(evening)).content.decode()

    sheets = page.split('class="card round-sheet"')[1:]
    assert len(sheets) == 2
    for sheet, table in zip(sheets, tables, strict=True):
        names = seat_names(table)
        order = re.search(r'<ol class="seat-order">(.*?)</ol>', sheet, re.S).group(1)
        assert re.findall(r"<li>(.*?)</li>", order) == names
        # A line per round of the game (3), a total line, and a blank cell per player.
        assert sheet.count('<th scope="row">') == 3 + 1
        assert sheet.count("<td></td>") == (3 + 1) * len(names)


@pytest.mark.django_db
def test_the_evening_page_links_each_rounds_sheet_its_results_and_its_tv(
    client, season, alice, bob, carol, dave
):
    evening = evening_of(season, [alice, bob, carol, dave], table_size=2)
    services.seating_generate(event=evening, seed=1)

    page = client.get(evening.get_absolute_url()).content.decode()

    assert sheet_url(evening) in page
    assert results_url(evening) in page
    assert tv_url(evening) in page


@pytest.mark.django_db
def test_a_round_not_seated_has_no_sheet(client, season, alice, bob):
    evening = evening_of(season, [alice, bob])
    assert client.get(sheet_url(evening)).status_code == 404


@pytest.mark.django_db
def test_a_tournament_round_has_its_sheet(client, season, alice, bob, carol, dave):
    tournament = Tournament.objects.create(
        season=season, name="Cup", date=datetime.date.today(), table_size=4, game_rounds=1
    )
    tournament.players.set([alice, bob, carol, dave])
    [table] = services.seating_generate(event=tournament, seed=2)

    url = f"/leagues/club/tournaments/{tournament.pk}/rounds/1/sheet/"
    page = client.get(url).content.decode()

    assert all(name in page for name in seat_names(table))
    assert url in client.get(tournament.get_absolute_url()).content.decode()


# --- who sees what ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_members_only_leagues_paper_and_screen_are_for_its_members(
    client, season, alice, bob, carol, dave, make_player
):
    League.objects.filter(pk=season.league_id).update(is_public=False)
    evening = evening_of(season, [alice, bob, carol, dave], table_size=2)
    services.seating_generate(event=evening, seed=1)
    pages = [sheet_url(evening), results_url(evening), tv_url(evening)]

    # A visitor: the sheet and results are not found, the TV asks to log in first.
    assert [client.get(url).status_code for url in pages] == [404, 404, 302]
    stranger = make_player("eve")
    client.force_login(stranger)
    assert [client.get(url).status_code for url in pages] == [404, 404, 404]
    Membership.objects.create(league=season.league, user=stranger, status="pending")
    assert [client.get(url).status_code for url in pages] == [404, 404, 404]
    client.force_login(bob)
    assert [client.get(url).status_code for url in pages] == [200, 200, 200]


@pytest.mark.django_db
def test_a_public_leagues_sheet_and_results_are_for_everyone(client, season, alice, bob):
    evening = evening_of(season, [alice, bob], table_size=2)
    services.seating_generate(event=evening, seed=1)

    assert client.get(sheet_url(evening)).status_code == 200
    assert client.get(results_url(evening)).status_code == 200


@pytest.mark.django_db
def test_an_event_of_another_league_is_not_found(client, season, alice, bob):
    evening = evening_of(season, [alice, bob], table_size=2)
    services.seating_generate(event=evening, seed=1)
    League.objects.create(name="Other", slug="other")

    assert client.get(sheet_url(evening).replace("/club/", "/other/")).status_code == 404
    assert client.get(results_url(evening).replace("/club/", "/other/")).status_code == 404


# --- the results --------------------------------------------------------------------------


def seat(evening, game, round_number, number):
    EveningTable.objects.create(
        evening=evening, round=round_number, number=number, table=game.table
    )


@pytest.mark.django_db
def test_the_results_show_each_tables_ranking_and_the_fewest_heads_per_round(
    client, season, alice, bob, carol, dave
):
    evening = evening_of(season, [alice, bob, carol, dave])
    # Alice and Bob share the first place (5 heads each in 2 rounds); Carol is third.
    seat(evening, finished_game(season, [alice, bob, carol], [[3, 5, 10], [2, 0, 7]]), 1, 1)
    # Dave: 3 heads in 2 rounds, 1.5 a round: the evening's best, ahead of the bot's 2.
    seat(evening, finished_game(season, [dave, "heuristic"], [[1, 4], [2, 0]]), 1, 2)

    page = client.get(results_url(evening)).content.decode()

    table_1 = page.split('data-table="1"')[1].split('data-table="2"')[0]
    lines = re.findall(r'<td class="num">(\d+)</td><td>(\w+)', table_1)
    assert lines == [("1", "Alice"), ("1", "Bob"), ("3", "Carol")]
    best = re.search(r'<ul class="best-score">(.*?)</ul>', page, re.S).group(1)
    assert "Dave" in best and "1.50" in best
    assert "Alice" not in best


@pytest.mark.django_db
def test_a_six_evenings_best_score_is_the_most_points_per_hand(client, club, alice, bob, carol):
    six = Season.objects.create(
        league=club, name="Six", kind="six", starts_on=timezone.localdate(), min_games=1
    )
    evening = evening_of(six, [alice, bob, carol])
    # Cards left per hand: whoever has none scores 5 plus the others' cards (RULES §3.3).
    seat(evening, finished_game(six, [alice, bob], [[0, 3], [2, 0]]), 1, 1)  # 8-2, -3+7
    seat(evening, finished_game(six, [carol, "six_expert"], [[0, 4]]), 1, 2)  # Carol: 9

    page = client.get(results_url(evening)).content.decode()

    best = re.search(r'<ul class="best-score">(.*?)</ul>', page, re.S).group(1)
    assert "Carol" in best and "9.00" in best
    assert "Points per hand" in page


@pytest.mark.django_db
def test_unfinished_tables_have_no_ranking_yet(client, season, alice, bob):
    evening = evening_of(season, [alice, bob], table_size=2)
    services.seating_generate(event=evening, seed=1)

    page = client.get(results_url(evening)).content.decode()

    assert "Not finished yet." in page
    assert "No game finished yet." in page


# --- the TV page ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_tv_shows_the_standings_the_rounds_tables_and_the_chosen_game(
    client, season, alice, bob, carol, dave
):
    finished_game(season, [alice, bob, carol, dave], [[4, 0, 9, 12]])
    evening = evening_of(season, [alice, bob, carol, dave], table_size=2, tv_table=2)
    tables = services.seating_generate(event=evening, seed=1)
    game_services.table_start(table_id=tables[1].pk, user=alice)
    client.force_login(carol)

    page = client.get(tv_url(evening)).content.decode()

    standings = page.split('id="tv-standings"')[1].split("</section>")[0]
    assert re.findall(r"<td>(\w+)</td>", standings) == ["Bob", "Alice", "Carol", "Dave"]
    shown_tables = page.split('id="tv-tables"')[1].split("</section>")[0]
    assert all(name in shown_tables for table in tables for name in seat_names(table))
    game = page.split('id="tv-game"')[1]
    # The second table's game, as a spectator sees it: its rows, nobody's hand.
    assert 'id="live"' in game and 'data-me=""' in game
    assert 'id="rows"' in game and 'id="hand"' not in game
    assert 'ws-connect="/ws/leagues/club/evenings/' in page


@pytest.mark.django_db
def test_a_tv_without_a_chosen_table_leaves_the_game_out(client, season, alice, bob):
    evening = evening_of(season, [alice, bob], table_size=2)
    [table] = services.seating_generate(event=evening, seed=1)
    game_services.table_start(table_id=table.pk, user=alice)
    client.force_login(alice)

    page = client.get(tv_url(evening)).content.decode()

    assert 'id="tv-game" class="tv-panel" aria-labelledby="tv-game-title" data-empty' in page
    assert 'id="live"' not in page


# --- the TV's socket ------------------------------------------------------------------------


def cards_named(frame: str) -> set[int]:
    """Every card number the chosen table's game in a frame draws (a card's title or data
    attribute, or its face). The other sections draw no card: each table has its own deck,
    so a number there could be any table's."""
    game = frame.partition('id="tv-game"')[2]
    found = re.findall(r'(?:title|data-card)="(\d+)"|<b>(\d+)</b>', game)
    others = frame.partition('id="tv-game"')[0]
    assert not re.search(r'(?:title|data-card)="\d+"|span class="card', others)
    return {int(a or b) for a, b in found}


@sync_to_async
def hidden_cards(table) -> set[int]:
    """The cards in the players' hands now, and their unrevealed choices: cards leave a
    hand and never come back, so none of them may have been in any frame sent before."""
    state = nimmt.load(Game.objects.get(table=table).state)
    hidden = set()
    for position in range(table.seats_count):
        view = nimmt.view(state, position)
        hidden.update(view["hand"] or [])
        if view["my_selection"] is not None:
            hidden.add(view["my_selection"])
    return hidden


@sync_to_async
def night(season, players, **fields):
    evening = evening_of(season, players, table_size=2, game_rounds=1, **fields)
    tables = services.seating_generate(event=evening, seed=3)
    for table in tables:
        game_services.table_start(table_id=table.pk, user=None)  # as the night panel
    return evening, tables


@sync_to_async
def decide(table, position):
    game = Game.objects.get(table=table)
    state = nimmt.load(game.state)
    user = table.seats.get(position=position).user
    decision = nimmt.legal(state, position)[0]
    game_services.game_decide(table_id=table.pk, user=user, decision=decision)


def tv_path(evening):
    return f"/ws/leagues/club/evenings/{evening.pk}/tv/"


@pytest.mark.django_db(transaction=True)
async def test_the_tv_socket_pushes_each_change_of_a_tables_game_and_no_hidden_card(
    season, alice, bob, carol, dave
):
    evening, tables = await night(season, [alice, bob, carol, dave], tv_table=1)
    # Alice plays at table 1: the TV, on her account, still shows no hand.
    tv = await ws.connect(tv_path(evening), alice)
    frames = [await ws.receive(tv)]
    assert 'id="tv-tables"' in frames[0] and 'id="tv-game"' in frames[0]
    assert 'data-me=""' in frames[0] and 'id="hand"' not in frames[0]
    assert cards_named(frames[0]).isdisjoint(await hidden_cards(tables[0]))

    for table in tables:
        for position in range(2):
            await decide(table, position)
            frame = await ws.receive(tv)
            frames.append(frame)
            assert 'id="tv-tables"' in frame
            assert cards_named(frame).isdisjoint(await hidden_cards(tables[0]))
            assert 'id="hand"' not in frame
    # Every seat has played a card at table 1: the TV shows its rows of the turn after.
    live = re.search(r'<div id="live" data-version="(\d+)"', frames[-1])
    assert int(live.group(1)) >= 2
    await tv.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_choosing_the_tv_table_in_the_admin_shows_its_game_at_once(season, alice, bob):
    evening, [table] = await night(season, [alice, bob])
    tv = await ws.connect(tv_path(evening), bob)
    assert 'id="live"' not in await ws.receive(tv)

    evening.tv_table = 1
    await sync_to_async(evening.save)()

    frame = await ws.receive(tv)
    assert 'id="live"' in frame and f"{table}" in frame
    await tv.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_tv_socket_is_for_signed_in_players_who_may_see_the_league(
    season, alice, bob, make_player
):
    evening, _tables = await night(season, [alice, bob])
    await sync_to_async(League.objects.filter(pk=season.league_id).update)(is_public=False)
    stranger = await ws.make(make_player, "eve")

    anonymous = await ws.connect(tv_path(evening))
    assert await anonymous.receive_output(timeout=3) == {"type": "websocket.close", "code": 4401}
    outsider = await ws.connect(tv_path(evening), stranger)
    assert await outsider.receive_output(timeout=3) == {"type": "websocket.close", "code": 4404}
    wrong = await ws.connect(f"/ws/leagues/club/parties/{evening.pk}/tv/", alice)
    assert await wrong.receive_output(timeout=3) == {"type": "websocket.close", "code": 4404}


@pytest.mark.django_db
def test_a_voided_game_has_no_ranking_and_no_best_score(client, season, alice, bob, carol):
    evening = evening_of(season, [alice, bob, carol])
    voided = finished_game(season, [alice, bob], [[0, 9]])
    seat(evening, voided, 1, 1)
    seat(evening, finished_game(season, [carol, "heuristic"], [[4, 2]]), 1, 2)
    voided.league_entry.void = True
    voided.league_entry.save()

    page = client.get(results_url(evening)).content.decode()

    assert "Voided by the league admin" in page
    best = re.search(r'<ul class="best-score">(.*?)</ul>', page, re.S).group(1)
    assert "Carol" in best and "Alice" not in best


@pytest.mark.django_db
def test_the_tv_shows_a_finished_tables_totals_from_its_result(
    client, season, alice, bob, carol, dave
):
    evening = evening_of(season, [alice, bob, carol, dave])
    seat(evening, finished_game(season, [alice, bob], [[7, 3], [1, 2]]), 1, 1)
    seat(evening, finished_game(season, [carol, dave], [[0, 5]]), 1, 2)
    client.force_login(dave)

    page = client.get(tv_url(evening)).content.decode()

    shown = page.split('id="tv-tables"')[1].split("</section>")[0]
    lines = re.findall(r"<li( class=\"leads\")?><span>(\w+)</span><b>(\d+)</b>", shown)
    assert [(name, int(total), bool(leads)) for leads, name, total in lines] == [
        ("Bob", 5, True),
        ("Alice", 8, False),
        ("Carol", 0, True),
        ("Dave", 5, False),
    ]
