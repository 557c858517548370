"""Seeded games of 6 qui surprend between bots, through the engine's public interface.

    .venv/bin/python bench/surprise_bots.py --games 800 \
        --bots surprise_expert surprise_heuristic surprise_heuristic surprise_heuristic

The bots are named in seat order and cycled to fill the table (`--bots A B B B`: one A
against three B). Games and bots are seeded as `manage.py simulate --game surprise`
seeds them, so both play the same games. Prints per seat wins, heads per round and per
game (mean ± 95 % CI) and decision time, then per bot its win share with its 95 % CI and
its CPU time per decision (time.process_time), mean and p95. `--usage` adds, for each
special, how often each bot used it and the heads it saved on average (how "saved" is
measured: games/surprise/bots/usage.py; it replays turns, so the games differ).
`--expert NAME=VALUE` sets a constant of games/surprise/bots/expert.py for the run.
"""

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from bench.six_bots import option, per_bot, play_games  # noqa: E402
from games.bots.simulate import format_report, seat_bots  # noqa: E402
from games.surprise import engine as surprise  # noqa: E402
from games.surprise.bots import BOTS, expert  # noqa: E402
from games.surprise.bots.usage import SpecialUsage  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", nargs="+", default=["surprise_expert", *["surprise_random"] * 3])
    parser.add_argument("--minutes", type=float, help="stop after this long")
    parser.add_argument("--usage", action="store_true", help="watch the specials' use")
    parser.add_argument("--expert", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()
    for name, value in map(option, args.expert):
        if not hasattr(expert, name):
            parser.error(f"games/surprise/bots/expert.py has no {name}")
        setattr(expert, name, value)
    options = surprise.normalize_options({}, args.players)
    watch = SpecialUsage(seat_bots(args.bots, args.players)) if args.usage else None
    report, cpu = play_games(
        surprise, BOTS, args.bots, args.players, args.games, args.seed, options, args.minutes, watch
    )
    if watch is not None:
        report.extra = watch.report()
    print(format_report(report))
    print(per_bot(report, cpu))


if __name__ == "__main__":
    main()
