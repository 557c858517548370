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


@pytest.fixture
def no_rate_limit(settings):
    """For tests that play a whole game as fast as the machine goes."""
    settings.SIXCLUB_WS_RATE = (10_000, 1_000_000)
