"""A table seated for a club night is run by the league's admins, not by the player the
seating put first (issue 29, item 1): its players sit, play, leave and come back, nothing
else. A table anyone opened stays run by its creator."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games import engine, services
from games.models import Game, Table
from leagues import services as league_services
from leagues.models import Evening, League, Membership
from tests.games import ws

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")


@pytest.fixture
def erin(club, make_player):
    user = make_player("erin", display_name="Erin")
    Membership.objects.create(league=club, user=user, status=Membership.Status.ACTIVE)
    return user


@pytest.fixture
def evening(season, bob, carol, dave, erin):
    """Tonight's evening of the Club, where Alice, its admin, does not play."""
    event = Evening.objects.create(
        season=season, date=timezone.localdate(), table_size=4, game_rounds=1
    )
    event.players.set([bob, carol, dave, erin])
    return event


@pytest.fixture
def table(evening):
    """The evening's one table, its four players seated by the seating."""
    (seated,) = league_services.seating_generate(event=evening, seed=1)
    return Table.objects.select_related("created_by").get(pk=seated.pk)


@pytest.fixture
def first(table):
    """The player seated first: the table records them as its creator."""
    return table.created_by


def other_position(table, first) -> int:
    return table.seats.exclude(user=first).order_by("position").first().position


def refusal(call, **kwargs) -> services.ServiceError:
    with pytest.raises(services.ServiceError) as refused:
        call(**kwargs)
    return refused.value


def status(table) -> str:
    return Table.objects.get(pk=table.pk).status


def test_the_player_seated_first_only_sits_plays_leaves_and_comes_back(table, first):
    assert table.reserved and table.seats.filter(user=first).exists()
    position = other_position(table, first)
    with translation.override("en"):
        removing = refusal(services.seat_remove, table_id=table.pk, user=first, position=position)
    assert removing.code == "not_creator"
    assert removing.message == "Only the organisers of this table can do that."
    assert table.seats.filter(position=position).exists()
    # A seat free: no bot takes it at his word.
    leaving = table.seats.get(position=position).user
    services.seat_remove(table_id=table.pk, user=leaving)
    bot = refusal(services.seat_add_bot, table_id=table.pk, user=first, bot="random")
    assert bot.code == "not_creator" and not table.seats.exclude(bot="").exists()
    services.seat_join(table_id=table.pk, user=leaving)
    assert refusal(services.table_start, table_id=table.pk, user=first).code == "not_creator"
    assert status(table) == Table.Status.OPEN
    # His own seat is his: he leaves and comes back.
    services.seat_remove(table_id=table.pk, user=first)
    services.seat_join(table_id=table.pk, user=first)
    assert table.seats.filter(user=first).exists()


def test_a_player_removed_by_the_admin_cannot_start_nor_play(evening, table, first, alice):
    slot = table.evening_slot
    league_services.night_remove(event=evening, slot_id=slot.pk, user_id=first.pk, absent=False)
    assert refusal(services.table_start, table_id=table.pk, user=first).code == "not_creator"
    assert refusal(services.seat_join, table_id=table.pk, user=first).code == "reserved"
    assert status(table) == Table.Status.OPEN
    league_services.night_start(event=evening, slot_ids=[slot.pk], user=alice)
    state = nimmt.load(Game.objects.get(table=table).state)
    decision = nimmt.legal(state, 0)[0]
    playing = refusal(services.game_decide, table_id=table.pk, user=first, decision=decision)
    assert playing.code == "not_seated"


def test_the_league_admin_runs_the_table_without_a_seat(table, first, alice):
    assert not table.seats.filter(user=alice).exists()
    position = other_position(table, first)
    services.seat_remove(table_id=table.pk, user=alice, position=position)
    services.seat_add_bot(table_id=table.pk, user=alice, bot="random")
    assert table.seats.exclude(bot="").count() == 1
    services.table_start(table_id=table.pk, user=alice)
    assert status(table) == Table.Status.PLAYING
    # A player who is away, between two rounds: only the admin gives the seat to a bot.
    away = table.seats.exclude(user=first).exclude(user=None).first()
    services.seat_remove(table_id=table.pk, user=away.user)
    replacing = {"table_id": table.pk, "position": away.position, "bot": "random"}
    assert refusal(services.seat_replace_by_bot, user=first, **replacing).code == "not_creator"
    services.seat_replace_by_bot(user=alice, **replacing)
    assert table.seats.get(position=away.position).bot == "random"


def test_a_superuser_runs_it_and_another_leagues_admin_does_not(table, first, make_player):
    rivals = League.objects.create(name="Rivals", slug="rivals")
    zoe = make_player("zoe", is_staff=True)
    rivals.admins.add(zoe)
    assert refusal(services.table_start, table_id=table.pk, user=zoe).code == "not_creator"
    root = make_player("root", is_staff=True, is_superuser=True)
    services.seat_remove(table_id=table.pk, user=root, position=other_position(table, first))
    services.seat_add_bot(table_id=table.pk, user=root, bot="random")
    services.table_start(table_id=table.pk, user=root)
    assert status(table) == Table.Status.PLAYING


