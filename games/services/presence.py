"""Presence (RULES §1.8): a seated player is present while a socket of hers is open at
the table. A socket says so when it opens (`seat_seen`), and each process's clock says
which of its sockets are open every `heartbeat_seconds` (`seats_seen`); the sweep marks
away the players none of whose sockets has been open for SIXCLUB_AWAY_GRACE seconds, and
closes the tables nobody comes back to.

Several processes run a clock: every write here is claimed under a row lock and checked
again there, so each change is made once.
"""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games import signals
from games.models import GAME_PLAY_FIELDS, TURN_BASED_FROM, Game, Seat, Table
from games.services.common import _announce_on_commit
from games.services.decisions import _advance
from games.services.tables import _set_away

HUMAN = Q(bot="", user__isnull=False)
# Presence does not apply to turn-based tables (RULES §1.8): the sweep leaves them alone.
LIVE = Q(time_limit__lt=TURN_BASED_FROM)


def heartbeat_seconds() -> float:
    """How often each process says which players its sockets hold."""
    return settings.SIXCLUB_AWAY_GRACE / 3


def unseen_for_away() -> timedelta:
    """How long a seat goes unseen before its player is away. A closing socket writes
    nothing (a socket's close stays free of database work): her last socket closed at
    most one heartbeat after she was last seen, so the grace counts from one heartbeat
    later."""
    return timedelta(seconds=settings.SIXCLUB_AWAY_GRACE + heartbeat_seconds())


def seat_seen(*, table_id: int, user_id: int, now=None) -> None:
    """A socket of the player opened at the table: she is there now."""
    Seat.objects.filter(table_id=table_id, user_id=user_id).update(seen_at=now or timezone.now())


def seats_seen(sockets, now=None) -> int:
    """The players of these open table sockets ((table id, user id) pairs) are there: one
    UPDATE for all of them. Returns how many seats it touched."""
    pairs = set(sockets)
    if not pairs:
        return 0
    present = Q()
    for table_id, user_id in pairs:
        present |= Q(table_id=table_id, user_id=user_id)
    return Seat.objects.filter(present).update(seen_at=now or timezone.now())


def sweep(now=None) -> dict:
    """Mark away the players not seen for the grace; close the open tables and end the
    games that nobody comes back to. Returns how many of each it changed."""
    now = now or timezone.now()
    return {
        "away": _mark_away(now),
        "open_abandoned": _abandon_open_tables(now),
        "games_ended": _end_abandoned_games(now),
    }


def _not_seen_since(cutoff) -> Q:
    """Seats of a game in play not seen since `cutoff`: never seen counts from the start."""
    return Q(seen_at__lt=cutoff) | Q(seen_at__isnull=True, table__game__started_at__lt=cutoff)


def _mark_away(now) -> int:
    cutoff = now - unseen_for_away()
    gone = Seat.objects.filter(
        HUMAN,
        table__status=Table.Status.PLAYING,
        table__paper=False,
        table__time_limit__lt=TURN_BASED_FROM,
    )
    gone = gone.filter(_not_seen_since(cutoff), away=False)
    marked = 0
    for seat_id, table_id in gone.values_list("pk", "table_id"):
        with transaction.atomic():
            # The table's row orders this with the player's own return (services.tables).
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None or table.status != Table.Status.PLAYING:
                continue
            seat = Seat.objects.filter(_not_seen_since(cutoff), pk=seat_id, away=False).first()
            if seat is None:
                continue  # seen again, or marked away by another clock
            _set_away(table, seat, away=True, now=now)
            marked += 1
    return marked


def _abandon_open_tables(now) -> int:
    """An open table none of whose players has been seen for SIXCLUB_ABANDON_OPEN seconds
    (a seat never seen counts from the table's making) is abandoned. Not a table another
    app reserved (a club night's, seated in advance by its organisers), one played on
    paper, nor a turn-based one (its players come by when they can)."""
    cutoff = now - timedelta(seconds=settings.SIXCLUB_ABANDON_OPEN)
    seen = Seat.objects.filter(HUMAN, table=OuterRef("pk"), seen_at__gte=cutoff)
    idle = Table.objects.filter(
        LIVE, status=Table.Status.OPEN, reserved=False, paper=False, created_at__lt=cutoff
    ).exclude(Exists(seen))
    abandoned = 0
    for table_id in idle.values_list("pk", flat=True)[:100]:
        with transaction.atomic():
            # Checked again under the lock: a player may have sat or come back.
            table = idle.select_for_update(skip_locked=True).filter(pk=table_id).first()
            if table is None:
                continue
            table.status = Table.Status.ABANDONED
            table.save(update_fields=["status"])
            _announce_on_commit(table, lobby=True)
            abandoned += 1
    return abandoned


def _end_abandoned_games(now) -> int:
    """A live game all of whose players have been away for SIXCLUB_ABANDON_GAME seconds ends:
    played out by the computer when it counts (`_counted`), so that it counts as any game
    does; else (one human against bots) left unfinished, its table abandoned."""
    cutoff = now - timedelta(seconds=settings.SIXCLUB_ABANDON_GAME)
    still_here = Seat.objects.filter(HUMAN, table=OuterRef("pk")).filter(
        Q(away=False) | Q(away_since__isnull=True) | Q(away_since__gte=cutoff)
    )
    gone = Table.objects.filter(LIVE, status=Table.Status.PLAYING, paper=False).exclude(
        Exists(still_here)
    )
    ended = 0
    for table_id in gone.values_list("pk", flat=True)[:100]:
        with transaction.atomic():
            table = gone.select_for_update(skip_locked=True).filter(pk=table_id).first()
            if table is None:
                continue
            game = Game.objects.select_for_update().get(table=table)
            if _counted(table):
                seats = {seat.position: seat for seat in table.seats.all()}
                _advance(game, table, seats, now, everyone=True)
            else:
                table.status = Table.Status.ABANDONED
                table.save(update_fields=["status"])
                game.deadline = None
                game.finished_at = now
            game.save(update_fields=GAME_PLAY_FIELDS)
            _announce_on_commit(table, None, lobby=True)
            ended += 1
    return ended


def _counted(table: Table) -> bool:
    """Whether the table's game counts: another app counts it (names what it counts in),
    or two humans or more played it (their ratings move: leaving is not free)."""
    if table.seats.filter(HUMAN).count() >= 2:
        return True
    return any(text for _receiver, text in signals.counted_in.send(sender=Table, table=table))
