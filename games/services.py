"""The one door through which a table or a game changes.

Every write here runs in one transaction: lock the row, check, apply, persist, and only
then (on commit) announce "table N is at version v" on the channel layer. Announcements
carry no secret; each connection renders its own seat's view from the database.
"""

import copy
import json
import logging
import random
import threading
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine, hub, signals
from games.bots import get_bot
from games.models import GAME_PLAY_FIELDS, Decision, Game, RoundScore, Seat, Table, TakenCard

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
# Decisions made for a seat without asking its player: bots, absent players, time-outs.
AUTOMATIC_SOURCES = (Decision.Source.BOT, Decision.Source.AWAY, Decision.Source.TIMEOUT)


class ServiceError(Exception):
    """A request the service refuses; `code` is for programs, the message for people."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Accepted:
    version: int
    duplicate: bool = False


# --- announcements -----------------------------------------------------------------------


_deferred = threading.local()


@contextmanager
def announcements_deferred():
    """Collect the announcements of this thread's services instead of sending them.

    A socket's consumer decides in a worker thread and sends the collected announcements
    itself from the event loop, after the acknowledgement: the thread does not wait for
    the busy event loop, and the player's acknowledgement does not wait for the other
    seats (docs/performance.md §7). Yields the list of (group, message) to send.
    """
    pending: list[tuple[str, dict]] = []
    _deferred.pending = pending
    try:
        yield pending
    finally:
        _deferred.pending = None


def _announce(group: str, message: dict) -> None:
    pending = getattr(_deferred, "pending", None)
    if pending is not None:
        pending.append((group, message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if message["type"] == "table.changed":
            hub.publish(message["table"], message)  # Redis pub/sub, or the layer without it
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:
        # The change is committed; a lost announcement only delays screens until the
        # next one or a reconnect, which always renders from the database.
        log.exception("could not announce %s to %s", message.get("type"), group)


def _announce_on_commit(table: Table, version: int | None = None, lobby: bool = False) -> None:
    table_id = table.pk

    def send():
        _announce(
            hub.table_group(table_id),
            {"type": "table.changed", "table": table_id, "version": version},
        )
        if lobby:
            _announce(LOBBY_GROUP, {"type": "lobby.changed"})

    transaction.on_commit(send)


# --- tables and seats ----------------------------------------------------------------------


def table_create(
    *,
    user,
    kind: str = "nimmt",
    seats_count: int,
    options: dict,
    time_limit: int = 0,
    is_public: bool = True,
    show_played: bool = False,
    name: str = "",
    season=None,
    deal_seed: int | None = None,
    creator_sits: bool = True,
) -> Table:
    game_engine = engine.get(kind)
    try:
        options = game_engine.normalize_options(options, seats_count)
    except engine.OptionsError as error:
        raise ServiceError("bad_options", str(error)) from None
    with transaction.atomic():
        table = Table.objects.create(
            kind=kind,
            name=name,
            created_by=user,
            seats_count=seats_count,
            options=options,
            time_limit=time_limit,
            is_public=is_public,
            show_played=show_played,
            season=season,
            deal_seed=deal_seed,
        )
        if creator_sits:
            _check_can_sit(table, user)
            Seat.objects.create(table=table, position=0, user=user)
        _announce_on_commit(table, lobby=True)
    return table


def _locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise ServiceError("no_table", _("This table does not exist.")) from None


def _free_position(table: Table) -> int:
    taken = set(table.seats.values_list("position", flat=True))
    for position in range(table.seats_count):
        if position not in taken:
            return position
    raise ServiceError("table_full", _("This table is full."))


def _check_can_sit(table: Table, user) -> None:
    # Other apps' rules (a league table seats only its members) refuse by raising
    # ServiceError from a receiver of games.signals.seat_wanted.
    signals.seat_wanted.send(sender=Table, table=table, user=user)


def _require_open(table: Table) -> None:
    if table.status != Table.Status.OPEN:
        raise ServiceError("not_open", _("This table has already started."))


def seat_join(*, table_id: int, user, invite_code: str = "") -> Seat:
    with transaction.atomic():
        # The table row lock serialises joins: two players cannot take the last seat.
        table = _locked_table(table_id)
        existing = table.seats.filter(user=user).first()
        if existing:
            return existing
        _require_open(table)
        if not table.is_public and invite_code != table.invite_code:
            raise ServiceError("private", _("This table is private: you need its invite link."))
        _check_can_sit(table, user)
        seat = Seat.objects.create(table=table, position=_free_position(table), user=user)
        _announce_on_commit(table, lobby=True)
    return seat


def seat_add_bot(*, table_id: int, user, bot: str) -> Seat:
    from games.bots import BOTS

    if bot not in BOTS:
        raise ServiceError("bad_bot", _("Unknown bot."))
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.created_by_id != user.pk:
            raise ServiceError("not_creator", _("Only the table's creator can add bots."))
        _require_open(table)
        seat = Seat.objects.create(table=table, position=_free_position(table), bot=bot)
        _announce_on_commit(table, lobby=True)
    return seat


def seat_remove(*, table_id: int, user, position: int | None = None) -> None:
    """Before the game: free your own seat, or (creator) a bot's or anyone's seat.

    During the game your seat stays yours and the fallback plays for you (RULES §1.8)
    until you come back.
    """
    with transaction.atomic():
        table = _locked_table(table_id)
        own = table.seats.filter(user=user).first()
        if table.status == Table.Status.PLAYING:
            if own is None:
                raise ServiceError("not_seated", _("You have no seat at this table."))
            _set_away(table, own, away=True)
            return
        _require_open(table)
        if position is None or (own and own.position == position):
            seat = own
        elif table.created_by_id == user.pk:
            seat = table.seats.filter(position=position).first()
        else:
            raise ServiceError("not_creator", _("Only the table's creator can free that seat."))
        if seat is None:
            raise ServiceError("not_seated", _("You have no seat at this table."))
        seat.delete()
        _announce_on_commit(table, lobby=True)


def seat_return(*, table_id: int, user) -> None:
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = table.seats.filter(user=user, away=True).first()
        if seat is None or table.status != Table.Status.PLAYING:
            return
        _set_away(table, seat, away=False)


def _set_away(table: Table, seat: Seat, *, away: bool) -> None:
    seat.away = away
    seat.save(update_fields=["away"])
    if away:
        # The fallback plays for the absent player right away if it is their move.
        game = Game.objects.select_for_update().get(table=table)
        version_before = game.version
        _advance(game, table, {s.position: s for s in table.seats.all()}, timezone.now())
        game.save()
        # A seat's absence moves no version when no fallback played: announce it as a
        # change of seats, which every screen renders afresh.
        _announce_on_commit(table, game.version if game.version != version_before else None)
    else:
        _announce_on_commit(table)


def table_start(*, table_id: int, user) -> Game:
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.created_by_id != user.pk:
            raise ServiceError("not_creator", _("Only the table's creator can start the game."))
        # Checked under the lock: a second "start" finds the table playing and is refused.
        _require_open(table)
        seats = list(table.seats.select_related("user").order_by("position"))
        if len(seats) < 2:
            raise ServiceError("too_few", _("At least two seats must be taken to start."))
        if not any(seat.user_id for seat in seats):
            raise ServiceError("no_player", _("At least one player must sit at the table."))
        # Seats are packed 0..n-1 in the order they were taken: the engine's seat numbers.
        for index, seat in enumerate(seats):
            if seat.position != index:
                seat.position = 100 + index
                seat.save(update_fields=["position"])
        for index, seat in enumerate(seats):
            if seat.position != index:
                seat.position = index
                seat.save(update_fields=["position"])
        game_engine = engine.get(table.kind)
        options = game_engine.normalize_options(table.options, len(seats))
        seed = table.deal_seed or random.SystemRandom().randrange(1, 2**62)
        state = game_engine.new_game(players=len(seats), options=options, seed=seed)
        table.status = Table.Status.PLAYING
        table.options = options
        table.save(update_fields=["status", "options"])
        game = Game(table=table, seed=seed, state=game_engine.dump(state), version=state.version)
        game.save()
        _advance(game, table, {seat.position: seat for seat in seats}, timezone.now())
        game.save()
        _announce_on_commit(table, game.version, lobby=True)
    return game


# --- decisions ---------------------------------------------------------------------------


def game_decide(
    *,
    table_id: int,
    user,
    decision: dict,
    client_id: str = "",
    seen_version: int | None = None,
) -> Accepted:
    """Apply a player's decision. Acknowledge only what this returns: it is committed.

    `client_id` makes a resent decision harmless (it is applied once); `seen_version`, the
    version the player's screen showed, refuses a decision made on a screen from an
    earlier turn.
    """
    try:
        accepted = _select_within_turn(table_id, user, decision, client_id, seen_version)
        if accepted is None:
            accepted = _decide(table_id, user, decision, client_id, seen_version)
        return accepted
    except IntegrityError:
        # Only a decision already applied under this client id can collide here
        # (Decision's "client_decision_once"): a resend after a lost acknowledgement.
        duplicate = _duplicate(table_id, user, client_id)
        if duplicate is None:
            raise
        return duplicate


def _duplicate(table_id: int, user, client_id: str) -> Accepted | None:
    """The acknowledgement of a decision already applied under `client_id`, if any."""
    if not client_id:
        return None
    game = Game.objects.filter(table_id=table_id).only("pk", "version").first()
    seat = Seat.objects.filter(table_id=table_id, user=user).only("position").first()
    if game is None or seat is None:
        return None
    if not game.decisions.filter(seat=seat.position, client_id=client_id).exists():
        return None
    return Accepted(version=game.version, duplicate=True)


def _select_within_turn(table_id, user, decision, client_id, seen_version) -> Accepted | None:
    """The most common decision, in one statement: a selection that is not the last of its
    turn (RULES §1.3), on a game this process kept at its current version.

    Such a selection changes only the game's state and version, and adds one decision to
    the log: no card moves on the board, no deadline opens, no bot nor absent player has
    to act. The game's row is updated only if it is still at the kept version with the
    kept seats (another process, a seat changed by the admin: `seats_version`), and the
    decision is inserted by the same statement, so both commit together or not at all.

    Returns None whenever anything else may be needed (a decision that moves the game to
    a reveal, an illegal or stale decision, no kept game, an away seat, a version moved
    elsewhere): `_decide` then does the whole work under the row lock. A resent decision
    collides on `client_decision_once` here as there (IntegrityError, see game_decide).
    """
    plan = _plan_selection(table_id, user, decision, client_id, seen_version)
    if plan is None or not _store_selection(plan):
        return None
    _announce(*_selection_made(plan))
    return Accepted(version=plan.version)


async def decide_on_loop(
    table_id, user, decision: dict, client_id: str = "", seen_version: int | None = None
):
    """A decision stored from the event loop, in one statement on the loop's own
    connection (games.loopdb): no decision thread, no hand-over back to the loop.

    Two kinds: a selection within its turn (`_select_within_turn`'s statement), and a
    decision that moves the game on (the turn's last selection and its reveal, a row, a
    pick) at a table where nobody plays automatically and that does not end the game
    (`_plan_play`). Both are planned on the game this process kept and stored only if the
    game's row is still at that version, as the row lock's full path would have stored
    them.

    Returns (Accepted, announcements to send), or None when the decision must go through
    `game_decide` in a thread: anything else (an illegal or stale decision, bots, an away
    seat, the end of the game), no free connection, or any database error (a resent
    decision's collision included: `game_decide` tells it apart). If another process moved
    the game, it is read once on the loop (`rendering.catch_up`) and the decision planned
    again.
    """
    from games import loopdb, rendering

    if not loopdb.available():
        return None
    for _attempt in range(2):
        plan = _plan_selection(table_id, user, decision, client_id, seen_version, whole=True)
        if plan is None:
            return None
        try:
            if isinstance(plan, _Play):
                row = await loopdb.fetchone(*plan.statement)
                if row is loopdb.BUSY:
                    return None
                stored = row is not None
            else:
                rowcount = await loopdb.execute(*_selection_statement(plan))
                if rowcount is None:
                    return None
                stored = rowcount == 1
        except Exception:
            log.info("table %s: a decision left for the threads", table_id, exc_info=True)
            return None
        if stored:
            return Accepted(version=plan.version), [_selection_made(plan)]
        # Not stored: another process moved the game. Once, read where it is now, and
        # plan again from there (with two processes, most of a table's decisions).
        if await rendering.catch_up(table_id, plan.version) is None:
            return None
    return None


@dataclass
class _Selection:
    """A selection within a turn, checked against the kept game and applied to its state."""

    table: Table
    game: Game
    seats: list
    state: object
    dumped: dict  # the whole dump of `state`
    changes: dict | None  # its entries that differ from the kept version's, if known
    version: int
    seat: int
    decision: dict
    client_id: str


@dataclass
class _Play:
    """A decision that moves the game on, applied to copies of the kept game and table
    (`_plan_play`), with the statement that stores it."""

    table: Table
    game: Game
    seats: list
    state: object
    version: int
    statement: tuple[str, list]
    changes: dict | None  # the entries of the state's dump that changed, if known


def _plan_selection(
    table_id, user, decision, client_id, seen_version, whole=False
) -> _Selection | _Play | None:
    """A selection within its turn planned on the kept game; with `whole`, any other
    decision that `_plan_play` can plan too."""
    from games import rendering

    kept = rendering.snapshot_at(table_id, 0)
    if kept is None or kept.game is None or kept.state is None:
        return None
    game, table = kept.game, kept.table
    if table.status != Table.Status.PLAYING or any(seat.away for seat in kept.seats):
        return None
    if seen_version is not None and seen_version < game.point_version:
        return None
    if bool(table.time_limit) != (game.deadline is not None):
        return None
    mine = next((seat for seat in kept.seats if seat.user_id == user.pk), None)
    if mine is None:
        return None
    game_engine = engine.get(table.kind)
    try:
        state, events = game_engine.apply(kept.state, mine.position, decision)
    except engine.IllegalDecision:
        return None
    if [event["type"] for event in events] != ["selected"]:
        if whole:
            return _plan_play(kept, mine, game_engine, state, events, decision, client_id)
        return None
    if any(_is_automatic(kept.seat_at(seat)) for seat in game_engine.to_act(state)):
        return None
    # What the statement stores: only the entries of the dump that changed (two small
    # ones), when the engine can tell them and the kept game holds its version's dump.
    changes = None
    known = game.__dict__.get("state")  # never a deferred read: this may run on the loop
    known = known if isinstance(known, dict) else None
    dump_changes = getattr(game_engine, "dump_changes", None)
    if dump_changes is not None and known and known.get("version") == kept.state.version:
        changes = dump_changes(kept.state, state)
        dumped = {**known, **changes}
    else:
        dumped = game_engine.dump(state)
    return _Selection(
        table=table,
        game=game,
        seats=kept.seats,
        state=state,
        dumped=dumped,
        changes=changes,
        version=game.version + 1,
        seat=mine.position,
        decision=decision,
        client_id=client_id,
    )


def _plan_play(kept, mine, game_engine, state, events, decision, client_id) -> _Play | None:
    """The full path of `_decide` for a decision already applied to the kept state, on
    copies of the kept game and table, without the row lock: only where nobody plays
    automatically (no bot, no away seat: nothing to decide for them) and the game goes on
    (its end changes the table and the league, under the lock)."""
    if any(seat.bot for seat in kept.seats) or game_engine.is_over(state):
        return None
    game, table = copy.copy(kept.game), copy.copy(kept.table)
    game.table = table
    known = kept.game.__dict__.get("state")
    seen = (game.version, game.seats_version, table.status, table.time_limit)
    point_before = _decision_point(game_engine, kept.state)
    _defer_rows(game)
    _record(
        game,
        game_engine,
        kept.state,
        events,
        mine.position,
        decision,
        Decision.Source.PLAYER,
        client_id,
    )
    _settle(game, table, game_engine, state, timezone.now(), point_before)
    changes = None
    dump_changes = getattr(game_engine, "dump_changes", None)
    if (
        dump_changes is not None
        and isinstance(known, dict)
        and known.get("version") == kept.state.version
    ):
        changes = dump_changes(kept.state, state)
    rows = game.__dict__.pop("_rows")
    return _Play(
        table=table,
        game=game,
        seats=kept.seats,
        state=state,
        version=game.version,
        statement=_play_statement(game, rows, changes=changes, expected=seen),
        changes=changes,
    )


def _selection_made(plan: _Selection | _Play) -> tuple[str, dict]:
    """Keep the stored decision's version for the renders; its announcement."""
    from games import rendering

    if isinstance(plan, _Play):
        moved = plan.game  # a copy already, at the new version
    else:
        moved = copy.copy(plan.game)
        moved.version = plan.version
        moved.state = plan.dumped
    rendering.remember_snapshot(plan.table, moved, plan.seats, plan.state)
    table_id = plan.table.pk
    event = {"type": "table.changed", "table": table_id, "version": plan.version}
    # Other processes that kept the version before take the move instead of reading the
    # game's row (rendering.catch_up).
    move = rendering.move_of(plan.table, moved, plan.changes)
    if move is not None:
        event["move"] = move
    return hub.table_group(table_id), event


_SELECTION_COLUMNS = "game_id, seq, seat, payload, source, client_id, created_at"


def _selection_statement(plan: _Selection) -> tuple[str, list]:
    """PostgreSQL: move the game from the kept version and log the decision, in one
    statement (nothing is inserted if the UPDATE found the game elsewhere)."""
    game = plan.game
    # With the changed entries only, PostgreSQL merges them into the stored state (`||`
    # replaces top-level keys): the row is at the kept version, so that is the dump of
    # the new state.
    state = "state || %s::jsonb" if plan.changes is not None else "%s::jsonb"
    changes = None if plan.changes is None else json.dumps(plan.changes)
    return (
        f"WITH moved AS (UPDATE {Game._meta.db_table} SET state = {state}, version = %s,"
        " changes = %s::jsonb, changes_from = %s"
        " WHERE id = %s AND version = %s AND seats_version = %s RETURNING id)"
        f" INSERT INTO {Decision._meta.db_table} ({_SELECTION_COLUMNS})"
        " SELECT id, %s, %s, %s::jsonb, %s, %s, %s FROM moved",
        [
            json.dumps(plan.dumped) if changes is None else changes,
            plan.version,
            changes,
            None if changes is None else game.version,
            game.pk,
            game.version,
            game.seats_version,
            *_decision_values(plan),
        ],
    )


def _decision_values(plan: _Selection) -> list:
    """The logged decision's columns after `game_id` (`_SELECTION_COLUMNS`)."""
    return [
        plan.version,
        plan.seat,
        json.dumps(plan.decision),
        Decision.Source.PLAYER,
        plan.client_id,
        timezone.now(),
    ]


def _store_selection(plan: _Selection) -> bool:
    """Store a planned selection if the game is still where this process saw it. One
    round trip on PostgreSQL."""
    if connection.vendor == "postgresql":
        # Autocommit: the statement is its own transaction (no BEGIN, no COMMIT round
        # trip). Inside a caller's transaction, a savepoint keeps a collision harmless.
        inside = transaction.atomic() if connection.in_atomic_block else nullcontext()
        with inside, connection.cursor() as cursor:
            cursor.execute(*_selection_statement(plan))
            return cursor.rowcount == 1
    game = plan.game
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Game._meta.db_table} SET state = %s, version = %s"
            " WHERE id = %s AND version = %s AND seats_version = %s",
            [json.dumps(plan.dumped), plan.version, game.pk, game.version, game.seats_version],
        )
        if cursor.rowcount != 1:
            return False
        cursor.execute(
            f"INSERT INTO {Decision._meta.db_table} ({_SELECTION_COLUMNS})"
            " VALUES (%s, %s, %s, %s, %s, %s, %s)",
            [game.pk, *_decision_values(plan)],
        )
        return True


