"""WebSocket consumers: authenticate, parse, call a service, send what was rendered.

Every frame sent is HTML that the htmx `ws` extension swaps into the page by element id
(docs/protocol.md). Each connection renders its own seat's view; what crosses the channel
layer is only "table N is at version v".
"""

import asyncio
import logging
import random
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import aclose_old_connections, database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games import engine, limits, rendering, selectors, services, shutdown, sockets
from games.protocol import ProtocolError, parse_message
from games.services import LOBBY_GROUP, table_group
from games.sockets import Room

log = logging.getLogger(__name__)

# Policy-violation close code for a socket that is not allowed in (docs/protocol.md).
REFUSED = 4401
NOT_FOUND = 4404
# "Try again later" (1013): the channel layer (Redis) could not be reached while the
# socket connected. htmx's ws extension reconnects on it after a pause. Daphne sends it
# through games.shutdown's override, as 1012.
TRY_AGAIN_LATER = shutdown.TRY_AGAIN_LATER
# What channels-redis raises when Redis is down or does not answer in time.
LAYER_UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


# How often a socket's session is read again (an expired or deleted session closes it on
# its next message): every SESSION_CHECK_SECONDS at most, the first time at a random
# point of the first interval after connecting, so that sockets opened together (a club
# evening starting, a server restarting) do not all check at once.
SESSION_CHECK_SECONDS = 30


def _session_alive(session_key) -> bool:
    # An expired or deleted session (logged out elsewhere) no longer speaks for its user.
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    return Session.objects.filter(session_key=session_key, expire_date__gt=timezone.now()).exists()


# How long a closing socket waits for Redis to forget its groups; past this the channel
# stays in the group until channels-redis' group expiry, and announcements to it expire.
DISCARD_SECONDS = 2
# How often, at most, a closing socket asks its layer receive to stop (below).
RECEIVE_STOP_TRIES = 10


