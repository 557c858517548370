"""Seeded games between bots, played through the public engine interface.

Each bot sees only `engine.view(state, seat)` of its own seat, exactly as on a table.

    report = simulate(players=4, games=200, bots=["expert", "random"], seed=1)
    print(format_report(report))
"""

import math
import statistics
import time
from dataclasses import dataclass, field

from games import engine

from . import get_bot


@dataclass
class SeatStats:
    bot: str
    wins: int = 0  # games won, alone or shared
    shared: int = 0  # of which shared with another seat
    heads: list[int] = field(default_factory=list)  # heads taken, one entry per round
    decisions: int = 0
    thinking: float = 0.0  # seconds spent in decide(), wall clock
    thinking_cpu: float = 0.0  # the same in CPU time of this process

    @property
    def mean_heads(self) -> float:
        return statistics.fmean(self.heads) if self.heads else 0.0

    @property
    def heads_ci95(self) -> float:
        """Half-width of the 95% confidence interval of the mean heads per round."""
        if len(self.heads) < 2:
            return math.nan
        return 1.96 * statistics.stdev(self.heads) / math.sqrt(len(self.heads))

    @property
    def mean_decision_ms(self) -> float:
        return 1000 * self.thinking / self.decisions if self.decisions else 0.0

    @property
    def mean_decision_cpu_ms(self) -> float:
        return 1000 * self.thinking_cpu / self.decisions if self.decisions else 0.0


@dataclass
class Report:
    players: int
    games: int
    seed: int
    options: dict
    seats: list[SeatStats]
    rounds: int = 0
    seconds: float = 0.0

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds else 0.0


def table_options(
    *, threshold: int | None = None, rounds: int | None = None, card_limit=False, draft=False
) -> dict:
    """Engine options from the command's flags: a fixed number of rounds wins over a threshold."""
    options = {"card_limit": card_limit, "deal": "draft" if draft else "random"}
    if rounds is not None:
        options.update(end="rounds", rounds=rounds)
    else:
        options.update(end="threshold", threshold=66 if threshold is None else threshold)
    return options


def seat_bots(bots: list[str], players: int) -> list[str]:
    """The bot of each seat: the list cycled to fill the table."""
    if not bots:
        raise ValueError("name at least one bot")
    return [bots[seat % len(bots)] for seat in range(players)]


def play_game(nimmt, players: int, options: dict, seed: int, bots: list, stats: list[SeatStats]):
    """Play one game to its end; returns the engine's result."""
    state = nimmt.new_game(players=players, options=options, seed=seed)
    while not nimmt.is_over(state):
        seat = nimmt.to_act(state)[0]
        view = nimmt.view(state, seat)
        started, started_cpu = time.perf_counter(), time.process_time()
        decision = bots[seat].decide(view)
        stats[seat].thinking += time.perf_counter() - started
        stats[seat].thinking_cpu += time.process_time() - started_cpu
        stats[seat].decisions += 1
        state, _ = nimmt.apply(state, seat, decision)
    return nimmt.result(state)


def simulate(
    *,
    players: int,
    games: int,
    bots: list[str],
    seed: int = 0,
    options: dict | None = None,
    on_game=None,
) -> Report:
    """Play `games` seeded games; `on_game(index, result)` is called after each."""
    nimmt = engine.nimmt  # the bots of this package play 6 qui prend !
    options = nimmt.normalize_options(options or {}, players)
    names = seat_bots(bots, players)
    for name in set(names):
        get_bot(name)  # an unknown name fails before any game is played
    report = Report(players, games, seed, options, [SeatStats(name) for name in names])
    started = time.perf_counter()
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        table = [get_bot(name, seed=game_seed * 31 + seat) for seat, name in enumerate(names)]
        result = play_game(nimmt, players, options, game_seed, table, report.seats)
        for seat in result["winners"]:
            report.seats[seat].wins += 1
            report.seats[seat].shared += len(result["winners"]) > 1
        for heads in result["rounds"]:
            for seat, taken in enumerate(heads):
                report.seats[seat].heads.append(taken)
        report.rounds += len(result["rounds"])
        if on_game is not None:
            on_game(index, result)
    report.seconds = time.perf_counter() - started
    return report


def format_report(report: Report) -> str:
    """The report as a plain-text table, one line per seat."""
    lines = [
        f"{report.games} games, {report.players} players, seed {report.seed}, "
        f"options {report.options}",
        f"{'seat':>4}  {'bot':<10} {'won':>5} {'shared':>6} {'win %':>6}  "
        f"{'heads/round (95% CI)':<22} {'decision ms':>11} {'cpu ms':>8}",
    ]
    for seat, stats in enumerate(report.seats):
        rate = 100 * stats.wins / report.games if report.games else 0.0
        heads = f"{stats.mean_heads:.2f} ± {stats.heads_ci95:.2f}"
        lines.append(
            f"{seat:>4}  {stats.bot:<10} {stats.wins:>5} {stats.shared:>6} {rate:>6.1f}  "
            f"{heads:<22} {stats.mean_decision_ms:>11.2f} {stats.mean_decision_cpu_ms:>8.2f}"
        )
    lines.append(
        f"{report.rounds} rounds in {report.seconds:.1f} s: "
        f"{report.rounds_per_second:.1f} rounds per second"
    )
    return "\n".join(lines)