def _decide(table_id, user, decision, client_id, seen_version) -> Accepted:
    with transaction.atomic():
        # The game row lock orders every decision of this table, from every process.
        # Its state is read only if this process has not kept that version already.
        game = _locked_game(table_id)
        table = game.table
        seats = _seats(game, table)
        mine = next((s for s in seats.values() if s.user_id == user.pk), None)
        if mine is None:
            raise ServiceError("not_seated", _("You have no seat at this table."))
        game_engine = engine.get(table.kind)
        if seen_version is not None and seen_version < game.point_version:
            # A resend of a decision applied before the game moved on is acknowledged.
            if (duplicate := _duplicate(table_id, user, client_id)) is not None:
                return duplicate
            raise ServiceError("stale", _("The game has moved on: look again before you play."))
        state = _kept_state(game, game_engine)
        _defer_rows(game)
        now = timezone.now()
        if mine.away:
            mine.away = False
            mine.save(update_fields=["away"])
        point_before = _decision_point(game_engine, state)
        try:
            state = _apply(
                game,
                game_engine,
                state,
                mine.position,
                decision,
                Decision.Source.PLAYER,
                client_id=client_id,
            )
        except engine.IllegalDecision as error:
            if (duplicate := _duplicate(table_id, user, client_id)) is not None:
                return duplicate
            raise ServiceError("illegal", str(error)) from None
        state = _advance(game, table, seats, now, state=state, point_before=point_before)
        _save_play(game)
        _remember_on_commit(table, game, seats, state)
        _announce_on_commit(table, game.version, lobby=table.status == Table.Status.FINISHED)
        return Accepted(version=game.version)


