"""Writes of the league app: memberships, results entering seasons, seatings.

`league_table_open`, `league_table_rematch`, `check_can_sit` and `game_finished` are
called by games.services inside its own transactions (through games.signals and
leagues.receivers); everything else is called by views, the admin and management commands.
"""

import datetime
import random
import secrets
from collections import Counter, defaultdict

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games import kinds
from leagues import notify, scoring, seating, selectors
from leagues.models import (
    Absence,
    LeagueGame,
    LeagueTable,
    Membership,
    Placing,
    PlayerRating,
    Registration,
    ResultChange,
    ScoreSheet,
    Season,
    SeatingMethod,
    SheetAnswer,
    Standing,
    Tournament,
    season_id_of,
    season_of,
)

BATCH = 2000
# How often a recompute reports how far it has got, in games of the season.
PROGRESS_EVERY = 250


class LeagueError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


# --- league tables -------------------------------------------------------------------------
# games tells leagues of each new table (games.signals.table_created, leagues.receivers);
# the seatings and score sheets below link their own tables.


def league_table_open(*, table, user, season) -> LeagueTable:
    """Count the table `user` has just opened in the season they chose (a Season or its
    pk): one the lobby offers them for the table's game (`_offered`), else refused. Called
    inside the transaction that creates the table, so a refusal leaves no table."""
    season_id = getattr(season, "pk", season)
    if not _offered(user=user, table=table, season_id=season_id):
        if Season.objects.filter(pk=season_id, closed=True).exists():
            raise LeagueError("season_closed", _("This season is closed."))
        raise LeagueError("not_offered", _("A new table of this game cannot count in this season."))
    return LeagueTable.objects.create(table=table, season_id=season_id)


def league_table_rematch(*, table, user, old) -> LeagueTable | None:
    """The rematch `table` of the finished table `old` counts in `old`'s season while the
    lobby would still offer it to `user`; else it is a friendly game (None)."""
    season_id = season_id_of(old)
    if season_id is None or not _offered(user=user, table=table, season_id=season_id):
        return None
    return LeagueTable.objects.create(table=table, season_id=season_id)


def _offered(*, user, table, season_id) -> bool:
    """Whether the lobby offers `season_id` to `user` for a new table of `table`'s game
    (leagues.receivers.open_seasons)."""
    if not kinds.get(table.kind).in_leagues:
        return False
    return selectors.seasons_open_for(user, table.kind).filter(pk=season_id).exists()


def table_season_set(*, table, season) -> None:
    """Count a table in `season` from now on, or in none (None): the admin's choice, for a
    table not finished (a finished one's result is in its season's standings)."""
    if season is None:
        LeagueTable.objects.filter(table=table).delete()
    else:
        LeagueTable.objects.update_or_create(table=table, defaults={"season": season})


# --- memberships -------------------------------------------------------------------------


def check_can_sit(*, table, user) -> None:
    """A league table seats only active members of its league, while its season is open;
    a table seated for a club night, only the players seated there."""
    if table.reserved and user.pk not in _reserved_for(table):
        raise LeagueError(
            "reserved", _("This table's seats are kept for the players seated there.")
        )
    season = season_of(table)
    if season is None:
        return
    if season.closed:
        raise LeagueError("season_closed", _("This season is closed."))
    if not Membership.objects.filter(
        league_id=season.league_id, user=user, status=Membership.Status.ACTIVE
    ).exists():
        raise LeagueError("not_member", _("Only members of this league can sit at this table."))


def _reserved_for(table) -> list[int]:
    """Who may sit at a reserved table: the players its evening's or tournament's seating
    kept it for (nobody, for a table no seating made: a game entered on paper)."""
    for name in ("evening_slot", "tournament_slot"):
        # A missing reverse one-to-one raises an AttributeError: getattr's default.
        slot = getattr(table, name, None)
        if slot is not None:
            return slot.reserved_for
    return []


