"""Background work through the task queue (leagues/tasks.py): league mails and standings
recomputes are queued in the database and run by the worker (`manage.py db_worker`, run
here in the test's process); a recompute whose worker died is shown as failed, not running.

The worker process itself, killed in the middle of a recompute: tests/live/test_worker.py.
"""

import datetime

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from leagues import services
from leagues.models import Standing, StandingsRecompute

from .conftest import finished_game

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def run_worker():
    """What `manage.py db_worker` does, once for every task waiting."""
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)


@pytest.fixture
def club_admin(client, alice, club):
    alice.is_staff = True
    alice.save()
    client.force_login(alice)
    return client


@pytest.fixture
def zoe(make_player):
    return make_player("zoe", display_name="Zoé")


@pytest.mark.django_db(transaction=True)  # the worker runs outside a test transaction
def test_league_mails_wait_in_the_queue_for_the_worker(settings, club, alice, zoe):
    settings.TASKS = DATABASE_TASKS
    services.membership_request(league=club, user=zoe)
    queued = DBTaskResult.objects.get()
    assert queued.task_path == "leagues.notify.send_mails" and queued.status == "READY"
    assert mail.outbox == []  # the request did not wait for the mail server
    run_worker()
    assert [message.to for message in mail.outbox] == [[alice.email]]
    assert "Zoé" in mail.outbox[0].subject
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


def test_the_recompute_command_does_the_tasks_work_in_the_shell(season, alice, bob):
    finished_game(season, [alice, bob], [[1, 5]])
    season.placement_points = "10,4"
    season.save(update_fields=["placement_points"])
    call_command("recompute_standings", season=season.pk)
    job = StandingsRecompute.objects.get(season=season)
    assert job.finished_at is not None and job.games_done == 1 and not job.error
    assert dict(Standing.objects.values_list("user__username", "points")) == {
        "alice": 10,
        "bob": 4,
    }


def _background(settings):
    settings.SIXCLUB_RECOMPUTE_IN_REQUEST = 1


def test_a_recompute_whose_worker_died_is_shown_failed_and_can_start_again(
    club_admin, season, alice, bob, carol, settings
):
    settings.TASKS = DATABASE_TASKS
    settings.RECOMPUTE_TIMEOUT = 600
    _background(settings)
    finished_game(season, [alice, bob, carol], [[1, 5, 9]])
    finished_game(season, [alice, bob, carol], [[7, 2, 9]])
    # A worker took it 11 minutes ago, then was killed: started, never finished.
    started = timezone.now() - datetime.timedelta(minutes=11)
    job = StandingsRecompute.objects.create(season=season, games_total=2, started_at=started)
    page = reverse("admin:leagues_season_change", args=[season.pk])
    shown = club_admin.get(page).content.decode()
    assert "Failed: its worker stopped before the end" in shown and "Running" not in shown
    data = {"action": "recompute_standings", "_selected_action": [season.pk]}
    response = club_admin.post(reverse("admin:leagues_season_changelist"), data, follow=True)
    assert "being recomputed in the background" in response.content.decode()
    again = StandingsRecompute.objects.exclude(pk=job.pk).get(season=season)
    assert DBTaskResult.objects.get().args_kwargs["args"] == [again.pk]
    assert "Waiting to start (2 games)." in club_admin.get(page).content.decode()


def test_a_recompute_running_within_its_time_is_running(
    club_admin, season, alice, bob, carol, settings
):
    settings.TASKS = DATABASE_TASKS
    settings.RECOMPUTE_TIMEOUT = 600
    _background(settings)
    finished_game(season, [alice, bob, carol], [[1, 5, 9]])
    finished_game(season, [alice, bob, carol], [[7, 2, 9]])
    started = timezone.now() - datetime.timedelta(minutes=9)
    StandingsRecompute.objects.create(
        season=season, games_total=2, games_done=1, started_at=started
    )
    page = reverse("admin:leagues_season_change", args=[season.pk])
    assert "Running: 1 of 2 games recomputed." in club_admin.get(page).content.decode()
    data = {"action": "recompute_standings", "_selected_action": [season.pk]}
    response = club_admin.post(reverse("admin:leagues_season_changelist"), data, follow=True)
    assert "already under way" in response.content.decode()
    assert not DBTaskResult.objects.exists()
