"""The decision path: lock the game row, check, apply, persist the log, the snapshot and
the derived rows, advance (bots, absent players, deadlines) and announce on commit."""

import math
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine, signals, turn_mails
from games.bots import get_bot
from games.models import (
    GAME_PLAY_FIELDS,
    Decision,
    Game,
    RoundScore,
    Seat,
    Table,
    TakenCard,
    number_bots,
)
from games.services import kept
from games.services.common import Accepted, ServiceError, _announce_on_commit

# --- decisions ---------------------------------------------------------------------------


def game_decide(
    *,
    table_id: int,
    user,
    decision: dict,
    client_id: str = "",
    seen_version: int | None = None,
    announce: bool = True,
) -> Accepted:
    """Apply a player's decision. Acknowledge only what this returns: it is committed.

    `client_id` makes a resent decision harmless (it is applied once); `seen_version`, the
    version the player's screen showed, refuses a decision made on a screen from an
    earlier turn. Without `announce` the table's sockets are not told on commit: the
    caller tells them (the socket that sent the decision, before it acknowledges it).
    """
    try:
        return _decide(table_id, user, decision, client_id, seen_version, announce)
    except IntegrityError:
        # Only a decision already applied under this client id can collide here
        # (Decision's "client_decision_once"): a resend after a lost acknowledgement.
        duplicate = _duplicate(table_id, user, client_id)
        if duplicate is None:
            raise
        return duplicate


def _refusal(error) -> str:
    """A refused decision in the player's language where the engine names the kind of
    refusal (IllegalDecision.code); otherwise the engine's own reason, in English."""
    refusals = {
        "not_in_hand": _("Card %(card)s is not in your hand."),
        "not_your_turn": _("It is not your turn."),
        "not_playable": _("Card %(card)s cannot be played now."),
        "game_over": _("The game is over."),
    }
    if error.code not in refusals:
        return str(error)
    return refusals[error.code] % {"card": error.card}


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


def _decide(table_id, user, decision, client_id, seen_version, announce) -> Accepted:
    with transaction.atomic():
        # The game row lock orders every decision of this table, from every process.
        game, table, seats, state = _locked_game(table_id)
        mine = next((s for s in seats.values() if s.user_id == user.pk), None)
        if mine is None:
            raise ServiceError("not_seated", _("You have no seat at this table."))
        game_engine = engine.get(table.kind)
        # A version this game has not reached yet was never on any screen: refused like
        # an old one, rather than trusted as if it were current.
        if seen_version is not None and not game.point_version <= seen_version <= game.version:
            # A resend of a decision applied before the game moved on is acknowledged.
            if (duplicate := _duplicate(table_id, user, client_id)) is not None:
                return duplicate
            raise ServiceError("stale", _("The game has moved on: look again before you play."))
        if state is None:
            state = game_engine.load(game.state)
        now = timezone.now()
        if mine.away or mine.timeouts:
            # The player is here: no longer away, and the time-outs in a row start again.
            mine.away = False
            mine.away_since = None
            mine.left = False
            mine.timeouts = 0
            # Back at the table: the votes to give her seat to a bot are void.
            mine.replace_votes = []
            mine.save(update_fields=["away", "away_since", "left", "timeouts", "replace_votes"])
        _spend_bank(game, table, mine, now)
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
            raise ServiceError("illegal", _refusal(error)) from None
        state = _advance(game, table, seats, now, state=state, point_before=point_before)
        game.save(update_fields=GAME_PLAY_FIELDS)
        _announce_on_commit(
            table,
            game.version,
            lobby=table.status == Table.Status.FINISHED,
            table_too=announce,
        )
        if not table.turn_based and game.finished_at is None:
            transaction.on_commit(lambda: kept.tables.keep(game, table, seats, state))
        return Accepted(
            version=game.version,
            table=table,
            game=game,
            seats=number_bots(seats.values()),
            state=state,
        )


