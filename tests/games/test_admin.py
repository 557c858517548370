import pytest

from games import services
from leagues.models import League, Season

pytestmark = pytest.mark.django_db


def test_a_site_admin_sees_every_table_and_its_seats(admin_client, alice, bob):
    table = services.table_create(user=alice, seats_count=3, options={}, name="Jeudi")
    services.seat_join(table_id=table.pk, user=bob)
    listing = admin_client.get("/admin/games/table/").content.decode()
    assert "Jeudi" in listing
    page = admin_client.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert "Alice" in page and "Bob" in page


def test_a_league_admin_sees_only_their_leagues_tables(client, alice, bob):
    from datetime import date

    from leagues.models import Membership

    club = League.objects.create(name="Club", slug="club")
    other = League.objects.create(name="Other", slug="other")
    for league in (club, other):
        Membership.objects.create(league=league, user=alice, status="active")
    club.admins.add(bob)
    bob.is_staff = True
    bob.save()
    ours = services.table_create(
        user=alice,
        seats_count=2,
        options={},
        name="Ours",
        season=Season.objects.create(league=club, name="S", starts_on=date.today()),
    )
    theirs = services.table_create(
        user=alice,
        seats_count=2,
        options={},
        name="Theirs",
        season=Season.objects.create(league=other, name="S", starts_on=date.today()),
    )
    services.table_create(user=alice, seats_count=2, options={}, name="Friendly")
    client.force_login(bob)
    listing = client.get("/admin/games/table/").content.decode()
    assert "Ours" in listing and "Theirs" not in listing and "Friendly" not in listing
    assert client.get(f"/admin/games/table/{theirs.pk}/change/").status_code in (302, 403, 404)
    assert client.get(f"/admin/games/table/{ours.pk}/change/").status_code == 200


def test_the_admin_names_each_seats_bot_of_any_game(admin_client, alice):
    nimmt = services.table_create(user=alice, seats_count=3, options={}, name="Mardi")
    services.seat_add_bot(table_id=nimmt.pk, user=alice, bot="expert")
    six = services.table_create(
        user=alice, kind="six", seats_count=3, options={"deck": 40, "target": 30}, name="Six"
    )
    services.seat_add_bot(table_id=six.pk, user=alice, bot="six_heuristic")
    admin_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = admin_client.get(f"/admin/games/table/{nimmt.pk}/change/").content.decode()
    assert "Expert bot" in page
    page = admin_client.get(f"/admin/games/table/{six.pk}/change/").content.decode()
    assert "Heuristic bot" in page and "six_heuristic" not in page
