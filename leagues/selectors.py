"""Reads of the league app: standings, tournament results, rating changes (a player's
page reads leagues.players).

The season standings read the stored `Standing` rows (one per member and season, kept
up to date as games end): one query however many games the season holds.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from games import selectors as game_selectors
from games.models import number_bots
from leagues import ratings, scoring
from leagues.models import (
    League,
    LeagueGame,
    Membership,
    MonthStanding,
    Placing,
    RatedGame,
    Season,
    SeatingMethod,
    SiteRating,
    Standing,
    conservative,
    season_of,
)
from leagues.scoring import START_MU, START_SIGMA

# Sortable columns of the standings, and which way each one reads best first (for a game
# scored in heads: `sorts` turns the score's columns for a game scored in points).
SORTS = {
    "rank": False,
    "player": False,
    "games": True,
    "rounds": True,
    "heads": False,
    "mean": False,
    "wins": True,
    "win_rate": True,
    "points": True,
    "mean_points": True,
    "best": True,
    "rating": True,
    "last_played": True,
}


def sorts(season: Season) -> dict[str, bool]:
    """Which way each column of `season`'s standings reads best first."""
    if not season.game.higher_wins:
        return SORTS
    return {**SORTS, "heads": True, "mean": True}


@dataclass
class StandingRow:
    standing: "Standing | MonthStanding"
    rank: int | None = None
    # The placement points of the player's best results (Season.best_results games).
    best: int = 0

    @property
    def user(self):
        return self.standing.user

    @property
    def player(self) -> str:
        return self.standing.user.shown_name

    @property
    def games(self) -> int:
        return self.standing.games

    @property
    def rounds(self) -> int:
        return self.standing.rounds

    @property
    def heads(self) -> int:
        return self.standing.heads

    @property
    def wins(self) -> int:
        return self.standing.wins

    @property
    def points(self) -> int:
        return self.standing.points

    @property
    def last_played(self) -> datetime | None:
        return self.standing.last_played

    @property
    def mean(self) -> float:
        return self.standing.heads / self.standing.rounds if self.standing.rounds else 0.0

    @property
    def mean_points(self) -> float:
        return self.standing.points / self.standing.games if self.standing.games else 0.0

    @property
    def win_rate(self) -> float:
        return self.standing.wins / self.standing.games if self.standing.games else 0.0

    @property
    def rating(self) -> float:
        return self.standing.rating

    @property
    def trend(self) -> list[float]:
        """Score per round of the latest games, oldest first."""
        return [heads / rounds for heads, rounds in self.standing.trend if rounds]


def ranking_key(season: Season):
    """What ranks a season's players, smaller first, by its ranking method (a score in
    points ranks its highest first)."""
    method = season.ranking
    sign = -1 if season.game.higher_wins else 1
    if method == Season.Ranking.TOTAL_HEADS:
        return lambda row: sign * row.heads
    if method == Season.Ranking.PLACEMENT:
        return lambda row: -row.points
    if method == Season.Ranking.MEAN_PLACEMENT:
        return lambda row: -row.mean_points
    if method == Season.Ranking.BEST_RESULTS:
        return lambda row: -row.best
    if method == Season.Ranking.RATING:
        return lambda row: -row.rating
    return lambda row: sign * row.mean


def season_months(season: Season) -> list:
    """The months in which the season's games were played, or absences it counts were
    recorded (first days, oldest first)."""
    return list(season.month_standings.order_by("month").values_list("month", flat=True).distinct())


def _month_window(month) -> tuple[datetime, datetime]:
    """The first and last instants of the month of `month` (a date), in the current time
    zone: a range the database compares as such (the `__month` lookup would extract the
    month of every row of the season)."""
    start = timezone.make_aware(datetime(month.year, month.month, 1))
    following = (start.replace(tzinfo=None) + timedelta(days=32)).replace(day=1)
    return start, timezone.make_aware(following) - timedelta(microseconds=1)


def _best_results(season: Season, rows: list[StandingRow], month=None) -> None:
    """Fill each row's `best`: the placement points of its Season.best_results best games."""
    placings = Placing.objects.filter(season=season)
    if month is not None:
        placings = placings.filter(finished_at__range=_month_window(month))
    points = defaultdict(list)
    for user_id, value in placings.values_list("user_id", "points"):
        points[user_id].append(value)
    for row in rows:
        row.best = sum(sorted(points[row.standing.user_id], reverse=True)[: season.best_results])


