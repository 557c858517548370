"""How fast one user may write in the chats: `burst` messages in any window of
`burst * 60 / per_minute` seconds (settings.SIXCLUB_CHAT_RATE, default 5 then 20 a minute).

The count is kept in Django's cache, as games.limits keeps the WebSocket allowance: on
Redis (REDIS_URL) every server process shares it. It is counted in the service, in the
database thread that stores the message, so the event loop never waits on it.
"""

import math
import time

from django.conf import settings
from django.core.cache import cache

DEFAULT_RATE = (5, 20)


def chat_allows(user_id: int, now: float | None = None) -> bool:
    burst, per_minute = getattr(settings, "SIXCLUB_CHAT_RATE", DEFAULT_RATE)
    window = burst * 60 / per_minute
    now = time.time() if now is None else now
    key = f"chat-rate:{user_id}:{int(now // window)}"
    timeout = math.ceil(window) + 1
    cache.add(key, 0, timeout=timeout)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls: this message opens a new count
        cache.add(key, 1, timeout=timeout)
        count = 1
    return count <= burst