def _locked_game(table_id) -> Game:
    """The table's game, its row locked for this transaction, with its table (its `state`
    column deferred when the ORM reads it).

    On PostgreSQL, when this process keeps the game (`rendering.snapshot_at`), the lock is
    taken by a short query that also reads what may have changed elsewhere; if nothing
    did, copies of the kept game and table are used rather than built by the ORM (a fifth
    of a full decision's CPU, docs/performance.md §11).
    """
    from games import rendering

    kept = rendering.snapshot_at(table_id, 0)
    if kept is not None and kept.game is not None and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT g.id, g.version, g.seats_version, g.point_version, g.deadline,"
                " g.finished_at, t.status, t.time_limit, t.season_id"
                f" FROM {Game._meta.db_table} g JOIN {Table._meta.db_table} t"
                " ON t.id = g.table_id WHERE g.table_id = %s FOR UPDATE OF g",
                [table_id],
            )
            row = cursor.fetchone()
        if row is None:
            raise ServiceError("not_playing", _("This table is not playing."))
        game, table = kept.game, kept.table
        seen = (
            game.pk,
            game.version,
            game.seats_version,
            game.point_version,
            game.deadline,
            game.finished_at,
            table.status,
            table.time_limit,
            table.season_id,
        )
        if tuple(row) == seen:
            game, table = copy.copy(game), copy.copy(table)
            game.table = table  # the copy: a decision may change the table's status
            return game
    try:
        return (
            Game.objects.select_for_update()
            .select_related("table")
            .defer("state")
            .get(table_id=table_id)
        )
    except Game.DoesNotExist:
        raise ServiceError("not_playing", _("This table is not playing.")) from None


