"""Results entering seasons: a finished game into its standings, placings and ratings, an
absence that counts, the recompute of a whole season; a season closed."""

import datetime
from collections import defaultdict

from django.db import transaction
from django.utils import timezone

from games import kinds
from games.models import Game, RoundScore, Seat
from games.selectors import deals_in_play
from leagues import scoring
from leagues.models import (
    Absence,
    LeagueGame,
    MonthStanding,
    Placing,
    PlayerRating,
    Season,
    Standing,
    Tallied,
    Tournament,
    month_of,
    season_id_of,
)
from leagues.ratings import locked_ratings

BATCH = 2000
# How often a recompute reports how far it has got, in games of the season.
PROGRESS_EVERY = 250


def _outcomes(score_rows, seat_rows) -> dict[int, scoring.Outcome]:
    """Outcomes by game id, from score-sheet rows (game, round, seat, heads, game kind)
    and seat rows (game, position, user or None). Each game's totals are its kind's
    league scoring of its score sheet (games/kinds.py); a game of a kind that leagues
    cannot score has no outcome."""
    sheets = defaultdict(lambda: defaultdict(dict))
    kind_of = {}
    for game_id, round_number, seat, heads, kind in score_rows:
        sheets[game_id][round_number][seat] = heads
        kind_of[game_id] = kind
    users = defaultdict(dict)
    for game_id, position, user_id in seat_rows:
        users[game_id][position] = user_id
    outcomes = {}
    for game_id, by_round in sheets.items():
        game = kinds.get(kind_of[game_id])
        if game.league_totals is None:
            continue
        scored = [seat for row in by_round.values() for seat in row]
        seats = range(max(scored + list(users[game_id])) + 1)
        sheet = [[by_round[r].get(seat, 0) for seat in seats] for r in sorted(by_round)]
        outcomes[game_id] = scoring.Outcome(
            totals=tuple(game.league_totals(sheet)),
            rounds=len(by_round),
            users=tuple(users[game_id].get(seat) for seat in seats),
            higher_wins=game.higher_wins,
        )
    return outcomes


def _score_rows(**where):
    return RoundScore.objects.filter(**where).values_list(
        "game_id", "round", "seat", "heads", "game__table__kind"
    )


def _seat_rows(**where):
    return Seat.objects.filter(**where).values_list("table__game__id", "position", "user_id")


def _tally(standing: Tallied) -> scoring.Tally:
    return scoring.Tally(
        games=standing.games,
        rounds=standing.rounds,
        heads=standing.heads,
        wins=standing.wins,
        points=standing.points,
        mu=standing.mu,
        sigma=standing.sigma,
        last_played=standing.last_played,
        trend=list(standing.trend),
    )


TALLY_FIELDS = [
    "games",
    "rounds",
    "heads",
    "wins",
    "points",
    "mu",
    "sigma",
    "last_played",
    "trend",
]


def _set_tally(standing: Tallied, tally: scoring.Tally) -> Tallied:
    for name in TALLY_FIELDS:
        setattr(standing, name, getattr(tally, name))
    return standing


def _store(model, stored: dict, tallies: dict[int, scoring.Tally], **key) -> None:
    """Save the tallies of `model` (Standing, MonthStanding) by user: those `stored` (the
    rows read, by user) updated, the others created with `key` (their season, month)."""
    model.objects.bulk_update(
        [_set_tally(row, tallies[user]) for user, row in stored.items()], TALLY_FIELDS
    )
    model.objects.bulk_create(
        _set_tally(model(user_id=user, **key), tally)
        for user, tally in tallies.items()
        if user not in stored
    )


def _placing(entry: LeagueGame, line: scoring.Line, overall: tuple[float, float]) -> Placing:
    return Placing(
        entry=entry,
        season_id=entry.season_id,
        user_id=line.user,
        finished_at=entry.finished_at,
        seat=line.seat,
        heads=line.heads,
        rounds=line.rounds,
        place=line.place,
        won=line.won,
        points=line.points,
        mu=line.mu,
        sigma=line.sigma,
        overall_mu=overall[0],
        overall_sigma=overall[1],
    )


def season_close(*, season) -> Season:
    """No new league tables in a closed season; its standings stay as they are."""
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        if not season.closed:
            season.closed = True
            if season.ends_on is None:
                season.ends_on = max(timezone.localdate(), season.starts_on)
            season.save(update_fields=["closed", "ends_on"])
    return season


