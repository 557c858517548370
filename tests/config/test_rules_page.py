"""Issue 21, help: the rules page, a text of its own in French and in English."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

# The sections other pages link to (the table page, the lobby form): same in both languages.
ANCHORS = (
    "cards",
    "setup",
    "turn",
    "placing",
    "sixth-card",
    "too-low",
    "scoring",
    "end",
    "options",
    "players",
    "end-option",
    "threshold",
    "rounds",
    "draft",
    "card-limit",
    "live-scores",
    "show-played",
    "private",
    "league",
    "bots",
    "time-limit",
    "nimmt",
    "nimmt-options",
    "nimmt-time",
    "surprise",
    "six",
)
HEADINGS = {
    "fr": ("Règles", "Où va une carte", "Une carte trop petite", "Le décompte"),
    "en": ("Rules", "Where a card goes", "A card lower than every row", "Scoring"),
}


def _rules_page(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    return response.content.decode()


def test_the_rules_live_at_slash_rules():
    assert reverse("rules") == "/rules/"


@pytest.mark.parametrize("language", ["fr", "en"])
def test_an_anonymous_visitor_reads_the_rules_in_their_language(client, language):
    page = _rules_page(client, language)

    assert f'<html lang="{language}">' in page
    for heading in HEADINGS[language]:
        assert heading in page
    other = "en" if language == "fr" else "fr"
    for heading in HEADINGS[other][1:]:
        assert heading not in page


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_section_has_its_anchor_once(client, language):
    page = _rules_page(client, language)

    ids = re.findall(r'\sid="([^"]+)"', page)
    for anchor in ANCHORS:
        assert ids.count(anchor) == 1, anchor


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_contents_links_lead_to_sections_of_the_page(client, language):
    page = _rules_page(client, language)

    ids = set(re.findall(r'\sid="([^"]+)"', page))
    links = set(re.findall(r'href="#([^"]+)"', page))
    assert links and links <= ids


def test_the_browser_language_chooses_the_text(client):
    response = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8")

    assert "Where a card goes" in response.content.decode()


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_page_links_the_rules_in_its_navigation(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("home")).content.decode()

    nav = page[page.index('<nav class="nav"') : page.index("</nav>")]
    assert '<a href="/rules/">' in nav
    if language == "en":  # the French label comes with the catalogue ("Règles")
        assert '<a href="/rules/">Rules</a>' in nav


@pytest.mark.django_db
def test_the_lobby_form_and_the_table_link_to_the_rules(alice_client, alice):
    from games import services

    lobby = alice_client.get("/tables/").content.decode()
    assert 'href="/rules/#options"' in lobby
    table = services.table_create(user=alice, seats_count=2, options={})
    page = alice_client.get(table.get_absolute_url()).content.decode()
    assert f'href="/rules/#{table.kind}"' in page  # its game's section


@pytest.mark.parametrize("language", ["fr", "en"])
def test_each_game_writes_its_own_section_and_a_game_without_one_is_left_out(client, language):
    from games import kinds

    page = _rules_page(client, language)

    sections = re.findall(r'<section id="([^"]+)"', page)
    # The site's games, in the lobby's order; the test-only game of tests/settings.py
    # writes no rules, and is left out.
    assert sections == ["nimmt", "six", "surprise"]
    assert len(kinds.registered()) == len(sections) + 1
    for name in sections:
        assert f'<a href="#{name}">{kinds.get(name).label}</a>' in page
