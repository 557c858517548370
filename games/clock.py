"""The clock: applies RULES §1.8 fallbacks when a decision's deadline has passed, and keeps
presence: who is at a table, who is away, which tables nobody comes back to.

Deadlines live in the database (`Game.deadline`), so a restarted server finds them
again. Every daphne process runs one clock; `services.game_timeout` claims each expired
game under a row lock (SKIP LOCKED), so a timeout is applied once however many run. Each
clock also says which players its own sockets hold (`services.seats_seen`), sweeps
(`services.presence_sweep`, claimed under row locks too), and queues the daily digest of
turn-based tables once (`digest`).
"""

import asyncio
import logging
import sys
import time

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from games import services, shutdown, turn_mails

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25
# How often the away players and the abandoned tables are looked for.
SWEEP_SECONDS = 2.0


# The last day this process saw queued: it asks the database no more that day.
_digest_seen: list = []


def digest() -> bool:
    """Queue the day's digest of turn-based tables once its hour has come (the database
    row of the day makes it once across processes: games.turn_mails.digest_due)."""
    now = timezone.localtime()
    if now.hour < settings.SIXCLUB_DIGEST_HOUR or _digest_seen[-1:] == [now.date()]:
        return False
    queued = turn_mails.digest_due(now)
    _digest_seen[:] = [now.date()]  # queued here, or by another clock already
    return queued


def tick() -> int:
    """Apply every expired deadline once; returns how many games were moved on."""
    moved = 0
    for game_id in services.games_due():
        try:
            if services.game_timeout(game_id=game_id):
                moved += 1
        except Exception:
            log.exception("clock: game %s could not be timed out", game_id)
    return moved


async def run(tick_seconds: float = TICK_SECONDS) -> None:
    log.info("clock started")
    heartbeat_due = sweep_due = 0.0
    while True:
        try:
            await database_sync_to_async(tick)()
        except Exception:
            log.exception("clock tick failed")
        now = time.monotonic()
        if now >= heartbeat_due:
            heartbeat_due = now + services.heartbeat_seconds()
            # Read on the event loop, where the sockets live; written off it.
            sockets = shutdown.open_table_sockets()
            try:
                await database_sync_to_async(services.seats_seen)(sockets)
            except Exception:
                log.exception("clock: the heartbeat failed")
        if now >= sweep_due:
            sweep_due = now + SWEEP_SECONDS
            try:
                await database_sync_to_async(services.presence_sweep)()
            except Exception:
                log.exception("clock: the presence sweep failed")
            try:
                await database_sync_to_async(digest)()
            except Exception:
                log.exception("clock: the digest could not be queued")
        await asyncio.sleep(tick_seconds)


def start_with_server() -> bool:
    """Under daphne, start this process's clock and its graceful SIGTERM handler
    (games.shutdown) as soon as the server runs, before any request.

    Daphne serves from Twisted's asyncio reactor, installed before the application is
    imported; `callWhenRunning` and `callLater` are Twisted's public ways to run code once
    it runs, here inside the event loop. Elsewhere (tests, `manage.py` commands) there is
    no reactor and nothing starts: `manage.py clock` runs a clock on its own.
    """
    if not settings.SIXCLUB_CLOCK:
        return False
    # Looked up, not imported: importing it would install Twisted's default reactor.
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None:
        return False
    reactor.callWhenRunning(reactor.callLater, 0, _start)
    return True


# The event loop keeps only a weak reference to a task: this one lives as long as the process.
_running: list[asyncio.Task] = []


def _start() -> None:
    loop = asyncio.get_running_loop()
    _running.append(loop.create_task(run()))
    shutdown.install(loop)
