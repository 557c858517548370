"""WebSocket consumers: authenticate, parse, call a service, send what was rendered.

Every frame sent is HTML that the htmx `ws` extension swaps into the page by element id
(docs/protocol.md). Each connection renders its own seat's view; what crosses the channel
layer is only "table N is at version v".
"""

import asyncio
import logging
import random
import time

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import trans_real

from games import hub, limits, loopdb, rendering, selectors, services, shutdown
from games.protocol import ProtocolError, parse_message
from games.services import LOBBY_GROUP

log = logging.getLogger(__name__)

# Policy-violation close code for a socket that is not allowed in (docs/protocol.md).
REFUSED = 4401
NOT_FOUND = 4404


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


async def _session_alive_on_loop(session_key) -> bool | None:
    """`_session_alive` read on the event loop's own connection (games.loopdb): whether
    the session is alive, or None if it must be read in a thread (no such connection
    here, none free, sessions not kept in the database, or an error)."""
    from django.conf import settings
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    if not loopdb.available() or settings.SESSION_ENGINE != "django.contrib.sessions.backends.db":
        return None
    table = Session._meta.db_table
    try:
        row = await loopdb.fetchone(
            f'SELECT 1 FROM "{table}" WHERE session_key = %s AND expire_date > %s',
            [session_key, timezone.now()],
        )
    except Exception:
        log.info("session check left for a thread", exc_info=True)
        return None
    if row is loopdb.BUSY:
        return None
    return row is not None


class _HtmlConsumer(AsyncWebsocketConsumer):
    async def send(self, text_data=None, bytes_data=None, close=False):
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except (Disconnected, OSError):
            # The browser closed its end while this frame was on its way: daphne refuses to
            # write to a closing socket, and the disconnect message follows. Nothing to do.
            log.debug("frame not sent: the socket is closing")

    async def refuse(self, code: int) -> None:
        """Accept, then close at once with `code`: a close before accepting would reach the
        browser as a bare HTTP 403, which says nothing about why (docs/protocol.md)."""
        await self.accept()
        await self.close(code=code)

    async def dispatch(self, message):
        # Channels' own dispatch first closes stale database connections, a hop to the
        # thread shared by every socket for each message this consumer handles (each
        # announcement, each frame received). These consumers reach the database only
        # through database_sync_to_async, which does the same around each of its calls.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def _language(self):
        """The language of the page that opened this socket, chosen as the pages choose it:
        the language cookie, then the player's choice, then the browser, then French."""
        from django.conf import settings

        cookie = self.scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "")
        chosen = getattr(self.scope["user"], "preferred_language", "")
        for candidate in (cookie, chosen):
            if candidate in dict(settings.LANGUAGES):
                return candidate
        header = dict(self.scope.get("headers", [])).get(b"accept-language", b"")
        for code, _quality in trans_real.parse_accept_lang_header(header.decode("latin-1")):
            try:
                return trans_real.get_supported_language_variant(code)
            except LookupError:
                continue
        return settings.LANGUAGE_CODE


class LobbyConsumer(_HtmlConsumer):
    """Pushes the list of open tables to signed-in players as it changes."""

    async def connect(self):
        if not self.scope["user"].is_authenticated:
            await self.refuse(REFUSED)
            return
        self.language = await self._language()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=await self._notice("read_only", _("The lobby only listens.")))

    async def lobby_changed(self, event):
        html = await database_sync_to_async(rendering.render_lobby_tables)(
            self.scope["user"], self.language
        )
        await self.send(text_data=html)

    async def _notice(self, code, message):
        with translation.override(self.language):
            return render_to_string("games/notice.html", {"code": code, "message": message})


