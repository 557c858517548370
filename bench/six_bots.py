"""Six bots against each other: points, wins and decision times (issue 23).

    .venv/bin/python bench/six_bots.py --bots six_expert,six_random,six_random,six_random \
        --games 500 [--players 4] [--seed 0] [--option target=30] [--minutes 15]

Seeded games played through the engine's public interface (new_game, to_act, view,
apply, is_over, result); each bot sees only its own seat's view. The bots are cycled to
fill the seats, and games and bots are seeded exactly as `games.bots.simulate` seeds them,
so once the Six bots are registered in games/kinds.py,
`manage.py simulate --game six --bots ... --games N --seed S --option target=30` plays
the same games. Prints, per seat, games won, points per hand and per game (95% CI), mean
and p95 decision time (wall clock) and mean CPU time; then per bot its win share with
its 95% CI and its CPU time per decision (time.process_time), mean and p95.
`--minutes` stops early after that much time and reports how many games were played.
"""

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots.simulate import Report, SeatStats, format_report, play_game, seat_bots  # noqa: E402
from games.six import engine as six  # noqa: E402
from games.six.bots import BOTS  # noqa: E402


def option(text: str) -> tuple[str, object]:
    name, _, value = text.partition("=")
    if value.lstrip("-").isdigit():
        return name, int(value)
    return name, {"true": True, "false": False}.get(value.lower(), value)


class Timed:
    """A bot whose decisions are timed in CPU seconds of this process (time.process_time)."""

    def __init__(self, bot):
        self.bot = bot
        self.cpu = []

    def decide(self, view):
        started = time.process_time()
        decision = self.bot.decide(view)
        self.cpu.append(time.process_time() - started)
        return decision


def play_games(engine, registry, bots, players, games, seed, options, minutes=None, watch=None):
    """Seeded games as games.bots.simulate plays them; (report, CPU seconds per decision
    of each seat)."""
    names = seat_bots(bots, players)
    report = Report(engine.KIND, players, 0, seed, options, [SeatStats(n) for n in names])
    cpu = [[] for _ in names]
    started = time.perf_counter()
    for index in range(games):
        if minutes is not None and time.perf_counter() - started > 60 * minutes:
            break
        game_seed = seed * 1_000_003 + index  # as games.bots.simulate
        table = [
            Timed(registry[name](seed=game_seed * 31 + seat)) for seat, name in enumerate(names)
        ]
        result = play_game(engine, players, options, game_seed, table, report.seats, watch)
        for seat, timed in enumerate(table):
            cpu[seat] += timed.cpu
        for seat in result["winners"]:
            report.seats[seat].wins += 1
            report.seats[seat].shared += len(result["winners"]) > 1
        for points in result["rounds"]:
            for seat, gained in enumerate(points):
                report.seats[seat].heads.append(gained)
        for seat, total in enumerate(result["totals"]):
            report.seats[seat].totals.append(total)
        report.rounds += len(result["rounds"])
        report.games += 1
    report.seconds = time.perf_counter() - started
    return report, cpu


def run(bots, players, games, seed, options, minutes=None):
    options = six.normalize_options(options, players)
    return play_games(six, BOTS, bots, players, games, seed, options, minutes)


def per_bot(report: Report, cpu) -> str:
    """Each bot over all its seats: points per game (95% CI), win share (95% CI, normal
    approximation; a shared win counts as a win), CPU ms per decision (mean, p95)."""
    lines = [
        f"{'bot':<18} {'seats':>5} {'points/game (95% CI)':<22} {'win % (95% CI)':<16} "
        f"{'cpu mean ms':>11} {'cpu p95 ms':>10}"
    ]
    for name in dict.fromkeys(stats.bot for stats in report.seats):
        seats = [seat for seat, stats in enumerate(report.seats) if stats.bot == name]
        totals = [total for seat in seats for total in report.seats[seat].totals]
        times = sorted(spent for seat in seats for spent in cpu[seat])
        half = 1.96 * statistics.stdev(totals) / math.sqrt(len(totals)) if len(totals) > 1 else 0
        tries = len(seats) * report.games
        share = sum(report.seats[seat].wins for seat in seats) / tries
        share_half = 1.96 * math.sqrt(share * (1 - share) / tries)
        mean_ms = 1000 * statistics.fmean(times) if times else 0.0
        p95_ms = 1000 * times[max(0, math.ceil(0.95 * len(times)) - 1)] if times else 0.0
        lines.append(
            f"{name:<18} {len(seats):>5} {statistics.fmean(totals):>8.2f} ± {half:<11.2f} "
            f"{100 * share:>5.1f} ± {100 * share_half:<7.1f} {mean_ms:>11.2f} {p95_ms:>10.2f}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", default="six_expert,six_random,six_random,six_random")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--minutes", type=float, help="stop after this long")
    args = parser.parse_args()
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in bots if name not in BOTS]
    if unknown:
        parser.error(f"unknown bot(s) {unknown}; known: {', '.join(BOTS)}")
    options = dict(option(text) for text in args.option)
    report, cpu = run(bots, args.players, args.games, args.seed, options, args.minutes)
    print(format_report(report))
    print(per_bot(report, cpu))


if __name__ == "__main__":
    main()
