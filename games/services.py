"""The one door through which a table or a game changes.

Every write here runs in one transaction: lock the row, check, apply, persist, and only
then (on commit) announce "table N is at version v" on the channel layer. Announcements
carry no secret; each connection renders its own seat's view from the database.
"""

import random
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine, kinds, signals
from games.announce import announce_on_commit
from games.bots import get_bot
from games.models import GAME_PLAY_FIELDS, Decision, Game, RoundScore, Seat, Table, TakenCard

LOBBY_GROUP = "lobby"
# Decisions made for a seat without asking its player: bots, absent players, time-outs.
AUTOMATIC_SOURCES = (Decision.Source.BOT, Decision.Source.AWAY, Decision.Source.TIMEOUT)
# A player for whom the time limit decided so many times in a row is marked away: from
# then on the computer plays for them at once instead of waiting out each limit.
AWAY_AFTER_TIMEOUTS = 2


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


def table_group(table_id) -> str:
    """The channel-layer group of a table's sockets (games.consumers joins it)."""
    return f"table.{table_id}"


def _announce_on_commit(table: Table, version: int | None = None, lobby: bool = False) -> None:
    """Once committed, say "table N is at version v": nothing else, no card, no move.
    Each process reads that version from the database and renders it for its sockets."""
    message = {"type": "table.changed", "table": table.pk, "version": version}
    announce_on_commit(table_group(table.pk), message)
    if lobby:
        announce_on_commit(LOBBY_GROUP, {"type": "lobby.changed"})


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
            _set_away(table, own, away=True)
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


def _set_away(table: Table, seat: Seat, *, away: bool) -> None:
    seat.away = away
    seat.timeouts = 0
    seat.save(update_fields=["away", "timeouts"])
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
        seat.user = None
        seat.bot = bot
        seat.away = False
        seat.timeouts = 0
        seat.save(update_fields=["user", "bot", "away", "timeouts"])
        seats = {s.position: s for s in table.seats.all()}
        seats[seat.position] = seat
        # What the fallback already chose for the absent player stays (a bot decides
        # only when a decision is awaited from its seat); the bot makes the next one, at
        # once if it is awaited now.
        _advance(game, table, seats, timezone.now(), state=state)
        game.save(update_fields=GAME_PLAY_FIELDS)
        _announce_on_commit(table, None, lobby=True)
    return seat


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
        return _decide(table_id, user, decision, client_id, seen_version)
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


def _decide(table_id, user, decision, client_id, seen_version) -> Accepted:
    with transaction.atomic():
        # The game row lock orders every decision of this table, from every process.
        game, table = _locked_game(table_id)
        seats = {seat.position: seat for seat in table.seats.select_related("user")}
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
        state = game_engine.load(game.state)
        now = timezone.now()
        if mine.away or mine.timeouts:
            # The player is here: no longer away, and the time-outs in a row start again.
            mine.away = False
            mine.timeouts = 0
            mine.save(update_fields=["away", "timeouts"])
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
        _advance(game, table, seats, now, state=state, point_before=point_before)
        game.save(update_fields=GAME_PLAY_FIELDS)
        _announce_on_commit(table, game.version, lobby=table.status == Table.Status.FINISHED)
        return Accepted(version=game.version)


def _locked_game(table_id) -> tuple[Game, Table]:
    """The table's game, its row locked for this transaction, and its table.

    Read apart, and not linked to each other by the ORM: linked both ways they would be a
    reference cycle, left with the game's JSON state for a full garbage collection after
    every decision instead of being freed at once."""
    try:
        game = Game.objects.select_for_update().get(table_id=table_id)
    except Game.DoesNotExist:
        raise ServiceError("not_playing", _("This table is not playing.")) from None
    table = Table.objects.get(pk=table_id)
    if table.paper:
        raise ServiceError("paper", _("This table is played on paper: enter its score sheet."))
    return game, table


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
        # A question asked while a turn resolves (6 qui surprend's `prompt`): each answer
        # opens the next decision point, even one of the same kind asked again.
        view["version"] if view.get("prompt") else None,
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
        game.save()
        signals.game_finished.send(sender=Game, game=game)
    elif table.time_limit and (moved or game.deadline is None):
        game.deadline = now + timedelta(seconds=table.time_limit)
    elif not table.time_limit:
        game.deadline = None