class HtmlConsumer(AsyncWebsocketConsumer):
    """A consumer that sends HTML frames and closes without waiting on the channel layer.

    Channels' consumer loop (`await_many_dispatch`) cancels its pending layer receive when
    the socket closes, then waits for that receive to end. With channels-redis 4.3 and
    redis-py 8 on Python 3.11 a cancellation that lands while the receive is inside its
    EVAL (the backup-queue clean-up before each BZPOPMIN) is lost, and the receive loops on
    BZPOPMIN for good: daphne then killed the socket's application after 10 s ("took too
    long to shut down", issue 21 bug 10). So the loop is given a receive that ends as soon
    as it is cancelled, and the layer's own receive is asked to stop in the background,
    again until it does.
    """

    # AsyncConsumer.__call__ sets `channel_receive` (the layer's receive of this socket's
    # channel) and passes it to its loop: the loop gets `_receive_from_layer` instead.
    @property
    def channel_receive(self):
        return self._receive_from_layer

    @channel_receive.setter
    def channel_receive(self, layer_receive):
        self._layer_receive = layer_receive

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Set once the socket is accepted, its groups joined: only then does the loop read
        # the layer. A socket refused at connect never reads it, so with Redis down the
        # failure is its connect's alone (websocket_connect), not a receive's traceback.
        self.listening = asyncio.Event()
        self.layer_unreachable = False

    async def websocket_connect(self, message):
        try:
            await super().websocket_connect(message)
        except LAYER_UNREACHABLE as error:
            # Redis is down: joining the groups failed. One line per attempt, no traceback;
            # the page is told to try again later, and reconnects by itself.
            self.layer_unreachable = True
            log.warning(
                "%s: socket closed, try again later (%s): channel layer unreachable: %s",
                self.scope["path"],
                TRY_AGAIN_LATER,
                error,
            )
            await self.refuse(TRY_AGAIN_LATER)

    async def accept(self, subprotocol=None, headers=None):
        await super().accept(subprotocol, headers)
        self.listening.set()

    async def _receive_from_layer(self):
        await self.listening.wait()
        receiving = asyncio.ensure_future(self._layer_receive())
        try:
            return await asyncio.shield(receiving)
        except asyncio.CancelledError:
            _stop_receiving(receiving, RECEIVE_STOP_TRIES)
            raise

    async def _leave_groups(self, *groups) -> None:
        """Leave the channel-layer groups, waiting at most DISCARD_SECONDS on the layer."""
        if self.layer_unreachable:
            return  # refused at connect: nothing to leave on a layer that is down
        layer = self.channel_layer
        discards = [layer.group_discard(group, self.channel_name) for group in groups]
        try:
            async with asyncio.timeout(DISCARD_SECONDS):
                await asyncio.gather(*discards)
        except Exception:
            log.warning("socket closed without leaving its groups %s", groups, exc_info=True)

    # --- the socket's room: its table, or the lobby; what other apps add (games.sockets) --
    room: Room | None = None

    async def _enter_room(self, room: Room, answers: list, *groups: str) -> None:
        """Other apps' join hooks first, so that they are ready for the groups' events;
        `answers`: what their reads answered (games.sockets.read_room, in the connect's hop)."""
        self.room = room
        await sockets.join(self, room, answers)
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def _leave_room(self, *groups: str) -> None:
        if self.room is None:
            return  # refused before it entered
        await sockets.leave(self, self.room)
        await self._leave_groups(*groups)

    async def dispatch(self, message):
        """An event of a type another app registered goes to its handler (games.sockets);
        every other message to the method its type names, as Channels does, but without
        Channels' hop to the database thread before each one (`aclose_old_connections`):
        these handlers reach the database only through `database_sync_to_async`, which
        closes stale connections itself, and a decision's announcement reaches every
        socket of its table (a hop for each of them on every decision)."""
        handler = sockets.event_handler(message.get("type"))
        if handler is not None:
            await aclose_old_connections()
            await handler(self, message)
            return
        own = getattr(self, get_handler_name(message), None)
        if own is None:
            await super().dispatch(message)  # Channels' own error for a message nobody takes
            return
        await own(message)

    async def session_ended(self, event):
        """The user logged out (somewhere): this socket's session is no more."""
        if event.get("session_key") in (None, self.scope["session"].session_key):
            await self.close(code=REFUSED)

    def log_refusal(self, what, code) -> None:
        where = self.room or self.scope["path"]
        log.info("%s: refused %s from %s: %s", where, what, self.scope["user"].pk, code)

    async def _send_error(self, code, message, request_id=None, about=""):
        """Answer a refused message where it belongs: another app's message (`about`, its
        type: games.sockets) in that app's place on the page, any other in `#notice`."""
        if about:
            await sockets.refuse(self, about, code, message, request_id or "")
            return
        with translation.override(self.language):
            html = render_to_string(
                "games/notice.html",
                {"code": code, "message": message, "request_id": request_id or ""},
            )
        await self.send(text_data=html)

    async def send(self, text_data=None, bytes_data=None, close=False):
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except (Disconnected, OSError):
            # The browser closed its end while this frame was on its way: daphne refuses to
            # write to a closing socket, and the disconnect message follows. Nothing to do.
            log.debug("frame not sent: the socket is closing")

    # Whether the handshake was accepted before the connect's database work (`accept_first`).
    accepted_first = False

    async def accept_first(self) -> None:
        """Accept the handshake before the connect's database work, without listening on
        the channel layer: daphne drops a handshake not accepted within its timeout (5 s),
        and a club's sockets opening at once queue on Channels' one database thread. The
        socket listens once it has joined its groups (`listen`); until then it is sent
        nothing, and a refused one is closed with its code (`refuse`)."""
        await super().accept()
        self.accepted_first = True

    def listen(self) -> None:
        """Accepted first, the socket is in its groups: its loop may read the layer."""
        self.listening.set()

    async def refuse(self, code: int) -> None:
        """Accept (unless accepted first), then close at once with `code`: a close before
        accepting would reach the browser as a bare HTTP 403, which says nothing about why
        (docs/protocol.md). A refused socket never listens on the channel layer (the base
        `accept`) and is sent nothing but the close."""
        if not self.accepted_first:
            await super().accept()
        await self.close(code=code)

    async def _language(self):
        """The language of the page that opened this socket, chosen as the pages choose it:
        the language cookie, then the player's choice, then the browser, then French."""
        cookie = self.scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "")
        chosen = getattr(self.scope["user"], "preferred_language", "")
        for candidate in (cookie, chosen):
            if candidate in dict(settings.LANGUAGES):
                return candidate
        header = dict(self.scope.get("headers", [])).get(b"accept-language", b"")
        for code in _accepted_languages(header.decode("latin-1")):
            try:
                return translation.get_supported_language_variant(code)
            except LookupError:
                continue
        return settings.LANGUAGE_CODE


