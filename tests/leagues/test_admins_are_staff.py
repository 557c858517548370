"""Naming a league admin makes them staff, and the League admin says so (issue 29, item 2):
the `admins` field warns, and the league's page lists its admins who hold staff."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def root(make_player):
    return make_player("root", is_staff=True, is_superuser=True)


def signed_in(user, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def league_page(client, league) -> str:
    return client.get(reverse("admin:leagues_league_change", args=[league.pk])).content.decode()


def save_admins(client, league, admins) -> None:
    form = {
        "name": league.name,
        "slug": league.slug,
        "description": "",
        "is_public": "on",
        "admins": [user.pk for user in admins],
    }
    response = client.post(reverse("admin:leagues_league_change", args=[league.pk]), form)
    assert response.status_code == 302, response.content


def test_the_admins_field_says_that_naming_an_admin_makes_them_staff(root, club):
    assert "Naming a player an admin makes them staff" in league_page(signed_in(root), club)
    french = league_page(signed_in(root, "fr"), club)
    assert "Nommer un joueur administrateur lui donne le statut équipe" in french
    assert "Statut équipe donné par cette ligue" in french


def test_the_league_page_lists_its_admins_who_hold_staff(root, club, alice, bob):
    alice.is_staff = True
    alice.save()
    client = signed_in(root)
    page = league_page(client, club)
    assert "Staff through this league" in page
    assert "Alice (alice)" in page and "Bob (bob)" not in page
    # Named from the admin, Bob becomes staff and is listed.
    save_admins(client, club, [alice, bob])
    bob.refresh_from_db()
    assert bob.is_staff and "Bob (bob)" in league_page(client, club)
    # Taken off the admins, he stays staff, as the field warns, but no longer through
    # this league.
    save_admins(client, club, [alice])
    bob.refresh_from_db()
    assert bob.is_staff and "Bob (bob)" not in league_page(client, club)


def test_a_leagues_admin_without_staff_is_not_listed(root, club, alice):
    assert not alice.is_staff and club.admins.filter(pk=alice.pk).exists()
    page = league_page(signed_in(root), club)
    assert "Alice (alice)" not in page
