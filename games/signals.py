from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.dispatch import Signal, receiver

from games.announce import announce
from games.models import Game, Seat, Table

# What games tell other apps, without knowing them (leagues depends on games, never the
# reverse). Each is sent with sender=Game or sender=Table.

# A game ended: sent with `game=` inside the transaction that ends it, after its score
# sheet is saved; a receiver's writes commit or roll back with the game's end.
game_finished = Signal()

# Someone asks for a seat: sent with `table=` and `user=` while the table row is locked.
# A receiver refuses by raising games.services.ServiceError (its code and message reach
# the player); returning lets them sit.
seat_wanted = Signal()

# The lobby form asks which seasons a new table may count in: sent with `user=`; a
# receiver returns a queryset of seasons (or None). No receiver: no league field.
seasons_offered = Signal()

# A table was made: sent with `table=`, `user=` (who made it), `season=` (the season chosen
# among those seasons_offered offered, as the form gave it, or None: games keeps nothing of
# it) and `rematch_of=` (the finished table it plays again, or None), inside the transaction
# that makes it, before its creator sits. A receiver links the table to what it counts in;
# it refuses by raising games.services.ServiceError, and then no table is made. No
# receiver: every table is a friendly game.
table_created = Signal()

# What a table counts in, named on its pages (a league's season): sent with `table=`; a
# receiver returns a text, or None. No receiver: the pages name nothing.
counted_in = Signal()

# A table shows how its seated players stand: sent with `table=` and `users=` (user ids); a
# receiver returns {user id: {"rating": int or None (new), "rank": int or None}}, `rank`
# the season rank at a league table. No receiver: the seats show names only.
seat_standings = Signal()

# Who runs a reserved table (adds bots, frees others' seats, starts it, gives an away
# player's seat to a bot): sent with `table=`; a receiver returns the ids of the users who
# do. The site's superusers always do; its creator (the player that app seated first) only
# plays there. No receiver: superusers only (games.services.runs_table).
table_runners = Signal()

# Which tables a viewer may not see at all (a members-only league's tables, to those not
# in the league): sent with `viewer=` (perhaps anonymous); a receiver returns a Q over
# Table, or None. A table's own players and superusers see it all the same
# (games.selectors.shown_to).
tables_closed = Signal()

# What a table shows of a seated player (Seat.name).
NAME_FIELDS = {"display_name", "username"}


@receiver(user_logged_out)
def close_sockets_of_ended_session(sender, request, user, **kwargs):
    """Logging out closes the table sockets opened with that session, in every process."""
    if user is None:
        return
    message = {"type": "session.ended", "session_key": request.session.session_key}
    announce(f"user.{user.pk}", message)


@receiver([post_save, post_delete], sender=Seat)
def seats_changed(sender, instance, **kwargs):
    """Whatever changed a seat (a service, the admin), the next decision reads the seats
    again instead of reusing those it kept (games.services.kept, games.rendering)."""
    Game.objects.filter(table_id=instance.table_id).update(seats_version=F("seats_version") + 1)


@receiver(post_save, sender=Table)
def table_saved(sender, instance, created=False, **kwargs):
    """The same for the table (abandoned, played on paper, changed in the admin): its
    seats are read with it, and the frames show it whole."""
    if not created:
        Game.objects.filter(table_id=instance.pk).update(seats_version=F("seats_version") + 1)


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def player_renamed(sender, instance, created=False, update_fields=None, **kwargs):
    """A player who changes their name mid-game shows under it at once (their games in
    play read their seats again); a new player, or a save of other fields (a login),
    changes nothing."""
    if created or (update_fields is not None and not NAME_FIELDS & set(update_fields)):
        return
    Game.objects.filter(table__seats__user=instance, finished_at__isnull=True).update(
        seats_version=F("seats_version") + 1
    )
