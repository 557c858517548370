"""Seating club evenings and tournaments for their next round."""

import random
from collections import Counter

from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games import services as game_services
from games.models import Table
from leagues import notify, seating, selectors
from leagues.models import (
    Absence,
    LeagueTable,
    Membership,
    SeatingMethod,
    Tournament,
)
from leagues.services.errors import LeagueError
from leagues.services.results import record_absence


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
            record_absence(event, round_number, players[user_id], bye=True)
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


def _ranks(event, players: list[int], rng, by_tournament: bool) -> dict[int, int]:
    """0 for the best of the present players, by the tournament's standings once it has
    results, else by the season's; players without a result come last, in random order."""
    if by_tournament:
        order = [row.user.pk for row in selectors.tournament_standings(tournament=event)]
    else:
        order = [row.user.pk for row in selectors.season_standings(season=event.season)]
    present = set(players)
    ranked = [pk for pk in order if pk in present]
    rest = sorted(present - set(ranked))
    rng.shuffle(rest)
    return {pk: index for index, pk in enumerate(ranked + rest)}
