"""Per-user message rate limit for WebSockets: a token bucket per user and process.

A player sends one decision every few seconds; a burst of clicks is fine, a flood is not.
The bucket throttles the user who floods and nobody else: other users have their own.
"""

import time
from dataclasses import dataclass

from django.conf import settings


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


def allow(user_id: int, now: float | None = None) -> bool:
    burst, per_minute = settings.SIXCLUB_WS_RATE
    now = time.monotonic() if now is None else now
    bucket = _buckets.get(user_id)
    if bucket is None:
        if len(_buckets) > 50_000:
            _buckets.clear()  # bounded memory; a reset only forgives
        bucket = _buckets[user_id] = Bucket(tokens=burst, stamp=now)
    return bucket.take(now, burst, per_minute)


def reset() -> None:
    _buckets.clear()