def game_finished(*, game) -> None:
    """Enter a finished league game into its season, once. Runs in the transaction ending it.

    Locks the season row first, so that a season's games enter one at a time, in the
    order of their entries' primary keys; then the players' overall ratings, by user id
    (the same order everywhere, so two seasons' games cannot deadlock). Calling it again
    for the same game changes nothing, and so does a game of another kind than the season's
    (the lobby and the seating never make one).

    The games of a duplicate round's deal enter together, in the order they finished, when
    its last table finishes: until then a score, a rank or a rating change would tell the
    other tables the deal (games.selectors.shown_to).
    """
    season_id = season_id_of(game.table)
    if season_id is None or game.finished_at is None:
        return
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season_id)
        for finished in _deal_finished(game, season):
            _enter(season, finished)


def _deal_finished(game, season) -> list:
    """The game alone, or the finished games of its deal once no table plays it any more
    (none before). Call with the season row locked: two tables of a deal finishing at once
    then see each other's end, the second to take the lock entering both."""
    seed = game.table.deal_seed
    if seed is None:
        return [game]
    if deals_in_play().filter(deal_seed=seed).exists():
        return []
    return list(
        Game.objects.filter(
            table__deal_seed=seed,
            table__league_table__season=season,
            finished_at__isnull=False,
            league_entry__isnull=True,
        )
        .select_related("table")
        .order_by("finished_at", "pk")
    )


def _enter(season, game) -> None:
    """Enter `game` into `season`: its entry, placings, standings and overall ratings."""
    if season.kind != game.table.kind or LeagueGame.objects.filter(game=game).exists():
        return
    outcome = _outcomes(_score_rows(game=game), _seat_rows(table_id=game.table_id)).get(game.pk)
    if outcome is None:  # no round was scored: nothing to enter
        return
    users = [user for _seat, user in scoring.members(outcome)]
    standings = {
        s.user_id: s
        for s in Standing.objects.select_for_update().filter(season=season, user_id__in=users)
    }
    ratings = locked_ratings(PlayerRating, users, season.kind)
    entry = LeagueGame.objects.create(season=season, game=game, finished_at=game.finished_at)

    tallies = {user: _tally(standing) for user, standing in standings.items()}
    lines = scoring.enter(
        outcome, tallies=tallies, points_table=season.points_table(), when=entry.finished_at
    )
    overall = {user: (rating.mu, rating.sigma) for user, rating in ratings.items()}
    scoring.enter_overall(outcome, ratings=overall)

    month = month_of(entry.finished_at)
    months = {
        s.user_id: s
        for s in MonthStanding.objects.select_for_update().filter(
            season=season, month=month, user_id__in=users
        )
    }
    month_tallies = {user: _tally(standing) for user, standing in months.items()}
    for line in lines:
        scoring.enter_line(
            month_tallies.setdefault(line.user, scoring.Tally()), line, when=entry.finished_at
        )

    Placing.objects.bulk_create(_placing(entry, line, overall[line.user]) for line in lines)
    _store(Standing, standings, tallies, season=season)
    _store(MonthStanding, months, month_tallies, season=season, month=month)
    for user, rating in ratings.items():
        rating.mu, rating.sigma = overall[user]
        rating.games += 1
    PlayerRating.objects.bulk_update(ratings.values(), ["mu", "sigma", "games"])


def season_games(*, season) -> int:
    """How many finished games a recompute of the season replays."""
    return Game.objects.filter(
        table__league_table__season=season, table__kind=season.kind, finished_at__isnull=False
    ).count()