# --- games played on paper, and corrected results ---------------------------------------------


def table_paper(*, table_id: int) -> Table:
    """A table not finished yet is to be played with real cards: no game starts here, and
    a game under way stops (no decision, no clock); its score sheet, once entered and
    agreed (`paper_result`), is its game. For the app that runs it (leagues), which
    decides who may."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status == Table.Status.FINISHED:
            raise ServiceError("finished", _("This table's game is over."))
        table.paper = True
        table.save(update_fields=["paper"])
        Game.objects.filter(table=table).update(deadline=None)
        _announce_on_commit(table, lobby=True)
    return table


def paper_seats(*, table_id: int, users: list) -> None:
    """The players of a table played on paper, in seat order, in place of whoever sat there
    (its score sheet names them). For the app that enters the sheet, which checks them."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if not table.paper or table.status == Table.Status.FINISHED:
            raise ServiceError("not_paper", _("This table is not waiting for a score sheet."))
        table.seats.all().delete()
        for position, user in enumerate(users):
            Seat.objects.create(table=table, position=position, user=user)
        _announce_on_commit(table, lobby=True)


def paper_result(*, table_id: int, lines, finished_at=None) -> Game:
    """End a table played on paper with its score sheet (`lines`, in the game's unit):
    the table's game, finished, whose result enters its season like a game played here.
    games.paper.SheetError when the sheet cannot be this game's."""

    with transaction.atomic():
        table = _locked_table(table_id)
        if not table.paper or table.status == Table.Status.FINISHED:
            raise ServiceError("not_paper", _("This table is not waiting for a score sheet."))
        seats = list(table.seats.order_by("position"))
        for index, seat in enumerate(seats):
            if seat.position != index:
                raise ServiceError("gaps", _("Every seat of the table must be taken, in order."))
        paper_sheet = kinds.get(table.kind).paper_sheet
        if paper_sheet is None:
            raise ServiceError("no_paper", _("This game cannot be entered on paper."))
        rows, result = paper_sheet(lines, len(seats))
        now = finished_at or timezone.now()
        game = Game.objects.select_for_update().filter(table=table).first()
        if game is None:
            game = Game(table=table, seed=0, state={})
        # A game begun here and finished on paper: the sheet is its result, whatever
        # its rounds played here had written.
        RoundScore.objects.filter(game_id=game.pk).delete()
        TakenCard.objects.filter(game_id=game.pk).delete()
        game.finished_at, game.result, game.deadline = now, result, None
        game.save()
        _score_rows(game, rows)
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status"])
        signals.game_finished.send(sender=Game, game=game)
        _announce_on_commit(table, lobby=True)
    return game


def game_sheet_replace(*, game_id: int, lines) -> Game:
    """Give a finished game another score sheet (`lines`, in the game's unit): its result
    and its score sheet rows. Only the leagues' correction calls this, which keeps who,
    when and why, and recomputes the standings."""

    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("table").get(pk=game_id)
        if game.finished_at is None:
            raise ServiceError("not_finished", _("Only a finished game's result is corrected."))
        paper_sheet = kinds.get(game.table.kind).paper_sheet
        if paper_sheet is None:
            raise ServiceError("no_paper", _("This game's result cannot be corrected."))
        rows, result = paper_sheet(lines, len(game.result["totals"]))
        game.result = {**game.result, **result}
        game.save(update_fields=["result"])
        RoundScore.objects.filter(game=game).delete()
        _score_rows(game, rows)
    return game


def _score_rows(game: Game, rows) -> None:
    RoundScore.objects.bulk_create(
        RoundScore(game=game, round=number, seat=seat, heads=heads)
        for number, line in enumerate(rows, start=1)
        for seat, heads in enumerate(line)
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
