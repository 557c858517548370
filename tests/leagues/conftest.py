"""Leagues with members, and finished games whose score sheets the tests write."""

import datetime
import itertools

import pytest
from django.utils import timezone

from games import kinds
from games.models import Game, RoundScore, Seat, Table
from leagues import services
from leagues.models import League, LeagueTable, Membership, Season

_clock = itertools.count()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Leagues need many players; the real hasher would spend most of the run hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def club(alice, bob, make_player):
    """The Club league: Alice, Bob, Carol and Dave are members; Alice runs it."""
    league = League.objects.create(name="Club", slug="club")
    carol = make_player("carol", display_name="Carol")
    dave = make_player("dave", display_name="Dave")
    for user in (alice, bob, carol, dave):
        Membership.objects.create(league=league, user=user, status=Membership.Status.ACTIVE)
    league.admins.add(alice)
    return league


@pytest.fixture
def season(club):
    return Season.objects.create(
        league=club,
        name="2026",
        starts_on=timezone.localdate() - datetime.timedelta(days=30),
        min_games=1,
    )


@pytest.fixture
def carol(club):
    return club.memberships.get(user__username="carol").user


@pytest.fixture
def dave(club):
    return club.memberships.get(user__username="dave").user


def finished_game(season, players, rounds, *, enter=True, finished_at=None):
    """A league game of the season's game that ended with this score sheet: `rounds` lists
    each round's line per seat (heads; cards left in the hand, for Six).

    `players` are users, or a bot name for a bot's seat. The game enters the league the
    way games.services ends a game, unless `enter` is False; it ends now (a second after
    the previous one), or at `finished_at`.
    """
    game_kind = kinds.get(season.kind)
    creator = next(p for p in players if not isinstance(p, str))
    table = Table.objects.create(
        kind=game_kind.name,
        created_by=creator,
        seats_count=len(players),
        options={"end": "rounds", "rounds": len(rounds)},
        status=Table.Status.FINISHED,
    )
    LeagueTable.objects.create(table=table, season=season)
    for position, player in enumerate(players):
        if isinstance(player, str):
            Seat.objects.create(table=table, position=position, bot=player)
        else:
            Seat.objects.create(table=table, position=position, user=player)
    totals = list(game_kind.league_totals(rounds))
    best = max(totals) if game_kind.higher_wins else min(totals)
    game = Game.objects.create(
        table=table,
        seed=1,
        state={},
        finished_at=finished_at or timezone.now() + datetime.timedelta(seconds=next(_clock)),
        result={
            "rounds": rounds,
            "totals": totals,
            "winners": [seat for seat, total in enumerate(totals) if total == best],
        },
    )
    RoundScore.objects.bulk_create(
        RoundScore(game=game, round=number, seat=seat, heads=heads)
        for number, scores in enumerate(rounds, start=1)
        for seat, heads in enumerate(scores)
    )
    if enter:
        services.game_finished(game=game)
    return game


@pytest.fixture
def client():
    """The league tests read English pages (the site's default language is French)."""
    from django.test import Client

    return Client(headers={"accept-language": "en"})