def season_standings(
    *, season: Season, sort: str = "rank", descending: bool | None = None, month=None
) -> list[StandingRow]:
    """Every player of the season (of one month of it: `month`, a date in it); those with
    enough games ranked, sharing equal ranks.

    Players below the season's minimum of games follow the ranked ones, unranked.
    """
    if month is None:
        standings = Standing.objects.filter(season=season)
    else:
        standings = MonthStanding.objects.filter(season=season, month=month.replace(day=1))
    standings = standings.select_related("user")
    rows = [StandingRow(standing) for standing in standings]
    if season.ranking == Season.Ranking.BEST_RESULTS:
        _best_results(season, rows, month)
    key = ranking_key(season)

    def order(row):
        return (key(row), -row.games, row.player.casefold())

    ranked = sorted((r for r in rows if r.games >= season.min_games), key=order)
    unranked = sorted((r for r in rows if r.games < season.min_games), key=order)
    previous = None
    for index, row in enumerate(ranked, start=1):
        value = key(row)
        row.rank = previous.rank if previous and key(previous) == value else index
        previous = row
    rows = ranked + unranked
    if sort in SORTS and sort != "rank":
        best_first = sorts(season)[sort] if descending is None else descending
        rows = _sorted_by(rows, sort, best_first)
    elif sort == "rank" and descending:
        rows = ranked[::-1] + unranked
    return rows


def seat_standings(*, table, users) -> dict:
    """How the players seated at `table` stand: their site rating in the table's game
    (None, shown "new", until they have played `ratings.new_until()` rated games of it),
    at a league table their rank in its season (None while below the season's minimum of
    games), and once the game is rated, how it moved their rating (at a league table, their
    overall league rating; elsewhere their site rating)."""
    shown = {
        rating.user_id: round(rating.rating)
        for rating in SiteRating.objects.filter(
            user_id__in=users, kind=table.kind, games__gte=ratings.new_until()
        )
    }
    ranks = {}
    changes = site_rating_changes(table=table, users=users)
    season = season_of(table)
    if season is not None:
        wanted = set(users)
        for row in season_standings(season=season):
            if row.standing.user_id in wanted:
                ranks[row.standing.user_id] = row.rank
        entry = (
            LeagueGame.objects.filter(game__table=table, void=False)
            .select_related("game", "season")
            .first()
        )
        if entry is not None:
            changes.update(game_rating_changes(entry=entry, users=users))
    return {
        user: {"rating": shown.get(user), "rank": ranks.get(user), "change": changes.get(user)}
        for user in users
    }


def site_rating_changes(*, table, users) -> dict[int, str]:
    """How the table's rated game moved each player's site rating (none before it is
    rated: a duplicate deal's games wait for its last table)."""
    lines = RatedGame.objects.filter(game__table=table, user_id__in=users)
    return {line.user_id: signed(line.rating - line.rating_before) for line in lines}


def signed(delta: float) -> str:
    """A rating change as players read it: +1.2, −0.8 (a true minus sign)."""
    return f"{delta:+.1f}".replace("-", "−")


def _rating_moves(placings):
    """(user, table id, change) of each placing, from (user, table id, kind, overall mu,
    overall sigma) rows in the order the games entered: the move of the user's overall
    rating in that game since their previous league game of it."""
    start = conservative(START_MU, START_SIGMA)
    previous: dict[tuple, float] = {}
    for user_id, table_id, kind, mu, sigma in placings:
        after = conservative(mu, sigma)
        yield user_id, table_id, signed(after - previous.get((user_id, kind), start))
        previous[user_id, kind] = after


def _placings_in_order(**where):
    return (
        Placing.objects.filter(**where)
        .exclude(entry__void=True)
        .order_by("entry_id")
        .values_list(
            "user_id", "entry__game__table_id", "season__kind", "overall_mu", "overall_sigma"
        )
    )


def game_rating_changes(*, entry, users) -> dict[int, str]:
    """How much each member's overall rating in the game moved with this league game."""
    placings = _placings_in_order(
        user_id__in=users, season__kind=entry.season.kind, entry_id__lte=entry.pk
    )
    table_id = entry.game.table_id
    return {user: change for user, table, change in _rating_moves(placings) if table == table_id}


