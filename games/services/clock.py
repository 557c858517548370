"""The deadline clock's side: a game whose time ran out gets the fallback (RULES §1.8) for
the awaited seats whose own deadline passed; which games are due."""

from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import GAME_PLAY_FIELDS, Decision, Game, Seat, Table
from games.services.common import AWAY_AFTER_TIMEOUTS, _announce_on_commit
from games.services.decisions import (
    _advance,
    _apply,
    _decision_point,
    seat_deadline,
)


def game_timeout(*, game_id: int, now=None) -> bool:
    """Apply RULES §1.8 fallbacks for a deadline that passed. Called by the clock.

    Only the awaited seats whose own deadline passed (`seat_deadline`) are played for: with
    simultaneous choices, a present player with time left is not played because an away
    one ran out. A present player's timeout empties her time bank (none at a turn-based
    table, where timeouts count toward nothing).

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
        due = _due(game, table, seats, game_engine.to_act(state), now)
        for seat in due:
            away = seats[seat].away
            state = _apply(
                game,
                game_engine,
                state,
                seat,
                game_engine.fallback(state, seat),
                Decision.Source.AWAY if away else Decision.Source.TIMEOUT,
            )
            # Presence does not apply to a turn-based table: a timeout marks nobody away.
            if not away and not table.turn_based:
                _count_timeout(seats[seat], now)
            if _decision_point(game_engine, state) != point_before:
                break
        # The deadline again, for the seats still awaited (or the next decision point's).
        _advance(game, table, seats, now, state=state, point_before=point_before)
        # Only what a decision changes: a seat saved above counted in `seats_version`.
        game.save(update_fields=GAME_PLAY_FIELDS)
        _announce_on_commit(table, game.version, lobby=table.status == Table.Status.FINISHED)
    return True


def _due(game: Game, table: Table, seats: dict, awaited, now) -> list[int]:
    """The awaited seats whose own deadline passed. The game's deadline is the earliest
    of theirs: reaching it reaches that seat's, and those of the others no later than it
    by more than the time since (the same instant, unless the game's deadline was moved
    by hand: then the seats' move with it)."""
    deadlines = {seat: seat_deadline(game, table, seats[seat]) for seat in awaited}
    timed = {seat: deadline for seat, deadline in deadlines.items() if deadline is not None}
    if not timed:
        return []
    reached = min(timed.values()) + (now - game.deadline)
    return [seat for seat, deadline in timed.items() if deadline <= reached]


def _count_timeout(seat: Seat, now) -> None:
    """The time limit decided for `seat`: her bank is spent, and at AWAY_AFTER_TIMEOUTS in
    a row (no decision of the player's own in between: game_decide resets the count) the
    player is marked away, and the computer plays for them after the away wait
    (SIXCLUB_AWAY_WAIT) until they come back."""
    if seat.bot or seat.away:
        return
    seat.bank = 0
    seat.timeouts += 1
    if seat.timeouts >= AWAY_AFTER_TIMEOUTS:
        seat.away = True
        seat.away_since = now
        seat.timeouts = 0
    seat.save(update_fields=["away", "away_since", "timeouts", "bank"])


def games_due(now=None) -> list[int]:
    return list(
        Game.objects.filter(deadline__lte=now or timezone.now()).values_list("pk", flat=True)[:100]
    )
