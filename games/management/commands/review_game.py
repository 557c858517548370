import time

from django.core.management.base import BaseCommand, CommandError

from games import reviews
from games.models import Game


class Command(BaseCommand):
    help = (
        "Compute (again) the post-game review of finished tables' games, as the task does "
        "when a game ends: for games that ended before reviews existed."
    )

    def add_arguments(self, parser):
        parser.add_argument("table_ids", nargs="+", type=int, metavar="table_id")

    def handle(self, *args, table_ids, **options):
        for table_id in table_ids:
            game = Game.objects.select_related("table").filter(table_id=table_id).first()
            if game is None or not reviews.reviewable(game):
                raise CommandError(f"table {table_id} has no finished game played at the table")
            started = time.process_time()
            done = reviews.review_game(game)
            spent = time.process_time() - started
            self.stdout.write(
                f"table {table_id}: {len(done)} seat(s) reviewed in {spent:.1f} s of CPU"
            )