def test_a_table_a_member_opens_stays_his_to_run(season, alice, bob, carol, dave):
    """A league table opened in the lobby is not reserved: its creator runs it, and the
    league's admin is a player there like the others."""
    table = services.table_create(
        user=bob, seats_count=4, options={"end": "rounds", "rounds": 1}, season=season
    )
    assert not table.reserved
    for player in (alice, carol, dave):
        services.seat_join(table_id=table.pk, user=player)
    carol_seat = table.seats.get(user=carol).position
    refused = refusal(services.seat_remove, table_id=table.pk, user=alice, position=carol_seat)
    assert refused.code == "not_creator"
    assert refusal(services.table_start, table_id=table.pk, user=alice).code == "not_creator"
    services.seat_remove(table_id=table.pk, user=bob, position=carol_seat)
    services.seat_add_bot(table_id=table.pk, user=bob, bot="random")
    services.table_start(table_id=table.pk, user=bob)
    assert status(table) == Table.Status.PLAYING


def test_a_friendly_tables_creator_keeps_his_powers(bob, carol):
    table = services.table_create(user=bob, seats_count=3, options={"end": "rounds", "rounds": 1})
    services.seat_join(table_id=table.pk, user=carol)
    services.seat_add_bot(table_id=table.pk, user=bob, bot="random")
    services.seat_remove(table_id=table.pk, user=bob, position=table.seats.get(user=carol).position)
    services.table_start(table_id=table.pk, user=bob)
    assert status(table) == Table.Status.PLAYING


# --- through the site ------------------------------------------------------------------------


def signed_in(user) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


def post(client, table, action: str, **data) -> str:
    """An htmx POST to one of the table's actions: the code of the `#notice` it answers."""
    response = client.post(f"/tables/{table.pk}/{action}", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode().split('data-code="', 1)[1].split('"', 1)[0]


def test_the_table_page_shows_its_players_no_organisers_controls(table, first, alice):
    page = signed_in(first).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="start"' not in page and "/remove/" not in page
    assert "The organisers start the game." in page and "Leave my seat" in page
    admins = signed_in(alice).get(f"/tables/{table.pk}/").content.decode()
    assert 'id="start"' in admins and 'id="organisers-start"' not in admins
    # Every seat has its "Remove", the admin sitting at none.
    assert admins.count("/remove/") == 2 * 4  # each form names its URL twice


def test_the_views_refuse_the_player_and_obey_the_admin(table, first, alice):
    player = signed_in(first)
    position = other_position(table, first)
    assert post(player, table, f"seats/{position}/remove/") == "not_creator"
    assert post(player, table, "bots/", bot="random") == "not_creator"
    assert post(player, table, "start/") == "not_creator"
    assert status(table) == Table.Status.OPEN and table.seats.count() == 4
    admin = signed_in(alice)
    assert post(admin, table, f"seats/{position}/remove/") == ""
    assert post(admin, table, "bots/", bot="random") == ""
    assert post(admin, table, "start/") == ""
    assert status(table) == Table.Status.PLAYING
    assert table.seats.exclude(bot="").count() == 1


def test_the_night_panel_starts_the_round_as_the_admin_who_clicks(evening, table, alice):
    alice.is_staff = True
    alice.save()
    url = reverse("admin:leagues_evening_night", args=[evening.pk])
    response = signed_in(alice).post(url, {"night": "start_round:1"}, follow=True)
    assert "1 table started." in response.content.decode()
    assert status(table) == Table.Status.PLAYING


@pytest.mark.django_db(transaction=True)
async def test_the_table_socket_shows_the_controls_to_the_admin_only(evening, table, first, alice):
    path = f"/ws/tables/{table.pk}/"
    player = await ws.connect(path, first)
    frame = await ws.receive(player)
    assert 'id="live"' in frame and 'id="start"' not in frame and "/remove/" not in frame
    assert 'id="organisers-start"' in frame
    admin = await ws.connect(path, alice)
    frame = await ws.receive(admin)
    assert 'id="start"' in frame and 'id="organisers-start"' not in frame
    # Taken out of the table and the game started, the player's socket plays nothing.
    slot_id = await sync_to_async(lambda: table.evening_slot.pk)()
    await sync_to_async(league_services.night_remove)(
        event=evening, slot_id=slot_id, user_id=first.pk, absent=False
    )
    await sync_to_async(league_services.night_start)(event=evening, slot_ids=[slot_id], user=alice)
    await ws.drain(player)
    state = await ws.game_state(table)
    await ws.send(player, id="m1", version=state.version, **nimmt.legal(state, 0)[0])
    codes = [ws.error_code(frame) for frame in await ws.drain(player)]
    assert "not_seated" in codes
    for socket in (player, admin):
        await socket.disconnect()
