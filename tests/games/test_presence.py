"""Presence and time (issue 31, RULES §1.8): who is at the table, the away wait, each
seat's own deadline and time bank, the banner of a player coming back, and the tables
nobody comes back to, which leave the lobby."""

import datetime

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import engine, selectors, services, shutdown
from games.models import Game, Seat, Table
from tests.games import ws
from tests.games.presence import goes_away, seat_of, sources

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")
SECOND = datetime.timedelta(seconds=1)


def table_of(alice, bob, *, time_limit=0, rounds=1, season=None):
    table = services.table_create(
        user=alice,
        seats_count=2,
        options={"end": "rounds", "rounds": rounds},
        time_limit=time_limit,
        deal_seed=4,
        season=season,
    )
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    return table


def game_of(table):
    return Game.objects.get(table=table)


def alice_selects(table, alice):
    card = nimmt.load(game_of(table).state).hands[0][-1]
    services.game_decide(table_id=table.pk, user=alice, decision={"type": "select", "card": card})


def point_opened_ago(table, seconds):
    """The current decision point opened `seconds` ago (time passes for the clock)."""
    Game.objects.filter(table=table).update(
        point_started_at=timezone.now() - datetime.timedelta(seconds=seconds)
    )


def page_of(table, user, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    response = client.get(table.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


# --- the heartbeat ----------------------------------------------------------------------------


def test_the_heartbeat_marks_every_seat_of_the_open_sockets_seen_in_one_query(
    alice, bob, make_player
):
    carol = make_player("carol")
    first = table_of(alice, bob)
    second = table_of(carol, alice)
    Seat.objects.update(seen_at=None)
    with CaptureQueriesContext(connection) as queries:
        touched = services.seats_seen(
            {(first.pk, alice.pk), (first.pk, bob.pk), (second.pk, carol.pk)}
        )
    assert len(queries) == 1
    assert touched == 3
    # Alice has no socket on the second table: not seen there.
    assert Seat.objects.get(table=second, user=alice).seen_at is None
    assert Seat.objects.filter(seen_at__isnull=False).count() == 3


@pytest.mark.django_db(transaction=True)
async def test_a_players_socket_says_she_is_there_and_connecting_does_not_end_an_absence(
    alice, bob
):
    table = await sync_to_async(table_of)(alice, bob)
    await sync_to_async(services.seat_remove)(table_id=table.pk, user=bob)
    (bob_socket,) = await ws.watching(table, bob)
    assert (table.pk, bob.pk) in shutdown.open_table_sockets()
    seat = await sync_to_async(seat_of)(table, 1)
    assert seat.seen_at is not None and timezone.now() - seat.seen_at < 5 * SECOND
    # Connecting is not "I'm back": her own decision or the button ends the absence.
    assert seat.away
    await bob_socket.disconnect()
    assert (table.pk, bob.pk) not in shutdown.open_table_sockets()


# --- away after the grace, and the away wait --------------------------------------------------


def test_a_player_not_seen_for_the_grace_is_away_and_played_for_after_the_away_wait(
    alice, bob, settings
):
    settings.SIXCLUB_AWAY_GRACE, settings.SIXCLUB_AWAY_WAIT = 30, 10
    table = table_of(alice, bob)  # no time limit
    now = timezone.now()
    Seat.objects.filter(table=table, user=alice).update(seen_at=now)
    # Seen at most one heartbeat (10 s) before her last socket closed: 30 s after that.
    Seat.objects.filter(table=table, user=bob).update(seen_at=now - 39 * SECOND)
    assert services.presence_sweep(now)["away"] == 0
    Seat.objects.filter(table=table, user=bob).update(seen_at=now - 41 * SECOND)
    assert services.presence_sweep(now)["away"] == 1
    assert services.presence_sweep(now)["away"] == 0  # once
    bob_seat, alice_seat = seat_of(table, 1), seat_of(table, 0)
    assert bob_seat.away and bob_seat.away_since == now
    assert not alice_seat.away
    # No limit, yet the game waits for Bob only AWAY_WAIT seconds after the point opened.
    game = game_of(table)
    assert game.deadline == game.point_started_at + 10 * SECOND
    assert services.games_due(game.deadline - SECOND) == []
    assert services.game_timeout(game_id=game.pk, now=game.deadline - SECOND) is False
    assert sources(table, 1) == []
    assert services.games_due(game.deadline) == [game.pk]
    assert services.game_timeout(game_id=game.pk, now=game.deadline) is True
    assert sources(table, 1) == ["away"]
    # Alice, present at a table with no limit, is never played for.
    assert sources(table, 0) == []
    assert game_of(table).deadline is None


def test_a_game_never_seen_since_its_start_counts_from_the_start(alice, bob, settings):
    settings.SIXCLUB_AWAY_GRACE = 30
    table = table_of(alice, bob)
    Seat.objects.filter(table=table).update(seen_at=None)
    assert services.presence_sweep()["away"] == 0
    Game.objects.filter(table=table).update(started_at=timezone.now() - 41 * SECOND)
    assert services.presence_sweep()["away"] == 2


def test_a_present_player_with_time_left_is_not_played_when_an_away_ones_deadline_passes(
    alice, bob, settings
):
    settings.SIXCLUB_AWAY_WAIT, settings.SIXCLUB_TIME_BANK = 10, 60
    table = table_of(alice, bob, time_limit=30)
    goes_away(table, bob)  # Bob away; both are awaited
    game = game_of(table)
    start = game.point_started_at
    assert game.deadline == start + 10 * SECOND
    assert services.game_timeout(game_id=game.pk, now=start + 11 * SECOND)
    assert sources(table, 1) == ["away"]
    assert sources(table, 0) == []
    # Alice still has her limit and her bank: the deadline is hers now.
    game = game_of(table)
    assert game.point_started_at == start
    assert game.deadline == start + 90 * SECOND
    assert seat_of(table, 0).bank == 60


def test_the_bank_pays_for_a_decision_over_the_limit(alice, bob, settings):
    settings.SIXCLUB_TIME_BANK = 60
    table = table_of(alice, bob, time_limit=15)
    assert (seat_of(table, 0).bank, seat_of(table, 1).bank) == (60, 60)
    point_opened_ago(table, 19.5)  # 4.5 s over the limit
    alice_selects(table, alice)
    assert seat_of(table, 0).bank == 55  # rounded up
    assert seat_of(table, 1).bank == 60
    # Her deadline, had she not decided, would have been the limit and her bank.
    bob_deadline = services.seat_deadline(game_of(table), table, seat_of(table, 1))
    assert bob_deadline == game_of(table).point_started_at + 75 * SECOND


def test_a_timeout_empties_the_bank_and_a_table_with_no_limit_has_none(alice, bob, settings):
    settings.SIXCLUB_TIME_BANK = 60
    table = table_of(alice, bob, time_limit=15)
    alice_selects(table, alice)
    game = game_of(table)
    assert game.deadline == game.point_started_at + 75 * SECOND
    assert services.game_timeout(game_id=game.pk, now=game.deadline)
    bob_seat = seat_of(table, 1)
    assert sources(table, 1) == ["timeout"]
    assert (bob_seat.bank, bob_seat.timeouts, bob_seat.away) == (0, 1, False)
    assert seat_of(table, 0).bank == 60
    untimed = table_of(alice, bob)
    assert set(Seat.objects.filter(table=untimed).values_list("bank", flat=True)) == {0}


# --- coming back ------------------------------------------------------------------------------


def bob_away_for(table, alice, turns):
    """Bob goes away; for `turns` turns Alice plays and the computer plays Bob's card once
    the away wait is over (the deal's first turns need no row to be chosen)."""
    goes_away(table, bob_of(table))
    for _turn in range(turns):
        alice_selects(table, alice)
        game = game_of(table)
        assert services.game_timeout(game_id=game.pk, now=game.deadline)


def bob_of(table):
    return seat_of(table, 1).user


def test_a_player_back_from_away_sees_what_the_computer_played_for_her(alice, bob):
    table = table_of(alice, bob)
    bob_away_for(table, alice, 2)
    assert sources(table, 1) == ["away", "away"]
    assert selectors.played_for(game_of(table), [1]) == {1: 2}
    page = page_of(table, bob)
    banner = page[page.index('id="away-banner"') :]
    # At the top: before the board and the players' table.
    assert page.index('id="away-banner"') < page.index('id="players"')
    assert "You were away: the computer played 2 decisions for you." in banner
    assert 'id="back"' in banner[: banner.index("</div>")]
    assert 'id="away-banner"' not in page_of(table, alice)
    services.seat_return(table_id=table.pk, user=bob)
    assert 'id="away-banner"' not in page_of(table, bob)


def test_the_banner_counts_since_the_players_own_last_decision(alice, bob, settings):
    settings.SIXCLUB_TIME_BANK = 0
    table = table_of(alice, bob, time_limit=15)
    # Two timeouts in a row send Bob away: both count, as the computer played them.
    for _turn in range(2):
        alice_selects(table, alice)
        game = game_of(table)
        assert services.game_timeout(game_id=game.pk, now=game.deadline)
    assert seat_of(table, 1).away
    assert sources(table, 1) == ["timeout", "timeout"]
    page = page_of(table, bob)
    assert "You were away: the computer played 2 decisions for you." in page
    # Bob decides himself (he is back), then is away again: one decision since.
    card = nimmt.load(game_of(table).state).hands[1][0]
    services.game_decide(table_id=table.pk, user=bob, decision={"type": "select", "card": card})
    goes_away(table, bob)
    alice_selects(table, alice)
    game = game_of(table)
    if 1 in nimmt.to_act(nimmt.load(game.state)):
        assert services.game_timeout(game_id=game.pk, now=game.deadline)
    assert "the computer played 1 decision for you." in page_of(table, bob)


# --- nothing dead in the lobby ----------------------------------------------------------------


def lobby_ids(user):
    lists = selectors.lobby_tables(user)
    return {name: {t.pk for t in tables} for name, tables in lists.items()}


def test_an_open_table_nobody_comes_back_to_is_abandoned_and_leaves_the_lobby(alice, bob, settings):
    settings.SIXCLUB_ABANDON_OPEN = 1800
    old = services.table_create(user=alice, seats_count=3, options={})
    seen = services.table_create(user=bob, seats_count=3, options={})
    fresh = services.table_create(user=alice, seats_count=3, options={})
    long_ago = timezone.now() - 1801 * SECOND
    Table.objects.filter(pk__in=[old.pk, seen.pk]).update(created_at=long_ago)
    Seat.objects.filter(table=seen).update(seen_at=timezone.now() - 60 * SECOND)
    assert old.pk in lobby_ids(bob)["open_tables"]
    assert old.pk in lobby_ids(alice)["my_tables"]
    assert services.presence_sweep()["open_abandoned"] == 1
    assert Table.objects.get(pk=old.pk).status == Table.Status.ABANDONED
    assert Table.objects.get(pk=seen.pk).status == Table.Status.OPEN
    assert Table.objects.get(pk=fresh.pk).status == Table.Status.OPEN
    for user in (alice, bob):
        assert all(old.pk not in ids for ids in lobby_ids(user).values())
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(bob)
    lobby = client.get(reverse("lobby")).content.decode()
    assert f"/tables/{old.pk}/" not in lobby and f"/tables/{seen.pk}/" in lobby
    # Its page still opens, and says what became of it.
    assert "This game was abandoned." in page_of(old, alice)
    with pytest.raises(services.ServiceError):
        services.seat_join(table_id=old.pk, user=bob)


def test_a_game_of_one_human_against_a_bot_she_left_is_abandoned_unfinished(alice, settings):
    settings.SIXCLUB_ABANDON_GAME = 600
    table = services.table_create(
        user=alice, seats_count=2, options={"end": "rounds", "rounds": 1}, deal_seed=4
    )
    services.seat_add_bot(table_id=table.pk, user=alice, bot="random")
    services.table_start(table_id=table.pk, user=alice)
    goes_away(table, alice)
    assert table.pk in lobby_ids(alice)["my_tables"]
    assert services.presence_sweep()["games_ended"] == 0  # not for long enough yet
    Seat.objects.filter(table=table, user=alice).update(away_since=timezone.now() - 601 * SECOND)
    assert services.presence_sweep()["games_ended"] == 1
    table.refresh_from_db()
    game = game_of(table)
    assert table.status == Table.Status.ABANDONED
    assert game.finished_at is not None and game.deadline is None
    assert not nimmt.is_over(nimmt.load(game.state))
    assert all(table.pk not in ids for ids in lobby_ids(alice).values())
    page = page_of(table, alice)
    assert "This game was abandoned." in page
    assert 'id="hand"' not in page
    with pytest.raises(services.ServiceError) as refused:
        alice_selects(table, alice)
    assert refused.value.code == "abandoned"


def test_a_friendly_game_of_two_humans_who_both_left_is_played_out_by_the_computer(
    alice, bob, settings
):
    """Leaving is not free: a game of two humans or more counts (their site ratings) as
    the fallback plays it out."""
    settings.SIXCLUB_ABANDON_GAME = 600
    table = table_of(alice, bob)
    for user in (alice, bob):
        goes_away(table, user)
    assert table.pk in lobby_ids(bob)["playing_tables"]
    assert services.presence_sweep()["games_ended"] == 0  # not for long enough yet
    Seat.objects.filter(table=table, user=alice).update(away_since=timezone.now() - 601 * SECOND)
    assert services.presence_sweep()["games_ended"] == 0  # Bob only just left
    Seat.objects.filter(table=table).update(away_since=timezone.now() - 601 * SECOND)
    assert services.presence_sweep()["games_ended"] == 1
    table.refresh_from_db()
    game = game_of(table)
    assert table.status == Table.Status.FINISHED
    assert nimmt.is_over(nimmt.load(game.state))
    assert set(sources(table, 0)) == {"away"}
    for user in (alice, bob):
        assert all(table.pk not in ids for ids in lobby_ids(user).values())


def test_a_league_game_all_of_whose_players_left_is_finished_by_the_computer(alice, bob, settings):
    from leagues.models import League, Membership, Season, Standing

    settings.SIXCLUB_ABANDON_GAME = 600
    league = League.objects.create(name="Club", slug="club")
    for user in (alice, bob):
        Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)
    season = Season.objects.create(
        league=league,
        name="2026",
        starts_on=timezone.localdate() - datetime.timedelta(days=1),
        min_games=1,
    )
    table = table_of(alice, bob, season=season)
    for user in (alice, bob):
        goes_away(table, user)
    Seat.objects.filter(table=table).update(away_since=timezone.now() - 601 * SECOND)
    assert services.presence_sweep()["games_ended"] == 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert nimmt.is_over(nimmt.load(game_of(table).state))
    assert set(sources(table, 0)) == {"away"}
    for user in (alice, bob):
        assert Standing.objects.get(season=season, user=user).games == 1
        assert all(table.pk not in ids for ids in lobby_ids(user).values())


# --- what every page shows ----------------------------------------------------------------


def test_a_timed_table_shows_each_players_bank_and_each_awaited_seats_deadline(
    alice, bob, settings
):
    settings.SIXCLUB_TIME_BANK, settings.SIXCLUB_AWAY_WAIT = 60, 10
    table = services.table_create(user=alice, seats_count=3, options={}, time_limit=30)
    services.seat_join(table_id=table.pk, user=bob)
    services.seat_add_bot(table_id=table.pk, user=alice, bot="heuristic")
    services.table_start(table_id=table.pk, user=alice)
    point_opened_ago(table, 39.5)  # Alice is 9.5 s over her limit: 10 s, rounded up
    alice_selects(table, alice)
    goes_away(table, bob)
    page = page_of(table, bob)
    rows = {
        position: page[page.index(f'<tr data-seat="{position}"') :].split("</tr>")[0]
        for position in range(3)
    }
    assert "bank 50 s" in rows[0] and "bank 60 s" in rows[1]
    assert "bank" not in rows[2]  # a bot has none
    # Bob, the one awaited, away: his countdown is his own (the away wait), the table's
    # the earliest of the awaited seats'.
    game = game_of(table)
    own = timezone.localtime(game.point_started_at + 10 * SECOND).isoformat()
    assert game.deadline == game.point_started_at + 10 * SECOND
    assert f'data-deadline-1="{own}"' in page
    assert "data-deadline-0" not in page  # Alice has chosen: not awaited


def test_the_lobby_offers_a_30_second_limit_first_and_no_limit_still(alice):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(alice)
    page = client.get(reverse("lobby")).content.decode()
    select = page[page.index('id="id_time_limit"') :].split("</select>")[0]
    assert '<option value="30" selected>' in select
    assert '<option value="0">No limit</option>' in select


@pytest.mark.parametrize("kind", ["six", "surprise"])
def test_every_game_shows_the_players_banks(alice, bob, kind, settings):
    settings.SIXCLUB_TIME_BANK = 60
    table = services.table_create(user=alice, kind=kind, seats_count=2, options={}, time_limit=30)
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    page = page_of(table, bob)
    rows = [page[page.index(f'<tr data-seat="{n}"') :].split("</tr>")[0] for n in range(2)]
    assert all("bank 60 s" in row for row in rows)
