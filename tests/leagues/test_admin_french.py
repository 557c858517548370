"""The admin speaks French to a French club: its labels, and its header names the site."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from leagues.models import Membership
from tests.leagues.conftest import finished_game

pytestmark = pytest.mark.django_db

# Labels the admin showed in English in a French page (issue 24), and the other fields'.
ENGLISH = [
    "User",
    "Player",
    "Status",
    "Joined at",
    "League",
    "Created by",
    "Created at",
    "Invite code",
    "Invitation code",
    "Deal seed",
    "Seats",
    "Seat",
    "Bot",
    "Away",
    "Members",
    "Django administration",
    "Django site admin",
]


@pytest.fixture
def french_root(make_player):
    client = Client(headers={"accept-language": "fr"})
    client.force_login(make_player("root", is_staff=True, is_superuser=True))
    return client


def english_labels(html: str) -> list[str]:
    """The English words above among the page's labels, column heads and headings."""
    shown = re.findall(r"<(?:label|th|h1|h2|a)\b[^>]*>\s*(?:<[^>]+>\s*)*([^<]+?)\s*<", html)
    shown = {text.strip().rstrip(":\xa0").strip() for text in shown}
    return [word for word in ENGLISH if word in shown]


def test_the_league_page_is_in_french(french_root, club, make_player):
    Membership.objects.create(league=club, user=make_player("waiting"))
    html = french_root.get(reverse("admin:leagues_league_change", args=[club.pk])).content.decode()
    assert english_labels(html) == []
    assert "Administration de sixclub" in html and "<title>" in html
    assert "Admin sixclub</title>" in html
    assert "4 membres" in html and "1 en attente d&#x27;adhésion" in html


def test_the_membership_list_is_in_french(french_root, club):
    html = french_root.get(reverse("admin:leagues_membership_changelist")).content.decode()
    assert english_labels(html) == []
    for french in ("Joueur", "Ligue", "État", "Inscrit le"):
        assert re.search(rf">\s*{french}\s*<", html), french


def test_the_season_page_is_in_french(french_root, season):
    html = french_root.get(reverse("admin:leagues_season_change", args=[season.pk])).content
    html = html.decode()
    assert english_labels(html) == []
    assert "Ligue" in html


def test_a_finished_tables_page_is_in_french(french_root, season, alice, bob):
    game = finished_game(season, [alice, bob], [[3, 8]])
    Table.objects.filter(pk=game.table.pk).update(deal_seed=1234)
    html = french_root.get(reverse("admin:games_table_change", args=[game.table.pk])).content
    html = html.decode()
    assert english_labels(html) == []
    for french in ("Créée par", "Code d&#x27;invitation", "Graine de la donne", "Places"):
        assert french in html, french


def test_the_admin_index_names_the_site_in_french(french_root):
    html = french_root.get(reverse("admin:index")).content.decode()
    assert "Administration de sixclub" in html and "Ligues, tables et joueurs" in html
    assert english_labels(html) == []
