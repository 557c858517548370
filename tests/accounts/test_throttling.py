"""Brute force on accounts: login lockout (django-axes) and password-reset mail limits.

All through the real login and password-reset views, as a browser would post them.
"""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.http import HttpRequest
from django.test import AsyncClient, Client
from django.utils import timezone

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

LOCKED = "Too many failed logins"
WRONG = "Please enter a correct username and password"


def log_in(client, username, password, address="127.0.0.1"):
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        HTTP_ACCEPT_LANGUAGE="en",
        REMOTE_ADDR=address,
    )


def fail_until_locked(client, username, address="127.0.0.1"):
    """Wrong passwords up to the limit: the last one locks the door."""
    for attempt in range(1, settings.AXES_FAILURE_LIMIT + 1):
        response = log_in(client, username, f"wrong-{attempt}", address)
        if attempt < settings.AXES_FAILURE_LIMIT:
            assert response.status_code == 200
            assert WRONG in response.content.decode()
    return response


def is_logged_in(client):
    return client.get("/").context["user"].is_authenticated


def test_wrong_passwords_lock_the_login_with_a_clear_message(client, alice):
    response = fail_until_locked(client, "alice")
    assert response.status_code == 429
    page = response.content.decode()
    assert LOCKED in page
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    assert f"Try again in {minutes} minutes" in page
    # The login page itself, so the player can read it and find the reset link.
    assert 'name="username"' in page
    assert "/accounts/password_reset/" in page


def test_the_right_password_is_refused_while_locked(client, alice):
    fail_until_locked(client, "alice")
    response = log_in(client, "alice", PASSWORD)
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    assert not is_logged_in(client)


def test_the_lock_is_for_this_username_from_this_address_only(client, alice, bob):
    fail_until_locked(client, "alice", address="203.0.113.7")
    # Alice at home is not locked out by someone guessing from elsewhere...
    assert log_in(Client(), "alice", PASSWORD, address="198.51.100.2").status_code == 302
    # ...and the guesser's address may still log in as someone else.
    assert log_in(Client(), "bob", PASSWORD, address="203.0.113.7").status_code == 302


def test_the_lock_opens_after_the_cool_off(client, alice):
    fail_until_locked(client, "alice")
    cool_off = settings.AXES_COOLOFF_TIME
    AccessAttempt.objects.update(attempt_time=timezone.now() - cool_off - timedelta(seconds=1))
    response = log_in(client, "alice", PASSWORD)
    assert response.status_code == 302
    assert is_logged_in(client)


def test_a_superuser_unlocks_from_the_admin(client, alice, django_user_model):
    fail_until_locked(client, "alice")
    attempt = AccessAttempt.objects.get(username="alice")

    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", PASSWORD)
    admin = Client()
    admin.force_login(boss)
    changelist = admin.get("/admin/axes/accessattempt/?locked_out=yes")
    assert changelist.status_code == 200
    assert "alice" in changelist.content.decode()
    response = admin.post(f"/admin/axes/accessattempt/{attempt.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302

    assert log_in(client, "alice", PASSWORD).status_code == 302


def test_staff_without_the_permission_do_not_see_login_attempts(client, alice, make_player):
    fail_until_locked(client, "alice")
    staff = make_player("staff", is_staff=True)
    viewer = Client()
    viewer.force_login(staff)
    assert viewer.get("/admin/axes/accessattempt/").status_code == 403


def test_wrong_passwords_are_not_stored(client, alice):
    fail_until_locked(client, "alice")
    stored = " ".join(AccessAttempt.objects.values_list("post_data", flat=True))
    assert "wrong-1" not in stored


def test_a_good_login_forgets_earlier_mistakes(client, alice):
    for attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, "alice", f"wrong-{attempt}")
    assert log_in(client, "alice", PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    for attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "alice", f"again-{attempt}").status_code == 200
    assert log_in(client, "alice", PASSWORD).status_code == 302


@pytest.mark.django_db(transaction=True)
async def test_the_lock_holds_under_asgi(alice):
    """daphne serves pages through Django's async handler, where the middleware runs async."""
    client = AsyncClient()
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        response = await client.post(
            "/accounts/login/",
            {"username": "alice", "password": f"wrong-{attempt}"},
            headers={"accept-language": "en"},
        )
    assert response.status_code == 429
    assert LOCKED in response.content.decode()
    response = await client.post(
        "/accounts/login/",
        {"username": "alice", "password": PASSWORD},
        headers={"accept-language": "en"},
    )
    assert response.status_code == 429


def test_tests_log_in_with_force_login_or_a_request(client, alice):
    """django-axes' backend needs the request: client.login() must pass one (its docs)."""
    assert client.login(request=HttpRequest(), username="alice", password=PASSWORD)
    assert is_logged_in(client)
    other = Client()
    other.force_login(alice)
    assert is_logged_in(other)


# Password reset mails


def ask_reset(client, email, address="127.0.0.1"):
    return client.post(
        "/accounts/password_reset/",
        {"email": email},
        HTTP_ACCEPT_LANGUAGE="en",
        REMOTE_ADDR=address,
    )


def test_reset_mails_to_one_address_are_limited_without_saying_so(client, alice, mailoutbox):
    limit = settings.SIXCLUB_RESET_MAILS_PER_ADDRESS
    for _ in range(limit + 3):
        response = ask_reset(client, "alice@example.org")
        # Always the same answer: "if an account exists, a mail is on its way".
        assert response.status_code == 302
        assert response["Location"] == "/accounts/password_reset/done/"
    assert len(mailoutbox) == limit


def test_the_address_limit_ignores_case_and_the_asking_address(client, alice, mailoutbox):
    limit = settings.SIXCLUB_RESET_MAILS_PER_ADDRESS
    for n in range(limit + 2):
        ask_reset(client, "Alice@Example.org " if n % 2 else "alice@example.org", f"10.0.0.{n}")
    assert len(mailoutbox) == limit


def test_reset_requests_from_one_address_are_limited_with_a_clear_error(
    client, alice, bob, mailoutbox
):
    limit = settings.SIXCLUB_RESET_REQUESTS_PER_IP
    for n in range(limit):
        assert ask_reset(client, f"nobody{n}@example.org").status_code == 302
    response = ask_reset(client, "bob@example.org")
    assert response.status_code == 429
    assert "Too many password reset requests" in response.content.decode()
    assert mailoutbox == []
    # Another address is not affected.
    assert ask_reset(Client(), "bob@example.org", address="192.0.2.1").status_code == 302
    assert [mail.to for mail in mailoutbox] == [["bob@example.org"]]


def test_a_bad_reset_form_counts_nothing(client, alice, mailoutbox):
    for _ in range(settings.SIXCLUB_RESET_REQUESTS_PER_IP + 1):
        assert ask_reset(client, "not an address").status_code == 200
    assert ask_reset(client, "alice@example.org").status_code == 302
    assert len(mailoutbox) == 1