class LobbyConsumer(HtmlConsumer):
    """Pushes the list of open tables to signed-in players as it changes."""

    async def connect(self):
        if not self.scope["user"].is_authenticated:
            await self.refuse(REFUSED)
            return
        self.user = self.scope["user"]
        self.language = await self._language()
        # One cheap hop (the apps' room reads), then accepted once in its groups: the lobby
        # sends no first frame, so being accepted is what says it hears every change.
        room = Room()
        answers = await database_sync_to_async(sockets.read_room)(self.user, room)
        await self._enter_room(room, answers, LOBBY_GROUP, user_group(self.user.pk))
        await self.accept()

    async def disconnect(self, code):
        await self._leave_room(LOBBY_GROUP, user_group(self.scope["user"].pk))

    async def receive(self, text_data=None, bytes_data=None):
        """Only other apps' messages (games.sockets); any other is answered `read_only`.
        The lobby page shows only those apps' answers, so a message over the allowance is
        read too: its refusal is then shown in its app's place."""
        allowed = await limits.allow(self.user.pk)
        refused = None
        try:
            message = parse_message(text_data, bytes_data)
            about = message.type if sockets.takes(message.type) else ""
        except ProtocolError as error:
            refused, about = error, error.about
        if not allowed:
            await self._send_error("rate_limited", _slow_down(), about=about)
        elif not about:
            await self._send_error("read_only", _("The lobby only listens."))
        elif refused:
            self.log_refusal("message", refused.code)
            await self._send_error(refused.code, refused.message, about=about)
        else:
            await sockets.receive(self, message)

    async def lobby_changed(self, event):
        html = await database_sync_to_async(rendering.render_lobby_tables)(
            self.scope["user"], self.language
        )
        await self.send(text_data=html)


