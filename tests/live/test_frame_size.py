"""What a frame over 64 KiB gets from the real server (issue 29; docs/protocol.md).

Daphne runs with `--websocket-max-message-size 65536` (Makefile's DAPHNE_ARGS, the
`daphne_server` fixture, docs/deploy.md). A bigger message never reaches the application:
daphne (autobahn) drops the TCP connection, without a close frame. So no `too_big` notice
can be sent, and no 1009 either; docs/protocol.md says what happens instead.
"""

import asyncio
import json

import pytest
import websockets
from websockets.asyncio.client import connect as ws_connect

LIMIT = 65536

SETUP = """
import json
from django.conf import settings
from django.test import Client
from accounts.models import User
from games import services
alice = User.objects.create_user("big_a", password="pw-long-enough-1")
bob = User.objects.create_user("big_b", password="pw-long-enough-1")
table = services.table_create(user=alice, seats_count=2, options={})
services.seat_join(table_id=table.pk, user=bob)
services.table_start(table_id=table.pk, user=alice)
client = Client()
client.force_login(alice)
print(json.dumps({"table": table.pk, "cookie": client.cookies[settings.SESSION_COOKIE_NAME].value}))
"""


def frame_of(size: int) -> str:
    """A JSON message of exactly `size` bytes, of a type no game has."""
    empty = json.dumps({"type": "dance", "pad": ""})
    return json.dumps({"type": "dance", "pad": "x" * (size - len(empty))})


@pytest.fixture(scope="module")
def table(daphne_server):
    return json.loads(daphne_server.shell(SETUP).strip().splitlines()[-1])


async def open_table(server, table):
    socket = await ws_connect(
        f"{server.ws_url}/ws/tables/{table['table']}/",
        origin=server.url,
        additional_headers={"Cookie": f"sessionid={table['cookie']}"},
        compression=None,
    )
    assert 'id="live"' in await asyncio.wait_for(socket.recv(), 10)
    return socket


async def test_a_frame_of_64_kib_is_read_and_answered(daphne_server, table):
    socket = await open_table(daphne_server, table)
    message = frame_of(LIMIT)
    assert len(message.encode()) == LIMIT
    await socket.send(message)
    frame = await asyncio.wait_for(socket.recv(), 10)
    assert 'data-code="unknown_type"' in frame, frame[:300]
    await socket.close()


@pytest.mark.parametrize("size", [LIMIT + 1, 70_000])
async def test_a_bigger_frame_drops_the_connection_without_an_answer(daphne_server, table, size):
    socket = await open_table(daphne_server, table)
    await socket.send(frame_of(size))
    with pytest.raises(websockets.ConnectionClosed) as closed:
        frame = await asyncio.wait_for(socket.recv(), 10)
        pytest.fail(f"answered: {frame[:300]}")
    # Dropped, not closed: no close frame (autobahn's 1009 would need one), so the client
    # sees an abnormal closure, 1006, on which the page's ws extension reconnects.
    assert closed.value.rcvd is None
    assert socket.close_code == 1006
    # The server goes on serving this player.
    socket = await open_table(daphne_server, table)
    await socket.close()
