"""Votes to give a seat to a bot (RULES §1.8, presence and time): when a player is away
or her time ran out, the other players need not wait for her. A strict majority of the
humans present hands her seat to the game's strongest bot for the rest of the game."""

from django.db import transaction
from django.utils.translation import gettext as _

from games import engine, kinds
from games.models import Game, Seat, Table
from games.services.common import ServiceError, _announce_on_commit
from games.services.tables import _give_seat_to_bot, _locked_table


def replace_candidate(seat: Seat) -> bool:
    """Whether the other players may vote on `seat`: a player's, who is away or whose
    last decision the clock took."""
    return bool(seat.user_id) and (seat.away or seat.timeouts >= 1)


def votes_needed(seats, target: Seat) -> tuple[int, frozenset]:
    """The votes that give `target`'s seat to a bot, and the ids of the players who may
    cast them: the humans seated there but her who are not away, of whom more than half."""
    present = frozenset(
        seat.user_id for seat in seats if seat.user_id and not seat.away and seat.pk != target.pk
    )
    return len(present) // 2 + 1, present


def seat_vote_replace(*, table_id: int, user, position: int) -> Seat:
    """`user` votes to give the seat at `position` to a bot; at a strict majority of the
    humans present (`votes_needed`) it becomes the strongest bot's at once, whatever the
    moment of the game: the bot decides from the seat's view. Voting again changes
    nothing. A reserved table's seats are the organisers' to give
    (services.seat_replace_by_bot)."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status != Table.Status.PLAYING:
            raise ServiceError("not_playing", _("This table is not playing."))
        if table.reserved:
            raise ServiceError("reserved", _("The organisers replace players at this table."))
        bot = kinds.get(table.kind).strongest_bot
        if bot is None:
            raise ServiceError("no_bot", _("This game has no bot to take a seat."))
        seats = list(table.seats.all())
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is None:
            raise ServiceError("not_seated", _("You have no seat at this table."))
        target = next((seat for seat in seats if seat.position == position), None)
        if target is not None and target.pk == mine.pk:
            raise ServiceError("own_seat", _("You cannot vote on your own seat."))
        if target is None or not replace_candidate(target):
            raise ServiceError(
                "not_idle", _("Only a player who is away or out of time can be given to a bot.")
            )
        if mine.away:
            raise ServiceError("away", _("You are away: come back to vote."))
        needed, present = votes_needed(seats, target)
        if user.pk in target.replace_votes:
            return target
        target.replace_votes = [*target.replace_votes, user.pk]
        if len(present.intersection(target.replace_votes)) < needed:
            target.save(update_fields=["replace_votes"])
            # No move: every screen renders the seats afresh (the count of votes).
            _announce_on_commit(table)
            return target
        game = Game.objects.select_for_update().get(table=table)
        state = engine.get(table.kind).load(game.state)
        _give_seat_to_bot(table, game, target, bot, state)
    return target