class TableConsumer(HtmlConsumer):
    """One per open table page: the player's (or spectator's) live view of one table.

    Frames (docs/protocol.md): a whole `#live` when the decision point moved (a reveal, a
    row to choose, a new turn or round, the end) or the seats changed; within one decision
    point (a selection) only `#players`, plus the seat's own `#hand` when its selection
    changed. `sent_version`, `sent_point` and `sent_seats` say what the screen shows.
    """

    async def connect(self):
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.refuse(REFUSED)
            return
        self.user = user
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        # A private table's page opened from its invite link connects with the code
        # (games/table.html): the same rule as the page's (selectors.table_access).
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.invite = query.get("invite", [""])[0]
        # Accepted before any database work, then one hop: access, the apps' room reads,
        # the seat seen (docs/protocol.md, "Connecting").
        await self.accept_first()
        room = Room(self.table_id)
        entry = await database_sync_to_async(_enter_table)(self.table_id, user, self.invite, room)
        if entry is None:
            await self.refuse(NOT_FOUND)
            return
        access, answers = entry
        self.language = await self._language()
        # The decisions of this table's game, and their fields (docs/engines.md).
        self.decisions = engine.get(access.table.kind).DECISIONS
        self.sent_version = -1
        self.sent_point = None
        self.sent_selection = None
        self.sent_seats = None
        self.pushing = asyncio.Lock()
        # Channels' AuthMiddleware read the session to find the user just now: the next
        # reading is due within one interval.
        self.session_due = time.monotonic() + random.uniform(0, SESSION_CHECK_SECONDS)
        room_groups = (table_group(self.table_id), user_group(user.pk))
        await self._enter_room(room, answers, *room_groups)
        self.listen()
        shutdown.register(self)
        await self._push(force=True)

    async def disconnect(self, code):
        shutdown.unregister(self)
        if self.room is not None:  # else refused at connect, perhaps before `user` was set
            await self._leave_room(table_group(self.table_id), user_group(self.user.pk))

    async def receive(self, text_data=None, bytes_data=None):
        try:
            message, refused = parse_message(text_data, bytes_data, self.decisions), None
        except ProtocolError as error:
            message, refused = None, error
        # Every message counts against its sender's allowance: a decision in its own
        # thread (_decide_in), any other here.
        decision = getattr(message, "decision", None)  # other apps' messages have none
        if decision is None and not await limits.allow(self.user.pk):
            await self._send_error("rate_limited", _slow_down())
            return
        if not await self._session_ok():
            await self.close(code=REFUSED)
            return
        if refused is not None:
            self.log_refusal("message", refused.code)
            await self._send_error(refused.code, refused.message, about=refused.about)
            return
        if sockets.takes(message.type):
            await sockets.receive(self, message)
            return
        if message.type == "sync":
            await self._push(force=True)
            return
        try:
            accepted = await _decide(self.table_id, self.user, message, self.language)
        except services.ServiceError as error:
            log.info(
                "table %s: refused decision from %s: %s",
                self.table_id,
                self.user.pk,
                error.code,
            )
            await self._send_error(error.code, error.message, message.id)
            return
        # Committed: tell the table's sockets (a resend's version was told already), so
        # that whoever hears of the ack has been told too; acknowledge; then show this seat
        # its move.
        if not accepted.duplicate:
            await self._announce(accepted.version)
        await self.send(text_data=_ack_frame(message.id, accepted.version))
        await self._push(at_least=accepted.version)

    async def _announce(self, version: int) -> None:
        """Tell the table's sockets, in every process, that it is at `version`."""
        message = services.table_changed(self.table_id, version)
        try:
            await self.channel_layer.group_send(table_group(self.table_id), message)
        except Exception:
            # The decision is stored: a lost announcement only delays the other screens
            # until the next one or their own `sync`.
            log.exception("table %s: could not announce version %s", self.table_id, version)

    async def table_seat_removed(self, event):
        """The table's creator freed this user's seat before the game (the frame that
        follows shows the seats without them): say so, at that table only."""
        if event.get("table") != self.table_id:
            return
        with translation.override(self.language):
            message = _("The table's creator removed you from your seat.")
        await self._send_error("seat_removed", message)

    async def table_changed(self, event):
        version = event.get("version")
        if version is None:
            # The seats changed without a move (an absence, a player back): read afresh.
            await self._push(force=True)
            return
        if version <= self.sent_version:
            return
        await self._push(at_least=version)

    async def _push(self, force=False, at_least=None):
        # Announcements arrive while a frame of this socket may be on its way: one frame
        # at a time keeps what the screen shows in version order.
        async with self.pushing:
            await self._push_now(force, at_least)

    async def _push_now(self, force, at_least):
        snapshot = await _snapshot(self.table_id, at_least)
        if snapshot is None:
            return
        version = snapshot.version
        if not force and version is not None and version <= self.sent_version:
            return
        user = self.user
        position = snapshot.position_of(user)
        selection = rendering.selection_of(snapshot, position)
        # A seat saved with the move (an absence, a vote, a bot in a player's place)
        # changes what every section says of the seats: the whole table then.
        seats = snapshot.game.seats_version if snapshot.game else None
        if (
            not force
            and version is not None
            and snapshot.point_version == self.sent_point
            and seats == self.sent_seats
        ):
            html = rendering.update_frame(
                snapshot, position, self.language, hand=selection != self.sent_selection
            )
        else:
            # The invite code goes with the seats' "Take a seat" (a private table's).
            html = rendering.live_frame(
                snapshot, user, self.language, self._csrf_token(), self.invite
            )
            self.sent_point = snapshot.point_version
        self.sent_selection = selection
        self.sent_seats = seats
        if version is not None:
            self.sent_version = version
        await self.send(text_data=html)

    async def _session_ok(self) -> bool:
        now = time.monotonic()
        if now < self.session_due:
            return True
        self.session_due = now + SESSION_CHECK_SECONDS
        session_key = self.scope["session"].session_key
        return await database_sync_to_async(_session_alive)(session_key)

    def _csrf_token(self) -> str:
        return self.scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")


def _enter_table(table_id, user, invite, room):
    """The database work of a table socket's connect, in one hop: (its access, what the
    apps' room reads answered), or None if the user may not look at the table."""
    access = selectors.table_access(table_id, user, invite)
    if access is None:
        return None
    if access.seated:
        # She is at the table (the clock says so again while the socket is open); an
        # absence ends only with her own decision or her "I'm back" (RULES §1.8).
        services.seat_seen(table_id=table_id, user_id=user.pk)
    return access, sockets.read_room(user, room)


