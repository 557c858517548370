"""Background work of the leagues, through Django's tasks API (the `django-tasks` backport).

`settings.TASKS` sends tasks to the database (`django-tasks-db`): `enqueue` writes a row in
the caller's transaction, and a worker process (`manage.py db_worker`, docs/deploy.md) runs
it. A task is in the queue, not in the web process that asked for it: it survives that
process's restart, and waits there while no worker runs.

A season's standings recompute (the admin starts one for a season of more than 2,000
games) keeps what the admin shows of it in its `StandingsRecompute` row: requested (in the
queue), started (running, with progress), finished, or failed with its error. The
recompute is one transaction, so a worker killed in the middle of it (kill -9, a crash,
the machine's restart) leaves nothing half-done, but cannot say it failed: its row stays
started and unfinished, and the package does not retry a task whose worker died. The rule
is therefore: **a recompute started more than `RECOMPUTE_TIMEOUT` seconds ago and not
finished lost its worker**: the admin shows it as failed and lets the season be
recomputed again (the demo league's 10,000 games take 7 s; the default is 30 minutes).
"""

import threading
from datetime import timedelta

from django.conf import settings
from django.db import connection, connections
from django.db.models import Q
from django.utils import timezone
from django_tasks import task

from leagues import ratings, services
from leagues.models import StandingsRecompute


@task()
def recompute_standings(job_pk: int) -> int:
    """The admin's background recompute: `recompute` for this StandingsRecompute row."""
    return recompute(StandingsRecompute.objects.select_related("season").get(pk=job_pk))


def start_recompute(season, games: int) -> StandingsRecompute:
    """Queue a recompute of `season` (`games` games) for a worker: its row, which the
    admin shows, and its task, both written in the caller's transaction (a worker sees the
    season's new settings, and nothing is lost if the web process stops right after)."""
    job = StandingsRecompute.objects.create(season=season, games_total=games)
    recompute_standings.enqueue(job.pk)
    return job


def recompute(job: StandingsRecompute) -> int:
    """Recompute the job's season from its score sheets, reporting progress to the job's row
    (what the task and `manage.py recompute_standings` run). Returns the number of games."""
    season = job.season
    job.games_total = services.season_games(season=season)
    job.started_at = timezone.now()
    job.save(update_fields=["games_total", "started_at"])
    try:
        games = services.season_recompute(season=season, progress=progress_writer(job))
    except Exception as error:
        job.error = f"{type(error).__name__}: {error}"[:2000]
        job.finished_at = timezone.now()
        job.save(update_fields=["error", "finished_at"])
        raise
    job.games_total = job.games_done = games
    job.finished_at = timezone.now()
    job.save(update_fields=["games_total", "games_done", "finished_at"])
    return games


# Progress: the recompute itself is one transaction (the season row stays locked, so no game
# enters half-way), so progress is written on a connection of its own, from a short-lived
# thread, where other processes can read it at once. SQLite allows one writer at a time, so
# there only the start and the end are written.


def _save_progress(job_pk: int, done: int) -> None:
    StandingsRecompute.objects.filter(pk=job_pk).update(games_done=done)


def _save_progress_apart(job_pk: int, done: int) -> None:
    """Write progress on another connection (Django gives each thread its own)."""

    def write():
        try:
            _save_progress(job_pk, done)
        finally:
            connections.close_all()  # this thread's connections only

    thread = threading.Thread(target=write, name="recompute-progress")
    thread.start()
    thread.join()


def progress_writer(job: StandingsRecompute):
    """How this process reports progress: apart from the recompute's transaction when other
    processes can see it, else in it (a caller's open transaction, as in tests, or SQLite)."""
    if connection.in_atomic_block:
        return lambda done, total: _save_progress(job.pk, done)
    if connection.vendor == "sqlite":
        return None
    return lambda done, total: _save_progress_apart(job.pk, done)


# --- a recompute whose worker died ---------------------------------------------------------------


def _lost_before():
    return timezone.now() - timedelta(seconds=settings.RECOMPUTE_TIMEOUT)


def is_lost(job: StandingsRecompute) -> bool:
    """Started, not finished, and for longer than RECOMPUTE_TIMEOUT: its worker died."""
    return (
        job.finished_at is None and job.started_at is not None and job.started_at < _lost_before()
    )


def under_way(season) -> StandingsRecompute | None:
    """The season's recompute waiting in the queue or running, if any (a lost one is not)."""
    return (
        season.standings_recomputes.filter(finished_at__isnull=True)
        .filter(Q(started_at__isnull=True) | Q(started_at__gte=_lost_before()))
        .first()
    )


# --- site ratings -------------------------------------------------------------------------------


@task()
def recompute_site_ratings(kind: str) -> int:
    """Rebuild the site ratings of the game `kind` from all its finished games
    (leagues.ratings.recompute): queued when a finished result changes."""
    return ratings.recompute(kind)


def start_site_recompute(kind: str) -> None:
    """Queue a rebuild of the site ratings of `kind`, in the caller's transaction (it runs
    once the change that asked for it is committed, and is lost with it if it rolls back)."""
    recompute_site_ratings.enqueue(kind)
