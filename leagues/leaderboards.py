"""Leaderboards (/leaderboards/, /leaderboards/<game>/): the best site ratings of each game
(leagues.ratings), among active players with enough rated games to have left "new"."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Count
from django.http import Http404
from django.shortcuts import render

from games import kinds
from leagues import ratings
from leagues.models import RatedGame, SiteRating, conservative

# Rows a leaderboard lists; a viewer further down is told where she stands.
TOP = 100


@dataclass
class Row:
    rank: int
    user_id: int
    rating: float  # as shown: rounded to one decimal
    games: int
    user: object = None
    wins: int = 0


def ranked(kind: str) -> list[Row]:
    """Every listed player of `kind`, best first: ranks shared by equal shown ratings."""
    listed = SiteRating.objects.filter(
        kind=kind, games__gte=ratings.new_until(), user__is_active=True
    ).values_list("user_id", "mu", "sigma", "games")
    rows = sorted(
        ((conservative(mu, sigma), user, games) for user, mu, sigma, games in listed),
        key=lambda row: (-row[0], -row[2], row[1]),
    )
    out = []
    for index, (rating, user, games) in enumerate(rows):
        shown = round(rating, 1)
        rank = out[-1].rank if out and out[-1].rating == shown else index + 1
        out.append(Row(rank=rank, user_id=user, rating=shown, games=games))
    return out


def _with_players(rows: list[Row], kind: str) -> list[Row]:
    """The rows with their players and their wins (first place, ties included)."""
    users = get_user_model().objects.in_bulk([row.user_id for row in rows])
    wins = dict(
        RatedGame.objects.filter(kind=kind, place=1, user_id__in=list(users))
        .values("user_id")
        .annotate(n=Count("pk"))
        .values_list("user_id", "n")
    )
    for row in rows:
        row.user, row.wins = users[row.user_id], wins.get(row.user_id, 0)
    return rows


def leaderboard(request, kind: str | None = None):
    """One game's leaderboard (the first registered game's without one), with a link to
    each game's; the viewer's row is marked, or she is told where she stands."""
    games = kinds.registered()
    kind = kind or kinds.default()
    try:
        game = kinds.get(kind)
    except KeyError:
        raise Http404 from None
    everyone = ranked(kind)
    top = _with_players(everyone[:TOP], kind)
    me = request.user.pk if request.user.is_authenticated else None
    mine = None  # her row further down, or how many games she still needs
    needs = None
    if me is not None and all(row.user_id != me for row in top):
        mine = next((row for row in everyone if row.user_id == me), None)
        if mine is None:
            played = (
                SiteRating.objects.filter(user_id=me, kind=kind)
                .values_list("games", flat=True)
                .first()
            )
            needs = max(1, ratings.new_until() - (played or 0))
    context = {
        "games": games,
        "game": game,
        "rows": top,
        "me": me,
        "mine": mine,
        "needs": needs,
        "listed": len(everyone),
        "new_until": ratings.new_until(),
    }
    return render(request, "leagues/leaderboard.html", context)
