from django.core.management.base import BaseCommand, CommandError

from games import kinds
from games.bots.simulate import format_report, simulate, table_options
from games.engine import OptionsError

BOTS = kinds.NIMMT.bots


class Command(BaseCommand):
    help = (
        "Play seeded games of 6 qui prend ! between bots and print, per seat, games won, "
        "mean heads per round (95% CI), mean decision time, and rounds per second."
    )

    def add_arguments(self, parser):
        # The bots and options below are 6 qui prend !'s, the game this command plays.
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument(
            "--bots",
            default="expert,random",
            help=f"comma-separated, cycled to fill the seats; known: {', '.join(BOTS)}",
        )
        parser.add_argument("--seed", type=int, default=0)
        end = parser.add_mutually_exclusive_group()
        end.add_argument("--threshold", type=int, help="end at this total (default 66)")
        end.add_argument("--rounds", type=int, help="end after this many rounds instead")
        parser.add_argument("--card-limit", action="store_true", help="only cards 1..10n+4")
        parser.add_argument("--draft", action="store_true", help="players draft their hands")

    def handle(self, *args, **opts):
        bots = [name.strip() for name in opts["bots"].split(",") if name.strip()]
        unknown = [name for name in bots if name not in BOTS]
        if not bots or unknown:
            raise CommandError(f"unknown bot(s) {unknown}; known bots: {', '.join(BOTS)}")
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        options = table_options(
            threshold=opts["threshold"],
            rounds=opts["rounds"],
            card_limit=opts["card_limit"],
            draft=opts["draft"],
        )
        try:
            report = simulate(
                players=opts["players"],
                games=opts["games"],
                bots=bots,
                seed=opts["seed"],
                options=options,
            )
        except OptionsError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(format_report(report))