def _sorted_by(rows, column: str, descending: bool):
    if column == "player":
        return sorted(rows, key=lambda r: r.player.casefold(), reverse=descending)
    present = [r for r in rows if getattr(r, column) is not None]
    missing = [r for r in rows if getattr(r, column) is None]
    present.sort(key=lambda r: getattr(r, column), reverse=descending)
    return present + missing


def league_visible(league: League, user, status: str | None = None) -> bool:
    """A public league's standings are for everyone; a members-only one's for its members
    and admins. `status` is the user's membership status when the caller knows it."""
    if league.is_public:
        return True
    if status is None:
        status = membership_status(league, user)
    return status == Membership.Status.ACTIVE or league.is_admin(user)


def visible_leagues(user):
    """The leagues whose figures `user` may read (`league_visible`, as a queryset)."""
    if user is not None and user.is_authenticated and user.is_superuser:
        return League.objects.all()
    if user is None or not user.is_authenticated:
        return League.objects.filter(is_public=True)
    own = Membership.objects.filter(user=user.pk, status=Membership.Status.ACTIVE)
    return League.objects.filter(
        Q(is_public=True) | Q(pk__in=own.values("league")) | Q(admins=user.pk)
    ).distinct()


def tables_closed_to(viewer) -> Q | None:
    """The tables of a members-only league, closed to whoever is not one of its members or
    admins (games.signals.tables_closed); None for superusers."""
    if viewer is not None and viewer.is_authenticated and viewer.is_superuser:
        return None
    return Q(league_table__season__league__is_public=False) & ~Q(
        league_table__season__league__in=visible_leagues(viewer).values("pk")
    )


def membership_status(league: League, user) -> str | None:
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return Membership.Status.ACTIVE
    return (
        Membership.objects.filter(league=league, user=user).values_list("status", flat=True).first()
    )


def league_waiting(league: League) -> list[Membership]:
    """Who asked to join the league and waits for its admins, first asked first."""
    return list(
        league.memberships.filter(status=Membership.Status.PENDING)
        .select_related("user")
        .order_by("joined_at", "pk")
    )


def waiting_to_join(user):
    """The requests to join the leagues this user runs (every league's, for a site admin)."""
    waiting = Membership.objects.filter(status=Membership.Status.PENDING)
    if not user.is_superuser:
        waiting = waiting.filter(league__in=League.objects.filter(admins=user).values("pk"))
    return waiting


def current_season(seasons: list[Season]) -> Season | None:
    """The season shown by default: the latest open one, else the latest."""
    return next((s for s in seasons if s.is_open), seasons[0] if seasons else None)


def leagues_for(user):
    """The leagues listed to a user: public ones and their own."""
    leagues = League.objects.annotate(
        members=Count("memberships", filter=Q(memberships__status=Membership.Status.ACTIVE))
    )
    if user.is_authenticated:
        # Their own, as a subquery: filtering through a second join on memberships would
        # multiply the rows the count above counts (4 members read as 16).
        own = Membership.objects.filter(league=OuterRef("pk"), user=user)
        return leagues.filter(Q(is_public=True) | Exists(own))
    return leagues.filter(is_public=True)


def seasons_open_for(user, kind: str):
    """Open seasons of game `kind` in the leagues the user is an active member of: the
    seasons a new table of that game may count in."""
    today = timezone.localdate()
    return (
        Season.objects.filter(
            kind=kind,
            closed=False,
            starts_on__lte=today,
            league__memberships__user=user,
            league__memberships__status=Membership.Status.ACTIVE,
        )
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=today))
        .select_related("league")
        .order_by("league__name", "-starts_on")
    )


# --- tournaments ---------------------------------------------------------------------------


@dataclass
class TournamentRow:
    user: object
    games: int = 0
    heads: int = 0
    points: int = 0
    wins: int = 0
    # Duplicate: the sum over the player's games of (their score - the average score of
    # their seat at every table of that round); None outside duplicate tournaments.
    duplicate: float | None = None
    # Swiss: the tournament points of everyone the player met, once per game together.
    opponents: int = 0
    rank: int | None = None


def is_void(game) -> bool:
    """A finished game voided by a league admin (leagues.services.result_void)."""
    entry = getattr(game, "league_entry", None)
    return entry is not None and entry.void


