import pytest

from accounts.models import User

pytestmark = pytest.mark.django_db


def signup(client, **overrides):
    data = {
        "username": "carol",
        "email": "carol@example.org",
        "display_name": "Carol",
        "password1": "a-long-and-unusual-pass-7",
        "password2": "a-long-and-unusual-pass-7",
    }
    data.update(overrides)
    return client.post("/accounts/signup/", data, HTTP_ACCEPT_LANGUAGE="en")


def test_home_links_to_signup(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert b'href="/accounts/signup/"' in response.content


def test_it_creates_the_player_and_logs_them_in(client):
    response = signup(client)
    assert response.status_code == 302
    carol = User.objects.get(username="carol")
    assert carol.display_name == "Carol"
    assert carol.check_password("a-long-and-unusual-pass-7")
    assert client.get("/").context["user"] == carol


def test_a_taken_username_is_refused_and_creates_nothing(client, alice):
    response = signup(client, username="alice")
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1


def test_a_weak_password_is_refused_and_creates_nothing(client):
    response = signup(client, password1="12345678", password2="12345678")
    assert response.status_code == 200
    text = response.content.decode()
    assert "This password is too common." in text
    assert "entirely numeric" in text
    assert not User.objects.exists()


def test_mismatched_passwords_are_refused_and_create_nothing(client):
    response = signup(client, password2="another-long-pass-8")
    assert response.status_code == 200
    assert "The two password fields" in response.content.decode()
    assert not User.objects.exists()


def test_errors_are_shown_in_french_too(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "x", "password1": "1", "password2": "2"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert "Les deux mots de passe ne correspondent pas." in response.content.decode()
    assert not User.objects.exists()
