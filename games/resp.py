"""The little of Redis the hub needs (PUBLISH and pub/sub), spoken directly in RESP2.

With two server processes, every decision is published once and heard once by each other
process at the table. Through redis-py, that took about 10 % of a process's CPU at 100
tables (a connection pool, a retry wrapper, a command parser per call:
docs/performance.md §16). Here one connection per process publishes, pipelined (replies
come back in order), and one connection listens; each is an asyncio protocol that parses
what arrives as it arrives.

`connect()` understands `redis://[[user]:password@]host[:port][/db]`, `rediss://` (TLS) and
`unix:///path`. The database number does not matter to pub/sub: channel names carry it
(games.hub.table_channel).
"""

import asyncio
import logging
import time
from collections import deque
from urllib.parse import unquote, urlsplit

log = logging.getLogger(__name__)

# A request with no reply after this long, or a silent listener's PING unanswered after
# this long, closes its connection: whatever waits on it hears of the loss.
ANSWER_SECONDS = 5.0

# What a subscribed connection receives without asking (RESP2 arrays, by their first item).
PUSHED = frozenset((b"message", b"subscribe", b"unsubscribe", b"pong"))


class RedisError(Exception):
    """An error reply from Redis."""


class ProtocolError(Exception):
    """Something that is not RESP2 came from the server."""


