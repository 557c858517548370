"""A duplicate round deals every table the same cards: a finished table's hands stay
closed (record, replay, picked-up piles, profile figures of its cards) until every table
sharing its deal is over (issue 19, item 1)."""

import datetime
import json

import pytest
from django.test import Client
from django.utils import timezone

from games import engine, services
from games.models import Game, Table, TakenCard
from leagues import services as league_services
from leagues.models import League, Membership, Season, Tournament
from tests.games import ws

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")
CLOSED = "deal is still being played at another table"


@pytest.fixture
def round_of_two(make_player):
    """A duplicate tournament's first round: two tables of two players dealt alike, the
    first one finished, the second one playing; and the people who look at them."""
    league = League.objects.create(name="Club", slug="club")
    players = [
        make_player(name, display_name=name.title()) for name in ("ann", "ben", "cat", "dan")
    ]
    for user in players:
        Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)
    admin = make_player("lea")
    Membership.objects.create(league=league, user=admin, status=Membership.Status.ACTIVE)
    league.admins.add(admin)
    season = Season.objects.create(
        league=league, name="2026", starts_on=timezone.localdate() - datetime.timedelta(days=3)
    )
    cup = Tournament.objects.create(
        season=season,
        name="Cup",
        date=timezone.localdate(),
        rounds=1,
        game_rounds=1,
        table_size=2,
        duplicate=True,
    )
    cup.players.set(players)
    finished, playing = league_services.seating_generate(event=cup, seed=7)
    assert finished.deal_seed and finished.deal_seed == playing.deal_seed
    for table in (finished, playing):
        services.table_start(table_id=table.pk, user=table.created_by)
    play_to_the_end(finished)
    assert Table.objects.get(pk=playing.pk).status == Table.Status.PLAYING
    return {
        "finished": finished,
        "playing": playing,
        "seated_there": finished.seats.get(position=0).user,
        "seated_here": playing.seats.get(position=0).user,
        "spectator": make_player("spe"),
        "league_admin": admin,
        "staff": make_player("sta", is_staff=True),
        "superuser": make_player("sup", is_staff=True, is_superuser=True),
    }


def play_to_the_end(table):
    for _ in range(200):
        state = nimmt.load(Game.objects.get(table=table).state)
        if nimmt.is_over(state):
            return
        seat = min(nimmt.view(state, None)["to_act"])
        user = table.seats.get(position=seat).user
        services.game_decide(table_id=table.pk, user=user, decision=nimmt.fallback(state, seat))
    raise AssertionError("the game did not end")


def as_user(user) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


def record_and_replay(table) -> list[str]:
    return [f"/tables/{table.pk}/record.json", f"/tables/{table.pk}/replay/"]


CLOSED_TO = ["seated_here", "seated_there", "spectator", "league_admin", "staff"]


@pytest.mark.parametrize("who", CLOSED_TO)
def test_the_record_and_replay_stay_closed_while_the_deal_is_played(round_of_two, who):
    client = as_user(round_of_two[who])
    for url in record_and_replay(round_of_two["finished"]):
        response = client.get(url)
        assert response.status_code == 403, url
        assert CLOSED in response.content.decode()


def test_a_superuser_may_read_the_record_at_once(round_of_two):
    client = as_user(round_of_two["superuser"])
    for url in record_and_replay(round_of_two["finished"]):
        assert client.get(url).status_code == 200, url


def test_a_player_of_the_deal_cannot_look_at_another_table_of_it(round_of_two):
    finished, playing = round_of_two["finished"], round_of_two["playing"]
    response = as_user(round_of_two["seated_here"]).get(f"/tables/{finished.pk}/")
    assert response.status_code == 403 and CLOSED in response.content.decode()
    # A player whose own game of the deal is over may watch the others play it.
    assert as_user(round_of_two["seated_there"]).get(f"/tables/{playing.pk}/").status_code == 200


@pytest.mark.parametrize("who", ["seated_there", "spectator", "league_admin", "staff"])
def test_the_finished_page_hides_piles_and_links_while_the_deal_is_played(round_of_two, who):
    finished = round_of_two["finished"]
    page = as_user(round_of_two[who]).get(f"/tables/{finished.pk}/").content.decode()
    assert 'id="ranking"' in page and CLOSED in page
    assert "Picked-up piles" not in page
    assert f"/tables/{finished.pk}/record.json" not in page
    assert f"/tables/{finished.pk}/replay/" not in page


def test_the_profile_counts_no_card_of_a_deal_still_played(round_of_two):
    player = round_of_two["seated_there"]
    game = Game.objects.get(table=round_of_two["finished"])
    TakenCard.objects.filter(game=game).delete()
    TakenCard.objects.create(game=game, round=1, turn=1, seat=0, card=55, heads=7)
    client = Client(headers={"accept-language": "en"})
    profile = f"/players/{player.username}/"
    assert client.get(profile).context["game_figures"][0]["cards_taken"] == []
    play_to_the_end(round_of_two["playing"])
    taken = client.get(profile).context["game_figures"][0]["cards_taken"]
    assert taken == [{"card": 55, "heads": 7, "times": 1}]


@pytest.mark.parametrize("who", CLOSED_TO)
def test_everything_opens_once_every_table_of_the_deal_is_over(round_of_two, who):
    play_to_the_end(round_of_two["playing"])
    finished = round_of_two["finished"]
    client = as_user(round_of_two[who])
    record = client.get(f"/tables/{finished.pk}/record.json")
    assert record.status_code == 200 and json.loads(record.content)["rounds"][0]["hands"]
    assert client.get(f"/tables/{finished.pk}/replay/").status_code == 200
    page = client.get(f"/tables/{finished.pk}/").content.decode()
    assert "Picked-up piles" in page and f"/tables/{finished.pk}/record.json" in page
    assert CLOSED not in page


def test_a_table_without_a_deal_seed_has_no_siblings(alice, bob, django_assert_max_num_queries):
    from games import selectors

    table = services.table_create(user=alice, seats_count=2, options={})
    with django_assert_max_num_queries(0):
        assert selectors.deal_in_play_elsewhere(table, bob) is None


def test_the_deal_question_is_one_query(round_of_two, django_assert_num_queries):
    from games import selectors

    with django_assert_num_queries(1):
        deal = selectors.deal_in_play_elsewhere(round_of_two["finished"], round_of_two["spectator"])
    assert deal is not None and not deal.seated
    with django_assert_num_queries(1):
        deal = selectors.deal_in_play_elsewhere(
            round_of_two["finished"], round_of_two["seated_here"]
        )
    assert deal is not None and deal.seated


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_player_of_the_deal_gets_no_socket_on_another_table_of_it(round_of_two):
    finished = round_of_two["finished"]
    socket = await ws.connect(f"/ws/tables/{finished.pk}/", round_of_two["seated_here"])
    if socket.connected:  # refused by a close code rather than at the handshake
        output = await socket.receive_output(timeout=3)
        assert output["type"] == "websocket.close", output
    await socket.disconnect()
