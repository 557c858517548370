"""One listener per server process for the announcements of the tables it shows.

A table's sockets do not each listen for its announcements ("table N is at version v"):
the process listens once per table while it has at least one socket of that table open.
An announcement made in this process reaches its own sockets of the table directly, and
goes out once for the other processes; what comes in from the others is handed to this
process's sockets of the table (docs/performance.md §11).

With Redis (REDIS_URL), announcements are Redis pub/sub messages on one channel per
table, published in one round trip and received once per process: the listener
subscribes to the tables of its sockets. Publishing and listening each take one
connection per process, spoken through games.resp. If it loses Redis (a restart), it connects
again as soon as it can, subscribes to all of them again and has every socket render
its table afresh, since announcements may have been lost meanwhile. Without Redis (one
process, the in-memory channel layer) the process joins the table's channel-layer group
with a channel of its own instead.

A process alone at a table publishes nothing for it (every table, with one process;
docs/performance.md §14). Once Redis confirms its subscription to a table, it says
`hub.hello` on the table's channel; every other process there answers `hub.here`, and
`hub.bye` when it leaves. It counts itself alone once its own hello came back and no
other process was heard. Whenever it learns of another process at the table, it
announces there the last version it announced, which covers whatever it did not
publish meanwhile. After a loss of Redis it publishes everything again until the new
subscriptions' hellos came back.
"""

import asyncio
import functools
import json
import logging
import secrets
import threading
import weakref
from collections import deque
from urllib.parse import urlsplit

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from games import resp

log = logging.getLogger(__name__)

# channels-redis forgets a group member after a day (group_expiry); without Redis pub/sub
# the process renews its memberships well before that.
RENEW_SECONDS = 600
# A listener that heard nothing for this long checks its connection by asking again.
IDLE_SECONDS = 30.0


def table_group(table_id) -> str:
    return f"table.{table_id}"


def table_channel(table_id, redis_url: str = "", prefix: str = "") -> str:
    """The Redis pub/sub channel of a table's announcements. Pub/sub channels are shared
    by every database of a Redis server: the database number is part of the name."""
    redis_url = redis_url or settings.REDIS_URL
    database = urlsplit(redis_url).path.strip("/") or "0"
    return f"{prefix or settings.REDIS_PREFIX}:{database}:table:{table_id}"


_publisher = None
_publisher_lock = threading.Lock()


def publish(table_id: int, event: dict) -> None:
    """Announce from synchronous code (a request, the clock, the admin), any thread."""
    global _publisher
    event = {**event, "table": table_id}
    if not settings.REDIS_URL:
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(table_group(table_id), event)
        return
    if _publisher is None:
        import redis

        with _publisher_lock:
            if _publisher is None:
                _publisher = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=5)
    _publisher.publish(table_channel(table_id), json.dumps(event))