def _seats(game: Game, table: Table) -> dict:
    """The seats of a game in play, by position. Those this process keeps with the game
    are reused while they are unchanged (`rendering.kept_seats`) and none is away (a
    decision from an away seat changes it); otherwise they are read."""
    from games import rendering

    seats = rendering.kept_seats(game)
    if seats is None or any(seat.away for seat in seats):
        seats = table.seats.select_related("user")
    return {seat.position: seat for seat in seats}


def _kept_state(game: Game, game_engine):
    """The engine state of `game` (locked, its `state` column deferred): the one this
    process kept at that version if it has it, else read and loaded."""
    from games import rendering

    kept = rendering.snapshot_at(game.table_id, game.version)
    if kept is not None and kept.version == game.version and kept.game.pk == game.pk:
        return kept.state
    game.refresh_from_db(fields=["state"])
    return game_engine.load(game.state)


def _remember_on_commit(table: Table, game: Game, seats: dict, state) -> None:
    """Hand the committed game to this process's renders before it is announced, so that
    the table's seats render it without reading it back (games.rendering)."""
    from games import rendering

    ordered = [seats[position] for position in sorted(seats)]
    transaction.on_commit(lambda: rendering.remember_snapshot(table, game, ordered, state))


class _Rows:
    """The rows a decision's transaction adds (decisions, taken cards, score lines), kept
    until `_save_play` writes them with the game's row: one round trip on PostgreSQL
    instead of one per model and the game (docs/performance.md §12)."""

    def __init__(self):
        self.decisions: list[Decision] = []
        self.taken: list[TakenCard] = []
        self.scores: list[RoundScore] = []


