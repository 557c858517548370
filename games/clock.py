"""The clock: applies RULES §1.8 fallbacks when a decision's deadline has passed.

Deadlines live in the database (`Game.deadline`), so a restarted server finds them
again. Every daphne process runs one clock; `services.game_timeout` claims each expired
game under a row lock (SKIP LOCKED), so a timeout is applied once however many run.
"""

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from games import services, shutdown

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25


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
    while True:
        try:
            await database_sync_to_async(tick)()
        except Exception:
            log.exception("clock tick failed")
        await asyncio.sleep(tick_seconds)


class ClockMiddleware:
    """ASGI wrapper that starts this process's clock on the first connection it serves,
    and its graceful SIGTERM handler (games.shutdown)."""

    def __init__(self, app):
        self.app = app
        self.task = None

    async def __call__(self, scope, receive, send):
        if self.task is None and getattr(settings, "SIXCLUB_CLOCK", True):
            loop = asyncio.get_running_loop()
            self.task = loop.create_task(run())
            shutdown.install(loop)
        return await self.app(scope, receive, send)