class Hub:
    def __init__(self, layer, redis_url: str = "", prefix: str = "sixclub"):
        self.layer = layer
        self.redis_url = redis_url
        self.prefix = prefix
        self.sockets: dict[int, set] = {}
        self.origin = secrets.token_hex(8)
        self.lock = asyncio.Lock()
        self.tasks: set[asyncio.Task] = set()
        self.listening: list[asyncio.Task] = []
        self.channel: str | None = None  # without Redis: this process's layer channel
        # With Redis: the connection that publishes (opened when first needed, again after
        # a loss), the one that listens, and whether the listener lost its connection
        # and is not back yet.
        self.publisher: resp.Connection | None = None
        self.opening: asyncio.Future | None = None
        self.subscriber: resp.Connection | None = None
        self.lost = False
        self.echo = (', "origin": ' + json.dumps(self.origin) + "}").encode()
        # With Redis, per table: heard our own hello (our subscription is on), the other
        # processes heard there, the last version announced from here and not published.
        self.greeted: set[int] = set()
        self.others: dict[int, set[str]] = {}
        self.unpublished: dict[int, int] = {}

    # Sockets come and go.

    async def join(self, table_id: int, consumer) -> None:
        async with self.lock:
            members = self.sockets.setdefault(table_id, set())
            members.add(consumer)
            if len(members) > 1:
                return
            try:
                await self._subscribe(table_id)
            except BaseException:
                del self.sockets[table_id]
                if not self.sockets:
                    self._stop()
                raise

    async def leave(self, table_id: int, consumer) -> None:
        async with self.lock:
            members = self.sockets.get(table_id)
            if members is None or consumer not in members:
                return
            members.discard(consumer)
            if not members:
                del self.sockets[table_id]
                self._forget(table_id)
                try:
                    await self._unsubscribe(table_id)
                except Exception:
                    # The listener subscribes afresh after a failure, to present tables only.
                    log.warning("table %s: could not stop listening to it", table_id)
            if not self.sockets:
                self._stop()

    # Announcements.

    async def announce(self, table_id: int, event: dict) -> None:
        """Tell every socket of the table, here at once and elsewhere through Redis (if
        another process is there, or may be)."""
        # The origin last: this process knows its own announcements coming back from
        # Redis by their end, without reading them (_pushed).
        event = {key: value for key, value in event.items() if key != "origin"}
        event["table"], event["origin"] = table_id, self.origin
        self.deliver(table_id, event)
        if not self.redis_url:
            await self.layer.group_send(table_group(table_id), event)
            return
        if not self.alone(table_id):
            await self._send(table_id, json.dumps(event))
            return
        version = event.get("version")
        if version is not None:
            self.unpublished[table_id] = max(version, self.unpublished.get(table_id, version))

    def alone(self, table_id: int) -> bool:
        """No other process listens to the table, as far as this one has heard."""
        return table_id in self.greeted and not self.others.get(table_id) and not self.lost

    async def _say(self, table_id: int, kind: str) -> None:
        message = {"type": kind, "table": table_id, "origin": self.origin}
        try:
            await self._send(table_id, json.dumps(message))
        except Exception:
            # Unsaid, nobody counts on it: without its hello back this process publishes
            # everything, and a process not heard of yet is met by its announcements.
            log.warning("table %s: could not say %s", table_id, kind, exc_info=True)

    def deliver(self, table_id: int, event: dict) -> None:
        members = self.sockets.get(table_id)
        if members:
            self._spawn(self._hand_over(list(members), event))

    async def _hand_over(self, members, event):
        # Renders wait for what the sockets have queued to be written (acknowledgements
        # first), and for the decisions that came in meanwhile to be read.
        await after_writes()
        for consumer in members:
            try:
                await consumer.table_changed(event)
            except Exception:
                log.exception("table %s: a socket could not take an announcement", event["table"])

    def _heard(self, event) -> None:
        table_id, origin, kind = event.get("table"), event.get("origin"), event.get("type")
        if not isinstance(table_id, int):
            return
        if kind in ("hub.hello", "hub.here"):
            if origin == self.origin:
                if kind == "hub.hello" and table_id in self.sockets:
                    self.greeted.add(table_id)
            elif table_id in self.sockets:
                self._met(table_id, origin, answer=kind == "hub.hello")
            return
        if kind == "hub.bye":
            if origin != self.origin:
                self.others.get(table_id, set()).discard(origin)
            return
        if origin == self.origin:
            return  # made here: delivered already
        if table_id in self.sockets and isinstance(origin, str):
            # Announcements from a process not met yet (it said hello before this one
            # listened, or its hello was lost): it is there.
            self.others.setdefault(table_id, set()).add(origin)
        self.deliver(table_id, event)

    def _met(self, table_id: int, origin, answer: bool) -> None:
        """Another process listens to the table: from now on announce there too, starting
        with the last version announced here while alone, if any."""
        self.others.setdefault(table_id, set()).add(origin)
        if answer:
            self._spawn(self._say(table_id, "hub.here"))
        version = self.unpublished.pop(table_id, None)
        if version is not None:
            event = {"type": "table.changed", "table": table_id, "version": version}
            event["origin"] = self.origin
            self._spawn(self._publish(table_id, event))

    async def _publish(self, table_id: int, event: dict) -> None:
        try:
            await self._send(table_id, json.dumps(event))
        except Exception:
            log.exception("table %s: could not announce version %s", table_id, event["version"])

    def _forget(self, table_id: int) -> None:
        self.greeted.discard(table_id)
        self.others.pop(table_id, None)
        self.unpublished.pop(table_id, None)

    def _afresh(self) -> None:
        """Announcements may have been lost: every socket reads its table again."""
        for table_id in list(self.sockets):
            self.deliver(table_id, {"type": "table.changed", "table": table_id, "version": None})

    # Publishing and listening, with Redis.

    def _name(self, table_id) -> bytes:
        return _channel_name(table_id, self.redis_url, self.prefix)

    async def _send(self, table_id: int, payload: str) -> None:
        """PUBLISH on the table's channel, on this process's publishing connection."""
        connection = self.publisher
        if connection is None or not connection.open:
            connection = await self._publishing()
        await connection.request(b"PUBLISH", self._name(table_id), payload)

    async def _publishing(self) -> resp.Connection:
        # Announcements that find no open connection wait for the same new one.
        if self.opening is None:
            self.opening = asyncio.ensure_future(resp.connect(self.redis_url))
        opening = self.opening
        try:
            connection = await asyncio.shield(opening)
        finally:
            if self.opening is opening and opening.done():
                self.opening = None
        self.publisher = connection
        return connection

    async def _subscribe(self, table_id: int) -> None:
        if not self.redis_url:
            await self.layer.group_add(table_group(table_id), await self._layer_channel())
            return
        if not self.listening:
            # Redis away now: this socket cannot be told of its table, it is refused.
            connection = await resp.connect(self.redis_url, self._pushed)
            self.subscriber, self.lost = connection, False
            connection.send(b"SUBSCRIBE", self._name(table_id))
            self._listen_with(self._listen_redis(connection))
        elif not self.lost and self.subscriber is not None:
            # If the connection was lost just now, the listener subscribes to every
            # table when it is back, this one included.
            self.subscriber.send(b"SUBSCRIBE", self._name(table_id))

    async def _unsubscribe(self, table_id: int) -> None:
        if not self.redis_url:
            await self.layer.group_discard(table_group(table_id), self.channel)
        elif self.subscriber is not None and not self.lost:
            self.subscriber.send(b"UNSUBSCRIBE", self._name(table_id))
            await self._say(table_id, "hub.bye")

    async def _listen_redis(self, connection):
        """Keep listening: when the connection is lost, connect again as soon as Redis
        lets us, subscribe to every table of this process, and have every socket read
        its table afresh (announcements may have been lost meanwhile). A connection that
        heard nothing for IDLE_SECONDS is checked with a PING."""
        pause = 0.5
        while True:
            try:
                if connection is None:
                    # Under the lock: no socket joins a table meanwhile unheard.
                    async with self.lock:
                        connection = await resp.connect(self.redis_url, self._pushed)
                        self.subscriber = connection
                        if self.sockets:
                            connection.send(b"SUBSCRIBE", *(self._name(t) for t in self.sockets))
                        self.lost = False
                    self._afresh()
                    pause = 0.5
                error = await connection.watch(IDLE_SECONDS)
                log.warning("the table listener lost Redis (%s); listening again", error)
            except asyncio.CancelledError:
                if connection is not None and connection is not self.subscriber:
                    connection.close()  # opened just as the hub stopped listening
                raise
            except Exception:
                log.warning("the table listener could not reach Redis; trying again", exc_info=True)
            self.lost = True
            # Whoever is at which table is unknown from now on: publish everything.
            self.greeted.clear()
            if connection is not None:
                connection.close()
            connection = self.subscriber = None
            await asyncio.sleep(pause)
            pause = min(pause * 2, 10.0)

    def _pushed(self, items) -> None:
        """What the listening connection receives: announcements, and the confirmation
        of each subscription."""
        kind = items[0]
        if kind == b"message" and len(items) == 3:
            data = items[2]
            if data.endswith(self.echo) and b'"type": "hub.' not in data:
                return  # an announcement made here, delivered here already (announce)
            try:
                self._heard(json.loads(data))
            except (ValueError, TypeError, AttributeError):
                log.warning("table listener: not an announcement: %r", data[:200])
        elif kind == b"subscribe" and len(items) == 3:
            # Listening to the table from now on: any process there may hear of it.
            table_id = _table_of(items[1])
            if table_id in self.sockets:
                self._spawn(self._say(table_id, "hub.hello"))

    # Listening, through the channel layer (no Redis).

    async def _layer_channel(self) -> str:
        if self.channel is None:
            self.channel = await self.layer.new_channel()
            self._listen_with(self._listen_layer(self.channel), self._renew(self.channel))
        return self.channel

    async def _listen_layer(self, channel):
        while channel == self.channel:
            event = await self.layer.receive(channel)
            if asyncio.current_task().cancelling() or channel != self.channel:
                return
            self._heard(event)

    async def _renew(self, channel):
        while channel == self.channel:
            await asyncio.sleep(RENEW_SECONDS)
            for table_id in list(self.sockets):
                try:
                    await self.layer.group_add(table_group(table_id), channel)
                except Exception:
                    log.warning("table %s: could not renew its group", table_id)

    # Tasks.

    def _listen_with(self, *coroutines) -> None:
        self.listening = [self._spawn(coroutine) for coroutine in coroutines]

    def _stop(self) -> None:
        """No socket of any table left in this process: stop listening (again when one
        comes). Also what lets a test's event loop end with nothing pending."""
        self.channel = None
        subscriber, self.subscriber = self.subscriber, None
        for task in self.listening:
            task.cancel()
        self.listening = []
        if subscriber is not None:
            subscriber.close()

    def close(self) -> None:
        """Stop everything (tests, and a process's end): listening and publishing."""
        self._stop()
        for task in list(self.tasks):
            task.cancel()
        if self.publisher is not None:
            self.publisher.close()
            self.publisher = None

    def _spawn(self, coroutine) -> asyncio.Task:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task


