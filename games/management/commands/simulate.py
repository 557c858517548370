from django.core.management.base import BaseCommand, CommandError

from games import kinds
from games.bots.simulate import format_report, simulate, table_options
from games.engine import OptionsError


def _option(text: str) -> tuple[str, object]:
    """`name=value` of --option: a whole number, true/false, or text."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise CommandError(f"--option wants name=value, not {text!r}")
    if value.lstrip("-").isdigit():
        return name, int(value)
    return name, {"true": True, "false": False}.get(value.lower(), value)


class Command(BaseCommand):
    help = (
        "Play seeded games between bots and print, per seat, games won, mean points per "
        "round and per game (95% CI), decision time (mean and p95) in wall clock and in CPU "
        "time, and rounds per second. "
        "Points are heads for 6 qui prend ! and 6 qui surprend."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", default=kinds.default(), help="the game's kind")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument(
            "--bots",
            default="expert,random",
            help="comma-separated bots of the game, cycled to fill the seats",
        )
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="an engine option of the game (docs/engines.md), e.g. target=30",
        )
        # The shorthands of 6 qui prend !'s options.
        end = parser.add_mutually_exclusive_group()
        end.add_argument("--threshold", type=int, help="6 qui prend !: end at this total")
        end.add_argument("--rounds", type=int, help="6 qui prend !: end after this many rounds")
        parser.add_argument("--card-limit", action="store_true", help="only cards 1..10n+4")
        parser.add_argument("--draft", action="store_true", help="players draft their hands")

    def handle(self, *args, **opts):
        try:
            kind = kinds.get(opts["game"])
        except KeyError as error:
            raise CommandError(error.args[0]) from None
        bots = [name.strip() for name in opts["bots"].split(",") if name.strip()]
        unknown = [name for name in bots if name not in kind.bots]
        if not bots or unknown:
            known = ", ".join(kind.bots)
            raise CommandError(f"unknown bot(s) {unknown}; known bots: {known}")
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        options = dict(_option(text) for text in opts["option"])
        given = (opts["threshold"], opts["rounds"])
        if any(v is not None for v in given) or opts["card_limit"] or opts["draft"]:
            # Shorthands of the threshold/rounds game options; a game without them refuses
            # them (the engine's OptionsError, below).
            shorthands = table_options(
                threshold=opts["threshold"],
                rounds=opts["rounds"],
                card_limit=opts["card_limit"],
                draft=opts["draft"],
            )
            options = {**shorthands, **options}
        try:
            report = simulate(
                game=kind.name,
                players=opts["players"],
                games=opts["games"],
                bots=bots,
                seed=opts["seed"],
                options=options,
            )
        except OptionsError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(format_report(report))
