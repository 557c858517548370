"""Site ratings: each player's rating in each game over every finished game of it that at
least two humans played, friendly or league (a league's season keeps its own ratings,
leagues.scoring). The same tie-correct model as the seasons' (scoring.rate): places among
all seats, bots included, but only the humans are rated, so a bot never moves a rating.

A game is rated in the transaction that finishes it (games.signals.game_finished), so the
rating a table shows next is already the new one. A duplicate round's games are rated
together when the deal's last table finishes, like their league entry: until then a rating
change would tell the other tables how the deal went.
"""

from django.conf import settings
from django.db import transaction

from games import kinds
from games.models import Game, Seat
from games.selectors import deals_in_play
from leagues import scoring
from leagues.models import RatedGame, Season, SiteRating, season_id_of


def new_until() -> int:
    """A rating shows as "new" until its player has played this many rated games."""
    return settings.SIXCLUB_RATING_NEW_GAMES


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


def _rate(game: Game) -> None:
    users = dict(
        Seat.objects.filter(table_id=game.table_id, user__isnull=False, bot="").values_list(
            "position", "user_id"
        )
    )
    if len(users) < 2 or RatedGame.objects.filter(game=game).exists():
        return
    kind = game.table.kind
    outcome = outcome_of(game, users)
    seated = scoring.members(outcome)
    ratings = _locked(sorted(users.values()), kind)
    after = scoring.rate(
        [(ratings[user].mu, ratings[user].sigma) for _seat, user in seated],
        [outcome.ranks[seat] for seat, _user in seated],
    )
    placed = scoring.places(outcome.ranks)
    lines = []
    for (seat, user), (mu, sigma) in zip(seated, after, strict=True):
        rating = ratings[user]
        lines.append(
            RatedGame(
                game=game,
                user_id=user,
                kind=kind,
                seat=seat,
                place=placed[seat],
                players=len(outcome.totals),
                score=outcome.totals[seat],
                rounds=outcome.rounds,
                mu_before=rating.mu,
                sigma_before=rating.sigma,
                mu=mu,
                sigma=sigma,
                finished_at=game.finished_at,
            )
        )
        rating.mu, rating.sigma = mu, sigma
        rating.games += 1
        rating.updated_at = game.finished_at
    RatedGame.objects.bulk_create(lines)
    SiteRating.objects.bulk_update(ratings.values(), ["mu", "sigma", "games", "updated_at"])


def _locked(users: list[int], kind: str) -> dict[int, SiteRating]:
    """The players' ratings in `kind`, created if missing, locked in user id order (the
    same order everywhere: two games finishing at once cannot deadlock)."""
    SiteRating.objects.bulk_create(
        [SiteRating(user_id=user, kind=kind) for user in users], ignore_conflicts=True
    )
    rows = SiteRating.objects.select_for_update().filter(user_id__in=users, kind=kind)
    return {rating.user_id: rating for rating in rows.order_by("user_id")}
