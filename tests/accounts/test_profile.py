import pytest

pytestmark = pytest.mark.django_db


def test_a_player_page_shows_their_name(client, alice):
    response = client.get("/players/alice/")
    assert response.status_code == 200
    assert "Alice" in response.content.decode()


def test_an_unknown_player_is_404(client):
    assert client.get("/players/nobody/").status_code == 404


def test_a_player_edits_their_display_name_and_language(alice_client, alice):
    response = alice_client.post(
        "/accounts/profile/", {"display_name": "Alice L.", "preferred_language": "en"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice L."
    assert alice.preferred_language == "en"


def test_a_bad_language_is_refused_and_changes_nothing(alice_client, alice):
    response = alice_client.post(
        "/accounts/profile/", {"display_name": "Alice", "preferred_language": "klingon"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["preferred_language"]
    alice.refresh_from_db()
    assert alice.preferred_language == ""


def test_editing_needs_a_login(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
