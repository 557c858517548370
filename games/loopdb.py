"""PostgreSQL connections of the event loop itself, for a selection's one statement.

A selection within a turn is most decisions, and needs one autocommitted statement
(games.services, `_select_within_turn`). Run in a decision thread, it waited for a free
thread, then for the GIL after its round trip, then for the event loop to hand its
acknowledgement on: under load most of its latency (docs/performance.md §12). Here the
event loop sends the statement on a connection of its own and serves other sockets while
PostgreSQL answers.

Each event loop keeps at most `SIZE` connections, opened when first needed. When all are
busy, `execute` returns None and the caller takes the
thread path; a connection that fails is closed, and its error raised for the caller to
do the same (the thread path opens its own connections, and tells a resent decision from
a new one).
"""

import asyncio
import contextlib
import weakref

from django.conf import settings

SIZE = 4
APPLICATION_NAME = "sixclub-loop"
# Settings of Django's backend that are not libpq's.
_DJANGO_ONLY = {"pool", "isolation_level", "server_side_binding", "assume_role"}


class _Connections:
    def __init__(self):
        self.idle: list = []
        self.opened = 0

    async def execute(self, sql: str, args: list) -> int | None:
        if self.idle:
            connection = self.idle.pop()
        elif self.opened < SIZE:
            self.opened += 1
            try:
                connection = await _connect()
            except BaseException:
                self.opened -= 1
                raise
        else:
            return None
        try:
            cursor = await connection.execute(sql, args)
            rowcount = cursor.rowcount
        except BaseException:
            self.opened -= 1
            await _close(connection)
            raise
        self.idle.append(connection)
        return rowcount

    async def close(self) -> None:
        idle, self.idle = self.idle, []
        self.opened -= len(idle)
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
    return await _current().execute(sql, args)


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
    return await psycopg.AsyncConnection.connect(**params, **options, autocommit=True)


async def _close(connection) -> None:
    with contextlib.suppress(Exception):  # already broken: nothing more to release
        await connection.close()