class TableConsumer(_HtmlConsumer):
    """One per open table page: the player's (or spectator's) live view of one table.

    Frames (docs/protocol.md): a whole `#live` when the decision point moved (a reveal, a
    row to choose, a new turn or round, the end) or the seats changed; within one decision
    point (a selection) only `#players`, plus the seat's own `#hand` when its selection
    changed. `sent_version` and `sent_point` say what the screen shows.
    """

    async def connect(self):
        user = self.scope["user"]
        if not user.is_authenticated:
            await self.refuse(REFUSED)
            return
        # Channels hands a lazy proxy, which every read of an attribute goes through; the
        # user is read for every frame (its seat) and every message.
        self.user = user = getattr(user, "_wrapped", user)
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        access = await database_sync_to_async(selectors.table_access)(self.table_id, user)
        if access is None:
            await self.refuse(NOT_FOUND)
            return
        self.language = await self._language()
        self.sent_version = -1
        self.sent_point = None
        self.sent_selection = None
        self.announcing = set()
        self.pushing = asyncio.Lock()
        # Channels' AuthMiddleware read the session to find the user just now: the next
        # reading is due within one interval.
        self.session_due = time.monotonic() + random.uniform(0, SESSION_CHECK_SECONDS)
        # The table's announcements come from this process's hub (games/hub.py), which
        # listens to the table once for every socket of this process.
        self.hub = hub.current()
        await self.hub.join(self.table_id, self)
        await self.channel_layer.group_add(user_group(user.pk), self.channel_name)
        await self.accept()
        shutdown.register(self)
        if access.seated:
            # Coming back to the table ends an absence (RULES §1.8: fallback only while away).
            await database_sync_to_async(services.seat_return)(table_id=self.table_id, user=user)
        await self._push(force=True)

    async def disconnect(self, code):
        shutdown.unregister(self)
        if hasattr(self, "hub"):
            await self.hub.leave(self.table_id, self)
            if not self.hub.sockets:
                # No table socket left in this process: no selection to store either.
                await loopdb.close()
            await self.channel_layer.group_discard(user_group(self.user.pk), self.channel_name)

    async def session_ended(self, event):
        """The user logged out (somewhere): this socket's session is no more."""
        if event.get("session_key") in (None, self.scope["session"].session_key):
            await self.close(code=REFUSED)

    async def receive(self, text_data=None, bytes_data=None):
        if not await limits.allow(self.user.pk):
            await self._send_error("rate_limited", _("Too many messages: slow down."), None)
            return
        if not await self._session_ok():
            await self.close(code=REFUSED)
            return
        try:
            message = parse_message(text_data, bytes_data)
        except ProtocolError as error:
            log.info(
                "table %s: refused message from %s: %s",
                self.table_id,
                self.user.pk,
                error.code,
            )
            await self._send_error(error.code, error.message, None)
            return
        if message.type == "sync":
            await self._push(force=True)
            return
        try:
            # Most decisions are selections within a turn: one statement, sent from this
            # event loop (games.loopdb). The others, and any the loop cannot store, go to
            # a decision thread: off the thread shared by every socket of this process,
            # where other tables' commits would queue behind them (docs/performance.md).
            # The game row lock orders the decisions of one table whichever thread runs
            # them.
            done = await services.decide_on_loop(
                self.table_id, self.user, message.decision, message.id, message.version
            )
            if done is None:
                done = await database_sync_to_async(_decide, thread_sensitive=False)(
                    self.table_id, self.user, message
                )
            accepted, announcements = done
        except services.ServiceError as error:
            log.info(
                "table %s: refused decision from %s: %s",
                self.table_id,
                self.user.pk,
                error.code,
            )
            await self._send_error(error.code, error.message, message.id)
            return
        # Committed: acknowledge first, then tell the table, then show this seat its own
        # move. The announcement goes out even if this socket has closed meanwhile.
        task = asyncio.ensure_future(self._announce(announcements))
        self.announcing.add(task)
        task.add_done_callback(self.announcing.discard)
        await self.send(text_data=_ack_frame(message.id, accepted.version))
        # Under daphne the acknowledgement has left (config/writes.py) unless the socket
        # was behind; otherwise Twisted writes it at the event loop's next poll. Either
        # way the renders (this seat's frame, the table's frames in this process) wait
        # for that poll, so that the decisions that arrived meanwhile are read, and
        # their statements sent, first (hub.after_writes, docs/performance.md §16-17).
        await hub.after_writes()
        await self._push(at_least=accepted.version)

    async def _announce(self, announcements):
        for group, event in announcements:
            try:
                if event["type"] == "table.changed":
                    await self.hub.announce(event["table"], event)
                else:
                    await self.channel_layer.group_send(group, event)
            except Exception:
                # Committed already; screens catch up with the next change or a `sync`.
                log.exception("could not announce %s to %s", event.get("type"), group)

    async def table_changed(self, event):
        version = event.get("version")
        if version is None:
            # The seats changed without a move (an absence, a player back): read afresh.
            await self._push(force=True)
            return
        if version <= self.sent_version:
            return
        await self._push(at_least=version, move=event.get("move"))

    async def _push(self, force=False, at_least=None, move=None):
        # Announcements arrive from the hub while a frame of this socket may be on its
        # way: one frame at a time keeps what the screen shows in version order.
        async with self.pushing:
            await self._push_now(force, at_least, move)

    async def _push_now(self, force, at_least, move=None):
        snapshot = None
        if at_least is not None:
            # Kept by this process, or moved by another process's decisions: then taken
            # from the announcement's move, or read on this event loop, if only the
            # game's play moved (rendering.catch_up).
            snapshot = await rendering.catch_up(self.table_id, at_least, move)
        if snapshot is None:
            snapshot = await database_sync_to_async(rendering.read_snapshot)(self.table_id)
            if snapshot is None:
                return
        version = snapshot.version
        if not force and version is not None and version <= self.sent_version:
            return
        user = self.user
        position = snapshot.position_of(user)
        selection = rendering.selection_of(snapshot, position)
        if not force and version is not None and snapshot.point_version == self.sent_point:
            html = rendering.update_frame(
                snapshot, position, self.language, hand=selection != self.sent_selection
            )
        else:
            html = rendering.live_frame(snapshot, user, self.language, self._csrf_token())
            self.sent_point = snapshot.point_version
        self.sent_selection = selection
        if version is not None:
            self.sent_version = version
        await self.send(text_data=html)

    async def _session_ok(self) -> bool:
        now = time.monotonic()
        if now < self.session_due:
            return True
        self.session_due = now + SESSION_CHECK_SECONDS
        session_key = self.scope["session"].session_key
        alive = await _session_alive_on_loop(session_key)
        if alive is None:
            alive = await database_sync_to_async(_session_alive)(session_key)
        return alive

    def _csrf_token(self) -> str:
        from django.conf import settings

        return self.scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")

    async def _send_error(self, code, message, request_id):
        with translation.override(self.language):
            html = render_to_string(
                "games/notice.html",
                {"code": code, "message": message, "request_id": request_id or ""},
            )
        await self.send(text_data=html)


def _decide(table_id, user, message):
    """game_decide, with its announcements handed back to the consumer to send."""
    with services.announcements_deferred() as announcements:
        accepted = services.game_decide(
            table_id=table_id,
            user=user,
            decision=message.decision,
            client_id=message.id,
            seen_version=message.version,
        )
    return accepted, announcements


def _ack_frame(request_id, version) -> str:
    # Sent for every decision: written here rather than rendered from a template.
    return format_html(
        '<div id="ack" hidden data-request="{}" data-version="{}"></div>', request_id or "", version
    )