@functools.lru_cache(maxsize=4096)
def _channel_name(table_id, redis_url: str, prefix: str) -> bytes:
    # Named for every announcement: made once per table.
    return table_channel(table_id, redis_url, prefix).encode()


def _table_of(channel) -> int | None:
    """The table of a pub/sub channel's name (`table_channel`)."""
    if isinstance(channel, bytes):
        channel = channel.decode("utf-8", "replace")
    try:
        return int(str(channel).rsplit(":", 1)[-1])
    except ValueError:
        return None


_writes: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, deque]" = weakref.WeakKeyDictionary()


def after_writes() -> asyncio.Future:
    """A future done after the event loop's next poll of its sockets, in the order these
    futures were asked for.

    A callback made ready now runs before that poll, a timer due now runs after the
    poll's own callbacks. So what waits for this future (a table's renders) lets the
    messages that arrived meanwhile (other decisions) be read first, and the frames that
    Twisted still queues (behind a slow socket, or everything with EAGER_WRITES=0: it
    writes them when the poll finds their socket writable) leave first."""
    loop = asyncio.get_running_loop()
    waiting = _writes.get(loop)
    if waiting is None:
        waiting = _writes[loop] = deque()
    if not waiting:
        loop.call_at(0, _release, waiting)  # one timer, already due, for all of them
    future = loop.create_future()
    waiting.append(future)
    return future


def _release(waiting: deque) -> None:
    while waiting:
        future = waiting.popleft()
        if not future.done():  # else its waiter was cancelled
            future.set_result(None)


_hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub]" = weakref.WeakKeyDictionary()


def current() -> Hub:
    """This event loop's hub (one per server process; tests may run several loops)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = Hub(get_channel_layer(), settings.REDIS_URL, settings.REDIS_PREFIX)
    return hub