def _defer_rows(game: Game) -> None:
    """From now on, the rows `_apply` adds to `game` wait for `_save_play`."""
    game._rows = _Rows()


def _flush_rows(game: Game) -> None:
    """Write the rows kept for `game`, if any, through the ORM."""
    rows = game.__dict__.pop("_rows", None)
    if rows is not None:
        Decision.objects.bulk_create(rows.decisions)
        TakenCard.objects.bulk_create(rows.taken)
        RoundScore.objects.bulk_create(rows.scores)


def _save_play(game: Game) -> None:
    """Persist what a decision changed: the game's play fields and the rows kept for it.

    On PostgreSQL one statement does it all (`_play_statement`); a collision on a unique
    constraint (a resent decision) raises IntegrityError as an INSERT would.
    """
    rows = game.__dict__.pop("_rows", None)
    if rows is None or connection.vendor != "postgresql":
        if rows is not None:
            game._rows = rows
            _flush_rows(game)
        game.save(update_fields=GAME_PLAY_FIELDS)
        return
    with connection.cursor() as cursor:
        cursor.execute(*_play_statement(game, rows))


def _play_statement(game: Game, rows: _Rows, changes=None, expected=None) -> tuple[str, list]:
    """PostgreSQL: one statement that updates the game's play fields and inserts the rows
    a decision added (`WITH moved AS (UPDATE …), w0 AS (INSERT …) …`); the rows are
    inserted only if the game's row was updated, and the statement returns its id then.

    `changes`: only these entries of the dump are stored (merged into the stored state),
    for a row known to hold the dump they change, and kept beside it for other processes
    (`Game.changes`). `expected`: update only if the game is still where this process
    saw it, as (version, seats_version, table status, time limit); without it the caller
    holds the row's lock.
    """
    state = "state || %s::jsonb" if changes is not None else "%s::jsonb"
    changed = None if changes is None else json.dumps(changes)
    args = [
        json.dumps(game.state) if changed is None else changed,
        game.version,
        game.point_version,
        game.deadline,
        game.finished_at,
        None if game.result is None else json.dumps(game.result),
        changed,
        None if changed is None else game.version - 1,  # the version they apply to
        game.pk,
    ]
    where = "id = %s"
    if expected is not None:
        where += (
            " AND version = %s AND seats_version = %s AND EXISTS (SELECT 1 FROM"
            f" {Table._meta.db_table} t WHERE t.id = table_id AND t.status = %s"
            " AND t.time_limit = %s)"
        )
        args.extend(expected)
    parts = [
        f"moved AS (UPDATE {Game._meta.db_table} SET state = {state}, version = %s,"
        " point_version = %s, deadline = %s, finished_at = %s, result = %s::jsonb,"
        f" changes = %s::jsonb, changes_from = %s WHERE {where} RETURNING id)"
    ]
    now = timezone.now()
    for model, columns, casts, values in (
        (
            Decision,
            "seq, seat, payload, source, client_id, created_at",
            "integer, integer, jsonb, text, text, timestamptz",
            [
                (d.seq, d.seat, json.dumps(d.payload), d.source, d.client_id, now)
                for d in rows.decisions
            ],
        ),
        (
            TakenCard,
            "round, turn, seat, card, heads",
            "integer, integer, integer, integer, integer",
            [(t.round, t.turn, t.seat, t.card, t.heads) for t in rows.taken],
        ),
        (
            RoundScore,
            "round, seat, heads",
            "integer, integer, integer",
            [(r.round, r.seat, r.heads) for r in rows.scores],
        ),
    ):
        if not values:
            continue
        row = "(" + ", ".join(f"%s::{cast}" for cast in casts.split(", ")) + ")"
        for value in values:
            args.extend(value)
        parts.append(
            f"w{len(parts)} AS (INSERT INTO {model._meta.db_table} (game_id, {columns})"
            f" SELECT moved.id, v.* FROM moved, (VALUES {', '.join([row] * len(values))})"
            f" AS v({columns}))"
        )
    return f"WITH {', '.join(parts)} SELECT id FROM moved", args


