"""Per-user message rate limit for WebSockets.

A player sends one decision every few seconds; a burst of clicks is fine, a flood is not.
`SIXCLUB_WS_RATE = (burst, per_minute)`: at most `burst` messages per window of
`burst * 60 / per_minute` seconds, which is `per_minute` on average.

With Redis (`REDIS_URL`) the count is kept in Django's cache on Redis, shared by every
server process, so that a user with sockets on several processes has one allowance, not
one per process. Those windows are fixed, so a burst across a window's end may get up to
twice `burst`. Without Redis (one process), a token bucket in memory does the same job.
"""

import math
import time
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache


@dataclass
class Bucket:
    tokens: float
    stamp: float

    def take(self, now: float, burst: int, per_minute: int) -> bool:
        self.tokens = min(burst, self.tokens + (now - self.stamp) * per_minute / 60)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


_buckets: dict[int, Bucket] = {}


def allow_here(user_id: int, now: float | None = None) -> bool:
    """This process's own count (the site runs in one process without Redis)."""
    burst, per_minute = settings.SIXCLUB_WS_RATE
    now = time.monotonic() if now is None else now
    bucket = _buckets.get(user_id)
    if bucket is None:
        if len(_buckets) > 50_000:
            _buckets.clear()  # bounded memory; a reset only forgives
        bucket = _buckets[user_id] = Bucket(tokens=burst, stamp=now)
    return bucket.take(now, burst, per_minute)


def allow_shared(user_id: int, now: float | None = None) -> bool:
    """The count every process shares, in the cache: one counter per user and window."""
    burst, per_minute = settings.SIXCLUB_WS_RATE
    window = burst * 60 / per_minute
    now = time.time() if now is None else now
    key = f"ws-rate:{user_id}:{int(now // window)}"
    try:
        # Counted where the window's count is there already (every message but its first).
        count = cache.incr(key)
    except ValueError:
        # The window's first message opens its count, kept a little longer than the window
        # (`add` sets it only if no other process did meanwhile).
        opened = cache.add(key, 1, timeout=math.ceil(window) + 1)
        count = 1 if opened else cache.incr(key)
    return count <= burst


def allow_now(user_id: int) -> bool:
    """Whether this message of `user_id` is within the allowance: the shared count with
    Redis, else this process's. Blocking: call it off the event loop (a decision counts in
    its own thread, games.consumers), or through `allow`."""
    if not settings.REDIS_URL:
        return allow_here(user_id)
    return allow_shared(user_id)


async def allow(user_id: int) -> bool:
    if not settings.REDIS_URL:
        return allow_here(user_id)
    # A round trip to Redis: in a worker thread, not on the event loop, and not on the
    # thread that serialises the database work of every socket.
    return await sync_to_async(allow_shared, thread_sensitive=False)(user_id)


def reset() -> None:
    _buckets.clear()