def membership_request(*, league, user, invite_code: str = "") -> Membership:
    """Join a league: at once with its invitation link, otherwise when an admin approves."""
    with transaction.atomic():
        membership, _created = Membership.objects.select_for_update().get_or_create(
            league=league, user=user
        )
        invited = bool(invite_code) and secrets.compare_digest(invite_code, league.invite_code)
        if invited and membership.status != Membership.Status.ACTIVE:
            membership.status = Membership.Status.ACTIVE
            membership.save(update_fields=["status"])
        if _created and membership.status == Membership.Status.PENDING:
            transaction.on_commit(lambda: notify.join_request_waits(membership=membership))
    return membership


def membership_approve(*, memberships) -> int:
    """Let waiting players in; returns how many were approved."""
    return Membership.objects.filter(
        pk__in=[m.pk for m in memberships], status=Membership.Status.PENDING
    ).update(status=Membership.Status.ACTIVE)


def membership_leave(*, league, user) -> None:
    Membership.objects.filter(league=league, user=user).delete()


def league_admins_join(*, league_ids, user_ids) -> None:
    """A league's admins are active members of it from the moment they are named: they play
    in it and never have to ask to join their own league. (Called whenever admins are added,
    from the admin or anywhere else: leagues.receivers.)"""
    with transaction.atomic():
        for league_id in league_ids:
            for user_id in user_ids:
                membership, created = Membership.objects.select_for_update().get_or_create(
                    league_id=league_id,
                    user_id=user_id,
                    defaults={"status": Membership.Status.ACTIVE},
                )
                if not created and membership.status != Membership.Status.ACTIVE:
                    membership.status = Membership.Status.ACTIVE
                    membership.save(update_fields=["status"])


def league_new_invite_code(*, league) -> str:
    """A new invitation link for the league: the old one stops working at once."""
    from leagues.models import new_invite_code

    league.invite_code = new_invite_code()
    league.save(update_fields=["invite_code"])
    return league.invite_code


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


# --- results -----------------------------------------------------------------------------


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
    from games.models import RoundScore

    return RoundScore.objects.filter(**where).values_list(
        "game_id", "round", "seat", "heads", "game__table__kind"
    )


def _seat_rows(**where):
    from games.models import Seat

    return Seat.objects.filter(**where).values_list("table__game__id", "position", "user_id")


def _tally(standing: Standing) -> scoring.Tally:
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


def _set_tally(standing: Standing, tally: scoring.Tally) -> Standing:
    for name in TALLY_FIELDS:
        setattr(standing, name, getattr(tally, name))
    return standing


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
    from games.models import Game
    from games.selectors import deals_in_play

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
    ratings = _locked_ratings(users, season.kind)
    entry = LeagueGame.objects.create(season=season, game=game, finished_at=game.finished_at)

    tallies = {user: _tally(standing) for user, standing in standings.items()}
    lines = scoring.enter(
        outcome, tallies=tallies, points_table=season.points_table(), when=entry.finished_at
    )
    overall = {user: (rating.mu, rating.sigma) for user, rating in ratings.items()}
    scoring.enter_overall(outcome, ratings=overall)

    Placing.objects.bulk_create(_placing(entry, line, overall[line.user]) for line in lines)
    changed = [_set_tally(standings[user], tallies[user]) for user in standings]
    Standing.objects.bulk_update(changed, TALLY_FIELDS)
    Standing.objects.bulk_create(
        _set_tally(Standing(season=season, user_id=user), tallies[user])
        for user in users
        if user not in standings
    )
    for user, rating in ratings.items():
        rating.mu, rating.sigma = overall[user]
        rating.games += 1
    PlayerRating.objects.bulk_update(ratings.values(), ["mu", "sigma", "games"])


def _locked_ratings(users: list[int], kind: str) -> dict[int, PlayerRating]:
    # Inserted in user id order too: an insert waits on another transaction's uncommitted
    # row for the same user, and waiting in one order everywhere cannot deadlock.
    PlayerRating.objects.bulk_create(
        [PlayerRating(user_id=user, kind=kind) for user in sorted(users)], ignore_conflicts=True
    )
    rows = (
        PlayerRating.objects.select_for_update()
        .filter(user_id__in=users, kind=kind)
        .order_by("user_id")
    )
    return {rating.user_id: rating for rating in rows}


