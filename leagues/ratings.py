"""Site ratings: each player's rating in each game over every finished game of it that at
least two humans played, friendly or league (a league's season keeps its own ratings,
leagues.scoring). The same tie-correct model as the seasons' (scoring.rate): places among
all seats, bots included, but only the humans are rated, so a bot never moves a rating.

A game is rated in the transaction that finishes it (games.signals.game_finished), so the
rating a table shows next is already the new one. A duplicate round's games are rated
together when the deal's last table finishes, like their league entry: until then a rating
change would tell the other tables how the deal went.

`recompute` rebuilds a game's ratings from all its finished games, in the order they
finished, when a result changes afterwards (a league admin's correction or void, through
leagues.tasks.recompute_site_ratings; `manage.py site_ratings`).
"""

from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max

from games import kinds
from games.models import Game, Seat
from games.selectors import deals_in_play
from leagues import scoring
from leagues.models import LeagueGame, RatedGame, Season, SiteRating, season_id_of

START = (scoring.START_MU, scoring.START_SIGMA)


def new_until() -> int:
    """A rating shows as "new" until its player has played this many rated games."""
    return settings.SIXCLUB_RATING_NEW_GAMES


@dataclass(frozen=True)
class Line:
    """One human's line in one rated game: where she finished among all the seats, and her
    (mu, sigma) before and after."""

    user: int
    seat: int
    place: int
    score: int
    before: tuple[float, float]
    after: tuple[float, float]


def rate_outcome(outcome: scoring.Outcome, prior: dict[int, tuple[float, float]]) -> list[Line]:
    """The humans' lines of one game, from their ratings before it (`prior`, by user; a
    missing one starts afresh): none with fewer than two humans. No database."""
    seated = scoring.members(outcome)
    if len(seated) < 2:
        return []
    before = [prior.get(user, START) for _seat, user in seated]
    after = scoring.rate(before, [outcome.ranks[seat] for seat, _user in seated])
    placed = scoring.places(outcome.ranks)
    return [
        Line(user, seat, placed[seat], outcome.totals[seat], old, new)
        for (seat, user), old, new in zip(seated, before, after, strict=True)
    ]


def game_rated(*, game: Game) -> None:
    """Rate a finished game, once (called again, it changes nothing). Runs in the
    transaction ending the game."""
    if game.finished_at is None or not game.result:
        return
    with transaction.atomic():
        for finished in _deal_finished(game):
            _rate(finished)


def _deal_finished(game: Game) -> list[Game]:
    """The game alone, or the finished games of its deal once no table plays it any more.

    Two tables of a deal finishing at once must see each other's end: both lock the
    deal's season row first (as the league entry does, in the same order), so the second
    to take it rates both."""
    seed = game.table.deal_seed
    if seed is None:
        return [game]
    season_id = season_id_of(game.table)
    if season_id is not None:
        Season.objects.select_for_update().filter(pk=season_id).first()
    if deals_in_play().filter(deal_seed=seed).exists():
        return []
    return list(
        Game.objects.filter(table__deal_seed=seed, finished_at__isnull=False, result__isnull=False)
        .exclude(rated_lines__isnull=False)
        .select_related("table")
        .order_by("finished_at", "pk")
    )


def outcome_of(game: Game, users: dict[int, int]) -> scoring.Outcome:
    """The game's result as leagues.scoring reads it: `users` maps seat to human user."""
    result = game.result
    totals = tuple(result["totals"])
    return scoring.Outcome(
        totals=totals,
        rounds=max(1, len(result.get("rounds") or ())),
        users=tuple(users.get(seat) for seat in range(len(totals))),
        higher_wins=kinds.get(game.table.kind).higher_wins,
    )


def _humans(table_ids) -> dict[int, dict[int, int]]:
    """{table id: {seat: user}} of the humans seated at these tables."""
    seated = defaultdict(dict)
    rows = Seat.objects.filter(table_id__in=table_ids, user__isnull=False, bot="")
    for table_id, position, user in rows.values_list("table_id", "position", "user_id"):
        seated[table_id][position] = user
    return seated


def _rated_line(game: Game, outcome: scoring.Outcome, line: Line) -> RatedGame:
    return RatedGame(
        game=game,
        user_id=line.user,
        kind=game.table.kind,
        seat=line.seat,
        place=line.place,
        players=len(outcome.totals),
        score=line.score,
        rounds=outcome.rounds,
        mu_before=line.before[0],
        sigma_before=line.before[1],
        mu=line.after[0],
        sigma=line.after[1],
        finished_at=game.finished_at,
    )