def pack(*args) -> bytes:
    """A command as RESP2: an array of bulk strings."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        if isinstance(arg, str):
            arg = arg.encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(arg), arg))
    return b"".join(parts)


def parse(buffer, start: int):
    """The value that starts at `start` in `buffer`, and where it ends: `(value, end)`.
    `end == start` when the value is not all there yet. Errors are `RedisError`s, null
    bulk strings and arrays None, bulk and simple strings bytes."""
    line_end = buffer.find(b"\r\n", start)
    if line_end < 0:
        return None, start
    kind = buffer[start]
    try:
        if kind == 36:  # $: a bulk string
            size = int(buffer[start + 1 : line_end])
            if size < 0:
                return None, line_end + 2
            begin = line_end + 2
            stop = begin + size
            if len(buffer) < stop + 2:
                return None, start
            return bytes(buffer[begin:stop]), stop + 2
        if kind == 42:  # *: an array
            count = int(buffer[start + 1 : line_end])
            if count < 0:
                return None, line_end + 2
            items, at = [], line_end + 2
            for _ in range(count):
                item, end = parse(buffer, at)
                if end == at:
                    return None, start
                items.append(item)
                at = end
            return items, at
        if kind == 58:  # :, an integer
            return int(buffer[start + 1 : line_end]), line_end + 2
    except ValueError:
        text = bytes(buffer[start:line_end])
        raise ProtocolError(f"not a length or an integer: {text!r}") from None
    if kind == 43:  # +, a simple string
        return bytes(buffer[start + 1 : line_end]), line_end + 2
    if kind == 45:  # -, an error
        return RedisError(bytes(buffer[start + 1 : line_end]).decode("utf-8", "replace")), (
            line_end + 2
        )
    raise ProtocolError(f"unknown RESP type {bytes(buffer[start : start + 1])!r}")


class Connection(asyncio.Protocol):
    """One connection to Redis.

    `request()` sends a command and returns the future of its reply; replies are matched
    to requests in order. With `on_push`, what a subscribed connection receives unasked
    (messages, subscription confirmations, PING's answer) goes to `on_push(items)`
    instead, on the event loop, as it is parsed. `lost` is done, with the error, once the
    connection is closed for any reason.
    """

    def __init__(self, on_push=None):
        self.on_push = on_push
        self.transport = None
        self.buffer = bytearray()
        self.waiting: deque = deque()  # (future, monotonic time sent)
        self.loop = asyncio.get_running_loop()
        self.lost = self.loop.create_future()
        self.heard = 0  # reads so far: a listener's sign of life
        self.timer = None
        self.error: Exception | None = None  # why this end gave the connection up

    @property
    def open(self) -> bool:
        return self.transport is not None and not self.lost.done()

    # asyncio.Protocol

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data):
        self.heard += 1
        buffer = self.buffer
        buffer += data
        at = 0
        try:
            while at < len(buffer):
                value, end = parse(buffer, at)
                if end == at:
                    break
                at = end
                self._received(value)
        except ProtocolError as error:
            log.error("Redis: %s; closing the connection", error)
            self._fail(ConnectionError(f"Redis protocol error: {error}"))
            return
        del buffer[:at]

    def _received(self, value):
        if self.on_push is not None and type(value) is list and value and value[0] in PUSHED:
            try:
                self.on_push(value)
            except Exception:
                log.exception("Redis: a pushed message could not be handled")
            return
        if not self.waiting:
            log.warning("Redis: a reply nobody asked for: %r", value)
            return
        future, _sent = self.waiting.popleft()
        if future.done():  # its asker gave up
            return
        if isinstance(value, RedisError):
            future.set_exception(value)
        else:
            future.set_result(value)

    def connection_lost(self, exc):
        self.transport = None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        error = self.error or ConnectionError(f"lost the connection to Redis: {exc or 'closed'}")
        while self.waiting:
            future, _sent = self.waiting.popleft()
            if not future.done():
                future.set_exception(error)
        if not self.lost.done():
            self.lost.set_result(error)

    # Use

    def send(self, *args) -> bool:
        """Send a command whose answer comes pushed, if any (SUBSCRIBE, UNSUBSCRIBE, and
        PING once subscribed). False if the connection is closed."""
        if not self.open:
            return False
        self.transport.write(pack(*args))
        return True

    def request(self, *args) -> asyncio.Future:
        """Send a command; the future of its reply (a RedisError for an error reply, a
        ConnectionError if the connection is lost first)."""
        if not self.open:
            raise ConnectionError("the connection to Redis is closed")
        future = self.loop.create_future()
        self.waiting.append((future, time.monotonic()))
        self.transport.write(pack(*args))
        if self.timer is None:
            self.timer = self.loop.call_later(ANSWER_SECONDS, self._check_answers)
        return future

    def _check_answers(self):
        # One timer for all requests in flight: the oldest has waited long enough?
        self.timer = None
        if not self.waiting:
            return
        waited = time.monotonic() - self.waiting[0][1]
        if waited >= ANSWER_SECONDS:
            self._fail(ConnectionError(f"Redis did not answer for {waited:.1f} s"))
        else:
            self.timer = self.loop.call_later(ANSWER_SECONDS - waited, self._check_answers)

    def _fail(self, error):
        self.error = self.error or error
        if not self.lost.done():
            self.lost.set_result(error)
        if self.transport is not None:
            self.transport.abort()  # connection_lost follows, and fails the waiting

    def close(self):
        if self.transport is not None:
            self.transport.close()

    async def watch(self, idle: float) -> Exception:
        """Wait until the connection is lost, and return why. After `idle` seconds with
        nothing received, ask Redis for a PING (subscribed connections only): no answer,
        and the connection is closed as lost."""
        while True:
            heard = self.heard
            done, _ = await asyncio.wait({self.lost}, timeout=idle)
            if done:
                return self.lost.result()
            if self.heard != heard:
                continue
            self.send(b"PING")
            done, _ = await asyncio.wait({self.lost}, timeout=ANSWER_SECONDS)
            if not done and self.heard == heard:
                self._fail(ConnectionError(f"Redis did not answer a PING in {ANSWER_SECONDS} s"))


async def connect(url: str, on_push=None, timeout: float = ANSWER_SECONDS) -> Connection:
    """A connection to the Redis of `url`, authenticated if the URL says so."""
    parts = urlsplit(url)
    loop = asyncio.get_running_loop()

    def factory():
        return Connection(on_push)

    if parts.scheme == "unix":
        opening = loop.create_unix_connection(factory, parts.path)
    elif parts.scheme in ("redis", "rediss"):
        opening = loop.create_connection(
            factory,
            parts.hostname or "localhost",
            parts.port or 6379,
            ssl=True if parts.scheme == "rediss" else None,
        )
    else:
        raise ValueError(f"not a Redis URL: {parts.scheme}://")
    _transport, connection = await asyncio.wait_for(opening, timeout)
    if parts.password is not None:
        credentials = [unquote(parts.password)]
        if parts.username:
            credentials.insert(0, unquote(parts.username))
        try:
            await asyncio.wait_for(connection.request(b"AUTH", *credentials), timeout)
        except BaseException:
            connection.close()
            raise
    return connection