def season_games(*, season) -> int:
    """How many finished games a recompute of the season replays."""
    from games.models import Game

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
    from games.models import Game
    from games.selectors import deals_in_play

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
                    for line in lines:
                        games_played[line.user] += 1
                        placings.append(_placing(entry, line, overall[line.user]))
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

        scoring.enter_absences(
            tallies,
            season.absences.order_by("pk").values_list("user_id", "created_at"),
            season.absence_score,
        )

        Placing.objects.filter(season=season).delete()
        Placing.objects.bulk_create(placings, batch_size=BATCH)
        Placing.objects.bulk_update(stale, ["overall_mu", "overall_sigma"], batch_size=BATCH)
        Standing.objects.filter(season=season).delete()
        Standing.objects.bulk_create(
            [_set_tally(Standing(season=season, user_id=u), t) for u, t in tallies.items()],
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


# --- seating club evenings and tournaments ---------------------------------------------------


def seating_generate(*, event, seed: int | None = None) -> list:
    """Seat the present players of an evening or tournament for its next round.

    Creates the tables, ready to play: the season's league tables of the season's game,
    their seats reserved for the players seated there (not offered in the lobby), every
    player in their seat. The league's admins run these tables, not their players (the
    first one seated is recorded as the creator, with no power: leagues.receivers); they
    start one table or every table at once, `night_start`. In a duplicate tournament every
    table of the round gets the same `deal_seed`, so every table plays the same deals, and
    the players that do not fill a whole table get a bye. Returns the new tables.
    """
    from games import services as game_services
    from games.models import Table

    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    with transaction.atomic():
        # The event row lock keeps two admins from seating the same round twice.
        event = type(event).objects.select_for_update().get(pk=event.pk)
        season = event.season
        if season.closed:
            raise LeagueError("season_closed", _("This season is closed."))
        slots = list(event.seated_tables.select_related("table").prefetch_related("table__seats"))
        last_round = max((slot.round for slot in slots), default=0)
        is_tournament = isinstance(event, Tournament)
        if is_tournament and last_round >= event.rounds:
            raise LeagueError("all_seated", _("Every round of this tournament is seated."))
        playing = [
            s for s in slots if s.round == last_round and s.table.status != Table.Status.FINISHED
        ]
        if playing:
            raise LeagueError(
                "round_not_over",
                _("Round %(round)s is not over yet.") % {"round": last_round},
            )
        players = {user.pk: user for user in event.players.all()}
        members = set(
            Membership.objects.filter(
                league_id=season.league_id,
                user_id__in=list(players),
                status=Membership.Status.ACTIVE,
            ).values_list("user_id", flat=True)
        )
        outsiders = sorted(u.shown_name for pk, u in players.items() if pk not in members)
        if outsiders:
            raise LeagueError(
                "not_member",
                _("Not members of the league: %(names)s.") % {"names": ", ".join(outsiders)},
            )
        duplicate = is_tournament and event.duplicate
        if len(players) < 2:
            raise LeagueError("bad_count", _("At least two present players are needed."))
        final = is_tournament and event.final_after and last_round == event.final_after
        ranks = None
        if final or event.seating in (SeatingMethod.STANDING, SeatingMethod.SWISS):
            # Swiss: the tournament's standings rank by points, then opponents' points.
            ranks = _ranks(event, list(players), rng, final or (is_tournament and last_round > 0))
        seated = sorted(players)
        byes = []
        if final:
            # The final table: the best of the tournament so far, among the present.
            seated = sorted(sorted(players, key=lambda pk: ranks[pk])[: event.final_size])
            duplicate = False
        if duplicate and len(seated) % event.table_size:
            # Every table of a duplicate round is the same size: some sit this round out.
            # Nobody has a second bye before every present player has had one; among those
            # with the fewest byes, the last in the ranking (by standing), or players drawn
            # at random.
            order = (
                sorted(seated, key=lambda pk: ranks[pk])
                if ranks
                else rng.sample(seated, len(seated))
            )
            had = Counter(
                Absence.objects.filter(tournament=event, bye=True).values_list("user_id", flat=True)
            )
            order.sort(key=lambda pk: -had[pk])
            cut = len(seated) - len(seated) % event.table_size
            seated, byes = sorted(order[:cut]), order[cut:]
            if not seated:
                raise LeagueError(
                    "bad_count",
                    _(
                        "In duplicate, every table has %(size)s players: %(count)s present "
                        "players cannot be seated so."
                    )
                    % {"size": event.table_size, "count": len(players)},
                )
        if final:
            sizes = [len(seated)]
        else:
            sizes = seating.table_sizes(
                len(seated), event.table_size, smallest=event.min_table_size, equal=duplicate
            )
        met = seating.meetings(
            [seat.user_id for seat in slot.table.seats.all() if seat.user_id] for slot in slots
        )
        groups = seating.plan(seated, sizes, met=met, ranks=ranks, rng=rng)
        deal_seed = rng.randrange(1, 2**62) if duplicate else None
        round_number = last_round + 1
        game = season.game
        options = game.event_options(event) if game.event_options else {}
        if duplicate:
            # Every table of the round plays the same game as well as the same deals (the
            # same number of hands, not each to its own end): its Kind says how.
            options = game.duplicate_options(options, sizes[0])
        tables: list[Table] = []
        for number, group in enumerate(groups, start=1):
            try:
                table = game_services.table_create(
                    user=players[group[0]],
                    kind=game.name,
                    seats_count=len(group),
                    options=options,
                    name=_table_name(event, round_number, number),
                    deal_seed=deal_seed,
                    creator_sits=False,
                    reserved=True,
                )
                LeagueTable.objects.create(table=table, season=season)
                event.seated_tables.create(
                    round=round_number, number=number, table=table, reserved_for=list(group)
                )
                for user_id in group:
                    game_services.seat_join(table_id=table.pk, user=players[user_id])
            except game_services.ServiceError as error:
                raise LeagueError(error.code, error.message) from None
            tables.append(table)
        for user_id in byes:
            _absent(event, round_number, players[user_id], bye=True)
        transaction.on_commit(lambda: notify.players_seated(event=event, tables=tables))
        if byes:
            transaction.on_commit(
                lambda: notify.players_bye(event=event, round_number=round_number, user_ids=byes)
            )
    return tables


def _table_name(event, round_number: int, number: int) -> str:
    """ "5 Dec, round 1, table 2" ("Cup, 5 Dec, round 1, table 2" for a tournament)."""
    label = date_format(event.date, "j M")
    if isinstance(event, Tournament):
        label = f"{event.name}, {label}"
    name = _("%(event)s, round %(round)s, table %(table)s") % {
        "event": label,
        "round": round_number,
        "table": number,
    }
    return name[:60]


# --- the night: the league admin's changes to a seated round ------------------------------------


def _open_slot(event, slot_id: int):
    """The event's slot `slot_id`, locked, while its game has not started."""
    from games.models import Table

    slot = (
        event.seated_tables.select_for_update().select_related("table").filter(pk=slot_id).first()
    )
    if slot is None:
        raise LeagueError("no_table", _("This table is not one of this event's."))
    if slot.table.status != Table.Status.OPEN:
        raise LeagueError("started", _("This table's game has started: its seats stay."))
    return slot


def _position(slot, user_id: int) -> int:
    seat = slot.table.seats.filter(user_id=user_id).first()
    if seat is None:
        raise LeagueError("not_seated", _("This player has no seat at this table."))
    return seat.position


def _round_players(event, round_number: int) -> set[int]:
    players = set()
    for slot in event.seated_tables.filter(round=round_number):
        players.update(slot.reserved_for)
    return players


def _reserve(slot, remove: int | None = None, add: int | None = None) -> None:
    players = [pk for pk in slot.reserved_for if pk != remove]
    if add is not None:
        players.append(add)
    slot.reserved_for = players
    slot.save(update_fields=["reserved_for"])


def _assign(slot, position: int, user=None, bot: str = "") -> None:
    from games import services as game_services

    try:
        game_services.seat_assign(table_id=slot.table_id, position=position, user=user, bot=bot)
    except game_services.ServiceError as error:
        raise LeagueError(error.code, error.message) from None


def night_swap(*, event, first: tuple[int, int], second: tuple[int, int]) -> None:
    """Swap two players of a round's tables, before either game starts: `first` and
    `second` are (slot id, user id)."""
    from accounts.models import User

    with transaction.atomic():
        user_a, user_b = first[1], second[1]
        if user_a == user_b:
            raise LeagueError("same_player", _("Choose two different players to swap."))
        slot_a = _open_slot(event, first[0])
        # Two seats of one table swap too: the order of the seats is the order of play.
        slot_b = slot_a if second[0] == slot_a.pk else _open_slot(event, second[0])
        if slot_a.round != slot_b.round:
            raise LeagueError("other_round", _("Only players of the same round can swap."))
        position_a, position_b = _position(slot_a, user_a), _position(slot_b, user_b)
        if slot_a.pk != slot_b.pk:
            _reserve(slot_a, remove=user_a, add=user_b)
            _reserve(slot_b, remove=user_b, add=user_a)
        _assign(slot_a, position_a)
        _assign(slot_b, position_b)
        _assign(slot_a, position_a, user=User.objects.get(pk=user_b))
        _assign(slot_b, position_b, user=User.objects.get(pk=user_a))


def night_replace(*, event, slot_id: int, user_id: int, by_user=None, by_bot: str = "") -> None:
    """Give a player's seat, before the game starts, to another member (not seated in the
    round yet) or to a bot of the season's game. The player leaves the round's seating and
    the event's present players, and the member joins them, so that the next round seats
    the one who came; both are mailed."""
    with transaction.atomic():
        slot = _open_slot(event, slot_id)
        position = _position(slot, user_id)
        if by_user is not None:
            if by_user.pk in _round_players(event, slot.round):
                raise LeagueError(
                    "already_seated", _("This player already has a seat in this round.")
                )
            _reserve(slot, remove=user_id, add=by_user.pk)
            _assign(slot, position)
            _assign(slot, position, user=by_user)
            event.players.add(by_user)
            by_name = by_user.shown_name
            transaction.on_commit(
                lambda: notify.players_seated(
                    event=event, tables=[slot.table], user_ids=[by_user.pk]
                )
            )
        elif by_bot:
            _reserve(slot, remove=user_id)
            _assign(slot, position, bot=by_bot)
            # The bot's label, translated in each mail's language.
            by_name = dict(event.season.game.bot_choices).get(by_bot, by_bot)
        else:
            raise LeagueError("no_one", _("Choose a member or a bot to take the seat."))
        event.players.remove(user_id)
        transaction.on_commit(
            lambda: notify.player_unseated(
                event=event, round_number=slot.round, user_id=user_id, by_name=by_name
            )
        )


def night_remove(*, event, slot_id: int, user_id: int, absent: bool = True) -> int:
    """Take a player out of a round's table before its game starts (the others play
    without them); returns how many players the table keeps. `absent` records an absence,
    which the season may count, and takes the player out of the event's present players
    (mailed); without it the player stays present, and the next round seats them."""
    from accounts.models import User

    with transaction.atomic():
        slot = _open_slot(event, slot_id)
        position = _position(slot, user_id)
        left = slot.table.seats.count() - 1
        if left < 2:
            raise LeagueError("too_few", _("A table needs at least two players."))
        _reserve(slot, remove=user_id)
        _assign(slot, position)
        if absent:
            _absent(event, slot.round, User.objects.get(pk=user_id), bye=False)
            event.players.remove(user_id)
            transaction.on_commit(
                lambda: notify.player_unseated(
                    event=event, round_number=slot.round, user_id=user_id
                )
            )
    return left


def night_start(*, event, slot_ids: list[int], user=None) -> list:
    """Start the games of these tables of the event (those not started yet); returns the
    tables started. `user`: the admin who starts them (the night panel's), who must run
    the tables (a league admin or a superuser, games.services.runs_table); None for a
    caller that acts for the league itself, having checked who may (a command)."""
    from games import services as game_services
    from games.models import Table

    started = []
    for slot in event.seated_tables.filter(pk__in=slot_ids).select_related("table"):
        if slot.table.status != Table.Status.OPEN:
            continue
        try:
            game_services.table_start(table_id=slot.table_id, user=user)
        except game_services.ServiceError as error:
            raise LeagueError(error.code, f"{slot.table}: {error.message}") from None
        started.append(slot.table)
    return started


def _absent(event, round_number: int, user, *, bye: bool) -> Absence:
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
        standing, _created = Standing.objects.select_for_update().get_or_create(
            season=season, user=user
        )
        tally = _tally(standing)
        scoring.enter_absence(tally, season.absence_score, when=absence.created_at)
        _set_tally(standing, tally).save()
    return absence


def _ranks(event, players: list[int], rng, by_tournament: bool) -> dict[int, int]:
    """0 for the best of the present players, by the tournament's standings once it has
    results, else by the season's; players without a result come last, in random order."""
    from leagues import selectors

    if by_tournament:
        order = [row.user.pk for row in selectors.tournament_standings(tournament=event)]
    else:
        order = [row.user.pk for row in selectors.season_standings(season=event.season)]
    present = set(players)
    ranked = [pk for pk in order if pk in present]
    rest = sorted(present - set(ranked))
    rng.shuffle(rest)
    return {pk: index for index, pk in enumerate(ranked + rest)}


# --- games played with real cards: score sheets and their players' answers -----------------------


def _sheet_error(error) -> LeagueError:
    return LeagueError("bad_sheet", str(error))


def sheet_enter(
    *,
    season,
    user,
    players: list,
    lines,
    played_on,
    evening=None,
    round_number: int | None = None,
    table=None,
) -> ScoreSheet:
    """Enter the score sheet of a game played with real cards: a league admin, or one of
    its players where the season lets players enter sheets. Its table is played on paper
    (a seated table of an evening, `table`, switches; else a new one, in `evening`'s round
    `round_number` when given). The sheet counts once every player has confirmed it (the
    one who entered it confirms by entering it), or when a league admin confirms it for all.
    """
    from games import paper
    from games import services as game_services
    from games.models import Table

    league = season.league
    is_admin = league.is_admin(user)
    if not is_admin and not (season.players_enter_sheets and user in players):
        raise LeagueError(
            "not_allowed",
            _("Only the league's admins, or one of its players, can enter this game's sheet."),
        )
    if season.closed:
        raise LeagueError("season_closed", _("This season is closed."))
    if played_on > timezone.localdate():
        raise LeagueError(
            "played_later",
            _("The sheet is dated later than today: enter it once the game is played."),
        )
    if len({player.pk for player in players}) != len(players):
        raise LeagueError("twice", _("Each player is on the sheet once."))
    if len(players) not in season.game.players:
        raise LeagueError(
            "bad_count",
            _("%(game)s is played by %(low)s to %(high)s players.")
            % {
                "game": season.game.label,
                "low": season.game.players[0],
                "high": season.game.players[-1],
            },
        )
    members = set(
        Membership.objects.filter(
            league=league, user__in=players, status=Membership.Status.ACTIVE
        ).values_list("user_id", flat=True)
    )
    outsiders = sorted(p.shown_name for p in players if p.pk not in members)
    if outsiders:
        raise LeagueError(
            "not_member",
            _("Not members of the league: %(names)s.") % {"names": ", ".join(outsiders)},
        )
    try:
        season.game.paper_sheet(lines, len(players))
    except paper.SheetError as error:
        raise _sheet_error(error) from None
    with transaction.atomic():
        if table is None:
            table = game_services.table_create(
                user=user,
                kind=season.kind,
                seats_count=len(players),
                options={},
                name=_("%(date)s, on paper") % {"date": date_format(played_on, "j M")},
                creator_sits=False,
                reserved=True,
            )
            LeagueTable.objects.create(table=table, season=season)
            game_services.table_paper(table_id=table.pk)
            if evening is not None:
                number = 1 + max(
                    (s.number for s in evening.seated_tables.filter(round=round_number or 1)),
                    default=0,
                )
                evening.seated_tables.create(
                    round=round_number or 1,
                    number=number,
                    table=table,
                    reserved_for=[p.pk for p in players],
                )
        else:
            table = Table.objects.select_for_update().get(pk=table.pk)
            if season_id_of(table) != season.pk or table.status == Table.Status.FINISHED:
                raise LeagueError("bad_table", _("This table is not waiting for a score sheet."))
            if not table.paper:
                game_services.table_paper(table_id=table.pk)
            if hasattr(table, "score_sheet"):
                raise LeagueError("has_sheet", _("This table's sheet is already entered."))
        game_services.paper_seats(table_id=table.pk, users=players)
        sheet = ScoreSheet.objects.create(
            table=table, season=season, played_on=played_on, lines=lines, entered_by=user
        )
        if user in players:
            SheetAnswer.objects.create(sheet=sheet, user=user, confirmed=True)
        _count_if_agreed(sheet)
        transaction.on_commit(lambda: notify.sheet_waits(sheet=sheet, by=user))
    return sheet


def sheet_players(sheet) -> list:
    return [seat.user for seat in sheet.table.seats.select_related("user").order_by("position")]


def sheet_answer(*, sheet, user, confirmed: bool, reason: str = "") -> ScoreSheet:
    """A player of the sheet's game confirms it, or disputes it with a reason (the sheet
    then waits for the league admin)."""
    with transaction.atomic():
        sheet = ScoreSheet.objects.select_for_update().get(pk=sheet.pk)
        if user.pk not in {p.pk for p in sheet_players(sheet)}:
            raise LeagueError("not_player", _("Only the game's players answer its sheet."))
        if sheet.status == ScoreSheet.Status.CONFIRMED:
            raise LeagueError("confirmed", _("This sheet is confirmed already."))
        if not confirmed and not reason.strip():
            raise LeagueError("no_reason", _("Say what is wrong with the sheet."))
        SheetAnswer.objects.update_or_create(
            sheet=sheet, user=user, defaults={"confirmed": confirmed, "reason": reason.strip()}
        )
        if not confirmed:
            sheet.status = ScoreSheet.Status.DISPUTED
            sheet.save(update_fields=["status"])
        else:
            _count_if_agreed(sheet)
    return sheet


def sheet_fix(*, sheet, user, lines) -> ScoreSheet:
    """A league admin writes a pending or disputed sheet again: its players answer anew."""
    from games import paper

    with transaction.atomic():
        sheet = ScoreSheet.objects.select_for_update().get(pk=sheet.pk)
        if not sheet.season.league.is_admin(user):
            raise LeagueError("not_allowed", _("Only the league's admins fix a sheet."))
        if sheet.status == ScoreSheet.Status.CONFIRMED:
            raise LeagueError("confirmed", _("A confirmed sheet is corrected, not fixed."))
        try:
            sheet.season.game.paper_sheet(lines, len(sheet_players(sheet)))
        except paper.SheetError as error:
            raise _sheet_error(error) from None
        sheet.lines = lines
        sheet.status = ScoreSheet.Status.PENDING
        sheet.save(update_fields=["lines", "status"])
        sheet.answers.all().delete()
        transaction.on_commit(lambda: notify.sheet_waits(sheet=sheet, by=user, again=True))
    return sheet


def sheet_confirm_all(*, sheet, user) -> ScoreSheet:
    """A league admin confirms a sheet for all its players: it counts now."""
    with transaction.atomic():
        sheet = ScoreSheet.objects.select_for_update().get(pk=sheet.pk)
        if not sheet.season.league.is_admin(user):
            raise LeagueError("not_allowed", _("Only the league's admins confirm for all."))
        if sheet.status == ScoreSheet.Status.CONFIRMED:
            return sheet
        for player in sheet_players(sheet):
            SheetAnswer.objects.update_or_create(
                sheet=sheet, user=player, defaults={"confirmed": True}
            )
        _count_if_agreed(sheet)
    return sheet


def _count_if_agreed(sheet) -> None:
    """Every player has confirmed (a disputed sheet too, once whoever disputed it agrees,
    or a league admin confirms it for all): the sheet becomes its table's game, which
    enters the season (games.services.paper_result, through games.signals.game_finished)
    on the day it was played. Call with the sheet's row locked: it counts once."""
    from games import paper
    from games import services as game_services

    players = {p.pk for p in sheet_players(sheet)}
    agreed = set(sheet.answers.filter(confirmed=True).values_list("user_id", flat=True))
    if sheet.status == ScoreSheet.Status.CONFIRMED or not players <= agreed:
        return
    try:
        game_services.paper_result(
            table_id=sheet.table_id, lines=sheet.lines, finished_at=_played_at(sheet)
        )
    except paper.SheetError as error:
        raise _sheet_error(error) from None
    except game_services.ServiceError as error:
        raise LeagueError(error.code, error.message) from None
    sheet.status = ScoreSheet.Status.CONFIRMED
    sheet.save(update_fields=["status"])


def _played_at(sheet) -> datetime.datetime:
    """When a game played on paper finished, for the standings and "last played": noon,
    the club's time, on the day written on its sheet (now, if that noon is still to come)."""
    noon = datetime.datetime.combine(sheet.played_on, datetime.time(12))
    return min(timezone.make_aware(noon, timezone.get_default_timezone()), timezone.now())


def table_to_paper(*, event, slot_id: int) -> None:
    """A seated table of the night is played with real cards (before its game or during
    it): its sheet is entered instead."""
    from games import services as game_services

    with transaction.atomic():
        slot = event.seated_tables.filter(pk=slot_id).first()
        if slot is None:
            raise LeagueError("no_table", _("This table is not one of this event's."))
        try:
            game_services.table_paper(table_id=slot.table_id)
        except game_services.ServiceError as error:
            raise LeagueError(error.code, error.message) from None


# --- corrections and voids: the only ways a finished result changes ------------------------------


def result_correct(*, game, lines, reason: str, user) -> ResultChange:
    """Give a finished league game another score sheet, with a reason: kept with who and
    when (ResultChange); the season's standings and ratings are then recomputed."""
    from games import paper
    from games import services as game_services

    if not reason.strip():
        raise LeagueError("no_reason", _("Say why the result changes."))
    with transaction.atomic():
        before = list(game.result["rounds"]) if game.result else []
        try:
            game = game_services.game_sheet_replace(game_id=game.pk, lines=lines)
        except paper.SheetError as error:
            raise _sheet_error(error) from None
        except game_services.ServiceError as error:
            raise LeagueError(error.code, error.message) from None
        ScoreSheet.objects.filter(table_id=game.table_id).update(lines=lines)
        return ResultChange.objects.create(
            game=game,
            action=ResultChange.Action.CORRECT,
            reason=reason.strip(),
            before=before,
            after=game.result["rounds"],
            changed_by=user,
        )


def result_void(*, game, reason: str, user) -> ResultChange:
    """Take a finished league game out of its season, with a reason: it stays listed as
    void, counts in nothing, and the change is kept (ResultChange)."""
    if not reason.strip():
        raise LeagueError("no_reason", _("Say why the game is voided."))
    with transaction.atomic():
        entry = LeagueGame.objects.select_for_update().filter(game=game).first()
        if entry is None:
            raise LeagueError("not_league", _("Only a league game's result is voided."))
        if entry.void:
            raise LeagueError("void", _("This game is void already."))
        entry.void = True
        entry.save(update_fields=["void"])
        return ResultChange.objects.create(
            game=game,
            action=ResultChange.Action.VOID,
            reason=reason.strip(),
            before=list(game.result["rounds"]) if game.result else [],
            after=None,
            changed_by=user,
        )


# --- tournament registration and check-in -------------------------------------------------------


def tournament_register(*, tournament, user) -> None:
    """A member registers for a tournament while its registration is open."""
    if not tournament.registration_open:
        raise LeagueError("closed", _("Registration for this tournament is closed."))
    if not Membership.objects.filter(
        league_id=tournament.season.league_id, user=user, status=Membership.Status.ACTIVE
    ).exists():
        raise LeagueError("not_member", _("Only members of the league can register."))
    Registration.objects.get_or_create(tournament=tournament, user=user)


def tournament_withdraw(*, tournament, user) -> None:
    """A player withdraws before being checked in."""
    if tournament.players.filter(pk=user.pk).exists():
        raise LeagueError("checked_in", _("You are checked in: ask the organiser."))
    Registration.objects.filter(tournament=tournament, user=user).delete()


def tournament_check_in(*, tournament, user_ids: list[int]) -> int:
    """The organiser checks in registered players who came: they are present, and the
    seating seats them. Returns how many were checked in."""
    registered = set(
        Registration.objects.filter(tournament=tournament, user_id__in=user_ids).values_list(
            "user_id", flat=True
        )
    )
    tournament.players.add(*registered)
    return len(registered)
