import pytest

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_logs_in_with_the_right_password(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"] == alice


def test_it_refuses_a_wrong_password(client, alice):
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "nope"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert not client.get("/").context["user"].is_authenticated


def test_it_logs_out_on_post(alice_client):
    response = alice_client.post("/accounts/logout/")
    assert response.status_code == 302
    assert not alice_client.get("/").context["user"].is_authenticated


def test_password_change_needs_the_old_password(alice_client, alice):
    response = alice_client.post(
        "/accounts/password_change/",
        {
            "old_password": "wrong",
            "new_password1": "n3w-secret-pass!",
            "new_password2": "n3w-secret-pass!",
        },
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)

    response = alice_client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "n3w-secret-pass!",
            "new_password2": "n3w-secret-pass!",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("n3w-secret-pass!")


def test_password_reset_sends_a_working_link(client, alice, mailoutbox):
    client.post("/accounts/password_reset/", {"email": "alice@example.org"})
    assert len(mailoutbox) == 1
    link = next(word for word in mailoutbox[0].body.split() if "/accounts/reset/" in word)
    path = link.split("://", 1)[1].split("/", 1)[1]
    form_page = client.get("/" + path, follow=True)
    assert form_page.context["validlink"]
    response = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "brand-new-pass-99", "new_password2": "brand-new-pass-99"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("brand-new-pass-99")
