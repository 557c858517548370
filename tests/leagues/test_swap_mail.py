"""The night panel's swap mails the players it moves to another table (issue 32: "Swap
sends no mail"), as replacing and removing a player do; a swap within one table changes
only the order of play, and mails nobody."""

import datetime

import pytest
from django.core import mail
from django.urls import reverse

from leagues import services
from leagues.models import Evening

pytestmark = pytest.mark.django_db

SITE = "https://club.example.org"


@pytest.fixture(autouse=True)
def _site_url(settings):
    settings.SITE_URL = SITE


@pytest.fixture
def evening(season, alice, bob, carol, dave):
    """Four players at two tables of two; the seating's own mails already sent."""
    event = Evening.objects.create(
        season=season,
        date=datetime.date(2026, 12, 5),
        starts_at=datetime.time(20, 30),
        min_table_size=2,
        table_size=4,
        game_rounds=1,
    )
    event.players.set([alice, bob, carol, dave])
    return event


def seated(table) -> list[int]:
    return [seat.user_id for seat in table.seats.order_by("position")]


def seat_round(event, *, table_size: int):
    event.table_size = table_size
    event.save(update_fields=["table_size"])
    tables = services.seating_generate(event=event, seed=1)
    mail.outbox.clear()  # the seating's mails: not what these tests count
    return tables


def english(*users):
    for user in users:
        user.preferred_language = "en"
        user.save(update_fields=["preferred_language"])


def test_a_swap_across_tables_mails_both_players_their_new_table(
    evening, alice, bob, carol, dave, django_capture_on_commit_callbacks
):
    english(alice, bob, carol, dave)
    first, second = seat_round(evening, table_size=2)
    a, b = seated(first)[0], seated(second)[1]
    with django_capture_on_commit_callbacks(execute=True):
        services.night_swap(
            event=evening,
            first=(first.evening_slot.pk, a),
            second=(second.evening_slot.pk, b),
        )
    by_email = {message.to[0]: message for message in mail.outbox}
    users = {u.pk: u for u in (alice, bob, carol, dave)}
    assert len(mail.outbox) == 2 and set(by_email) == {users[a].email, users[b].email}
    # Each reads their new table: its link, and who sits there now.
    for user_id, table in ((a, second), (b, first)):
        body = by_email[users[user_id].email].body
        assert SITE + reverse("table", args=[table.pk]) in body
        (other,) = [pk for pk in seated(table) if pk != user_id]
        assert users[other].shown_name in body
        assert "on 5 Dec 2026 at 20:30" in body
    assert by_email[users[a].email].subject.endswith(f"table {second.evening_slot.number}")


def test_a_swap_within_one_table_mails_nobody(
    evening, alice, bob, carol, dave, django_capture_on_commit_callbacks
):
    (table,) = seat_round(evening, table_size=4)
    a, b = seated(table)[0], seated(table)[2]
    slot = table.evening_slot.pk
    with django_capture_on_commit_callbacks(execute=True):
        services.night_swap(event=evening, first=(slot, a), second=(slot, b))
    assert seated(table)[0] == b and seated(table)[2] == a
    assert mail.outbox == []


def test_a_refused_swap_mails_nobody(evening, django_capture_on_commit_callbacks):
    first, second = seat_round(evening, table_size=2)
    services.night_start(event=evening, slot_ids=[second.evening_slot.pk])
    mail.outbox.clear()
    a, b = seated(first)[0], seated(second)[0]
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(services.LeagueError),
    ):
        services.night_swap(
            event=evening,
            first=(first.evening_slot.pk, a),
            second=(second.evening_slot.pk, b),
        )
    assert callbacks == [] and mail.outbox == []
    assert seated(first)[0] == a


def test_a_player_who_turned_seating_mails_off_is_not_mailed_for_a_swap(
    evening, django_capture_on_commit_callbacks
):
    first, second = seat_round(evening, table_size=2)
    a, b = seated(first)[0], seated(second)[0]
    quiet, mailed = first.seats.get(user_id=a).user, second.seats.get(user_id=b).user
    quiet.notify_seated = False
    quiet.save(update_fields=["notify_seated"])
    with django_capture_on_commit_callbacks(execute=True):
        services.night_swap(
            event=evening,
            first=(first.evening_slot.pk, a),
            second=(second.evening_slot.pk, b),
        )
    assert [message.to for message in mail.outbox] == [[mailed.email]]


def test_the_night_panels_swap_mails_the_players_it_moves(
    client, evening, alice, django_capture_on_commit_callbacks
):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    client.force_login(alice)
    first, second = seat_round(evening, table_size=2)
    a, b = seated(first)[1], seated(second)[1]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:leagues_evening_night", args=[evening.pk]),
            {
                "night": "swap:1",
                "swap_a_1": f"{first.evening_slot.pk}:{a}",
                "swap_b_1": f"{second.evening_slot.pk}:{b}",
            },
        )
    assert response.status_code == 302
    assert seated(first)[1] == b and seated(second)[1] == a
    assert len(mail.outbox) == 2
    page = client.get(response.url, headers={"accept-language": "en"}).content.decode()
    assert "each is mailed their new table" in page
