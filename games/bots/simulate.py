"""Seeded games between bots, played through the public engine interface, for any game.

Each bot sees only `engine.view(state, seat)` of its own seat, exactly as on a table.

    report = simulate(game=table.kind, players=4, games=200, bots=["expert", "random"])
    print(format_report(report))

A game's points are its engine's `result` (RULES §4), in the game's own unit.
"""

import math
import statistics
import time
from dataclasses import dataclass, field

from games import engine

from . import get_bot


def _p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


@dataclass
class SeatStats:
    bot: str
    wins: int = 0  # games won, alone or shared
    shared: int = 0  # of which shared with another seat
    heads: list[int] = field(default_factory=list)  # points (heads), one entry per round
    totals: list[int] = field(default_factory=list)  # points, one entry per game
    decisions: int = 0
    thinking: float = 0.0  # seconds spent in decide(), wall clock
    times: list[float] = field(default_factory=list)  # each decide(), in seconds
    thinking_cpu: float = 0.0  # the same in CPU time of this process
    cpu_times: list[float] = field(default_factory=list)  # each decide(), CPU seconds

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
    def mean_total(self) -> float:
        return statistics.fmean(self.totals) if self.totals else 0.0

    @property
    def total_ci95(self) -> float:
        """Half-width of the 95% confidence interval of the mean points per game."""
        if len(self.totals) < 2:
            return math.nan
        return 1.96 * statistics.stdev(self.totals) / math.sqrt(len(self.totals))

    @property
    def p95_decision_ms(self) -> float:
        """95th percentile of the wall time of one decision."""
        return 1000 * _p95(self.times)

    @property
    def p95_decision_cpu_ms(self) -> float:
        """95th percentile of the CPU time of one decision (this process only)."""
        return 1000 * _p95(self.cpu_times)

    @property
    def mean_decision_ms(self) -> float:
        return 1000 * self.thinking / self.decisions if self.decisions else 0.0

    @property
    def mean_decision_cpu_ms(self) -> float:
        return 1000 * self.thinking_cpu / self.decisions if self.decisions else 0.0


@dataclass
class Report:
    game: str
    players: int
    games: int
    seed: int
    options: dict
    seats: list[SeatStats]
    rounds: int = 0
    seconds: float = 0.0
    # What the game's own watcher adds (games.kinds.Kind.simulation_watch), or "".
    extra: str = ""

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


def play_game(
    rules, players: int, options: dict, seed: int, bots: list, stats: list[SeatStats], watch=None
):
    """Play one game of the engine `rules` to its end; returns the engine's result.
    `watch`, if given, is told of each decision applied and of the game's end."""
    state = rules.new_game(players=players, options=options, seed=seed)
    while not rules.is_over(state):
        seat = rules.to_act(state)[0]
        view = rules.view(state, seat)
        started, started_cpu = time.perf_counter(), time.process_time()
        decision = bots[seat].decide(view)
        spent, spent_cpu = time.perf_counter() - started, time.process_time() - started_cpu
        stats[seat].thinking += spent
        stats[seat].times.append(spent)
        stats[seat].thinking_cpu += spent_cpu
        stats[seat].cpu_times.append(spent_cpu)
        stats[seat].decisions += 1
        before = state
        state, events = rules.apply(state, seat, decision)
        if watch is not None:
            watch.after(before, seat, decision, state, events, bots)
    if watch is not None:
        watch.game_over()
    return rules.result(state)


def simulate(
    *,
    game: str | None = None,
    players: int,
    games: int,
    bots: list[str],
    seed: int = 0,
    options: dict | None = None,
    on_game=None,
) -> Report:
    """Play `games` seeded games of `game` (a kind's name; the default game if None)
    between its bots; `on_game(index, result)` is called after each."""
    from games import kinds  # kinds imports this package's bots

    game = game or kinds.default()

    rules = engine.get(game)
    options = rules.normalize_options(options or {}, players)
    names = seat_bots(bots, players)
    known = kinds.get(game).bots
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise KeyError(f"unknown bot(s) {unknown}; known bots: {', '.join(known)}")
    report = Report(game, players, games, seed, options, [SeatStats(name) for name in names])
    watcher = kinds.get(game).simulation_watch
    watch = watcher(names) if watcher is not None else None
    started = time.perf_counter()
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        table = [get_bot(name, seed=game_seed * 31 + seat) for seat, name in enumerate(names)]
        result = play_game(rules, players, options, game_seed, table, report.seats, watch)
        for seat in result["winners"]:
            report.seats[seat].wins += 1
            report.seats[seat].shared += len(result["winners"]) > 1
        for heads in result["rounds"]:
            for seat, taken in enumerate(heads):
                report.seats[seat].heads.append(taken)
        for seat, total in enumerate(result["totals"]):
            report.seats[seat].totals.append(total)
        report.rounds += len(result["rounds"])
        if on_game is not None:
            on_game(index, result)
    report.seconds = time.perf_counter() - started
    if watch is not None:
        report.extra = watch.report()
    return report


def format_report(report: Report) -> str:
    """The report as a plain-text table, one line per seat: decision time per decision,
    mean and p95, in wall clock and in CPU time of this process (which other work on
    the machine does not inflate as much)."""
    lines = [
        f"{report.game}: {report.games} games, {report.players} players, seed {report.seed}, "
        f"options {report.options}",
        f"{'seat':>4}  {'bot':<18} {'won':>5} {'shared':>6} {'win %':>6}  "
        f"{'points/round (95% CI)':<22} {'points/game (95% CI)':<22} "
        f"{'wall ms':>8} {'wall p95':>8} {'cpu ms':>8} {'cpu p95':>8}",
    ]
    for seat, stats in enumerate(report.seats):
        rate = 100 * stats.wins / report.games if report.games else 0.0
        heads = f"{stats.mean_heads:.2f} ± {stats.heads_ci95:.2f}"
        totals = f"{stats.mean_total:.2f} ± {stats.total_ci95:.2f}"
        lines.append(
            f"{seat:>4}  {stats.bot:<18} {stats.wins:>5} {stats.shared:>6} {rate:>6.1f}  "
            f"{heads:<22} {totals:<22} {stats.mean_decision_ms:>8.2f} "
            f"{stats.p95_decision_ms:>8.2f} {stats.mean_decision_cpu_ms:>8.2f} "
            f"{stats.p95_decision_cpu_ms:>8.2f}"
        )
    lines.append(
        f"{report.rounds} rounds in {report.seconds:.1f} s: "
        f"{report.rounds_per_second:.1f} rounds per second"
    )
    if report.extra:
        lines.append(report.extra)
    return "\n".join(lines)
