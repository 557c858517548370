"""Rebuild the site ratings from every finished game, at once (leagues.ratings.recompute):

    .venv/bin/python manage.py site_ratings            # every game
    .venv/bin/python manage.py site_ratings --kind KIND   # one game (games.kinds)

A league admin's correction or void queues the same work for the worker
(leagues.tasks.recompute_site_ratings); this command runs it in the shell.
"""

from django.core.management.base import BaseCommand, CommandError

from games import kinds
from leagues import ratings


class Command(BaseCommand):
    help = "Rebuild the site ratings of a game (or of every game) from its finished games."

    def add_arguments(self, parser):
        parser.add_argument("--kind", help="a game (games.kinds); else every game")

    def handle(self, *args, kind=None, **options):
        names = [game.name for game in kinds.registered()]
        if kind is not None and kind not in names:
            raise CommandError(f"No game {kind!r}: {', '.join(names)}.")
        for name in [kind] if kind else names:
            games = ratings.recompute(name)
            self.stdout.write(f"{name}: site ratings rebuilt from {games} games.")
