"""A members-only league's tables are seen by its members only: not in an outsider's lobby,
not on their screen (page, log, socket, record, replay), not in the profiles or rating
lines they read (issue 29; games.selectors.shown_to, leagues.selectors.tables_closed_to).
"""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Table
from leagues import services as league_services
from leagues.models import League, Membership, Season, Tournament
from tests.games import ws
from tests.games.test_duplicate_secrecy import play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_cup(make_player):
    """A members-only league's tournament of one table: Ann against Ben, run by Lea."""
    league = League.objects.create(name="Secret club", slug="secret", is_public=False)
    ann, ben, lea = (make_player(n, display_name=n.title()) for n in ("ann", "ben", "lea"))
    member = make_player("meg")
    for user in (ann, ben, lea, member):
        Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)
    league.admins.add(lea)
    season = Season.objects.create(
        league=league, name="2026", starts_on=timezone.localdate() - datetime.timedelta(days=3)
    )
    cup = Tournament.objects.create(
        season=season, name="Cup", date=timezone.localdate(), rounds=1, table_size=2
    )
    cup.players.set([ann, ben])
    (table,) = league_services.seating_generate(event=cup, seed=3)
    services.table_start(table_id=table.pk, user=lea)
    return {
        "table": table,
        "ann": ann,
        "member": member,
        "outsider": make_player("out"),
        "superuser": make_player("sup", is_staff=True, is_superuser=True),
    }


def as_user(user) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


def test_the_lobby_shows_the_game_to_members_only(private_cup):
    table = private_cup["table"]
    Table.objects.filter(pk=table.pk).update(reserved=False)  # as a league table opened here
    for who, listed in (("member", True), ("outsider", False), ("superuser", True)):
        lobby = as_user(private_cup[who]).get("/tables/").context
        assert (table in lobby["playing_tables"]) is listed, who


@pytest.mark.parametrize("path", ["", "log/"])
def test_the_table_and_its_log_are_not_found_by_an_outsider(private_cup, path):
    url = f"/tables/{private_cup['table'].pk}/{path}"
    assert as_user(private_cup["outsider"]).get(url).status_code == 404
    assert as_user(private_cup["member"]).get(url).status_code == 200
    assert as_user(private_cup["superuser"]).get(url).status_code == 200


@pytest.mark.parametrize("path", ["record.json", "replay/"])
def test_the_record_and_replay_are_not_found_by_an_outsider(private_cup, path):
    play_to_the_end(private_cup["table"])
    url = f"/tables/{private_cup['table'].pk}/{path}"
    assert as_user(private_cup["outsider"]).get(url).status_code == 404
    assert as_user(private_cup["member"]).get(url).status_code == 200


def test_an_invite_code_does_not_open_a_members_only_table(private_cup):
    table = private_cup["table"]
    url = f"/tables/{table.pk}/?invite={table.invite_code}"
    assert as_user(private_cup["outsider"]).get(url).status_code == 404


def test_profiles_show_outsiders_neither_the_game_nor_its_rating(private_cup):
    play_to_the_end(private_cup["table"])
    url = f"/players/{private_cup['ann'].username}/"
    seen = as_user(private_cup["outsider"]).get(url).context
    # No section of the game, so no site rating either, and nobody to compare her with.
    assert seen["game_figures"] == [] and seen["opponents"] == []
    member = as_user(private_cup["member"]).get(url).context
    (figures,) = member["game_figures"]
    assert [g.table_id for g in figures["recent"]] == [private_cup["table"].pk]
    assert figures["played"] == 1 and len(figures["history"]) == 1
    assert [u.username for u in member["opponents"]] == ["ben"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_outsider_cannot_watch_over_the_socket(private_cup):
    path = f"/ws/tables/{private_cup['table'].pk}/"
    outsider = await ws.connect(path, private_cup["outsider"])
    if outsider.connected:
        assert (await outsider.receive_output(timeout=3))["type"] == "websocket.close"
    await outsider.disconnect()
    member = await ws.connect(path, private_cup["member"])
    assert member.connected and 'id="live"' in await ws.receive(member)
    await member.disconnect()
