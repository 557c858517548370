"""Recompute a season's standings and ratings from its score sheets, showing progress.

    .venv/bin/python manage.py recompute_standings --season 12

The season admin starts it as a background process when a large season's placement points
change (leagues.admin); it works the same from the shell. Progress goes to a
`StandingsRecompute` row, which the season's admin page shows: the recompute itself is
one transaction (the season row stays locked, so no game enters half-way), so progress is
written on a connection of its own, from a short-lived thread, where other processes can
read it at once. SQLite allows one writer at a time, so there only the start and the end
are written.
"""

import threading

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections
from django.utils import timezone

from leagues import services
from leagues.models import Season, StandingsRecompute


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


class Command(BaseCommand):
    help = "Recompute a season's standings and ratings from the score sheets of its games."

    def add_arguments(self, parser):
        parser.add_argument("--season", type=int, required=True, help="the season's id")
        parser.add_argument(
            "--job",
            type=int,
            help="the StandingsRecompute row to report progress to (the admin makes one)",
        )

    def handle(self, *args, season, job=None, **options):
        try:
            season = Season.objects.get(pk=season)
        except Season.DoesNotExist:
            raise CommandError(f"No season with id {season}.") from None
        if job is None:
            job = StandingsRecompute.objects.create(season=season)
        else:
            try:
                job = StandingsRecompute.objects.get(pk=job, season=season)
            except StandingsRecompute.DoesNotExist:
                raise CommandError(f"No recompute {job} for season {season.pk}.") from None
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
        self.stdout.write(f"{season}: standings recomputed from {games} games.")
