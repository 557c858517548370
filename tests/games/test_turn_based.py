"""Turn-based tables (issue 34, RULES §1.8): hours per decision, a mail when a decision
waits for a player (or a daily digest), the fallback when a deadline passes, no presence,
and "My games", waiting tables first."""

import datetime
import io

import pytest
from django.core import mail, management
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from games import clock, engine, selectors, services, turn_mails
from games.forms import TableForm
from games.models import Decision, DigestDay, Game, Seat, Table

pytestmark = pytest.mark.django_db
nimmt = engine.get("nimmt")
HOURS_48 = 48 * 3600
LATE = datetime.timedelta(hours=49)


def turn_based_table(creator, *others, seats=None, hours=48):
    table = services.table_create(
        user=creator,
        seats_count=seats or 1 + len(others),
        options={"end": "rounds", "rounds": 1},
        time_limit=hours * 3600,
    )
    for other in others:
        services.seat_join(table_id=table.pk, user=other)
    return table


def state_of(table):
    return nimmt.load(Game.objects.get(table=table).state)


def decide_for(table, user, position):
    """The player's own decision: her lowest card, or the first row."""
    state = state_of(table)
    decision = nimmt.legal(state, position)[0]
    services.game_decide(table_id=table.pk, user=user, decision=decision)


def deadline_passes(table):
    """48 hours and more go by: the clock finds the deadline passed."""
    late = timezone.now() - LATE
    Game.objects.filter(table=table).update(point_started_at=late, deadline=late)
    assert clock.tick() >= 1


def mails_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def first_listed(user):
    return selectors.my_games(user)["current"][0]


def test_a_turn_based_game_is_played_to_its_end_with_mails_digest_and_fallback(
    alice, bob, make_player
):
    carol = make_player("carol", display_name="Carol", turn_mails="none")
    bob.turn_mails = "digest"
    bob.save()
    table = turn_based_table(alice, bob, carol)
    services.table_start(table_id=table.pk, user=alice)
    # A newer table of Alice's: "My games" lists it first unless the game waits for her.
    services.table_create(user=alice, seats_count=2, options={})
    # Bob's second turn-based table, against a bot: his digest groups both.
    other = turn_based_table(bob, seats=2, hours=24)
    services.seat_add_bot(table_id=other.pk, user=bob, bot="random")
    services.table_start(table_id=other.pk, user=bob)
    users = {seat.position: seat.user for seat in Seat.objects.filter(table=table)}
    position = {user.pk: seat for seat, user in users.items()}

    points = carol_late = 0
    while not nimmt.is_over(state := state_of(table)):
        points += 1
        awaited = [users[seat] for seat in nimmt.to_act(state)]
        # Carol lets two deadlines in a row pass, now and then.
        carol_waits = points % 4 in (1, 2)
        if alice in awaited:
            assert first_listed(alice)["table"] == table
            assert first_listed(alice)["waiting_since"] is not None
        if points == 2:
            # Once, mid-game: Bob's digest lists every table waiting for him, in one mail.
            assert turn_mails.send_digests() == 1
            (digest,) = mails_to(bob)
            assert str(other) in digest.body
            assert (str(table) in digest.body) == (bob in awaited)
            assert "http://127.0.0.1:8000" + reverse("my_games") in digest.body
        for user in awaited:
            if user == carol and carol_waits:
                continue
            decide_for(table, user, position[user.pk])
            if user == alice and not nimmt.is_over(state_of(table)):
                # Her decision made, the game waits for others: listed after the newer table.
                still = [users[seat] for seat in nimmt.to_act(state_of(table))]
                assert (first_listed(alice)["table"] == table) == (alice in still)
        still = [users[seat] for seat in nimmt.to_act(state_of(table))]
        if carol in still and carol_waits:
            deadline_passes(table)
            carol_late += 1

    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
    decisions = Decision.objects.filter(game__table=table)
    # A missed deadline is played by the fallback, and marks nobody away.
    assert decisions.filter(seat=position[carol.pk], source="timeout").count() == carol_late >= 2
    assert not Seat.objects.get(table=table, user=carol).away
    # One mail per decision that waited for Alice, with a link straight to the table.
    alice_mails = mails_to(alice)
    assert len(alice_mails) == decisions.filter(seat=position[alice.pk]).count() > 5
    link = "http://127.0.0.1:8000" + table.get_absolute_url()
    assert all(link in m.body for m in alice_mails)
    # None for Carol, who turned them off; Bob, who chose the digest, only his digest.
    assert mails_to(carol) == []
    assert len(mails_to(bob)) == 1
    # The game over, nothing waits for anyone any more.
    assert not Seat.objects.filter(table=table, awaited_since__isnull=False).exists()
    finished = selectors.my_games(alice)["finished"]
    assert finished[0]["table"] == table


