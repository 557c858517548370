"""How a finished game counts in a league: places, points, wins and ratings.

Plain values in, plain values out, no database: the game-by-game path
(`services.game_finished`) and the recompute from the score sheets
(`services.season_recompute`) both go through `enter`, so they cannot disagree.
"""

from dataclasses import dataclass, field
from datetime import datetime

from openskill.models import BradleyTerryFull

# Bradley–Terry with full pairing: each game counts as every pair of players at the table,
# a tie as half a win each way, so tied players are rated alike and a tie for second sits
# between a clean second and a clean third. Plackett–Luce (openskill 6.2) mishandles ties:
# joint winners could end below the third (docs/leagues.md, bench/ratings_models.py).
# limit_sigma: a game never makes a player less certain (tau would, in a game that tells
# next to nothing, such as everyone tying, and the shown mu - 3 sigma would drop).
MODEL = BradleyTerryFull(limit_sigma=True)
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
# Games kept on a standing row for its trend chart.
TREND_LENGTH = 12


@dataclass(frozen=True)
class Outcome:
    """A finished game as its score sheet tells it."""

    totals: tuple[int, ...]  # each seat's score: heads, or points (games.kinds.Kind)
    rounds: int
    users: tuple[int | None, ...]  # the member at each seat, None for a bot
    higher_wins: bool = False  # a larger total ranks first (points), not a smaller one

    @property
    def ranks(self) -> tuple[int, ...]:
        """The totals turned so that smaller is better, whatever the game's scoring."""
        return tuple(-total for total in self.totals) if self.higher_wins else self.totals


@dataclass
class Tally:
    """A member's running totals in a season (what a `Standing` row stores)."""

    games: int = 0
    rounds: int = 0
    heads: int = 0
    wins: int = 0
    points: int = 0
    mu: float = START_MU
    sigma: float = START_SIGMA
    last_played: datetime | None = None
    trend: list = field(default_factory=list)

    def add(self, *, heads: int, rounds: int, won: bool, points: int, when: datetime) -> None:
        """One more game (or counted absence) of these heads (or points) over `rounds`."""
        self.games += 1
        self.rounds += rounds
        self.heads += heads
        self.wins += won
        self.points += points
        if self.last_played is None or when > self.last_played:
            self.last_played = when
        self.trend = [*self.trend, [heads, rounds]][-TREND_LENGTH:]


@dataclass(frozen=True)
class Line:
    """One member's line in one game (what a `Placing` row stores)."""

    user: int
    seat: int
    heads: int
    rounds: int
    place: int
    won: bool
    points: int
    mu: float
    sigma: float


def places(totals, higher_wins: bool = False) -> list[int]:
    """RULES §1.6: fewer heads ranks higher (§3.3: more points, where `higher_wins`), equal
    totals share the place (1, 1, 3…)."""
    if higher_wins:
        totals = [-total for total in totals]
    return [1 + sum(other < total for other in totals) for total in totals]


def points_for(place: int, table: tuple[int, ...]) -> int:
    return table[place - 1] if place <= len(table) else 0


def rate(ratings: list[tuple[float, float]], heads: list[int]) -> list[tuple[float, float]]:
    """Bradley–Terry update of (mu, sigma) pairs from one game's heads (fewer is better,
    equal heads tie; `Outcome.ranks` turns points so).

    A game with a single rated player tells nothing about skill: ratings stay as they are.
    """
    if len(ratings) < 2:
        return list(ratings)
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=list(heads))
    return [(team[0].mu, team[0].sigma) for team in rated]


def members(outcome: Outcome) -> list[tuple[int, int]]:
    """(seat, user) of every seat a member held: bots are left out of standings."""
    return [(seat, user) for seat, user in enumerate(outcome.users) if user is not None]


def enter(
    outcome: Outcome,
    *,
    tallies: dict[int, Tally],
    points_table: tuple[int, ...],
    when: datetime,
) -> list[Line]:
    """Add a game to a season's tallies (creating missing ones); return the members' lines.

    Places and wins are counted among all seats, bots included: a bot that takes fewer
    heads (or scores more points) than you did beat you. Ratings are updated among the members only.
    """
    placed = places(outcome.ranks)
    seated = members(outcome)
    for _seat, user in seated:
        tallies.setdefault(user, Tally())
    after = rate(
        [(tallies[user].mu, tallies[user].sigma) for _seat, user in seated],
        [outcome.ranks[seat] for seat, _user in seated],
    )
    lines = []
    for (seat, user), (mu, sigma) in zip(seated, after, strict=True):
        heads = outcome.totals[seat]
        place = placed[seat]
        points = points_for(place, points_table)
        tally = tallies[user]
        tally.add(heads=heads, rounds=outcome.rounds, won=place == 1, points=points, when=when)
        tally.mu, tally.sigma = mu, sigma
        lines.append(Line(user, seat, heads, outcome.rounds, place, place == 1, points, mu, sigma))
    return lines


def enter_line(tally: Tally, line: Line, *, when: datetime) -> None:
    """Add one game's line, entered into the season already, to another tally of the same
    member (that of the game's month): the same totals, and the season's rating after it."""
    tally.add(heads=line.heads, rounds=line.rounds, won=line.won, points=line.points, when=when)
    tally.mu, tally.sigma = line.mu, line.sigma


def enter_absence(tally: Tally, score: int, *, when: datetime) -> None:
    """An absence or a bye that the season counts: one game of one round with `score`
    (heads, or points), no win, no placement points, the rating unchanged."""
    tally.add(heads=score, rounds=1, won=False, points=0, when=when)


def enter_absences(tallies: dict[int, Tally], absences, score: int | None) -> None:
    """Add the absences and byes a season counts to its tallies (creating missing ones):
    `absences`, (user, recorded at) pairs in the order they were recorded, each counted
    by `enter_absence` when the season sets a `score` for them, none when it does not.
    The season's standings and those of one of its months both count them here."""
    if score is None:
        return
    for user, when in absences:
        enter_absence(tallies.setdefault(user, Tally()), score, when=when)


def enter_overall(
    outcome: Outcome, *, ratings: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """Update the ratings over all of the members' games; return each member's new one."""
    seated = members(outcome)
    after = rate(
        [ratings.get(user, (START_MU, START_SIGMA)) for _seat, user in seated],
        [outcome.ranks[seat] for seat, _user in seated],
    )
    changed = {user: rating for (_seat, user), rating in zip(seated, after, strict=True)}
    ratings.update(changed)
    return changed
