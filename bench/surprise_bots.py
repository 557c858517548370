"""Seeded games of 6 qui surprend between bots, through the engine's public interface.

    .venv/bin/python bench/surprise_bots.py --games 200 --bots surprise_expert surprise_random

The bots are named in seat order and cycled to fill the table (`--bots A B B B`: one A
against three B). The same as `manage.py simulate --game surprise`: per seat, wins,
heads per round and per game (mean ± 95 % CI), decision time (mean and p95), then for
each special how often each bot used it and the heads it saved on average (how "saved"
is measured: games/surprise/bots/usage.py).
"""

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from games.bots.simulate import format_report, simulate  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", nargs="+", default=["surprise_expert", *["surprise_random"] * 3])
    args = parser.parse_args()
    report = simulate(
        game="surprise", players=args.players, games=args.games, bots=args.bots, seed=args.seed
    )
    print(format_report(report))


if __name__ == "__main__":
    main()