def test_a_decision_is_mailed_once_even_if_its_task_runs_again(alice, bob):
    table = turn_based_table(alice, bob)
    services.table_start(table_id=table.pk, user=alice)
    seat = Seat.objects.get(table=table, user=alice)
    assert len(mails_to(alice)) == 1
    assert turn_mails.send_decision_mail(seat_id=seat.pk, since=seat.awaited_since) == 0
    assert len(mails_to(alice)) == 1


def test_with_a_queue_that_can_wait_the_mail_goes_later_and_not_to_who_decided_meanwhile(
    alice, bob, settings
):
    """A decision's mail waits SIXCLUB_TURN_MAIL_DELAY in the database queue: a player who
    decides at once (playing live at a turn-based table) is not mailed; one still awaited is."""
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.SIXCLUB_TURN_MAIL_DELAY = 300
    table = turn_based_table(alice, bob)
    services.table_start(table_id=table.pk, user=alice)
    queued = list(DBTaskResult.objects.filter(task_path="games.tasks.mail_decision"))
    assert len(queued) == 2
    since = Seat.objects.get(table=table, user=alice).awaited_since
    assert {task.run_after for task in queued} == {since + datetime.timedelta(seconds=300)}
    decide_for(table, alice, Seat.objects.get(table=table, user=alice).position)
    # The queue runs them once their time comes: Alice has decided, Bob has not.
    for task in queued:
        seat_id, iso = task.args_kwargs["args"]
        turn_mails.send_decision_mail(seat_id=seat_id, since=datetime.datetime.fromisoformat(iso))
    assert mails_to(alice) == [] and len(mails_to(bob)) == 1


def test_the_mail_says_the_deadline_and_the_table_in_the_players_language(alice, bob):
    alice.preferred_language = "en"
    alice.save()
    bob.preferred_language = "fr"
    bob.save()
    table = turn_based_table(alice, bob)
    services.table_start(table_id=table.pk, user=alice)
    (message,) = mails_to(alice)
    assert str(table) in message.subject
    seat = Seat.objects.get(table=table, user=alice)
    deadline = seat.awaited_since + datetime.timedelta(hours=48)
    assert Game.objects.get(table=table).deadline == deadline
    assert "Hello Alice" in message.body
    assert reverse("profile_edit") in message.body
    (french,) = mails_to(bob)
    assert french.body.startswith("Bonjour Bob,")


def test_presence_does_not_apply_to_turn_based_tables(alice, bob, settings):
    table = turn_based_table(alice, bob)
    services.table_start(table_id=table.pk, user=alice)
    open_table = turn_based_table(alice, seats=2)
    long_ago = timezone.now() - datetime.timedelta(days=3)
    Seat.objects.update(seen_at=long_ago)
    Table.objects.filter(pk=open_table.pk).update(created_at=long_ago)
    Game.objects.filter(table=table).update(started_at=long_ago)
    assert services.presence_sweep() == {"away": 0, "open_abandoned": 0, "games_ended": 0}
    assert not Seat.objects.filter(table=table, away=True).exists()
    assert Table.objects.get(pk=open_table.pk).status == Table.Status.OPEN
    # No time bank either: the limit is the deadline.
    game = Game.objects.get(table=table)
    seat = Seat.objects.get(table=table, user=alice)
    assert seat.bank == 0
    assert services.seat_deadline(game, table, seat) == game.point_started_at + datetime.timedelta(
        hours=48
    )