def _rate(game: Game) -> None:
    users = _humans([game.table_id])[game.table_id]
    if len(users) < 2 or RatedGame.objects.filter(game=game).exists():
        return
    outcome = outcome_of(game, users)
    ratings = locked_ratings(SiteRating, list(users.values()), game.table.kind)
    lines = rate_outcome(outcome, {u: (r.mu, r.sigma) for u, r in ratings.items()})
    for line in lines:
        rating = ratings[line.user]
        rating.mu, rating.sigma = line.after
        rating.games += 1
        rating.updated_at = game.finished_at
    RatedGame.objects.bulk_create([_rated_line(game, outcome, line) for line in lines])
    SiteRating.objects.bulk_update(ratings.values(), ["mu", "sigma", "games", "updated_at"])


def locked_ratings(model, users: list[int], kind: str) -> dict:
    """The players' rating rows (`model`: SiteRating, PlayerRating) in `kind`, created if
    missing, locked in user id order. Inserted in that order too: an insert waits on
    another transaction's uncommitted row for the same user, and waiting in one order
    everywhere cannot deadlock."""
    model.objects.bulk_create(
        [model(user_id=user, kind=kind) for user in sorted(users)], ignore_conflicts=True
    )
    rows = model.objects.select_for_update().filter(user_id__in=users, kind=kind)
    return {rating.user_id: rating for rating in rows.order_by("user_id")}


# --- recompute ----------------------------------------------------------------------------------


def _games_in_order(kind: str) -> list[Game]:
    """The finished games of `kind` that count, in the order they were rated: by finish,
    a duplicate deal's games at its last table's finish (and none while a table plays
    it); a voided league game counts in nothing."""
    games = list(
        Game.objects.filter(table__kind=kind, finished_at__isnull=False, result__isnull=False)
        .exclude(table__deal_seed__in=deals_in_play())
        .exclude(pk__in=LeagueGame.objects.filter(void=True).values("game_id"))
        .select_related("table")
    )
    seeds = {game.table.deal_seed for game in games} - {None}
    deal_ends = dict(
        Game.objects.filter(table__deal_seed__in=seeds, finished_at__isnull=False)
        .values("table__deal_seed")
        .annotate(end=Max("finished_at"))
        .values_list("table__deal_seed", "end")
    )

    def rated_at(game):
        seed = game.table.deal_seed
        return (game.finished_at if seed is None else deal_ends[seed]), game.finished_at, game.pk

    return sorted(games, key=rated_at)


def recompute(kind: str) -> int:
    """Rebuild the site ratings of the game `kind` (its SiteRating and RatedGame rows) from
    all its finished games, by the rules a game is rated by as it ends. Returns the number
    of games rated. One transaction: the ratings of the game are locked meanwhile, so a game
    that ends then is rated after it, from the rebuilt ratings."""
    kinds.get(kind)  # an unknown game raises KeyError
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # Conflicts with the row locks a rating game takes (_locked): waits for those
            # under way, and the next ones wait for this one.
            with connection.cursor() as cursor:
                table = connection.ops.quote_name(SiteRating._meta.db_table)
                cursor.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")
        games = _games_in_order(kind)
        seated = _humans([game.table_id for game in games])
        ratings: dict[int, tuple[float, float]] = {}
        counts: dict[int, int] = defaultdict(int)
        updated = {}
        rows = []
        rated = 0
        for game in games:
            users = seated.get(game.table_id, {})
            if len(users) < 2:
                continue
            outcome = outcome_of(game, users)
            lines = rate_outcome(outcome, ratings)
            rated += 1
            for line in lines:
                ratings[line.user] = line.after
                counts[line.user] += 1
                updated[line.user] = game.finished_at
                rows.append(_rated_line(game, outcome, line))
        RatedGame.objects.filter(kind=kind).delete()
        RatedGame.objects.bulk_create(rows, batch_size=2000)
        _store(kind, ratings, counts, updated)
    return rated


def _store(kind: str, ratings: dict, counts: dict, updated: dict) -> None:
    """Replace the SiteRating rows of `kind` by these, changing those in place that stay."""
    stored = {rating.user_id: rating for rating in SiteRating.objects.filter(kind=kind)}
    SiteRating.objects.filter(kind=kind).exclude(user_id__in=list(ratings)).delete()
    changed, added = [], []
    for user, (mu, sigma) in ratings.items():
        rating = stored.get(user) or SiteRating(user_id=user, kind=kind)
        rating.mu, rating.sigma = mu, sigma
        rating.games, rating.updated_at = counts[user], updated[user]
        (changed if rating.pk else added).append(rating)
    SiteRating.objects.bulk_update(changed, ["mu", "sigma", "games", "updated_at"], batch_size=2000)
    SiteRating.objects.bulk_create(added, batch_size=2000)
