"""Reviewing the chat in the Django admin: site admins everywhere, league admins for the
tables of their leagues."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from chat import services
from chat.models import ChatMessage, ChatReport, ChatSuspension
from games import services as game_services
from leagues.models import League, Membership, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def league_table(alice, bob):
    """A table of the Club league, whose admin is Alice (staff)."""
    league = League.objects.create(name="Club", slug="club")
    for user in (alice, bob):
        Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)
    league.admins.add(alice)
    alice.is_staff = True
    alice.save()
    season = Season.objects.create(
        league=league, name="2026", starts_on=timezone.localdate() - datetime.timedelta(days=1)
    )
    table = game_services.table_create(user=bob, seats_count=2, options={}, season=season)
    return table


@pytest.fixture
def other_table(make_player):
    zoe = make_player("zoe", display_name="Zoé")
    return game_services.table_create(user=zoe, seats_count=2, options={})


@pytest.fixture
def root(client, make_player):
    client.force_login(make_player("root", is_staff=True, is_superuser=True))
    return client


def say(user, table, text):
    return services.chat_post(user=user, table_id=table.pk if table else None, text=text)


def changelist(model):
    return reverse(f"admin:chat_{model}_changelist")


def test_a_site_admin_hides_and_shows_a_message_again(root, bob, league_table):
    message = say(bob, league_table, "grossièreté")
    response = root.post(
        changelist("chatmessage"), {"action": "hide", "_selected_action": [message.pk]}
    )
    assert response.status_code == 302
    message.refresh_from_db()
    assert message.hidden and message.hidden_by.username == "root" and message.hidden_at
    page = root.get(reverse("admin:chat_chatmessage_change", args=[message.pk]))
    assert page.status_code == 200 and "grossièreté" in page.content.decode()
    listed = root.get(changelist("chatmessage"), {"hidden__exact": "1"}).content.decode()
    assert "grossièreté" in listed
    root.post(changelist("chatmessage"), {"action": "show", "_selected_action": [message.pk]})
    message.refresh_from_db()
    assert not message.hidden and message.hidden_by is None


def test_the_admin_lists_escape_what_players_wrote(root, bob, league_table):
    say(bob, league_table, "<script>alert(1)</script>")
    html = root.get(changelist("chatmessage")).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert(1)</script>" not in html


def test_a_league_admin_sees_the_chat_of_the_leagues_tables_only(
    client, alice, bob, league_table, other_table
):
    say(bob, league_table, "dans la ligue")
    say(other_table.created_by, other_table, "ailleurs")
    say(bob, None, "au salon")
    client.force_login(alice)
    html = client.get(changelist("chatmessage")).content.decode()
    assert "dans la ligue" in html
    assert "ailleurs" not in html and "au salon" not in html
    elsewhere = ChatMessage.objects.get(text="ailleurs")
    page = reverse("admin:chat_chatmessage_change", args=[elsewhere.pk])
    assert client.get(page).status_code in (302, 403, 404)


def test_a_league_admin_reviews_a_report_hides_suspends_and_resolves(
    client, alice, bob, league_table, make_player
):
    carol = make_player("carol")
    message = say(bob, league_table, "insulte")
    report = services.chat_report(user=carol, message=message)
    client.force_login(alice)
    html = client.get(changelist("chatreport"), {"status": "open"}).content.decode()
    assert "insulte" in html
    response = client.post(
        changelist("chatreport"),
        {"action": "suspend_for_a_day_and_resolve", "_selected_action": [report.pk]},
    )
    assert response.status_code == 302
    report.refresh_from_db()
    message.refresh_from_db()
    assert report.resolved_at and report.resolved_by == alice
    assert message.hidden
    suspension = ChatSuspension.objects.get(user=bob)
    assert suspension.created_by == alice
    assert suspension.until > timezone.now() + datetime.timedelta(hours=23)
    # Her suspensions are hers to see and lift; she adds none by hand.
    assert "bob" in client.get(changelist("chatsuspension")).content.decode().lower()
    assert client.get(reverse("admin:chat_chatsuspension_add")).status_code == 403
    with pytest.raises(services.ServiceError) as refused:
        say(bob, league_table, "encore")
    assert refused.value.code == "suspended"


def test_a_league_admin_sees_no_report_of_another_table(client, alice, other_table, make_player):
    carol = make_player("carol")
    message = say(other_table.created_by, other_table, "hors ligue")
    services.chat_report(user=carol, message=message)
    client.force_login(alice)
    league = League.objects.create(name="Mine", slug="mine")
    league.admins.add(alice)
    alice.is_staff = True
    alice.save()
    assert "hors ligue" not in client.get(changelist("chatreport")).content.decode()


def test_staff_who_run_no_league_see_no_chat(client, make_player, bob, league_table):
    say(bob, league_table, "rien")
    client.force_login(make_player("helper", is_staff=True))
    assert client.get(changelist("chatmessage")).status_code == 403
    assert client.get(changelist("chatreport")).status_code == 403


def test_a_site_admin_suspends_a_player_by_hand(root, bob):
    response = root.post(
        reverse("admin:chat_chatsuspension_add"),
        {"user": bob.pk, "until": "", "reason": "spam"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    suspension = ChatSuspension.objects.get(user=bob)
    assert suspension.until is None and suspension.created_by.username == "root"
    with pytest.raises(services.ServiceError) as refused:
        say(bob, None, "spam")
    assert refused.value.code == "suspended"
    assert not ChatMessage.objects.exists()


def test_hiding_a_reported_message_resolves_its_report(root, bob, league_table, make_player):
    message = say(bob, league_table, "à cacher")
    report = services.chat_report(user=make_player("carol"), message=message)
    root.post(
        changelist("chatreport"),
        {"action": "hide_and_resolve", "_selected_action": [report.pk]},
    )
    assert ChatMessage.objects.get(pk=message.pk).hidden
    assert ChatReport.objects.get(pk=report.pk).resolved_at is not None
    page = root.get(reverse("admin:chat_chatreport_change", args=[report.pk]))
    assert page.status_code == 200 and "à cacher" in page.content.decode()