def _apply(game, game_engine, state, seat, decision, source, client_id=""):
    after, events = game_engine.apply(state, seat, decision)
    _record(game, game_engine, state, events, seat, decision, source, client_id)
    return after


def _record(game, game_engine, before, events, seat, decision, source, client_id="") -> None:
    """Count a decision applied to `before` (with the engine's `events`): a new version,
    its row in the log, and the rows it derives (kept for `_save_play` if deferred)."""
    game.version += 1
    row = Decision(
        game=game,
        seq=game.version,
        seat=seat,
        payload=decision,
        source=source,
        client_id=client_id,
    )
    rows = game.__dict__.get("_rows")
    if rows is None:
        row.save(force_insert=True)
    else:
        rows.decisions.append(row)
    _derive_rows(game, game_engine, before, events)


def _derive_rows(game, game_engine, before, events: list[dict]) -> None:
    """Picked-up piles and the score sheet, written with the decision that made them.

    `before` is the state the decision was applied to: a take belongs to its round and
    turn. Its view is built only when something was taken (most decisions take nothing).
    """
    taken = []
    when = None
    for event in events:
        if event["type"] == "took":
            if when is None:
                when = game_engine.view(before, None)
            taken.extend(
                TakenCard(
                    game=game,
                    round=when["round"],
                    turn=when["turn"],
                    seat=event["seat"],
                    card=card,
                    heads=game_engine.heads(card),
                )
                for card in event["cards"]
            )
        elif event["type"] == "round_over":
            scores = [
                RoundScore(game=game, round=event["round"], seat=seat, heads=heads)
                for seat, heads in enumerate(event["heads"])
            ]
            if (rows := game.__dict__.get("_rows")) is not None:
                rows.scores.extend(scores)
            else:
                RoundScore.objects.bulk_create(scores)
    if taken:
        if (rows := game.__dict__.get("_rows")) is not None:
            rows.taken.extend(taken)
        else:
            TakenCard.objects.bulk_create(taken)


