"""The deadline clock's side: a game whose time ran out gets the fallback (RULES §1.8) for
the seats it waited for; which games are due."""

from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import GAME_PLAY_FIELDS, Decision, Game, Seat, Table
from games.services.common import AWAY_AFTER_TIMEOUTS, _announce_on_commit
from games.services.decisions import (
    _advance,
    _apply,
    _decision_point,
)


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
            _count_timeout(seats[seat])
            if _decision_point(game_engine, state) != point_before:
                break
        # A seat just marked away is played at once from here on (_is_automatic).
        _advance(game, table, seats, now, state=state, point_before=point_before)
        # Only what a decision changes: a seat saved above counted in `seats_version`.
        game.save(update_fields=GAME_PLAY_FIELDS)
        _announce_on_commit(table, game.version, lobby=table.status == Table.Status.FINISHED)
    return True


def _count_timeout(seat: Seat) -> None:
    """The time limit decided for `seat`: at AWAY_AFTER_TIMEOUTS in a row (no decision of
    the player's own in between: game_decide resets the count) the player is marked
    away, and the computer plays for them at once until they come back."""
    if seat.bot or seat.away:
        return
    seat.timeouts += 1
    if seat.timeouts >= AWAY_AFTER_TIMEOUTS:
        seat.away = True
        seat.timeouts = 0
    seat.save(update_fields=["away", "timeouts"])


def games_due(now=None) -> list[int]:
    return list(
        Game.objects.filter(deadline__lte=now or timezone.now()).values_list("pk", flat=True)[:100]
    )