def _locked_game(table_id) -> tuple[Game, Table, dict, object]:
    """The table's game, its row locked for this transaction; its table; its seats by
    position, with their users; the game's engine state if kept (else None). What this
    process kept from the table's last decision if the database still has it
    (games.services.kept: one statement), else read.

    The game read apart from its table, and not linked to it by the ORM: linked both ways
    they would be a reference cycle, left with the game's JSON state for a full garbage
    collection after every decision instead of being freed at once. The table comes with
    its seats (one query), and every seat holds that one table."""
    taken = kept.tables.take(table_id)
    if taken is not None:
        game = taken[0]
        unchanged = Game.objects.filter(
            pk=game.pk,
            table_id=table_id,
            started_at=game.started_at,
            version=game.version,
            seats_version=game.seats_version,
        )
        # A write of nothing: it locks the row, and counts it only if it is unchanged.
        if unchanged.update(version=F("version")):
            return taken
    try:
        game = Game.objects.select_for_update().get(table_id=table_id)
    except Game.DoesNotExist:
        raise ServiceError("not_playing", _("This table is not playing.")) from None
    seats = list(Seat.objects.filter(table_id=table_id).select_related("user", "table"))
    table = seats[0].table  # a game has its seats from its start
    for seat in seats:
        seat.table = table
    if table.paper:
        raise ServiceError("paper", _("This table is played on paper: enter its score sheet."))
    if table.status == Table.Status.ABANDONED:
        raise ServiceError("abandoned", _("This game was abandoned."))
    return game, table, {seat.position: seat for seat in seats}, None


def _apply(game, game_engine, state, seat, decision, source, client_id=""):
    after, events = game_engine.apply(state, seat, decision)
    _record(game, game_engine, state, events, seat, decision, source, client_id)
    return after


def _record(game, game_engine, before, events, seat, decision, source, client_id="") -> None:
    """Count a decision applied to `before` (with the engine's `events`): a new version,
    its row in the log, and the rows it derives."""
    game.version += 1
    row = Decision(
        game=game,
        seq=game.version,
        seat=seat,
        payload=decision,
        source=source,
        client_id=client_id,
        reveals=any(event["type"] == "revealed" for event in events),
    )
    row.save(force_insert=True)
    _derive_rows(game, game_engine, before, events)