def _advance(game: Game, table: Table, seats: dict, now, state=None, point_before=None):
    """Let bots and absent players decide, then set the next deadline. Holds the game lock.
    Returns the engine state reached.

    Bots and fallbacks decide as soon as it is their move, in the same transaction as the
    decision that made it their move, so nothing waits for them and a crash loses nothing.
    """
    game_engine = engine.get(table.kind)
    if state is None:
        state = game_engine.load(game.state)
    if point_before is None:
        point_before = _decision_point(game_engine, state)
    while not game_engine.is_over(state):
        automatic = [seat for seat in game_engine.to_act(state) if _is_automatic(seats[seat])]
        if not automatic:
            break
        seat = automatic[0]
        if seats[seat].bot:
            bot = get_bot(seats[seat].bot, seed=game.seed + 1009 * seat + game.version)
            decision = bot.decide(game_engine.view(state, seat))
            source = Decision.Source.BOT
        else:
            decision = game_engine.fallback(state, seat)
            source = Decision.Source.AWAY
        state = _apply(game, game_engine, state, seat, decision, source)
    _settle(game, table, game_engine, state, now, point_before)
    return state


def _is_automatic(seat: Seat) -> bool:
    return bool(seat.bot) or seat.away


def _decision_point(game_engine, state) -> tuple:
    view = game_engine.view(state, None)
    draft = view.get("draft") or {}
    return (
        view["phase"],
        view["round"],
        view["turn"],
        view.get("chooser"),
        len(draft.get("picks", ())),
    )