def result_of(table, in_play: frozenset) -> dict | None:
    """The result a club night's page may show of `table` (its game's, finished and not
    voided), or None. `in_play` is `deals_in_play()`: a game of a duplicate round's deal
    shows nothing until every table of the deal has finished (games.selectors.shown_to)."""
    game = getattr(table, "game", None)
    if game is None or not game.result or game.finished_at is None or is_void(game):
        return None
    if table.deal_seed is not None and table.deal_seed in in_play:
        return None
    return game.result


def deals_in_play() -> frozenset:
    """The deal seeds some table still plays (games.selectors.deals_in_play), read once."""
    return frozenset(game_selectors.deals_in_play().values_list("deal_seed", flat=True))


def tournament_standings(*, tournament) -> list[TournamentRow]:
    """Players of a tournament's finished games, ranked by the tournament's format.

    - Duplicate: by duplicate score (each game's score against the average of the same
      seat of the same deal at all the round's tables; fewest heads or most points
      first), then the raw score. A round counts once every table of it has finished.
    - Swiss: by placement points (the season's table), then the opponents' points
      (Buchholz), then the score.
    - Otherwise: fewest heads first (most points, for a game scored in points), then most
      placement points.
    Equal on every key share the rank.
    """
    points_table = tournament.season.points_table()
    higher_wins = tournament.season.game.higher_wins
    sign = -1 if higher_wins else 1
    rows: dict[int, TournamentRow] = {}
    slots = list(
        tournament.seated_tables.select_related("table__game__league_entry").prefetch_related(
            "table__seats__user"
        )
    )
    in_play = deals_in_play()
    games = [(slot, result) for slot in slots if (result := result_of(slot.table, in_play))]
    # Duplicate: each round's average score of each seat over its tables (all finished:
    # a round is one deal).
    seat_scores = defaultdict(list)
    for slot, result in games:
        for position, total in enumerate(result["totals"]):
            seat_scores[(slot.round, position)].append(total)
    met = []
    for slot, result in games:
        totals = result["totals"]
        placed = scoring.places(totals, higher_wins)
        members = [seat for seat in slot.table.seats.all() if seat.user_id]
        met.append([seat.user_id for seat in members])
        for seat in members:
            if seat.position >= len(totals):
                continue
            row = rows.setdefault(seat.user_id, TournamentRow(user=seat.user))
            row.games += 1
            row.heads += totals[seat.position]
            row.points += scoring.points_for(placed[seat.position], points_table)
            row.wins += placed[seat.position] == 1
            if tournament.duplicate:
                scores = seat_scores[(slot.round, seat.position)]
                average = sum(scores) / len(scores)
                row.duplicate = (row.duplicate or 0.0) + totals[seat.position] - average
    for players in met:
        for user_id in players:
            rows[user_id].opponents += sum(rows[o].points for o in players if o != user_id)

    if tournament.duplicate:

        def key(r):
            return (sign * round(r.duplicate or 0.0, 9), sign * r.heads)

    elif tournament.seating == SeatingMethod.SWISS:

        def key(r):
            return (-r.points, -r.opponents, sign * r.heads)

    else:

        def key(r):
            return (sign * r.heads, -r.points)

    ordered = sorted(rows.values(), key=lambda r: (key(r), r.user.shown_name))
    for index, row in enumerate(ordered, start=1):
        before = ordered[index - 2] if index > 1 else None
        row.rank = before.rank if before and key(before) == key(row) else index
    return ordered


def event_rounds(event) -> list[tuple[int, list[dict]]]:
    """An evening's or tournament's tables, round by round: who sat, and their heads."""
    rounds = defaultdict(list)
    slots = list(
        event.seated_tables.select_related("table__game__league_entry").prefetch_related(
            "table__seats__user"
        )
    )
    in_play = deals_in_play()
    for slot in slots:
        result = result_of(slot.table, in_play)
        players = []
        for seat in number_bots(slot.table.seats.all()):
            heads = None
            if result and seat.position < len(result["totals"]):
                heads = result["totals"][seat.position]
            won = bool(result) and seat.position in result["winners"]
            players.append({"name": seat.name, "heads": heads, "won": won})
        rounds[slot.round].append({"number": slot.number, "table": slot.table, "players": players})
    return sorted(rounds.items())
