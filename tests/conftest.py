import pytest

PASSWORD = "correct-horse-battery-42"


@pytest.fixture
def make_player(db, django_user_model):
    def make(username, **extra):
        return django_user_model.objects.create_user(
            username=username, password=PASSWORD, email=f"{username}@example.org", **extra
        )

    return make


@pytest.fixture
def alice(make_player):
    return make_player("alice", display_name="Alice")


@pytest.fixture
def bob(make_player):
    return make_player("bob", display_name="Bob")


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Hashing strength is Django's business, not ours; the suite creates many accounts.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_background_clock(settings):
    # Tests move time on themselves (games.clock.tick); a clock task would race them.
    settings.SIXCLUB_CLOCK = False


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    from games import limits

    limits.reset()


@pytest.fixture(autouse=True)
def _fresh_cache(settings):
    """Each test starts with an empty cache (lockouts, reset-mail counts, rates)."""
    from django.core.cache import cache

    if not settings.REDIS_URL:
        cache.clear()
        return
    # RedisCache.clear() is FLUSHDB: in CI the channel layer's queues and groups share the
    # database (and the prefix), so only this site's cache keys go: "<prefix>:<version>:*".
    import redis

    pattern = _glob_escape(cache.make_key("")) + "*"
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        keys = list(client.scan_iter(match=pattern, count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def _glob_escape(text: str) -> str:
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


@pytest.fixture
def no_rate_limit(settings):
    """For tests that play a whole game as fast as the machine goes."""
    settings.SIXCLUB_WS_RATE = (10_000, 1_000_000)


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Each test gets a channel layer of its own.

    Each async test runs on an event loop of its own, and channels-redis keeps per-channel
    asyncio locks in its layer instance: a layer receive still stopping in the background
    when one test's loop closes (games.consumers, closing sockets) would otherwise leave a
    lock bound to a dead loop for the next test.
    """
    from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers

    channel_layers.set(DEFAULT_CHANNEL_LAYER, channel_layers.make_backend(DEFAULT_CHANNEL_LAYER))
