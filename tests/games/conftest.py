import shutil

import pytest

from games import services
from games.models import Seat
from tests.games.redis_server import RedisServer


@pytest.fixture
def three(alice, bob, make_player):
    """A started 3-player table of one round, and its players by seat."""
    carol = make_player("carol", display_name="Carol")
    table = services.table_create(user=alice, seats_count=3, options={"end": "rounds", "rounds": 1})
    services.seat_join(table_id=table.pk, user=bob)
    services.seat_join(table_id=table.pk, user=carol)
    services.table_start(table_id=table.pk, user=alice)
    users = {seat.position: seat.user for seat in Seat.objects.filter(table=table)}
    return table, users


@pytest.fixture
def redis_server():
    """A redis-server of the test's own (tests/games/redis_server.py)."""
    server = RedisServer()
    server.start()
    yield server
    if server.process.poll() is None:
        server.kill()
    shutil.rmtree(server.folder, ignore_errors=True)
