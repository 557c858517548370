"""Recompute a season's standings and ratings from its score sheets, showing progress.

    .venv/bin/python manage.py recompute_standings --season 12

The season admin queues the same work as a task when a large season's placement points
change (leagues.tasks, run by `manage.py db_worker`); this command runs it in the shell.
Progress goes to a `StandingsRecompute` row, which the season's admin page shows.
"""

from django.core.management.base import BaseCommand, CommandError

from leagues import tasks
from leagues.models import Season, StandingsRecompute


class Command(BaseCommand):
    help = "Recompute a season's standings and ratings from the score sheets of its games."

    def add_arguments(self, parser):
        parser.add_argument("--season", type=int, required=True, help="the season's id")
        parser.add_argument(
            "--job",
            type=int,
            help="the StandingsRecompute row to report progress to (else a new one)",
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
        games = tasks.recompute(job)
        self.stdout.write(f"{season}: standings recomputed from {games} games.")
