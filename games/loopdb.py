"""PostgreSQL connections of the event loop itself, for a decision's one statement and
for reading a game that another process moved.

A selection within a turn is most decisions, and needs one autocommitted statement
(games.services, `_select_within_turn`); at a table without bots or absent players, a
decision that moves the game on needs one too (`decide_on_loop`). Run in a decision
thread, it waited for a free thread, then for the GIL after its round trip, then for the
event loop to hand its acknowledgement on: under load most of its latency
(docs/performance.md §12). Here the event loop sends the statement on a connection of
its own and serves other sockets while PostgreSQL answers. The same connections read
the game row when another process committed a version this one has not seen
(`rendering.catch_up`).

Each event loop keeps at most `SIZE` connections, opened when first needed. When all
stay busy for `WAIT` seconds, `execute` returns None and the caller takes the thread
path (under load the loop itself is slow to read their answers: with 4 connections and
no wait, two processes found none free for one statement in three; with 8 and 0.25 s,
up to 1,300 in 10 s in bursts; with 8 and 1 s, none in two runs). A connection that
fails is closed, and its error raised for the caller to do the same (the thread path
opens its own connections, and tells a resent decision from a new one).
"""

import asyncio
import contextlib
import weakref

from django.conf import settings

SIZE = 8
# How long a statement waits for one of them before the caller takes the thread path.
WAIT = 1.0
BUSY = object()  # what `fetchone` returns when every connection of the loop is in use
APPLICATION_NAME = "sixclub-loop"
# Settings of Django's backend that are not libpq's.
_DJANGO_ONLY = {"pool", "isolation_level", "server_side_binding", "assume_role"}


class _Connections:
    def __init__(self):
        self.idle: list = []
        self.slots = asyncio.Semaphore(SIZE)  # connections in use, or opened when needed

    async def run(self, sql: str, args: list, fetch: bool):
        """The statement's row count, or its first row with `fetch`; `BUSY` if no
        connection came free within `WAIT` seconds."""
        if self.slots.locked():
            try:
                await asyncio.wait_for(self.slots.acquire(), WAIT)
            except TimeoutError:
                return BUSY
        else:
            await self.slots.acquire()  # at once, without wait_for's task
        try:
            connection = self.idle.pop() if self.idle else await _connect()
            try:
                cursor = await connection.execute(sql, args)
                result = await cursor.fetchone() if fetch else cursor.rowcount
            except BaseException:
                await _close(connection)
                raise
            self.idle.append(connection)
            return result
        finally:
            self.slots.release()

    async def close(self) -> None:
        idle, self.idle = self.idle, []
        for connection in idle:
            await _close(connection)


def available() -> bool:
    return (
        settings.SIXCLUB_LOOP_SELECTIONS
        and settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    )


async def execute(sql: str, args: list) -> int | None:
    """Run one autocommitted statement; its row count, or None if no connection is free.
    Only where `available()`."""
    rowcount = await _current().run(sql, args, fetch=False)
    return None if rowcount is BUSY else rowcount


async def fetchone(sql: str, args: list):
    """Run one query; its first row (None if it has none), or `BUSY` if no connection is
    free. Only where `available()`."""
    return await _current().run(sql, args, fetch=True)


async def close() -> None:
    """Close this loop's idle connections (tests, a server stopping)."""
    connections = _loops.get(asyncio.get_running_loop())
    if connections is not None:
        await connections.close()


_loops: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Connections]" = (
    weakref.WeakKeyDictionary()
)


def _current() -> _Connections:
    loop = asyncio.get_running_loop()
    connections = _loops.get(loop)
    if connections is None:
        connections = _loops[loop] = _Connections()
    return connections


async def _connect():
    import psycopg

    database = settings.DATABASES["default"]
    params = {
        key: value
        for key, value in {
            "dbname": database.get("NAME"),
            "user": database.get("USER"),
            "password": database.get("PASSWORD"),
            "host": database.get("HOST"),
            "port": database.get("PORT"),
        }.items()
        if value
    }
    options = {k: v for k, v in database.get("OPTIONS", {}).items() if k not in _DJANGO_ONLY}
    params.setdefault("connect_timeout", 5)
    # Named, so that an operator (or a test) can tell them in pg_stat_activity.
    options.setdefault("application_name", APPLICATION_NAME)
    connection = await psycopg.AsyncConnection.connect(**params, **options, autocommit=True)
    if connection.info.parameter_status("TimeZone") != "UTC":
        # Times read here compare with the ORM's, which Django reads in UTC (USE_TZ).
        await connection.execute("SET TIME ZONE 'UTC'")
    return connection


async def _close(connection) -> None:
    with contextlib.suppress(Exception):  # already broken: nothing more to release
        await connection.close()