def season_recompute(*, season, progress=None) -> int:
    """Rebuild a season's standings and ratings from the score sheets of its games.

    Games enter again in the order they first entered (a finished game that never
    entered comes last, in the order games finished), through the same `scoring.enter`
    as game by game, so the result is exactly what was accumulated. Overall ratings of the
    season's game are replayed over every league's games of that game, since this season's
    games are part of them.
    `progress(done, total)`, if given, is called every PROGRESS_EVERY of the season's games
    (from inside the transaction: see leagues/management/commands/recompute_standings.py).
    Returns the number of games.
    """
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        kind = season.game
        list(PlayerRating.objects.select_for_update().filter(kind=kind.name).order_by("user_id"))
        missing = (
            Game.objects.filter(
                table__league_table__season=season,
                table__kind=kind.name,
                finished_at__isnull=False,
                league_entry__isnull=True,
            )
            .exclude(table__deal_seed__in=deals_in_play())
            .order_by("finished_at", "pk")
            .values_list("pk", "finished_at")
        )
        LeagueGame.objects.bulk_create(
            [LeagueGame(season=season, game_id=pk, finished_at=when) for pk, when in missing],
            batch_size=BATCH,
        )
        entries = list(LeagueGame.objects.filter(season=season).order_by("pk"))
        outcomes = _outcomes(
            _score_rows(game__table__league_table__season=season, game__finished_at__isnull=False),
            _seat_rows(table__league_table__season=season, table__game__finished_at__isnull=False),
        )
        others = defaultdict(list)
        for placing in (
            Placing.objects.exclude(season=season)
            .filter(season__kind=kind.name)
            .order_by("entry_id", "seat")
            .only("entry_id", "user_id", "heads", "overall_mu", "overall_sigma")
        ):
            others[placing.entry_id].append(placing)

        tallies: dict[int, scoring.Tally] = {}
        months: dict[datetime.date, dict[int, scoring.Tally]] = defaultdict(dict)
        overall: dict[int, tuple[float, float]] = {}
        games_played: dict[int, int] = defaultdict(int)
        points_table = season.points_table()
        placings, stale = [], []
        ours = iter(entries)
        replayed = 0
        theirs = iter(sorted(others))
        entry, other = next(ours, None), next(theirs, None)
        while entry is not None or other is not None:
            if other is None or (entry is not None and entry.pk < other):
                outcome = None if entry.void else outcomes.get(entry.game_id)
                if outcome is not None:
                    lines = scoring.enter(
                        outcome, tallies=tallies, points_table=points_table, when=entry.finished_at
                    )
                    scoring.enter_overall(outcome, ratings=overall)
                    month = months[month_of(entry.finished_at)]
                    for line in lines:
                        games_played[line.user] += 1
                        placings.append(_placing(entry, line, overall[line.user]))
                        scoring.enter_line(
                            month.setdefault(line.user, scoring.Tally()),
                            line,
                            when=entry.finished_at,
                        )
                replayed += 1
                if progress is not None and replayed % PROGRESS_EVERY == 0:
                    progress(replayed, len(entries))
                entry = next(ours, None)
            else:
                rows = others[other]
                replay = scoring.Outcome(
                    totals=tuple(p.heads for p in rows),
                    rounds=0,
                    users=tuple(p.user_id for p in rows),
                    higher_wins=kind.higher_wins,
                )
                scoring.enter_overall(replay, ratings=overall)
                for p in rows:
                    games_played[p.user_id] += 1
                    if (p.overall_mu, p.overall_sigma) != overall[p.user_id]:
                        p.overall_mu, p.overall_sigma = overall[p.user_id]
                        stale.append(p)
                other = next(theirs, None)

        absences = list(season.absences.order_by("pk").values_list("user_id", "created_at"))
        scoring.enter_absences(tallies, absences, season.absence_score)
        by_month = defaultdict(list)
        for user, when in absences:
            by_month[month_of(when)].append((user, when))
        for month, recorded in by_month.items():
            scoring.enter_absences(months[month], recorded, season.absence_score)

        Placing.objects.filter(season=season).delete()
        Placing.objects.bulk_create(placings, batch_size=BATCH)
        Placing.objects.bulk_update(stale, ["overall_mu", "overall_sigma"], batch_size=BATCH)
        Standing.objects.filter(season=season).delete()
        Standing.objects.bulk_create(
            [_set_tally(Standing(season=season, user_id=u), t) for u, t in tallies.items()],
            batch_size=BATCH,
        )
        MonthStanding.objects.filter(season=season).delete()
        MonthStanding.objects.bulk_create(
            [
                _set_tally(MonthStanding(season=season, month=month, user_id=u), t)
                for month, month_tallies in months.items()
                for u, t in month_tallies.items()
            ],
            batch_size=BATCH,
        )
        PlayerRating.objects.filter(kind=kind.name).exclude(user_id__in=list(overall)).delete()
        PlayerRating.objects.bulk_create(
            [
                PlayerRating(
                    user_id=user, kind=kind.name, mu=mu, sigma=sigma, games=games_played[user]
                )
                for user, (mu, sigma) in overall.items()
            ],
            update_conflicts=True,
            unique_fields=["user", "kind"],
            update_fields=["mu", "sigma", "games"],
            batch_size=BATCH,
        )
    return len(entries)


def record_absence(event, round_number: int, user, *, bye: bool) -> Absence:
    """Record an absence (or a bye); a season with an `absence_score` counts it as a game."""
    is_tournament = isinstance(event, Tournament)
    season = Season.objects.select_for_update().get(pk=event.season_id)
    absence = Absence.objects.create(
        season=season,
        user=user,
        evening=None if is_tournament else event,
        tournament=event if is_tournament else None,
        round=round_number,
        bye=bye,
    )
    if season.absence_score is not None:
        month = month_of(absence.created_at)
        for model, key in ((Standing, {}), (MonthStanding, {"month": month})):
            standing, _created = model.objects.select_for_update().get_or_create(
                season=season, user=user, **key
            )
            tally = _tally(standing)
            scoring.enter_absence(tally, season.absence_score, when=absence.created_at)
            _set_tally(standing, tally).save()
    return absence
