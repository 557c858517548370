import pytest

pytestmark = pytest.mark.django_db


def test_french_when_the_browser_says_nothing(client):
    response = client.get("/")
    assert '<html lang="fr">' in response.content.decode()
    assert "Tables" in response.content.decode()
    assert "Ligues" in response.content.decode()


def test_english_when_the_browser_asks_for_it(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    text = response.content.decode()
    assert '<html lang="en">' in text
    assert "Leagues" in text


def test_the_switch_sets_the_language_for_the_next_pages(client):
    response = client.post("/language/", {"language": "en", "next": "/"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 302
    assert '<html lang="en">' in client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    client.post("/language/", {"language": "fr", "next": "/"})
    assert '<html lang="fr">' in client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_switch_refuses_an_unknown_language(client):
    client.post("/language/", {"language": "xx", "next": "/"})
    assert '<html lang="fr">' in client.get("/").content.decode()


def test_the_switch_does_not_redirect_elsewhere(client):
    response = client.post("/language/", {"language": "en", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_a_players_choice_follows_them_to_a_new_browser(client, alice):
    alice.preferred_language = "en"
    alice.save()
    client.force_login(alice)
    assert '<html lang="en">' in client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()


def test_the_switch_is_remembered_on_the_player(alice_client, alice):
    alice_client.post("/language/", {"language": "en", "next": "/"})
    alice.refresh_from_db()
    assert alice.preferred_language == "en"
