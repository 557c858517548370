import pytest

from games import services
from games.models import Seat


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
