"""The night: the league admin's changes to a seated round (swap, replace, remove, start)."""

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import services as game_services
from games.models import Table
from leagues import notify
from leagues.services.errors import LeagueError
from leagues.services.results import record_absence


def _open_slot(event, slot_id: int):
    """The event's slot `slot_id`, locked, while its game has not started."""
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
    try:
        game_services.seat_assign(table_id=slot.table_id, position=position, user=user, bot=bot)
    except game_services.ServiceError as error:
        raise LeagueError(error.code, error.message) from None


def night_swap(*, event, first: tuple[int, int], second: tuple[int, int]) -> None:
    """Swap two players of a round's tables, before either game starts: `first` and
    `second` are (slot id, user id). Two players of two tables each get the seating mail
    of their new table; two players of one table only change the order of play, and
    nobody is mailed."""
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
        if slot_a.pk != slot_b.pk:
            transaction.on_commit(
                lambda: notify.players_seated(
                    event=event, tables=[slot_a.table, slot_b.table], user_ids=[user_a, user_b]
                )
            )


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
    with transaction.atomic():
        slot = _open_slot(event, slot_id)
        position = _position(slot, user_id)
        left = slot.table.seats.count() - 1
        if left < 2:
            raise LeagueError("too_few", _("A table needs at least two players."))
        _reserve(slot, remove=user_id)
        _assign(slot, position)
        if absent:
            record_absence(event, slot.round, User.objects.get(pk=user_id), bye=False)
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
