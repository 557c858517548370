"""Issue 19, item 2: no seed, snapshot or pile of a deal still in play shows in the admin."""

import datetime
import json

import pytest
from django.urls import reverse

from games import services
from games.models import Game, Table
from leagues import services as league_services
from leagues.models import Membership, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def duplicate_round(season, club, make_player):
    """Round 1 of a duplicate tournament: two tables of four dealt from the same seed, both
    started; the first is then finished (everyone left), the second still plays."""
    players = [m.user for m in club.memberships.select_related("user")]
    for number in range(4):
        user = make_player(f"player{number}", display_name=f"Player {number}")
        Membership.objects.create(league=club, user=user, status=Membership.Status.ACTIVE)
        players.append(user)
    event = Tournament.objects.create(
        season=season, name="Cup", date=datetime.date.today(), duplicate=True, game_rounds=1
    )
    event.players.set(players)
    finished, live = league_services.seating_generate(event=event, seed=3)
    for table in (finished, live):
        services.table_start(table_id=table.pk, user=None)  # as the night panel
    for seat in finished.seats.select_related("user"):
        services.seat_remove(table_id=finished.pk, user=seat.user)
    finished.refresh_from_db()
    live.refresh_from_db()
    assert finished.status == Table.Status.FINISHED and live.status == Table.Status.PLAYING
    assert finished.deal_seed == live.deal_seed is not None
    assert finished.game.taken_cards.exists()
    return event, finished, live


@pytest.fixture
def league_admin(client, alice):
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    return client


def admin_pages(event, *tables):
    pages = [
        reverse("admin:games_table_changelist"),
        reverse("admin:games_game_changelist"),
        reverse("admin:leagues_tournament_change", args=[event.pk]),
    ]
    for table in tables:
        pages.append(reverse("admin:games_table_change", args=[table.pk]))
        pages.append(reverse("admin:games_game_change", args=[table.game.pk]))
    return pages


def secrets_of(table) -> list[str]:
    """What would tell the deal: the seeds, and the snapshot's hands."""
    game = Game.objects.get(table=table)
    hands = json.dumps(game.state["hands"])
    return [str(table.deal_seed), str(game.seed), hands, "hands", "Deal seed", "Seed"]


def assert_hidden(client, event, *tables, piles_hidden=True):
    for url in admin_pages(event, *tables):
        page = client.get(url)
        assert page.status_code == 200, url
        html = page.content.decode()
        for secret in secrets_of(tables[0]):
            assert secret not in html, (url, secret)
        if piles_hidden:
            assert "picked-up piles" not in html.lower(), url
            assert "score sheet" not in html.lower(), url


def test_a_league_admin_sees_no_seed_snapshot_or_pile_while_the_deal_is_in_play(
    league_admin, duplicate_round
):
    event, finished, live = duplicate_round
    # The finished table's game shares its deal with a table still playing.
    assert_hidden(league_admin, event, finished, live)


def test_a_site_admin_sees_no_seed_or_snapshot_while_the_deal_is_in_play(
    admin_client, duplicate_round
):
    event, finished, live = duplicate_round
    assert_hidden(admin_client, event, finished, live, piles_hidden=False)


def test_staff_who_run_no_league_see_no_game(client, make_player, duplicate_round):
    event, finished, live = duplicate_round
    client.force_login(make_player("clerk", is_staff=True))
    for url in admin_pages(event, finished, live):
        response = client.get(url)
        assert response.status_code in (302, 403, 404), url
        for secret in secrets_of(finished):
            assert secret not in response.content.decode()


def test_once_every_table_of_the_deal_is_over_its_seed_and_piles_show(
    league_admin, duplicate_round
):
    event, finished, live = duplicate_round
    for seat in live.seats.select_related("user"):
        services.seat_remove(table_id=live.pk, user=seat.user)
    finished.refresh_from_db()
    page = league_admin.get(reverse("admin:games_table_change", args=[finished.pk]))
    assert str(finished.deal_seed) in page.content.decode()
    page = league_admin.get(reverse("admin:games_game_change", args=[finished.game.pk]))
    html = page.content.decode()
    assert str(finished.game.seed) in html and "picked-up piles" in html.lower()
    # The snapshot stays out: the game's record tells everything.
    assert json.dumps(finished.game.state["hands"]) not in html
