"""The chat panel of the table page and the lobby, and its HTTP actions."""

import re

import pytest
from django.urls import reverse

from chat import services
from chat.models import ChatMessage, ChatMute, ChatPreference, ChatReport
from chat.selectors import RECENT
from games import services as game_services

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table(alice, bob):
    table = game_services.table_create(user=alice, seats_count=3, options={})
    game_services.seat_join(table_id=table.pk, user=bob)
    return table


@pytest.fixture
def carol(make_player):
    return make_player("carol", display_name="Carol")


def say(user, table, text):
    return services.chat_post(user=user, table_id=table.pk if table else None, text=text)


def log_of(html: str) -> str:
    match = re.search(r'<ol id="chat-log".*?</ol>', html, flags=re.S)
    assert match, "no chat log"
    return match.group(0)


def test_the_table_page_shows_the_chat_outside_the_live_part(alice_client, table):
    say(table.created_by, table, "Bienvenue")
    html = alice_client.get(reverse("table", args=[table.pk])).content.decode()
    assert "Bienvenue" in log_of(html)
    live_start = html.index('id="live"')
    chat = html.index('id="chat"')
    assert chat > live_start
    # The chat sits in the socket's element (ws-send), after #live has closed.
    assert html.index("ws-connect") < chat
    assert 'class="chat-form" ws-send' in html


def test_the_page_shows_the_last_messages_oldest_first(alice_client, alice, table):
    for n in range(RECENT + 5):
        ChatMessage.objects.create(table=table, sender=alice, text=f"ligne {n}")
    log = log_of(alice_client.get(reverse("table", args=[table.pk])).content.decode())
    lines = re.findall(r'<bdi class="chat-text">(ligne \d+)</bdi>', log)
    assert lines == [f"ligne {n}" for n in range(5, RECENT + 5)]


def test_the_page_escapes_what_players_wrote(alice_client, bob, table):
    say(bob, table, "<script>alert('x')</script>")
    log = log_of(alice_client.get(reverse("table", args=[table.pk])).content.decode())
    assert "<script>" not in log
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in log


def test_the_page_leaves_out_muted_players_and_hidden_messages(
    alice_client, alice, bob, carol, table
):
    say(bob, table, "de Bob")
    say(carol, table, "de Carol")
    hidden = say(alice, table, "caché")
    services.chat_hide(messages=ChatMessage.objects.filter(pk=hidden.pk), by=alice)
    services.chat_mute(user=alice, muted=carol)
    log = log_of(alice_client.get(reverse("table", args=[table.pk])).content.decode())
    assert "de Bob" in log and "de Carol" not in log and "caché" not in log


def test_the_lobby_shows_its_own_chat(alice_client, alice, table):
    say(alice, None, "dans le salon")
    say(alice, table, "à la table")
    html = alice_client.get(reverse("lobby")).content.decode()
    log = log_of(html)
    assert "dans le salon" in log and "à la table" not in log
    assert 'ws-connect="/ws/lobby/"' in html and html.index("ws-connect") < html.index('id="chat"')


def test_muting_from_a_message_answers_the_log_without_the_muted_player(
    alice_client, alice, bob, table
):
    message = say(bob, table, "bla")
    response = alice_client.post(
        reverse("chat_mute", args=[message.pk]), HTTP_ACCEPT_LANGUAGE="en", **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert ChatMute.objects.filter(user=alice, muted=bob).exists()
    assert "bla" not in log_of(html)
    assert 'id="chat-log" class="chat-log" aria-live="polite" hx-swap-oob="true"' in html
    assert "1 muted player" in html


def test_unmuting_brings_the_player_back(alice_client, alice, bob, table):
    say(bob, table, "bla")
    services.chat_mute(user=alice, muted=bob)
    response = alice_client.post(reverse("chat_unmute", args=[bob.pk]), {"table": table.pk}, **HTMX)
    assert "bla" in log_of(response.content.decode())
    assert not ChatMute.objects.exists()


def test_nobody_mutes_themselves(alice_client, alice, table):
    message = say(alice, table, "moi")
    response = alice_client.post(reverse("chat_mute", args=[message.pk]), **HTMX)
    assert 'data-code="bad_field"' in response.content.decode()
    assert not ChatMute.objects.exists()


def test_a_report_is_filed_once(alice_client, alice, bob, table):
    message = say(bob, table, "insulte")
    url = reverse("chat_report", args=[message.pk])
    for _ in range(2):
        response = alice_client.post(url, **HTMX)
        assert 'id="chat-notice"' in response.content.decode()
    assert ChatReport.objects.filter(message=message, reporter=alice).count() == 1


def test_a_message_of_a_private_table_cannot_be_reported_by_a_stranger(client, carol, alice):
    private = game_services.table_create(user=alice, seats_count=2, options={}, is_public=False)
    message = say(alice, private, "entre nous")
    client.force_login(carol)
    assert client.post(reverse("chat_report", args=[message.pk]), **HTMX).status_code == 404
    assert client.post(reverse("chat_mute", args=[message.pk]), **HTMX).status_code == 404
    assert not ChatReport.objects.exists()


def test_hiding_spectators_messages(alice_client, alice, carol, table):
    say(carol, table, "je regarde")
    url = reverse("chat_spectators", args=[table.pk])
    html = alice_client.post(url, {"hide": "1"}, **HTMX).content.decode()
    assert ChatPreference.objects.get(user=alice).hide_spectators
    assert "je regarde" not in log_of(html)
    html = alice_client.post(url, {"hide": "0"}, **HTMX).content.decode()
    assert "je regarde" in log_of(html)


def test_the_actions_want_a_post_and_a_login(client, alice, table):
    message = say(alice, table, "x")
    url = reverse("chat_report", args=[message.pk])
    assert client.post(url).status_code == 302  # to the login page
    client.force_login(alice)
    assert client.get(url).status_code == 405


def test_without_javascript_an_action_leads_back_to_the_table(alice_client, bob, table):
    message = say(bob, table, "bla")
    response = alice_client.post(reverse("chat_mute", args=[message.pk]))
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()


def test_deleting_a_player_deletes_their_messages_mutes_and_reports(alice, carol, table):
    said = say(carol, table, "au revoir")
    say(alice, table, "reste")
    services.chat_mute(user=carol, muted=alice)
    services.chat_report(user=carol, message=ChatMessage.objects.get(text="reste"))
    services.chat_report(user=alice, message=said)
    carol.delete()
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["reste"]
    assert not ChatMute.objects.exists() and not ChatReport.objects.exists()