def test_a_live_decision_writes_nothing_of_turn_based_play(alice, bob):
    table = services.table_create(
        user=alice, seats_count=2, options={"end": "rounds", "rounds": 1}, time_limit=30
    )
    services.seat_join(table_id=table.pk, user=bob)
    services.table_start(table_id=table.pk, user=alice)
    with CaptureQueriesContext(connection) as queries:
        decide_for(table, alice, 0)
    assert not [q for q in queries if 'UPDATE "games_seat"' in q["sql"]]
    assert mail.outbox == []
    assert not Seat.objects.filter(awaited_since__isnull=False).exists()
    # The hand asks its seat's table whether it is turn-based: a seat read with its table's
    # seats holds that table already, so the frame costs no query more.
    assert all(Seat.table.is_cached(seat) for seat in table.seats.named())


def test_the_lobby_offers_turn_based_limits_in_their_own_group(alice):
    form = TableForm(user=alice)
    groups = [
        label for label, choices in form.fields["time_limit"].choices if isinstance(choices, list)
    ]
    with translation.override("en"):  # whatever language an earlier test left active
        assert [str(label) for label in groups] == ["Turn-based"]
    page = _client(alice).get(reverse("lobby")).content.decode()
    assert '<optgroup label="Turn-based">' in page
    assert '<option value="172800">48 hours</option>' in page


def test_a_turn_based_table_says_so_with_its_deadline_as_a_date(alice, bob):
    client = _client(alice)
    response = client.post(
        reverse("lobby"),
        {
            "kind": "nimmt",
            "name": "By mail",
            "seats_count": "2",
            "end": "rounds",
            "threshold": "66",
            "rounds": "1",
            "deal": "random",
            "time_limit": "172800",
            "is_public": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    table = Table.objects.get(created_by=alice)
    assert table.turn_based and table.time_limit == HOURS_48
    services.seat_join(table_id=table.pk, user=bob)
    lobby = _client(bob).get(reverse("lobby")).content.decode()
    assert "Turn-based: 48 h per decision" in lobby
    services.table_start(table_id=table.pk, user=alice)
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Turn-based: 48 h per decision" in page
    deadline = timezone.localtime(Game.objects.get(table=table).deadline)
    assert str(deadline.year) in page
    assert "data-countdown" not in page


def test_my_games_lists_waiting_tables_first_and_the_bar_counts_them(alice, bob):
    older = turn_based_table(alice, bob)
    services.table_start(table_id=older.pk, user=alice)
    services.table_create(user=alice, seats_count=2, options={})
    page = _client(alice).get(reverse("my_games")).content.decode()
    first = page.index('class="table-item my-game')
    assert f'data-table="{older.pk}"' in page[first : first + 200]
    assert 'aria-label="My games, 1 waiting"' in page
    assert '<span class="badge nav-count" aria-hidden="true">1</span>' in page
    assert _client(alice).get(reverse("my_games")).status_code == 200
    assert Client().get(reverse("my_games")).status_code == 302


def test_the_nav_count_costs_one_query(alice, bob):
    table = turn_based_table(alice, bob)
    services.table_start(table_id=table.pk, user=alice)
    with CaptureQueriesContext(connection) as queries:
        assert selectors.waiting_count(alice) == 1
    assert len(queries) == 1


def test_the_digest_is_queued_once_a_day_from_its_hour(alice, bob, settings):
    settings.SIXCLUB_DIGEST_HOUR = 18
    alice.turn_mails = "digest"
    alice.save()
    table = turn_based_table(alice, bob)
    services.table_start(table_id=table.pk, user=alice)
    assert mails_to(alice) == []
    day = timezone.localtime().replace(hour=17, minute=59)
    assert not turn_mails.digest_due(day)
    evening = day.replace(hour=18, minute=0)
    assert turn_mails.digest_due(evening)
    assert not turn_mails.digest_due(evening + datetime.timedelta(hours=1))
    assert DigestDay.objects.count() == 1
    assert len(mails_to(alice)) == 1
    management.call_command("turn_digest", stdout=io.StringIO())
    assert len(mails_to(alice)) == 2


def test_the_profile_chooses_how_turns_are_told(alice):
    client = _client(alice)
    page = client.get(reverse("profile_edit")).content.decode()
    assert 'name="turn_mails"' in page
    response = client.post(
        reverse("profile_edit"),
        {"display_name": "Alice", "preferred_language": "", "turn_mails": "digest"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.turn_mails == "digest"


def _client(user):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client
