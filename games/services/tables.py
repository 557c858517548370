"""Tables and seats: opening a table, sitting, bots, leaving and coming back, who runs a
table, starting the game, a rematch."""

import random

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine, kinds, signals
from games.announce import announce_on_commit
from games.models import GAME_PLAY_FIELDS, Game, Seat, Table
from games.services.common import (
    ServiceError,
    _announce_on_commit,
)
from games.services.decisions import _advance

# --- tables and seats ----------------------------------------------------------------------


def table_create(
    *,
    user,
    kind: str = "",
    seats_count: int,
    options: dict,
    time_limit: int = 0,
    is_public: bool = True,
    show_played: bool = False,
    name: str = "",
    season=None,
    rematch_of: Table | None = None,
    deal_seed: int | None = None,
    creator_sits: bool = True,
    reserved: bool = False,
) -> Table:
    """A new table of `user`, who sits at it first unless `creator_sits` is False.

    `season` is the season chosen in the lobby (offered by signals.seasons_offered), and
    `rematch_of` the finished table a rematch plays again: games keeps neither, but tells
    signals.table_created, whose receivers link the table to what it counts in (or refuse
    it, and no table is made) before its creator sits.
    """
    kind = kind or kinds.default()
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
            deal_seed=deal_seed,
            reserved=reserved,
        )
        signals.table_created.send(
            sender=Table, table=table, user=user, season=season, rematch_of=rematch_of
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


def table_runners(table: Table) -> frozenset[int]:
    """The ids of the users that the app which reserved the table names to run it
    (games.signals.table_runners); nobody for a table anyone opened."""
    if not table.reserved:
        return frozenset()
    runners = set()
    for _receiver, answer in signals.table_runners.send(sender=Table, table=table):
        runners.update(answer or ())
    return frozenset(runners)


def runs_table(table: Table, user, runners: frozenset[int] | None = None) -> bool:
    """Whether `user` holds the powers over a table's seats and start: adding bots, freeing
    another's seat, starting the game, giving an away player's seat to a bot.

    A table anyone opened is run by its creator. A reserved table is run by the site's
    superusers and whoever the app that reserved it names (`table_runners`, which the
    caller may pass when it has read them already); its creator there is only the player
    seated first, who sits, plays, leaves and comes back like the others.
    """
    if user is None or not user.is_authenticated:
        return False
    if not table.reserved:
        return table.created_by_id == user.pk
    if user.is_superuser:
        return True
    return user.pk in (table_runners(table) if runners is None else runners)


def _check_runs(table: Table, user, refusal: str) -> None:
    """Refuse (`refusal`: why, at a table anyone opened) unless `user` runs the table."""
    if runs_table(table, user):
        return
    if table.reserved:
        refusal = _("Only the organisers of this table can do that.")
    raise ServiceError("not_creator", refusal)


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

    with transaction.atomic():
        table = _locked_table(table_id)
        # The bots of the table's own game (games/kinds.py).
        if bot not in kinds.get(table.kind).bots:
            raise ServiceError("bad_bot", _("Unknown bot."))
        _check_runs(table, user, _("Only the table's creator can add bots."))
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
            _set_away(table, own, away=True, left=True)
            return
        _require_open(table)
        if position is None or (own and own.position == position):
            seat = own
        else:
            _check_runs(table, user, _("Only the table's creator can free that seat."))
            seat = table.seats.filter(position=position).first()
        if seat is None:
            raise ServiceError("not_seated", _("You have no seat at this table."))
        seat.delete()
        _announce_on_commit(table, lobby=True)
        if seat.user_id and seat.user_id != user.pk:
            # The player's own sockets at the table say why the seat is no longer theirs.
            message = {"type": "table.seat_removed", "table": table.pk}
            announce_on_commit(f"user.{seat.user_id}", message)


def seat_assign(*, table_id: int, position: int, user=None, bot: str = "") -> Seat | None:
    """Before the game: give a seat to a player or a bot, in place of whoever held it, or
    free it (neither given). For the app that reserved the table (a club night's seating),
    which decides who may do it; the player must still be allowed to sit (seat_wanted)."""

    with transaction.atomic():
        table = _locked_table(table_id)
        _require_open(table)
        if not 0 <= position < table.seats_count:
            raise ServiceError("bad_seat", _("This table has no such seat."))
        if bot and bot not in kinds.get(table.kind).bots:
            raise ServiceError("bad_bot", _("Unknown bot."))
        if user is not None:
            if table.seats.filter(user=user).exclude(position=position).exists():
                raise ServiceError("already_seated", _("This player already sits at this table."))
            _check_can_sit(table, user)
        table.seats.filter(position=position).delete()
        seat = None
        if user is not None or bot:
            seat = Seat.objects.create(table=table, position=position, user=user, bot=bot)
        _announce_on_commit(table, lobby=True)
    return seat


def seat_return(*, table_id: int, user) -> None:
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = table.seats.filter(user=user, away=True).first()
        if seat is None or table.status != Table.Status.PLAYING:
            return
        _set_away(table, seat, away=False)


def _set_away(table: Table, seat: Seat, *, away: bool, now=None, left=False) -> None:
    """Mark a seat away (since `now`) or back, and set the game's deadline again: an away
    player is played for after the away wait (services.decisions.seat_deadline), one who
    `left` on purpose at once."""
    now = now or timezone.now()
    seat.away = away
    seat.left = away and left
    seat.away_since = now if away else None
    seat.timeouts = 0
    if not away:
        # Back at the table: the votes to give her seat to a bot are void.
        seat.replace_votes = []
    seat.save(update_fields=["away", "away_since", "left", "timeouts", "replace_votes"])
    game = Game.objects.select_for_update().get(table=table)
    version_before = game.version
    _advance(game, table, {s.position: s for s in table.seats.all()}, now)
    game.save(update_fields=GAME_PLAY_FIELDS)
    # A seat's absence moves no version when no fallback played: announce it as a
    # change of seats, which every screen renders afresh.
    _announce_on_commit(table, game.version if game.version != version_before else None)


def between_rounds(view: dict) -> bool:
    """No turn of the current round has been played yet, from the engine's public view:
    its draft is under way (picks only set the round up), or its first turn's cards are
    being chosen and none is revealed yet (a choice may still change). Not once the
    game is over."""
    if view["phase"] == "draft":
        return True
    return view["phase"] == "select" and view["turn"] == 1 and not view.get("revealed")


def seat_replace_by_bot(*, table_id: int, user, position: int, bot: str) -> Seat:
    """The table's creator gives the seat of a player who is away to a bot, between two
    rounds (`between_rounds`): the seat becomes the bot's for the rest of the game, its
    player keeps nothing of it (a league game scores the seat as a bot's)."""

    with transaction.atomic():
        table = _locked_table(table_id)
        _check_runs(table, user, _("Only the table's creator can replace a player."))
        if table.status != Table.Status.PLAYING:
            raise ServiceError("not_playing", _("This table is not playing."))
        if bot not in kinds.get(table.kind).bots:
            raise ServiceError("bad_bot", _("Unknown bot."))
        seat = table.seats.filter(position=position).first()
        if seat is None or not seat.user_id or not seat.away:
            raise ServiceError("not_away", _("Only a player who is away can be replaced by a bot."))
        game = Game.objects.select_for_update().get(table=table)
        game_engine = engine.get(table.kind)
        state = game_engine.load(game.state)
        if not between_rounds(game_engine.view(state, None)):
            raise ServiceError(
                "not_between_rounds", _("A player can be replaced only between two rounds.")
            )
        _give_seat_to_bot(table, game, seat, bot, state)
    return seat


def _give_seat_to_bot(table: Table, game: Game, seat: Seat, bot: str, state) -> None:
    """The seat becomes `bot`'s for the rest of the game (its player keeps nothing of it),
    and the bot plays from there. Call holding the table and game row locks; `state` is
    the game's, loaded."""
    seat.user = None
    seat.bot = bot
    seat.away = False
    seat.away_since = None
    seat.timeouts = 0
    seat.replace_votes = []
    seat.left = False
    seat.save(
        update_fields=["user", "bot", "away", "away_since", "left", "timeouts", "replace_votes"]
    )
    seats = {s.position: s for s in table.seats.all()}
    seats[seat.position] = seat
    # What the fallback already chose for the absent player stays (a bot decides
    # only when a decision is awaited from its seat); the bot makes the next one, at
    # once if it is awaited now.
    _advance(game, table, seats, timezone.now(), state=state)
    game.save(update_fields=GAME_PLAY_FIELDS)
    _announce_on_commit(table, None, lobby=True)


def table_start(*, table_id: int, user) -> Game:
    """`user` starts the table's game: one who runs it (`runs_table`), or None for the app
    that reserved the table, which decides itself who may (as for `seat_assign`)."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if user is not None or not table.reserved:
            _check_runs(table, user, _("Only the table's creator can start the game."))
        # Checked under the lock: a second "start" finds the table playing and is refused.
        _require_open(table)
        if table.paper:
            raise ServiceError("paper", _("This table is played on paper: enter its score sheet."))
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
        # A timed table gives each player her time bank for the game (RULES §1.8).
        bank = settings.SIXCLUB_TIME_BANK if table.time_limit and not table.turn_based else 0
        table.seats.filter(bot="").update(bank=bank)
        for seat in seats:
            seat.bank = 0 if seat.bot else bank
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


# --- rematch -------------------------------------------------------------------------------


def table_rematch(*, table_id: int, user) -> Table:
    """A player of a finished table asks to play again: a new open table like this one
    (game, options, seats, time limit, privacy, played-cards panel, name, and its season
    while the player may still open a table in it: signals.table_created's receivers
    decide, told `rematch_of`), its bots at their seats and the player at theirs. The
    table's other players sit when they accept (`rematch_accept`).

    Once per table: asked again, by anyone of its players, it is the same new table (the
    old table's row lock orders concurrent requests), and the asking player sits there.
    """
    with transaction.atomic():
        old = _locked_table(table_id)
        old_seat = _rematch_player(old, user)
        if old.rematch_id is not None:
            return _rematch_sit(old, old_seat, user)
        if old.status != Table.Status.FINISHED:
            raise ServiceError("not_over", _("A rematch can be asked only once the game is over."))
        new = table_create(
            user=user,
            kind=old.kind,
            seats_count=old.seats_count,
            options=old.options,
            time_limit=old.time_limit,
            is_public=old.is_public,
            show_played=old.show_played,
            name=old.name,
            rematch_of=old,
            creator_sits=False,
        )
        for seat in old.seats.exclude(bot=""):
            Seat.objects.create(table=new, position=seat.position, bot=seat.bot)
        old.rematch = new
        old.save(update_fields=["rematch"])
        _rematch_sit(old, old_seat, user)
        # The old table's screens offer its other players to join.
        _announce_on_commit(old)
    return new


def rematch_accept(*, table_id: int, user) -> Table:
    """A player of a finished table joins its rematch, at their old seat if it is free,
    else at any free seat. Joining again changes nothing."""
    with transaction.atomic():
        old = _locked_table(table_id)
        old_seat = _rematch_player(old, user)
        if old.rematch_id is None:
            raise ServiceError("no_rematch", _("Nobody has asked for a rematch yet."))
        return _rematch_sit(old, old_seat, user)


def _rematch_player(old: Table, user) -> Seat:
    seat = old.seats.filter(user=user).first() if user.is_authenticated else None
    if seat is None:
        raise ServiceError("not_player", _("Only the players of this table can play it again."))
    return seat


def _rematch_sit(old: Table, old_seat: Seat, user) -> Table:
    """Seat `user` at `old`'s rematch (both rows locked, old first: one order everywhere)."""
    new = _locked_table(old.rematch_id)
    if new.seats.filter(user=user).exists():
        return new
    _require_open(new)
    _check_can_sit(new, user)
    taken = set(new.seats.values_list("position", flat=True))
    position = old_seat.position if old_seat.position not in taken else _free_position(new)
    Seat.objects.create(table=new, position=position, user=user)
    _announce_on_commit(new, lobby=True)
    _announce_on_commit(old)
    return new
