import pytest
from asgiref.sync import sync_to_async

from games import services
from tests.games import ws

pytestmark = pytest.mark.django_db(transaction=True)


async def test_the_lobby_shows_a_new_table_and_its_seats_as_they_change(alice, bob):
    watcher = await ws.connect("/ws/lobby/", bob)
    assert watcher.connected
    table = await sync_to_async(services.table_create)(
        user=alice, seats_count=3, options={}, name="Jeudi au club"
    )
    frame = await ws.receive(watcher)
    assert 'id="lobby-tables"' in frame and "Jeudi au club" in frame and "1/3" in frame
    await sync_to_async(services.seat_join)(table_id=table.pk, user=bob)
    frame = await ws.receive(watcher)
    assert "2/3" in frame
    await watcher.disconnect()


async def test_a_private_table_stays_out_of_the_lobby(alice, bob):
    watcher = await ws.connect("/ws/lobby/", bob)
    await sync_to_async(services.table_create)(
        user=alice, seats_count=3, options={}, name="Entre nous", is_public=False
    )
    frame = await ws.receive(watcher)
    assert "Entre nous" not in frame
    await watcher.disconnect()


async def test_the_lobby_socket_only_listens(alice):
    watcher = await ws.connect("/ws/lobby/", alice)
    await ws.send(watcher, type="select", card=3)
    assert 'data-code="read_only"' in await ws.receive(watcher)
    await watcher.disconnect()