def _derive_rows(game, game_engine, before, events: list[dict]) -> None:
    """Picked-up piles and the score sheet, written with the decision that made them.

    `before` is the state the decision was applied to: a take belongs to its round and
    turn.
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
            RoundScore.objects.bulk_create(
                RoundScore(game=game, round=event["round"], seat=seat, heads=heads)
                for seat, heads in enumerate(event["heads"])
            )
    if taken:
        TakenCard.objects.bulk_create(taken)


def _advance(
    game: Game, table: Table, seats: dict, now, state=None, point_before=None, everyone=False
):
    """Let bots decide (and, with `everyone`, the fallback for every player: a game played
    out by the computer), then set the next deadline. Holds the game lock. Returns the
    engine state reached.

    Bots decide as soon as it is their move, in the same transaction as the decision that
    made it their move, so nothing waits for them and a crash loses nothing.
    """
    game_engine = engine.get(table.kind)
    if state is None:
        state = game_engine.load(game.state)
    if point_before is None:
        point_before = _decision_point(game_engine, state)
    while not game_engine.is_over(state):
        automatic = [
            seat for seat in game_engine.to_act(state) if everyone or _is_automatic(seats[seat])
        ]
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
    _settle(game, table, seats, game_engine, state, now, point_before)
    return state


def _is_automatic(seat: Seat) -> bool:
    """Bots decide at once, and so does the fallback for a player who left on purpose;
    for one who is away, once the away wait is over (`seat_deadline`), at once if there
    is none (SIXCLUB_AWAY_WAIT = 0)."""
    return bool(seat.bot) or (seat.away and (seat.left or settings.SIXCLUB_AWAY_WAIT <= 0))


def seat_deadline(game: Game, table: Table, seat: Seat):
    """When the computer decides for an awaited seat (RULES §1.8), counted from the
    opening of the decision point; None: no limit, the game waits.

    A present player has the table's limit and then her time bank; an away one is played
    for SIXCLUB_AWAY_WAIT seconds after the point opened whatever the limit, or earlier
    when her limit and bank run out first. The one place for the presence rule: a table
    that it does not apply to (turn-based play) returns before it, with no bank either."""
    if seat.bot or game.point_started_at is None:
        return None
    if table.turn_based:
        return game.point_started_at + timedelta(seconds=table.time_limit)
    limit = table.time_limit + seat.bank if table.time_limit else None
    if seat.away:
        wait = settings.SIXCLUB_AWAY_WAIT
        limit = wait if limit is None else min(wait, limit)
    if limit is None:
        return None
    return game.point_started_at + timedelta(seconds=limit)


def _spend_bank(game: Game, table: Table, seat: Seat, now) -> None:
    """A player who decides herself after the table's limit pays the seconds over it
    (rounded up) from her time bank. Within one decision point she may decide again (a
    selection changed): only the time since her previous decision of it is paid again."""
    if not table.time_limit or table.turn_based or game.point_started_at is None or seat.bot:
        return
    start = game.point_started_at + timedelta(seconds=table.time_limit)
    if now <= start:
        return
    previous = (
        game.decisions.filter(seq__gt=game.point_version, seat=seat.position)
        .order_by("-seq")
        .values_list("created_at", flat=True)
        .first()
    )
    if previous is not None and previous > start:
        start = previous
    spent = math.ceil((now - start).total_seconds())
    if spent > 0 and seat.bank:
        seat.bank = max(0, seat.bank - spent)
        seat.save(update_fields=["bank"])


def _decision_point(game_engine, state) -> tuple:
    view = game_engine.view(state, None)
    draft = view.get("draft") or {}
    return (
        view["phase"],
        view["round"],
        view["turn"],
        view.get("chooser"),
        len(draft.get("picks", ())),
        # A question asked while a turn resolves (6 qui surprend's `prompt`): each answer
        # opens the next decision point, even one of the same kind asked again.
        view["version"] if view.get("prompt") else None,
    )


def _settle(game: Game, table: Table, seats: dict, game_engine, state, now, point_before):
    """Store the snapshot; the game's deadline is the earliest of the awaited seats'
    (`seat_deadline`), counted from when their decision point opened."""
    moved = _decision_point(game_engine, state) != point_before
    game.state = game_engine.dump(state)
    if moved:
        game.point_version = game.version
    if moved or game.point_started_at is None:
        game.point_started_at = now
    if game_engine.is_over(state):
        game.deadline = None
        game.finished_at = now
        game.result = game_engine.result(state)
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status"])
        # Receivers (a league's standings) read the score sheet, and write in the
        # transaction that ends the game: the result enters the league once.
        game.save()
        signals.game_finished.send(sender=Game, game=game)
    else:
        deadlines = [seat_deadline(game, table, seats[seat]) for seat in game_engine.to_act(state)]
        game.deadline = min((d for d in deadlines if d is not None), default=None)
    if table.turn_based:
        over = game_engine.is_over(state)
        _await_players(game, seats, set() if over else set(game_engine.to_act(state)), moved, now)


def _await_players(game: Game, seats: dict, awaited: set, moved: bool, now) -> None:
    """Turn-based tables: say since when a decision waits for each player (`awaited_since`,
    which "My games" and the digest read), and queue her mail for a decision that starts
    waiting for her (games.turn_mails). A new decision point is a new decision for every
    seat it awaits. Holds the game lock; the task row is written in this transaction."""
    starts = []
    ends = []
    for seat in seats.values():
        if not seat.user_id:
            continue
        waits = seat.position in awaited
        if waits and (moved or seat.awaited_since is None):
            starts.append(seat)
        elif not waits and seat.awaited_since is not None:
            ends.append(seat)
    for seat in starts:
        seat.awaited_since, seat.mailed_at = now, None
    for seat in ends:
        seat.awaited_since = seat.mailed_at = None
    # Updates, not saves: nothing the table shows changed (no seats_version bump).
    if starts:
        Seat.objects.filter(pk__in=[seat.pk for seat in starts]).update(
            awaited_since=now, mailed_at=None
        )
        for seat in starts:
            turn_mails.decision_waits(seat=seat, since=now)
    if ends:
        Seat.objects.filter(pk__in=[seat.pk for seat in ends]).update(
            awaited_since=None, mailed_at=None
        )