def _settle(game: Game, table: Table, game_engine, state, now, point_before) -> None:
    """Store the snapshot; open a new deadline when a new decision point opened."""
    moved = _decision_point(game_engine, state) != point_before
    game.state = game_engine.dump(state)
    if moved:
        game.point_version = game.version
    if game_engine.is_over(state):
        game.deadline = None
        game.finished_at = now
        game.result = game_engine.result(state)
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status"])
        # Receivers (a league's standings) read the score sheet, and write in the
        # transaction that ends the game: the result enters the league once.
        _flush_rows(game)
        game.save()
        signals.game_finished.send(sender=Game, game=game)
    elif table.time_limit and (moved or game.deadline is None):
        game.deadline = now + timedelta(seconds=table.time_limit)
    elif not table.time_limit:
        game.deadline = None


def game_timeout(*, game_id: int, now=None) -> bool:
    """Apply RULES §1.8 fallbacks for a deadline that passed. Called by the clock.

    Exactly once, however many processes run a clock: the game row is claimed with
    SKIP LOCKED (a game being decided on is simply looked at again next tick), and the
    deadline is checked again under the lock, since a decision may have moved it.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .select_related("table")
            .filter(pk=game_id, deadline__lte=now)
            .first()
        )
        if game is None:
            return False
        table = game.table
        seats = {seat.position: seat for seat in table.seats.all()}
        game_engine = engine.get(table.kind)
        state = game_engine.load(game.state)
        point_before = _decision_point(game_engine, state)
        for seat in game_engine.to_act(state):
            state = _apply(
                game,
                game_engine,
                state,
                seat,
                game_engine.fallback(state, seat),
                Decision.Source.TIMEOUT,
            )
            if _decision_point(game_engine, state) != point_before:
                break
        _advance(game, table, seats, now, state=state, point_before=point_before)
        game.save()
        _announce_on_commit(table, game.version, lobby=table.status == Table.Status.FINISHED)
    return True


def games_due(now=None) -> list[int]:
    return list(
        Game.objects.filter(deadline__lte=now or timezone.now()).values_list("pk", flat=True)[:100]
    )