# Decisions run in threads of their own, off the one thread that Channels shares between
# every socket for the other database work: the game row lock orders a table's decisions
# whichever thread runs them.
_deciders = ThreadPoolExecutor(
    max_workers=settings.SIXCLUB_DECISION_THREADS, thread_name_prefix="decision"
)


async def _decide(table_id, user, message, language) -> services.Accepted:
    decide = database_sync_to_async(_decide_in, thread_sensitive=False, executor=_deciders)
    return await decide(language, table_id, user, message)


def _decide_in(language, table_id, user, message) -> services.Accepted:
    # A refusal is worded in the language of the player's page, whatever thread runs it.
    with translation.override(language):
        if not limits.allow_now(user.pk):
            raise services.ServiceError("rate_limited", _slow_down())
        accepted = services.game_decide(
            table_id=table_id,
            user=user,
            decision=message.decision,
            client_id=message.id,
            seen_version=message.version,
            announce=False,  # the socket tells the table, then acknowledges
        )
    if accepted.game is not None:
        # This process's sockets of the table render the version reached from what the
        # decision read and wrote, instead of reading it again.
        rendering.remember_snapshot(accepted.table, accepted.game, accepted.seats, accepted.state)
    return accepted


# Per event loop and table, the read of its latest version under way: the sockets of a
# table told of one version read it once (rendering.read_snapshot keeps it for them), and
# so do sockets that ask for the table as it is now (connecting, `sync`) while a read
# that has not yet begun is waiting for the database thread (a club connecting at once).
_reads: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict]" = weakref.WeakKeyDictionary()


class _Read:
    """A read of a table as the database has it, shared while it may serve: `began` is
    when it began in the database thread (None while it waits for it)."""

    def __init__(self, reads: dict, table_id: int):
        self.began = None
        self.future = asyncio.ensure_future(database_sync_to_async(self._run)(table_id))
        reads[table_id] = self
        self.future.add_done_callback(lambda _done: _forget_read(reads, table_id, self))

    def _run(self, table_id: int):
        self.began = time.monotonic()
        return rendering.read_snapshot(table_id)


async def _snapshot(table_id: int, at_least: int | None):
    """The table at version `at_least` or later (None: as the database has it now); None
    if the table is gone."""
    reads = _reads.setdefault(asyncio.get_running_loop(), {})
    if at_least is not None:
        kept = rendering.snapshot_at(table_id, at_least)
        if kept is not None:
            return kept
        reading = reads.get(table_id) or _Read(reads, table_id)
        snapshot = await asyncio.shield(reading.future)
        if snapshot is None or snapshot.version is None or snapshot.version >= at_least:
            return snapshot
        # That read began before this version was committed: read again.
    asked = time.monotonic()
    reading = reads.get(table_id)
    if reading is None or (reading.began is not None and reading.began < asked):
        reading = _Read(reads, table_id)  # one that began before the asking may be stale
    return await asyncio.shield(reading.future)


def _forget_read(reads: dict, table_id: int, done: _Read) -> None:
    if reads.get(table_id) is done:
        del reads[table_id]


def _stop_receiving(receiving: asyncio.Future, tries: int) -> None:
    """Cancel a layer receive that its socket no longer waits for; cancel it again a
    second later while it runs (a lost cancellation, see HtmlConsumer)."""
    if receiving.done():
        if not receiving.cancelled():
            receiving.exception()  # retrieved: a failed receive of a closed socket is no news
        return
    receiving.cancel()
    if tries > 1:
        asyncio.get_running_loop().call_later(1, _stop_receiving, receiving, tries - 1)
    else:
        receiving.add_done_callback(lambda done: _stop_receiving(done, 0))


def _accepted_languages(header: str) -> list[str]:
    """The language codes of an Accept-Language header, the preferred first."""
    ranked = []
    for index, part in enumerate(header.split(",")):
        code, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        if code and code != "*" and quality > 0:
            ranked.append((-quality, index, code.strip()))
    return [code for _q, _i, code in sorted(ranked)]


def _slow_down() -> str:
    return _("Too many messages: slow down.")


def _ack_frame(request_id, version) -> str:
    # Sent for every decision: written here rather than rendered from a template.
    return format_html(
        '<div id="ack" hidden data-request="{}" data-version="{}"></div>', request_id or "", version
    )
